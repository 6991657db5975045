"""The move picker: narrow the legal actions the way a player thinks (pure functions).

A move is chosen in levels: the card (or a decision: doubt, pass, the peg to send back),
the rank it is declared as (Bluffing Joker), the peg that moves (or the discard), the
second peg of a split, and finally the move itself.  Every option at every level comes
from the legal action list; a level with a single option is taken without asking (except
the card, which the player always picks), and the picker ends with a legal action.  A split
may be started from either of its pegs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from itertools import permutations

from ..notation import CARD_WORDS, NUMBER_WORDS, SEAT_COLOURS
from ..rules import RANKS, Action, Geometry
from ..rules.board import START

LEVELS = ("card", "declare", "peg", "second", "move")
PROMPTS = {
    "card": "Choose a card",
    "declare": "Declare the face-down card as",
    "peg": "Choose the peg to move",
    "second": "Choose the second peg of the split",
    "move": "Choose the move",
}
DISCARD = "discard"
NO_SECOND = "whole"

Spot = tuple[int, int]  # (seat, position) of a peg
Path = tuple[str, ...]


@dataclass(frozen=True)
class Choice:
    """One option of a level: the key that picks it, its label, the peg it names and
    (for a whole move) the holes its pegs go to."""

    key: str
    label: str
    spot: Spot | None = None
    targets: tuple[Spot, ...] = ()


def owner_and_position(geo: Geometry, pegs: Sequence[Sequence[int]], mover: int,
                       text: str) -> Spot:
    """The peg a step's source names: ``S``, ``S@2``, ``0.5`` or ``H1@3`` (seat -1 for a
    ring hole that is empty before the move: a peg the move's own first step puts there)."""
    name, _, owner = text.partition("@")
    pos = geo.parse(name)
    if owner:
        return int(owner), pos
    if 0 <= pos < geo.ring_size:
        for seat, mine in enumerate(pegs):
            if pos in mine:
                return seat, pos
        return -1, pos
    return mover, pos


def peg_label(geo: Geometry, spot: Spot) -> str:
    """``R peg at 12 (0.12)``, ``B peg in START``, ``R peg at 22 (H2)``."""
    seat, pos = spot
    if seat < 0:
        return f"peg at {geo.pegoo_number(pos)} ({geo.name(pos)})"
    letter = SEAT_COLOURS[seat][1]
    if pos == START:
        return f"{letter} peg in START"
    return f"{letter} peg at {geo.pegoo_number(pos)} ({geo.name(pos)})"


def card_word(rank: str) -> str:
    return CARD_WORDS.get(rank, rank)


def paths(action: Action) -> list[Path]:
    """The key paths that lead to ``action``: one per order of its steps (the listed
    order first)."""
    if action.decision:
        return [(action.decision, "", "", "", str(action))]
    if not action.steps:
        return [(action.card, action.declared, DISCARD, "", str(action))]
    head = (DISCARD + "+") if action.discard else ""
    out: list[Path] = []
    for order in permutations(action.steps):
        second = order[1].src if len(order) > 1 else NO_SECOND
        out.append((action.card, action.declared, head + order[0].src, second, str(action)))
    return out


