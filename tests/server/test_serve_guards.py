"""A real ``pegs serve``: table creation bounded per client address, waiting tables that
expire (also while the server is down), plain refusals of bad input, a bounded SQLite
write-ahead log."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import httpx
from sqlalchemy import create_engine
from sqlalchemy import text as sql

from .helpers import SHORT, free_port, new_table, serve


def test_creation_is_bounded_per_address_and_waiting_tables_expire_across_a_restart(
        tmp_path: Path) -> None:
    database_url = "sqlite://"  # PostgreSQL's expiry: test_guards
    data, port = tmp_path / "data", free_port()
    base = f"http://127.0.0.1:{port}"
    body = {**SHORT, "name": "Ann"}
    with serve(database_url, data, port, "--creates-per-minute", "2", "--max-waiting", "0"):
        with httpx.Client(base_url=base, timeout=20) as http:
            made = [http.post("/api/tables", json=body) for _ in range(3)]
        assert [r.status_code for r in made] == [201, 201, 429]
        assert made[2].json()["error"]["code"] == "rate_limited"
        # another address (the loopback network has many) has its own budget
        elsewhere = httpx.HTTPTransport(local_address="127.0.0.2")
        with httpx.Client(base_url=base, timeout=20, transport=elsewhere) as http:
            made[2] = http.post("/api/tables", json=body)
        assert made[2].status_code == 201
    codes = [r.json()["code"] for r in made]
    with (serve(database_url, data, port, "--waiting-hours", "0.0001"),  # 0.36 s
          httpx.Client(base_url=base, timeout=20) as http):
        assert [http.get(f"/api/tables/{c}").status_code for c in codes] == [404] * 3
        assert http.post("/api/tables", json=body).status_code == 201
    engine = create_engine(f"sqlite:///{data / 'pegs.db'}")
    with engine.connect() as c:
        left = set(c.scalars(sql("SELECT code FROM pegs_tables")))
    engine.dispose()
    assert len(left) <= 1 and not left & set(codes)


def test_bad_input_gets_a_plain_refusal_and_writes_no_traceback_and_the_log_empties(
        tmp_path: Path) -> None:
    port = free_port()
    wal = tmp_path / "data" / "pegs.db-wal"
    bad = [(b"[" * 2000, 400, "malformed"), (b"[" * 200_000, 413, "too_large"),
           (b'{"preset": "pegoo", "name": "A", "settings": {"split_finish_with_partner": [[]]}}',
            400, "bad_settings"),
           (json.dumps({**SHORT, "name": "A", "settings": {"split_finish_with_partner":
                                                          ["7"] * 12000}}).encode(),
            400, "bad_settings")]
    with (serve("sqlite://", tmp_path / "data", port) as process,
          httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=20) as http):
        for body, status, code in bad:
            r = http.post("/api/tables", content=body,
                          headers={"content-type": "application/json"})
            assert (r.status_code, r.json()["error"]["code"]) == (status, code), r.text
        assert http.get("/api/tables").json()["total"] == 0
        new_table(http, humans=3)
        assert wal.stat().st_size > 0
        deadline = time.monotonic() + 15  # an idle server empties SQLite's write-ahead log
        while wal.stat().st_size > 0:
            assert time.monotonic() < deadline, "the write-ahead log was never emptied"
            time.sleep(0.05)
        process.terminate()
        process.wait(10)
        log = server_log(process, tmp_path / "data")
    assert "resumed 0 tables" in log  # the log was read
    assert "Traceback" not in log and "ERROR" not in log, log


def server_log(process: subprocess.Popen[bytes], data: Path) -> str:
    """What a stopped server wrote: its piped stderr, or its log file in ``data``."""
    if process.stderr is not None:
        return process.stderr.read().decode()
    return (data / "serve.log").read_text()
