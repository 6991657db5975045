"""Table talk: quick phrases, reactions and short free text; the host's mutes; and at a
teaching table a team channel and moves suggested to a partner.

Messages, suggestions and mutes are entries of the table's log (:mod:`.table_log`): each
is stored first, then taken in by every process (``Room.take``), which delivers it to the
connections that may read it; a (re)connecting client gets the last messages it may see
(:func:`joined`).  The chat is downloadable beside the game record, never part of it.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from ..rules import Action, IllegalActionError, NotationError
from ..text import TextError, TextTooLong, clean_text
from . import protocol, refusals, table_log
from .connection import Connection
from .rooms import Room
from .store_errors import StoreError
from .talk import dumps, message, readable, team_channel

log = logging.getLogger("pegs.server")

#: Quick phrases and reactions, by the key a client sends.
PHRASES = {
    "good_move": "Good move!", "your_turn": "Your turn", "oops": "Oops",
    "well_played": "Well played", "thanks": "Thanks", "thumbs_up": "\N{THUMBS UP SIGN}",
    "laugh": "\N{FACE WITH TEARS OF JOY}", "wow": "\N{FACE WITH OPEN MOUTH}",
    "party": "\N{PARTY POPPER}",
}
#: Free text: at most this many characters, once cleaned (:func:`pegs.text.clean_text`).
MAX_TEXT = 200
#: A connecting client gets this many of the latest messages it may read.
RECENT = 50


def joined(room: Room, conn: Connection) -> None:
    """Send a new connection the latest messages it may read (a ``chat_log``), meanwhile:
    those the table had taken in when it came (it is sent the later ones as they come)."""
    task = asyncio.create_task(_replay(room, conn, room.seq))
    conn.tasks.add(task)
    task.add_done_callback(conn.tasks.discard)


async def _replay(room: Room, conn: Connection, upto: int) -> None:
    channels = readable(room.rules, room.teaching, conn.seat)
    try:
        rows = await room.env.run_db(room.env.store.chat_log, room.code, channels, RECENT,
                                     upto)
    except StoreError:
        log.exception("table %s: cannot read its chat", room.code)
        return
    if rows:
        conn.send(dumps({"type": "chat_log", "messages": [message(r) for r in rows]}))


async def handle(room: Room, conn: Connection, kind: str, data: dict[str, Any],
                 msg_id: str | int) -> dict[str, Any] | None:
    """A ``chat``, ``mute`` or ``suggest`` message: an error reply, or None."""
    if kind == "mute":
        return await _mute(room, conn, data, msg_id)
    refusal = await _over_rate(room, conn)
    if refusal is not None:
        refusal["id"] = msg_id
        return refusal
    refusal = (await _suggest(room, conn, data) if kind == "suggest"
               else await _chat(room, conn, data, msg_id))
    if refusal is not None:
        refusal["id"] = msg_id
    return refusal


async def _over_rate(room: Room, conn: Connection) -> dict[str, Any] | None:
    """A refusal when a chat or suggestion is over the connection's rate, its address's at
    this table (all its connections and reconnections together) or the table's, else None
    (counted)."""
    limits, counters = room.env.limits, room.env.counters
    if not conn.chat.take():
        most, rate = limits.chat_burst, limits.chat_per_second
        return protocol.error("rate_limited", f"too many chat messages: at most {most} in "
                              f"{most / rate:g} s")
    if not await counters.chat.hit(f"{room.code}:{conn.address}"):
        return protocol.error("rate_limited", "too many chat messages from your address at "
                              f"this table: at most {limits.chat_per_minute} a minute")
    if not await counters.table_chat.hit(room.code):
        return protocol.error("rate_limited", "this table's chat is very busy: at most "
                              f"{limits.table_chat_per_minute} messages a minute in all")
    return None


def _words(data: dict[str, Any]) -> tuple[str, str | None] | dict[str, Any]:
    """The message's text and phrase key, or an error."""
    phrase, text = data.get("phrase"), data.get("text")
    if (phrase is None) == (text is None):
        return protocol.error("malformed", 'a chat has either "text" or "phrase"')
    if phrase is not None:
        if not isinstance(phrase, str) or phrase not in PHRASES:
            return protocol.error("bad_phrase", "phrases are " + ", ".join(PHRASES))
        return PHRASES[phrase], phrase
    if not isinstance(text, str):
        return protocol.error("malformed", 'a chat\'s "text" is text')
    try:
        return clean_text(text, longest=MAX_TEXT, what="the chat's text"), None
    except TextError as e:
        return protocol.error("too_long" if isinstance(e, TextTooLong) else "malformed", str(e))


