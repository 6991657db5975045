"""The WebSocket rules: hellos, refused messages that change nothing, reconnects,
stand-in bots, hints, limits and no stack traces."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from pegs.server.limits import Limits
from pegs.server.protocol import legal_texts
from pegs.server.rooms import Room
from pegs.server.store import Store
from pegs.server.store_errors import StoreError

from .helpers import Client, LiveServer, auth, new_table, run, start

Scenario = Callable[[LiveServer], Any]


def two_players(live: LiveServer, **body: Any) -> tuple[str, list[str]]:
    """A started two-seat table of two humans (seat 0 acts first)."""
    code, tokens = new_table(live.http, humans=2, players=2, **body)
    start(live.http, code, tokens[0])
    return code, tokens


def first_text(state: dict[str, Any]) -> str:
    """The first legal action offered in a state message."""
    return legal_texts(state["legal"])[0]


def version_of(live: LiveServer, code: str) -> int:
    version: int = live.http.get(f"/api/tables/{code}").json()["version"]
    return version


@pytest.mark.parametrize("hello", [
    {"type": "hello", "token": "wrong"},
    {"type": "hello"},
    {"type": "hello", "token": 7},
    {"type": "ping"},
    "not json",
])
def test_a_bad_hello_is_refused_and_closed(live: LiveServer, hello: Any) -> None:
    code, _ = two_players(live)

    async def scenario() -> None:
        client = await Client.open(live.ws, code, None, hello=hello)
        error = await client.until("error")
        assert error["code"] in ("bad_token", "malformed")
        if isinstance(hello, dict) and hello["type"] == "hello":
            assert error["code"] == "bad_token"
        with pytest.raises(ConnectionClosed):
            await asyncio.wait_for(client.ws.recv(), 5)

    run(scenario())


def test_a_hello_for_an_unknown_table_is_refused(live: LiveServer) -> None:
    async def scenario() -> None:
        client = await Client.open(live.ws, "nosuchtable", None)
        assert (await client.until("error"))["code"] == "no_table"

    run(scenario())


def test_refused_messages_change_nothing(live: LiveServer) -> None:
    code, tokens = two_players(live)

    async def scenario() -> None:
        ann = await Client.open(live.ws, code, tokens[0])
        bob = await Client.open(live.ws, code, tokens[1])
        watcher = await Client.open(live.ws, code, None)
        first = await ann.until("state")
        await bob.until("state")
        await watcher.until("state")
        legal = legal_texts(first["legal"])
        assert first["version"] == 0 and legal and first["view"]["current_player"] == 0
        move = legal[0]
        await ann.send({"type": "explain", "id": "x1", "actions": [move, "K: 9.9>9.10", 7]})
        explained = await ann.until("explain")
        assert explained["id"] == "x1" and list(explained["announcements"]) == [move]
        said = explained["announcements"][move]

        checks = [
            (bob, {"type": "act", "id": "b1", "version": 0, "action": move}, "not_your_turn"),
            (watcher, {"type": "act", "id": "w1", "version": 0, "action": move},
             "not_your_turn"),
            (ann, {"type": "act", "id": "a1", "version": 5, "action": move}, "stale_version"),
            (ann, {"type": "act", "id": "a2", "version": 0, "action": "K: 9.9>9.10"}, "illegal"),
            (ann, {"type": "act", "id": "a3", "version": 0, "action": "nonsense"}, "illegal"),
            (ann, {"type": "act", "id": "a4", "version": "0", "action": move}, "malformed"),
            (ann, {"type": "act", "id": "a5", "version": 0}, "malformed"),
            (ann, {"type": "act", "version": 0, "action": move}, "malformed"),
            (ann, {"type": "dance", "id": "a6"}, "malformed"),
            (ann, {"id": "a7"}, "malformed"),
            (ann, "[1, 2]", "malformed"),
            (ann, "{not json", "malformed"),
            (bob, {"type": "explain", "id": "b3", "actions": [move]}, "not_your_turn"),
            (ann, {"type": "explain", "id": "x2", "actions": []}, "malformed"),
            (ann, {"type": "explain", "id": "x3", "actions": [move] * 65}, "malformed"),
            (ann, {"type": "explain", "id": "x4", "actions": move}, "malformed"),
        ]
        for client, message, code_ in checks:
            error = await client.refused(message)
            assert error["code"] == code_, (message, error)
            assert error["message"]
            if isinstance(message, dict) and "id" in message:
                assert error["id"] == message["id"]
        assert version_of(live, code) == 0

        await ann.send({"type": "act", "id": "a8", "version": 0, "action": move})
        event = await ann.until("event")
        assert (event["version"], event["seat"], event["action"]) == (1, 0, move)
        assert event["announcement"] == said
        after = await ann.until("state", 1)
        assert after["last"] == {"seat": 0, "action": move,
                                 "announcement": said}
        # the same message again: refused as a duplicate, nothing played twice
        again = await ann.refused({"type": "act", "id": "a8", "version": 1, "action": move})
        assert again["code"] == "duplicate"
        # an action of a version already played: stale
        stale = await bob.refused({"type": "act", "id": "b2", "version": 0, "action": move})
        assert stale["code"] == "stale_version"
        assert version_of(live, code) == 1
        await ann.send({"type": "ping"})
        assert (await ann.until("pong")) == {"type": "pong"}
        for c in (ann, bob, watcher):
            await c.close()

    run(scenario())


def test_acting_before_the_start_is_refused(live: LiveServer) -> None:
    code, tokens = new_table(live.http, humans=2, players=2)

    async def scenario() -> None:
        ann = await Client.open(live.ws, code, tokens[0])
        waiting = await ann.until("state")
        assert waiting["view"] is None and waiting["table"]["status"] == "waiting"
        error = await ann.refused({"type": "act", "id": "1", "version": 0, "action": "A: S>0.5"})
        assert error["code"] == "not_started"
        start(live.http, code, tokens[0])
        started = await ann.until("state")
        assert started["table"]["status"] == "playing" and started["legal"]
        await ann.close()

    run(scenario())


def test_a_reconnecting_seat_gets_the_current_view_and_continues(live: LiveServer) -> None:
    code, tokens = two_players(live)

    async def scenario() -> None:
        ann = await Client.open(live.ws, code, tokens[0])
        state = await ann.until("state")
        await ann.send({"type": "act", "id": "1", "version": 0,
                        "action": first_text(state)})
        await ann.until("state", 1)
        hand = ann.state["view"]["hand"]
        await ann.close()
        bob = await Client.open(live.ws, code, tokens[1])
        bob_state = await bob.until("state")
        assert bob_state["version"] == 1 and bob_state["legal"]
        seats = bob_state["table"]["seats"]
        assert [s["connected"] for s in seats] == [False, True]
        await bob.send({"type": "act", "id": "1", "version": 1,
                        "action": first_text(bob_state)})
        await bob.until("state", 2)
        ann = await Client.open(live.ws, code, tokens[0])
        back = await ann.until("state")
        assert back["version"] == 2 and back["seat"] == 0 and back["legal"]
        assert not Counter(hand) - Counter(back["view"]["hand"])  # the same hand, one drawn
        await ann.send({"type": "act", "id": "1", "version": 2,
                        "action": first_text(back)})
        assert (await ann.until("event"))["version"] == 3
        await ann.close()
        await bob.close()

    run(scenario())


def test_host_gives_a_disconnected_seat_to_a_bot_and_it_is_taken_back(live: LiveServer) -> None:
    code, tokens = two_players(live)
    url = f"/api/tables/{code}/seats/1"

    async def scenario() -> None:
        ann = await Client.open(live.ws, code, tokens[0])
        bob = await Client.open(live.ws, code, tokens[1])
        await ann.until("state")
        await bob.until("state")
        r = live.http.post(f"{url}/bot", headers=auth(tokens[0]))
        assert r.status_code == 409 and r.json()["error"]["code"] == "connected"
        await bob.close()
        r = live.http.post(f"{url}/bot", headers=auth(tokens[1]))
        assert r.status_code == 403 and r.json()["error"]["code"] == "not_host"
        r = live.http.post(f"{url}/bot", json={"bot": "random"}, headers=auth(tokens[0]))
        assert r.status_code == 200
        assert r.json()["seats"][1] | {"connected": False} == {
            "seat": 1, "name": "Player 1", "kind": "human", "connected": False,
            "bot": "random", "standin": True, "away_ends": None}
        # Ann plays; the bot answers for seat 1 each time
        for version in (0, 2, 4):
            state = await ann.until("state", version)
            while not state["legal"]:
                state = await ann.until("state", version)
            await ann.send({"type": "act", "id": f"v{version}", "version": version,
                            "action": first_text(state)})
            assert (await ann.until("event", version + 2))["seat"] == 1
        r = live.http.post(f"{url}/reclaim", headers=auth(tokens[0]))
        assert r.status_code == 403
        r = live.http.post(f"{url}/reclaim", headers=auth(tokens[1]))
        assert r.status_code == 200 and r.json()["seats"][1]["standin"] is False
        state = await ann.until("state", 6)
        while not state["legal"]:
            state = await ann.until("state", 6)
        await ann.send({"type": "act", "id": "v6", "version": 6,
                        "action": first_text(state)})
        await ann.until("state", 7)
        bob = await Client.open(live.ws, code, tokens[1])
        mine = await bob.until("state", 7)
        assert mine["legal"], "seat 1 is Bob's again: the bot no longer plays it"
        await asyncio.sleep(0.3)
        assert version_of(live, code) == 7
        await ann.close()
        await bob.close()

    run(scenario())


def test_hints_for_the_seat_to_act_when_the_table_allows(live: LiveServer) -> None:
    code, tokens = two_players(live)
    quiet, quiet_tokens = two_players(live, hints=False)

    async def scenario() -> None:
        ann = await Client.open(live.ws, code, tokens[0])
        bob = await Client.open(live.ws, code, tokens[1])
        state = await ann.until("state")
        await ann.send({"type": "hint", "id": "h1"})
        hint = await ann.until("hint")
        assert hint["id"] == "h1" and hint["reason"] and hint["announcement"]
        assert hint["action"] in legal_texts(state["legal"])
        assert (await bob.refused({"type": "hint", "id": "h1"}))["code"] == "not_your_turn"
        other = await Client.open(live.ws, quiet, quiet_tokens[0])
        assert (await other.refused({"type": "hint", "id": "h1"}))["code"] == "no_hints"
        assert version_of(live, code) == 0
        for c in (ann, bob, other):
            await c.close()

    run(scenario())


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_message_size_and_rate_are_limited(database_url: str) -> None:
    live = LiveServer(database_url, Limits(max_message_bytes=200, messages_per_second=1,
                                           burst=5))
    try:
        code, tokens = two_players(live)

        async def scenario() -> None:
            ann = await Client.open(live.ws, code, tokens[0])
            await ann.until("state")
            big = {"type": "act", "id": "x", "version": 0, "action": "A: " + "S>0.5, " * 40}
            error = await ann.refused(big)
            assert error["code"] == "too_large" and "200 bytes" in error["message"]
            codes = []
            for i in range(8):
                await ann.send({"type": "ping", "id": i})
            for _ in range(8):
                message = await ann.until("pong") if len(codes) < 4 else None
                if message is None:
                    break
                codes.append("pong")
            for _ in range(4):
                codes.append((await ann.until("error"))["code"])
            assert codes == ["pong"] * 4 + ["rate_limited"] * 4
            assert version_of(live, code) == 0
            await ann.close()

        run(scenario())
    finally:
        live.stop()


def test_no_stack_trace_reaches_a_client(live: LiveServer,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    code, tokens = two_players(live)

    async def broken(*_args: Any, **_kwargs: Any) -> None:
        raise RuntimeError("secret internals")

    monkeypatch.setattr(Room, "act", broken)

    async def scenario() -> None:
        ann = await Client.open(live.ws, code, tokens[0])
        state = await ann.until("state")
        error = await ann.refused({"type": "act", "id": "1", "version": 0,
                                   "action": first_text(state)})
        assert error["code"] == "internal"
        assert "secret" not in str(error) and "Traceback" not in str(error)
        await ann.send({"type": "ping"})
        await ann.until("pong")
        await ann.close()

    run(scenario())
    def broken_table(*_args: Any) -> None:
        raise RuntimeError("secret internals")

    monkeypatch.setattr(Room, "table_json", broken_table)
    r = live.http.get(f"/api/tables/{code}")
    assert r.status_code == 500 and r.json() == {
        "error": {"code": "internal", "message": "the server could not handle that request"}}


def test_a_failed_write_changes_nothing_and_a_lost_answer_loses_nothing(
        live: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    code, tokens = two_players(live)
    real = Store.append
    mode = {"fail": "before"}

    def flaky(self: Store, *args: Any) -> None:
        if mode["fail"] == "after":
            real(self, *args)  # stored, but the answer is lost
        if mode["fail"]:
            raise StoreError("the database went away")
        real(self, *args)

    monkeypatch.setattr(Store, "append", flaky)

    async def scenario() -> None:
        ann = await Client.open(live.ws, code, tokens[0])
        state = await ann.until("state")
        move = first_text(state)
        error = await ann.refused({"type": "act", "id": "1", "version": 0, "action": move})
        assert error["code"] == "unavailable" and error["id"] == "1"
        assert "went away" not in error["message"]
        assert version_of(live, code) == 0
        mode["fail"] = "after"
        error = await ann.refused({"type": "act", "id": "2", "version": 0, "action": move})
        assert error["code"] == "unavailable"
        resynced = ann.state  # sent before the error: the stored action is the game's
        assert resynced["version"] == 1
        assert resynced["last"]["action"] == move and resynced["legal"] is None
        assert version_of(live, code) == 1
        await ann.close()

    run(scenario())


def test_a_table_takes_a_bounded_number_of_connections(database_url: str) -> None:
    live = LiveServer(database_url, Limits(messages_per_second=1000, burst=1000,
                                           max_spectators=2, max_seat_connections=1))
    try:
        code, tokens = two_players(live)

        async def scenario() -> None:
            ann = await Client.open(live.ws, code, tokens[0])
            watchers = [await Client.open(live.ws, code, None) for _ in range(2)]
            for c in (ann, *watchers):
                await c.until("state")
            for token in (tokens[0], None):  # a second tab of Ann's seat; a third watcher
                extra = await Client.open(live.ws, code, token)
                error = await extra.until("error")
                assert error["code"] == "full" and "at most" in error["message"]
                await extra.close()
            other = await Client.open(live.ws, code, tokens[1])  # another seat still joins
            await other.until("state")
            await watchers[0].close()
            for _ in range(50):  # a freed place is taken again, once the server sees it free
                again = await Client.open(live.ws, code, None)
                first = json.loads(await asyncio.wait_for(again.ws.recv(), 10))
                if first["type"] == "state":
                    break
                assert first["code"] == "full"
                await again.close()
                await asyncio.sleep(0.1)
            assert first["type"] == "state"
            for c in (ann, watchers[1], other, again):
                await c.close()

        run(scenario())
    finally:
        live.stop()
