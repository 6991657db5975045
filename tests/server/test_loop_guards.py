"""No client can make the event loop work for it, nor take the worker processes: illegal
acts are looked up, not explained, and limited per connection; finished games are
replayed once, by a worker, and kept; the worker lanes are shared fairly by creator
address; the workers end with their server."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from pegs.rules import Action, GameState, IllegalActionError, Rules
from pegs.server import refusals
from pegs.server.protocol import legal_texts

from .helpers import (
    SHORT,
    Client,
    auth,
    free_port,
    launch,
    new_table,
    run,
    serving,
    start,
    stop,
    wait_up,
)


def crowded(players: int = 8, most: int = 600) -> GameState:
    """A North Carolina position whose seat to act has many legal actions."""
    rng = random.Random(4)
    state = GameState.new(Rules.preset("north-carolina", players=players), 9)
    while len(state.legal_actions()) < most:
        state = state.apply(rng.choice(state.legal_actions()))
        if state.is_over():
            state = GameState.new(state.rules, rng.randrange(1000))
    return state


def test_an_illegal_action_is_looked_up_not_explained() -> None:
    state = crowded()
    hand = state.hands[state.turn]
    legal = state.legal_actions()
    held = next(a for a in legal if a.steps)
    impossible = held._replace(steps=(held.steps[0]._replace(dst="H9"),))
    for action, words in [
        (impossible, f"not a legal move with the {held.card}"),
        (Action.parse("K: 9.9>9.10") if "K" not in hand else Action.parse("Q: S>0.5"),
         "you hold no"),
        (Action("", (), False, "", "doubt"), "nothing to doubt"),
    ]:
        with pytest.raises(IllegalActionError, match=words):
            refusals.listed(state, action)
    assert refusals.listed(state, held) == held
    split = next((a for a in legal if len(a.steps) == 2), None)
    if split is not None:  # another order of a split's steps names the listed one
        other = split._replace(steps=split.steps[::-1])
        if other not in legal:
            assert refusals.listed(state, other) == split


def test_illegal_acts_are_refused_then_rate_limited_and_the_connection_closed(
        tmp_path: Path) -> None:
    with serving(tmp_path) as (http, ws_url):
        code, tokens = new_table(http, humans=2, players=2)
        start(http, code, tokens[0])

        async def scenario() -> None:
            ann = await Client.open(ws_url, code, tokens[0])
            state = await ann.until("state", 0)
            assert legal_texts(state["legal"])
            codes = []
            for n in range(12):
                error = await ann.refused({"type": "act", "id": n, "version": 0,
                                           "action": "K: 9.9>9.10"})
                assert error["id"] == n
                codes.append(error["code"])
                if error["code"] == "rate_limited":
                    break
            assert set(codes[:-1]) == {"illegal"} and codes[-1] == "rate_limited"
            assert 3 <= len(codes) <= 10
            with pytest.raises(ConnectionClosed):
                await ann.until("state", timeout=5)
            # the seat may come back and play
            again = await Client.open(ws_url, code, tokens[0])
            state = await again.until("state", 0)
            await again.send({"type": "act", "id": "ok", "version": 0,
                              "action": legal_texts(state["legal"])[0]})
            assert (await again.until("event"))["version"] == 1

        run(scenario())


def _log(folder: Path) -> str:
    return (folder / "data" / "serve.log").read_text()


def test_a_finished_game_is_replayed_once_by_a_worker_and_its_documents_are_kept(
        tmp_path: Path) -> None:
    with serving(tmp_path) as (http, _):
        code, tokens = new_table(http, humans=1, bots=1, players=4)
        start(http, code, tokens[0])
        r = http.post(f"/api/tables/{code}/seats/0/bot", json={}, headers=auth(tokens[0]))
        assert r.status_code == 200, r.text
        deadline = time.monotonic() + 60
        while http.get(f"/api/tables/{code}").json()["status"] != "finished":
            assert time.monotonic() < deadline
            time.sleep(0.1)
    with serving(tmp_path) as (http, _):  # a restart: the game is only in the database
        answers = {}
        for _ in range(3):
            for path in ("", "/record", "/summary", "/replay", "/log"):
                r = http.get(f"/api/tables/{code}{path}")
                assert r.status_code == 200, r.text
                assert answers.setdefault(path, r.content) == r.content
        table = http.get(f"/api/tables/{code}").json()
        assert answers["/record"].count(b'"actions"') == 1
        assert len(http.get(f"/api/tables/{code}/replay").json()["states"]) == (
            table["version"] + 1)
        time.sleep(1.5)  # the table leaves the live ones for the archive (every second)
        assert http.get(f"/api/tables/{code}/record").content == answers["/record"]
        for _ in range(120):  # reading them is limited per address
            r = http.get(f"/api/tables/{code}/summary")
            if r.status_code != 200:
                break
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
        assert http.get(f"/api/tables/{code}").status_code == 200
    log = _log(tmp_path)
    for made in ("rebuilt on", "made its record", "made its summary", "made its replay"):
        assert log.count(f"table {code}: {made}") == 1, (made, log)


def _version(http: httpx.Client, code: str) -> int:
    version: int = http.get(f"/api/tables/{code}").json()["version"]
    return version


def test_one_address_with_many_tables_of_strong_bots_does_not_starve_another(
        tmp_path: Path) -> None:
    with serving(tmp_path, "--creates-per-minute", "0", "--max-waiting", "0") as (http, _):
        hogs = []
        for _ in range(4):  # from 127.0.0.1: strong bots searching 1.5 s a move
            code, tokens = new_table(http, humans=1, players=4)
            r = http.post(f"/api/tables/{code}/bots",
                          json={"bot": "ismcts", "strength": "strong"},
                          headers=auth(tokens[0]))
            assert r.status_code == 200, r.text
            start(http, code, tokens[0])
            r = http.post(f"/api/tables/{code}/seats/0/bot",
                          json={"bot": "ismcts", "strength": "strong"}, headers=auth(tokens[0]))
            assert r.status_code == 200, r.text
            hogs.append(code)
        base = str(http.base_url).rstrip("/")
        other = httpx.Client(base_url=base, timeout=20,
                             transport=httpx.HTTPTransport(local_address="127.0.0.2"))
        with other:
            code, tokens = new_table(other, humans=1, bots=1, players=4, **SHORT)
            start(other, code, tokens[0])
            r = other.post(f"/api/tables/{code}/seats/0/bot", json={},
                           headers=auth(tokens[0]))
            assert r.status_code == 200, r.text
            began = time.monotonic()
            while _version(other, code) < 40:
                assert time.monotonic() - began < 15, "the quick bots were starved"
                time.sleep(0.1)
            took = time.monotonic() - began
        while sum(_version(http, c) for c in hogs) < 2:  # the strong bots play meanwhile
            assert time.monotonic() - began < 30, "the strong bots do not play"
            time.sleep(0.1)
        print(f"40 quick bot moves in {took:.1f} s")


def _children(pid: int) -> set[int]:
    """The live child processes of ``pid`` (from /proc)."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            if int(fields[1]) == pid and fields[0] != "Z":
                found.add(int(entry))
    return found


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads processes from /proc")
def test_the_workers_end_when_their_server_is_killed(tmp_path: Path) -> None:
    port = free_port()
    server = launch(f"sqlite:///{tmp_path / 'pegs.db'}", tmp_path / "data", port)
    try:
        wait_up(server, tmp_path / "data", port)
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=20) as http:
            code, tokens = new_table(http, humans=2, players=2)
            start(http, code, tokens[0])

            async def ask_hint() -> None:  # starts the hint lane's worker
                client = await Client.open(f"ws://127.0.0.1:{port}", code, tokens[0])
                await client.until("state")
                await client.send({"type": "hint", "id": 1})
                await client.until("hint", timeout=30)

            run(ask_hint())
        workers = _children(server.pid)
        assert workers
        server.send_signal(signal.SIGKILL)
        server.wait(10)
        deadline = time.monotonic() + 15
        while any(_alive(pid) for pid in workers):
            assert time.monotonic() < deadline, "workers outlived their server"
            time.sleep(0.05)
    finally:
        stop(server)


