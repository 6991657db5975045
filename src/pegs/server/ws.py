"""The WebSocket endpoint ``/ws/{code}``: hello, then acts, hints and pings.

Each message is checked for size, rate and shape before it reaches the table; every
refusal is an ``error`` reply that changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from . import chat, protocol
from .connection import Connection
from .doors import MESSAGE_KINDS
from .hub import Hub
from .limits import RateBucket
from .rooms import Room, TableError
from .table_base import ABANDONED

log = logging.getLogger("pegs.server")
router = APIRouter()

#: Close codes: policy violation (bad hello), no such table.
CLOSE_POLICY = 1008
#: Whole-number message ids are below this in size.
MAX_ID = 2 ** 63


def _dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"))


class Refused(Exception):
    """A client message refused before it reaches the table."""

    def __init__(self, message: dict[str, Any]) -> None:
        super().__init__(message["message"])
        self.message = message


def parse(text: str | None, limit: int, msg_bytes: bytes | None = None) -> dict[str, Any]:
    """The message as a JSON object, or :class:`Refused`."""
    if text is None:
        size = len(msg_bytes or b"")
        if size > limit:
            raise Refused(protocol.error("too_large", f"messages are at most {limit} bytes"))
        raise Refused(protocol.error("malformed", "send JSON text messages, not binary"))
    if len(text) > limit or len(text.encode("utf-8", "surrogatepass")) > limit:
        raise Refused(protocol.error("too_large", f"messages are at most {limit} bytes"))
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # not JSON, or nested deeper than Python recurses
        raise Refused(protocol.error("malformed", "a message must be a JSON object")) from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise Refused(protocol.error("malformed", 'a message is a JSON object with a "type"',
                                     _id(data)))
    return data


def _id(data: object) -> str | int | None:
    """The message's ``id`` if it is a usable one: text of 1-64 characters or a whole
    number of at most 64 bits."""
    msg_id = data.get("id") if isinstance(data, dict) else None
    if isinstance(msg_id, str) and 0 < len(msg_id) <= 64:
        return msg_id
    if isinstance(msg_id, int) and not isinstance(msg_id, bool) and -MAX_ID < msg_id < MAX_ID:
        return msg_id
    return None


async def _receive(ws: WebSocket) -> tuple[str | None, bytes | None]:
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    return message.get("text"), message.get("bytes")


async def _sender(ws: WebSocket, conn: Connection) -> None:
    """Drain the outbox (everything queued, at each wake-up); a None closes the socket (a
    client too slow, or leaving)."""
    while True:
        batch = [await conn.outbox.get()]
        while not conn.outbox.empty():
            batch.append(conn.outbox.get_nowait())
        for text in batch:
            if text is None:
                with contextlib.suppress(Exception):
                    await ws.close(CLOSE_POLICY)
                return
            await ws.send_text(text)


async def _hello(ws: WebSocket, hub: Hub, code: str,
                 address: str) -> tuple[Room, int, str] | None:
    """Read the hello: the room, the seat (-1 for a spectator) and the seat's ticket among
    its open connections, or None (refused)."""
    limits = hub.limits
    try:
        text, raw = await asyncio.wait_for(_receive(ws), limits.hello_seconds)
        if not await hub.counters.connects.hit(address):
            raise Refused(protocol.error(
                "rate_limited", f"too many connections: at most {limits.connects_per_minute} "
                "a minute from one address; wait a little"))
        data = parse(text, limits.max_message_bytes, raw)
        if data["type"] != "hello":
            raise Refused(protocol.error("malformed", 'the first message must be a "hello"'))
        room = await hub.room(code)
        if data.get("spectator") is True:
            seat, most, who = -1, limits.max_spectators, "spectators"
        else:
            token = data.get("token")
            found = room.seat_of(token) if isinstance(token, str) and token else None
            if found is None:
                raise Refused(protocol.error("bad_token",
                                             "that token holds no seat at this table"))
            seat, most, who = found, limits.max_seat_connections, "connections for one seat"
        ticket = await hub.counters.open.acquire(f"{room.code}:{seat}", most)
        if ticket is None:
            raise Refused(protocol.error("full", f"this table takes at most {most} {who}"))
        return room, seat, ticket
    except TimeoutError:
        refusal = protocol.error("malformed", f"no hello in time (send it within "
                                 f"{limits.hello_seconds:g} s of connecting)")
    except TableError as e:
        refusal = protocol.error("no_table", e.message)
    except Refused as e:
        refusal = e.message
    await _refuse(ws, refusal)
    return None


async def _refuse(ws: WebSocket, refusal: dict[str, Any]) -> None:
    """Send the refusal and close (a client that stops reading cannot hold this up)."""
    with contextlib.suppress(Exception):
        await asyncio.wait_for(ws.send_text(_dumps(refusal)), 5)
        await ws.close(CLOSE_POLICY)


Handler = Callable[[Room, Connection, str, dict[str, Any], str | int],
                  Awaitable[dict[str, Any] | None]]


async def _handle(room: Room, conn: Connection, data: dict[str, Any]) -> dict[str, Any] | None:
    """One message after the hello: a reply (an error or a hint), or None."""
    kind = data["type"]
    if kind == "ping":
        return {"type": "pong"}
    msg_id = _id(data)
    handler = HANDLERS.get(kind)
    if handler is None:
        return protocol.error("malformed", f"unknown message type {kind[:40]!r}: use "
                              f"{', '.join(k for k in MESSAGE_KINDS if k != 'hello')}", msg_id)
    if msg_id is None:
        return protocol.error("malformed", f'every {kind} needs an "id": text of 1 to '
                              "64 characters (or a number), new for every message")
    if conn.saw(msg_id):
        return protocol.error("duplicate", f"message {msg_id!r} was already received", msg_id)
    return await handler(room, conn, kind, data, msg_id)


async def _asked_hint(room: Room, conn: Connection, kind: str, data: dict[str, Any],
                      msg_id: str | int) -> dict[str, Any] | None:
    """Searched meanwhile: the connection may act before it is ready."""
    task = asyncio.create_task(_hint(room, conn, msg_id))
    conn.tasks.add(task)
    task.add_done_callback(conn.tasks.discard)
    return None


async def _explain(room: Room, conn: Connection, kind: str, data: dict[str, Any],
                   msg_id: str | int) -> dict[str, Any] | None:
    texts = data.get("actions")
    if not isinstance(texts, list) or not 0 < len(texts) <= protocol.MAX_EXPLAIN:
        return protocol.error("malformed", 'an explain needs "actions": a list of 1 to '
                              f"{protocol.MAX_EXPLAIN} action texts", msg_id)
    reply = room.explain(conn.seat, texts)
    reply["id"] = msg_id
    return reply


async def _act(room: Room, conn: Connection, kind: str, data: dict[str, Any],
               msg_id: str | int) -> dict[str, Any] | None:
    if room.status == ABANDONED:
        return protocol.error("abandoned", "this game was ended: nobody played it for "
                              f"{room.env.limits.abandoned_seconds / 3600:g} hours", msg_id)
    version, action = data.get("version"), data.get("action")
    if isinstance(version, bool) or not isinstance(version, int) or not isinstance(action, str):
        return protocol.error("malformed", 'an act needs "version" (a whole number) and '
                              '"action" (the text of a legal action)', msg_id)
    refusal = await room.act(conn.seat, action, version)
    if refusal is None:
        return None
    refusal["id"] = msg_id
    if refusal["code"] == "illegal" and not conn.illegal.take():
        conn.finish(_dumps(protocol.error(
            "rate_limited", "too many illegal actions (at most "
            f"{room.env.limits.illegal_per_second:g} a second): the connection is closed",
            msg_id)))
        return None
    return refusal


#: How each message kind after the hello is handled (``ping`` is answered at once); the
#: kinds are those of :data:`.doors.MESSAGE_KINDS`, the one list of them.
HANDLERS: dict[str, Handler] = {"act": _act, "hint": _asked_hint, "explain": _explain,
                                "chat": chat.handle, "suggest": chat.handle,
                                "mute": chat.handle}
if set(HANDLERS) | {"hello", "ping"} != set(MESSAGE_KINDS):
    raise RuntimeError("ws.HANDLERS and doors.MESSAGE_KINDS name different message kinds")


async def _hint(room: Room, conn: Connection, msg_id: str | int) -> None:
    try:
        reply = await room.hint(conn.seat)
    except Exception:
        log.exception("table %s: a hint for seat %d failed", room.code, conn.seat)
        reply = protocol.error("internal", "the server could not find a hint")
    reply["id"] = msg_id
    conn.send(_dumps(reply))


@router.websocket("/ws/{code}")
async def play(ws: WebSocket, code: str) -> None:
    """Live play: see docs/PROTOCOL.md."""
    hub: Hub = ws.app.state.hub
    address = ws.client.host if ws.client else ""
    ticket = await hub.counters.open.acquire(address, hub.limits.max_connections)
    if ticket is None:
        await ws.accept()
        await _refuse(ws, protocol.error(
            "too_many_connections", f"your address has {hub.limits.max_connections} open "
            "connections, the most it may have: close some first"))
        return
    try:
        await ws.accept()
        await _connected(ws, hub, code, address)
    finally:
        await hub.counters.open.release(ticket)


async def _connected(ws: WebSocket, hub: Hub, code: str, address: str) -> None:
    """The hello, then the client's messages until it leaves."""
    try:
        found = await _hello(ws, hub, code, address)
    except WebSocketDisconnect:
        return
    if found is None:
        return
    room, seat, ticket = found
    try:
        await _session(ws, hub, room, seat, address)
    finally:
        await hub.counters.open.release(ticket)


