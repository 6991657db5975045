"""A real ``pegs serve`` bounds what one address holds: connections without a hello or
without a whole request are dropped, open connections per address are capped, tables
that nobody visits end, and forwarded addresses count only from named proxies."""

from __future__ import annotations

import asyncio
import contextlib
import json
import resource
import socket
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from pegs.server.serve import HTTP_SLACK

from .helpers import SHORT, Client, auth, free_port, new_table, run, serve, serving, start

ELSEWHERE = "127.0.0.2"  # another client address (the loopback network has many)


def other_address(base: str) -> httpx.Client:
    return httpx.Client(base_url=base, timeout=20,
                        transport=httpx.HTTPTransport(local_address=ELSEWHERE))


async def closed_within(ws: Any, seconds: float) -> list[dict[str, Any]]:
    """The messages a WebSocket gets until the server closes it (within ``seconds``)."""
    got = []

    async def drain() -> None:
        try:
            while True:
                got.append(json.loads(await ws.recv()))
        except ConnectionClosed:
            return

    await asyncio.wait_for(drain(), seconds)
    return got


def test_silent_websockets_are_closed_and_open_connections_are_capped_per_address(
        tmp_path: Path) -> None:
    with serving(tmp_path, "--hello-seconds", "0.5", "--max-connections", "3") as (http, ws):
        code, _ = new_table(http, humans=1)
        url = f"{ws}/ws/{code}"

        async def scenario() -> None:
            silent = [await connect(url) for _ in range(3)]
            extra = await connect(url)  # the fourth from this address
            assert (await closed_within(extra, 5))[0]["code"] == "too_many_connections"
            elsewhere = await connect(url, local_addr=(ELSEWHERE, 0))  # its own count
            await elsewhere.send(json.dumps({"type": "hello", "spectator": True}))
            assert json.loads(await elsewhere.recv())["type"] == "state"
            started = time.monotonic()
            for ws_ in silent:  # no hello: closed after half a second
                assert (await closed_within(ws_, 5))[0]["code"] == "malformed"
            assert time.monotonic() - started < 3
            again = await Client.open(ws, code, None)  # the closed ones no longer count
            await again.until("state")
            await again.close()
            await elsewhere.close()

        run(scenario())


def raw(address: str = "127.0.0.1", port: int = 0) -> socket.socket:
    s = socket.socket()
    s.bind((address, 0))
    s.connect(("127.0.0.1", port))
    s.settimeout(10)
    return s


def dropped(s: socket.socket) -> bool:
    """Whether the server closed this socket (it reads end of file or a reset)."""
    try:
        return s.recv(1024) == b""
    except ConnectionResetError:
        return True


def test_slow_request_heads_are_dropped_and_raw_connections_are_capped_per_address(
        tmp_path: Path) -> None:
    port = free_port()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(soft, 256), hard))  # the server inherits
    with contextlib.ExitStack() as stack:
        try:
            process = stack.enter_context(serve(
                "sqlite://", tmp_path / "data", port, "--request-seconds", "0.5",
                "--max-connections", "3"))
        finally:
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
        files = next(line.split()[3:5] for line in
                     Path(f"/proc/{process.pid}/limits").read_text().splitlines()
                     if line.startswith("Max open files"))
        assert files == [str(hard)] * 2 or hard == resource.RLIM_INFINITY  # soft raised
        partial = raw(port=port)
        partial.sendall(b"GET /api/presets HTTP/1.1\r\nHost: x\r\n")  # and no more
        started = time.monotonic()
        assert dropped(partial)
        assert 0.3 < time.monotonic() - started < 5
        held = [raw(port=port) for _ in range(3 + HTTP_SLACK)]  # held until their deadline
        over = raw(port=port)
        assert dropped(over)  # at once, long before the deadline
        assert time.monotonic() - started < 3
        with other_address(f"http://127.0.0.1:{port}") as elsewhere:
            assert elsewhere.get("/health").status_code == 200
        assert all(dropped(s) for s in held)  # then they are dropped at their deadline
        assert httpx.get(f"http://127.0.0.1:{port}/health", timeout=5).status_code == 200
        for s in (partial, over, *held):
            s.close()