@dataclass(frozen=True)
class Picker:
    """The choices made so far over a fixed list of legal actions."""

    routes: tuple[tuple[Path, Action], ...]
    chosen: Path
    say: Callable[[Action], str]  # words a whole move
    peg_names: dict[str, tuple[str, Spot]]  # step source -> (label, peg)
    geo: Geometry
    mover: int

    @classmethod
    def build(
        cls,
        legal: Sequence[Action],
        geo: Geometry,
        pegs: Sequence[Sequence[int]],
        mover: int,
        say: Callable[[Action], str],
    ) -> Picker:
        """A picker over ``legal`` for the seat ``mover``; ``say`` words a whole move."""
        peg_names: dict[str, tuple[str, Spot]] = {}
        for action in legal:
            for step in action.steps:
                if step.src not in peg_names:
                    spot = owner_and_position(geo, pegs, mover, step.src)
                    peg_names[step.src] = (peg_label(geo, spot), spot)

        def on_board(path: Path) -> bool:  # a split starts from a peg that is there now
            src = path[2].removeprefix(DISCARD + "+")
            return src not in peg_names or peg_names[src][1][0] >= 0

        routes = tuple((p, a) for a in legal
                       for i, p in enumerate(paths(a)) if i == 0 or on_board(p))
        return cls(routes, (), say, peg_names, geo, mover)._settle()

    # --- reading ----------------------------------------------------------------------------
    def _matching(self) -> list[tuple[Path, Action]]:
        n = len(self.chosen)
        return [(p, a) for p, a in self.routes if p[:n] == self.chosen]

    @property
    def level(self) -> str:
        return LEVELS[len(self.chosen)] if len(self.chosen) < len(LEVELS) else "done"

    def prompt(self) -> str:
        if self.level == "card" and self.routes and self.routes[0][1].decision:
            return "Decide"
        return PROMPTS.get(self.level, "")

    def actions(self) -> list[Action]:
        """The distinct legal actions still possible."""
        seen: dict[str, Action] = {}
        for _, action in self._matching():
            seen.setdefault(str(action), action)
        return list(seen.values())

    def result(self) -> Action | None:
        """The action once the choices name exactly one."""
        found = self.actions()
        return found[0] if len(found) == 1 and len(self.chosen) > 0 else None

    def options(self) -> list[Choice]:
        """The options of the current level, in the order of the legal list."""
        n = len(self.chosen)
        if n >= len(LEVELS):
            return []
        out: dict[str, Choice] = {}
        for path, action in self._matching():
            key = path[n]
            if key not in out:
                out[key] = self._choice(n, key, action)
        return list(out.values())

    def trail(self) -> list[str]:
        """The labels of the choices made so far (levels with nothing to choose left out)."""
        out = []
        for n, key in enumerate(self.chosen):
            if key and key != NO_SECOND:
                action = next(a for p, a in self.routes if p[: n + 1] == self.chosen[: n + 1])
                out.append(self._choice(n, key, action).label)
        return out

    def _choice(self, n: int, key: str, action: Action) -> Choice:
        level = LEVELS[n]
        if level == "card":
            if action.decision:
                return Choice(key, self.say(action))
            same = {str(a): a for p, a in self.routes if p[0] == key}
            if all(not a.steps for a in same.values()):
                return Choice(key, f"{card_word(key)}: no move, discard it")
            declared = sorted({a.declared for a in same.values() if a.declared},
                              key=RANKS.index)
            moves = len({(a.steps, a.discard) for a in same.values()})
            if declared:
                as_ = "/".join(declared)
                more = f"{moves} move{'s' if moves > 1 else ''}, face down as {as_}"
            elif moves == 1:
                more = self.say(action).removeprefix(card_word(key) + ". ")
                return Choice(key, f"{card_word(key)}: {more}",
                              targets=self.destinations(action))
            else:
                more = f"{moves} moves"
            return Choice(key, f"{card_word(key)}: {more}")
        if level == "declare":
            return Choice(key, f"as {card_word(key)}")
        if level == "peg":
            if key == DISCARD:
                return Choice(key, "discard the card without moving")
            src = key.removeprefix(DISCARD + "+")
            label, spot = self.peg_names[src]
            if key != src:
                label = f"discard the card and move the {label}"
            return Choice(key, label, spot if spot[0] >= 0 else None)
        if level == "second":
            if key == NO_SECOND:
                count = NUMBER_WORDS[int(action.card)] if action.card.isdigit() else "card"
                return Choice(key, f"no split: the whole {count} on one peg")
            label, spot = self.peg_names[key]
            return Choice(key, f"and the {label}", spot if spot[0] >= 0 else None)
        return Choice(key, self.say(action), targets=self.destinations(action))

    def destinations(self, action: Action) -> tuple[Spot, ...]:
        """Where the steps of ``action`` put pegs: (seat, position), the seat only telling
        whose home a home hole is."""
        out = []
        for step in action.steps:
            name, _, owner = step.dst.partition("@")
            out.append((int(owner) if owner else self.mover, self.geo.parse(name)))
        return tuple(out)

    # --- choosing ---------------------------------------------------------------------------
    def pick(self, key: str) -> Picker:
        """The picker after choosing ``key`` at this level (ValueError if not offered)."""
        if key not in {c.key for c in self.options()}:
            raise ValueError(f"{key!r} is not one of the options")
        return replace(self, chosen=(*self.chosen, key))._settle()

    def _settle(self) -> Picker:
        """Take every following level that offers a single option (never the card)."""
        picker = self
        while picker.chosen and picker.result() is None:
            options = picker.options()
            if len(options) != 1:
                break
            picker = replace(picker, chosen=(*picker.chosen, options[0].key))
        return picker

    def back(self) -> Picker:
        """Undo the last choice the player made (levels taken without asking go too)."""
        picker = self
        while picker.chosen:
            picker = replace(picker, chosen=picker.chosen[:-1])
            if len(picker.options()) > 1 or not picker.chosen:
                break
        return picker
