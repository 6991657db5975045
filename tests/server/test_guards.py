"""Guards: unguessable codes and tokens, hashed tokens compared in constant time, table
creation bounded per address, waiting tables that expire."""

from __future__ import annotations

import asyncio
import hmac
import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text as sql

from pegs.server import create_app, limits
from pegs.server.limits import Limits, new_code, new_token, token_hash, token_matches

from .helpers import SHORT, LiveServer, new_table, run, start


def test_codes_and_tokens_are_long_random_and_url_safe() -> None:
    codes = {new_code() for _ in range(500)}
    tokens = {new_token() for _ in range(500)}
    assert len(codes) == 500 and len(tokens) == 500
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{12}", c) for c in codes)
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{43}", t) for t in tokens)


def test_tokens_are_stored_hashed_and_compared_in_constant_time(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    code, tokens = new_table(client, humans=3)
    room = client.app.state.hub.rooms[code]  # type: ignore[attr-defined]
    assert all(s.token_hash != t for s, t in zip(room.seats, tokens, strict=False))
    assert room.seats[1].token_hash == token_hash(tokens[1])
    calls: list[tuple[str, str]] = []
    real = hmac.compare_digest

    def spy(a: str, b: str) -> bool:
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(limits.hmac, "compare_digest", spy)
    assert room.seat_of(tokens[1]) == 1
    assert len(calls) == 4  # every seat is compared, found or not (the empty one too)
    assert room.seat_of("guess") is None and len(calls) == 8
    assert not token_matches(tokens[0], None)


def bounded_app(where: Path | str, **bounds: Any) -> TestClient:
    """An in-process server with these limits, on a database URL or a SQLite file in a
    folder."""
    url = where if isinstance(where, str) else f"sqlite:///{where / 'pegs.db'}"
    return TestClient(create_app(url, bot_delay=0, limits=Limits(**bounds)))


def create(client: TestClient) -> httpx.Response:
    return client.post("/api/tables", json={**SHORT, "name": "Ann"})


def test_table_creation_is_rate_limited_per_address(tmp_path: Path) -> None:
    with bounded_app(tmp_path, creates_per_minute=3, max_waiting_per_address=0) as client:
        assert [create(client).status_code for _ in range(3)] == [201] * 3
        r = create(client)
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
        wait = re.fullmatch(r"too many new tables from your address \(at most 3 a minute\): "
                            r"try again in (\d+) s", r.json()["error"]["message"])
        assert wait and 1 <= int(wait[1]) <= 60 and r.headers["retry-after"] == wait[1]
        assert len(client.app.state.hub.rooms) == 3  # type: ignore[attr-defined]


def test_waiting_tables_are_capped_per_address_until_one_starts(tmp_path: Path) -> None:
    with bounded_app(tmp_path, creates_per_minute=0, max_waiting_per_address=2) as client:
        code, tokens = new_table(client, humans=1, bots=1)
        new_table(client, humans=1)
        r = create(client)
        assert r.status_code == 429 and r.headers["retry-after"] == "60"
        assert "2 tables waiting for players" in r.text and "24 hours" in r.text
        start(client, code, tokens[0])
        assert create(client).status_code == 201


def test_waiting_tables_expire_and_free_the_server(database_url: str) -> None:
    with bounded_app(database_url, waiting_seconds=1.5, max_tables=2,
                     max_waiting_per_address=0) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        playing, tokens = new_table(client, humans=1, bots=1)
        start(client, playing, tokens[0])
        waiting, _ = new_table(client, humans=1)
        r = create(client)
        assert r.status_code == 503 and r.json()["error"]["code"] == "busy"
        deadline = time.monotonic() + 15
        while waiting in hub.rooms:
            assert time.monotonic() < deadline, "the waiting table never expired"
            time.sleep(0.05)
        assert client.get(f"/api/tables/{waiting}").status_code == 404
        assert client.get(f"/api/tables/{playing}").json()["status"] == "playing"
        assert create(client).status_code == 201  # room again
        with hub.store.engine.connect() as c:
            assert c.scalar(sql("SELECT count(*) FROM pegs_tables WHERE code = :c"),
                            {"c": waiting}) == 0
            assert c.scalar(sql("SELECT count(*) FROM pegs_seats WHERE code = :c"),
                            {"c": waiting}) == 0


def test_simultaneous_creates_stay_within_the_waiting_cap(tmp_path: Path) -> None:
    server = LiveServer(f"sqlite:///{tmp_path / 'pegs.db'}",
                        Limits(creates_per_minute=0, max_waiting_per_address=3))
    answers: list[int] = []

    async def flood() -> None:
        async with httpx.AsyncClient(base_url=server.url, timeout=20) as http:
            made = await asyncio.gather(*(http.post("/api/tables", json={**SHORT, "name": "A"})
                                          for _ in range(12)))
        answers.extend(r.status_code for r in made)

    try:
        run(flood())
    finally:
        server.stop()
    assert sorted(answers) == [201] * 3 + [429] * 9
