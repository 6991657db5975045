"""Several ``pegs serve`` processes on one PostgreSQL database are one service for Play
again, the lobby, presence and the clocks: whichever process a client goes through, it
sees the same (and a single process keeps rematch agreements while nobody watches)."""

from __future__ import annotations

import asyncio
import signal
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import text

from pegs.server.database import migrate, open_engine
from pegs.server.presence import PRESENCE_SHARE, REPEAT_SHARE
from pegs.server.protocol import legal_texts
from pegs.server.store import SeatRow, Store, TableRow

from .helpers import SHORT_LEASES, Client, auth, new_table, run, serve_many, start

#: Servers whose tables may have clocks of a second.
QUICK = ("--shortest-clock", "1")


def eventually(check: Callable[[], Any], seconds: float = 10) -> Any:
    """Poll ``check()`` until it answers something true; that answer."""
    deadline = time.monotonic() + seconds
    while not (found := check()):
        assert time.monotonic() < deadline, "the condition never held"
        time.sleep(0.05)
    return found


def finished_tables(http: httpx.Client, count: int = 1) -> list[tuple[str, list[str]]]:
    """Two-player tables whose games stand-in bots played to the end: (code, tokens)."""
    made = [new_table(http, humans=2, players=2) for _ in range(count)]
    for code, tokens in made:
        start(http, code, tokens[0])
        for seat in (0, 1):
            r = http.post(f"/api/tables/{code}/seats/{seat}/bot", headers=auth(tokens[0]))
            assert r.status_code == 200, r.text
    eventually(lambda: all(http.get(f"/api/tables/{code}").json()["status"] == "finished"
                           for code, _ in made), 60)
    return made


def count_tables(url: str) -> int:
    engine = open_engine(url)
    with engine.connect() as c:
        found: int = c.execute(text("SELECT count(*) FROM pegs_tables")).scalar_one()
    engine.dispose()
    return found


def test_play_again_keeps_agreements_while_nobody_watches(client: TestClient) -> None:
    [(code, tokens)] = finished_tables(client)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    tables = text("SELECT count(*) FROM pegs_tables")
    assert client.post(f"/api/tables/{code}/rematch", headers=auth(tokens[1])).json()[
        "rematch"] == [1]
    hub.forget_finished()  # nobody has the table open: it is read back when asked for
    assert code not in hub.rooms
    assert client.get(f"/api/tables/{code}").json()["rematch"] == [1]
    nxt = client.post(f"/api/tables/{code}/rematch", headers=auth(tokens[0])).json()["next"]
    assert nxt and client.get(f"/api/tables/{nxt}").json()["status"] == "playing"
    hub.forget_finished()
    # a page opened later finds the rematch; a second "Play again" joins it
    assert client.get(f"/api/tables/{code}").json()["next"] == nxt
    again = client.post(f"/api/tables/{code}/rematch", headers=auth(tokens[1])).json()
    assert again["next"] == nxt and again["rematch"] == [0, 1]
    with hub.store.engine.connect() as c:
        assert c.execute(tables).scalar_one() == 2


async def _posts(requests: list[tuple[str, str]]) -> list[httpx.Response]:
    async with httpx.AsyncClient(timeout=20) as http:
        return await asyncio.gather(*(http.post(url, headers=auth(token))
                                      for url, token in requests))


