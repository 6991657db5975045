"""A throwaway PostgreSQL server for the server benchmarks (Debian's packaged binaries,
trust authentication on 127.0.0.1, removed afterwards); it can be stopped and started."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Postgres:
    """``initdb`` and ``pg_ctl start`` in a temporary folder; :meth:`remove` at the end."""

    def __init__(self) -> None:
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        if not found:
            raise SystemExit("PostgreSQL is not installed (see scripts/setup.sh)")
        self.bindir = Path(found[-1]).parent
        self.root = Path(tempfile.mkdtemp(prefix="pegs-bench-pg-"))
        self.as_user: list[str] = []
        if os.geteuid() == 0:  # initdb refuses root
            shutil.chown(self.root, "postgres", "postgres")
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self.port = free_port()
        self.url = f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"
        self._run("initdb", "-D", str(self.root / "data"), "-A", "trust", "-U", "postgres",
                  "-E", "UTF8", "--no-sync")
        self.start()

    def _run(self, tool: str, *args: str) -> None:
        subprocess.run([*self.as_user, str(self.bindir / tool), *args], check=True,
                       capture_output=True, timeout=120)

    def start(self) -> None:
        self._run("pg_ctl", "-D", str(self.root / "data"), "-l", str(self.root / "log"), "-w",
                  "-o", f"-k {self.root} -h 127.0.0.1 -p {self.port} -F -c max_connections=300",
                  "start")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.root / "data"), "-m", mode, "-w", "stop")

    def remove(self) -> None:
        try:
            self.stop("immediate")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
