"""Board geometry: the ring, out-holes, doors, start and home, as small integers.

A position is an ``int``: ``START`` (-1) for a start hole, ``0 .. R-1`` for the ring
(side ``s`` hole ``h`` is ``s*H + h - 1``), and ``R + k - 1`` for home hole ``Hk`` of the
peg's owner.  Ring holes have canonical names ``s.h``; home holes ``Hk``; start ``S``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from librt.vecs import vec
from mypy_extensions import i64

from .part import PLAIN_SLOTS, Part
from .settings import Rules

START: Final = -1


class Geometry:
    """Everything about a table that follows from the settings alone."""

    __slots__ = (
        "_names",
        "_plain",
        "all_home",
        "door",
        "flat_keys",
        "holes_per_side",
        "home_holes",
        "keys",
        "no_pegs",
        "opponent",
        "out_hole",
        "partners",
        "pegs",
        "players",
        "ring_names",
        "ring_size",
        "rules",
        "side_of",
        "team_of",
        "team_seats",
    )

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        n, sides, h = rules.players, rules.sides, rules.holes_per_side
        self.players = n
        self.holes_per_side = h
        self.ring_size = sides * h
        self.pegs = rules.pegs
        self.home_holes = rules.home_holes
        self.side_of = tuple(p * sides // n for p in range(n))
        self.out_hole = tuple(s * h + 4 for s in self.side_of)
        self.door = tuple((s * h - 1) % self.ring_size for s in self.side_of)
        self.ring_names = tuple(f"{i // h}.{i % h + 1}" for i in range(self.ring_size))
        t = rules.teams
        self.team_of = tuple((p % t) if t else p for p in range(n))
        self.team_seats = tuple(
            tuple(q for q in range(n) if self.team_of[q] == self.team_of[p]) for p in range(n)
        )
        # opponent[a][b]: is b an opponent of a (different team)?
        self.opponent = tuple(
            tuple(self.team_of[a] != self.team_of[b] for b in range(n)) for a in range(n)
        )
        # partners of p in clockwise order starting after p
        self.partners = tuple(
            tuple(
                q for q in ((p + i) % n for i in range(1, n)) if self.team_of[q] == self.team_of[p]
            )
            for p in range(n)
        )
        self._names: dict[int, tuple[tuple[str, ...], ...]] = {}
        #: The plain parts (see :meth:`plain_parts`) of every seat and position, made when
        #: first needed: one list, as every list is a load on the cycle collector.
        self._plain: list[Part | None] = []
        base = self.ring_size + rules.home_holes - rules.pegs
        self.all_home = tuple(range(base, base + rules.pegs))
        #: keys[q][pos + 1]: a fixed 40-bit number per seat and position.  The sum over a
        #: layout's pegs is a key of the layout: layouts with different sums differ.
        self.keys = _position_keys(n, self.ring_size + rules.home_holes + 1)
        #: The same keys in one native array, ``keys[q]`` from ``q * len(keys[q])`` on.
        self.flat_keys = vec[i64]([key for row in self.keys for key in row])
        #: A ring with no peg (-1 in every hole), copied to make a board's occupancy (a
        #: native copy: no reference counts to make and drop).
        self.no_pegs = vec[i64]([-1] * self.ring_size)

    def plain_parts(self, seat: int, pos: int) -> tuple[list[Part | None], int]:
        """The split parts that hit nobody, as far as made, and where those of the peg of
        ``seat`` at ``pos`` start (see :data:`PLAIN_SLOTS`): they follow from the table
        alone, so every position shares them."""
        width = self.ring_size + self.home_holes
        if not self._plain:
            self._plain = [None] * (self.players * width * PLAIN_SLOTS)
        return self._plain, (seat * width + pos) * PLAIN_SLOTS

    # --- names -----------------------------------------------------------------------
    def name(self, pos: int) -> str:
        """Canonical name of a position (no owner): ``S``, ``s.h`` or ``Hk``."""
        if pos < 0:
            return "S"
        if pos < self.ring_size:
            return self.ring_names[pos]
        return f"H{pos - self.ring_size + 1}"

    def parse(self, text: str) -> int:
        """Position from its canonical name; ``ValueError`` if it is not on this board."""
        text = text.strip()
        if text == "S":
            return START
        if text.startswith("H") and text[1:].isdigit():
            k = int(text[1:])
            if 1 <= k <= self.home_holes:
                return self.ring_size + k - 1
            raise ValueError(f"{text}: home holes are H1 to H{self.home_holes}")
        side, dot, hole = text.partition(".")
        if dot and side.isdigit() and hole.isdigit():
            s, h = int(side), int(hole)
            if 0 <= s < self.ring_size // self.holes_per_side and 1 <= h <= self.holes_per_side:
                return s * self.holes_per_side + h - 1
            raise ValueError(
                f"{text}: ring holes are s.h with side 0 to "
                f"{self.ring_size // self.holes_per_side - 1} and hole 1 to {self.holes_per_side}"
            )
        raise ValueError(f"{text!r} is not a position (S, s.h or Hk)")

    def names_for(self, mover: int) -> tuple[tuple[str, ...], ...]:
        """``names_for(m)[q][pos + 1]``: the step text of a peg of seat ``q`` at ``pos`` when
        ``m`` moves it (start and home carry ``@q`` unless ``q`` is ``m``)."""
        table = self._names.get(mover)
        if table is None:
            spots = range(-1, self.ring_size + self.home_holes)
            table = tuple(
                tuple(
                    self.name(p) if q == mover or 0 <= p < self.ring_size else f"{self.name(p)}@{q}"
                    for p in spots
                )
                for q in range(self.players)
            )
            self._names[mover] = table
        return table

    def pegoo_number(self, pos: int) -> str:
        """Pegoo's spoken hole number: the ring hole of its side, home as H+k, START."""
        if pos < 0:
            return "START"
        if pos < self.ring_size:
            return str(pos % self.holes_per_side + 1)
        return str(self.holes_per_side + pos - self.ring_size + 1)


def _position_keys(players: int, positions: int) -> tuple[tuple[int, ...], ...]:
    """Fixed pseudo-random numbers (a 64-bit linear congruential sequence, top 40 bits)."""
    x = 0x2545F4914F6CDD1D
    out = []
    for _ in range(players):
        row = []
        for _ in range(positions):
            x = (x * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
            row.append(x >> 24)
        out.append(tuple(row))
    return tuple(out)


@lru_cache(maxsize=256)
def geometry(rules: Rules) -> Geometry:
    """The (shared, immutable) geometry of a rule set."""
    return Geometry(rules)