def test_play_again_through_two_servers_makes_one_table_and_tells_everyone(
        postgres_url: str, tmp_path: Path) -> None:
    with serve_many(postgres_url, tmp_path, 2) as [(_, a), (_, b)]:
        with httpx.Client(base_url=a, timeout=20) as http:
            [(code, tokens), (other, others)] = finished_tables(http, 2)
        path = f"/api/tables/{code}/rematch"
        told: list[str] = []

        async def watch(url: str, token: str | None) -> None:
            client = await Client.open(url.replace("http", "ws"), code, token)
            state = await client.until("state")
            while not state["table"]["next"]:
                state = await client.until("state")
            told.append(state["table"]["next"])
            await client.close()

        async def clicks() -> None:
            await asyncio.sleep(0.3)  # the watchers are connected
            # both players click on both servers at once
            answers = await _posts([(url + path, token) for token in tokens
                                    for url in (a, b)])
            assert {r.status_code for r in answers} == {200}

        run(watch(a, tokens[0]), watch(b, tokens[1]), watch(b, None), watch(a, None),
            clicks())
        nxt = told[0]
        assert told == [nxt] * 4
        for url in (a, b):
            old = httpx.get(f"{url}/api/tables/{code}").json()
            assert (old["next"], old["rematch"]) == (nxt, [0, 1])
            assert httpx.get(f"{url}/api/tables/{nxt}").json()["status"] == "playing"
        # a late click, anywhere, joins the same rematch
        assert httpx.post(f"{b}{path}", headers=auth(tokens[0])).json()["next"] == nxt

        # one player agrees through a, the other later through b
        path = f"/api/tables/{other}/rematch"
        assert httpx.post(f"{a}{path}", headers=auth(others[0])).json()["next"] is None
        assert eventually(lambda: httpx.get(f"{b}/api/tables/{other}").json()["rematch"]) == [0]
        nxt = httpx.post(f"{b}{path}", headers=auth(others[1])).json()["next"]
        assert nxt
        assert eventually(lambda: httpx.get(f"{a}/api/tables/{other}").json()["next"]) == nxt
    assert count_tables(postgres_url) == 4


def test_the_lobby_through_any_server_lists_every_public_table(postgres_url: str,
                                                               tmp_path: Path) -> None:
    unlimited = ("--creates-per-minute", "0", "--max-waiting", "0")
    with serve_many(postgres_url, tmp_path, 3, *unlimited) as servers:
        made = []
        for _, url in servers:
            with httpx.Client(base_url=url, timeout=20) as http:
                made += [new_table(http, humans=1, public=True)[0] for _ in range(2)]
                new_table(http, humans=1)  # private
                code, tokens = new_table(http, humans=1, bots=1, players=2, public=True)
                start(http, code, tokens[0])  # started: not listed
        for _, url in servers:
            body = httpx.get(f"{url}/api/tables").json()
            assert body["total"] == 6
            assert [t["code"] for t in body["tables"]] == made[::-1]  # newest first
            page = httpx.get(f"{url}/api/tables", params={"limit": 4, "offset": 4}).json()
            assert [t["code"] for t in page["tables"]] == made[1::-1]
            assert page["tables"][0]["seats"][0]["name"] == "Ann"


def test_presence_crosses_servers_both_ways_and_a_departure_shows_at_once(
        postgres_url: str, tmp_path: Path) -> None:
    lease = 5.0  # presence repeated every second, kept 2.5 s
    with serve_many(postgres_url, tmp_path, 2, "--lease-seconds",
                    str(lease)) as [(_, a), (paused, b)]:
        with httpx.Client(base_url=a, timeout=20) as http:
            code, tokens = new_table(http, humans=3, players=3)
            start(http, code, tokens[0])
        wa, wb = a.replace("http", "ws"), b.replace("http", "ws")

        async def until_connected(client: Client, flags: list[bool],
                                  seconds: float = 10) -> None:
            async def seen() -> None:
                while True:
                    message = await client.until("presence", timeout=seconds)
                    if message["connected"] == flags:
                        return
            await asyncio.wait_for(seen(), seconds)

        async def scenario() -> None:
            ann = await Client.open(wa, code, tokens[0])  # on a, the owner
            await ann.until("state")
            watcher = await Client.open(wb, code, None)
            await watcher.until("state")
            bob = await Client.open(wb, code, tokens[1])  # on b
            await bob.until("state")
            await until_connected(ann, [True, True, False])  # a hears of Bob at once
            await until_connected(watcher, [True, True, False])  # b of Ann
            cy = await Client.open(wa, code, tokens[2])
            await cy.until("state")
            await until_connected(watcher, [True, True, True])
            left = time.monotonic()
            await bob.close()
            await until_connected(ann, [True, False, True])
            await cy.close()
            await until_connected(watcher, [True, False, False])
            assert time.monotonic() - left < lease * REPEAT_SHARE  # not at the next repeat
            await ann.close()
            await until_connected(watcher, [False, False, False])
            await watcher.close()
            # a server that stops answering (paused, or dead) stops vouching for its seats
            ann = await Client.open(wa, code, tokens[0])
            bob = await Client.open(wb, code, tokens[1])
            await until_connected(ann, [True, True, False])
            paused.send_signal(signal.SIGSTOP)
            try:
                await until_connected(ann, [True, False, False], lease * PRESENCE_SHARE + 3)
            finally:
                paused.send_signal(signal.SIGCONT)
            await ann.close()
            await bob.close()

        run(scenario())


