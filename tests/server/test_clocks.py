"""Nobody stalls a game: a human whose turn clock runs out has that turn played by the
stand-in and keeps the seat; a seat nobody is connected to gets a stand-in after the
table's away delay until a connection comes back (the host's seat too); the table's own
bot pace; the host removing a seat's connections; clocks begin afresh after a restart."""

from __future__ import annotations

import asyncio
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from pegs.server.limits import Limits
from pegs.server.protocol import legal_texts
from pegs.server.rooms import Room

from .helpers import Client, LiveServer, free_port, new_table, run, serve, start


@pytest.fixture
def quick(tmp_path: Path) -> Iterator[LiveServer]:
    """A live server whose tables may have clocks of a fraction of a second."""
    server = LiveServer(f"sqlite:///{tmp_path / 'pegs.db'}",
                        Limits(messages_per_second=1000, burst=1000, min_timer_seconds=0.1))
    try:
        yield server
    finally:
        server.stop()


def table(live: LiveServer, humans: int = 2, players: int = 2, **clocks: Any) -> tuple[
        str, list[str]]:
    """A started table whose clocks (``turn_seconds``, ``away_seconds``, ``bot_delay``) are
    set before the start, as the table's creator would."""
    code, tokens = new_table(live.http, humans=humans, players=players,
                             bots=int(humans < players))
    room: Room = live.app.state.hub.rooms[code]
    def set_clocks() -> None:
        for name, value in {"turn_seconds": None, "away_seconds": None, **clocks}.items():
            setattr(room, name, value)

    live.call(set_clocks)
    start(live.http, code, tokens[0])
    return code, tokens