async def _session(ws: WebSocket, hub: Hub, room: Room, seat: int, address: str) -> None:
    limits = hub.limits
    conn = Connection(seat, limits, address)
    sender = asyncio.create_task(_sender(ws, conn))
    bucket = RateBucket(limits.messages_per_second, limits.burst)
    over = 0  # messages refused for the rate since the last one within it
    room.attach(conn)
    chat.joined(room, conn)
    try:
        while not conn.closed:
            text, raw = await _receive(ws)
            data: dict[str, Any] | None = None
            try:
                within = bucket.take()
                over = 0 if within else over + 1
                if over > limits.burst:  # it keeps sending over its rate
                    conn.finish(_dumps(protocol.error(
                        "rate_limited", "too many messages (at most "
                        f"{limits.messages_per_second:g} a second): the connection is closed")))
                    break
                data = parse(text, limits.max_message_bytes, raw)
                if not within:  # the id tells the client which message was dropped
                    raise Refused(protocol.error("rate_limited", "too many messages: at most "
                                                 f"{limits.messages_per_second:g} a second",
                                                 _id(data)))
                reply = await _handle(room, conn, data)
            except Refused as e:
                reply = e.message
            except Exception:
                log.exception("table %s: a message from seat %d failed", room.code, seat)
                reply = protocol.error("internal", "the server could not handle that message",
                                       _id(data))
            if reply is not None:
                conn.send(_dumps(reply))
    except WebSocketDisconnect:
        pass
    finally:
        for task in list(conn.tasks):
            task.cancel()
        room.detach(conn)
        with contextlib.suppress(Exception):
            await sender
