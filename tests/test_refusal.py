"""Refusing an illegal action is cheap, even at a crowded table (issue 40).

``apply`` looks the action up among the listed codes; another spelling of a listed move
(a split in the other order) is made step by step on the board with the card's powers,
never by listing anything anew (issue 48).  Any refusal at a 10-seat North Carolina
position with thousands of legal tens costs at most a few times what listing and applying
a legal action does, and still says why, with some legal moves of the same card.
"""

from __future__ import annotations

import copy
import random
import time
from collections.abc import Callable

import pytest

from helpers import position
from pegs.rules import Action, GameState, IllegalActionError, Rules


def crowded() -> GameState:
    """Ten seats with three ring pegs each; seat 0 holds a ten and a 5."""
    rules = Rules.preset("north-carolina", players=10)
    spec = {seat: [f"{seat}.{3 + seat % 4}", f"{seat}.{9 + seat % 5}", f"{seat}.{15 + seat % 3}"]
            for seat in range(10)}
    return position(rules, spec, ["10", "5"])


def cpu(work: Callable[[GameState], object], state: GameState) -> float:
    """The least CPU time of a few runs of ``work`` on fresh copies of ``state``."""
    best = float("inf")
    for _ in range(5):
        s = copy.copy(state)
        start = time.process_time()
        work(s)
        best = min(best, time.process_time() - start)
    return best


def test_refusing_at_a_crowded_table_costs_about_a_legal_turn() -> None:
    state = crowded()
    tens = [a for a in state.legal_actions() if a.card == "10"]
    assert len(tens) > 3000
    texts = {str(a) for a in tens}
    mixed = (Action("10", (a.steps[0], b.steps[1]))
             for a, b in zip(tens, tens[7:], strict=False) if a.steps[0].src != b.steps[1].src)
    bad = next(m for m in mixed if str(m) not in texts)
    with pytest.raises(IllegalActionError, match=r"is not a legal move; legal moves with "
                                                 r"the 10: 10: .*; \.\.\.$"):
        copy.copy(state).apply(bad)

    def refuse(s: GameState) -> None:
        with pytest.raises(IllegalActionError):
            s.apply(bad)

    def play(s: GameState) -> None:
        s.apply(s.legal_actions()[len(tens) // 2])

    assert cpu(refuse, state) < 10 * cpu(play, state)


@pytest.mark.parametrize(("text", "why"), [
    ("5: 0.3>0.9", "is not a legal move; legal moves with the 5: 5: 0.3>0.8"),  # wrong count
    ("10: S>0.8", "is not a legal move; legal moves with the 10:"),  # no come-out
    ("Q: S>0.8", "holds no Q"),
    ("10: 0.3>0.5, 0.3>0.8", "is not a legal move"),  # one peg twice
    ("10: 0.3>0.5, 1.4>1.5, 2.3>2.4", "is not a legal move"),  # three parts
    ("5: discard", "a card that moves must be played"),
])
def test_every_kind_of_refusal_costs_about_a_legal_turn(text: str, why: str) -> None:
    state = crowded()
    action = Action.parse(text)
    with pytest.raises(IllegalActionError, match=why):
        copy.copy(state).apply(action)

    def refuse(s: GameState) -> None:
        with pytest.raises(IllegalActionError):
            s.apply(action)

    def play(s: GameState) -> None:
        s.apply(s.legal_actions()[0])

    assert cpu(refuse, state) < 10 * cpu(play, state)


def test_every_other_order_of_a_ten_is_the_listed_ten() -> None:
    state = crowded()
    tens = [a for a in state.legal_actions() if a.card == "10"]
    accepted = 0
    for a in random.Random(1).sample(tens, 200):
        swapped = Action("10", a.steps[::-1])
        try:
            listed = state.canonical(swapped)
        except IllegalActionError:
            continue  # the other order is not legal (a part lands where the other starts)
        accepted += 1
        assert listed in state.legal_actions()
        assert state.apply(swapped) == state.apply(listed)
        if state.result_of(listed) == state.result_of(a):
            assert listed == a  # one listed spelling per card and board
    assert accepted > 150
