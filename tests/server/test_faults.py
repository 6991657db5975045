"""Several ``pegs serve`` processes on PostgreSQL under faults: a paused owner is fenced
off, a database restart heals by itself, a newer additive schema keeps old releases
running, and the tables spread over the live processes."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import httpx
import psycopg
import pytest
from sqlalchemy import text

from pegs.cli import main
from pegs.server.database import compatible, incompatibility, migrate, open_engine
from pegs.server.protocol import legal_texts
from pegs.server.store_errors import StoreError

from .conftest import Cluster
from .helpers import (
    SHORT_LEASES,
    Client,
    auth,
    free_port,
    launch,
    new_table,
    serve,
    serve_many,
    start,
)

#: Long enough for any lease to run out and be taken (2 s) by a process renewing every 0.6 s.
TAKEOVER_SECONDS = 30


def until(condition: Callable[[], bool], timeout: float, what: str) -> None:
    """Wait for ``condition`` (checked every 0.2 s), failing with ``what`` after ``timeout``."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"after {timeout} s: {what}")
        time.sleep(0.2)


def query(url: str, sql: str) -> list[tuple[object, ...]]:
    with psycopg.connect(url.replace("postgresql+psycopg", "postgresql")) as c:
        cursor = c.execute(sql)
        return cursor.fetchall() if cursor.description else []


def owners(url: str) -> Counter[object]:
    """How many unfinished tables each process holds a current lease of."""
    return Counter(o for (o,) in query(url, "SELECT owner FROM pegs_tables WHERE status IN "
                                            "('waiting', 'playing') AND lease_until > now()"))


def ready(url: str) -> bool:
    try:
        return httpx.get(f"{url}/ready", timeout=5).status_code == 200
    except httpx.TransportError:
        return False


def test_a_paused_owner_writes_nothing_for_tables_another_process_took(
        postgres_url: str, tmp_path: Path) -> None:
    with serve_many(postgres_url, tmp_path, 2, "--shortest-clock", "1",
                    *SHORT_LEASES) as [(paused, a), (_, b)]:
        http = httpx.Client(base_url=a, timeout=20)
        tables = [new_table(http, humans=2, away_seconds=2, turn_seconds=None)
                  for _ in range(3)]
        for code, tokens in tables:
            r = http.post(f"/api/tables/{code}/bots", json={"bot": "random"},
                          headers=auth(tokens[0]))
            assert r.status_code == 200, r.text
        [(first_owner,)] = query(postgres_url, "SELECT DISTINCT owner FROM pegs_tables")
        woke = asyncio.Event()

        async def players_on_b() -> None:
            # every player connected to b throughout; a (the owner) hears of them
            clients = [await Client.open(b.replace("http", "ws"), code, token)
                       for code, tokens in tables for token in tokens]
            for code, tokens in tables:
                await asyncio.to_thread(start, http, code, tokens[0])
            await woke.wait()
            for client in clients:
                await client.close()

        def pause_the_owner() -> None:
            until(lambda: all(s["connected"] for code, _ in tables
                              for s in http.get(f"/api/tables/{code}").json()["seats"]),
                  20, "the owner hears that the players are connected elsewhere")
            os.kill(paused.pid, signal.SIGSTOP)  # past its lease and its away clocks
            try:
                until(lambda: first_owner not in owners(postgres_url)
                      and sum(owners(postgres_url).values()) == len(tables),
                      TAKEOVER_SECONDS, "b takes the paused owner's tables")
            finally:
                os.kill(paused.pid, signal.SIGCONT)
            log = tmp_path / "server0" / "serve.log"
            until(lambda: all(f"table {code}: this process no longer runs it"
                              in log.read_text() for code, _ in tables),
                  20, "the woken owner finds out it lost its tables")

        async def scenario() -> None:
            playing = asyncio.create_task(players_on_b())
            try:
                await asyncio.to_thread(pause_the_owner)
            finally:
                woke.set()
                await playing

        asyncio.run(asyncio.wait_for(scenario(), 120))
        stand_ins = query(postgres_url, "SELECT code, seat FROM pegs_seats WHERE standin")
        http.close()
    assert stand_ins == []  # no stand-in on the seat of a player connected to b


