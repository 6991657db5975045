"""The legal-action generator: every legal action of the seat to move, with its result.

:func:`generate` returns a :class:`Legal`: each legal :class:`Action` with the peg layout
it leads to.  Equivalent spellings of one move (a split in the other order) map to the
same result and are listed under ``aliases`` so that ``apply`` accepts them too.  Splits
(7, 9, the North Carolina ten) whose two parts cannot affect each other are counted, not
built (:mod:`pegs.rules.counted`); only the splits whose parts interact are simulated.
The order of the listing is a fixed function of the position: the built actions, then
the counted splits card by card.

The powers are found in one module each, a class extending the one before:
:mod:`~pegs.rules.moves` (one peg: coming out, forward and back, the 2's swap, the
joker), :mod:`~pegs.rules.splits` (7 and 9) and :mod:`~pegs.rules.tens` (the North
Carolina ten); here the whole turn: every card of the hand, the stuck rules, discards,
and Bluffing Joker's declarations.  :mod:`~pegs.rules.listing` holds what they fill.
"""

from __future__ import annotations

from itertools import islice
from typing import Final

from pegs.rules.actions import Action
from pegs.rules.board import Geometry
from pegs.rules.board_work import Pegs, moved
from pegs.rules.settings import RANKS

from .listing import RANK_ORDER as RANK_ORDER
from .listing import Actions as Actions
from .listing import CardMoves as CardMoves
from .listing import Legal as Legal
from .listing import MoveMemo as MoveMemo
from .listing import Turn as Turn
from .listing import card_plans as card_plans
from .listing import controlled as controlled
from .moves import Around
from .tens import TenFinder

#: 7 and 9 splits are counted (not built) when the seat plays this many pegs or more: from
#: two, a North Carolina 9 took a quarter fewer instructions than built, a 7 a fifth, a
#: basic 7 a seventh (4 seats, 100 positions).
COUNT_FROM_PEGS: Final = 2


class _Generator(TenFinder):
    """Builds the :class:`Legal` of one position: every card of the hand."""

    # --- the whole turn -------------------------------------------------------------------
    def card_moves(self, card: str) -> None:
        """Add the moves of ``card`` (from the memo when it has them)."""
        memo = self.memo
        if memo is None:
            self.find_card_moves(card)
            return
        key = (self.pegs, self.mover, card)
        known = memo.entries.get(key)
        legal = self.legal
        if known is not None:
            legal.actions.extend(known.actions)
            for action, result in known.results:
                legal.results[action] = result
            for key_seen, action in known.seen:
                self._seen[key_seen] = action
            for action, change in known.changes:
                legal.changes[action] = change
            legal.deferred.extend(known.deferred)
            self.other_moves += known.other
            return
        built, counted, other = len(legal.actions), len(legal.deferred), self.other_moves
        seen = len(self._seen)
        self.find_card_moves(card)
        if len(memo.entries) < memo.limit:
            new = tuple(legal.actions[built:])
            memo.entries[key] = CardMoves(
                new, tuple((a, legal.results[a]) for a in new if a in legal.results),
                tuple((a, legal.changes[a]) for a in new if a in legal.changes),
                tuple(legal.deferred[counted:]), self.other_moves - other,
                tuple(islice(self._seen.items(), seen, None)))

    def find_card_moves(self, card: str) -> None:
        """Every power of the card.  An obligatory split (``!``) leaves the card's other
        powers out whenever it can be made; coming out is not counted among the moves that
        stop North Carolina counting, and neither is a joker's come-out."""
        plan = self.plans[card]
        must = plan.must_split
        # a joker that comes out already offers the come-outs
        out = plan.out and not (plan.joker and self.rules.joker_comes_out)
        if plan.joker and not must:
            self.joker(card)
        if out and not must:
            self.add(card, self.come_out(self.ctrl))
        legal = self.legal
        before = legal.size()
        split_found = False
        if plan.split == 10:
            self.split_ten(card)
            split_found = legal.size() > before
        if plan.split in (7, 9):
            # counting pays from a few pegs on (and cannot follow a finishing split)
            finish = card in self.rules.split_finish_with_partner and self.rules.control != "team"
            ring = self.geo.ring_size
            if (self.track_aliases or len(self.own_movable) < COUNT_FROM_PEGS or (finish and sum(
                    1 for p in self.pegs[self.mover] if p < ring) <= 1)):
                split_found = self.splits(card, plan.split)
            else:
                split_found = self.count_splits(card, plan.split)
        if not (must and split_found):
            for n in plan.forward:
                self.add(card, self.singles(n, backward=False))
            for n in plan.backward:
                self.add(card, self.singles(n, backward=True))
            if plan.swap:
                self.swaps(card)
        self.other_moves += legal.size() - before
        if must and not split_found:
            if plan.joker:
                self.joker(card)
            if out:
                self.add(card, self.come_out(self.ctrl))

    def stuck_come_out(self, card: str) -> None:
        rule, stuck = self.rules.stuck_rule, self.turn.stuck_turns
        plan = self.plans[card]
        if plan.out or (plan.joker and self.rules.joker_comes_out):
            return
        if (rule == "pegoo_cant_play_pile" and stuck >= 2) or (
            rule == "havasu_fourth_turn" and stuck >= 3
        ):
            self.add(card, self.come_out(self.ctrl))

    def counting_come_out(self, ranks: list[str]) -> bool:
        """North Carolina counting: on the third turn without a move (no move but coming
        out), discard any card and bring a peg out free.  True if that was offered."""
        free = self.come_out(self.ctrl)
        if not free:
            return False
        for card in ranks:
            for steps, change in free:
                result = change if not isinstance(change[0], int) else moved(
                    self.pegs, (change,))
                self.record(card, steps, result, discard=True)
        return True

    def run(self, full: Legal | None = None) -> Legal:
        """The legal actions; with ``full`` (the whole turn's listing, when only some
        moves are generated) the choices that depend on every move are taken from it."""
        legal = self.legal
        ranks = sorted(set(self.turn.hand), key=RANK_ORDER.__getitem__)
        for card in ranks:
            n = legal.size()
            self.card_moves(card)
            self.stuck_come_out(card)
            if legal.size() > n:
                legal.moving_ranks.add(card)
        if full is None:
            legal.counting = (self.rules.stuck_rule == "nc_counting"
                              and self.turn.stuck_turns >= 2 and not self.other_moves)
        else:
            legal.counting = full.counting
        if legal.counting and self.counting_come_out(ranks):
            return legal
        legal.counting = False
        moving = legal.moving_ranks if full is None else full.moving_ranks
        joker_must = self.rules.joker_obligatory and not self.turn.first_turn
        if not (moving - {"Joker"}) and not (joker_must and moving):
            for card in ranks:
                self.record(card, (), self.pegs, discard=True)
        return legal



