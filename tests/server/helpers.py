"""Helpers for the server tests: free ports, an in-thread server, scripted clients."""

from __future__ import annotations

import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from fastapi.testclient import TestClient
from websockets.asyncio.client import ClientConnection, connect

from pegs.server import create_app
from pegs.server.doors import BUDGETS
from pegs.server.limits import Limits
from pegs.server.protocol import legal_texts

#: A short game: pegoo with three pegs each.
SHORT = {"preset": "pegoo", "settings": {"pegs": 3}}
#: ``pegs serve`` options for processes on one PostgreSQL database that take a stopped
#: process's tables over within seconds (leases of 2 s, presence repeated every 0.4 s).
SHORT_LEASES = ("--lease-seconds", "2")


#: Limits for scripted clients, which send faster than people: no per-address budgets of
#: HTTP requests, a high message rate (the tests of limits set their own).
SCRIPTED = Limits(messages_per_second=1000, burst=1000,
                  **{budget.field: 0 for budget in BUDGETS.values()})


def run(*coroutines: Coroutine[Any, Any, Any], timeout: float = 60) -> None:
    """Run client coroutines together on a thread of their own (the test's thread may
    have a running loop, e.g. Playwright's), failing (not hanging) after ``timeout``."""
    failure: list[BaseException] = []

    async def together() -> None:
        await asyncio.wait_for(asyncio.gather(*coroutines), timeout)

    def main() -> None:
        try:
            asyncio.run(together())
        except BaseException as e:  # handed to the test's thread
            failure.append(e)

    thread = threading.Thread(target=main)
    thread.start()
    thread.join()
    if failure:
        raise failure[0]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def launch(database_url: str, data_dir: Path, port: int, *options: str,
           env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    """Start ``pegs serve`` (SQLite through PEGS_DATA_DIR, PostgreSQL by URL), bots without
    delay unless ``options`` say otherwise, with ``env`` added to the environment; its log
    in ``data_dir/serve.log``."""
    env = {**os.environ, **(env or {}), "PEGS_DATA_DIR": str(data_dir)}
    env.pop("PEGS_DATABASE_URL", None)
    args = [sys.executable, "-m", "pegs.cli", "serve", "--port", str(port), "--bot-delay", "0",
            *options]
    if not database_url.startswith("sqlite"):
        args += ["--database-url", database_url]
    data_dir.mkdir(parents=True, exist_ok=True)
    with (data_dir / "serve.log").open("ab") as out:
        return subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=out)


def wait_up(process: subprocess.Popen[bytes], data_dir: Path, port: int) -> None:
    """Wait until the server answers (an error with its log if it exits or takes 30 s)."""
    deadline = time.monotonic() + 30
    while True:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/presets", timeout=1)
            return
        except httpx.TransportError:
            if process.poll() is not None or time.monotonic() > deadline:
                log = (data_dir / "serve.log").read_text()
                raise RuntimeError(f"pegs serve did not start: {log}") from None
            time.sleep(0.05)


