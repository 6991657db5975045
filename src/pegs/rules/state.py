"""The game state: an immutable value; ``apply`` returns the next state.

A game is its settings, its seed and its list of actions.  The shoe is shuffled by a
``random.Random`` seeded from the game seed and kept inside the state; a reshuffle of
the discards copies that generator first, so no state is ever changed after it is made
and the same seed and actions always give the same game.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from . import bluff
from .actions import Action
from .bluff import Pending as Pending
from .board import START, Geometry, geometry
from .board_work import Pegs
from .cards import Draft, build_shoe
from .cards import sorted_hand as _sorted_hand
from .code_list import Listing
from .coded import Coded
from .declared import Choices, Declared
from .errors import IllegalActionError, RulesError
from .listing import RANK_ORDER, MoveMemo, controlled
from .powers import DECISION, DECLARED, DISCARD
from .settings import Rules
from .table import table_of


@dataclass(frozen=True)
class Outcome:
    """The end of a game: the winning team (or seat, without teams) and its seats."""

    team: int
    seats: tuple[int, ...]

    def __reduce__(self) -> tuple[Any, ...]:
        # compiled, a frozen dataclass cannot be restored field by field: rebuild it
        return (Outcome, (self.team, self.seats))


#: The winner of a state not yet found (see ``GameState.__init__``).
UNKNOWN: Final = Outcome(-1, ())


class GameState:
    """One moment of a game.  Never changed after creation; ``apply`` gives the next one."""

    __slots__ = (
        "_listing",
        "_shoe",
        "_top",
        "_winner",
        "discards",
        "extra",
        "face_down",
        "geo",
        "hands",
        "memo",
        "pegs",
        "pending",
        "piles",
        "ply",
        "rng",
        "rules",
        "seed",
        "stuck",
        "turn",
        "turns_taken",
    )

    rules: Rules
    geo: Geometry
    seed: int
    pegs: Pegs
    hands: tuple[tuple[str, ...], ...]
    #: The draw pile is ``_shoe[:_top]`` (its top at the end): drawing lowers ``_top``, so
    #: the states of one shuffle share one tuple.
    _shoe: tuple[str, ...]
    _top: int
    discards: tuple[str, ...]
    piles: tuple[tuple[str, ...], ...]
    turn: int
    stuck: tuple[int, ...]
    turns_taken: tuple[int, ...]
    ply: int
    rng: random.Random
    pending: Pending | None
    extra: tuple[int, ...]
    #: Face-down discards (Bluffing Joker): (seat that played it, index in ``discards``).
    face_down: tuple[tuple[int, int], ...]
    _listing: Listing | None
    _winner: Outcome | None
    #: Card moves shared with the other states of one search (not part of the state).
    memo: MoveMemo | None

    # --- creation ---------------------------------------------------------------------------
    @classmethod
    def new(cls, rules: Rules, seed: object) -> GameState:
        """A freshly dealt game: shuffled shoe, ``hand_size`` cards each, seat 0 to play
        (``seed`` is checked here: it may come straight from a file or a message)."""
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise RulesError(f"seed must be a whole number, not {seed!r}")
        rng = random.Random(seed)
        shoe = build_shoe(rules)
        rng.shuffle(shoe)
        n = rules.players
        hands = [shoe[i * rules.hand_size:(i + 1) * rules.hand_size] for i in range(n)]
        pile = shoe[n * rules.hand_size:]
        pile.reverse()  # the top of the pile is the end of the tuple
        state = cls._make(
            rules,
            seed=seed,
            pegs=tuple((START,) * rules.pegs for _ in range(n)),
            hands=tuple(_sorted_hand(h) for h in hands),
            draw_pile=tuple(pile),
            discards=(),
            piles=((),) * n,
            turn=0,
            stuck=(0,) * n,
            turns_taken=(0,) * n,
            ply=0,
            rng=rng,
            pending=None,
            extra=(0,) * n,
            face_down=(),
        )
        if rules.turn_order == "draw_then_play":
            draft = Draft(state._shoe, state._top, state.discards, state.face_down, state.rng,
                          list(state.hands))
            draft.draw(0, 1)
            state = state._replace(hands=tuple(draft.hands), draw_pile=draft.pile(),
                                   discards=draft.discards, rng=draft.rng,
                                   face_down=draft.face_down)
        return state

    def __init__(self, rules: Rules, geo: Geometry, *, seed: int, pegs: Pegs,
                 hands: tuple[tuple[str, ...], ...], draw_pile: tuple[str, ...],
                 discards: tuple[str, ...], piles: tuple[tuple[str, ...], ...], turn: int,
                 stuck: tuple[int, ...], turns_taken: tuple[int, ...], ply: int,
                 rng: random.Random, pending: Pending | None, extra: tuple[int, ...],
                 face_down: tuple[tuple[int, int], ...], memo: MoveMemo | None = None,
                 top: int = -1, winner: Outcome | None = UNKNOWN) -> None:
        """Every field of a state.  Build states with :meth:`new`, :meth:`from_position`
        and :meth:`apply`; the states that ``apply`` makes share ``memo``.  With ``top``,
        the draw pile is ``draw_pile[:top]``; ``winner``, when known, spares finding it."""
        self.rules, self.geo, self.seed, self.pegs = rules, geo, seed, pegs
        self.hands, self.discards, self.piles = hands, discards, piles
        self._shoe, self._top = draw_pile, len(draw_pile) if top < 0 else top
        self.turn, self.stuck, self.turns_taken, self.ply = turn, stuck, turns_taken, ply
        self.rng, self.pending, self.extra, self.face_down = rng, pending, extra, face_down
        self.memo = memo
        self._listing = None
        self._winner = _find_winner(geo, pegs) if winner is UNKNOWN else winner

    @classmethod
    def _make(cls, rules: Rules, geo: Geometry | None = None, **values: Any) -> GameState:
        return GameState(rules, geo or geometry(rules), **values)

    def _replace(self, **changes: Any) -> GameState:
        values = {name: getattr(self, name) for name in _FIELDS}
        values.update(changes)
        return GameState(self.rules, self.geo, memo=self.memo, **values)

    @classmethod
    def from_position(
        cls,
        rules: Rules,
        pegs: Pegs,
        to_move: int,
        hand: Sequence[str],
        stuck_turns: int = 0,
        first_turn: bool = False,
        seed: int = 0,
    ) -> GameState:
        """A constructed position (for tests and conformance scenarios).

        The seat to move holds exactly ``hand``; the other cards are dealt from a shoe
        shuffled by ``seed``.
        """
        n = rules.players
        if len(pegs) != n or any(len(p) != rules.pegs for p in pegs):
            raise RulesError(f"a position needs {rules.pegs} pegs for each of {n} seats")
        shoe = build_shoe(rules)
        for card in hand:
            if card not in shoe:
                raise RulesError(f"the shoe has no more {card!r} cards for this hand")
            shoe.remove(card)
        rng = random.Random(seed)
        rng.shuffle(shoe)
        hands: list[tuple[str, ...]] = []
        for seat in range(n):
            if seat == to_move:
                hands.append(_sorted_hand(hand))
            else:
                hands.append(_sorted_hand(shoe[: rules.hand_size]))
                del shoe[: rules.hand_size]
        taken = [1] * n
        taken[to_move] = 0 if first_turn else 1
        stuck = [0] * n
        stuck[to_move] = stuck_turns
        return cls._make(
            rules,
            seed=seed,
            pegs=tuple(tuple(sorted(p)) for p in pegs),
            hands=tuple(hands),
            draw_pile=tuple(shoe),
            discards=(),
            piles=((),) * n,
            turn=to_move,
            stuck=tuple(stuck),
            turns_taken=tuple(taken),
            ply=0,
            rng=rng,
            pending=None,
            extra=(0,) * n,
            face_down=(),
        )

    # --- reading ------------------------------------------------------------------------------
    @property
    def draw_pile(self) -> tuple[str, ...]:
        """The cards left to draw, the top one last."""
        shoe, top = self._shoe, self._top
        return shoe if top == len(shoe) else shoe[:top]

    @property
    def current_player(self) -> int:
        """The seat to act (``-1`` once the game is over): the seat whose turn it is, or
        during a Bluffing Joker declaration the seat asked to doubt or choosing a peg."""
        if self._winner:
            return -1
        p = self.pending
        if p is None:
            return self.turn
        return p.asked if p.chooser < 0 else p.chooser

    def is_over(self) -> bool:
        return self._winner is not None

    def outcome(self) -> Outcome | None:
        """The winners once the game is over, else None."""
        return self._winner

    def controlled_seats(self, seat: int | None = None) -> tuple[int, ...]:
        """The seats whose pegs ``seat`` (default: the seat to move) may move now."""
        return controlled(self.geo, self.pegs, self.turn if seat is None else seat)

    def _listed(self) -> Listing:
        """The legal actions of this position as codes (made once)."""
        listing = self._listing
        if listing is None:
            if self._winner is not None:  # a listing: the one of a turn, a Bluffing Joker
                listing = Choices((), ())  # turn's declarations, the decisions on one
            elif self.pending is not None:
                listing = bluff.decisions(self.geo, self.pegs, self.pending)
            else:
                seat = self.turn
                hand, stuck, first = self.hands[seat], self.stuck[seat], self.turns_taken[seat] == 0
                if table_of(self.geo).bluffing:
                    listing = Declared(self.geo, self.pegs, seat, hand, stuck, first, self.memo)
                else:
                    listing = Coded(self.geo, self.pegs, seat, hand, stuck, first, self.memo)
            self._listing = listing
        return listing

    def legal_actions(self) -> Sequence[Action]:
        """Every legal action of the seat to move, in a stable order (empty when over).

        A read-only sequence: most splits are counted and each is built when indexed,
        iterated or looked up with ``in``."""
        return self._listed().actions()

    def legal_codes(self) -> Sequence[int]:
        """The legal actions as integer codes, in the order of :meth:`legal_actions`
        (a code names an action of this position: see :mod:`pegs.rules.coded`)."""
        return self._listed().legal_codes()

    def code_results(self, codes: Sequence[int]) -> tuple[list[Pegs], list[str]]:
        """The layout each of the legal ``codes`` leads to and the card it plays."""
        listing = self._listed()
        return [listing.result(c) for c in codes], [listing.card(c) for c in codes]

    def action_of(self, code: object) -> Action:
        """The action a legal code names (:class:`IllegalActionError` if none)."""
        return self._listed().action(self._check_code(code))

    def code_of(self, action: Action) -> int:
        """The code of a legal action (another spelling of a split gives the listed one's);
        raises :class:`IllegalActionError` saying why if it is not legal."""
        listing = self._listed()
        code = listing.find(action)
        if code < 0:
            action = self.canonical(action)
            code = listing.find(action)
        if code < 0:
            code = listing.counted_code(action)
        assert code >= 0
        return code

    def _check_code(self, code: object) -> int:
        """``code`` if it is a legal code here, else :class:`IllegalActionError` (a code
        may come from a client: it is checked, whatever its type)."""
        if isinstance(code, bool) or not isinstance(code, int):
            raise IllegalActionError(f"an action code is a whole number, not {code!r}")
        if code < 0 or not self._listed().has(code):
            raise IllegalActionError(f"{code} is not the code of a legal action here")
        return code

    def result_of(self, action: Action) -> Pegs:
        """The peg layout a legal action leads to."""
        listing = self._listed()
        code = listing.find(action)
        if code >= 0:
            return listing.result(code)
        counted = listing.counted(action)
        if counted is not None:
            return counted
        return self.result_of(self.canonical(action))

    def canonical(self, action: Action) -> Action:
        """The legal action that ``action`` names (another order of a split maps to the
        listed one); raises :class:`IllegalActionError` saying why if there is none."""
        listing = self._listed()
        if listing.find(action) >= 0 or listing.counted(action) is not None:
            return action
        if action.steps and action.card in self.hands[self.turn]:
            alias = listing.spelled(action)
            if alias is not None:
                return alias
        raise IllegalActionError(self.why_illegal(action))

    def why_illegal(self, action: Action) -> str:
        """A sentence saying why ``action`` is not legal here."""
        if self._winner is not None:
            return "the game is over"
        listing = self._listed()
        if self.pending is not None:
            options = " or ".join(str(a) for a in listing.actions())
            return f"seat {self.current_player} must decide first: {options}"
        if action.decision:
            return f"there is nothing to {action.decision.split()[0]} now"
        hand = self.hands[self.turn]
        if action.card not in hand:
            return (f"seat {self.turn} holds no {action.card} (hand: {' '.join(hand)})")
        if action.discard and not action.steps:
            playable = sorted(set(listing.moving_ranks()) - {"Joker"},
                              key=RANK_ORDER.__getitem__)
            return ("a card that moves must be played: " + ", ".join(playable) + " can move")
        same_card: list[str] = []
        for i in range(len(listing)):
            code = listing.code(i)
            if listing.card(code) != action.card:
                continue
            a = listing.action(code)
            if not a.discard:
                same_card.append(str(a))
                if len(same_card) > 6:
                    break
        if not same_card:
            return f"the {action.card} has no legal move here"
        shown = "; ".join(same_card[:6]) + ("; ..." if len(same_card) > 6 else "")
        return f"{action} is not a legal move; legal moves with the {action.card}: {shown}"

    # --- acting -------------------------------------------------------------------------------
    def apply_code(self, code: object) -> GameState:
        """The state after the action of a legal code (see :meth:`legal_codes`); raises
        :class:`IllegalActionError` if it is not one."""
        n = self._check_code(code)
        listing = self._listed()
        kind = n & 7
        if kind in (DECISION, DECLARED):
            return self._apply(listing.action(n), listing.result(n))
        return self._played(listing.card(n), listing.result(n), kind != DISCARD)

    def _played(self, card: str, result: Pegs, moved: bool) -> GameState:
        """The state after the seat to move played ``card`` face up to layout ``result``."""
        seat = self.turn
        hands = list(self.hands)
        hand = hands[seat]
        i = hand.index(card)
        hands[seat] = hand[:i] + hand[i + 1:]
        return self.end_turn(card, result, moved, hands)

    def apply(self, action: Action) -> GameState:
        """The state after ``action``; raises :class:`IllegalActionError` if it is not legal."""
        listing = self._listed()
        code = listing.find(action)
        if code >= 0:
            return self._apply(action, listing.result(code))
        result = listing.counted(action)
        if result is None:
            action = self.canonical(action)
            result = self.result_of(action)
        return self._apply(action, result)

    def _apply(self, action: Action, result: Pegs) -> GameState:
        """The state after the legal ``action``, which leads to ``result``."""
        if self.pending is not None:
            return self.decide(action, result)
        if action.declared:
            seat = self.turn
            hands = list(self.hands)
            hand = list(hands[seat])
            hand.remove(action.card)
            hands[seat] = tuple(hand)
            return self._replace(
                hands=tuple(hands), ply=self.ply + 1,
                pending=Pending(seat, action, result, bluff.first_asked(self.geo, seat)),
            )
        return self._played(action.card, result, bool(action.steps))

    def end_turn(self, card: str, result: Pegs, moved: bool, hands: list[tuple[str, ...]],
                 face_down: bool = False, extra: tuple[int, ...] | None = None,
                 granted_now: bool = False) -> GameState:
        """The state after the seat to move has played ``card`` (already out of its hand):
        pegs become ``result``, the card is discarded, cards are drawn and the turn passes
        (to the same seat again when it is owed an extra turn)."""
        seat, rules, table = self.turn, self.rules, table_of(self.geo)
        discarded: tuple[str, ...] = (card,)
        piles = self.piles
        stuck = self.stuck
        if moved:
            if stuck[seat]:
                stuck = _put(stuck, seat, 0)
            if piles[seat]:
                discarded = piles[seat] + discarded
                piles = tuple(() if q == seat else p for q, p in enumerate(piles))
        else:
            stuck = _put(stuck, seat, stuck[seat] + 1)
            if table.keep_pile:
                piles = tuple(p + discarded if q == seat else p for q, p in enumerate(piles))
                discarded = ()
        taken = _put(self.turns_taken, seat, self.turns_taken[seat] + 1)
        owed = self.extra if extra is None else extra
        draft = Draft(self._shoe, self._top, self.discards, self.face_down, self.rng, hands)
        draft.discards += discarded
        if face_down:  # the seat that played it and where it lies in the discards
            draft.face_down += ((seat, len(draft.discards) - 1),)
        winner = (_find_winner(self.geo, result) if self._winner is not None
                  else _new_winner(self.geo, self.pegs, result))
        if winner is None:
            if not table.draw_first:
                draft.draw(seat, table.hand_size - len(hands[seat]))
            if owed[seat] > int(granted_now):
                owed = _put(owed, seat, owed[seat] - 1)
            else:
                seat = (seat + 1) % table.players
            if table.draw_first:
                draft.draw(seat, 1)
        return GameState(
            rules, self.geo, seed=self.seed, pegs=result, hands=tuple(draft.hands),
            draw_pile=draft.shoe, discards=draft.discards, piles=piles, turn=seat,
            stuck=stuck, turns_taken=taken, ply=self.ply + 1, rng=draft.rng,
            pending=None, extra=owed, face_down=draft.face_down, memo=self.memo,
            top=draft.top, winner=winner)

    # --- Bluffing Joker decisions (RULES.md section 5) ------------------------------------
    def decide(self, action: Action, result: Pegs) -> GameState:
        """The state after a decision on the pending declaration."""
        p = self.pending
        assert p is not None
        geo, hands = self.geo, list(self.hands)
        card = p.action.card
        if p.chooser < 0 and action == bluff.PASS:
            order = bluff.opponents_in_order(geo, p.declarer)
            i = order.index(p.asked)
            if i + 1 < len(order):
                return self._replace(pending=replace(p, asked=order[i + 1]), ply=self.ply + 1)
            return self.end_turn(card, p.result, True, hands, face_down=True)
        if p.chooser < 0:  # a doubt: the card is turned over
            winner, victim = (p.asked, p.declarer) if p.bluff else (p.declarer, p.asked)
            if bluff.ring_pegs(geo, self.pegs, victim):
                return self._replace(pending=replace(p, chooser=winner, victim=victim),
                                     ply=self.ply + 1)
            extra = list(self.extra)
            extra[winner] += 1
            if p.bluff:
                return self.end_turn(card, self.pegs, False, hands, extra=tuple(extra))
            return self.end_turn(card, p.result, True, hands, extra=tuple(extra),
                                 granted_now=True)
        if p.bluff:
            return self.end_turn(card, result, False, hands)
        after = bluff.redo(self, p, result)
        return self.end_turn(card, result if after is None else after, after is not None, hands)

    # --- copying ------------------------------------------------------------------------------
    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle (and ``copy.deepcopy``) by the fields of the game alone: the geometry is
        rebuilt from the rules, and the move cache and shared search memo are left out."""
        return _restore, (self.rules, tuple(getattr(self, name) for name in _FIELDS))

    # --- comparing ----------------------------------------------------------------------------
    def key(self) -> tuple[object, ...]:
        """Everything that makes this state what it is (for equality and replay checks)."""
        return (
            self.rules, self.seed, self.pegs, self.hands, self.draw_pile, self.discards,
            self.piles, self.turn, self.stuck, self.turns_taken, self.ply, self.pending,
            self.extra, self.face_down, self.rng.getstate(),
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameState) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key()[:-1])

    def __repr__(self) -> str:
        return f"<GameState {self.rules.name} ply={self.ply} turn={self.turn}>"