def generate_plain(geo: Geometry, pegs: Pegs, turn: Turn, aliases: bool = False) -> Legal:
    """The legal actions of ``turn.seat`` with the cards face up (no bluffing)."""
    return _Generator(geo, pegs, turn, aliases).run()


def generate(geo: Geometry, pegs: Pegs, turn: Turn, aliases: bool = False,
             memo: MoveMemo | None = None) -> Legal:
    """All legal actions of ``turn.seat`` holding ``turn.hand`` on layout ``pegs``.

    With ``aliases``, other spellings of the same move (a split in the other order) are
    collected too, mapped to the listed action.  Under Bluffing Joker every card in the
    hand may be declared as any rank with any move legal for that rank.  A ``memo``
    (:class:`MoveMemo`) keeps each card's moves for the next position on the same board.
    """
    if not geo.rules.bluffing:
        return _Generator(geo, pegs, turn, aliases, memo).run()
    every = Turn(turn.seat, RANKS, turn.stuck_turns, turn.first_turn)
    declared = _Generator(geo, pegs, every, aliases, memo).run()
    legal = Legal(moving_ranks=declared.moving_ranks, base=pegs)
    legal.counting = declared.counting
    real = sorted(set(turn.hand), key=RANK_ORDER.__getitem__)
    for card in real:
        for a in declared.listing():
            if a.discard:
                continue
            b = Action(card, a.steps, False, a.card)
            legal.actions.append(b)
            if a in declared.changes:
                legal.changes[b] = declared.changes[a]
            else:
                legal.results[b] = declared.outcome(a)  # type: ignore[assignment]
        for alias, a in declared.aliases.items():
            legal.aliases[Action(card, alias.steps, False, alias.card)] = Action(
                card, a.steps, False, a.card)
    if not declared.moving_ranks - {"Joker"}:
        for card in real:
            action = Action(card, (), True)
            legal.actions.append(action)
            legal.results[action] = pegs
    return legal


def spelled(geo: Geometry, pegs: Pegs, turn: Turn, action: Action, full: Legal
            ) -> Action | None:
    """The listed action that ``action`` spells another way (a split in the other order,
    another spelling of the same final board), or None if it is no legal move.

    ``full`` is the turn's listing.  Only the moves that start with a peg ``action`` moves
    are generated, with every spelling: a few instead of every split of a crowded ten."""
    around = Around(geo, pegs, turn.seat, action.steps)
    if geo.rules.bluffing:
        if not action.declared or action.discard:
            return None
        plain = Action(action.declared, action.steps)
        hand: tuple[str, ...] = (action.declared,)
    else:
        plain, hand = action, (action.card,)
    one = Turn(turn.seat, hand, turn.stuck_turns, turn.first_turn)
    legal = _Generator(geo, pegs, one, True, around=around).run(full)
    first = legal.aliases.get(plain, plain if legal.outcome(plain) is not None else None)
    if first is None:
        return None
    if geo.rules.bluffing:
        first = Action(action.card, first.steps, False, first.card)
    if full.outcome(first) == legal.outcome(legal.aliases.get(plain, plain)):
        return first
    # another spelling is listed for this board, starting with another peg: look it up
    # among every spelling (never seen in the scenarios and random games tested)
    return generate(geo, pegs, turn, aliases=True).aliases.get(action)
