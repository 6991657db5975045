"""Sampling a full game state that agrees with one seat's view (for search bots).

A seat knows its own hand, every public discard and can't-play pile, the board, and the
number of cards everywhere else.  :func:`sample_state` deals the unseen cards at random
into the other hands, the face-down discards, a face-down declaration and the draw pile,
so a bot can search without ever reading the real hidden cards.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from mypy_extensions import mypyc_attr

from .board import geometry
from .cards import build_shoe, sorted_hand
from .listing import MoveMemo
from .state import GameState, Pending
from .view import HIDDEN, View


def unseen_cards(view: View) -> list[str]:
    """The cards this seat cannot see, as a sorted list (a multiset)."""
    left = Counter(build_shoe(view.rules))
    seen = Counter(view.hand) + Counter(view.discards)
    for pile in view.piles:
        seen.update(pile)
    if view.pending is not None and view.pending.action.card != HIDDEN:
        seen[view.pending.action.card] += 1
    left.subtract(seen)
    if any(n < 0 for n in left.values()):
        raise ValueError("the view shows more cards of a rank than the shoe holds")
    return sorted(left.elements())


def sample_state(view: View, rng: random.Random, unseen: list[str] | None = None,
                 memo: MoveMemo | None = None, face_down: str | None = None) -> GameState:
    """A state consistent with ``view``: the same board, own hand and public cards, with the
    unseen cards shuffled into the places the seat cannot see.  ``unseen`` may pass
    :func:`unseen_cards` of the view, to spare working it out again for every sample; a
    ``memo`` is shared by the sample and the states played from it (one search).
    ``face_down`` (one of the unseen cards) is the card of a pending face-down declaration,
    chosen by the caller's belief; without it that card is dealt like the others."""
    if view.seat < 0:
        raise ValueError("a spectator's view has no hand to sample around")
    unseen = unseen_cards(view) if unseen is None else unseen
    random_key = rng.random
    keys = [random_key() for _ in unseen]  # sorting by random keys: a uniform shuffle,
    order = sorted(range(len(unseen)), key=keys.__getitem__)  # cheaper than rng.shuffle
    cards = [unseen[i] for i in order]
    hidden_pending = view.pending is not None and view.pending.action.card == HIDDEN
    if face_down is not None and hidden_pending:
        cards.remove(face_down)  # ValueError if it is not an unseen card
    n = view.rules.players
    hands: list[tuple[str, ...]] = []
    for q in range(n):
        if q == view.seat:
            hands.append(view.hand)
        else:
            size = view.hand_sizes[q]
            hands.append(sorted_hand(cards[:size]))
            del cards[:size]
    pending = view.pending
    if pending is not None and hidden_pending:
        card = cards.pop() if face_down is None else face_down
        pending = Pending(
            pending.declarer, pending.action._replace(card=card), pending.result,
            pending.asked, pending.chooser, pending.victim,
        )
    other = (view.seat + 1) % n
    hidden = tuple(cards[: view.hidden_discards])
    del cards[: view.hidden_discards]
    if len(cards) != view.draw_pile_size:
        raise ValueError("the view's card counts do not add up to the shoe")
    return GameState(
        view.rules,
        geometry(view.rules),
        seed=-1,
        pegs=view.pegs,
        hands=tuple(hands),
        draw_pile=tuple(cards),
        discards=view.discards + hidden,
        piles=view.piles,
        turn=view.turn,
        stuck=view.stuck,
        turns_taken=view.turns_taken,
        ply=view.ply,
        rng=Deferred(rng.random()),
        pending=pending,
        extra=view.extra,
        face_down=tuple((other, len(view.discards) + i) for i in range(len(hidden))),
        memo=memo,
    )


@mypyc_attr(native_class=False)
class Deferred(random.Random):
    """``random.Random(seed)``, seeded when first used: a determinization's generator is
    used only where a search plays on until the discards are shuffled, so most are never
    seeded (seeding costs about as much as the rest of a sample)."""

    def __init__(self, seed: float) -> None:  # (not seeded yet)
        self._seed: float | None = seed

    def _ready(self) -> None:
        seed = self._seed
        if seed is not None:
            self._seed = None
            super().seed(seed)
            self.gauss_next = None

    def random(self) -> float:
        self._ready()
        return super().random()

    def getrandbits(self, k: int) -> int:
        self._ready()
        return super().getrandbits(k)

    def getstate(self) -> tuple[Any, ...]:
        self._ready()
        return super().getstate()

    def setstate(self, state: tuple[Any, ...]) -> None:
        self._seed = None
        super().setstate(state)

    def seed(self, a: Any = None, version: int = 2) -> None:
        self._seed = None
        super().seed(a, version)

    def __reduce__(self) -> tuple[Any, ...]:  # copies and pickles as a plain generator
        return random.Random, (), self.getstate()