_FIELDS = (
    "seed", "pegs", "hands", "draw_pile", "discards", "piles", "turn", "stuck",
    "turns_taken", "ply", "rng", "pending", "extra", "face_down",
)


def _restore(rules: Rules, values: tuple[Any, ...]) -> GameState:
    """The state that :meth:`GameState.__reduce__` took apart."""
    return GameState._make(rules, **dict(zip(_FIELDS, values, strict=True)))


def _find_winner(geo: Geometry, pegs: Pegs) -> Outcome | None:
    """The team (or seat) whose pegs are all home, if any."""
    home = geo.all_home
    for seat in range(geo.players):
        if pegs[seat] == home:
            team = geo.team_seats[seat]
            if all(pegs[q] == home for q in team):
                return Outcome(geo.team_of[seat], team)
    return None


def _new_winner(geo: Geometry, before: Pegs, after: Pegs) -> Outcome | None:
    """The winner after a move from ``before`` (no winner) to ``after``: a team can only
    have come home if one of the seats the move changed (a new tuple) is all home."""
    home = geo.all_home
    for q in range(len(after)):
        if after[q] is not before[q] and after[q] == home:
            return _find_winner(geo, after)
    return None


def _put(values: tuple[int, ...], i: int, value: int) -> tuple[int, ...]:
    """``values`` with the ``i``-th one replaced."""
    out = list(values)
    out[i] = value
    return tuple(out)
