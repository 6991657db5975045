"""A seat's view as one fixed-shape integer vector, built from :func:`pegs.rules.view` only.

The vector (``int16``) is the concatenation of these fields, in this order; seats are
absolute (seat 0 first), ``P`` is the number of seats, ``K`` the pegs per seat, ``R`` the
ring holes, ranks are in the order ``A 2 .. 10 J Q K Joker`` (14) and ``T`` is
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

    def __init__(self, rules: Rules, codec: ActionCodec) -> None:
        self.codec = codec
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

    def encode(self, v: View, prefix: Sequence[int] = ()) -> Vector:
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
