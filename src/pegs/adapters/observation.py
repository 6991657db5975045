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

import struct
from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from ..rules import RANKS, Action, Rules, View, geometry
from ..rules.bluff import Pending
from ..rules.board import START
from .codec import MAX_TOKENS, ActionCodec

Vector = npt.NDArray[np.int16]
RANK_INDEX: Final = {r: i for i, r in enumerate(RANKS)}
STUCK_CAP: Final = 100
EXTRA_CAP: Final = 10


class ObservationEncoder:
    """The observation layout of one table, and the encoding of views into it."""

    def __init__(self, rules: Rules, codec: ActionCodec, relative: bool = False) -> None:
        self.rules = rules
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
        #: where each field starts in the vector
        self._at = {name: cut.start for name, (cut, _) in self.slices.items()}
        #: the vector's parts packed as bytes: each seat's one-hot field and the field of
        #: none; pegs to hidden discards; stuck to extra; piles and pending fields
        pegs = p * rules.pegs
        self._one_hot = [struct.pack(f"{p}h", *[int(q == s) for q in range(p)])
                         for s in range(p)]
        self._none = bytes(2 * p)
        self._board = struct.Struct(f"{pegs + ranks + p + 1 + ranks + 1}h")
        self._counters = struct.Struct(f"{3 * p}h")
        self._piles = struct.Struct(f"{p * ranks}h")
        self._no_piles = bytes(2 * p * ranks)
        self._pending = struct.Struct(f"{6 + MAX_TOKENS}h")
        self._no_pending = bytes(2 * (6 + MAX_TOKENS))
        self._no_prefix = bytes(2 * MAX_TOKENS)
        self._prefix_at = self._at["prefix"]
        #: the last view encoded and its vector without the prefix (a turn of several
        #: steps shows the same view), and the last discards counted with their counts
        self._last: tuple[View | None, Vector] = (None, self.high)
        self._discards: tuple[tuple[str, ...], list[int]] = ((), [0] * len(RANKS))

    def __reduce__(self) -> tuple[object, ...]:
        return (ObservationEncoder, (self.rules, self.codec, self.relative))

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
        last, vector = self._last
        if v is not last:
            vector = np.frombuffer(self._packed(v), dtype=np.int16)
            self._last = (v, vector)
        out = vector.copy()
        at = self._prefix_at
        for t in prefix:
            out[at] = t + 1
            at += 1
        return out

    def _packed(self, v: View) -> bytes:
        """The vector of the view (the prefix 0) as bytes."""
        one_hot, none = self._one_hot, self._none
        board = [0 if pos == START else pos + 1 for seat in v.pegs for pos in seat]
        hand = [0] * len(RANKS)
        for card in v.hand:
            hand[RANK_INDEX[card]] += 1
        board += hand
        board += v.hand_sizes
        board.append(v.draw_pile_size)
        board += self._discard_counts(v.discards)
        board.append(v.hidden_discards)
        counters = [s if s < STUCK_CAP else STUCK_CAP for s in v.stuck]
        counters += [1 if t > 0 else 0 for t in v.turns_taken]
        counters += [e if e < EXTRA_CAP else EXTRA_CAP for e in v.extra]
        return b"".join([
            one_hot[v.seat] if v.seat >= 0 else none,
            one_hot[v.current_player] if v.outcome is None else none,
            one_hot[v.turn],
            self._board.pack(*board),
            self._pile_counts(v.piles),
            self._counters.pack(*counters),
            self._pending_fields(v.pending),
            self._no_prefix,
        ])

    def _pile_counts(self, piles: tuple[tuple[str, ...], ...]) -> bytes:
        if not any(piles):
            return self._no_piles
        counts = [0] * (len(piles) * len(RANKS))
        for i in range(len(piles)):
            for card in piles[i]:
                counts[i * len(RANKS) + RANK_INDEX[card]] += 1
        return self._piles.pack(*counts)

    def _pending_fields(self, pending: Pending | None) -> bytes:
        """The pending declaration and its tokens (each + 1: 0 is none or not known)."""
        if pending is None:
            return self._no_pending
        act = pending.action
        tokens = self.codec.encode(Action(act.declared, act.steps, act.discard),
                                   pending.declarer)
        return self._pending.pack(
            pending.declarer + 1, RANK_INDEX[act.declared] + 1, RANK_INDEX.get(act.card, -1) + 1,
            pending.asked + 1, pending.chooser + 1, pending.victim + 1,
            *[t + 1 for t in tokens], *[0] * (MAX_TOKENS - len(tokens)))

    def _discard_counts(self, discards: tuple[str, ...]) -> list[int]:
        """The discards counted by rank; the discards of the last view counted again
        only where they grew."""
        old, counts = self._discards
        if discards is not old:
            n = len(old)
            if len(discards) >= n and discards[:n] == old:
                counts, tail = counts.copy(), discards[n:]
            else:
                counts, tail = [0] * len(RANKS), discards
            for card in tail:
                counts[RANK_INDEX[card]] += 1
            self._discards = (discards, counts)
        return counts

