#!/usr/bin/env python3
"""Load on ``pegs serve``: N concurrent tables of 4 scripted clients over WebSockets.

Starts a real server (a subprocess on a free localhost port, a temporary SQLite database
unless ``--database-url``), creates ``--tables`` four-seat tables of ``--preset`` (four
humans each: one creator and three joins), starts them, and connects all 4 x N clients.
Each client, when the state it is sent offers it legal actions, waits a think time
(uniform between 0.5 and 1.5 times ``--think`` seconds, like a quick player), then sends
one of them (random) with the version it saw.  The round trip is the time from sending
the ``act`` to receiving the ``event`` of that action (stored, then broadcast, by the
server).  After ``--warmup`` seconds, the actions and round trips of the next
``--duration`` seconds are counted, then everything is closed.

With ``--servers K`` it starts K servers on one PostgreSQL database (``--database-url``,
or a throwaway PostgreSQL server it starts with ``--postgres`` or when K > 1 and none is
named) and spreads the tables over them (table t is created on, and its clients connect
to, server t mod K); every server still hears every other's writes. ``--faults`` runs
the fault run of ``server_faults.py`` instead (kills, pauses, a database restart).

Prints actions per second, round-trip latency p50/p95/p99/max, refused messages, and the
servers' CPU use (with the CPU per action, both measured over the counted seconds).
Bounded: at most 500 tables, 4 servers and 300 seconds.

    .venv/bin/python benchmarks/server_load.py                       # 200 tables, 30 s
    .venv/bin/python benchmarks/server_load.py --tables 50 --duration 10 --think 0.2
    .venv/bin/python benchmarks/server_load.py --json
    .venv/bin/python benchmarks/server_load.py --servers 2 --database-url postgresql+psycopg://...
    .venv/bin/python benchmarks/server_load.py --servers 3          # a throwaway PostgreSQL
    .venv/bin/python benchmarks/server_load.py --faults
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

from pegs.server.protocol import legal_texts
from throwaway_postgres import Postgres

MAX_TABLES = 500
MAX_SERVERS = 4
#: How the server's compact JSON starts a state, and says it offers no action.
IDLE_STATE = '{"type":"state"'
NOTHING_TO_DO = '"legal":null,'
NOT_OVER = '"outcome":null'

MAX_SECONDS = 300.0


@dataclass
class Tally:
    """What the clients measured inside the counting window."""

    start: float = 0.0
    stop: float = 0.0
    round_trips: list[float] = field(default_factory=list)
    refused: dict[str, int] = field(default_factory=dict)
    finished_games: int = 0

    def counting(self, now: float) -> bool:
        return self.start <= now < self.stop


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def server_cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def make_table(http: httpx.AsyncClient, preset: str, limit: asyncio.Semaphore,
                     ) -> tuple[str, list[str]]:
    async with limit:
        r = await http.post("/api/tables", json={"preset": preset, "name": "Seat 0",
                                                 "players": 4})
        r.raise_for_status()
        code, tokens = r.json()["code"], [r.json()["token"]]
        for i in range(1, 4):
            r = await http.post(f"/api/tables/{code}/join", json={"name": f"Seat {i}"})
            r.raise_for_status()
            tokens.append(r.json()["token"])
        r = await http.post(f"/api/tables/{code}/start",
                            headers={"Authorization": f"Bearer {tokens[0]}"})
        r.raise_for_status()
        return code, tokens


async def client(ws_url: str, code: str, token: str, think: float, tally: Tally,
                 ready: asyncio.Event, connected: list[int], seed: int) -> None:
    """One scripted player: connect, then act on every turn after a think time."""
    rng = random.Random(seed)
    async with connect(f"{ws_url}/ws/{code}", max_size=2**22, ping_interval=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        connected[0] += 1
        await ready.wait()
        sent_at: dict[int, float] = {}
        acted: set[int] = set()
        n = 0
        while True:
            try:
                raw = await asyncio.wait_for(ws.recv(), max(0.1, tally.stop - time.monotonic()))
            except TimeoutError:
                return
            now = time.monotonic()
            if (isinstance(raw, str) and raw.startswith(IDLE_STATE) and NOTHING_TO_DO in raw
                    and NOT_OVER in raw):
                continue  # a state offering this seat nothing: not worth parsing
            message = json.loads(raw)
            kind = message["type"]
            if now >= tally.stop:
                return
            if kind == "event" and message["version"] in sent_at:
                began = sent_at.pop(message["version"])
                if tally.counting(began):  # each action is timed by the client that sent it
                    tally.round_trips.append(now - began)
            if kind == "error":
                tally.refused[message["code"]] = tally.refused.get(message["code"], 0) + 1
            if kind != "state":
                continue
            view = message["view"]
            if view is not None and view["outcome"] is not None:
                tally.finished_games += 1
                return
            version = message["version"]
            if message["legal"] and version not in acted:
                acted.add(version)
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                n += 1
                sent_at[version + 1] = time.monotonic()
                await ws.send(json.dumps({"type": "act", "id": n, "version": version,
                                          "action": rng.choice(legal_texts(message["legal"]))}))


async def drive(args: argparse.Namespace, bases: list[str], tally: Tally,
                cpu: Any) -> dict[str, Any]:
    """Set up the tables (table t on server t mod K), play, and measure; ``cpu()``: the
    servers' CPU seconds so far."""
    limits = httpx.Limits(max_connections=32)
    gate = asyncio.Semaphore(16)
    began = time.monotonic()
    https = [httpx.AsyncClient(base_url=base, timeout=60, limits=limits) for base in bases]
    try:
        tables = await asyncio.gather(*(make_table(https[t % len(bases)], args.preset, gate)
                                        for t in range(args.tables)))
    finally:
        for http in https:
            await http.aclose()
    setup = time.monotonic() - began
    ready = asyncio.Event()
    connected = [0]
    tally.start = tally.stop = time.monotonic() + 3600  # nothing counts while connecting
    tasks = [
        asyncio.create_task(client(bases[t % len(bases)].replace("http://", "ws://"), code,
                                   token, args.think, tally, ready, connected,
                                   args.seed * 10000 + t * 4 + s))
        for t, (code, tokens) in enumerate(tables) for s, token in enumerate(tokens)
    ]
    while connected[0] < len(tasks):
        failed = [t for t in tasks if t.done() and t.exception() is not None]
        if failed:
            raise RuntimeError(f"a client could not connect: {failed[0].exception()}")
        await asyncio.sleep(0.05)
    now = time.monotonic()
    tally.start, tally.stop = now + args.warmup, now + args.warmup + args.duration
    ready.set()
    await asyncio.sleep(args.warmup)
    before = cpu(), time.process_time()
    await asyncio.sleep(args.duration)
    after = cpu(), time.process_time()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {"setup_seconds": setup, "clients": len(tasks), "cpu": after[0] - before[0],
            "own": after[1] - before[1]}


