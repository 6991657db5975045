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
"""

from __future__ import annotations

from collections.abc import Sequence

from ..rules import Action
from .codec import ActionCodec


class TurnDecisions:
    """The choices left in one position: the tokens chosen so far and the mask of the next.

    An action's tokens are worked out when first needed: the first choice reads only the
    actions' first tokens (:meth:`ActionCodec.first`), so the whole sequences are made
    only for the actions still in play after it."""

    def __init__(self, codec: ActionCodec, legal: Sequence[Action], mover: int) -> None:
        if not legal:
            raise ValueError("no legal action to decide between")
        self.codec = codec
        self.mover = mover
        self.actions = list(legal)
        self._first = [codec.first(a) for a in self.actions]
        #: the tokens of the actions left after the first choice
        self._sequences: dict[int, tuple[int, ...]] = {}
        #: indices of the actions that still agree with :attr:`prefix`
        self.remaining = list(range(len(self.actions)))
        #: the tokens chosen so far this turn (asked or appended)
        self.prefix: list[int] = []
        self.options: list[int] = self._next_tokens()
        if len(self.remaining) > 1:
            self._append_shared()

    def _next_tokens(self) -> list[int]:
        depth = len(self.prefix)
        if depth == 0:
            return list(dict.fromkeys(self._first))  # every action remains
        end, seqs = self.codec.end, self._sequences
        return list(dict.fromkeys([seqs[i][depth] if len(seqs[i]) > depth else end
                                   for i in self.remaining]))

    def _append_shared(self) -> None:
        """Append tokens while they are forced; set :attr:`options` to the next choice."""
        self.options = self._next_tokens()
        while len(self.options) == 1 and len(self.remaining) > 1:
            self._take(self.options[0])
            self.options = self._next_tokens()

    def _take(self, token: int) -> None:
        depth = len(self.prefix)
        if depth == 0:
            first = self._first
            self.remaining = [i for i in self.remaining if first[i] == token]
            if len(self.remaining) > 1:
                encode, actions, mover = self.codec.encode, self.actions, self.mover
                self._sequences = {i: encode(actions[i], mover) for i in self.remaining}
        elif token == self.codec.end:
            seqs = self._sequences
            self.remaining = [i for i in self.remaining if len(seqs[i]) == depth]
        else:
            seqs = self._sequences
            self.remaining = [i for i in self.remaining
                              if len(seqs[i]) > depth and seqs[i][depth] == token]
        self.prefix.append(token)

    def allowed(self, token: int) -> bool:
        return token in self.options

    def choose(self, token: int) -> Action | None:
        """Take ``token`` (one of :attr:`options`): the action once it is decided, else None
        (and :attr:`options` holds the next choice)."""
        if token not in self.options:
            raise ValueError(f"token {token} is not among the choices {self.options}")
        self._take(token)
        if len(self.remaining) == 1:
            return self.actions[self.remaining[0]]
        self._append_shared()
        return None
