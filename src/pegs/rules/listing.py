"""What the listing reads and keeps besides the board: the cards' powers as plans
(:class:`CardPlan`), a search's memo of each card's codes (:class:`MoveMemo`), the rank
order, and who may move which pegs (:func:`controlled`).  The listing is
:mod:`pegs.rules.coded`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from .board import Geometry
from .board_work import Pegs
from .deferred import Deferred
from .settings import RANKS, Rules

RANK_ORDER: Final = {r: i for i, r in enumerate(RANKS)}

#: Entries a :class:`MoveMemo` holds at most.  The boards near a search's root come first
#: and recur in every iteration; a limit of 5,000 or 200,000 was no faster and held up to
#: 140 MB more in a North Carolina search of 3 s (8 seats).
MEMO_LIMIT = 1_000


class CardCodes:
    """What one card adds to a listing (:meth:`pegs.rules.coded.Coded._card`): its listed
    codes in order, its counted moves, the layouts of its splits listed one by one, the
    codes it listed by the key change of their layout, whether its split was made, and
    whether it moves other than by coming out."""

    __slots__ = ("codes", "found", "layouts", "other", "seen", "segments")

    def __init__(self, codes: tuple[int, ...], segments: tuple[Deferred, ...],
                 layouts: tuple[tuple[int, Pegs], ...],
                 seen: tuple[tuple[int, tuple[int, ...]], ...], found: bool,
                 other: bool) -> None:
        self.codes = codes
        self.segments = segments
        self.layouts = layouts
        self.seen = seen
        self.found = found
        self.other = other


class MoveMemo:
    """The codes of each card by board and seat, shared by the positions of one search.

    A card's moves depend on the board, the seat and the card alone, and a tree search
    meets the same board in every determinization (only the hidden cards differ), so the
    listing looks them up here instead of finding them again.  Holds at most ``limit``
    entries; a memo is meant to live for one decision.
    """

    __slots__ = ("entries", "limit")

    def __init__(self, limit: int = MEMO_LIMIT) -> None:
        self.entries: dict[tuple[Pegs, int, int], CardCodes] = {}
        self.limit = limit


@dataclass(frozen=True)
class CardPlan:
    """A rank's powers, parsed once per rule set."""

    out: bool
    forward: tuple[int, ...]
    backward: tuple[int, ...]
    swap: bool
    split: int  # 0, 7 or 9
    must_split: bool
    joker: bool


@lru_cache(maxsize=64)
def card_plans(rules: Rules) -> dict[str, CardPlan]:
    plans = {}
    for rank, tokens in rules.powers:
        split = 0
        must = False
        for t in tokens:
            if t.startswith("split"):
                split = int(t[5:].rstrip("!"))
                must = t.endswith("!")
        plans[rank] = CardPlan(
            out="out" in tokens,
            forward=tuple(int(t[1:]) for t in tokens if t.startswith("+")),
            backward=tuple(int(t[1:]) for t in tokens if t.startswith("-")),
            swap="swap" in tokens,
            split=split,
            must_split=must,
            joker="joker" in tokens,
        )
    return plans


def controlled(geo: Geometry, pegs: Pegs, seat: int) -> tuple[int, ...]:
    """The seats whose pegs ``seat`` may move (RULES.md section 3, control / help order)."""
    rules = geo.rules
    if rules.control == "team":
        return geo.team_seats[seat]
    if pegs[seat] != geo.all_home:
        return (seat,)
    waiting = tuple(q for q in geo.partners[seat] if pegs[q] != geo.all_home)
    if rules.help_order == "clockwise":
        return waiting[:1]
    return waiting