def run(coroutine: Coroutine[Any, Any, dict[str, Any]]) -> dict[str, Any]:
    """Run the clients on uvloop when it is installed (less CPU taken from the server)."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coroutine)
    return uvloop.run(coroutine)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    if "--faults" in (argv if argv is not None else sys.argv[1:]):
        import server_faults
        return server_faults.main([a for a in (argv or sys.argv[1:]) if a != "--faults"])
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200, help="concurrent tables (4 clients "
                        f"each; at most {MAX_TABLES})")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds counted")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds not counted first")
    parser.add_argument("--think", type=float, default=0.5,
                        help="mean seconds a client waits before acting (default 0.5)")
    parser.add_argument("--preset", default="pegoo")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", help="database of the server (default: a temporary "
                        "SQLite file)")
    parser.add_argument("--servers", type=int, default=1, help="server processes sharing the "
                        f"database (1 to {MAX_SERVERS}; more than 1 needs PostgreSQL)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--postgres", action="store_true", help="a throwaway PostgreSQL "
                        "server (the default for --servers above 1 with no --database-url)")
    parser.add_argument("--faults", action="store_true", help="the fault run instead (see "
                        "server_faults.py --help)")
    args = parser.parse_args(argv)
    if not 1 <= args.tables <= MAX_TABLES:
        parser.error(f"--tables must be 1 to {MAX_TABLES}")
    if not 0 < args.duration + args.warmup <= MAX_SECONDS:
        parser.error(f"--duration + --warmup must be more than 0 and at most {MAX_SECONDS:g}")
    if not 1 <= args.servers <= MAX_SERVERS:
        parser.error(f"--servers must be 1 to {MAX_SERVERS}")
    if args.servers > 1 and not (args.database_url or "postgresql").startswith("postgresql"):
        parser.error("--servers above 1 needs a PostgreSQL --database-url")
    postgres = (Postgres() if (args.postgres or args.servers > 1) and not args.database_url
                else None)
    if postgres is not None:
        args.database_url = postgres.url

    data = Path(tempfile.mkdtemp(prefix="pegs-load-"))
    env = {**os.environ, "PEGS_DATA_DIR": str(data)}
    env.pop("PEGS_DATABASE_URL", None)
    log = (data / "server.log").open("wb")
    servers: list[subprocess.Popen[bytes]] = []
    bases: list[str] = []
    tally = Tally()
    try:
        for _ in range(args.servers):
            port = free_port()
            command = [sys.executable, "-m", "pegs.cli", "serve", "--port", str(port),
                       "--bot-delay", "0", "--creates-per-minute", "0", "--max-waiting", "0",
                       "--connects-per-minute", "0", "--max-connections", "0",
                       "--max-tables-per-address", "0", "--joins-per-minute", "0"]
            if args.database_url:
                command += ["--database-url", args.database_url]
            servers.append(subprocess.Popen(command, env=env, stdout=log,
                                            stderr=subprocess.STDOUT))
            bases.append(f"http://127.0.0.1:{port}")
        deadline = time.monotonic() + 30
        for server, base in zip(servers, bases, strict=True):
            while True:
                try:
                    httpx.get(f"{base}/api/tables", timeout=1)
                    break
                except httpx.TransportError:
                    if server.poll() is not None or time.monotonic() > deadline:
                        raise SystemExit("a server did not start; see its log") from None
                    time.sleep(0.1)
        info = run(drive(args, bases, tally,
                         lambda: sum(server_cpu_seconds(s.pid) for s in servers)))
    finally:
        for server in servers:
            server.send_signal(signal.SIGTERM)
        for server in servers:
            try:
                server.wait(15)
            except subprocess.TimeoutExpired:
                server.kill()
        log.close()
        shutil.rmtree(data, ignore_errors=True)
        if postgres is not None:
            postgres.remove()

    trips = [t * 1000 for t in tally.round_trips]
    result = {
        "tables": args.tables, "clients": info["clients"], "think_seconds": args.think,
        "preset": args.preset, "counted_seconds": args.duration,
        "actions": len(trips), "actions_per_second": len(trips) / args.duration,
        "latency_ms": {"p50": percentile(trips, 0.50), "p95": percentile(trips, 0.95),
                       "p99": percentile(trips, 0.99), "max": max(trips, default=float("nan")),
                       "mean": statistics.fmean(trips) if trips else float("nan")},
        "refused": tally.refused, "finished_games": tally.finished_games,
        "servers": args.servers,
        "server_cpu_percent": 100 * info["cpu"] / args.duration,
        "server_cpu_ms_per_action": 1000 * info["cpu"] / len(trips) if trips else float("nan"),
        "clients_cpu_percent": 100 * info["own"] / args.duration,
        "load_average": os.getloadavg()[0],
        "setup_seconds": info["setup_seconds"],
    }
    if args.json:
        print(json.dumps(result))
        return 0
    lat = result["latency_ms"]
    print(f"{args.servers} server(s), {args.tables} tables, {info['clients']} clients, "
          f"{args.preset}, think "
          f"{args.think:g} s; set up in {info['setup_seconds']:.1f} s")
    print(f"actions: {len(trips)} in {args.duration:g} s = "
          f"{result['actions_per_second']:.0f} actions/s")
    print(f"round trip (act -> event): p50 {lat['p50']:.1f} ms, p95 {lat['p95']:.1f} ms, "
          f"p99 {lat['p99']:.1f} ms, max {lat['max']:.1f} ms")
    print(f"CPU: servers {result['server_cpu_percent']:.0f}% "
          f"({result['server_cpu_ms_per_action']:.2f} ms an action), clients "
          f"{result['clients_cpu_percent']:.0f}% of one core; load average "
          f"{result['load_average']:.1f}; refused messages: {tally.refused or 'none'}; games "
          f"finished: {tally.finished_games}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
