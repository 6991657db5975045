"""Table talk on a real ``pegs serve``: phrases and text for everyone (spectators read),
limits of length and rate, the host's mutes, the teaching table's team channel and
suggested moves (never reaching the other team or spectators), and the chat kept, replayed
on reconnect (also after a restart) and downloadable apart from the record."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from websockets.asyncio.client import ClientConnection, connect

from pegs.server.database import migrate, open_engine
from pegs.server.expiry import delete_waiting
from pegs.server.limits import Limits
from pegs.server.protocol import legal_texts
from pegs.server.store import SeatRow, Store, TableRow

from .helpers import LiveServer, auth, new_table, run, serve_many, serving, start
from .test_rematch import finish_by_bots

Message = dict[str, Any]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[httpx.Client, str]]:
    with serving(tmp_path_factory.mktemp("chat")) as found:
        yield found


class Client:
    """A WebSocket client that keeps every message it is sent, in order."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.seen: list[Message] = []
        self._read = 0

    @classmethod
    async def open(cls, base: str, code: str, token: str | None) -> Client:
        ws = await connect(f"{base}/ws/{code}")
        hello = {"type": "hello", "token": token} if token else {"type": "hello",
                                                                 "spectator": True}
        await ws.send(json.dumps(hello))
        client = cls(ws)
        await client.next(lambda m: m["type"] == "state")
        return client

    async def send(self, **message: Any) -> None:
        await self.ws.send(json.dumps(message))

    async def next(self, wanted: Callable[[Message], bool]) -> Message:
        """The first message not yet looked at that is ``wanted`` (waiting for it)."""
        while True:
            while self._read < len(self.seen):
                message = self.seen[self._read]
                self._read += 1
                if wanted(message):
                    return message
            self.seen.append(json.loads(await self.ws.recv()))

    async def reply(self, msg_id: str) -> Message:
        """The answer to this client's message ``msg_id``: its chat echo or an error."""
        return await self.next(lambda m: m.get("id") == msg_id)

    async def close(self) -> None:
        await self.ws.close()


def chats(client: Client) -> list[Message]:
    return [m for m in client.seen if m["type"] == "chat"]


def is_chat(m: Message) -> bool:
    return m["type"] == "chat"


def test_table_chat_reaches_everyone_with_limits_of_length_and_rate(
        server: tuple[httpx.Client, str]) -> None:
    http, base = server
    code, tokens = new_table(http, humans=4)

    async def scenario() -> None:
        ann, bob = [await Client.open(base, code, t) for t in tokens[:2]]
        watcher = await Client.open(base, code, None)
        await ann.send(type="chat", id="p", phrase="good_move")
        echo = await ann.reply("p")
        assert echo["text"] == "Good move!" and echo["phrase"] == "good_move"
        markup = "<b>hi</b> &amp; <script>x()</script>"
        await bob.send(type="chat", id="t", text="  " + markup + "\n ")
        said = await watcher.next(lambda m: is_chat(m) and m["seat"] == 1)
        assert (said["text"], said["name"], said["channel"]) == (markup, "Player 1", "table")
        assert said["n"] == echo["n"] + 1 and "id" not in said  # only the sender's copy
        await bob.send(type="chat", id="long", text="x" * 201)
        assert (await bob.reply("long"))["code"] == "too_long"
        await bob.send(type="chat", id="ok", text="y" * 200)
        assert (await bob.reply("ok"))["type"] == "chat"
        await bob.send(type="chat", id="bad", phrase="<b>")
        assert (await bob.reply("bad"))["code"] == "bad_phrase"
        await bob.send(type="chat", id="ctl", text="a\x00b")
        assert (await bob.reply("ctl"))["code"] == "malformed"
        # 5 chat messages in 10 s (refusals count too), then rate_limited with the id
        cat = await Client.open(base, code, tokens[2])
        for i in range(8):
            await cat.send(type="chat", id=f"r{i}", phrase="thanks")
        answers = [await cat.reply(f"r{i}") for i in range(8)]
        assert [a["type"] for a in answers[:5]] == ["chat"] * 5
        assert "rate_limited" in [a.get("code") for a in answers[5:]]
        await watcher.send(type="chat", id="w", text="hello from the rail")
        assert (await watcher.reply("w"))["code"] == "muted"
        await ann.send(type="chat", id="team", channel="team", text="psst")
        assert (await ann.reply("team"))["code"] == "not_teaching"
        for c in (ann, bob, cat, watcher):
            await c.close()

    run(scenario())


