"""Several ``pegs serve`` processes on one PostgreSQL database act as one service."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from pegs.cli import main
from pegs.server.database import open_engine

from .helpers import (
    SHORT,
    SHORT_LEASES,
    Client,
    Player,
    auth,
    free_port,
    launch,
    new_table,
    run,
    serve,
    serve_many,
    start,
)


def test_servers_started_together_on_an_empty_database_all_come_up(
        postgres_url: str, tmp_path: Path) -> None:
    with serve_many(postgres_url, tmp_path, 3) as servers:
        for process, url in servers:
            assert process.poll() is None
            assert httpx.get(f"{url}/api/presets").status_code == 200
    engine = open_engine(postgres_url)
    with engine.connect() as c:
        assert len(c.execute(text("SELECT version_num FROM alembic_version")).all()) == 1
    engine.dispose()


def test_db_upgrade_migrates_on_its_own(postgres_url: str,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["db", "upgrade", "--database-url", postgres_url]) == 0
    assert "schema is current" in capsys.readouterr().err
    engine = open_engine(postgres_url)
    with engine.connect() as c:
        assert c.execute(text("SELECT count(*) FROM pegs_tables")).scalar_one() == 0
    engine.dispose()
    assert main(["db", "upgrade", "--database-url", "not a url"]) == 2
    assert "is not a database URL" in capsys.readouterr().err


def test_a_second_server_on_one_sqlite_file_is_refused_even_after_a_kill(
        tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'pegs.db'}"
    with serve(url, tmp_path, free_port()) as first:
        second = launch(url, tmp_path, free_port())  # the same data folder: the same file
        assert second.wait(30) == 2
        log = (tmp_path / "serve.log").read_text()
        assert log.count("another pegs serve is using") == 1 and "PostgreSQL" in log
        first.kill()  # SIGKILL: the kernel drops its lock
        first.wait(10)
    with serve(url, tmp_path, free_port()) as again:
        assert again.poll() is None


async def _race(requests: list[tuple[str, str, dict[str, Any], dict[str, str]]],
                ) -> list[httpx.Response]:
    async with httpx.AsyncClient(timeout=20) as http:
        return await asyncio.gather(*(http.post(url + path, json=body, headers=headers)
                                      for url, path, body, headers in requests))


def test_of_two_joins_or_starts_through_different_servers_exactly_one_wins(
        postgres_url: str, tmp_path: Path) -> None:
    with serve_many(postgres_url, tmp_path, 2) as [(_, a), (_, b)]:
        for round_ in range(6):
            r = httpx.post(f"{a}/api/tables", json={**SHORT, "name": "Ann"})
            code, host = r.json()["code"], r.json()["token"]
            path = f"/api/tables/{code}/join"
            answers = asyncio.run(_race([(a, path, {"name": "Bo", "seat": 1}, {}),
                                         (b, path, {"name": "Cy", "seat": 1}, {})]))
            assert sorted(r.status_code for r in answers) == [200, 409], round_
            assert [r.json()["error"]["code"] for r in answers if r.status_code == 409] == [
                "seat_taken"]
            winner = next(r.json()["seat"] for r in answers if r.status_code == 200)
            for url in (a, b):  # both servers now show the winner in the seat
                seats = httpx.get(f"{url}/api/tables/{code}").json()["seats"]
                assert seats[winner]["kind"] == "human"
            r = httpx.post(f"{b}/api/tables/{code}/bots", json={"bot": "random"},
                           headers=auth(host))
            assert r.status_code == 200, r.text
            path = f"/api/tables/{code}/start"
            answers = asyncio.run(_race([(url, path, {}, auth(host)) for url in (a, b)]))
            assert sorted(r.status_code for r in answers) == [200, 409]
            assert [r.json()["error"]["code"] for r in answers if r.status_code == 409] == [
                "started"]


def test_a_game_with_seats_on_different_servers_reaches_every_client_in_order(
        postgres_url: str, tmp_path: Path) -> None:
    with serve_many(postgres_url, tmp_path, 2) as [(_, a), (_, b)]:
        http = httpx.Client(base_url=a, timeout=20)
        code, tokens = new_table(http, humans=2, bots=2)
        start(http, code, tokens[0])
        ws = [url.replace("http", "ws") for url in (a, b)]
        players = [Player(ws[i], code, token, seed=i, pace=0.05)  # under the message rate
                   for i, token in enumerate(tokens)]
        watchers = [Player(url, code, None) for url in ws]
        run(*(p.play() for p in [*players, *watchers]))
        record = httpx.get(f"{b}/api/tables/{code}/record", headers=auth(tokens[1])).json()
        http.close()
    moves = len(record["actions"])
    assert moves > 20 and watchers[0].states[-1]["view"]["outcome"] is not None
    for client in [*players, *watchers]:
        assert [e["version"] for e in client.events] == list(range(1, moves + 1))
        assert client.states[-1]["version"] == moves
    assert watchers[0].events == watchers[1].events
    assert [e["action"] for e in watchers[0].events] == record["actions"]


def test_a_bot_table_goes_on_on_another_server_when_its_owner_is_killed(
        postgres_url: str, tmp_path: Path) -> None:
    with serve_many(postgres_url, tmp_path, 2, "--bot-delay", "0.05",
                    *SHORT_LEASES) as [(owner, a), (_, b)]:
        http = httpx.Client(base_url=a, timeout=20)
        code, tokens = new_table(http, humans=1, bots=1)  # the host and three bots
        start(http, code, tokens[0])  # on a, which created the table and holds its lease
        http.close()
        ws = b.replace("http", "ws")
        human = Player(ws, code, tokens[0], pace=0.05)
        watcher = Player(ws, code, None)
        takeover: list[float] = []

        async def kill_the_owner() -> None:
            while not watcher.states or watcher.states[-1]["version"] < 12:
                await asyncio.sleep(0.02)
            owner.kill()  # SIGKILL: its leases are not given back
            killed, at_kill = time.monotonic(), len(watcher.events)
            while not any(e["seat"] != 0 for e in watcher.events[at_kill:]):
                await asyncio.sleep(0.05)
            takeover.append(time.monotonic() - killed)

        run(human.play(), watcher.play(), kill_the_owner(), timeout=90)
        record = httpx.get(f"{b}/api/tables/{code}/record").json()
    assert takeover[0] < 8  # a bot moved again, run by b (a lease and a renewal later)
    assert watcher.states[-1]["view"]["outcome"] is not None
    moves = len(record["actions"])  # each action applied once, heard once, in order
    assert [e["version"] for e in watcher.events] == list(range(1, moves + 1))
    assert [e["action"] for e in watcher.events] == record["actions"]


def test_health_and_readiness(client: TestClient) -> None:
    assert client.get("/health").json() == {"status": "ok"}
    assert client.get("/ready").json() == {"status": "ready"}
    with client.app.state.hub.store.engine.begin() as c:  # type: ignore[attr-defined]
        c.execute(text("UPDATE alembic_version SET version_num = '0002'"))
    r = client.get("/ready")
    assert r.status_code == 503 and r.json()["error"]["code"] == "not_ready"
    assert client.get("/health").status_code == 200


def test_a_player_connected_to_another_server_gets_no_stand_in(
        postgres_url: str, tmp_path: Path) -> None:
    with serve_many(postgres_url, tmp_path, 2, "--shortest-clock", "1",
                    *SHORT_LEASES) as [(_, a), (_, b)]:
        http = httpx.Client(base_url=a, timeout=20)
        code, tokens = new_table(http, humans=2, away_seconds=2, turn_seconds=None)
        r = http.post(f"/api/tables/{code}/bots", json={"bot": "heuristic"},
                      headers=auth(tokens[0]))
        assert r.status_code == 200, r.text
        start(http, code, tokens[0])  # a holds the lease: it runs the away clocks

        async def stay(url: str, token: str) -> None:
            client = await Client.open(url.replace("http", "ws"), code, token)
            # past the away time, and several times as long as a's word on b's seats holds
            await asyncio.sleep(3.5)
            await client.close()

        run(stay(a, tokens[0]), stay(b, tokens[1]))
        seats = http.get(f"/api/tables/{code}").json()["seats"]
        http.close()
    assert [s["standin"] for s in seats[:2]] == [False, False]
