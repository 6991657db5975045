"""Moves listed without being built: how many there are, the ``n``-th, and the layout a
given action leads to.

A position can offer hundreds of moves of one kind (the North Carolina ten's splits, the
2's swaps at a big table) and a player uses one, so the generator keeps such moves as
numbers and builds an :class:`Action` only when it is indexed or looked up.
"""

from __future__ import annotations

from typing import Final

from .actions import Action, Step
from .board_work import Pegs, moved

#: Builds a named tuple (Step, Action) without the interpreted ``__new__`` of its class.
_new: Final = tuple.__new__


class Deferred:
    """Some legal moves of one card, in a fixed order, built when asked for."""

    __slots__ = ()

    def __len__(self) -> int:
        raise NotImplementedError

    def nth(self, n: int) -> Action:
        """The ``n``-th action (0 <= n < len)."""
        raise NotImplementedError

    def outcome(self, action: Action) -> Pegs | None:
        """The layout ``action`` leads to, or None if it is not one of these moves."""
        raise NotImplementedError

    def layout_at(self, n: int) -> Pegs:
        """The layout the ``n``-th move leads to (no :class:`Action` is made)."""
        raise NotImplementedError

    def played(self) -> str:
        """The card these moves play."""
        raise NotImplementedError


class Swaps(Deferred):
    """The 2's swaps of a position, kept as (seat, hole, other hole, other seat) numbers.

    No two of them lead to one layout, so each is its own move."""

    __slots__ = ("_made", "base", "card", "flat", "names")

    def __init__(self, card: str, names: tuple[tuple[str, ...], ...], base: Pegs,
                 flat: list[int]) -> None:
        self.card = card
        self.names = names
        self.base = base
        #: Four numbers per swap: the own peg's seat and hole, the other peg's hole and seat.
        self.flat = flat
        #: Each built action's index, for looking one up without building the others.
        self._made: dict[Action, int] = {}

    def __len__(self) -> int:
        return len(self.flat) // 4

    def nth(self, n: int) -> Action:
        flat = self.flat
        q, p, other = flat[4 * n], flat[4 * n + 1], flat[4 * n + 2]
        names = self.names[q]
        step = _new(Step, (names[p + 1], names[other + 1], "~", False))
        action: Action = _new(Action, (self.card, (step,), False, "", ""))
        self._made[action] = n
        return action

    def outcome(self, action: Action) -> Pegs | None:
        if (action.card != self.card or len(action.steps) != 1 or action.steps[0].op != "~"
                or action.discard or action.declared or action.decision):
            return None
        n = self._made.get(action, -1)
        if n < 0 and len(self._made) < len(self):
            for m in range(len(self)):
                self.nth(m)
            n = self._made.get(action, -1)
        if n < 0:
            return None
        return self.layout_at(n)

    def layout_at(self, n: int) -> Pegs:
        flat = self.flat
        q, p, other, v = flat[4 * n], flat[4 * n + 1], flat[4 * n + 2], flat[4 * n + 3]
        return moved(self.base, ((q, p, other), (v, other, p)))

    def played(self) -> str:
        return self.card
