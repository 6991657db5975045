"""A hint for the seat to act in a recorded game: the move the strongest bot would play,
its announcement and a one-line reason.

The bot sees only what the seat may know (:func:`pegs.rules.view`) and the legal actions,
like any bot in a game.  The default is ``ismcts`` searching for the given time; a
caller may ask for a quicker bot (``heuristic`` or ``random``).  The reason is the
heuristic bot's :func:`~pegs.bots.heuristic.reason` for the move chosen.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from .bots import make_bot
from .bots.heuristic import reason as heuristic_reason
from .notation import action_words, option_words, seat_name
from .record import Record
from .rules import Action, GameState, Geometry, View, view

DEFAULT_SECONDS = 2.0
#: The bot that gives hints unless told otherwise.
DEFAULT_BOT = "ismcts"


class HintError(ValueError):
    """No hint can be given: the game is over, or it is another seat's turn."""


class Hint(NamedTuple):
    """The suggested action, how it reads to the seat (its option words), why, and which
    bot chose it."""

    action: Action
    announcement: str
    reason: str
    bot: str = ""
    seat: int = -1


def choose(state: GameState, seat: int, seconds: float, bot: str = DEFAULT_BOT) -> Hint:
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
    options: dict[str, Any] = {"seconds": seconds} if bot == "ismcts" else {}
    chooser = make_bot(bot, state.ply * 1000 + seat, **options)
    action = state.canonical(chooser.choose(mine, legal))
    reason = heuristic_reason(mine, action, state.pegs, state.result_of(action))
    return Hint(action, option_words(state, action), _sentence(home_words(reason, state.geo)),
                bot, seat)


#: A home hole in the heuristic bot's reasons, which number them on from the side's holes
#: as Pegoo's spoken numbers do (home 2 is "22" on a board of 20 holes a side).
_HOME = re.compile(r"(into home at|home exactly at|deeper into home,) (\d+)(?: to (\d+))?")


def home_words(reason: str, geo: Geometry) -> str:
    """``reason`` with its home holes called as the announcements call them (``home 2``,
    not ``22``): "into home 2", "enters home exactly at home 4", "deeper into home, home 1
    to home 3"."""
    def home(number: str) -> str:
        k = int(number) - geo.holes_per_side
        return f"home {k}" if k >= 1 else number

    def words(m: re.Match[str]) -> str:
        said = "into" if m[1] == "into home at" else m[1]
        to = f" to {home(m[3])}" if m[3] else ""
        return f"{said} {home(m[2])}{to}"

    return _HOME.sub(words, reason)


def _sentence(text: str) -> str:
    """One line, starting with a capital and ending with a full stop."""
    text = " ".join(text.split())
    if not text:
        return "No reason given."
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?", ")")) else text + "."


def announce_any(state: GameState, action: Action) -> str:
    """The words of any action, a card play or a Bluffing Joker decision, revealing nothing
    (:func:`pegs.notation.action_words`): safe to show anyone, before or after it is played.
    A log tells more with :func:`pegs.notation.announce` (what a doubt turned over), an
    option of the seat to act with :func:`pegs.notation.option_words` (its real card)."""
    return action_words(state, action)


def hint(record: Record, seat: int | None = None, seconds: float = DEFAULT_SECONDS,
         bot: str = DEFAULT_BOT) -> Hint:
    """The hint at the end of ``record`` for ``seat`` (default: the seat to act)."""
    state = record.replay()
    if seat is not None and not 0 <= seat < state.rules.players:
        raise HintError(f"seat must be 0 to {state.rules.players - 1}, not {seat}")
    if state.is_over():
        raise HintError(f"the game is over after {state.ply} actions: there is no move to "
                        "suggest")
    return choose(state, state.current_player if seat is None else seat, seconds, bot)


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