#: Chat text that shows as nothing, or more than the line (issue 47): each is malformed.
INVISIBLE = ["\u200b" * 200, "\U000e0068\U000e0069", "\ufeff", "\u3164", "\u1160\uffa0",
             "\u2800", "x" + "\u0301" * 199, "\u200d\u200c", "\u202e!olleh", "a\x00b",
             "hi\x1b]0;pwned\x07", "a\ud800", "\ue000"]


def test_text_that_shows_as_nothing_is_malformed_on_each_database(database_url: str) -> None:
    live = LiveServer(database_url, Limits(messages_per_second=1000, burst=1000,
                                           chat_burst=100))
    try:
        code, tokens = new_table(live.http, humans=2)
        family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"

        async def scenario() -> None:
            ann = await Client.open(live.ws, code, tokens[0])
            for i, text in enumerate(INVISIBLE):
                await ann.send(type="chat", id=f"x{i}", text=text)
                reply = await ann.reply(f"x{i}")
                assert reply.get("code") == "malformed", (text, reply)
                assert reply["message"].startswith("the chat's text "), reply
            await ann.send(type="chat", id="long", text="y" * 201)
            assert (await ann.reply("long"))["code"] == "too_long"
            # the length counts what is kept: the zero-width spaces go
            await ann.send(type="chat", id="ok", text=" " + "y" * 190 + "\u200b" * 50 + " "
                           + family + "\u200d ")
            assert (await ann.reply("ok"))["text"] == "y" * 190 + " " + family
            await ann.close()

        run(scenario())
        rows = live.http.get(f"/api/tables/{code}/chat").json()["chat"]
        assert [row["text"] for row in rows] == ["y" * 190 + " " + family]
    finally:
        live.stop()


def test_the_host_mutes_a_seat_and_lets_spectators_write(
        server: tuple[httpx.Client, str]) -> None:
    http, base = server
    code, tokens = new_table(http, humans=3)

    async def scenario() -> None:
        ann, bob, cat = [await Client.open(base, code, t) for t in tokens]
        watcher = await Client.open(base, code, None)
        await bob.send(type="mute", id="m0", seat=2, muted=True)
        assert (await bob.reply("m0"))["code"] == "not_host"
        await ann.send(type="mute", id="m1", seat=2, muted=True)
        state = await cat.next(lambda m: m["type"] == "state")
        assert state["table"]["muted"] == [2]
        await cat.send(type="chat", id="c1", phrase="oops")
        assert (await cat.reply("c1"))["code"] == "muted"
        await ann.send(type="mute", id="m2", seat=2, muted=False)
        await ann.send(type="mute", id="m3", seat=-1, muted=False)
        state = await watcher.next(lambda m: m["type"] == "state"
                                   and m["table"]["spectators_chat"])
        assert state["table"]["muted"] == []
        await cat.send(type="chat", id="c2", phrase="thanks")
        assert (await cat.reply("c2"))["text"] == "Thanks"
        await watcher.send(type="chat", id="w", text="hi all")
        said = await bob.next(lambda m: is_chat(m) and m["seat"] == -1)
        assert (said["name"], said["text"]) == ("Spectator", "hi all")
        for c in (ann, bob, cat, watcher):
            await c.close()

    run(scenario())
    assert http.get(f"/api/tables/{code}").json()["muted"] == []