def _channel(room: Room, seat: int, data: dict[str, Any]) -> str | dict[str, Any]:
    """The stored channel the message goes to, or an error."""
    asked = data.get("channel", "table")
    if asked == "table":
        return "table"
    if asked != "team":
        return protocol.error("malformed", 'a chat\'s "channel" is "table" or "team"')
    if not room.teaching:
        return protocol.error("not_teaching", "only a teaching table has a team channel: "
                              "partners talk at the table here")
    team = team_channel(room.rules, seat)
    if team is None:
        return protocol.error("no_team", "you have no partner at this table")
    return team


def _name(room: Room, seat: int) -> str:
    return room.seats[seat].name if seat >= 0 else "Spectator"


async def _chat(room: Room, conn: Connection, data: dict[str, Any],
                msg_id: str | int) -> dict[str, Any] | None:
    words = _words(data)
    if isinstance(words, dict):
        return words
    channel = _channel(room, conn.seat, data)
    if isinstance(channel, dict):
        return channel
    if conn.seat in room.muted:
        return protocol.error("muted", "the host muted your chat" if conn.seat >= 0 else
                              "spectators read the chat; the host has not let them write")
    text, phrase = words
    said: dict[str, Any] = {"seat": conn.seat, "channel": channel,
                            "name": _name(room, conn.seat), "text": text, "phrase": phrase}
    limits = room.env.limits
    async with room.lock:
        try:
            entry = await room.env.run_db(room.env.store.add_chat, room.code, said,
                                          limits.chat_kept, limits.chat_days)
        except StoreError:
            log.exception("table %s: storing a chat message failed", room.code)
            return protocol.error("internal", "the message could not be stored; try again")
        await room.take(entry, conn, msg_id)
    return None


async def _mute(room: Room, conn: Connection, data: dict[str, Any],
                msg_id: str | int) -> dict[str, Any] | None:
    """The host mutes or unmutes a seat's chat (seat -1: the spectators')."""
    seat, muted = data.get("seat"), data.get("muted")
    if conn.seat != room.host or conn.seat < 0:
        return protocol.error("not_host", "only the table's host may mute", msg_id)
    if (isinstance(seat, bool) or not isinstance(seat, int) or not isinstance(muted, bool)
            or not -1 <= seat < len(room.seats)):
        return protocol.error("bad_seat", f'a mute needs "seat" (-1 for spectators, or 0 to '
                              f'{len(room.seats) - 1}) and "muted" (true or false)', msg_id)
    if seat == room.host:
        return protocol.error("bad_seat", "the host cannot mute themselves", msg_id)
    async with room.lock:
        wanted = room.muted | {seat} if muted else room.muted - {seat}
        if wanted != room.muted:
            try:
                entry = await room.env.run_db(room.env.store.set_muted, room.code,
                                              sorted(wanted))
            except StoreError:
                log.exception("table %s: storing a mute failed", room.code)
                return protocol.error("internal", "the mute could not be stored; try again",
                                      msg_id)
            await room.take(entry)
    return None


async def _suggest(room: Room, conn: Connection, data: dict[str, Any],
                   ) -> dict[str, Any] | None:
    """Show a partner, at their turn, one of their legal actions (teaching tables): stored
    on the table's log, then shown to the team's connections through every process."""
    if not room.teaching:
        return protocol.error("not_teaching", "only at a teaching table may partners suggest "
                              "moves")
    team = team_channel(room.rules, conn.seat)
    if team is None:
        return protocol.error("no_team", "you have no partner at this table")
    if conn.seat in room.muted:
        return protocol.error("muted", "the host muted you: no messages, no suggestions")
    state = room.state
    if state is None or room.status == "waiting":
        return protocol.error("not_started", "the game has not started yet")
    if state.is_over():
        return protocol.error("game_over", "the game is over")
    partner = state.current_player
    if partner == conn.seat or team_channel(room.rules, partner) != team:
        return protocol.error("not_partners_turn", "suggest a move at your partner's turn")
    text = data.get("action")
    if not isinstance(text, str):
        return protocol.error("malformed", 'a suggest needs "action": the text of one of '
                              "your partner's legal actions")
    try:
        action = refusals.listed(state, Action.parse(text))
    except (NotationError, IllegalActionError) as e:
        return protocol.error("illegal", f"not a legal move of your partner: {e}")
    shown = {"seat": conn.seat, "name": _name(room, conn.seat), "to": partner,
             "version": room.version, "action": str(action), "team": team}
    async with room.lock:
        if room.version != shown["version"]:
            return protocol.error("not_partners_turn", "the turn passed")
        try:
            entry = await room.env.run_db(room.env.store.add_entry, room.code,
                                          table_log.SUGGEST, conn.seat, shown,
                                          room.env.limits.chat_days)
        except StoreError:
            log.exception("table %s: storing a suggestion failed", room.code)
            return protocol.error("internal", "the suggestion could not be stored; try "
                                  "again")
        await room.take(entry)
    return None
