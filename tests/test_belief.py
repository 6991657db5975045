"""ISMCTS's belief about a face-down declared card (Bluffing Joker)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from pegs.bots.belief import FaceDown, face_down_belief
from pegs.bots.heuristic import HeuristicBot
from pegs.bots.ismcts import IsmctsBot
from pegs.rules import GameState, Rules, View, determinize, view
from pegs.rules.bluff import DOUBT, PASS
from pegs.rules.view import HIDDEN

BLUFFING = Rules.preset("bluffing-joker", players=4, teams=2)


def _asked_views(seed: int, count: int) -> list[tuple[View, bool]]:
    """Views of seats asked about a face-down declaration in heuristic play, with whether
    the declaration was a bluff."""
    state = GameState.new(BLUFFING, seed)
    bots = [HeuristicBot(seed * 10 + s) for s in range(4)]
    found: list[tuple[View, bool]] = []
    while not state.is_over() and len(found) < count:
        seat = state.current_player
        legal = state.legal_actions()
        if DOUBT in legal and state.pending is not None:
            found.append((view(state, seat), state.pending.bluff))
        state = state.apply(bots[seat].choose(view(state, seat), legal))
    return found


def test_samples_deal_the_declared_rank_as_often_as_the_belief_says() -> None:
    seen, _ = _asked_views(3, 1)[0]
    assert seen.pending is not None and seen.pending.action.card == HIDDEN
    unseen = determinize.unseen_cards(seen)
    belief = face_down_belief(seen, unseen)
    assert isinstance(belief, FaceDown) and 0.0 <= belief.bluff <= 1.0
    rng = random.Random(1)
    draws = Counter(belief.draw(rng) for _ in range(2000))
    declared = seen.pending.action.declared
    assert draws[declared] / 2000 == pytest.approx(1 - belief.bluff, abs=0.04)
    uniform = unseen.count(declared) / len(unseen)
    assert 1 - belief.bluff > uniform + 0.2  # far likelier than a uniform deal makes it
    sample = determinize.sample_state(seen, rng, unseen, face_down=declared)
    assert sample.pending is not None and sample.pending.action.card == declared
    dealt = Counter(c for q in range(4) if q != seen.seat for c in sample.hands[q])
    dealt.update(sample.draw_pile)
    dealt.update(sample.discards[len(seen.discards):])  # the face-down discards
    dealt[declared] += 1
    assert dealt == Counter(unseen)  # every unseen card dealt once, the declared one included


def test_the_belief_tells_bluffs_from_true_declarations_on_average() -> None:
    cases = [case for seed in (1, 2) for case in _asked_views(seed, 60)]
    bluffs = [face_down_belief(v, determinize.unseen_cards(v)) for v, b in cases if b]
    truths = [face_down_belief(v, determinize.unseen_cards(v)) for v, b in cases if not b]
    assert bluffs and truths
    mean = lambda xs: sum(x.bluff for x in xs if x) / len(xs)  # noqa: E731
    assert mean(bluffs) > mean(truths) + 0.1


def test_ismcts_decides_a_doubt_with_its_belief() -> None:
    seen, _ = _asked_views(3, 1)[0]
    legal = [DOUBT, PASS]
    choices = {IsmctsBot(seed, iterations=30).choose(seen, legal) for seed in range(3)}
    belief = face_down_belief(seen, determinize.unseen_cards(seen))
    assert belief is not None and choices <= {DOUBT, PASS}
    assert IsmctsBot(0, iterations=30, guard=1e9).choose(seen, legal) == belief.decide(seen)