def test_clocks_and_time_outs_are_the_same_on_every_server(postgres_url: str,
                                                         tmp_path: Path) -> None:
    with serve_many(postgres_url, tmp_path, 2, *QUICK) as [(_, a), (_, b)]:
        http = httpx.Client(base_url=a, timeout=20)  # a holds the lease: it runs the clocks
        code, tokens = new_table(http, humans=2, players=2, turn_seconds=1.5, away_seconds=2)
        wa, wb = a.replace("http", "ws"), b.replace("http", "ws")

        async def scenario() -> None:
            ann = await Client.open(wb, code, tokens[0])  # both players on b
            bob = await Client.open(wb, code, tokens[1])
            here, there = await Client.open(wb, code, None), await Client.open(wa, code, None)
            seen = [s["connected"] for s in (await there.until("state"))["table"]["seats"]]
            while seen != [True, True]:  # a knows they are connected (to b)
                seen = (await there.until("presence"))["connected"]
            await asyncio.to_thread(start, http, code, tokens[0])
            first = await ann.until("state")
            while first["turn_ends"] is None:  # the owner's clock arrives
                first = await ann.until("state")
            assert first["turn_ends"] > time.time()
            await there.until("state")
            while there.state["turn_ends"] != first["turn_ends"]:
                await there.until("state")
            # Ann lets her time run out: everyone, on both servers, hears it as timed out
            for watcher in (ann, here, there):
                timed = await watcher.until("event", 1)
                assert timed["seat"] == 0 and timed.get("timed_out") is True
            mine = await bob.until("state", 1)
            assert mine["legal"] and mine["turn_ends"] > first["turn_ends"]
            assert (await there.until("state", 1))["turn_ends"] == mine["turn_ends"]
            await bob.send({"type": "act", "id": "b", "version": 1,
                            "action": legal_texts(mine["legal"])[0]})
            assert "timed_out" not in await there.until("event", 2)
            again = await ann.until("state", 2)
            assert (await there.until("state", 2))["turn_ends"] == again["turn_ends"]
            # Bob leaves b: the owner on a covers his seat after the away delay, not later
            await bob.close()
            left = time.monotonic()
            while not there.state["table"]["seats"][1]["standin"]:
                await there.until("state")
            assert 2 <= time.monotonic() - left < 4
            for client in (ann, here, there):
                await client.close()

        run(scenario(), timeout=60)
        http.close()


def _finished_row(code: str, players: int) -> TableRow:
    seats = [SeatRow(s, f"P{s}", "human", f"hash{s}") for s in range(players)]
    return TableRow(code, {"preset": "pegoo"}, 1, True, "finished", 0, 0, seats)


def _rematch_of(code: str, players: int) -> TableRow:
    return replace(_finished_row(code, players), status="playing")


@pytest.fixture(scope="module")
def sqlite_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    engine = open_engine(f"sqlite:///{tmp_path_factory.mktemp('db') / 'pegs.db'}")
    migrate(engine)
    yield Store(engine)
    engine.dispose()