def test_teaching_table_team_channel_and_suggestions_stay_in_the_team(
        server: tuple[httpx.Client, str]) -> None:
    http, base = server
    code, tokens = new_table(http, humans=4, teaching=True, hints=False)
    table = http.get(f"/api/tables/{code}").json()
    assert table["teaching"] and not table["hints"]  # the creator said no hints
    start(http, code, tokens[0])

    async def scenario() -> None:
        seats = [await Client.open(base, code, t) for t in tokens]
        watcher = await Client.open(base, code, None)
        await seats[0].send(type="chat", id="t0", channel="team", text="go for the door")
        said = await seats[2].next(is_chat)
        assert (said["channel"], said["seat"], said["text"]) == ("team", 0, "go for the door")
        # the other team and the spectator get the next table message first: never the team's
        await seats[1].send(type="chat", id="t1", text="everyone")
        for other in (seats[1], seats[3], watcher):
            assert (await other.next(is_chat))["text"] == "everyone"
        # a suggestion at the partner's turn, one of the partner's legal actions
        state = seats[0].seen[0]
        mover = state["view"]["current_player"]
        partner, rival = (mover + 2) % 4, (mover + 1) % 4
        mine = next(m for m in seats[mover].seen if m["type"] == "state")
        action = legal_texts(mine["legal"])[0]
        await seats[rival].send(type="suggest", id="s0", action=action)
        assert (await seats[rival].reply("s0"))["code"] == "not_partners_turn"
        await seats[mover].send(type="suggest", id="s1", action=action)
        assert (await seats[mover].reply("s1"))["code"] == "not_partners_turn"
        await seats[partner].send(type="suggest", id="s2", action="K: S>0.5@1")
        assert (await seats[partner].reply("s2"))["code"] == "illegal"
        await seats[partner].send(type="suggest", id="s3", action=action)
        shown = await seats[mover].next(lambda m: m["type"] == "suggest")
        assert (shown["seat"], shown["to"], shown["action"]) == (partner, mover, action)
        if partner != 0:  # the host (seat 0) cannot be muted
            await seats[0].send(type="mute", id="m", seat=partner, muted=True)
            await seats[partner].next(lambda m: m["type"] == "state" and m["table"]["muted"])
            await seats[partner].send(type="suggest", id="s4", action=action)
            assert (await seats[partner].reply("s4"))["code"] == "muted"
        await seats[rival].send(type="chat", id="t2", text="after")
        for other in (seats[rival], seats[(rival + 2) % 4], watcher):
            await other.next(lambda m: is_chat(m) and m["text"] == "after")
            assert not [m for m in other.seen if m["type"] == "suggest"
                        or (is_chat(m) and m["channel"] == "team")]
        for c in (*seats, watcher):
            await c.close()

    run(scenario())


def test_partners_exchange_nothing_private_at_other_tables(
        server: tuple[httpx.Client, str]) -> None:
    http, base = server
    code, tokens = new_table(http, humans=4)
    start(http, code, tokens[0])

    async def scenario() -> None:
        seats = [await Client.open(base, code, t) for t in tokens]
        mover = seats[0].seen[0]["view"]["current_player"]
        partner = seats[(mover + 2) % 4]
        mine = next(m for m in seats[mover].seen if m["type"] == "state")
        await partner.send(type="suggest", id="s", action=legal_texts(mine["legal"])[0])
        assert (await partner.reply("s"))["code"] == "not_teaching"
        for c in seats:
            await c.close()

    run(scenario())


def test_chat_is_kept_replayed_on_reconnect_and_apart_from_the_record(
        tmp_path: Path) -> None:
    with serving(tmp_path) as (http, base):
        code, tokens = new_table(http, humans=4, teaching=True)

        async def talk() -> None:
            seats = [await Client.open(base, code, t) for t in tokens[:2]]
            for seat, channel, text in ((0, "table", "hello"), (0, "team", "secret zero"),
                                        (1, "team", "secret one"), (1, "table", "bye")):
                await seats[seat].send(type="chat", id=text, channel=channel, text=text)
                assert (await seats[seat].reply(text))["type"] == "chat"
            for c in seats:
                await c.close()

        run(talk())
    with serving(tmp_path) as (http, base):  # the same database, a new process
        async def back() -> None:
            three = await Client.open(base, code, tokens[3])  # seat 3: team 1
            log = await three.next(lambda m: m["type"] == "chat_log")
            assert [m["text"] for m in log["messages"]] == ["hello", "secret one", "bye"]
            watcher = await Client.open(base, code, None)
            log = await watcher.next(lambda m: m["type"] == "chat_log")
            assert [m["text"] for m in log["messages"]] == ["hello", "bye"]
            await three.close()
            await watcher.close()

        run(back())
        public = http.get(f"/api/tables/{code}/chat").json()["chat"]
        assert [m["text"] for m in public] == ["hello", "bye"]
        team0 = http.get(f"/api/tables/{code}/chat", headers=auth(tokens[2])).json()["chat"]
        assert [(m["text"], m["channel"]) for m in team0] == [
            ("hello", "table"), ("secret zero", "team"), ("bye", "table")]
        bad = http.get(f"/api/tables/{code}/chat", headers=auth("nope"))
        assert bad.status_code == 401
        start(http, code, tokens[0])
        record = http.get(f"/api/tables/{code}/record", headers=auth(tokens[0])).text
        assert "secret" not in record and "hello" not in record


