"""One log per table: chat, suggestions, hints, the rematch and stand-ins cross three real
``pegs serve`` processes on PostgreSQL the same way, even when their LISTEN connections
are cut mid-game (every process catches up by the log's numbers: nothing lost, nothing
twice), and a stand-in ends once its player's paused process resumes."""

from __future__ import annotations

import asyncio
import json
import os
import signal
from collections import Counter
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect

from pegs.server.protocol import legal_texts

from .conftest import _new_postgres_database
from .helpers import SHORT_LEASES, auth, new_table, run, serve_many, start
from .test_faults import query, until

Message = dict[str, Any]
Three = tuple[str, list[str], list[int]]
#: Per-address budgets lifted: every scripted client comes from one address.
NO_BUDGETS = [option for name in ("chat", "table-chat", "table", "changes", "joins", "reads",
                                  "connects", "creates")
              for option in ("--rate", f"{name}=0")]


@pytest.fixture(scope="module")
def three(postgres_cluster: tuple[str, int],
          tmp_path_factory: pytest.TempPathFactory) -> Iterator[Three]:
    """Three processes on one new PostgreSQL database: (its URL, their base URLs, their
    process ids)."""
    url = _new_postgres_database(postgres_cluster)
    folder = tmp_path_factory.mktemp("three")
    with serve_many(url, folder, 3, "--shortest-clock", "1", "--hint-seconds", "0.05",
                    "--max-tables-per-address", "0", *SHORT_LEASES, *NO_BUDGETS) as servers:
        yield url, [base for _, base in servers], [p.pid for p, _ in servers]


LISTENING = ("FROM pg_stat_activity WHERE datname = current_database() AND "
             "query LIKE 'LISTEN %' AND pid <> pg_backend_pid()")


def cut_listening(url: str) -> int:
    """Terminate every process's LISTEN connection (as a network blip would), once all
    three listen; how many it terminated."""
    until(lambda: query(url, f"SELECT count(*) {LISTENING}") == [(3,)], 10,
          "the three processes listen")
    return len(query(url, f"SELECT pg_terminate_backend(pid) {LISTENING}"))


class Tab:
    """One WebSocket of a seat (or a spectator): every message it is sent, in order."""

    def __init__(self, ws: ClientConnection, seat: int) -> None:
        self.ws, self.seat = ws, seat
        self.seen: list[Message] = []
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, base: str, code: str, token: str | None, seat: int) -> Tab:
        ws = await connect(f"{base.replace('http', 'ws')}/ws/{code}")
        await ws.send(json.dumps({"type": "hello", "token": token} if token
                                 else {"type": "hello", "spectator": True}))
        tab = cls(ws, seat)
        await tab.wait(lambda m: m["type"] == "state")
        return tab

    async def _read(self) -> None:
        async for text in self.ws:
            self.seen.append(json.loads(text))

    async def wait(self, wanted: Any, timeout: float = 15) -> Message:
        """The first message seen that is ``wanted`` (waiting for it)."""
        async def found() -> Message:
            while True:
                for m in self.seen:
                    if wanted(m):
                        return m
                await asyncio.sleep(0.02)
        return await asyncio.wait_for(found(), timeout)

    async def send(self, **message: Any) -> None:
        await self.ws.send(json.dumps(message))

    def chats(self) -> list[int]:
        return [m["n"] for m in self.seen if m["type"] == "chat" and m["channel"] == "table"]

    async def close(self) -> None:
        await self.ws.close()
        await self._reader


def test_chat_suggestions_and_hints_hold_across_three_processes_through_cut_listens(
        three: Three) -> None:
    url, bases, _ = three
    http = httpx.Client(base_url=bases[0], timeout=20)
    code, tokens = new_table(http, humans=4, teaching=True, turn_seconds=None,
                             away_seconds=None)
    start(http, code, tokens[0])

    async def scenario() -> None:
        # every seat has a tab on every process; a spectator watches on each
        tabs = [await Tab.open(base, code, token, seat)
                for seat, token in enumerate(tokens) for base in bases]
        watchers = [await Tab.open(base, code, None, -1) for base in bases]
        every = [*tabs, *watchers]

        # chat from every tab, rounds apart, while the LISTEN connections are cut
        sent = 0
        for round_ in range(3):
            for i, tab in enumerate(tabs):
                await tab.send(type="chat", id=f"c{round_}-{i}", text=f"{round_}-{i}")
                sent += 1
            assert await asyncio.to_thread(cut_listening, url) == 3
        for tab in every:
            await tab.wait(lambda m, tab=tab: len(tab.chats()) >= sent)
        first = sorted(tabs[0].chats())
        assert len(first) == sent
        for tab in every:  # each message once, in the log's order, on every process
            assert tab.chats() == first, tab.seat
        echoes = Counter(m["id"] for tab in tabs for m in tab.seen
                         if m["type"] == "chat" and m.get("id"))
        assert len(echoes) == sent and set(echoes.values()) == {1}  # only the sender's copy

        # a suggestion through one process reaches the partner's tabs on all three
        state = tabs[0].seen[0]
        mover = state["view"]["current_player"]
        partner, rival = (mover + 2) % 4, (mover + 1) % 4
        version = state["version"]
        mine = next(m for m in tabs[mover * 3].seen if m["type"] == "state")
        action = legal_texts(mine["legal"])[0]
        assert await asyncio.to_thread(cut_listening, url) == 3
        await tabs[partner * 3 + 1].send(type="suggest", id="s", action=action)
        for tab in [*tabs[mover * 3:mover * 3 + 3], *tabs[partner * 3:partner * 3 + 3]]:
            shown = await tab.wait(lambda m: m["type"] == "suggest")
            assert (shown["seat"], shown["to"], shown["action"]) == (partner, mover, action)

        # one hint a turn, asked through three processes at once
        assert await asyncio.to_thread(cut_listening, url) == 3
        for n, tab in enumerate(tabs[mover * 3:mover * 3 + 3]):
            await tab.send(type="hint", id=f"h{n}")
        answers = [await tab.wait(lambda m, n=n: m.get("id") == f"h{n}")
                   for n, tab in enumerate(tabs[mover * 3:mover * 3 + 3])]
        assert sorted(a["type"] if a["type"] == "hint" else a["code"] for a in answers) == [
            "hint", "rate_limited", "rate_limited"]
        assert query(url, f"SELECT count(*) FROM pegs_log WHERE code = '{code}' AND "
                          f"kind = 'hint' AND version = {version}") == [(1,)]

        # the rival's team and the spectators never saw the suggestion
        await tabs[rival * 3].send(type="chat", id="after", text="after")
        for tab in [*tabs[rival * 3:rival * 3 + 3], *watchers]:
            await tab.wait(lambda m: m.get("text") == "after")
            assert not [m for m in tab.seen if m["type"] == "suggest"]
        for tab in every:
            await tab.close()

    run(scenario(), timeout=90)
    http.close()


