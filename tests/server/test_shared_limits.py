"""Per-address limits hold across processes: three ``pegs serve`` on one PostgreSQL
database counting in one Redis server give the numbers one process gives."""

from __future__ import annotations

import asyncio
import itertools
import json
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

from pegs.server.counters import SharedOpen

from .helpers import SHORT, auth, run, serve_many
from .test_bounds import closed_within


def test_three_processes_give_one_processes_limits(postgres_url: str, redis_server: str,
                                                   tmp_path: Path) -> None:
    options = ("--limits-url", redis_server, "--creates-per-minute", "4", "--max-waiting",
               "2", "--joins-per-minute", "3", "--lobby-reads-per-minute", "5",
               "--max-connections", "4", "--hello-seconds", "30")
    with serve_many(postgres_url, tmp_path, 3, *options) as servers:
        urls = itertools.cycle([url for _, url in servers])  # round robin, like a proxy
        body = {**SHORT, "name": "Ann", "players": 10, "public": True}
        elsewhere = httpx.HTTPTransport(local_address="127.0.0.3")
        with httpx.Client(timeout=20, transport=elsewhere) as other:
            waiting = [other.post(f"{next(urls)}/api/tables", json=body) for _ in range(3)]
        assert [r.status_code for r in waiting] == [201, 201, 429]
        assert "waiting" in waiting[2].json()["error"]["message"]
        made = []
        for _ in range(5):  # each started at once: only the rate limits them
            made.append(httpx.post(f"{next(urls)}/api/tables", json=SHORT | {"name": "Bo"},
                                   timeout=20))
            if made[-1].status_code == 201:
                code, token = made[-1].json()["code"], made[-1].json()["token"]
                for route in ("bots", "start"):
                    httpx.post(f"{next(urls)}/api/tables/{code}/{route}", json={},
                               headers=auth(token), timeout=20).raise_for_status()
        assert [r.status_code for r in made] == [201] * 4 + [429]
        assert "a minute" in made[4].json()["error"]["message"]
        code = waiting[0].json()["code"]
        async def sockets() -> None:
            ws_urls = [url.replace("http", "ws") + f"/ws/{code}" for _, url in servers]
            held = [await connect(ws_urls[i % 3]) for i in range(4)]
            for i in range(3):  # a fifth through any process is one too many
                extra = await connect(ws_urls[i])
                assert (await closed_within(extra, 5))[0]["code"] == "too_many_connections"
            await held[0].close()  # one closes: one more may open, through another
            replacement = await connect(ws_urls[2])
            await replacement.send(json.dumps({"type": "hello", "spectator": True}))
            assert json.loads(await replacement.recv())["type"] == "state"
            for ws in (*held[1:], replacement):
                await ws.close()

        run(sockets())


def test_a_crashed_processes_open_connections_lapse(redis_server: str) -> None:
    async def scenario() -> None:
        crashed, alive = SharedOpen(redis_server, lease=0.5), SharedOpen(redis_server)
        await alive.start()
        assert await crashed.acquire("10.9.9.9", 2) is not None
        assert await alive.acquire("10.9.9.9", 2) is not None
        assert await alive.acquire("10.9.9.9", 2) is None  # two are open
        await asyncio.sleep(0.7)  # the first process never renewed its entry
        ticket = await alive.acquire("10.9.9.9", 2)
        assert ticket is not None
        await alive.renew()  # renewing keeps the living entries
        assert await alive.acquire("10.9.9.9", 2) is None
        await alive.release(ticket)
        assert await alive.acquire("10.9.9.9", 2) is not None
        await alive.close()
        await crashed._redis.aclose()

    run(scenario())
