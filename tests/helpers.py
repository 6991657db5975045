"""Shared helpers for the test suite (plain functions, imported by the test modules)."""

from __future__ import annotations

import random
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from pegs.rules import PRESETS, Action, GameState, Rules, RulesError, geometry
from pegs.rules.board import START

Pegs = tuple[tuple[int, ...], ...]

#: Implemented presets in a stable order (new presets are picked up automatically).
PRESETS_UNDER_TEST: tuple[str, ...] = tuple(sorted(PRESETS))

#: Table sizes the property tests try for every preset.
PLAYER_COUNTS: tuple[int, ...] = (2, 3, 4, 6, 8, 10)


def table(name: str, players: int) -> Rules | None:
    """The preset for ``players`` seats (in teams when the preset allows, else alone), or
    None when the preset cannot be played by that many."""
    for extra in ({}, {"teams": 0}):
        try:
            return Rules.preset(name, players=players, **extra)
        except RulesError:
            continue
    return None


def tables() -> list[tuple[str, int]]:
    """Every (implemented preset, player count) combination that can be set up."""
    return [
        (name, n) for name in PRESETS_UNDER_TEST for n in PLAYER_COUNTS if table(name, n)
    ]


def layout(rules: Rules, spec: Mapping[int, Sequence[str]]) -> Pegs:
    """Pegs per seat from position names; seats not named have every peg in start."""
    geo = geometry(rules)
    out: list[tuple[int, ...]] = []
    for seat in range(rules.players):
        names = list(spec.get(seat, ()))
        names += ["S"] * (rules.pegs - len(names))
        out.append(tuple(sorted(geo.parse(n) for n in names)))
    return tuple(out)


def position(
    rules: Rules,
    spec: Mapping[int, Sequence[str]],
    hand: Sequence[str],
    to_move: int = 0,
    stuck_turns: int = 0,
    first_turn: bool = False,
) -> GameState:
    return GameState.from_position(
        rules, layout(rules, spec), to_move, list(hand),
        stuck_turns=stuck_turns, first_turn=first_turn,
    )


def ten_through_a_door() -> tuple[GameState, Action]:
    """North Carolina: seat 2 moves seat 3's peg back nine onto seat 0's peg at 0.16, which
    goes to its door 3.18 (where nobody stood); the ten's second part moves that peg one
    hole on, into its home."""
    nc = Rules.preset("north-carolina", players=4)
    state = position(nc, {0: ["0.16"], 1: ["0.5", "0.18"], 2: ["2.1"], 3: ["1.7"]}, ["10"],
                     to_move=2)
    return state, Action.parse("10: 1.7<0.16x, 3.18>H1@0")


def names(state: GameState, pegs: Pegs | None = None) -> dict[int, list[str]]:
    """Position names per seat (sorted) of ``pegs`` (default: the state's pegs)."""
    geo = state.geo
    ps = state.pegs if pegs is None else pegs
    return {seat: sorted(geo.name(p) for p in ps[seat]) for seat in range(len(ps))}


def outcomes(state: GameState) -> set[tuple[str, bool, Pegs]]:
    """(card, discard, resulting layout) of every legal action."""
    return {(a.card, a.discard, state.result_of(a)) for a in state.legal_actions()}


def moved_to(state: GameState, card: str) -> set[frozenset[tuple[int, tuple[str, ...]]]]:
    """For each legal move with ``card``: the changed seats and their new positions."""
    geo = state.geo
    out = set()
    for a in state.legal_actions():
        if a.card != card or a.discard:
            continue
        after = state.result_of(a)
        out.add(frozenset(
            (s, tuple(sorted(geo.name(p) for p in after[s])))
            for s in range(len(after)) if after[s] != state.pegs[s]
        ))
    return out


def change(state: GameState, **seats: Sequence[str]) -> frozenset[tuple[int, tuple[str, ...]]]:
    """An expected entry of :func:`moved_to`: ``change(st, s0=[...], s2=[...])``."""
    rules = state.rules
    return frozenset(
        (int(key[1:]), tuple(sorted(list(ps) + ["S"] * (rules.pegs - len(ps)))))
        for key, ps in seats.items()
    )


def card_count(state: GameState) -> int:
    return (
        sum(len(h) for h in state.hands)
        + len(state.draw_pile)
        + len(state.discards)
        + sum(len(p) for p in state.piles)
    )


def card_multiset(state: GameState) -> Counter[str]:
    c: Counter[str] = Counter()
    for h in state.hands:
        c.update(h)
    for p in state.piles:
        c.update(p)
    c.update(state.draw_pile)
    c.update(state.discards)
    return c


def random_game(
    rules: Rules, seed: int, choice_seed: int, cap: int = 30000
) -> Iterator[tuple[GameState, object]]:
    """Yield (state, action) pairs of a random legal game, then (final state, None)."""
    rng = random.Random(choice_seed)
    state = GameState.new(rules, seed)
    for _ in range(cap):
        if state.is_over():
            break
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        yield state, action
        state = state.apply(action)
    yield state, None


def coded_position(table_: tuple[str, int], seed: int, plies: int) -> GameState:
    """The position after ``plies`` random legal codes of the seeded game of ``table_``."""
    rules = table(*table_)
    assert rules is not None
    rng = random.Random(seed)
    state = GameState.new(rules, seed)
    for _ in range(plies):
        if state.is_over():
            break
        codes = state.legal_codes()
        state = state.apply_code(codes[rng.randrange(len(codes))])
    return state


def all_start(rules: Rules) -> Pegs:
    return tuple((START,) * rules.pegs for _ in range(rules.players))


def pegs(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run the ``pegs`` command in a fresh interpreter."""
    return subprocess.run(
        [sys.executable, "-m", "pegs.cli", *args],
        capture_output=True, text=True, timeout=300, cwd=cwd,
    )


def no_traceback(proc: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stdout
