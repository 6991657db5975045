"""``pegs serve`` checks that it can listen before anything starts (a taken port, a host
that is not this computer's: one line, exit 2) and prints every address it can be opened
at, saying which only this computer can open."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from pegs.server import reach

from .helpers import free_port, serving


def serve_once(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PEGS_DATA_DIR": str(tmp_path / "data")}
    env.pop("PEGS_DATABASE_URL", None)
    return subprocess.run([sys.executable, "-m", "pegs.cli", "serve", *args],
                          capture_output=True, text=True, timeout=120, env=env)


def refused_in_one_line(proc: subprocess.CompletedProcess[str], words: str,
                        tmp_path: Path) -> None:
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], proc.stderr
    assert "serving" not in proc.stderr and proc.stdout == ""
    assert not (tmp_path / "data" / "pegs.db").exists()  # nothing started, not even the db


def test_a_taken_port_is_refused_in_one_line_naming_another_port(tmp_path: Path) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        proc = serve_once(tmp_path, "--port", str(port))
    refused_in_one_line(proc, f"port {port} is already taken", tmp_path)
    assert "choose another with --port" in proc.stderr


def test_a_second_serve_on_the_same_port_is_refused_in_one_line(tmp_path: Path) -> None:
    with serving(tmp_path / "first") as (http, ws):
        port = ws.rsplit(":", 1)[1]
        proc = serve_once(tmp_path, "--port", port)
        assert http.get("/api/presets").status_code == 200  # the first one serves on
    refused_in_one_line(proc, "already taken", tmp_path)


@pytest.mark.parametrize("host", ["notahost.invalid", "8.8.8.8"])
def test_a_host_not_of_this_computer_is_refused_in_one_line(host: str, tmp_path: Path) -> None:
    proc = serve_once(tmp_path, "--host", host, "--port", str(free_port()))
    refused_in_one_line(proc, f"--host {host} is not an address of this computer", tmp_path)
    assert "0.0.0.0" in proc.stderr  # and says what to use instead


def test_the_start_lists_the_addresses_and_marks_loopback_as_this_computer_only(
        tmp_path: Path) -> None:
    with serving(tmp_path) as (_, ws):
        port = ws.rsplit(":", 1)[1]
        log = (tmp_path / "data" / "serve.log").read_text()
    assert f"serving on port {port}" in log
    assert f"http://127.0.0.1:{port}/  this computer only" in log
    assert "--host 0.0.0.0" in log  # how to let others in


def test_every_address_of_this_computer_is_listed_for_0_0_0_0(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reach, "own_addresses", lambda family: ["192.168.1.23", "8.8.4.4"]
                        if family == socket.AF_INET else [])
    lines = reach.announcement("0.0.0.0", 8000).splitlines()
    assert lines[1].split() == ["http://127.0.0.1:8000/", *reach.THIS_COMPUTER.split()]
    assert "http://192.168.1.23:8000/" in lines[2] and reach.NETWORK in lines[2]
    assert "http://8.8.4.4:8000/" in lines[3] and reach.INTERNET in lines[3]
    assert not any("--host 0.0.0.0" in line for line in lines)  # others can already open it
    assert reach.reachable("::", 8000)[0] == ("http://[::1]:8000/", reach.THIS_COMPUTER)


def test_this_computers_own_addresses_are_neither_loopback_nor_link_local() -> None:
    for family in (socket.AF_INET, socket.AF_INET6):
        for address in reach.own_addresses(family):
            assert not address.startswith(("127.", "::1", "fe80", "169.254")), address


def test_a_usable_address_has_no_problem() -> None:
    assert reach.listen_problem("127.0.0.1", free_port()) is None