def test_chat_rows_are_numbered_once_by_racing_writers_and_go_with_an_expired_table(
        database_url: str) -> None:
    """On each database: two stores (two processes) number messages without gaps or
    repeats; a channel filter keeps a team's messages from others; expiry removes them."""
    engine = open_engine(database_url)
    migrate(engine)
    stores = [Store(engine), Store(open_engine(database_url))]
    seats = [SeatRow(0, "Ann", "human")]
    stores[0].create(TableRow("t1", {}, 1, True, "waiting", 0, 0, seats,
                              created=datetime.now(UTC) - timedelta(days=2)))

    def write(store: Store, seat: int) -> None:
        for i in range(10):
            store.add_chat("t1", {"seat": seat, "channel": f"team{seat}" if i % 2 else "table",
                                  "name": "Ann", "text": f"{seat}-{i}", "phrase": None})

    with ThreadPoolExecutor(2) as pool:
        list(pool.map(write, stores, [0, 1]))
    rows = stores[0].chat_log("t1", ["table", "team0", "team1"])
    assert [r.seq for r in rows] == list(range(1, 21))
    assert {r.body["text"] for r in stores[0].chat_log("t1", ["table", "team0"])}.isdisjoint(
        {f"1-{i}" for i in range(1, 10, 2)})
    assert [r.seq for r in stores[0].chat_log("t1", ["table"], 3)] == [
        r.seq for r in rows if r.channel == "table"][-3:]
    assert delete_waiting(stores[0], datetime.now(UTC) - timedelta(days=1)) == ["t1"]
    assert stores[0].chat_log("t1", ["table", "team0", "team1"]) == []
    for store in stores:
        store.engine.dispose()


def test_chat_and_mutes_reach_the_connections_of_every_process(postgres_url: str,
                                                               tmp_path: Path) -> None:
    """Two processes on one PostgreSQL database: a message or a mute sent through one
    reaches the clients of the other (team messages only to the team)."""
    with serve_many(postgres_url, tmp_path, 2) as [(_, a), (_, b)]:
        with httpx.Client(base_url=a, timeout=20) as http:
            code, tokens = new_table(http, humans=4, teaching=True)
        ws = [url.replace("http", "ws") for url in (a, b)]

        async def scenario() -> None:
            ann = await Client.open(ws[0], code, tokens[0])
            cat, dan = [await Client.open(ws[1], code, t) for t in (tokens[2], tokens[3])]
            await ann.send(type="chat", id="team", channel="team", text="only us")
            assert (await cat.next(is_chat))["text"] == "only us"
            await ann.send(type="chat", id="all", phrase="well_played")
            assert (await dan.next(is_chat))["text"] == "Well played"  # never the team's
            assert (await cat.next(is_chat))["text"] == "Well played"
            await ann.send(type="mute", id="m", seat=3, muted=True)
            await dan.next(lambda m: m["type"] == "state" and m["table"]["muted"] == [3])
            await dan.send(type="chat", id="d", phrase="oops")
            assert (await dan.reply("d"))["code"] == "muted"
            for c in (ann, cat, dan):
                await c.close()

        run(scenario())


def test_a_rematch_keeps_the_table_talk_options(client: TestClient) -> None:
    code, tokens = new_table(client, humans=1, bots=3, players=4, teaching=True,
                             spectators_chat=True)
    start(client, code, tokens[0])
    finish_by_bots(client, code, tokens, humans=1)
    nxt = client.post(f"/api/tables/{code}/rematch", headers=auth(tokens[0])).json()["next"]
    table = client.get(f"/api/tables/{nxt}").json()
    assert (table["teaching"], table["spectators_chat"], table["hints"]) == (True, True, True)
