"""One peg's part of a two-part move (a North Carolina ten, a 7 or 9 split) on the unchanged
board.

A part that hits nobody follows from the table alone (seat, hole, size and direction), so
:class:`Geometry` keeps each such part once it is made and every position shares it: a part
is never changed after it is made.
"""

from __future__ import annotations

from mypy_extensions import mypyc_attr

#: A peg move: (seat, from, to), as :data:`pegs.rules.board_work.Change`.
Move = tuple[int, int, int]


@mypyc_attr(acyclic=True)  # holds no objects that could refer back to it
class Part:
    """One peg's part of a split on the unchanged board: where it lands, the doors its hits
    send pegs to (its landing reads or changes those holes and the one it lands on), the
    holes a 7 or 9 walks over (its way, where its own colour would stop it: see
    :func:`pegs.rules.pairs.on_way`), and, if legal, the pegs it moves and how much that
    changes the layout's key (:attr:`Geometry.keys`)."""

    __slots__ = ("changes", "doors", "dst", "forward", "hit", "home_hi", "home_lo", "key",
                 "legal", "seat", "src", "walk")

    def __init__(self, seat: int, src: int, dst: int, forward: bool, key: int,
                 hits: tuple[Move, ...] = (), legal: bool = True,
                 doors: tuple[int, ...] = (), walk: int = 0, home_lo: int = 0,
                 home_hi: int = 0) -> None:
        self.seat = seat
        self.src = src
        self.dst = dst
        self.forward = forward
        #: A part that hits moves the pegs of ``changes`` (its own last); one that does not
        #: moves only its own peg, and ``changes`` is empty (see :meth:`moves`).
        self.hit = bool(hits)
        self.changes = hits
        self.legal = legal
        self.key = key
        self.doors = doors
        #: The way: ring holes walked from the peg (forward if above zero, backward if
        #: below), and home holes ``home_lo`` to ``home_hi`` (not included).
        self.walk = walk
        self.home_lo = home_lo
        self.home_hi = home_hi

    def moves(self) -> tuple[Move, ...]:
        """The peg moves the part makes: its hits' and its own, the last."""
        return self.changes if self.hit else ((self.seat, self.src, self.dst),)


#: Entries per peg position in :meth:`Geometry.plain_parts`: forward parts of size n at n,
#: forward parts into home at 10 + n, backward parts at 20 + n (n from 1 to 9).
PLAIN_SLOTS = 30