async def eventually(check: Callable[[], bool], seconds: float = 10) -> None:
    """Wait (polling) until ``check()`` holds; fail after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "the condition never held"
        await asyncio.sleep(0.05)


def seats(live: LiveServer, code: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = live.http.get(f"/api/tables/{code}").json()["seats"]
    return found


def test_a_turn_that_runs_out_is_played_by_the_stand_in_and_the_seat_stays(
        quick: LiveServer) -> None:
    code, tokens = table(quick, turn_seconds=1.5)

    async def scenario() -> None:
        ann = await Client.open(quick.ws, code, tokens[0])
        bob = await Client.open(quick.ws, code, tokens[1])
        first = await ann.until("state")
        assert first["turn_ends"] == pytest.approx(time.time() + 1.5, abs=1)
        timed = await ann.until("event", 1)
        assert timed["seat"] == 0 and timed["timed_out"] is True
        mine = await bob.until("state", 1)
        assert mine["legal"] and mine["turn_ends"] > first["turn_ends"]
        assert [s["standin"] for s in mine["table"]["seats"]] == [False, False]
        await bob.send({"type": "act", "id": "b", "version": 1,
                        "action": legal_texts(mine["legal"])[0]})
        event = await ann.until("event", 2)
        assert event["seat"] == 1 and "timed_out" not in event
        again = await ann.until("state", 2)
        assert legal_texts(again["legal"]), "the seat is still Ann's: she may act"
        await ann.close()
        await bob.close()

    run(scenario())


def test_a_seat_nobody_is_connected_to_is_covered_until_someone_comes_back(
        quick: LiveServer) -> None:
    code, tokens = table(quick, away_seconds=0.5)

    async def scenario() -> None:
        ann = await Client.open(quick.ws, code, tokens[0])
        state = await ann.until("state", 0)
        await ann.send({"type": "act", "id": "a", "version": 0,
                        "action": legal_texts(state["legal"])[0]})
        # Bob never came: after the delay his seat's stand-in plays for him
        covered = await ann.until("event", 2)
        assert covered["seat"] == 1
        assert seats(quick, code)[1]["standin"] is True
        bob = await Client.open(quick.ws, code, tokens[1])
        await eventually(lambda: not seats(quick, code)[1]["standin"])
        state = await ann.until("state", 2)
        while not state["legal"]:
            state = await ann.until("state", 2)
        await ann.send({"type": "act", "id": "a2", "version": 2,
                        "action": legal_texts(state["legal"])[0]})
        mine = await bob.until("state", 3)
        assert legal_texts(mine["legal"]), "Bob's seat is his again"
        # the host too: Ann leaves, her seat is covered, and hers again when she is back
        await ann.close()
        await eventually(lambda: seats(quick, code)[0]["standin"])
        assert seats(quick, code)[0] | {"connected": False} == {
            "seat": 0, "name": "Ann", "kind": "human", "connected": False, "bot": "heuristic",
            "standin": True, "away_ends": None}
        back = await Client.open(quick.ws, code, tokens[0])
        await back.until("state")
        await eventually(lambda: not seats(quick, code)[0]["standin"])
        await back.close()
        await bob.close()

    run(scenario())


def test_everyone_is_told_when_an_away_seats_stand_in_takes_over(quick: LiveServer) -> None:
    code, tokens = table(quick, away_seconds=30)

    async def scenario() -> None:
        ann = await Client.open(quick.ws, code, tokens[0])
        bob = await Client.open(quick.ws, code, tokens[1])
        await bob.until("state")
        here = await ann.until("presence")
        assert here["connected"] == [True, True] and here["away_ends"] == [None, None]
        await bob.close()
        gone = await ann.until("presence")
        assert gone["connected"] == [True, False]
        assert gone["away_ends"][0] is None
        assert gone["away_ends"][1] == pytest.approx(time.time() + 30, abs=2)
        assert seats(quick, code)[1]["away_ends"] == gone["away_ends"][1]
        back = await Client.open(quick.ws, code, tokens[1])
        await back.until("state")
        again = await ann.until("presence")
        assert again["away_ends"] == [None, None] and seats(quick, code)[1]["away_ends"] is None
        await back.close()
        await ann.close()

    run(scenario())


def test_the_tables_bots_keep_its_own_pace(quick: LiveServer) -> None:
    code, tokens = table(quick, humans=1, bot_delay=0.4)  # the server's bots: no delay

    async def scenario() -> None:
        ann = await Client.open(quick.ws, code, tokens[0])
        for version in (0, 2):
            state = await ann.until("state", version)
            await ann.send({"type": "act", "id": f"a{version}", "version": version,
                            "action": legal_texts(state["legal"])[0]})
            await ann.until("event", version + 1)
            acted = time.monotonic()
            assert (await ann.until("event", version + 2))["seat"] == 1
            assert time.monotonic() - acted >= 0.4
        await ann.close()

    run(scenario())


def test_the_host_removing_a_seat_closes_its_connections_with_a_word(
        quick: LiveServer) -> None:
    code, tokens = new_table(quick.http, humans=2, players=3)
    room: Room = quick.app.state.hub.rooms[code]

    async def scenario() -> None:
        ann = await Client.open(quick.ws, code, tokens[0])
        tabs = [await Client.open(quick.ws, code, tokens[1]) for _ in range(2)]
        for tab in tabs:
            await tab.until("state")
        quick.call(lambda: room.drop_seat_connections(1))
        for tab in tabs:
            told = await tab.until("error")
            assert told["code"] == "removed" and "removed you" in told["message"]
            with pytest.raises(ConnectionClosed):
                await asyncio.wait_for(tab.ws.recv(), 5)
        assert (await ann.until("presence"))["connected"] == [True, True, False]  # came
        assert (await ann.until("presence"))["connected"] == [True, False, False]  # went
        await ann.close()

    run(scenario())


def turn_ends(ws: str, code: str, token: str) -> float:
    """When the turn clock of the seat to act ends, as a new connection of it is told."""
    found: list[float] = []

    async def read() -> None:
        client = await Client.open(ws, code, token)
        state = await client.until("state")
        assert state["legal"]
        found.append(state["turn_ends"])
        await client.close()

    run(read())
    return found[0]


def test_clocks_begin_afresh_after_a_restart(tmp_path: Path) -> None:
    data, port = tmp_path / "data", free_port()
    url = f"sqlite:///{tmp_path / 'pegs.db'}"
    ws = f"ws://127.0.0.1:{port}"
    with serve(url, data, port) as process:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=20) as http:
            code, tokens = new_table(http, humans=2, players=2)
            start(http, code, tokens[0])
        before = turn_ends(ws, code, tokens[0])
        process.send_signal(signal.SIGKILL)
        process.wait(10)
        killed = time.time()
    assert before <= killed + 120  # the default: two minutes
    with serve(url, data, port):
        after = turn_ends(ws, code, tokens[0])
    assert after >= killed + 120 - 0.01
