"""A limits server (Redis) that hangs (SIGSTOP), stops or restarts under a real ``pegs
serve``: creates, joins, lobby reads and WebSocket hellos are answered at once (let through
uncounted, logged once), and the limits are counted again when it is back."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import statistics
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

from .conftest import RedisServer
from .helpers import SHORT, free_port, run, serve

#: The longest any request may take while the limits server hangs (today's bound is
#: about 0.1 s: one call's timeout; the rest is the machine's load).
BOUND_SECONDS = 1.0
JOINS_PER_MINUTE = 4
HUNG = "failed or did not answer within"
BACK = "answers again"


def client(base: str, address: str) -> httpx.AsyncClient:
    return httpx.AsyncClient(base_url=base, timeout=20,
                             transport=httpx.AsyncHTTPTransport(local_address=address))


async def timed(work: Callable[[], Awaitable[Any]]) -> float:
    began = time.monotonic()
    await work()
    return time.monotonic() - began


async def joins(http: httpx.AsyncClient, code: str, n: int) -> list[int]:
    return [(await http.post(f"/api/tables/{code}/join", json={"name": f"P{i}"})).status_code
            for i in range(n)]


async def create(http: httpx.AsyncClient) -> str:
    r = await http.post("/api/tables", json={**SHORT, "name": "Ann", "players": 10})
    assert r.status_code == 201, r.text
    return str(r.json()["code"])


async def hello(base: str, code: str) -> None:
    async with connect(base.replace("http", "ws") + f"/ws/{code}") as ws:
        await ws.send(json.dumps({"type": "hello", "spectator": True}))
        assert json.loads(await ws.recv())["type"] == "state"


async def hung_requests(base: str) -> dict[str, list[float]]:
    """Ten of each kind of request, one after another, and a burst of ten creates at
    once, while other clients keep reading the lobby: the seconds each took."""
    stop = asyncio.Event()

    async def reader(address: str) -> None:
        async with client(base, address) as http:
            while not stop.is_set():
                assert (await http.get("/api/tables")).status_code == 200

    load = [asyncio.create_task(reader(f"127.0.0.{20 + i}")) for i in range(4)]
    seconds: dict[str, list[float]] = {"create": [], "join": [], "lobby": [], "hello": [],
                                       "burst of 10 creates": []}
    try:
        async with client(base, "127.0.0.1") as http:
            codes: list[str] = []

            async def made() -> None:
                codes.append(await create(http))

            async def join() -> None:  # uncounted: never over the limit
                assert await joins(http, codes[-1], 1) == [200]

            for _ in range(10):
                seconds["create"].append(await timed(made))

                seconds["join"].append(await timed(join))
                seconds["lobby"].append(await timed(lambda: http.get("/api/tables")))
                seconds["hello"].append(await timed(lambda: hello(base, codes[-1])))
            seconds["burst of 10 creates"].append(await timed(
                lambda: asyncio.gather(*(create(http) for _ in range(10)))))
    finally:
        stop.set()
        await asyncio.gather(*load)
    return seconds


def test_a_hung_limits_server_stalls_no_request_and_the_limits_come_back(
        postgres_url: str, own_redis: RedisServer, tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    options = ("--limits-url", own_redis.url, "--joins-per-minute", str(JOINS_PER_MINUTE),
               "--creates-per-minute", "1000", "--max-waiting", "0",
               "--max-tables-per-address", "0", "--lobby-reads-per-minute", "10000",
               "--connects-per-minute", "1000")
    log = tmp_path / "serve.log"

    async def counted(address: str) -> None:
        """The join limit holds for ``address`` (once the limits server answers again)."""
        async with client(base, address) as http:
            code = await create(http)
            deadline = time.monotonic() + 30
            while log.read_text().count(BACK) < log.read_text().count(HUNG):
                assert time.monotonic() < deadline, "the limits server is never tried again"
                await http.get("/api/tables")
                await asyncio.sleep(0.2)
            assert await joins(http, code, JOINS_PER_MINUTE + 1) == [200] * 4 + [429]

    seconds: dict[str, list[float]] = {}

    async def scenario() -> None:
        await counted("127.0.0.2")
        os.kill(own_redis.process.pid, signal.SIGSTOP)
        try:
            seconds.update(await hung_requests(base))
        finally:
            os.kill(own_redis.process.pid, signal.SIGCONT)
        await counted("127.0.0.3")
        assert log.read_text().count(HUNG) == 1  # once, not once a request
        own_redis.stop()  # down: refused at once
        async with client(base, "127.0.0.4") as http:
            for _ in range(5):
                assert await timed(lambda: http.get("/api/tables")) < BOUND_SECONDS
        own_redis.start()  # restarted (empty): counted again
        await counted("127.0.0.5")
        assert log.read_text().count(HUNG) == 2

    with serve(postgres_url, tmp_path, port, *options):
        run(scenario(), timeout=120)
    for kind, taken in seconds.items():
        print(f"with the limits server hung, {kind}: median {statistics.median(taken):.3f} s, "
              f"max {max(taken):.3f} s")
        assert max(taken) < BOUND_SECONDS, (kind, taken)