def stop(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM, and wait for the process to end (its niced workers may take a while to be
    scheduled on a loaded machine)."""
    if process.poll() is None:
        process.terminate()
        process.wait(30)


@contextmanager
def serve(database_url: str, data_dir: Path, port: int,
          *options: str) -> Iterator[subprocess.Popen[bytes]]:
    """``pegs serve`` in a subprocess (see :func:`launch`), stopped afterwards."""
    process = launch(database_url, data_dir, port, *options)
    try:
        wait_up(process, data_dir, port)
        yield process
    finally:
        stop(process)


@contextmanager
def serving(folder: Path, *options: str) -> Iterator[tuple[httpx.Client, str]]:
    """A real ``pegs serve`` on a SQLite file in ``folder`` (its log in
    ``folder/data/serve.log``): (HTTP client, WebSocket base URL)."""
    port = free_port()
    with (serve(f"sqlite:///{folder / 'pegs.db'}", folder / "data", port, *options),
          httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=20) as http):
        yield http, f"ws://127.0.0.1:{port}"


@contextmanager
def serve_many(database_url: str, folder: Path, count: int,
               *options: str) -> Iterator[list[tuple[subprocess.Popen[bytes], str]]]:
    """``count`` ``pegs serve`` processes started together on one database: (process, base
    URL) each, stopped afterwards."""
    ports = [free_port() for _ in range(count)]
    dirs = [folder / f"server{i}" for i in range(count)]
    processes = [launch(database_url, d, p, *options) for d, p in zip(dirs, ports, strict=True)]
    try:
        for process, d, p in zip(processes, dirs, ports, strict=True):
            wait_up(process, d, p)
        yield [(process, f"http://127.0.0.1:{p}") for process, p in zip(processes, ports,
                                                                          strict=True)]
    finally:
        for process in processes:
            stop(process)


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class LiveServer:
    """``create_app`` under uvicorn in a background thread on a free port."""

    def __init__(self, database_url: str, limits: Limits | None = None) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}"
        limits = limits or SCRIPTED
        self.app = create_app(database_url, bot_delay=0, hint_seconds=0.05, limits=limits)
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port,
                                log_level="warning")
        self.server = uvicorn.Server(config)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.thread = threading.Thread(target=asyncio.run, args=(self._serve(),), daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        self.http = httpx.Client(base_url=self.url, timeout=20)

    async def _serve(self) -> None:
        self.loop = asyncio.get_running_loop()
        await self.server.serve()

    def call(self, fn: Callable[[], Any]) -> Any:
        """``fn()`` run on the server's event loop (to reach into its tables)."""
        async def on_loop() -> Any:
            return fn()

        assert self.loop is not None
        return asyncio.run_coroutine_threadsafe(on_loop(), self.loop).result(10)

    def stop(self) -> None:
        self.http.close()
        self.server.should_exit = True
        self.thread.join(20)


def new_table(http: httpx.Client | TestClient, humans: int = 2, bots: int = 0,
              **body: Any) -> tuple[str, list[str]]:
    """A table with ``humans`` joined players then ``bots`` heuristic bots: (code, tokens)."""
    request = {**SHORT, "name": "Ann", **body}
    r = http.post("/api/tables", json=request)
    assert r.status_code == 201, r.text
    code, tokens = r.json()["code"], [r.json()["token"]]
    for i in range(1, humans):
        r = http.post(f"/api/tables/{code}/join", json={"name": f"Player {i}"})
        assert r.status_code == 200, r.text
        tokens.append(r.json()["token"])
    if bots:
        r = http.post(f"/api/tables/{code}/bots", json={"bot": "heuristic"},
                      headers=auth(tokens[0]))
        assert r.status_code == 200, r.text
    return code, tokens


def start(http: httpx.Client | TestClient, code: str, host_token: str) -> None:
    r = http.post(f"/api/tables/{code}/start", headers=auth(host_token))
    assert r.status_code == 200, r.text


@dataclass
class Player:
    """A scripted client: random legal play; it logs every state it is sent."""

    ws_url: str
    code: str
    token: str | None
    seed: int = 0
    stop_at: int | None = None
    #: seconds between two actions (to stay under a server's rate limit)
    pace: float = 0.0
    #: how often to doubt when asked (None: as often as any other choice)
    doubt_rate: float | None = None
    states: list[dict[str, Any]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)

    async def play(self) -> None:
        """Play until the game ends (or the version reaches ``stop_at``)."""
        rng = random.Random(self.seed)
        hello: dict[str, Any] = ({"type": "hello", "token": self.token} if self.token
                                 else {"type": "hello", "spectator": True})
        async with connect(f"{self.ws_url}/ws/{self.code}") as ws:
            await ws.send(json.dumps(hello))
            sent = 0
            acted: set[int] = set()
            while True:
                message = json.loads(await ws.recv())
                if message["type"] == "event":
                    self.events.append(message)
                    continue
                if message["type"] == "error":
                    raise AssertionError(f"refused: {message}")
                if message["type"] != "state":
                    continue
                self.states.append(message)
                v = message["view"]
                if v is not None and v["outcome"] is not None:
                    return
                if self.stop_at is not None and message["version"] >= self.stop_at:
                    return
                if message["legal"] and message["version"] not in acted:
                    acted.add(message["version"])
                    sent += 1
                    await asyncio.sleep(self.pace)
                    await act(ws, f"m{sent}", message["version"],
                              self.choose(legal_texts(message["legal"]), rng))

    def choose(self, texts: list[str], rng: random.Random) -> str:
        if self.doubt_rate is not None and set(texts) == {"doubt", "pass"}:
            return "doubt" if rng.random() < self.doubt_rate else "pass"
        return rng.choice(texts)


async def act(ws: ClientConnection, msg_id: str, version: int, action: str) -> None:
    await ws.send(json.dumps({"type": "act", "id": msg_id, "version": version,
                              "action": action}))


class Client:
    """A WebSocket client for rule tests: every wait has a timeout."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.state: dict[str, Any] = {}

    @classmethod
    async def open(cls, ws_url: str, code: str, token: str | None,
                   hello: dict[str, Any] | str | None = None) -> Client:
        client = cls(await connect(f"{ws_url}/ws/{code}"))
        if hello is None:
            hello = ({"type": "hello", "token": token} if token
                     else {"type": "hello", "spectator": True})
        await client.send(hello)
        return client

    async def send(self, message: dict[str, Any] | str) -> None:
        await self.ws.send(message if isinstance(message, str) else json.dumps(message))

    async def until(self, kind: str, version: int | None = None,
                    timeout: float = 10) -> dict[str, Any]:
        """The next message of this type (a state: of this version), keeping the latest
        state seen."""
        async def wait() -> dict[str, Any]:
            while True:
                message: dict[str, Any] = json.loads(await self.ws.recv())
                if message["type"] == "state":
                    self.state = message
                if message["type"] == kind and (version is None or message["version"] == version):
                    return message

        return await asyncio.wait_for(wait(), timeout)

    async def refused(self, message: dict[str, Any] | str) -> dict[str, Any]:
        """Send a message that must be refused; the error."""
        await self.send(message)
        return await self.until("error")

    async def close(self) -> None:
        await self.ws.close()
