"""Actions as token sequences: the invertible mapping behind the environments' action space.

A table has a fixed vocabulary of tokens (numbered from 0, ``ActionCodec.size`` of them)::

    card:R      the card played, R in A 2 .. 10 J Q K Joker        (14 tokens)
    as:R        the rank declared for a face-down card (Bluffing)  (14)
    discard     the card is discarded                               (1)
    end         the action ends here (only where a longer one shares its start)  (1)
    op:O        how a step moves: > < ~ and the same with x (a hit) (6)
    start@q     seat q's start                                      (players)
    ring:s.h    ring hole s.h                                       (ring holes)
    home:Hk@q   seat q's home hole k                                (players * home holes)
    doubt, pass, send   the Bluffing Joker decisions                (3)

An action of seat ``m`` is the sequence ``card:R [as:D] [discard] (FROM TO op:O)*`` with
positions in absolute terms (``S`` of the mover is ``start@m``; ``S@q`` is ``start@q``), so
``7: 0.5>0.8, H1>H3`` of seat 2 is ``card:7 ring:0.5 ring:0.8 op:> home:H1@2 home:H3@2
op:>``.  A decision is ``doubt``, ``pass`` or ``send ring:s.h``.  :meth:`encode` and
:meth:`decode` are inverse: ``decode(encode(a, m), m) == a`` for every action.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..rules import RANKS, Action, NotationError, Rules, Step, geometry, parse_rank, rank_text
from ..rules.code_list import code_rank, move_back, move_from, move_seat, move_to

OPS = (">", ">x", "<", "<x", "~", "~x")
#: Most steps an action makes (a split); the observation's token fields hold this many.
MAX_STEPS: Final = 2
#: Longest token sequence: card, declaration, discard, three tokens a step, end.
MAX_TOKENS: Final = 3 + 3 * MAX_STEPS + 1


class ActionCodec:
    """The token vocabulary of one table and the mapping of actions to tokens and back."""

    def __init__(self, rules: Rules) -> None:
        geo = geometry(rules)
        self.rules = rules
        self.players = rules.players
        self.home_holes = rules.home_holes
        names = [f"card:{rank_text(r)}" for r in RANKS]
        names += [f"as:{rank_text(r)}" for r in RANKS]
        names += ["discard", "end"]
        names += [f"op:{o}" for o in OPS]
        names += [f"start@{q}" for q in range(rules.players)]
        names += [f"ring:{n}" for n in geo.ring_names]
        names += [f"home:H{k}@{q}" for q in range(rules.players)
                  for k in range(1, rules.home_holes + 1)]
        names += ["doubt", "pass", "send"]
        #: token number -> its name, as listed in the module docstring
        self.names: tuple[str, ...] = tuple(names)
        self.index: dict[str, int] = {n: i for i, n in enumerate(names)}
        self.size = len(names)
        self.end = self.index["end"]
        self._ring = {n: self.index[f"ring:{n}"] for n in geo.ring_names}
        self._card = {r: self.index[f"card:{rank_text(r)}"] for r in RANKS}
        self._declared = {r: self.index[f"as:{rank_text(r)}"] for r in RANKS}
        self._op = {(o, hit): self.index[f"op:{o}{'x' if hit else ''}"]
                    for o in (">", "<", "~") for hit in (False, True)}
        self._decision = {w: self.index[w] for w in ("doubt", "pass", "send")}
        #: per mover, the token of every position text as that seat writes it
        self._places: dict[int, dict[str, int]] = {}
        #: the token of each card, by rank index (in ``RANKS``)
        self.card_tokens = tuple(self._card[r] for r in RANKS)
        #: ``places[q][pos + 1]``: the token of seat ``q``'s peg at ``pos`` (start -1, the
        #: ring, then the home holes)
        where = self._positions(-1)
        self.places = tuple(tuple(where[name] for name in row) for row in geo.names_for(-1))
        self.ring_size = geo.ring_size
        #: the op tokens of a one-peg move: forward, forward with a hit, back, back with one
        self._move_ops = (self._op[">", False], self._op[">", True], self._op["<", False],
                          self._op["<", True])

    def __reduce__(self) -> tuple[object, ...]:
        return (ActionCodec, (self.rules,))

    # --- positions -------------------------------------------------------------------------
    def _positions(self, mover: int) -> dict[str, int]:
        """Position text -> token, as seat ``mover`` writes positions (ring holes, ``S``,
        ``Hk`` and, of any seat, ``S@q`` and ``Hk@q``)."""
        places = self._places.get(mover)
        if places is None:
            places = dict(self._ring)
            holes = range(1, self.home_holes + 1)
            for q in range(self.players):
                places[f"S@{q}"] = self.index[f"start@{q}"]
                places.update({f"H{k}@{q}": self.index[f"home:H{k}@{q}"] for k in holes})
            if 0 <= mover < self.players:
                places["S"] = self.index[f"start@{mover}"]
                places.update({f"H{k}": self.index[f"home:H{k}@{mover}"] for k in holes})
            self._places[mover] = places
        return places

    @staticmethod
    def _position_text(name: str, mover: int) -> str:
        """Notation of position token ``name`` as seat ``mover`` writes it."""
        kind, _, rest = name.partition(":")
        if kind == "ring":
            return rest
        place, _, owner = (rest if kind == "home" else "S@" + name.partition("@")[2]).partition(
            "@")
        return place if int(owner) == mover else f"{place}@{owner}"

    # --- actions ---------------------------------------------------------------------------
    def encode(self, action: Action, mover: int) -> tuple[int, ...]:
        """The tokens of ``action`` made by seat ``mover``."""
        if action.decision:
            word, _, target = action.decision.partition(" ")
            if word == "send":
                return (self._decision["send"], self._ring[target])
            return (self._decision[word],)
        out = [self._card[action.card]]
        if action.declared:
            out.append(self._declared[action.declared])
        if action.discard:
            out.append(self.index["discard"])
        steps = action.steps
        if steps:
            if len(steps) > MAX_STEPS:
                raise NotationError(f"{action} has more than {MAX_STEPS} steps")
            places = self._positions(mover)
            for step in steps:
                src, dst = places.get(step.src), places.get(step.dst)
                if src is None or dst is None:
                    text = step.dst if src is not None else step.src
                    raise NotationError(f"{text!r} is not a position of this table")
                out += (src, dst, self._op[step.op, step.hit])
        return tuple(out)

    def move_tokens(self, code: int, pegs: Sequence[Sequence[int]]
                    ) -> tuple[int, int, int, int]:
        """The tokens of the one-peg move of ``code`` (a :data:`~pegs.rules.coded.MOVE`
        code, :func:`~pegs.rules.code_list.move_code`) on the board ``pegs``: a move onto
        another seat's peg is a hit."""
        seat, dst = move_seat(code), move_to(code)
        places = self.places[seat]
        hit = 0
        if 0 <= dst < self.ring_size:
            for q in range(len(pegs)):
                if q != seat and dst in pegs[q]:
                    hit = 1
                    break
        return (self.card_tokens[code_rank(code)], places[move_from(code) + 1], places[dst + 1],
                self._move_ops[2 * move_back(code) | hit])

    def first(self, action: Action) -> int:
        """The first token of :meth:`encode` (the card, or the decision)."""
        if action.decision:
            return self._decision[action.decision.partition(" ")[0]]
        return self._card[action.card]

    def decode(self, tokens: Sequence[int], mover: int) -> Action:
        """The action that ``tokens`` name for seat ``mover`` (an ``end`` token is ignored);
        :class:`NotationError` if they name none."""
        names = [self.names[t] for t in tokens if t != self.end]
        if not names:
            raise NotationError("no tokens")
        head = names[0]
        if head in ("doubt", "pass") and len(names) == 1:
            return Action("", decision=head)
        if head == "send" and len(names) == 2 and names[1].startswith("ring:"):
            return Action("", decision=f"send {names[1][5:]}")
        if not head.startswith("card:"):
            raise NotationError(f"an action starts with a card, not {head!r}")
        card, i, declared, discard = parse_rank(head[5:]), 1, "", False
        if i < len(names) and names[i].startswith("as:"):
            declared, i = parse_rank(names[i][3:]), i + 1
        if i < len(names) and names[i] == "discard":
            discard, i = True, i + 1
        steps: list[Step] = []
        while i < len(names):
            src, dst, op = [*names[i:i + 3], "", ""][:3]
            if not (_is_position(src) and _is_position(dst) and op.startswith("op:")):
                raise NotationError(f"a step is FROM TO op:O, not {' '.join(names[i:i + 3])}")
            steps.append(Step(self._position_text(src, mover), self._position_text(dst, mover),
                              op[3], op.endswith("x")))
            i += 3
        return Action(card, tuple(steps), discard, declared)

    def text(self, tokens: Sequence[int]) -> str:
        """The token names, space-separated (for messages and logs)."""
        return " ".join(self.names[t] for t in tokens)



def _is_position(name: str) -> bool:
    return name.startswith(("start@", "ring:", "home:"))
