"""What a search bot believes of a face-down declared card (Bluffing Joker).

A seat that did not declare sees the declared rank but not the card.  Dealing that card
uniformly from the unseen cards (as a plain determinization does) ignores the
declaration: a 9 declared for a move only a 9 makes is most likely a 9.  :class:`FaceDown`
weighs it with the heuristic bot's doubt model (:func:`pegs.bots.heuristic.bluff_chance`,
a model of exactly the bluffer the heuristic bot is, and a fair one of others): the
declared rank with the chance that the declaration is true, any other unseen card
(uniformly, as a bluffer declares with a card that does not make the move) otherwise.
:meth:`FaceDown.decide` is the doubt the search starts from (its guard keeps it unless
the search finds the other choice clearly better).
"""

from __future__ import annotations

import random

from ..rules import Action, View
from ..rules.bluff import DOUBT, PASS
from ..rules.view import HIDDEN
from .heuristic import Evaluator, Weights, bluff_chance, caught_gain, weigh_doubt


class FaceDown:
    """The belief about the pending face-down card of a view: :meth:`draw` one card for a
    determinization.  ``bluff`` is the chance that the card is not the declared rank."""

    def __init__(self, view: View, unseen: list[str], weights: Weights | None = None) -> None:
        pending = view.pending
        if pending is None or pending.action.card != HIDDEN:
            raise ValueError("the view has no face-down declaration to believe anything of")
        w = Weights() if weights is None else weights
        declarer = pending.declarer
        opponent = next(q for q in range(1, view.rules.players + 1)
                        if _opposed(view, declarer, (declarer + q) % view.rules.players))
        ev = Evaluator(view.rules, (declarer + opponent) % view.rules.players, w, view.pegs)
        made = ev.board(pending.result)
        self.weights = w
        self.declared = pending.action.declared
        self.others = [card for card in unseen if card != self.declared]
        if self.declared not in unseen:
            self.bluff = 1.0
        elif not self.others:
            self.bluff = 0.0
        else:
            caught = caught_gain(ev, view.pegs, declarer, made, w)
            self.bluff = bluff_chance(view, ev, w, caught)

    def draw(self, rng: random.Random) -> str:
        """One face-down card: a bluff's card with chance :attr:`bluff`, else the declared
        rank."""
        if self.others and rng.random() < self.bluff:
            return self.others[rng.randrange(len(self.others))]
        return self.declared


    def decide(self, view: View) -> Action:
        """The seat asked about the declaration: doubt when, with this belief, a doubt's
        expected gain beats a pass by the heuristic bot's margin (the heuristic bot's rule
        of :func:`pegs.bots.heuristic.weigh_doubt`, taken at its likelier choice instead of
        at random)."""
        ev = Evaluator(view.rules, view.seat, self.weights, view.pegs)
        return DOUBT if weigh_doubt(view, ev, self.weights).chance > 0.5 else PASS


def _opposed(view: View, a: int, b: int) -> bool:
    teams = view.rules.teams
    return a != b and (not teams or a % teams != b % teams)


def face_down_belief(view: View, unseen: list[str]) -> FaceDown | None:
    """The belief of a view with a face-down declaration by another seat, else None."""
    pending = view.pending
    if pending is None or pending.action.card != HIDDEN:
        return None
    return FaceDown(view, unseen)
