"""Shared pieces of the browser tests: Debian's Chromium, a made-up origin answered from
disk, and a real `pegs serve` subprocess on a free port with its own data folder."""

from __future__ import annotations

import json
import mimetypes
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import Route

HERE = Path(__file__).parent
STATIC = HERE.parent.parent / "src" / "pegs" / "web" / "static"
ARTIFACTS = HERE / "artifacts"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
#: A made-up origin that Playwright answers from disk, for tests that need no server.
FAKE = "http://pegs.test"


def serve_from_disk(route: Route) -> None:
    """Answer a request to FAKE: /fixtures/* and /tests/* from here, the rest from static."""
    path = route.request.url.removeprefix(FAKE).split("?")[0]
    if path.startswith("/fixtures/"):
        file = HERE / "fixtures" / path.removeprefix("/fixtures/")
    elif path.startswith("/tests/"):
        file = HERE / path.removeprefix("/tests/")
    else:
        file = STATIC / path.lstrip("/")
    if not file.is_file():
        route.fulfill(status=404, body="missing")
        return
    kind = "text/javascript" if file.suffix == ".js" else mimetypes.guess_type(file.name)[0]
    route.fulfill(status=200, body=file.read_bytes(), content_type=kind or "text/plain")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """`pegs serve` in a subprocess; stop and start again on the same port and data."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = data_dir / "serve.log"

    def start(self) -> None:
        env = {k: v for k, v in os.environ.items() if k != "PEGS_DATABASE_URL"}
        env["PEGS_DATA_DIR"] = str(self.data_dir)
        pegs = Path(sys.executable).parent / "pegs"
        command = [str(pegs)] if pegs.exists() else [
            sys.executable, "-c", "import sys; from pegs.cli import main; sys.exit(main())"]
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(
                [*command, "serve", "--port", str(self.port), "--bot-delay", "0",
                 "--hint-seconds", "0.2", "--creates-per-minute", "0", "--max-waiting", "0",
                 "--shortest-clock", "1", "--max-tables-per-address", "0", "--joins-per-minute",
                 "0", "--lobby-reads-per-minute", "0"],
                env=env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"pegs serve exited: {self.log.read_text()[-2000:]}")
            try:
                self.api("GET", "/api/presets")
                return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("pegs serve did not answer within 30 s")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def api(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read() or b"null")

    def table_with_bots(self, preset: str, players: int, name: str = "Host",
                        **extra: Any) -> dict[str, Any]:
        """A started table: the host at seat 0, bots everywhere else."""
        made = self.api("POST", "/api/tables", {"preset": preset, "name": name,
                                                "players": players, **extra})
        self.api("POST", f"/api/tables/{made['code']}/bots", {"bot": "heuristic"}, made["token"])
        self.api("POST", f"/api/tables/{made['code']}/start", {}, made["token"])
        result: dict[str, Any] = made
        return result


def seat_script(code: str, token: str, seat: int, name: str) -> str:
    """An init script that puts a seat token in the page's storage, as after creating."""
    value = json.dumps({"token": token, "seat": seat, "name": name})
    return f"localStorage.setItem({json.dumps('pegs.seat.' + code)}, {json.dumps(value)});"


def to_confirm(page: Any, tap: bool = True) -> None:
    """With a card chosen, choose the first declaration, peg and target offered until the
    "Confirm move" button shows (tapped on a touch screen, else clicked)."""
    for _ in range(8):
        for where in ("#declare button", ".confirm-btn", "#targets button", "#pegs button"):
            if page.locator(where).count():
                break
        else:
            continue
        if where == ".confirm-btn":
            return
        button = page.locator(where).first
        button.tap() if tap else button.click()



#: axe-core, installed by scripts/setup.sh from tests/browser/package.json.
AXE = HERE / "node_modules" / "axe-core" / "axe.min.js"


def axe_violations(page: Any) -> list[dict[str, Any]]:
    """axe-core's violations on the page as it is now: rule, impact, the first elements."""
    if not AXE.is_file():
        raise AssertionError(f"{AXE} is missing: run scripts/setup.sh (npm ci --prefix "
                             "tests/browser)")
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(content=AXE.read_text())
    found: list[dict[str, Any]] = page.evaluate("""async () => {
      const result = await axe.run(document, { resultTypes: ["violations"] });
      return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.slice(0, 4).map((n) => n.target.join(" ")) }));
    }""")
    return found