def _status(base: str, code: str) -> dict[str, Any]:
    table: dict[str, Any] = httpx.get(f"{base}/api/tables/{code}", timeout=20).json()
    return table


def test_play_again_with_nobody_connected_is_the_same_on_every_process(
        three: Three) -> None:
    url, bases, _ = three
    with httpx.Client(base_url=bases[0], timeout=20) as http:
        code, tokens = new_table(http, humans=2, bots=2, players=4, away_seconds=1,
                                 turn_seconds=None, bot_delay=0)
        start(http, code, tokens[0])
    # nobody connects: stand-ins cover both humans and the bots finish the game
    until(lambda: _status(bases[1], code)["status"] == "finished", 120, "the game ends")
    for base in bases:  # every process has the finished table in memory
        assert _status(base, code)["next"] is None
    r = httpx.post(f"{bases[0]}/api/tables/{code}/rematch", headers=auth(tokens[0]))
    assert r.status_code == 200 and r.json()["rematch"] == [0], r.text
    assert cut_listening(url) == 3
    r = httpx.post(f"{bases[1]}/api/tables/{code}/rematch", headers=auth(tokens[1]))
    nxt = r.json()["next"]
    assert nxt is not None and r.json()["rematch"] == [0, 1]
    for base in bases:
        until(lambda base=base: (_status(base, code)["next"], _status(base, code)["rematch"])
              == (nxt, [0, 1]), 3, f"{base} shows the rematch")

    async def page() -> None:  # a page opened on the first process is told
        async with connect(f"{bases[0].replace('http', 'ws')}/ws/{code}") as ws:
            await ws.send(json.dumps({"type": "hello", "token": tokens[0]}))
            state = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert state["table"]["next"] == nxt

    run(page())
    made = query(url, f"SELECT count(*) FROM pegs_tables WHERE code <> '{code}' AND "
                      f"code <> '{nxt}' AND seed IN (SELECT seed FROM pegs_tables "
                      f"WHERE code = '{nxt}')")
    assert made == [(0,)]


def test_a_stand_in_ends_when_its_players_paused_process_resumes(
        three: Three) -> None:
    url, bases, pids = three
    http = httpx.Client(base_url=bases[0], timeout=20)
    code, tokens = new_table(http, humans=2, bots=2, players=4, away_seconds=1,
                             turn_seconds=None, bot_delay=1)
    start(http, code, tokens[0])

    async def scenario() -> None:
        # seat 1's only connection is to the third process (which may run the table: then
        # another takes it over meanwhile)
        host = await Tab.open(bases[0], code, tokens[0], 0)
        player = await Tab.open(bases[2], code, tokens[1], 1)
        await asyncio.to_thread(until, lambda: all(
            s["connected"] for s in _status(bases[0], code)["seats"]), 10,
            "the first process hears that seat 1 is connected to the third")
        os.kill(pids[2], signal.SIGSTOP)
        try:  # its word that seat 1 is connected lapses: a stand-in covers the seat
            await asyncio.to_thread(until, lambda: _standin(url, code, 1), 20,
                                    "a stand-in covers the seat of the paused process")
        finally:
            os.kill(pids[2], signal.SIGCONT)
        # the same connection, never reopened: the seat is the player's again
        await asyncio.to_thread(until, lambda: not _standin(url, code, 1), 15,
                                "the stand-in ends once the player's process resumes")
        await player.wait(lambda m: m["type"] == "state"
                          and not m["table"]["seats"][1]["standin"])
        await host.close()
        await player.close()

    run(scenario(), timeout=60)
    http.close()


def _standin(url: str, code: str, seat: int) -> bool:
    [(standin,)] = query(url, f"SELECT standin FROM pegs_seats WHERE code = '{code}' "
                              f"AND seat = {seat}")
    return bool(standin)