def test_public_server_options_are_checked(capsys: pytest.CaptureFixture[str]) -> None:
    from pegs.cli import main

    for args in (["--max-bot-seconds", "0"], ["--max-bot-seconds", "nan"],
                 ["--max-bot-seconds", "inf"], ["--min-bot-delay", "-1"],
                 ["--min-bot-delay", "nan"]):
        assert main(["serve", *args]) == 2
        err = capsys.readouterr().err
        assert "--max-bot-seconds must be" in err and "Traceback" not in err


def test_the_longest_search_is_capped() -> None:
    from pegs.server.thinking import search_seconds

    assert search_seconds("ismcts", "strong", None) == 1.5
    assert search_seconds("ismcts", "strong", 0.2) == 0.2
    assert search_seconds("ismcts", "easy", 0.2) == 0.1
    assert search_seconds("heuristic", None, 0.2) == 0.0


def test_an_owner_with_many_tables_gets_its_share_of_a_lane() -> None:
    from pegs.server.thinking import Thinkers

    order: list[str] = []

    async def scenario() -> None:
        lane = Thinkers(1, 0)
        try:
            warm = lane.submit("x", "warm", time.sleep, 0.3)  # the worker starts meanwhile
            jobs = [lane.submit("hog", f"t{i}", time.sleep, 0.05, seconds=0.05)
                    for i in range(6)]
            jobs += [lane.submit("other", "mine", time.sleep, 0.05, seconds=0.05)
                     for _ in range(3)]
            for job, name in zip(jobs, ["hog"] * 6 + ["other"] * 3, strict=True):
                job.future.add_done_callback(lambda _, name=name: order.append(name))
            await asyncio.wait_for(warm.future, 30)
            await asyncio.wait_for(asyncio.gather(*(j.future for j in jobs)), 30)
        finally:
            lane.close()

    asyncio.run(scenario())
    # served by used time: the other owner's three jobs come among the hog's first four
    assert order.index("other") <= 2 and len(order) - order[::-1].index("other") <= 6
