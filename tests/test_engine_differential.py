"""The engine against its pinned earlier self (``engine_v1``): exactly the same rules.

Random games of every preset and table size are played on both engines in lockstep.  At
every position both list the same legal actions (as texts, in the same order), and at
many they hold the same state (every field, the shuffling generator included), give every
seat the same view and the same outcome, accept the same other spellings of a split and
refuse the same illegal actions with the same reason.

``PEGS_DIFF_GAMES`` (default 1) sets the games per preset and table size, for a longer run
(each compares about 180 positions; the default run about 12,000 in 45 s of CPU).
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from typing import Any

import pytest

import engine_v1
from engine_v1.legal import generate as v1_generate
from engine_v1.view import view as v1_view
from helpers import table
from pegs.rules import PRESETS, Action, GameState, IllegalActionError, Rules, view

GAMES = int(os.environ.get("PEGS_DIFF_GAMES", "1"))
#: Plies played in lockstep from the deal and from each later position.
WINDOW = 60
#: Later positions per game, each anywhere in a random game (of at most PREFIX plies).
WINDOWS, PREFIX = 2, 3000
#: Every this many plies: the whole state, every seat's view, aliases, refusals.
DEEP_EVERY = 4
#: Listings longer than this are compared on a sample of positions (and their length).
FULL_LISTING = 600


def rules_dump(rules: Any) -> tuple[object, ...]:
    """The rules of either engine as plain values (the settings this engine writes carry
    the whole power table, the pinned engine's the changed powers only)."""
    return ({k: v for k, v in rules.settings().items() if k != "powers"}, rules.powers)


def state_dump(state: Any) -> tuple[object, ...]:
    """Every field of a state of either engine, as plain values."""
    p = state.pending
    pending = None if p is None else (p.declarer, str(p.action), p.result, p.asked,
                                      p.chooser, p.victim)
    return (rules_dump(state.rules), state.seed, state.pegs, state.hands, state.draw_pile,
            state.discards, state.piles, state.turn, state.stuck, state.turns_taken,
            state.ply, pending, state.extra, state.face_down, state.rng.getstate(),
            state.current_player, state.is_over())


def view_dump(v: Any) -> tuple[object, ...]:
    p = v.pending
    pending = None if p is None else (p.declarer, str(p.action), p.result, p.asked,
                                      p.chooser, p.victim)
    outcome = None if v.outcome is None else (v.outcome.team, v.outcome.seats)
    return (rules_dump(v.rules), v.seat, v.pegs, v.hand, v.hand_sizes, v.draw_pile_size,
            v.discards, v.hidden_discards, v.piles, v.turn, v.current_player, v.stuck,
            v.turns_taken, v.ply, outcome, pending, v.extra)


def texts(listing: Sequence[Any], rng: random.Random) -> list[tuple[int, str]]:
    n = len(listing)
    picks = range(n) if n <= FULL_LISTING else sorted(rng.sample(range(n), FULL_LISTING))
    return [(i, str(listing[i])) for i in picks]


def both_apply(old: Any, new: GameState, text: str) -> tuple[Any, GameState | None]:
    """Apply ``text`` on both engines: both refuse with the same reason, or both give
    the same state."""
    try:
        after_old = old.apply(engine_v1.Action.parse(text))
    except engine_v1.IllegalActionError as e:
        with pytest.raises(IllegalActionError) as refused:
            new.apply(_parse(text))
        assert str(refused.value) == str(e), text
        return None, None
    after_new = new.apply(_parse(text))
    assert state_dump(after_new) == state_dump(after_old), text
    return after_old, after_new


def _parse(text: str) -> Action:
    return Action.parse(text)


def deep_check(old: Any, new: GameState, rng: random.Random, seen: list[str]) -> None:
    """State, views, outcome, other spellings and refusals at one position."""
    assert state_dump(new) == state_dump(old)
    for seat in range(-1, new.rules.players):
        assert view_dump(view(new, seat)) == view_dump(v1_view(old, seat))
    out_old, out_new = old.outcome(), new.outcome()
    assert (out_new is None) == (out_old is None)
    if out_new is not None:
        assert (out_new.team, out_new.seats) == (out_old.team, out_old.seats)
        return
    if old.pending is None:
        turn = old._turn()
        legal = v1_generate(old.geo, old.pegs, turn, aliases=True) if len(
            old.legal_actions()) <= 400 else None
        if legal is not None and legal.aliases:
            for alias in rng.sample(sorted(legal.aliases, key=str), min(8, len(legal.aliases))):
                # (the old alias table may also hold a spelling that is itself listed:
                # both engines then take it as it is)
                assert str(new.canonical(_parse(str(alias)))) == str(old.canonical(alias))
                both_apply(old, new, str(alias))
    for text in rng.sample(seen, min(3, len(seen))):  # actions of other positions
        both_apply(old, new, text)


def to_v1(state: GameState) -> Any:
    """The same state in the pinned engine."""
    p = state.pending
    pending = None if p is None else engine_v1.state.Pending(
        p.declarer, engine_v1.Action.parse(str(p.action)), p.result, p.asked, p.chooser,
        p.victim)
    rng = random.Random()
    rng.setstate(state.rng.getstate())
    return engine_v1.GameState._make(
        engine_v1.Rules.from_settings(state.rules.settings()), seed=state.seed,
        pegs=state.pegs, hands=state.hands, draw_pile=state.draw_pile,
        discards=state.discards, piles=state.piles, turn=state.turn, stuck=state.stuck,
        turns_taken=state.turns_taken, ply=state.ply, rng=rng, pending=pending,
        extra=state.extra, face_down=state.face_down)


def lockstep(old: Any, new: GameState, rng: random.Random, plies: int) -> int:
    """Play both engines ``plies`` random actions on from the same state; the number of
    positions compared."""
    seen: list[str] = []
    for ply in range(plies):
        if ply % DEEP_EVERY == 0 or new.is_over():
            deep_check(old, new, rng, seen)
        if new.is_over():
            return ply + 1
        listing_old, listing_new = old.legal_actions(), new.legal_actions()
        assert len(listing_new) == len(listing_old)
        assert texts(listing_new, random.Random(ply)) == texts(listing_old, random.Random(ply))
        text = str(listing_old[rng.randrange(len(listing_old))])
        seen = [*seen[-40:], text]
        old, after = both_apply(old, new, text)
        assert after is not None
        new = after
    deep_check(old, new, rng, seen)
    return plies


def play(rules: Rules, seed: int) -> int:
    """A game from its deal, then windows of play from random later positions (reached
    by the engine under test alone, and handed to the pinned one); the number of
    positions compared."""
    rng = random.Random(seed)
    new = GameState.new(rules, seed)
    old = engine_v1.GameState.new(engine_v1.Rules.from_settings(rules.settings()), seed)
    compared = lockstep(old, new, rng, WINDOW)
    for _ in range(WINDOWS):
        states = [GameState.new(rules, rng.randrange(1 << 30))]
        while not states[-1].is_over() and len(states) < PREFIX:
            legal = states[-1].legal_actions()
            states.append(states[-1].apply(legal[rng.randrange(len(legal))]))
        state = states[rng.randrange(len(states))]
        compared += lockstep(to_v1(state), state, rng, WINDOW)
    return compared


#: Every preset at every table size it can be set up for.
TABLES = [(name, n) for name in PRESETS for n in range(2, 11) if table(name, n) is not None]


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_same_games_as_the_pinned_engine(name: str, players: int) -> None:
    rules = table(name, players)
    assert rules is not None
    for game in range(GAMES):
        assert play(rules, seed=1000 * players + game) > 0


#: House rules: other powers for some cards (and other settings).
HOUSE = [
    ("basic", {"4": ["-4"], "9": ["+9", "split9"]}, {"holes_per_side": 20}),
    ("north-carolina", {"5": ["swap", "split10"], "3": ["+3", "-3", "out"]}, {"players": 6}),
    ("pegoo", {"3": ["split7!", "+3"], "8": ["-8", "out"]}, {"players": 6}),
    ("bluffing-joker", {"6": ["+6", "split9"], "K": ["out", "swap"]}, {"players": 4}),
]


@pytest.mark.parametrize(("name", "powers", "settings"), HOUSE)
def test_same_games_under_house_rules(name: str, powers: dict[str, list[str]],
                                      settings: dict[str, int]) -> None:
    rules = Rules.preset(name, powers=powers, **settings)
    for game in range(GAMES):
        assert play(rules, seed=77 + game) > 0


def test_records_made_before_replay_the_same() -> None:
    """A game played on the old engine replays, action by action, to the same state."""
    rules = Rules.preset("north-carolina", players=6)
    old = engine_v1.GameState.new(engine_v1.Rules.preset("north-carolina", players=6), 5)
    new = GameState.new(rules, 5)
    rng = random.Random(5)
    while not old.is_over() and old.ply < 2000:
        legal = old.legal_actions()
        action = legal[rng.randrange(len(legal))]
        old = old.apply(action)
        new = new.apply(_parse(str(action)))
    assert state_dump(new) == state_dump(old)


def test_the_tables_cover_every_preset() -> None:
    assert {name for name, _ in TABLES} == set(engine_v1.IMPLEMENTED) == set(PRESETS)
