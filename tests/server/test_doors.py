"""Every door has a limit: each HTTP route spends a per-address budget counted before the
request is read, each WebSocket message kind spends the connection's rate (a connection
that keeps sending over it is closed), the chat is bounded per address, per table, in
count and in age, and request heads and answers are bounded."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import socket
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update
from websockets.asyncio.client import connect

from pegs.server import create_app
from pegs.server.api import presets_json
from pegs.server.counters import Counters
from pegs.server.database import migrate, open_engine
from pegs.server.doors import BUDGETS, MESSAGE_KINDS, ROUTES, budgeted
from pegs.server.limits import Limits
from pegs.server.schema import entries as log_rows
from pegs.server.store import SeatRow, Store, TableRow
from pegs.server.ws import HANDLERS

from .helpers import Client, LiveServer, auth, new_table, run, serving, start

#: Every per-minute budget of HTTP requests at this count.
TIGHT = {budget.field: 2 for budget in BUDGETS.values()}


def _path(door: str) -> tuple[str, str]:
    """A request to this route (its parameters filled in)."""
    method, path = door.split(" ", 1)
    path = path.replace("{code}", "nosuchtable").replace("{seat}", "0")
    if method == "MOUNT":
        return "GET", "/index.html"
    return method, path


def test_every_route_is_in_the_table_and_every_budget_is_a_setting() -> None:
    app = create_app("sqlite://", limits=Limits())
    assert sorted(budgeted(app.routes)) == sorted(ROUTES)
    assert set(ROUTES.values()) == set(BUDGETS) | {"connects"}
    assert all(hasattr(Limits(), b.field) for b in BUDGETS.values())
    # the kinds the WebSocket takes are the ones listed with their budgets
    assert set(MESSAGE_KINDS) == {"hello", "ping"} | set(HANDLERS)


def test_the_protocol_shows_every_message_kind_and_an_unknown_one_is_told_them_all(
        client: TestClient) -> None:
    protocol = (Path(__file__).resolve().parents[2] / "docs" / "PROTOCOL.md").read_text()
    assert [k for k in MESSAGE_KINDS if f'{{"type": "{k}"' not in protocol] == []
    code, tokens = new_table(client, humans=2)
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json({"type": "hello", "token": tokens[0]})
        assert ws.receive_json()["type"] == "state"
        ws.send_json({"type": "shout", "id": "x"})
        said = ws.receive_json()
        while said["type"] != "error":
            said = ws.receive_json()
        listed = said["message"].split(": use ")[1].split(", ")
    assert listed == [k for k in MESSAGE_KINDS if k != "hello"]


def test_every_route_refuses_past_its_budget_before_reading_the_request(
        tmp_path: Path) -> None:
    limits = Limits(**TIGHT)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'p.db'}", bot_delay=0,
                               limits=limits)) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        for door in ROUTES:
            if door.startswith("WS "):
                continue
            hub.counters = Counters(limits)  # this route's budget alone
            method, path = _path(door)
            answers = [client.request(method, path, content=b"{not json")
                       for _ in range(3)]
            assert [a.status_code == 429 for a in answers] == [False, False, True], door
            refusal = answers[2]
            assert refusal.json()["error"]["code"] == "rate_limited", door
            assert int(refusal.headers["retry-after"]) >= 1
            assert refusal.headers["connection"] == "close"


def test_budgets_are_per_address_and_per_budget(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'p.db'}", bot_delay=0, limits=Limits(**TIGHT))
    with TestClient(app) as one:
        other = TestClient(app, client=("192.0.2.7", 5000))
        assert [one.get("/api/presets").status_code for _ in range(3)] == [200, 200, 429]
        assert other.get("/api/presets").status_code == 200  # another address
        assert one.get("/api/tables").status_code == 200  # another budget


def test_presets_and_cue_cards_are_made_once(client: TestClient) -> None:
    presets_json.cache_clear()
    first = client.get("/api/presets").json()
    assert client.get("/api/presets").json() == first
    assert presets_json.cache_info().misses == 1 and presets_json.cache_info().hits >= 1
    draft = {"base": "basic", "cards": {"4": ["-4", "+4"]}}
    cue = client.post("/api/cue", json=draft).json()
    assert "4" in cue["changed"] and client.post("/api/cue", json=draft).json() == cue


def _flood(kind: str) -> dict[str, Any]:
    return {"type": kind, "id": "x", "text": "hi", "version": 0, "action": "?",
            "actions": ["?"], "seat": 1, "muted": True}


@pytest.mark.parametrize("kind", [k for k in MESSAGE_KINDS if k != "hello"])
def test_a_connection_that_keeps_sending_over_its_rate_is_closed(
        database_url: str, kind: str) -> None:
    server = LiveServer(database_url, Limits(messages_per_second=5, burst=5))
    try:
        code, tokens = new_table(server.http, humans=2, players=2)
        start(server.http, code, tokens[0])

        async def scenario() -> None:
            player = await Client.open(server.ws, code, tokens[0])
            await player.until("state")
            message = _flood(kind)
            codes = []
            with pytest.raises(Exception, match="1008"):
                for n in range(200):
                    await player.send({**message, "id": f"m{n}"})
                while True:  # the replies, up to the last before the close
                    reply = json.loads(await asyncio.wait_for(player.ws.recv(), 10))
                    if reply["type"] == "error":
                        codes.append((reply["code"], reply["message"]))
            assert codes[-1][0] == "rate_limited" and "closed" in codes[-1][1]
            # another connection of the same seat still plays
            again = await Client.open(server.ws, code, tokens[0])
            await again.until("state")
            await again.close()

        run(scenario())
    finally:
        server.stop()


def test_chat_is_counted_per_address_at_a_table_and_per_table(database_url: str) -> None:
    limits = Limits(messages_per_second=1000, burst=1000, chat_burst=100, chat_per_second=100,
                    chat_per_minute=3, table_chat_per_minute=5)
    server = LiveServer(database_url, limits)
    try:
        code, tokens = new_table(server.http, humans=2, players=2)
        start(server.http, code, tokens[0])

        async def say(client: Client, n: int) -> str | None:
            await client.send({"type": "chat", "id": f"c{n}", "text": f"hello {n}"})
            while True:
                reply = json.loads(await asyncio.wait_for(client.ws.recv(), 10))
                if reply.get("id") == f"c{n}":
                    return reply.get("code")

        async def scenario() -> None:
            tab = await Client.open(server.ws, code, tokens[0])
            assert [await say(tab, n) for n in range(3)] == [None, None, None]
            await tab.close()
            again = await Client.open(server.ws, code, tokens[0])  # a new connection
            assert await say(again, 3) == "rate_limited"  # the address's 3 a minute
            # from another address: its own 3, until the table's 5 in all
            other = Client(await connect(f"{server.ws}/ws/{code}",
                                         local_addr=("127.0.0.2", 0)))
            await other.send({"type": "hello", "token": tokens[1]})
            assert [await say(other, n) for n in range(10, 13)] == [None, None, "rate_limited"]
            await other.close()
            await again.close()

        run(scenario())
        messages = server.http.get(f"/api/tables/{code}/chat").json()["chat"]
        assert len(messages) == 5
    finally:
        server.stop()


def test_a_table_keeps_its_latest_chat_and_none_too_old(database_url: str) -> None:
    engine = open_engine(database_url)
    migrate(engine)
    store = Store(engine)
    store.create(TableRow("t1", {}, 1, True, "playing", 0, 0, [SeatRow(0, "Ann", "human")]))
    entry = {"seat": 0, "channel": "table", "name": "Ann", "phrase": None}
    for n in range(7):
        store.add_chat("t1", {**entry, "text": f"m{n}"}, kept=4)
    assert [r.body["text"] for r in store.chat_log("t1", ["table"])] == [
        "m3", "m4", "m5", "m6"]
    with engine.begin() as c:  # message m4 is now 40 days old
        c.execute(update(log_rows).where(log_rows.c.seq == 5).values(
            at=datetime.now(UTC) - timedelta(days=40)))
    store.add_chat("t1", {**entry, "text": "m7"}, kept=4, days=30)
    assert [r.body["text"] for r in store.chat_log("t1", ["table"])] == ["m5", "m6", "m7"]
    engine.dispose()


def test_the_chat_download_comes_a_page_at_a_time(client: TestClient) -> None:
    code, _ = new_table(client, humans=2, players=2)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    entry = {"seat": 0, "channel": "table", "name": "Ann", "phrase": None}
    for n in range(5):
        hub.store.add_chat(code, {**entry, "text": f"m{n}"})
    first = client.get(f"/api/tables/{code}/chat", params={"limit": 2}).json()
    assert [m["text"] for m in first["chat"]] == ["m0", "m1"] and first["more"]
    rest = client.get(f"/api/tables/{code}/chat",
                      params={"limit": 10, "after": first["after"]}).json()
    assert [m["text"] for m in rest["chat"]] == ["m2", "m3", "m4"] and not rest["more"]
    assert client.get(f"/api/tables/{code}/chat", params={"limit": 501}).status_code == 422


def test_documents_go_gzipped_to_clients_that_take_gzip(client: TestClient) -> None:
    code, tokens = new_table(client, humans=1, bots=1, players=2)
    start(client, code, tokens[0])
    for path in ("record", "log"):
        packed = client.get(f"/api/tables/{code}/{path}", headers={
            **auth(tokens[0]), "Accept-Encoding": "gzip"})
        plain = client.get(f"/api/tables/{code}/{path}", headers={
            **auth(tokens[0]), "Accept-Encoding": "identity"})
        assert packed.headers.get("content-encoding") == "gzip", path
        assert "content-encoding" not in plain.headers, path
        assert packed.json() == plain.json()  # (the client unpacks the gzipped one)


def _head(port: int, size: int) -> bytes:
    """Send a request whose head is about ``size`` bytes; what the server answered before
    it closed (b"" if it cut the connection)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        filler = b"X-Filler: " + b"a" * max(0, size - 60) + b"\r\n"
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n" + filler + b"\r\n")
        answer = b""
        with contextlib.suppress(ConnectionResetError):
            while b"\r\n\r\n" not in answer and (chunk := s.recv(65536)):
                answer += chunk
        return answer


