"""Checking a client's action against the legal listing, at the cost of accepting one.

The server never asks the engine to explain a refusal on the event loop (that lists every
action of a crowded table with its aliases): an action is looked up in the legal listing
built once per version, a split also in the other orders of its steps, and a refusal
says only what is cheap to tell.
"""

from __future__ import annotations

from itertools import permutations

from ..rules import Action, GameState, IllegalActionError

#: Splits of at most this many steps are also looked up in the other orders of their
#: steps (the listing names each split once, in one order).
MOST_ORDERED_STEPS = 3


def listed(state: GameState, action: Action) -> Action:
    """The legal action of the seat to act that ``action`` names; raises
    :class:`IllegalActionError` saying why not."""
    legal = state.legal_actions()
    if action in legal:
        return action
    if 1 < len(action.steps) <= MOST_ORDERED_STEPS:
        for steps in permutations(action.steps):
            other = action._replace(steps=steps)
            if other in legal:
                return other
    raise IllegalActionError(why(state, action))


def why(state: GameState, action: Action) -> str:
    """Why ``action`` is not legal, in words that cost no search."""
    if state.is_over():
        return "the game is over"
    if state.pending is not None:
        options = " or ".join(str(a) for a in state.legal_actions())  # a few decisions
        return f"seat {state.current_player} must decide first: {options}"
    if action.decision:
        return f"there is nothing to {action.decision.split()[0]} now"
    hand = state.hands[state.turn]
    if action.card not in hand:
        return f"you hold no {action.card} (your hand: {' '.join(hand)})"
    if action.discard and not action.steps:
        return f"the {action.card} may not be discarded: a card that can move must be played"
    return (f"{action} is not a legal move with the {action.card}: play one of the "
            "actions the state lists")
