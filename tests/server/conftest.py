"""Fixtures for the server tests: a throwaway PostgreSQL cluster (once per session, in
memory where it can be), a database URL per test (SQLite and PostgreSQL), and servers
(in-process or live)."""

from __future__ import annotations

import dataclasses
import glob
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from fastapi.testclient import TestClient

from pegs.server import create_app

from .helpers import SCRIPTED, LiveServer, free_port


def _postgres_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


def _memory_folder() -> str | None:
    """A folder in memory (tmpfs) when there is one: a cluster's hundreds of databases are
    made and removed there in a moment (on a loaded disk removing them took over a
    minute), else the temporary folder."""
    shm = Path("/dev/shm")
    return str(shm) if shm.is_dir() and os.access(shm, os.W_OK) else None


class Cluster:
    """A throwaway PostgreSQL server (trust authentication) that a test may stop and start."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.root = Path(tempfile.mkdtemp(prefix="pegs-pg-", dir=_memory_folder()))
        self.as_user: list[str] = []
        if os.geteuid() == 0:  # initdb refuses root: run the cluster as the postgres user
            shutil.chown(self.root, "postgres", "postgres")
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self.data, self.host, self.port = self.root / "data", "127.0.0.1", free_port()
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "-E",
                  "UTF8", "--no-sync")
        self.start()

    def _run(self, tool: str, *args: str) -> None:
        subprocess.run([*self.as_user, str(self.bindir / tool), *args], check=True,
                       capture_output=True, timeout=60)

    def start(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "log"), "-w", "-o",
                  f"-k {self.root} -h {self.host} -p {self.port} -F", "start")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def remove(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)


def _cluster() -> Cluster:
    bindir = _postgres_bin()
    if bindir is None:
        if os.environ.get("PEGS_REQUIRE_POSTGRES") == "1":
            pytest.fail("PEGS_REQUIRE_POSTGRES=1 but PostgreSQL's initdb is not installed")
        pytest.skip("PostgreSQL is not installed (set PEGS_REQUIRE_POSTGRES=1 to require it)")
    return Cluster(bindir)


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[tuple[str, int]]:
    """A PostgreSQL server for this session: (host, port), trust authentication."""
    cluster = _cluster()
    try:
        yield cluster.host, cluster.port
    finally:
        cluster.remove()


@pytest.fixture
def own_postgres() -> Iterator[tuple[Cluster, str]]:
    """A PostgreSQL server of this test's own (to stop and start) and a database on it."""
    cluster = _cluster()
    try:
        yield cluster, _new_postgres_database((cluster.host, cluster.port))
    finally:
        cluster.remove()


def _new_postgres_database(cluster: tuple[str, int]) -> str:
    host, port = cluster
    name = "pegs_" + uuid.uuid4().hex[:12]
    with psycopg.connect(host=host, port=port, user="postgres", dbname="postgres",
                         autocommit=True) as c:
        c.execute(f"CREATE DATABASE {name}")
    return f"postgresql+psycopg://postgres@{host}:{port}/{name}"


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty database of each kind."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'pegs.db'}"
    return _new_postgres_database(request.getfixturevalue("postgres_cluster"))


@pytest.fixture
def postgres_url(postgres_cluster: tuple[str, int]) -> str:
    """A fresh, empty PostgreSQL database (for several servers sharing it)."""
    return _new_postgres_database(postgres_cluster)


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    """An in-process server on each database, bots without delay."""
    with TestClient(create_app(database_url, bot_delay=0, hint_seconds=0.05,
                               limits=dataclasses.replace(SCRIPTED, messages_per_second=20,
                                                          burst=40))) as c:
        yield c


@pytest.fixture
def live(database_url: str) -> Iterator[LiveServer]:
    """A real uvicorn server in a thread, on each database."""
    server = LiveServer(database_url)
    try:
        yield server
    finally:
        server.stop()


class RedisServer:
    """A throwaway Redis server (no persistence) on a free port: :attr:`url`, its
    :attr:`process` (to pause with SIGSTOP); it may be stopped and started again."""

    def __init__(self, folder: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            if os.environ.get("PEGS_REQUIRE_POSTGRES") == "1":
                pytest.fail("PEGS_REQUIRE_POSTGRES=1 but redis-server is not installed")
            pytest.skip("redis-server is not installed (scripts/setup.sh installs it)")
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.command = [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                        "--appendonly", "no", "--dir", str(folder)]
        self.start()

    def start(self) -> None:
        self.process = subprocess.Popen(self.command, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("redis-server did not start")
            time.sleep(0.05)

    def stop(self) -> None:
        self.process.send_signal(signal.SIGCONT)  # a paused server cannot end
        self.process.terminate()
        self.process.wait(10)


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A throwaway Redis server for this session: its URL."""
    server = RedisServer(tmp_path_factory.mktemp("redis"))
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture
def own_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """A throwaway Redis server of this test's own (to pause)."""
    server = RedisServer(tmp_path_factory.mktemp("redis"))
    try:
        yield server
    finally:
        server.stop()


#: Fixtures that start PostgreSQL or Redis: a test using one is marked ``postgresql`` or
#: ``redis``, so ``-m "not postgresql and not redis"`` runs the server on SQLite alone.
NEEDS = {"postgresql": {"postgres_cluster", "postgres_url", "own_postgres"},
         "redis": {"redis_server", "own_redis"}}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        callspec = getattr(item, "callspec", None)
        if callspec is not None and callspec.params.get("database_url") == "postgresql":
            fixtures.add("postgres_cluster")
        for marker, needs in NEEDS.items():
            if fixtures & needs:
                item.add_marker(marker)
