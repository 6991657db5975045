"""Actions and their canonical notation.

An :class:`Action` is a small immutable value: the card that leaves the hand and the
steps it makes.  ``str(action)`` is the canonical text and ``Action.parse`` reads it
back to the identical value::

    9: H3>H4, 0.5<3.17      a nine split: H3 forward to H4, 0.5 back to 3.17
    A: S>0.5                coming out
    6: 0.11>0.17x           a move that lands on (hits) another colour
    2: 0.11~2.4             a swap
    J*: S>2.7x              a joker
    5: discard              a discard without a move

Positions are ``S`` (start), ``s.h`` (ring side s hole h) and ``Hk`` (home hole k).  A
start or home position of a peg that is not the mover's own carries its owner:
``S@2``, ``H3@2``.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from .errors import NotationError
from .settings import RANKS

JOKER_TEXT = "J*"
_CARD_ALIASES = {"JOKER": "Joker", "J*": "Joker", "*": "Joker", "JK": "Joker", "1": "A"}
_POS = r"(?:S(?:@\d+)?|H\d+(?:@\d+)?|\d+\.\d+)"
_STEP_RE = re.compile(rf"^({_POS})([<>~])({_POS})(x?)$")


def parse_rank(text: str) -> str:
    """A card rank from text (``A 2 .. 10 J Q K Joker``, case-insensitive; ``J*`` is the joker)."""
    t = text.strip()
    up = t.upper()
    if up in _CARD_ALIASES:
        return _CARD_ALIASES[up]
    for rank in RANKS:
        if rank.upper() == up:
            return rank
    raise NotationError(f"{text!r} is not a card: use A, 2-10, J, Q, K or Joker")


def rank_text(rank: str) -> str:
    """The canonical short text of a rank (``J*`` for the joker)."""
    return JOKER_TEXT if rank == "Joker" else rank


class Step(NamedTuple):
    """One peg movement: from ``src`` to ``dst`` by ``op`` (``>`` forward or jump,
    ``<`` backward, ``~`` swap); ``hit`` when it lands on another colour."""

    src: str
    dst: str
    op: str
    hit: bool = False

    def __str__(self) -> str:
        return f"{self.src}{self.op}{self.dst}{'x' if self.hit else ''}"

    @classmethod
    def parse(cls, text: str) -> Step:
        m = _STEP_RE.match(text.strip())
        if not m:
            raise NotationError(
                f"{text.strip()!r} is not a step: write FROM>TO, FROM<TO or A~B with positions "
                "S, s.h or Hk (e.g. S>0.5, 0.5<3.17, H1>H3)"
            )
        return cls(m.group(1), m.group(3), m.group(2), bool(m.group(4)))


class Action(NamedTuple):
    """A card played (or discarded) and the steps it makes.

    ``declared`` is the announced rank of a face-down card (Bluffing Joker) and
    ``decision`` names a non-card decision; both are empty for ordinary plays.
    """

    card: str
    steps: tuple[Step, ...] = ()
    discard: bool = False
    declared: str = ""
    decision: str = ""

    def __str__(self) -> str:
        if self.decision:
            return self.decision
        head = rank_text(self.card)
        if self.declared:
            head += f" as {rank_text(self.declared)}"
        parts = ["discard"] if self.discard else []
        parts += [str(s) for s in self.steps]
        return f"{head}: {', '.join(parts)}"

    @classmethod
    def parse(cls, source: object) -> Action:
        """The action written in canonical notation; :class:`NotationError` if malformed
        (or not text at all: the text may come straight from a file or a message)."""
        if not isinstance(source, str):
            raise NotationError(f"an action must be text, not {type(source).__name__}")
        text = source
        word = text.strip()
        if word in ("doubt", "pass"):
            return cls("", decision=word)
        if word.startswith("send "):
            target = word[5:].strip()
            if not re.fullmatch(r"\d+\.\d+", target):
                raise NotationError(f"{word!r}: write 'send s.h' with the ring hole of the peg")
            return cls("", decision=f"send {target}")
        head, colon, body = text.partition(":")
        if not colon:
            raise NotationError(
                f"{text!r} has no ':'; write CARD: STEPS, e.g. '7: 0.5>0.9, 0.12>0.15' "
                "or '5: discard'"
            )
        card_text, _, declared_text = head.strip().partition(" as ")
        card = parse_rank(card_text)
        declared = parse_rank(declared_text) if declared_text else ""
        items = [p.strip() for p in body.split(",")]
        discard = False
        if items and items[0] == "discard":
            discard = True
            items = items[1:]
        if items == [""] and not discard:
            raise NotationError(f"{text!r} has no steps")
        steps = tuple(Step.parse(p) for p in items if p or not discard)
        if not steps and not discard:
            raise NotationError(f"{text!r} has no steps")
        return cls(card, steps, discard, declared)


def owned(name: str, owner: int, mover: int) -> str:
    """A start or home position's text, with ``@owner`` when the peg is not the mover's."""
    return name if owner == mover or "." in name else f"{name}@{owner}"