def test_request_heads_over_the_cap_are_refused_without_being_read(tmp_path: Path) -> None:
    with serving(tmp_path) as (http, _):
        port = int(str(http.base_url).rsplit(":", 1)[1].rstrip("/"))
        assert _head(port, 8_000).startswith(b"HTTP/1.1 200")
        big = _head(port, 20_000)
        assert big.startswith(b"HTTP/1.1 431") and b"too_large" in big
        started = time.monotonic()
        _head(port, 50_000_000)  # cut off long before 50 MB are sent
        assert time.monotonic() - started < 30
        assert http.get("/health").status_code == 200


def test_a_rematch_counts_as_a_new_table_of_the_creator(tmp_path: Path) -> None:
    limits = dataclasses.replace(Limits(), max_live_per_address=1, max_waiting_per_address=0)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'p.db'}", bot_delay=0,
                               limits=limits)) as client:
        code, tokens = new_table(client, humans=1, bots=1, players=2)
        start(client, code, tokens[0])
        hub = client.app.state.hub  # type: ignore[attr-defined]
        client.post(f"/api/tables/{code}/seats/0/bot", headers=auth(tokens[0]))
        deadline = time.monotonic() + 60
        while hub.rooms[code].status != "finished":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        client.post(f"/api/tables/{code}/seats/0/reclaim", headers=auth(tokens[0]))
        other, _ = new_table(client, humans=1, players=2)  # the creator's one unfinished
        refused = client.post(f"/api/tables/{code}/rematch", headers=auth(tokens[0]))
        assert refused.status_code == 429 and refused.json()["error"]["code"] == (
            "too_many_tables")
        assert client.get(f"/api/tables/{code}").json()["next"] is None
        client.post(f"/api/tables/{other}/seats/1/remove", headers=auth(tokens[0]))
