"""A turn as consecutive token choices of the same seat, each from a mask.

The legal actions of a position, encoded by :class:`~pegs.adapters.codec.ActionCodec`, form
a tree of token sequences.  The seat to act walks it from the root: each choice appends one
token, and tokens that every remaining action shares are appended without asking (so a
turn whose actions all use the same card starts at the peg).  Once one action is left it is
the one played.  Where a legal action ends and a longer one goes on with the same tokens,
``end`` is offered beside the longer one's next token.  The first choice of a turn is always
asked, even when a single action is legal, so every turn takes at least one step.

Every sequence of masked choices therefore ends in exactly one legal action, and every
legal action is reached by exactly one sequence.

The tree is read off the engine's integer codes (:meth:`GameState.legal_codes`), and an
:class:`Action` is made only where a code's tokens cannot be read off the code itself:
a one-peg move's or a discard's card (and a one-peg move's whole tokens) are fields of
its code.  The counted actions (the codes after the listed ones: North Carolina's tens,
most splits) come card by card, so the first choice reads their cards only where they
change (found by bisection), and after it only the actions of the chosen card are made.
The module is compiled with mypyc (``setup.py``), like the engine.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..rules import Action, GameState
from ..rules.code_list import code_number, code_rank, kind_of
from ..rules.powers import DEFERRED, DISCARD, MOVE
from .codec import ActionCodec


class TurnDecisions:
    """The choices left in one position: the tokens chosen so far and the mask of the next.

    The tokens of an action are worked out when first needed: the first choice needs only
    each action's card, so whole sequences are made only for the actions still in play
    after it.  A copy (``copy.copy``) takes the choices made so far along; a pickle holds
    the position and the tokens chosen, and chooses them again when loaded."""

    #: the legal codes, in the engine's order
    codes: Sequence[int]
    #: the actions made so far, by index in :attr:`codes`
    _made: dict[int, Action]
    #: the first token of each listed code, then (token, start, stop) of each run of
    #: counted codes with the same card
    _first: list[int]
    _runs: list[tuple[int, int, int]]
    #: after the first choice, the tokens of each action still in play: its sequence,
    #: ``end``, and its index in :attr:`codes` (only the index once one is left)
    _left: list[tuple[int, ...]]
    #: the tokens chosen so far this turn (asked or appended)
    prefix: list[int]
    #: the tokens that may be chosen next
    options: list[int]

    def __init__(self, codec: ActionCodec, state: GameState,
                 like: TurnDecisions | None = None) -> None:
        """The choices of the seat to act in ``state``; with ``like`` (of the same
        position), a copy of it."""
        self.codec = codec
        self.state = state
        self.mover = state.current_player
        if like is not None:
            self.codes, self._made = like.codes, like._made
            self._first, self._runs, self._left = like._first, like._runs, like._left
            self.prefix, self.options = list(like.prefix), like.options
            return
        codes = state.legal_codes()
        n = len(codes)
        if not n:
            raise ValueError("no legal action to decide between")
        self.codes = codes
        self._made = {}
        last = codes[n - 1]
        listed = n - 1 - code_number(last) if kind_of(last) == DEFERRED else n
        self._first = self._first_tokens(listed)
        self._runs = self._card_runs(listed, n) if listed < n else []
        self._left = []
        self.prefix = []
        self.options = distinct(self._first + [run[0] for run in self._runs])
        if n > 1 and len(self.options) == 1:
            self._take(self.options[0])
            self._append_shared()

    def __copy__(self) -> TurnDecisions:
        return TurnDecisions(self.codec, self.state, self)

    def __reduce__(self) -> tuple[object, ...]:
        return (chosen_again, (self.codec, self.state, list(self.prefix)))

    def _action(self, i: int) -> Action:
        made = self._made.get(i)
        if made is None:
            made = self.state.action_of(self.codes[i])
            self._made[i] = made
        return made

    def _first_tokens(self, stop: int) -> list[int]:
        """The first tokens of codes 0 to ``stop``."""
        codes = self.codes
        listed: tuple[int, ...] = (codes if isinstance(codes, tuple)
                                   else tuple([codes[i] for i in range(stop)]))
        cards = self.codec.card_tokens
        out: list[int] = []
        for i in range(stop):
            code = listed[i]
            kind = kind_of(code)
            if kind in (MOVE, DISCARD):
                out.append(cards[code_rank(code)])
            else:
                out.append(self.codec.first(self._action(i)))
        return out

    def _card_runs(self, start: int, stop: int) -> list[tuple[int, int, int]]:
        """The runs of counted codes ``start`` to ``stop`` with the same card, each found by
        bisection (the counted codes of one card are consecutive)."""
        codec = self.codec
        runs: list[tuple[int, int, int]] = []
        while start < stop:
            token = codec.first(self._action(start))
            lo, hi = start + 1, stop  # the run ends in [lo, hi]
            if codec.first(self._action(stop - 1)) == token:
                lo = stop
            while lo < hi:
                mid = (lo + hi) // 2
                if codec.first(self._action(mid)) == token:
                    lo = mid + 1
                else:
                    hi = mid
            runs.append((token, start, lo))
            start = lo
        return runs

    def tokens(self, i: int) -> tuple[int, ...]:
        """The tokens of the ``i``-th legal action (:meth:`ActionCodec.encode`)."""
        return self._sequences([i])[0][:-2]

    def _sequences(self, indices: list[int]) -> list[tuple[int, ...]]:
        """The tokens of the actions of ``indices``, each followed by ``end`` and its
        index."""
        codec, codes, end = self.codec, self.codes, self.codec.end
        pegs = self.state.pegs
        out: list[tuple[int, ...]] = []
        for i in indices:
            code = codes[i]
            if kind_of(code) == MOVE:
                card, src, dst, op = codec.move_tokens(code, pegs)
                out.append((card, src, dst, op, end, i))
            else:
                out.append((*codec.encode(self._action(i), self.mover), end, i))
        return out

    def _append_shared(self) -> None:
        """Append tokens while they are forced; set :attr:`options` to the next choice."""
        options = self._next_tokens()
        while len(options) == 1 and len(self._left) > 1:
            self._take(options[0])
            options = self._next_tokens()
        self.options = options

    def _next_tokens(self) -> list[int]:
        depth = len(self.prefix)
        out: list[int] = []
        for s in self._left:
            token = s[depth]
            if token not in out:
                out.append(token)
        return out

    def _take(self, token: int) -> None:
        depth = len(self.prefix)
        if depth == 0:
            first = self._first
            chosen = [i for i in range(len(first)) if first[i] == token]
            for run_token, start, stop in self._runs:
                if run_token == token:
                    chosen.extend(range(start, stop))
            self._left = self._sequences(chosen) if len(chosen) > 1 else [(chosen[0],)]
        else:
            self._left = [s for s in self._left if s[depth] == token]
        self.prefix.append(token)

    def allowed(self, token: int) -> bool:
        return token in self.options

    def choose(self, token: int) -> int | None:
        """Take ``token`` (one of :attr:`options`): the code of the action once it is
        decided, else None (and :attr:`options` holds the next choice)."""
        if token not in self.options:
            raise ValueError(f"token {token} is not among the choices {self.options}")
        self._take(token)
        if len(self._left) == 1:
            return self.codes[self._left[0][-1]]
        self._append_shared()
        return None


def distinct(tokens: list[int]) -> list[int]:
    """``tokens`` without repeats, in order."""
    out: list[int] = []
    for token in tokens:
        if token not in out:
            out.append(token)
    return out


def chosen_again(codec: ActionCodec, state: GameState, prefix: list[int]) -> TurnDecisions:
    """The choices of ``state`` after the tokens ``prefix`` (those appended without
    asking are appended again): how a pickled :class:`TurnDecisions` is loaded."""
    d = TurnDecisions(codec, state)
    for i in range(len(prefix)):
        if i >= len(d.prefix):
            d.choose(prefix[i])
    return d
