"""A hint for the seat to act in a recorded game: the move the strongest available bot
would play, its announcement and a one-line reason.

The bot sees only what the seat may know (:func:`pegs.rules.view`) and the legal actions,
like any bot in a game.  The strongest available bot is ``ismcts`` (searching for the
given time), else ``heuristic``, else ``random``: the stronger bots are optional modules,
so a missing one is simply passed over.  The reason comes from the heuristic bot's
``reason`` (or ``explain`` when it chose the move) when that module is there; otherwise
it is a plain description of what the move does.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from .bots import Bot, make_bot
from .notation import announce, seat_name
from .record import Record
from .rules import Action, GameState, View, view
from .rules.board import START

DEFAULT_SECONDS = 2.0

#: Bots tried in order, strongest first.
STRENGTH_ORDER = ("ismcts", "heuristic", "random")


class HintError(ValueError):
    """No hint can be given: the game is over, or it is another seat's turn."""


class Hint(NamedTuple):
    """The suggested action, its announcement, why, and which bot chose it."""

    action: Action
    announcement: str
    reason: str
    bot: str = ""
    seat: int = -1


def strongest_bot(seed: int, seconds: float) -> tuple[str, Bot]:
    """The strongest bot that can be built here: (name, bot)."""
    errors: list[str] = []
    for kind in STRENGTH_ORDER:
        options: dict[str, Any] = {"seconds": seconds} if kind == "ismcts" else {}
        try:
            return kind, make_bot(kind, seed, **options)
        except ImportError as e:
            errors.append(f"{kind}: {e}")
    raise HintError("no bot is available: " + "; ".join(errors))


def _heuristic_function(name: str) -> Callable[..., Any] | None:
    """``pegs.bots.heuristic.<name>`` if that module and function exist."""
    try:
        module = importlib.import_module("pegs.bots.heuristic")
    except ImportError:
        return None
    func = getattr(module, name, None)
    return func if callable(func) else None


def _count(pegs: Sequence[int], test: Callable[[int], bool]) -> int:
    return sum(1 for p in pegs if test(p))


def describe(state: GameState, action: Action) -> str:
    """A plain one-line description of what ``action`` does for the side that plays it."""
    if action.decision == "doubt":
        return "Doubts the face-down card: a bluff found out costs the declarer a peg."
    if action.decision == "pass":
        return "Lets the declaration stand: a wrong doubt would cost a peg of ours."
    if action.decision.startswith("send"):
        return f"Sends the peg at {action.decision[5:]} back to start."
    if action.discard and not action.steps:
        return "No card in the hand can move a peg, so a card must be discarded."
    geo = state.geo
    seat = state.turn
    before, after = state.pegs, state.result_of(action)
    ring = geo.ring_size
    team = set(geo.team_seats[seat])
    parts: list[str] = []
    out = sum(_count(after[q], lambda p: p >= 0) - _count(before[q], lambda p: p >= 0)
              for q in team)
    home = sum(_count(after[q], lambda p: p >= ring) - _count(before[q], lambda p: p >= ring)
               for q in team)
    hit = sum(_count(after[q], lambda p: p == START) - _count(before[q], lambda p: p == START)
              for q in range(geo.players) if q not in team)
    own_hit = max(0, -out)
    if out > 0:
        parts.append("brings a peg out of start" if out == 1 else f"brings {out} pegs out")
    if home > 0:
        parts.append("moves a peg into home" if home == 1 else f"moves {home} pegs into home")
    if hit > 0:
        parts.append("sends an opponent's peg back to start" if hit == 1
                     else f"sends {hit} opponents' pegs back to start")
    if any(step.op == "~" for step in action.steps):
        parts.append("swaps places with another colour")
    if not parts:
        moved = sum(1 for q in range(geo.players) if after[q] != before[q])
        backward = any(step.op == "<" for step in action.steps)
        parts.append("moves a peg backward" if backward and len(action.steps) == 1
                     else "advances" + (" pegs" if len(action.steps) > 1 or moved > 1
                                        else " a peg"))
    text = ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1]
    if own_hit > 0:
        text += f", though {own_hit} of our side's pegs go back to start"
    if action.discard:
        text = "Discards and " + text
    return text[0].upper() + text[1:] + "."


def choose(state: GameState, seat: int, seconds: float) -> Hint:
    """The hint for ``seat``, which must be the seat to act in ``state``."""
    if state.is_over():
        raise HintError("the game is over: there is no move to suggest")
    to_act = state.current_player
    if seat != to_act:
        raise HintError(f"it is seat {to_act}'s turn, not seat {seat}'s")
    if not seconds > 0:
        raise HintError(f"--time must be more than 0 seconds, not {seconds}")
    mine: View = view(state, seat)
    legal = state.legal_actions()
    # The bot's seed comes from the position's number, never from the game seed (which
    # would tell every hand): the same record gives the same hint for a bot that is not
    # limited by time.
    kind, bot = strongest_bot(state.ply * 1000 + seat, seconds)
    reason: str | None = None
    explain: Callable[..., Any] | None = None
    if kind == "heuristic":
        explain = getattr(bot, "explain", None) or _heuristic_function("explain")
    if explain is not None:
        action, reason = explain(mine, legal)
    else:
        action = bot.choose(mine, legal)
    action = state.canonical(action)
    if reason is None:
        why = _heuristic_function("reason")
        if why is not None:
            reason = str(why(mine, action, state.pegs, state.result_of(action)))
        else:
            reason = describe(state, action)
    return Hint(action, announce_any(state, action), _sentence(str(reason)), kind, seat)


def _sentence(text: str) -> str:
    """One line, starting with a capital and ending with a full stop."""
    text = " ".join(text.split())
    if not text:
        return "No reason given."
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?", ")")) else text + "."


def announce_any(state: GameState, action: Action) -> str:
    """The announcement of a card play, or the words of a decision."""
    if action.decision:
        return {"doubt": "I doubt it.", "pass": "Pass."}.get(
            action.decision, f"Send {action.decision[5:]} back to START.")
    return announce(state, action)


def hint(record: Record, seat: int | None = None, seconds: float = DEFAULT_SECONDS) -> Hint:
    """The hint at the end of ``record`` for ``seat`` (default: the seat to act)."""
    state = record.replay()
    if seat is not None and not 0 <= seat < state.rules.players:
        raise HintError(f"seat must be 0 to {state.rules.players - 1}, not {seat}")
    if state.is_over():
        raise HintError(f"the game is over after {state.ply} actions: there is no move to "
                        "suggest")
    return choose(state, state.current_player if seat is None else seat, seconds)


def format_hint(h: Hint, state: GameState) -> str:
    """The hint as printed by ``pegs hint``."""
    hand = " ".join(state.hands[h.seat]) if h.seat >= 0 and not h.action.decision else ""
    head = f"{seat_name(h.seat)} to act after {state.ply} actions"
    if hand:
        head += f"; hand: {hand}"
    return "\n".join([
        head,
        f"move: {h.action}",
        f"say:  {h.announcement}",
        f"why:  {h.reason}",
        f"(chosen by the {h.bot} bot from the seat's view)",
    ])