def test_forwarded_addresses_count_only_from_named_proxies_and_bad_ones_are_refused(
        database_url: str, tmp_path: Path) -> None:
    body = {**SHORT, "name": "Ann"}
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with (serve(database_url, tmp_path / "direct", port, "--creates-per-minute", "1"),
          httpx.Client(base_url=base, timeout=20) as http):
        first = http.post("/api/tables", json=body, headers={"X-Forwarded-For": "10.0.0.1"})
        second = http.post("/api/tables", json=body, headers={"X-Forwarded-For": "10.0.0.2"})
        assert (first.status_code, second.status_code) == (201, 429)  # both are 127.0.0.1
    with (serve(database_url, tmp_path / "proxied", port, "--creates-per-minute", "1",
                "--forwarded-allow-ips", "127.0.0.1") as process,
          httpx.Client(base_url=base, timeout=20) as http):
        made = [http.post("/api/tables", json=body, headers={"X-Forwarded-For": f"10.0.1.{i}"})
                for i in (1, 2, 1)]
        assert [r.status_code for r in made] == [201, 201, 429]
        long = http.post("/api/tables", json=body, headers={"X-Forwarded-For": "x" * 300})
        assert (long.status_code, long.json()["error"]["code"]) == (400, "bad_address")
        listed = http.get("/api/tables", headers={"X-Forwarded-For": "y" * 70})
        assert listed.status_code == 400
        process.terminate()
        process.wait(10)
    log = (tmp_path / "proxied" / "serve.log").read_text()
    assert "Traceback" not in log and "ERROR" not in log, log


def test_joins_and_lobby_reads_are_rate_limited_per_address(tmp_path: Path) -> None:
    with serving(tmp_path, "--joins-per-minute", "2", "--lobby-reads-per-minute", "3",
                 "--creates-per-minute", "0") as (http, _):
        code, _ = new_table(http, humans=1, players=4, public=True)
        joins = [http.post(f"/api/tables/{code}/join", json={"name": "Bo"}) for _ in range(3)]
        assert [r.status_code for r in joins] == [200, 200, 429]
        assert int(joins[2].headers["Retry-After"]) >= 1
        reads = [http.get("/api/tables").status_code for _ in range(4)]
        assert reads == [200, 200, 200, 429]
        with other_address(str(http.base_url)) as elsewhere:
            assert elsewhere.get("/api/tables").status_code == 200
            assert elsewhere.post(f"/api/tables/{code}/join",
                                  json={"name": "Cy"}).status_code == 200


def test_every_refused_act_carries_its_id_and_ids_are_bounded(tmp_path: Path) -> None:
    with serving(tmp_path) as (http, ws):
        code, tokens = new_table(http, humans=2, players=2)
        start(http, code, tokens[0])

        async def scenario() -> None:
            ann = await Client.open(ws, code, tokens[0])
            await ann.until("state")
            for n in range(60):  # over the 20 a second (burst 40): some are dropped
                await ann.send({"type": "act", "id": f"a{n}", "version": 99, "action": "x"})
            errors = [await ann.until("error") for _ in range(60)]
            limited = [e for e in errors if e["code"] == "rate_limited"]
            assert limited and all(e["id"].startswith("a") for e in limited)
            assert all("id" in e for e in errors)
            await asyncio.sleep(2.5)  # the bucket refills (20 a second)
            for bad in ("x" * 65, 10 ** 30, -(2 ** 63)):
                refusal = await ann.refused({"type": "act", "id": bad, "version": 0,
                                             "action": "x"})
                assert refusal["code"] == "malformed" and "id" not in refusal
            fine = await ann.refused({"type": "act", "id": 2 ** 62, "version": 99,
                                      "action": "x"})
            assert fine["id"] == 2 ** 62
            await ann.close()

        run(scenario())


def status(http: httpx.Client, code: str) -> str:
    answer: str = http.get(f"/api/tables/{code}").json()["status"]
    return answer