def test_a_database_restart_freezes_no_table_and_acts_meanwhile_are_answered(
        own_postgres: tuple[Cluster, str], tmp_path: Path) -> None:
    cluster, url = own_postgres
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with serve(url, tmp_path, port, "--bot-delay", "0.3", "--max-waiting", "0",
               "--creates-per-minute", "0", "--max-tables-per-address", "0",
               "--rate", "changes=0", *SHORT_LEASES), \
            httpx.Client(base_url=base, timeout=20) as http:
        codes = []
        for _ in range(20):  # all-bot tables: the host's seat too is played by a bot
            code, tokens = new_table(http, humans=1, preset="pegoo", settings={},
                                     turn_seconds=None, away_seconds=None)
            r = http.post(f"/api/tables/{code}/bots", json={"bot": "random"},
                          headers=auth(tokens[0]))
            assert r.status_code == 200, r.text
            start(http, code, tokens[0])
            r = http.post(f"/api/tables/{code}/seats/0/bot", json={"bot": "random"},
                          headers=auth(tokens[0]))
            assert r.status_code == 200, r.text
            codes.append(code)
        human, tokens = new_table(http, humans=2, players=2, turn_seconds=None,
                                  away_seconds=None)
        start(http, human, tokens[0])

        def versions() -> dict[str, tuple[int, str]]:
            return {str(c): (int(v), str(s)) for c, v, s in query(  # type: ignore[call-overload]
                url, "SELECT code, version, status FROM pegs_tables")}

        until(lambda: all(versions()[c][0] >= 2 for c in codes), 30, "every table plays")
        assert ready(base)
        log = tmp_path / "serve.log"
        back: list[float] = []  # when the database was back

        async def act_during_the_outage() -> None:
            ws = base.replace("http", "ws")
            clients = [await Client.open(ws, human, token) for token in tokens]
            states = [await c.until("state") for c in clients]
            mover = next(i for i, s in enumerate(states) if s["legal"])
            legal = states[mover]["legal"]
            action = legal_texts(legal)[0]
            await asyncio.to_thread(cluster.stop)
            await asyncio.to_thread(until, lambda: "storing action" in log.read_text(), 20,
                                    "a bot's move fails while the database is down")
            assert not ready(base)
            reply = await clients[mover].refused({"type": "act", "id": "during", "version": 0,
                                                  "action": action})
            assert (reply["code"], reply["id"]) == ("unavailable", "during")
            # down past the leases: the process stops running its tables, then takes them
            # again when the database is back
            await asyncio.to_thread(until, lambda: "no longer runs it" in log.read_text(),
                                    20, "the process lets its tables go")
            await asyncio.to_thread(cluster.start)
            back.append(time.monotonic())
            await clients[mover].send({"type": "act", "id": "after", "version": 0,
                                       "action": action})
            assert (await clients[mover].until("event", 1, timeout=30))["seat"] == mover
            for c in clients:
                await c.close()

        asyncio.run(act_during_the_outage())
        at_restart = versions()
        until(lambda: ready(base), 30, "the server is ready again")

        def frozen() -> list[str]:
            now = versions()
            return [c for c in codes if now[c][1] == "playing" and now[c][0] <= at_restart[c][0]]

        until(lambda: not frozen(), 30 - (time.monotonic() - back[0]), "no table is frozen")


def test_an_additive_migration_of_a_newer_release_keeps_this_release_serving(
        postgres_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    port = free_port()
    with serve(postgres_url, tmp_path / "old", port):
        assert ready(f"http://127.0.0.1:{port}")
        # a newer release migrates: it only adds, so it leaves compatible_from as it was
        query(postgres_url, "ALTER TABLE pegs_tables ADD COLUMN colour text; "
                            "UPDATE alembic_version SET version_num = '0099'")
        assert ready(f"http://127.0.0.1:{port}")
        second = free_port()
        with serve(postgres_url, tmp_path / "again", second):  # a rollback starts
            assert ready(f"http://127.0.0.1:{second}")
        assert main(["db", "upgrade", "--database-url", postgres_url]) == 0
        assert "schema is current" in capsys.readouterr().err
        # a later release contracts: this one can no longer run on the schema
        query(postgres_url, "UPDATE pegs_schema SET compatible_from = '0099'")
        assert not ready(f"http://127.0.0.1:{port}")
        refused = launch(postgres_url, tmp_path / "refused", free_port())
        assert refused.wait(30) == 2
        assert "needs a release from migration 0099" in (
            tmp_path / "refused" / "serve.log").read_text()


def test_tables_spread_over_the_live_processes_and_a_new_one_takes_its_share(
        postgres_url: str, tmp_path: Path) -> None:
    options = ("--max-waiting", "0", "--creates-per-minute", "0",
               "--max-tables-per-address", "0", *SHORT_LEASES)
    with serve_many(postgres_url, tmp_path, 3, *options) as [(first, a), _, _]:
        with httpx.Client(base_url=a, timeout=20) as http:
            for _ in range(12):  # all created on a: it hands the others their share
                new_table(http, humans=1)
        until(lambda: sorted(owners(postgres_url).values()) == [4, 4, 4], 30,
              "three processes hold four tables each")
        first.terminate()  # it ends its leases: both survivors take some of its tables
        until(lambda: sorted(owners(postgres_url).values()) == [6, 6], 30,
              "the two survivors hold six tables each")
        with serve(postgres_url, tmp_path / "joiner", free_port(), *options):
            until(lambda: sorted(owners(postgres_url).values()) == [4, 4, 4], 30,
                  "the process that joined takes its share")


def test_the_schema_check_takes_an_older_release_back_only_onto_an_expanded_schema(
        tmp_path: Path) -> None:
    engine = open_engine(f"sqlite:///{tmp_path / 'pegs.db'}")
    migrate(engine)
    assert compatible(engine)

    def schema(revision: str, oldest: str | None = None) -> str | None:
        with engine.begin() as c:
            c.execute(text("UPDATE alembic_version SET version_num = :r"), {"r": revision})
            if oldest is not None:
                c.execute(text("UPDATE pegs_schema SET compatible_from = :o"), {"o": oldest})
            return incompatibility(c)

    assert schema("0099") is None  # a later release's expansion
    migrate(engine)  # left as it is
    assert schema("0099", "0003") is None
    assert "older than this release" in (schema("0002") or "")  # needs migrating
    assert "needs a release from migration 0100" in (schema("0099", "0100") or "")
    assert not compatible(engine)
    with pytest.raises(StoreError, match="needs a release from migration 0100"):
        migrate(engine)
    engine.dispose()
