"""The card side of a game: the shoe, sorted hands, and drawing (:class:`Draft`).

The draw pile of a state is ``shoe[:top]``, its top card last: drawing lowers ``top``, so
the states between two shuffles share one tuple, and a reshuffle of the discards makes a
new one with a copy of the state's generator (no state is changed after it is made).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .listing import RANK_ORDER
from .settings import RANKS, Rules


def sorted_hand(cards: Sequence[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=RANK_ORDER.__getitem__))


def build_shoe(rules: Rules) -> list[str]:
    """All cards of the game in a fixed order, before shuffling."""
    cards = [r for _ in range(rules.decks) for r in RANKS[:-1] for _ in range(4)]
    cards += ["Joker"] * (rules.decks * rules.jokers_per_deck + rules.extra_jokers)
    return cards


class Draft:
    """The card side of the next state while ``apply`` builds it."""

    __slots__ = ("discards", "face_down", "hands", "rng", "shoe", "src", "top")

    def __init__(self, shoe: tuple[str, ...], top: int, discards: tuple[str, ...],
                 face_down: tuple[tuple[int, int], ...], rng: random.Random,
                 hands: list[tuple[str, ...]]) -> None:
        self.hands = hands
        self.shoe = shoe
        self.top = top
        self.discards = discards
        self.face_down = face_down
        self.rng = self.src = rng

    def pile(self) -> tuple[str, ...]:
        return self.shoe[:self.top]

    def draw(self, seat: int, count: int) -> None:
        """``seat`` draws ``count`` cards, shuffling the discards into a new pile when the
        pile runs out (with a copy of the state's generator, leaving the old state as it was)."""
        if count <= 0:
            return
        drawn: list[str] = []
        for _ in range(count):
            if not self.top and self.discards:
                self.rng = random.Random()
                self.rng.setstate(self.src.getstate())
                pile = list(self.discards)
                self.rng.shuffle(pile)
                self.shoe = tuple(pile)
                self.top = len(pile)
                self.discards = ()
                self.face_down = ()
            if not self.top:
                break
            self.top -= 1
            drawn.append(self.shoe[self.top])
        hand = self.hands[seat]
        for card in drawn:
            hand = insert(hand, card)
        self.hands[seat] = hand


def insert(hand: tuple[str, ...], card: str) -> tuple[str, ...]:
    """A sorted hand with ``card`` added after the cards of its rank (as sorting would)."""
    rank = RANK_ORDER[card]
    at = -1
    last = -1
    for n in range(len(hand)):
        r = RANK_ORDER[hand[n]]
        if r < last:  # not sorted (a made-up state)
            return sorted_hand((*hand, card))
        last = r
        if at < 0 and r > rank:
            at = n
    if at < 0:
        at = len(hand)
    out = list(hand)
    out.insert(at, card)
    return tuple(out)
