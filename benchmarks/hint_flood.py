#!/usr/bin/env python3
"""Hints never starve play: a human's move round trip and the bots' pace on ``pegs serve``,
first without, then with a flood of hint requests, side by side in one run.

Starts a real server (a subprocess on a free localhost port, a temporary SQLite database,
the default ``--bot-delay 0.5`` and ``--hint-seconds 1``), then:

- ``--bot-tables`` four-seat tables played by heuristic bots only (the host's seat given
  to a stand-in); a spectator counts their moves;
- two-seat tables of two scripted humans (a new one when a game ends), each acting when
  offered a move (after ``--think`` seconds): the round trip is from sending the ``act``
  to receiving its ``event``;
- during the second phase, ``--flooders`` connections, each the seat to act at its own
  two-seat table against a bot, send a hint request every 0.1 s (under the message rate
  limit); when a hint is answered they play it, so every turn of theirs asks the search of
  a hint (one a turn is all the server gives; the others are refused).

Each phase lasts ``--seconds``.  Prints, per phase, the round trip's p50 and p99, the bot
tables' moves a second, and the flood's answered and refused hints.  Bounded: at most 60
seconds a phase, 50 flooders, 20 bot tables.

    nice -n 10 .venv/bin/python benchmarks/hint_flood.py
    .venv/bin/python benchmarks/hint_flood.py --seconds 10 --flooders 20 --bot-tables 4
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from multiprocessing.sharedctypes import Synchronized
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from pegs.server.protocol import legal_texts

#: What the flooders count: hints answered, and refusals by code.
ANSWERS = ("hint", "rate_limited", "not_your_turn", "stale_version", "game_over",
           "malformed", "internal")
Counts = dict[str, "Synchronized[int]"]


@dataclass
class Phase:
    """What one phase measured."""

    name: str
    round_trips: list[float] = field(default_factory=list)
    bot_moves: int = 0
    hints: int = 0
    refused: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


async def table(http: httpx.AsyncClient, players: int, humans: int,
                preset: str = "pegoo") -> tuple[str, list[str]]:
    """A started table: ``humans`` human seats (joined), bots in the others: (code, tokens)."""
    r = await http.post("/api/tables", json={"preset": preset, "name": "Seat 0",
                                             "players": players})
    r.raise_for_status()
    code, tokens = r.json()["code"], [r.json()["token"]]
    host = {"Authorization": f"Bearer {tokens[0]}"}
    for i in range(1, humans):
        r = await http.post(f"/api/tables/{code}/join", json={"name": f"Seat {i}"})
        r.raise_for_status()
        tokens.append(r.json()["token"])
    if humans < players:
        (await http.post(f"/api/tables/{code}/bots", json={"bot": "heuristic"},
                         headers=host)).raise_for_status()
    (await http.post(f"/api/tables/{code}/start", headers=host)).raise_for_status()
    if humans == 0:
        (await http.post(f"/api/tables/{code}/seats/0/bot", json={"bot": "heuristic"},
                         headers=host)).raise_for_status()
    return code, tokens


async def hello(ws_url: str, code: str, token: str | None) -> ClientConnection:
    ws = await connect(f"{ws_url}/ws/{code}", max_size=None)
    await ws.send(json.dumps({"type": "hello", "token": token} if token
                             else {"type": "hello", "spectator": True}))
    return ws


async def count_bot_moves(ws_url: str, code: str, phase: list[Phase]) -> None:
    async with await hello(ws_url, code, None) as ws:
        async for raw in ws:
            if json.loads(raw)["type"] == "event":
                phase[0].bot_moves += 1


async def human(ws_url: str, code: str, token: str, think: float, phase: list[Phase],
                seed: int) -> None:
    """Acts as soon as offered (after ``think``), timing each act to its event."""
    rng = random.Random(seed)
    async with await hello(ws_url, code, token) as ws:
        sent: dict[int, float] = {}
        n = 0
        async for raw in ws:
            message = json.loads(raw)
            if message["type"] == "event" and message["version"] in sent:
                phase[0].round_trips.append(time.monotonic() - sent.pop(message["version"]))
            if message["type"] != "state" or not message["legal"]:
                continue
            if message["view"]["outcome"] is not None:
                return
            await asyncio.sleep(think)
            n += 1
            sent[message["version"] + 1] = time.monotonic()
            await ws.send(json.dumps({"type": "act", "id": n, "version": message["version"],
                                      "action": rng.choice(legal_texts(message["legal"]))}))


async def probe(http: httpx.AsyncClient, ws_url: str, think: float,
                phase: list[Phase]) -> None:
    """Two humans play one game after another."""
    for game in range(1000):
        code, tokens = await table(http, 2, 2)
        await asyncio.gather(*(human(ws_url, code, t, think, phase, 2 * game + i)
                               for i, t in enumerate(tokens)))


async def flooder(ws_url: str, code: str, token: str, counts: Counts) -> None:
    """Asks a hint every 0.1 s; plays each hint it is given."""
    async with await hello(ws_url, code, token) as ws:
        state: dict[str, Any] = {}
        n = 0

        async def ask() -> None:
            nonlocal n
            while True:
                n += 1
                await ws.send(json.dumps({"type": "hint", "id": n}))
                await asyncio.sleep(0.1)

        asking = asyncio.create_task(ask())
        try:
            async for raw in ws:
                message = json.loads(raw)
                if message["type"] == "state":
                    state = message
                elif message["type"] == "error" and message["code"] in counts:
                    with counts[message["code"]].get_lock():
                        counts[message["code"]].value += 1
                elif message["type"] == "hint" and state.get("legal"):
                    with counts["hint"].get_lock():
                        counts["hint"].value += 1
                    n += 1
                    await ws.send(json.dumps({"type": "act", "id": n, "version": state["version"],
                                              "action": message["action"]}))
        finally:
            asking.cancel()


def flood(ws_url: str, seats: list[tuple[str, str]], counts: Counts) -> None:
    """The flooders, in a process of their own (so the probe's timing is the server's)."""
    async def together() -> None:
        await asyncio.gather(*(flooder(ws_url, code, token, counts) for code, token in seats),
                             return_exceptions=True)

    asyncio.run(together())


async def run(args: argparse.Namespace, base: str) -> list[Phase]:
    ws_url = base.replace("http://", "ws://")
    current = [Phase("warm-up")]
    http = httpx.AsyncClient(base_url=base, timeout=30)
    bots = [await table(http, 4, 0) for _ in range(args.bot_tables)]
    floods = [await table(http, 2, 1) for _ in range(args.flooders)]
    tasks = [asyncio.create_task(count_bot_moves(ws_url, code, current)) for code, _ in bots]
    tasks.append(asyncio.create_task(probe(http, ws_url, args.think, current)))
    await asyncio.sleep(2.0)  # workers started, every table under way
    phases = []
    spawn = multiprocessing.get_context("spawn")
    counts: Counts = {code: spawn.Value("i", 0) for code in ANSWERS}
    flooding = spawn.Process(
        target=flood, args=(ws_url, [(code, tokens[0]) for code, tokens in floods], counts))
    for name, flooded in (("without the flood", False), ("with the flood", True)):
        if flooded:
            flooding.start()
        current[0] = phase = Phase(name)
        began = time.monotonic()
        await asyncio.sleep(args.seconds)
        phase.seconds = time.monotonic() - began
        current[0] = Phase("done")
        phases.append(phase)
    flooding.terminate()
    flooding.join(10)
    phase.hints = counts["hint"].value
    phase.refused.update({code: v.value for code, v in counts.items() if code != "hint"
                          and v.value})
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await http.aclose()
    return phases


def percentile(values: list[float], q: int) -> float:
    if len(values) < 2:
        return values[0] if values else float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seconds", type=float, default=20.0, help="length of each phase")
    p.add_argument("--flooders", type=int, default=20)
    p.add_argument("--bot-tables", type=int, default=4)
    p.add_argument("--think", type=float, default=0.2,
                   help="the humans' pause before acting (seconds)")
    p.add_argument("--serve-option", action="append", default=[], metavar="OPTION",
                   help="passed on to pegs serve (repeat for several)")
    args = p.parse_args()
    if not (0 < args.seconds <= 60 and 0 <= args.flooders <= 50 and 0 < args.bot_tables <= 20):
        p.error("at most 60 seconds a phase, 50 flooders and 20 bot tables")
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="pegs-flood-") as folder:
        env = {**os.environ, "PEGS_DATA_DIR": folder}
        env.pop("PEGS_DATABASE_URL", None)
        log = Path(folder) / "serve.log"
        with log.open("wb") as out:
            server = subprocess.Popen([sys.executable, "-m", "pegs.cli", "serve", "--port",
                                       str(port), *args.serve_option], env=env, stdout=out,
                                      stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    httpx.get(f"{base}/api/presets", timeout=1)
                    break
                except httpx.TransportError:
                    if server.poll() is not None or time.monotonic() > deadline:
                        raise SystemExit(f"the server did not start:\n{log.read_text()}") from None
                    time.sleep(0.1)
            phases = asyncio.run(run(args, base))
        finally:
            server.terminate()
            server.wait(10)
    print(f"{args.bot_tables} bot tables (4 heuristic bots, --bot-delay 0.5), one table of two "
          f"humans acting after {args.think:g} s, {args.flooders} flooders; "
          f"{args.seconds:g} s a phase")
    print(f"{'phase':<18} {'moves':>5} {'p50 ms':>7} {'p99 ms':>7} {'bot moves/s/table':>17} "
          f"{'hints':>5}  refused")
    for ph in phases:
        rate = ph.bot_moves / ph.seconds / args.bot_tables
        refused = ", ".join(f"{k} {v}" for k, v in ph.refused.most_common()) or "-"
        print(f"{ph.name:<18} {len(ph.round_trips):>5} "
              f"{percentile(ph.round_trips, 50) * 1000:>7.1f} "
              f"{percentile(ph.round_trips, 99) * 1000:>7.1f} {rate:>17.2f} {ph.hints:>5}  "
              f"{refused}")
    base_rate, flood_rate = (ph.bot_moves / ph.seconds for ph in phases)
    print(f"bot tables keep {flood_rate / base_rate:.0%} of their move rate under the flood")
    return 0


if __name__ == "__main__":
    sys.exit(main())
