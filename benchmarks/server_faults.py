#!/usr/bin/env python3
"""Faults on several ``pegs serve`` processes sharing one PostgreSQL database.

Starts a throwaway PostgreSQL server and ``--servers`` processes (default 3) on it, then
``--tables`` tables of four scripted players (spread over the processes; a player whose
connection drops or goes quiet reconnects to the next process, with its seat token) and
``--bot-tables`` all-bot tables. While they play it kills one process with SIGKILL (and
starts it again 15 s later), pauses another with SIGSTOP for ``--pause`` seconds, and
restarts PostgreSQL (down 5 s). Then it prints:

- lost of acknowledged actions: actions whose ``event`` a player received for its own
  ``act`` but which the database does not hold at that version (must be 0);
- failover times: from the kill (or the pause) to the next move of each bot table the
  victim held (its lease runs 10 s), median and maximum;
- recovery after the database restart: from PostgreSQL being back to the next move of
  every unfinished bot table, median and maximum;
- frozen tables: unfinished tables with no move in the last 20 s at the end (must be 0).

Then (``--phases`` ``hung-limits``) it starts a Redis (or Valkey) server and one more
process counting its limits there, pauses that limits server with SIGSTOP while clients
keep reading the lobby, and prints the seconds creates, joins, lobby reads and WebSocket
hellos take with it answering and with it hung (median and maximum of ten each, and a
burst of ten creates at once), and how long after SIGCONT the limits are counted again.

Bounded and self-stopping: at most 300 s of play.

    .venv/bin/python benchmarks/server_faults.py
    .venv/bin/python benchmarks/server_faults.py --phases hung-limits   # that phase alone
    .venv/bin/python benchmarks/server_load.py --faults     # the same
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
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import psycopg
from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException

from pegs.server.protocol import legal_texts
from throwaway_postgres import Postgres, free_port

#: When each fault happens, in seconds after play begins.
KILL_AT, RESTART_AFTER, PAUSE_AT, DATABASE_AT, DATABASE_DOWN = 8.0, 15.0, 35.0, 75.0, 5.0
#: A table with no move for this long at the end counts as frozen.
FROZEN_SECONDS = 20.0
MAX_SECONDS = 300.0
PHASES = ("faults", "hung-limits")


@dataclass
class Run:
    """The servers, the database, and what the players saw."""

    db: Postgres
    folder: Path
    ports: list[int]
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)
    #: (code, version, action) of every act whose event its sender received
    acked: list[tuple[str, int, str]] = field(default_factory=list)
    reconnects: int = 0
    unavailable: int = 0

    def base(self, i: int) -> str:
        return f"http://127.0.0.1:{self.ports[i]}"

    def launch(self, i: int, *options: str) -> subprocess.Popen[bytes]:
        log = (self.folder / f"server{i}.log").open("ab")
        env = {**os.environ, "PEGS_DATA_DIR": str(self.folder)}
        env.pop("PEGS_DATABASE_URL", None)
        return subprocess.Popen(
            [sys.executable, "-m", "pegs.cli", "serve", "--port", str(self.ports[i]),
             "--database-url", self.db.url, "--bot-delay", "0", "--creates-per-minute", "0",
             "--max-waiting", "0", "--connects-per-minute", "0",
             "--max-tables-per-address", "0", "--rate", "joins=0", "--rate", "changes=0",
             "--rate", "table=0", *options],
            env=env, stdout=subprocess.DEVNULL, stderr=log)

    def wait_ready(self, i: int, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                if httpx.get(f"{self.base(i)}/ready", timeout=2).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            if self.processes[i].poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"server {i} did not start; see {self.folder}/server{i}.log")
            time.sleep(0.1)

    def sql(self, query: str, *args: object) -> list[tuple[Any, ...]]:
        url = self.db.url.replace("postgresql+psycopg", "postgresql")
        with psycopg.connect(url, connect_timeout=5) as c:
            return c.execute(query, args).fetchall()  # type: ignore[arg-type]


async def player(run: Run, code: str, token: str, seat: int, first: int, stop_at: float,
                 seed: int) -> None:
    """One scripted player: acts on its turns; reconnects to the next process when its
    connection drops or goes quiet; sends an act again when it is answered
    ``unavailable``."""
    rng = random.Random(seed)
    index = first
    while (left := stop_at - time.monotonic()) > 0:
        base = run.base(index % len(run.ports)).replace("http", "ws")
        try:
            async with connect(f"{base}/ws/{code}", open_timeout=5, ping_interval=3,
                               ping_timeout=3, max_size=2**22) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))
                pending: tuple[int, str] | None = None
                n = 0
                while (left := stop_at - time.monotonic()) > 0:
                    message = json.loads(await asyncio.wait_for(ws.recv(), left))
                    kind = message["type"]
                    if kind == "event":
                        if (pending and message["seat"] == seat
                                and message["version"] == pending[0] + 1):
                            run.acked.append((code, message["version"], message["action"]))
                            pending = None
                    elif kind == "error":
                        if message["code"] in ("unavailable", "internal") and pending:
                            run.unavailable += 1
                            await asyncio.sleep(0.5)
                            n += 1
                            await ws.send(json.dumps({"type": "act", "id": n,
                                                      "version": pending[0],
                                                      "action": pending[1]}))
                        else:
                            pending = None
                    elif kind == "state":
                        view = message["view"]
                        if view is not None and view["outcome"] is not None:
                            return
                        version = message["version"]
                        if message["legal"] and (pending is None or pending[0] != version):
                            await asyncio.sleep(rng.uniform(0.25, 0.75))
                            pending = (version, rng.choice(legal_texts(message["legal"])))
                            n += 1
                            await ws.send(json.dumps({"type": "act", "id": n,
                                                      "version": version,
                                                      "action": pending[1]}))
        except (OSError, TimeoutError, WebSocketException):
            if stop_at - time.monotonic() <= 0:
                return
            run.reconnects += 1
            index += 1
            await asyncio.sleep(0.5)


def make_tables(run: Run, humans: int, bots: int) -> tuple[list[tuple[str, list[str]]],
                                                           list[str]]:
    """Human tables (four players each) and all-bot tables, table t on process t mod K."""
    human_tables, bot_tables = [], []
    clients = [httpx.Client(base_url=run.base(i), timeout=30) for i in range(len(run.ports))]
    body = {"preset": "pegoo", "players": 4, "turn_seconds": None, "away_seconds": None}
    for t in range(humans + bots):
        http = clients[t % len(clients)]
        r = http.post("/api/tables", json={**body, "name": "Seat 0",
                                           **({"bot_delay": 0.5} if t >= humans else {})})
        r.raise_for_status()
        code, tokens = r.json()["code"], [r.json()["token"]]
        host = {"Authorization": f"Bearer {tokens[0]}"}
        if t < humans:
            for i in range(1, 4):
                r = http.post(f"/api/tables/{code}/join", json={"name": f"Seat {i}"})
                r.raise_for_status()
                tokens.append(r.json()["token"])
            http.post(f"/api/tables/{code}/start", headers=host).raise_for_status()
            human_tables.append((code, tokens))
        else:
            http.post(f"/api/tables/{code}/bots", json={"bot": "random"},
                      headers=host).raise_for_status()
            http.post(f"/api/tables/{code}/start", headers=host).raise_for_status()
            http.post(f"/api/tables/{code}/seats/0/bot", json={"bot": "random"},
                      headers=host).raise_for_status()
            bot_tables.append(code)
    for http in clients:
        http.close()
    return human_tables, bot_tables


def owners(run: Run) -> dict[str, str]:
    return {code: owner for code, owner in run.sql(
        "SELECT code, owner FROM pegs_tables WHERE status = 'playing'")}


def next_moves(run: Run, codes: list[str], after: datetime) -> list[float]:
    """Seconds from ``after`` to each table's first stored action after it (a table that
    never moved again counts as infinite)."""
    rows = dict(run.sql("SELECT code, min(at) FROM pegs_actions WHERE at > %s AND code = "
                        "ANY(%s) GROUP BY code", after, codes))
    return [(rows[c] - after).total_seconds() if c in rows else float("inf") for c in codes]


async def faults(run: Run, bot_tables: list[str], began: float, pause: float,
                 report: dict[str, Any]) -> None:
    """Kill, pause and restart on schedule; note who held what when."""

    async def at(seconds: float) -> None:
        await asyncio.sleep(max(0.0, began + seconds - time.monotonic()))

    async def victim_tables(held: dict[str, str], live: set[str]) -> list[str]:
        """The bot tables of the process that stopped renewing (after its lease)."""
        await asyncio.sleep(12)
        renewing = {o for (o,) in await asyncio.to_thread(
            run.sql, "SELECT origin FROM pegs_servers WHERE seen_until > now()")}
        gone = live - renewing
        return [c for c in bot_tables if held.get(c) in gone]

    servers = "SELECT origin FROM pegs_servers WHERE seen_until > now()"
    await at(KILL_AT)
    held = await asyncio.to_thread(owners, run)
    live = {o for (o,) in await asyncio.to_thread(run.sql, servers)}
    killed_at = datetime.now().astimezone()
    run.processes[0].kill()
    report["kill"] = (killed_at, await victim_tables(held, live))
    await at(KILL_AT + RESTART_AFTER)
    run.processes[0] = run.launch(0)
    await at(PAUSE_AT)
    held = await asyncio.to_thread(owners, run)
    live = {o for (o,) in await asyncio.to_thread(run.sql, servers)}
    paused_at = datetime.now().astimezone()
    run.processes[1].send_signal(signal.SIGSTOP)
    try:
        report["pause"] = (paused_at, await victim_tables(held, live))
        await at(PAUSE_AT + pause)
    finally:
        run.processes[1].send_signal(signal.SIGCONT)
    await at(DATABASE_AT)
    await asyncio.to_thread(run.db.stop)
    await asyncio.sleep(DATABASE_DOWN)
    await asyncio.to_thread(run.db.start)
    report["database"] = datetime.now().astimezone()


async def play(run: Run, args: argparse.Namespace) -> dict[str, Any]:
    human_tables, bot_tables = await asyncio.to_thread(make_tables, run, args.tables,
                                                       args.bot_tables)
    began = time.monotonic()
    stop_at = began + args.duration
    players = [player(run, code, token, seat, t, stop_at, t * 4 + seat)
               for t, (code, tokens) in enumerate(human_tables)
               for seat, token in enumerate(tokens)]
    report: dict[str, Any] = {}
    await asyncio.gather(faults(run, bot_tables, began, args.pause, report), *players)
    end = datetime.now().astimezone()
    lost = 0
    stored = {(c, n): a for c, n, a in await asyncio.to_thread(
        run.sql, "SELECT code, number, action FROM pegs_actions")}
    for code, version, action in run.acked:
        lost += stored.get((code, version)) != action
    last = await asyncio.to_thread(run.sql, "SELECT t.code, max(a.at) FROM pegs_tables t "
                                   "LEFT JOIN pegs_actions a ON a.code = t.code "
                                   "WHERE t.status = 'playing' GROUP BY t.code")
    frozen = [c for c, when in last if when is None
              or (end - when).total_seconds() > FROZEN_SECONDS]
    unfinished_bots = [c for c, _ in last if c in set(bot_tables)]
    result: dict[str, Any] = {
        "servers": args.servers, "human_tables": args.tables, "bot_tables": args.bot_tables,
        "acknowledged": len(run.acked), "lost_of_acknowledged": lost,
        "frozen_tables": len(frozen), "reconnects": run.reconnects,
        "acts_answered_unavailable": run.unavailable,
    }
    for name in ("kill", "pause"):
        when, victims = report[name]
        times = await asyncio.to_thread(next_moves, run, victims, when)
        result[f"{name}_failover_s"] = {"tables": len(victims),
                                        "median": statistics.median(times) if times else None,
                                        "max": max(times, default=None)}
    times = await asyncio.to_thread(next_moves, run, unfinished_bots, report["database"])
    result["database_recovery_s"] = {"tables": len(times),
                                     "median": statistics.median(times) if times else None,
                                     "max": max(times, default=None)}
    return result


class LimitsServer:
    """A throwaway Redis (or Valkey) server on a free port, no persistence."""

    def __init__(self, folder: Path) -> None:
        binary = shutil.which("redis-server") or shutil.which("valkey-server")
        if binary is None:
            raise SystemExit("redis-server (or valkey-server) is not installed")
        port = free_port()
        self.url = f"redis://127.0.0.1:{port}/0"
        self.process = subprocess.Popen(
            [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(folder)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while not self._pong(port):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.remove()
                raise SystemExit("the limits server did not start")
            time.sleep(0.05)

    @staticmethod
    def _pong(port: int) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def remove(self) -> None:
        self.process.send_signal(signal.SIGCONT)
        self.process.terminate()
        self.process.wait(10)


#: The limits of the process counting in the limits server: only joins are tight (two a
#: minute an address), so the after-SIGCONT probe sees when they are counted again.
LIMITED = ("--creates-per-minute", "10000", "--connects-per-minute", "10000",
           "--lobby-reads-per-minute", "100000", "--joins-per-minute", "2")


def address(phase: int, n: int) -> str:
    """A client address of its own for each request round (the loopback network)."""
    return f"127.0.{phase}.{n + 1}"


def limited_client(base: str, at: str) -> httpx.AsyncClient:
    return httpx.AsyncClient(base_url=base, timeout=60,
                             transport=httpx.AsyncHTTPTransport(local_address=at))


async def create(http: httpx.AsyncClient) -> str:
    r = await http.post("/api/tables", json={"preset": "pegoo", "name": "Ann", "players": 10})
    r.raise_for_status()
    return str(r.json()["code"])


async def spectate(base: str, code: str) -> None:
    async with connect(f"{base.replace('http', 'ws')}/ws/{code}", open_timeout=60) as ws:
        await ws.send(json.dumps({"type": "hello", "spectator": True}))
        if json.loads(await ws.recv())["type"] != "state":
            raise RuntimeError("a spectator's hello was refused")


async def latencies(base: str, phase: int) -> dict[str, list[float]]:
    """Ten rounds of a create, a join, a lobby read and a WebSocket hello (each round from
    an address of its own), then a burst of ten creates at once, while four other clients
    keep reading the lobby: the seconds each took."""
    stop = asyncio.Event()

    async def reader(at: str) -> None:
        async with limited_client(base, at) as http:
            while not stop.is_set():
                (await http.get("/api/tables")).raise_for_status()

    load = [asyncio.create_task(reader(address(phase, 200 + i))) for i in range(4)]
    seconds: dict[str, list[float]] = {"create": [], "join": [], "lobby read": [],
                                       "hello": [], "burst of 10 creates": []}

    async def timed(kind: str, work: Any) -> Any:
        began = time.monotonic()
        result = await work
        seconds[kind].append(time.monotonic() - began)
        return result

    try:
        for n in range(10):
            async with limited_client(base, address(phase, n)) as http:
                code = await timed("create", create(http))
                r = await timed("join", http.post(f"/api/tables/{code}/join",
                                                  json={"name": "Bo"}))
                r.raise_for_status()
                (await timed("lobby read", http.get("/api/tables"))).raise_for_status()
                await timed("hello", spectate(base, code))
        async with limited_client(base, address(phase, 100)) as http:
            await timed("burst of 10 creates", asyncio.gather(*(create(http)
                                                                for _ in range(10))))
    finally:
        stop.set()
        await asyncio.gather(*load)
    return seconds


async def counted_again(base: str, phase: int, within: float) -> float:
    """Seconds until a third join from one address is refused again (a fresh address
    every quarter second)."""
    began = time.monotonic()
    for n in range(int(within * 4)):
        async with limited_client(base, address(phase, n)) as http:
            code = await create(http)
            answers = [(await http.post(f"/api/tables/{code}/join", json={"name": "Cy"}))
                       .status_code for _ in range(3)]
        if answers[2] == 429:
            return time.monotonic() - began
        await asyncio.sleep(0.25)
    return float("inf")


def hung_limits(run: Run) -> dict[str, Any]:
    """The phase with a hung limits server (see the module's description)."""
    limits = LimitsServer(run.folder)
    try:
        index = len(run.processes)
        run.processes.append(run.launch(index, "--limits-url", limits.url, *LIMITED))
        run.wait_ready(index)
        base = run.base(index)
        answering = asyncio.run(latencies(base, 1))
        limits.process.send_signal(signal.SIGSTOP)
        try:
            hung = asyncio.run(latencies(base, 2))
        finally:
            limits.process.send_signal(signal.SIGCONT)
        back = asyncio.run(counted_again(base, 3, 60))
    finally:
        limits.remove()

    def summary(seconds: dict[str, list[float]]) -> dict[str, dict[str, float]]:
        return {kind: {"median": statistics.median(taken), "max": max(taken)}
                for kind, taken in seconds.items()}

    return {"answering": summary(answering), "hung": summary(hung),
            "counted_again_after_s": back}


def print_hung_limits(result: dict[str, Any]) -> None:
    print("a limits server (Redis) hung with SIGSTOP: seconds a request took, median / max")
    for kind, answering in result["answering"].items():
        hung = result["hung"][kind]
        print(f"  {kind:<20} answering {answering['median']:.3f} / {answering['max']:.3f}"
              f"   hung {hung['median']:.3f} / {hung['max']:.3f}")
    print(f"limits counted again {result['counted_again_after_s']:.1f} s after SIGCONT")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--servers", type=int, default=3, help="processes (2 to 4)")
    parser.add_argument("--tables", type=int, default=15, help="tables of 4 scripted players")
    parser.add_argument("--bot-tables", type=int, default=15, help="all-bot tables")
    parser.add_argument("--pause", type=float, default=20.0, help="seconds of the SIGSTOP")
    parser.add_argument("--duration", type=float, default=110.0, help="seconds of play "
                        "(the faults take the first 80)")
    parser.add_argument("--phases", nargs="+", choices=PHASES, default=list(PHASES),
                        help="the fault run, the hung limits server (default both)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if not 2 <= args.servers <= 4:
        parser.error("--servers must be 2 to 4")
    if not 0 <= args.tables <= 100 or not 1 <= args.bot_tables <= 100:
        parser.error("--tables must be 0 to 100 and --bot-tables 1 to 100")
    if not 12 <= args.pause <= 30:
        parser.error("--pause must be 12 to 30 seconds (past the 10 s lease)")
    if not DATABASE_AT + DATABASE_DOWN + FROZEN_SECONDS <= args.duration <= MAX_SECONDS:
        parser.error(f"--duration must be {DATABASE_AT + DATABASE_DOWN + FROZEN_SECONDS:g} "
                     f"to {MAX_SECONDS:g}")
    folder = Path(tempfile.mkdtemp(prefix="pegs-faults-"))
    db = Postgres()
    run = Run(db, folder, [free_port() for _ in range(args.servers + 1)])
    result: dict[str, Any] = {}
    try:
        if "faults" in args.phases:
            run.processes = [run.launch(i) for i in range(args.servers)]
            for i in range(args.servers):
                run.wait_ready(i)
            result = asyncio.run(asyncio.wait_for(play(run, args), MAX_SECONDS + 120))
        if "hung-limits" in args.phases:
            result["hung_limits"] = hung_limits(run)
    finally:
        for process in run.processes:
            process.send_signal(signal.SIGCONT)
            process.terminate()
        for process in run.processes:
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
        db.remove()
    if args.json:
        print(json.dumps(result))
        return 0
    if "faults" in args.phases:
        print_faults(args, folder, result)
    if "hung-limits" in args.phases:
        print_hung_limits(result["hung_limits"])
    return 0


def print_faults(args: argparse.Namespace, folder: Path, result: dict[str, Any]) -> None:
    print(f"{args.servers} servers, {args.tables} tables of 4 players, {args.bot_tables} "
          f"bot tables; kill -9 at {KILL_AT:g} s, SIGSTOP {args.pause:g} s at {PAUSE_AT:g} "
          f"s, PostgreSQL down {DATABASE_DOWN:g} s at {DATABASE_AT:g} s (logs in {folder})")
    print(f"acknowledged actions: {result['acknowledged']}, lost: "
          f"{result['lost_of_acknowledged']}; acts answered unavailable: "
          f"{result['acts_answered_unavailable']}; reconnects: {result['reconnects']}")
    for name, what in (("kill_failover_s", "failover after kill -9"),
                       ("pause_failover_s", "failover after SIGSTOP"),
                       ("database_recovery_s", "next move after PostgreSQL restart")):
        r = result[name]
        print(f"{what}: {r['tables']} bot tables, median {r['median']:.1f} s, "
              f"max {r['max']:.1f} s" if r["tables"] else f"{what}: no bot table")
    print(f"frozen tables (no move in the last {FROZEN_SECONDS:g} s): "
          f"{result['frozen_tables']}")


if __name__ == "__main__":
    sys.exit(main())
