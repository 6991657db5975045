"""A seat's view as one fixed-shape integer vector, built from :func:`pegs.rules.view` only.

The vector (``int16``) is the concatenation of these fields, in this order; seats are
absolute (seat 0 first), or with ``relative=True`` counted from the observing seat (see
*Seat-relative observations* below); ``P`` is the number of seats, ``K`` the pegs per
seat, ``R`` the ring holes, ranks are in the order ``A 2 .. 10 J Q K Joker`` (14) and ``T`` is
:data:`~pegs.adapters.codec.MAX_TOKENS`:

==================  ========  ===============================================================
field               shape     meaning
==================  ========  ===============================================================
``seat``            (P,)      1 at the observing seat
``to_act``          (P,)      1 at the seat to act now (none once the game is over)
``turn``            (P,)      1 at the seat whose turn it is
``pegs``            (P, K)    each peg: 0 start, 1 + i ring hole i (side s hole h is
                              i = s*holes_per_side + h - 1), R + k home hole Hk
``hand``            (14,)     the observing seat's cards, counted by rank
``hand_sizes``      (P,)      every seat's number of cards
``draw_pile``       (1,)      cards left to draw
``discards``        (14,)     the face-up discards, counted by rank
``hidden_discards`` (1,)      face-down discards (Bluffing Joker) the seat may not see
``piles``           (P, 14)   each seat's can't-play pile (Pegoo), counted by rank
``stuck``           (P,)      turns each seat has been unable to move (at most 100)
``started``         (P,)      1 once the seat has taken a turn
``extra``           (P,)      extra turns owed (Bluffing Joker, at most 10)
``pending``         (6,)      a declaration waiting for doubts, each + 1 (0: none or not
                              known): declarer, declared rank, real rank (once turned over, or
                              to the declarer), seat asked, seat choosing a peg, victim
``pending_move``    (T,)      that declaration's tokens (card as declared), each + 1, 0-padded
``prefix``          (T,)      the tokens chosen so far this turn by the observing seat (when
                              it is the seat to act), each + 1, 0-padded
==================  ========  ===============================================================

:meth:`ObservationEncoder.fields` cuts a vector back into these named arrays.

Seat-relative observations (``relative=True``): every seat ``q`` is shown as
``(q - seat) mod P`` (the observing seat first, then the seats after it in turn order)
and the ring is turned by the observing seat's side, so hole ``i`` is shown as
``(i - side * holes_per_side) mod R`` (its own side is side 0); the tokens of
``pending_move`` and ``prefix`` are turned the same way (:meth:`ObservationEncoder.turn`,
also used by the environments to turn the action mask and the chosen token).  Only
``seat`` stays absolute, so a policy may still tell the seats apart.  With as many ring
sides as seats (every preset at 3 or more players) every seat then sees the same game
from its own chair.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ..rules import RANKS, Action, Rules, View, geometry
from ..rules.board import START
from .codec import MAX_TOKENS, ActionCodec

Vector = npt.NDArray[np.int16]
RANK_INDEX = {r: i for i, r in enumerate(RANKS)}
STUCK_CAP = 100
EXTRA_CAP = 10


class ObservationEncoder:
    """The observation layout of one table, and the encoding of views into it."""

    def __init__(self, rules: Rules, codec: ActionCodec, relative: bool = False) -> None:
        self.codec = codec
        self.relative = relative
        self.players = rules.players
        geo = geometry(rules)
        self._shift = [side * geo.holes_per_side for side in geo.side_of]
        self._ring_names = geo.ring_names
        self._turns: dict[int, npt.NDArray[np.intp]] = {}
        p, ranks = rules.players, len(RANKS)
        self.ring = geometry(rules).ring_size
        cards = rules.total_cards
        seats_high = max(p, ranks) + 1
        spec: list[tuple[str, tuple[int, ...], int]] = [
            ("seat", (p,), 1), ("to_act", (p,), 1), ("turn", (p,), 1),
            ("pegs", (p, rules.pegs), self.ring + rules.home_holes),
            ("hand", (ranks,), cards), ("hand_sizes", (p,), cards), ("draw_pile", (1,), cards),
            ("discards", (ranks,), cards), ("hidden_discards", (1,), cards),
            ("piles", (p, ranks), cards), ("stuck", (p,), STUCK_CAP), ("started", (p,), 1),
            ("extra", (p,), EXTRA_CAP), ("pending", (6,), seats_high),
            ("pending_move", (MAX_TOKENS,), codec.size), ("prefix", (MAX_TOKENS,), codec.size),
        ]
        self.slices: dict[str, tuple[slice, tuple[int, ...]]] = {}
        highs: list[int] = []
        at = 0
        for name, shape, high in spec:
            size = int(np.prod(shape))
            self.slices[name] = (slice(at, at + size), shape)
            highs += [high] * size
            at += size
        self.size = at
        self.high: Vector = np.array(highs, dtype=np.int16)

    def fields(self, vector: Vector) -> dict[str, Vector]:
        """The named arrays of an observation vector (views, not copies)."""
        return {name: vector[cut].reshape(shape) for name, (cut, shape) in self.slices.items()}

    def turn(self, seat: int) -> npt.NDArray[np.intp]:
        """Token ``t`` as ``seat`` sees it with ``relative``: ``turn(seat)[t]`` (seats and
        ring holes counted from ``seat``; an identity without ``relative``)."""
        if seat not in self._turns:
            self._turns[seat] = np.arange(self.codec.size, dtype=np.intp)
            if self.relative and seat >= 0:
                self._turns[seat] = np.array(
                    [self.codec.index[self._turn_name(name, seat)]
                     for name in self.codec.names], dtype=np.intp)
        return self._turns[seat]

    def _turn_name(self, name: str, seat: int) -> str:
        kind, _, rest = name.partition(":")
        if name.startswith("start@"):
            return f"start@{(int(name[6:]) - seat) % self.players}"
        if kind == "home":
            hole, _, owner = rest.partition("@")
            return f"home:{hole}@{(int(owner) - seat) % self.players}"
        if kind == "ring":
            i = self._ring_names.index(rest)
            return f"ring:{self._ring_names[(i - self._shift[seat]) % self.ring]}"
        return name

    def encode(self, v: View, prefix: Sequence[int] = ()) -> Vector:
        out = self._encode(v, prefix)
        if not self.relative or v.seat < 0:
            return out
        f = self.fields(out)
        seat, shift = v.seat, self._shift[v.seat]
        for name in ("to_act", "turn", "pegs", "hand_sizes", "piles", "stuck", "started",
                     "extra"):
            f[name][:] = np.roll(f[name].copy(), -seat, axis=0)
        pegs = f["pegs"]
        on_ring = (pegs >= 1) & (pegs <= self.ring)
        pegs[on_ring] = (pegs[on_ring] - 1 - shift) % self.ring + 1
        pending = f["pending"]
        if pending[0]:
            for i in (0, 3, 4, 5):
                if pending[i]:
                    pending[i] = (pending[i] - 1 - seat) % self.players + 1
        turned = self.turn(seat)
        for name in ("pending_move", "prefix"):
            tokens = f[name]
            tokens[tokens > 0] = turned[tokens[tokens > 0] - 1] + 1
        return out

    def _encode(self, v: View, prefix: Sequence[int]) -> Vector:
        out: Vector = np.zeros(self.size, dtype=np.int16)
        f = self.fields(out)
        if v.seat >= 0:
            f["seat"][v.seat] = 1
        if v.outcome is None:
            f["to_act"][v.current_player] = 1
        f["turn"][v.turn] = 1
        f["pegs"][:] = [[self._peg(pos) for pos in seat] for seat in v.pegs]
        _count(f["hand"], v.hand)
        f["hand_sizes"][:] = v.hand_sizes
        f["draw_pile"][0] = v.draw_pile_size
        _count(f["discards"], v.discards)
        f["hidden_discards"][0] = v.hidden_discards
        for seat, pile in enumerate(v.piles):
            _count(f["piles"][seat], pile)
        f["stuck"][:] = [min(s, STUCK_CAP) for s in v.stuck]
        f["started"][:] = [int(t > 0) for t in v.turns_taken]
        f["extra"][:] = [min(e, EXTRA_CAP) for e in v.extra]
        pending = v.pending
        if pending is not None:
            act = pending.action
            real = RANK_INDEX.get(act.card, -1) + 1
            f["pending"][:] = [pending.declarer + 1, RANK_INDEX[act.declared] + 1, real,
                               pending.asked + 1, pending.chooser + 1, pending.victim + 1]
            declared = Action(act.declared, act.steps, act.discard)
            _tokens(f["pending_move"], self.codec.encode(declared, pending.declarer))
        _tokens(f["prefix"], prefix)
        return out

    def _peg(self, pos: int) -> int:
        return 0 if pos == START else pos + 1


def _count(target: Vector, cards: Sequence[str]) -> None:
    for card in cards:
        target[RANK_INDEX[card]] += 1


def _tokens(target: Vector, tokens: Sequence[int]) -> None:
    target[: len(tokens)] = [t + 1 for t in tokens]
