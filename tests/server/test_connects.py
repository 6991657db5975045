"""Connects are cheap: a seat's legal listing is built once per version whoever connects,
reconnects or watches; presence changes go out as a small ``presence`` message; connect
floods from one address are refused with ``rate_limited``; deeply nested JSON is
``malformed`` and leaves no traceback in the log."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from pegs.server import protocol, table_views
from pegs.server.protocol import legal_texts

from .helpers import Client, LiveServer, new_table, run, serving, start


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[httpx.Client, str]]:
    """A real ``pegs serve`` on SQLite: (HTTP client, WebSocket base URL); its log is
    ``tmp_path/data/serve.log``."""
    with serving(tmp_path) as served:
        yield served


async def next_message(client: Client) -> dict[str, Any]:
    """The next message after a ping's answer: what else arrived meanwhile."""
    await client.send({"type": "ping"})
    message: dict[str, Any] = json.loads(await client.ws.recv())
    return message


def test_presence_changes_are_small_messages_and_watchers_change_nothing(
        served: tuple[httpx.Client, str]) -> None:
    http, ws = served
    code, tokens = new_table(http, humans=2, players=2)
    start(http, code, tokens[0])

    async def scenario() -> None:
        ann = await Client.open(ws, code, tokens[0])
        first = await ann.until("state")
        assert [s["connected"] for s in first["table"]["seats"]] == [True, False]
        bob = await Client.open(ws, code, tokens[1])
        await bob.until("state")
        presence = await ann.until("presence")
        assert presence == {"type": "presence", "version": 0, "connected": [True, True],
                            "away_ends": [None, None]}
        # a second tab of a connected seat, and watchers: nobody is told anything
        bob2 = await Client.open(ws, code, tokens[1])
        watchers = [await Client.open(ws, code, None) for _ in range(3)]
        for w in watchers:
            assert (await w.until("state"))["legal"] is None
        await bob2.until("state")
        for w in watchers:
            await w.close()
        await bob2.close()
        assert await next_message(ann) == {"type": "pong"}
        await bob.close()
        assert (await ann.until("presence"))["connected"] == [True, False]
        again = await Client.open(ws, code, tokens[0])
        state = await again.until("state")
        assert [s["connected"] for s in state["table"]["seats"]] == [True, False]
        assert state["legal"] == first["legal"] and legal_texts(state["legal"])
        await again.close()
        await ann.close()

    run(scenario())


def test_connect_floods_from_one_address_are_refused(served: tuple[httpx.Client, str]) -> None:
    http, ws = served
    code, _ = new_table(http, humans=1)

    async def scenario() -> None:
        answers = []
        for _ in range(121):  # the server takes 120 connects a minute from one address
            client = await Client.open(ws, code, None)
            answers.append(json.loads(await client.ws.recv()))
            await client.close()
        assert all(a["type"] == "state" for a in answers[:120])
        assert answers[120]["type"] == "error" and answers[120]["code"] == "rate_limited"

    run(scenario())


def test_a_seats_listing_is_built_once_per_version(live: LiveServer,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[int] = []
    encode = protocol.legal_compact

    def counted(state: Any, legal: Any) -> dict[str, Any]:
        built.append(state.ply)
        return encode(state, legal)

    monkeypatch.setattr(protocol, "legal_compact", counted)
    monkeypatch.setattr(table_views, "LONG_LISTING", 1)  # after an act: built on a thread
    code, tokens = new_table(live.http, humans=2, players=2)
    start(live.http, code, tokens[0])

    async def scenario() -> None:
        for _ in range(4):  # reconnects of the seat to act, and watchers coming and going
            ann = await Client.open(live.ws, code, tokens[0])
            watcher = await Client.open(live.ws, code, None)
            assert legal_texts((await ann.until("state"))["legal"])
            await watcher.until("state")
            await watcher.close()
            await ann.close()
        assert built == [0]
        ann = await Client.open(live.ws, code, tokens[0])
        move = legal_texts((await ann.until("state"))["legal"])[0]
        await ann.send({"type": "act", "id": "1", "version": 0, "action": move})
        await ann.until("state", 1)
        bob = await Client.open(live.ws, code, tokens[1])
        assert legal_texts((await bob.until("state"))["legal"])
        assert built == [0, 1]

    run(scenario())


def _on_a_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def test_a_partners_listing_at_a_teaching_table_is_built_off_the_loop_and_bounded(
        live: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[tuple[int, bool]] = []  # (actions listed, whether on the event loop)
    encode = protocol.legal_compact

    def watched(state: Any, legal: Any) -> dict[str, Any]:
        built.append((len(legal), _on_a_loop()))
        return encode(state, legal)

    monkeypatch.setattr(protocol, "legal_compact", watched)
    monkeypatch.setattr(table_views, "LONG_LISTING", 1)  # every listing counts as long
    monkeypatch.setattr(table_views, "PARTNER_LISTING", 1)
    code, tokens = new_table(live.http, humans=4, teaching=True)
    start(live.http, code, tokens[0])

    async def scenario() -> None:
        seats = [await Client.open(live.ws, code, token) for token in tokens]
        first = [await seat.until("state") for seat in seats]
        mover = first[0]["view"]["current_player"]
        built.clear()
        move = legal_texts(first[mover]["legal"])[0]
        await seats[mover].send({"type": "act", "id": "1", "version": 0, "action": move})
        states = [await seat.until("state", 1) for seat in seats]
        nxt = states[0]["view"]["current_player"]
        listing, legal = states[(nxt + 2) % 4]["partner_legal"], states[nxt]["legal"]
        # cut at one of the partner's actions, and marked so when there are more
        assert len(legal_texts(listing)) == 1 and legal_texts(listing)[0] in legal_texts(legal)
        assert listing.get("partial", False) is (len(legal_texts(legal)) > 1)
        # the mover's listing and its partner's were encoded on threads, not the loop
        assert sorted(built) == [(1, False), (len(legal_texts(legal)), False)]
        for seat in seats:
            await seat.close()

    run(scenario())


def test_deeply_nested_json_is_malformed_and_logs_no_traceback(
        served: tuple[httpx.Client, str], tmp_path: Path) -> None:
    http, ws = served
    code, tokens = new_table(http, humans=2, players=2)
    start(http, code, tokens[0])
    log = tmp_path / "data" / "serve.log"
    before = log.read_text().splitlines()

    async def scenario() -> None:
        nested = "[" * 2000
        first = await Client.open(ws, code, None, hello=nested)
        assert (await first.until("error"))["code"] == "malformed"
        ann = await Client.open(ws, code, tokens[0])
        await ann.until("state")
        for message in (nested, '{"type": "act", "id": ' + "[" * 2000 + "}", nested):
            assert (await ann.refused(message))["code"] == "malformed"
        # nested as deep as Python parses: no action text in it, nothing to explain
        await ann.send('{"type": "explain", "id": "x", "actions": ' + "[" * 900 + "]" * 900
                       + "}")
        assert (await ann.until("explain"))["announcements"] == {}
        # far over the frame limit: the WebSocket layer itself closes the connection
        await ann.send("[" * 200_000)
        with pytest.raises(ConnectionClosed) as closed:
            await asyncio.wait_for(ann.ws.recv(), 5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009

    run(scenario())
    new = log.read_text().splitlines()[len(before):]
    assert not any("Traceback" in line or "internal" in line for line in new), new
    assert len(new) <= 5, new
