"""The legal-action generator against an independent reference written from RULES.md.

``reference.Reference`` enumerates every legal outcome (card, declared rank, discard flag,
resulting layout) the slow and obvious way; the engine must produce exactly the same set,
on positions from random games and on random crowded positions made by hypothesis.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import PRESETS_UNDER_TEST
from pegs.rules import GameState, Rules, RulesError
from reference import RANKS, Reference

Outcome = tuple[str, str, bool, tuple[tuple[int, ...], ...]]


def _normal(state: GameState, outcomes: set[Outcome]) -> set[Outcome]:
    """A discard that also moved pegs (North Carolina counting) is identified by the card
    and the layout alone, like any other move (FORMAT.md: same card and same layout are
    one outcome); only a discard that moves nothing stays marked."""
    return {(c, d, disc and lay == state.pegs, lay) for c, d, disc, lay in outcomes}


def engine_outcomes(state: GameState) -> set[Outcome]:
    return _normal(state, {
        (a.card, a.declared, a.discard, state.result_of(a)) for a in state.legal_actions()
    })


def reference_outcomes(state: GameState) -> set[Outcome]:
    seat = state.turn
    return _normal(state, Reference(state.rules).outcomes(
        state.pegs, seat, state.hands[seat], state.stuck[seat], state.turns_taken[seat] == 0
    ))


def describe(state: GameState, outcomes: set[Outcome]) -> list[str]:
    geo = state.geo
    out = []
    for card, declared, discard, lay in sorted(outcomes, key=str):
        changed = {
            s: sorted(geo.name(p) for p in lay[s])
            for s in range(len(lay)) if lay[s] != state.pegs[s]
        }
        head = card + (f" as {declared}" if declared else "") + (" discard" if discard else "")
        out.append(f"{head} {changed}")
    return out


def assert_same(state: GameState) -> None:
    got, want = engine_outcomes(state), reference_outcomes(state)
    if got != want:
        geo = state.geo
        where = {s: sorted(geo.name(p) for p in ps) for s, ps in enumerate(state.pegs)}
        pytest.fail(
            f"{state.rules.name} seat {state.turn} hand {state.hands[state.turn]} "
            f"stuck {state.stuck[state.turn]} first {state.turns_taken[state.turn] == 0}\n"
            f"pegs {where}\n"
            f"engine only: {describe(state, got - want)}\n"
            f"reference only: {describe(state, want - got)}"
        )


def _check_game(rules: Rules, seed: int, every: int, plies: int = 4000) -> int:
    rng = random.Random(seed)
    state = GameState.new(rules, seed)
    checked = 0
    for ply in range(plies):
        if state.is_over():
            break
        if state.pending is None and ply % every == 0:
            assert_same(state)
            checked += 1
        state = state.apply(rng.choice(list(state.legal_actions())))
    return checked


@pytest.mark.parametrize("name", PRESETS_UNDER_TEST)
@pytest.mark.parametrize("players", [4, 6])
def test_random_game_positions_match_the_reference(name: str, players: int) -> None:
    rules = Rules.preset(name, players=players)
    assert _check_game(rules, players * 1000, 11) > 10


HOUSE = [
    {"players": 6, "teams": 3},
    {"players": 8},
    {"players": 3, "teams": 0},
    {"home_holes": 7},
    {"pegs": 3},
    {"players": 5, "teams": 0, "sides": 7},
    {"players": 6, "help_order": "any"},
    {"players": 2, "teams": 0},
    {"may_pass_own": "flip"},
]


def _house_rules() -> list[Rules]:
    out = []
    for name in PRESETS_UNDER_TEST:
        for overrides in HOUSE:
            if overrides.get("may_pass_own") == "flip":
                overrides = {"may_pass_own": not Rules.preset(name).may_pass_own}
            try:
                out.append(Rules.preset(name, **overrides))
            except RulesError:
                continue  # e.g. team control without teams (see the settings tests)
    return out


@pytest.mark.parametrize(
    "rules", _house_rules(),
    ids=lambda r: f"{r.name}-{r.players}p-{r.teams}t-{r.sides}s-{r.pegs}/{r.home_holes}"
                  f"-{'pass' if r.may_pass_own else 'nopass'}-{r.help_order}",
)
def test_house_settings_match_the_reference(rules: Rules) -> None:
    assert _check_game(rules, 17, 29, plies=500) > 3


def _crowded(rules: Rules, data: st.DataObject) -> GameState:
    """A random position with many pegs near the doors and out-holes."""
    ring = rules.sides * rules.holes_per_side
    h = rules.holes_per_side
    side = [p * rules.sides // rules.players for p in range(rules.players)]
    hot = sorted({(s * h + d) % ring for s in side for d in range(-12, 14)})
    free = list(hot) if data.draw(st.booleans(), "near landmarks") else list(range(ring))
    pegs = []
    for seat in range(rules.players):
        k = rules.pegs
        on_ring = data.draw(st.integers(0, min(k, 3)), f"ring pegs {seat}")
        holes = data.draw(
            st.lists(st.sampled_from(free), min_size=on_ring, max_size=on_ring, unique=True)
            if len(free) >= on_ring else st.just([]), f"holes {seat}"
        )
        for x in holes:
            free.remove(x)
        in_home = data.draw(st.integers(0, k - len(holes)), f"home pegs {seat}")
        homes = data.draw(st.permutations(range(rules.home_holes)), f"home {seat}")[:in_home]
        ps = holes + [ring + x for x in homes]
        ps += [-1] * (k - len(ps))
        pegs.append(tuple(sorted(ps)))
    hand = data.draw(st.lists(st.sampled_from(RANKS), min_size=1, max_size=4), "hand")
    if not rules.jokers_per_deck:
        hand = [c for c in hand if c != "Joker"] or ["5"]
    to_move = data.draw(st.integers(0, rules.players - 1), "to move")
    stuck = data.draw(st.integers(0, 3), "stuck")
    first = data.draw(st.booleans(), "first turn")
    return GameState.from_position(rules, tuple(pegs), to_move, hand, stuck_turns=stuck,
                                   first_turn=first)


@pytest.mark.parametrize("name", PRESETS_UNDER_TEST)
@settings(
    max_examples=80, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(data=st.data())
def test_crowded_positions_match_the_reference(name: str, data: st.DataObject) -> None:
    players = data.draw(st.sampled_from([4, 6]), "players")
    rules = Rules.preset(name, players=players)
    state = _crowded(rules, data)
    if state.is_over():
        assert list(state.legal_actions()) == []
        return
    assert_same(state)
