"""Searches never starve play: bot moves and hints run in worker processes, each lane's
tables served in turn; one hint a turn per seat; a hint overtaken by the turn is dropped;
a bot's move follows from its seed."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from pegs.rules import GameState, Rules
from pegs.server import thinking
from pegs.server.protocol import legal_texts
from pegs.server.thinking import Dropped, Game, Thinkers

from .helpers import Client, new_table, run, serving, start


def test_tables_take_turns_and_a_dropped_job_never_runs(tmp_path: Path) -> None:
    done: list[str] = []
    never = tmp_path / "never"

    async def scenario() -> None:
        lane = Thinkers(1, 0)
        try:
            first = lane.submit("me", "busy", time.sleep, 0.3)  # the worker starts meanwhile
            jobs = {f"busy{i}": lane.submit("me", "busy", time.sleep, 0.01) for i in range(3)}
            jobs["quiet"] = lane.submit("me", "quiet", time.sleep, 0.01)
            dropped = lane.submit("me", "other", never.touch)
            dropped.drop()
            for name, job in jobs.items():
                job.future.add_done_callback(lambda _, name=name: done.append(name))
            await asyncio.wait_for(first.future, 30)
            await asyncio.wait_for(asyncio.gather(*(j.future for j in jobs.values())), 30)
            with pytest.raises(Dropped):
                await dropped.future
        finally:
            lane.close()

    asyncio.run(scenario())
    assert done == ["busy0", "quiet", "busy1", "busy2"]
    assert not never.exists()


def test_a_bots_move_follows_from_its_seed_however_the_worker_got_the_game() -> None:
    rules = Rules.preset("north-carolina", players=4)
    rng = random.Random(3)
    state, texts = GameState.new(rules, 11), []
    for _ in range(40):
        action = rng.choice(state.legal_actions())
        texts.append(str(action))
        state = state.apply(action)
    settings = rules.settings()
    early = Game("t1", settings, 11, tuple(texts[:25]))
    game = Game("t1", settings, 11, tuple(texts))
    thinking._state(early)
    moves = {thinking.bot_move(game, state.current_player, "heuristic", 0.0, 5)}
    thinking._games.clear()
    moves.add(thinking.bot_move(game, state.current_player, "heuristic", 0.0, 5))
    assert len(moves) == 1 and moves <= set(map(str, state.legal_actions()))
    # another game under the same code: the kept state is not taken for it
    fresh = GameState.new(rules, 12)
    first = fresh.legal_actions()[0]
    other = thinking._state(Game("t1", settings, 12, (str(first),)))
    assert other.legal_actions() == fresh.apply(first).legal_actions()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[httpx.Client, str]]:
    """A real ``pegs serve`` on SQLite whose hints search for 2 s."""
    with serving(tmp_path, "--hint-seconds", "2") as served:
        yield served


def test_one_hint_a_turn_and_a_hint_overtaken_by_the_turn_is_dropped(
        served: tuple[httpx.Client, str]) -> None:
    http, ws = served
    code, tokens = new_table(http, humans=2, players=2)
    start(http, code, tokens[0])

    async def scenario() -> None:
        ann = await Client.open(ws, code, tokens[0])
        bob = await Client.open(ws, code, tokens[1])
        state = await ann.until("state")
        await ann.send({"type": "hint", "id": "h1"})
        again = await ann.refused({"type": "hint", "id": "h2"})
        assert (again["code"], again["id"]) == ("rate_limited", "h2")
        await ann.send({"type": "act", "id": "a1", "version": 0,
                        "action": legal_texts(state["legal"])[0]})
        dropped = await ann.until("error")
        assert (dropped["id"], dropped["code"]) == ("h1", "not_your_turn")
        assert "turn passed" in dropped["message"]
        mine = await bob.until("state", 1)
        await bob.send({"type": "hint", "id": "b1"})
        hint = await bob.until("hint", timeout=30)
        assert hint["id"] == "b1" and hint["action"] in legal_texts(mine["legal"])
        assert (await bob.refused({"type": "hint", "id": "b2"}))["code"] == "rate_limited"

    run(scenario())