def wait_status(http: httpx.Client, code: str, wanted: str, seconds: float = 15) -> None:
    deadline = time.monotonic() + seconds
    while status(http, code) != wanted:
        assert time.monotonic() < deadline, f"table {code} is still {status(http, code)}"
        time.sleep(0.1)


def test_tables_nobody_visits_end_as_abandoned_also_across_a_restart(
        database_url: str, tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    no_clocks = {"turn_seconds": None, "away_seconds": None}
    with (serve(database_url, tmp_path / "data", port) as _,
          httpx.Client(base_url=base, timeout=20) as http):
        before, tokens = new_table(http, humans=2, players=2, **no_clocks)
        start(http, before, tokens[0])
    with (serve(database_url, tmp_path / "data", port, "--abandoned-hours", "0.0005") as _,
          httpx.Client(base_url=base, timeout=20) as http):  # 1.8 s without anyone
        wait_status(http, before, "abandoned")  # quiet since before the restart
        visited, kept = new_table(http, humans=2, players=2, **no_clocks)
        start(http, visited, kept[0])
        left, gone = new_table(http, humans=2, players=2, **no_clocks)
        start(http, left, gone[0])

        async def scenario() -> None:
            ann = await Client.open(f"ws://127.0.0.1:{port}", visited, kept[0])
            await ann.until("state")
            await asyncio.to_thread(wait_status, http, left, "abandoned")
            assert status(http, visited) == "playing"  # someone is there
            old = await Client.open(f"ws://127.0.0.1:{port}", before, tokens[0])
            state = await old.until("state")
            refusal = await old.refused({"type": "act", "id": 1, "version": state["version"],
                                         "action": "x"})
            assert refusal["code"] == "abandoned" and refusal["id"] == 1
            await old.close()
            await ann.close()

        run(scenario())
        record = http.get(f"/api/tables/{before}/record", headers=auth(tokens[0]))
        assert record.status_code == 200


def test_unfinished_tables_are_capped_per_address(tmp_path: Path) -> None:
    with serving(tmp_path, "--max-tables-per-address", "2", "--max-waiting", "0",
                 "--creates-per-minute", "0") as (http, _):
        first, tokens = new_table(http, humans=2, players=2)
        start(http, first, tokens[0])  # started tables count too
        new_table(http, humans=1)
        over = http.post("/api/tables", json={**SHORT, "name": "Ann"})
        assert (over.status_code, over.json()["error"]["code"]) == (429, "too_many_tables")
        with other_address(str(http.base_url)) as elsewhere:
            new_table(elsewhere, humans=1)


def test_the_named_proxy_is_not_capped_its_clients_are(tmp_path: Path) -> None:
    port = free_port()
    with serve("sqlite://", tmp_path / "data", port, "--max-connections", "1",
               "--forwarded-allow-ips", "127.0.0.1"):
        held = [raw(port=port) for _ in range(1 + HTTP_SLACK + 3)]  # the proxy's
        for s in held:
            s.settimeout(0.2)
            with contextlib.suppress(TimeoutError):  # a timeout: still open
                assert s.recv(1) != b""
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=20) as http:
            made = http.post("/api/tables", json={**SHORT, "name": "Ann"},
                             headers={"X-Forwarded-For": "10.0.2.1"})
            code = made.json()["code"]

            async def scenario() -> None:  # one WebSocket per forwarded client
                url = f"ws://127.0.0.1:{port}/ws/{code}"
                first = await connect(url, additional_headers={"X-Forwarded-For": "10.0.2.1"})
                second = await connect(url, additional_headers={"X-Forwarded-For": "10.0.2.1"})
                refusal = (await closed_within(second, 5))[0]
                assert refusal["code"] == "too_many_connections"
                other = await connect(url, additional_headers={"X-Forwarded-For": "10.0.2.2"})
                await other.send(json.dumps({"type": "hello", "spectator": True}))
                assert json.loads(await other.recv())["type"] == "state"
                await first.close()
                await other.close()

            run(scenario())
        for s in held:
            s.close()