@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 6), clicks=st.lists(st.integers(0, 5), max_size=14))
def test_agreements_in_any_order_make_one_rematch_once_all_agreed(
        sqlite_store: Store, players: int, clicks: list[int]) -> None:
    store, old = sqlite_store, uuid.uuid4().hex[:12]
    store.create(_finished_row(old, players))
    humans = list(range(players))
    made = None
    for n, seat in enumerate(s % players for s in clicks):
        agreed, nxt, _ = store.agree_rematch(old, seat, humans,
                                             _rematch_of(f"{old}-{n}", players))
        clicked = {s % players for s in clicks[:n + 1]}
        assert (nxt is not None) == (clicked == set(humans))
        assert made is None or nxt == made  # later agreements answer the one rematch
        made = nxt
        if nxt is None:
            assert agreed == sorted(clicked)
    [row] = store.load(code=old)
    assert row.next == made
    rematches = [r.code for r in store.load(("playing",)) if r.code.startswith(f"{old}-")]
    assert rematches == ([made] if made else [])


def test_racing_agreements_on_postgresql_make_exactly_one_rematch(postgres_url: str) -> None:
    engine = open_engine(postgres_url)
    migrate(engine)
    store = Store(engine)
    players = 4
    for round_ in range(8):
        old = f"old{round_}"
        store.create(_finished_row(old, players))
        clicks = [seat for seat in range(players) for _ in range(2)]  # every seat, twice
        barrier = threading.Barrier(len(clicks))

        def agree(n: int, seat: int, old: str = old,
                  barrier: threading.Barrier = barrier) -> str | None:
            barrier.wait()
            return store.agree_rematch(old, seat, list(range(players)),
                                       _rematch_of(f"{old}-{n}", players))[1]

        with ThreadPoolExecutor(len(clicks)) as pool:
            answers = list(pool.map(agree, range(len(clicks)), clicks))
        [row] = store.load(code=old)
        assert row.next is not None and row.rematch == list(range(players))
        assert set(answers) <= {row.next, None}
        made = [r.code for r in store.load(("playing",)) if r.code.startswith(f"{old}-")]
        assert made == [row.next], round_
    engine.dispose()


def test_a_spectator_on_another_server_keeps_a_table_from_being_abandoned(
        postgres_url: str, tmp_path: Path) -> None:
    quiet = ("--abandoned-hours", "0.0003")  # 1.08 s without anyone there
    with serve_many(postgres_url, tmp_path, 2, *quiet, *SHORT_LEASES) as [(_, a), (_, b)]:
        with httpx.Client(base_url=a, timeout=20) as http:  # a holds both tables' leases
            tables = [new_table(http, humans=2, players=2, turn_seconds=None,
                                away_seconds=None) for _ in range(2)]
            for code, tokens in tables:
                start(http, code, tokens[0])
        (watched, _), (left, _) = tables

        def status(code: str) -> str:
            return str(httpx.get(f"{a}/api/tables/{code}").json()["status"])

        async def scenario() -> None:
            watcher = await Client.open(b.replace("http", "ws"), watched, None)
            await watcher.until("state")
            await asyncio.to_thread(eventually, lambda: status(left) == "abandoned")
            assert status(watched) == "playing"  # a hears that b has someone watching it
            await asyncio.sleep(1.5)  # longer than the quiet time, and the watcher stays
            assert status(watched) == "playing"
            await watcher.close()
            await asyncio.to_thread(eventually, lambda: status(watched) == "abandoned")

        run(scenario())


def test_a_table_its_owner_ended_as_abandoned_reads_so_through_every_server(
        postgres_url: str, tmp_path: Path) -> None:
    quiet = ("--abandoned-hours", "0.0003")  # 1.08 s without anyone there
    with serve_many(postgres_url, tmp_path, 2, *quiet, *SHORT_LEASES) as [(_, a), (_, b)]:
        with httpx.Client(base_url=b, timeout=20) as http:  # b holds the table's lease
            code, tokens = new_table(http, humans=2, players=2, turn_seconds=None,
                                     away_seconds=None)
            start(http, code, tokens[0])

        def status(server: str) -> str:
            return str(httpx.get(f"{server}/api/tables/{code}").json()["status"])

        assert status(a) == "playing"  # a has it in memory now, as the others stored it
        eventually(lambda: status(b) == "abandoned")
        eventually(lambda: status(a) == "abandoned")
