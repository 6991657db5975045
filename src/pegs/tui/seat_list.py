"""The seats in words: the status beside the drawn board, and the compact layout's list of
seats and their pegs, which stands for the board in a small window.

The list starts at the seat shown (the player's own, so that it is never scrolled away)
and goes round the table in turn order.  Two lines a seat when the window is tall enough
(who plays it, its team and cards; then its pegs); one line a seat otherwise (its team and
pegs, those in START counted: S, the multiplication sign and how many; the cards, which
rarely differ, left out), so that ten seats, the draw pile and the legend fit an 80 x 24
terminal.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text

from ..notation import SEAT_COLOURS, TEAM_LETTERS, team_name
from ..rules import View
from .board import seat_style
from .session import Session

#: Rows of the compact list besides the seats: the game's name, the draw pile, the legend
#: (two rows) and the bots' pace; the one-line list has its column names instead of the
#: legend's second row.
OTHER_ROWS = 5
LEGEND = "S start, s.h side s hole h,\nHk home hole k"
SHORT_LEGEND = "S start, s.h side.hole, Hk home"


def pace_words(delay: float) -> str:
    return "Bots: " + ("instant" if delay == 0 else f"{delay:g} s a move") + " (+/-)"


def status_text(session: Session, seen: View, kind_word: Callable[[int], str],
                delay: float) -> Text:
    """Beside the drawn board: the game, each seat's team, player, cards and pegs home, the
    draw pile and the bots' pace."""
    rules = session.rules
    teams = f"{rules.teams} teams" if rules.teams else "everyone for themselves"
    text = Text(f"{session.name}, {rules.players} players, {teams}\n")
    geo = session.state.geo
    for seat in range(rules.players):
        mark = "▶ " if seat == seen.current_player else "  "
        home = sum(1 for p in seen.pegs[seat] if p >= geo.ring_size)
        team = f" {team_name(geo.team_of[seat])}" if rules.teams else ""
        text.append(mark)
        text.append(f"{SEAT_COLOURS[seat][1]} {SEAT_COLOURS[seat][0]:<6}", seat_style(seat))
        text.append(f"{team} {kind_word(seat):<9} {seen.hand_sizes[seat]} cards, "
                    f"{home}/{rules.pegs} home\n")
    top = f", top {seen.discards[-1]}" if seen.discards else ""
    text.append(f"Draw pile {seen.draw_pile_size} cards; discards {len(seen.discards)}{top}\n")
    text.append(pace_words(delay))
    return text


def rows_needed(players: int, one_line: bool) -> int:
    """The rows the compact list takes (when no seat's pegs need a second row)."""
    return OTHER_ROWS + (players if one_line else 2 * players)


def counted_pegs(names: list[str]) -> str:
    """A seat's pegs in one line, those in START counted: ``S`` times 3, then ``5.5 H4``."""
    start = names.count("S")
    rest = [n for n in names if n != "S"]
    return " ".join(([f"S\N{MULTIPLICATION SIGN}{start}"] if start else []) + rest)


def seats_text(session: Session, seen: View, kind_word: Callable[[int], str], delay: float,
               rows: int, width: int) -> Text:
    """The compact layout's list of seats in ``rows`` rows of ``width`` columns (one line
    a seat when two would not fit)."""
    rules = session.rules
    geo = session.state.geo
    one_line = rows_needed(rules.players, one_line=False) > rows
    teams = f"{rules.teams} teams" if rules.teams else "no teams"
    text = Text(f"{session.name}, {teams}\n")
    kinds = [kind_word(seat) for seat in range(rules.players)]
    bots = {kind for seat, kind in enumerate(kinds) if not session.is_human(seat)}
    # one kind of bot: named once, under the list, and the seat shown (the player's, first
    # in the list) named over it, instead of a column saying who plays each seat
    uniform = len(bots) <= 1
    who = 0 if uniform else max(len(kind) for kind in kinds)
    if one_line:
        columns = ["seat", "team" if rules.teams else "", "who" if who else "", "pegs"]
        you = (f"; you: {SEAT_COLOURS[seen.seat][0]}"
               if uniform and session.is_human(seen.seat) else "")
        text.append(", ".join(c for c in columns if c) + you + "\n", style="dim")
    # two lines a seat: with one kind of bot only the humans' seats say who plays them
    said = [k if not uniform or session.is_human(s) else "" for s, k in enumerate(kinds)]
    widest = max(len(k) for k in said)
    first = max(seen.seat, 0)
    for seat in [(first + k) % rules.players for k in range(rules.players)]:
        mark = "▶ " if seat == seen.current_player else "  "
        text.append(mark)
        colour, letter = SEAT_COLOURS[seat]
        # (the pegs' letters are the drawn board's: a list names the colours alone)
        text.append(f"{colour:<6}" if one_line else f"{letter} {colour:<6}", seat_style(seat))
        names = [geo.name(p) for p in sorted(seen.pegs[seat])]
        cards = seen.hand_sizes[seat]
        if not one_line:
            team = f" {team_name(geo.team_of[seat])}" if rules.teams else ""
            kind = f" {said[seat]:<{widest}}" if widest else ""
            text.append(f"{team}{kind} {cards} cards\n    {' '.join(names)}\n")
            continue
        team = f" {TEAM_LETTERS[geo.team_of[seat]]}" if rules.teams else ""
        head = f"{team} {kinds[seat]:<{who}} " if who else f"{team} "
        text.append(head + wrapped(counted_pegs(names), 8 + len(head), width) + "\n")
    top = f", top {seen.discards[-1]}" if seen.discards else ""
    text.append(f"Draw pile {seen.draw_pile_size}{top}\n")
    text.append((SHORT_LEGEND if one_line else LEGEND) + "\n", style="dim")
    pace = "instant" if delay == 0 else f"{delay:g} s"
    kind = f"{next(iter(bots))}, " if uniform and bots else ""
    text.append(f"Bots: {kind}{pace} (+/-)")
    return text


def wrapped(words: str, start: int, width: int) -> str:
    """``words`` from column ``start`` in lines of ``width`` columns, the rest of the lines
    indented four columns (a seat's pegs when they do not fit its row)."""
    lines: list[str] = []
    line, column = "", start
    for word in words.split(" "):
        need = len(word) + (1 if line else 0)
        if line and column + need > width:
            lines.append(line)
            line, column, need = "", 4, len(word)
        line += (" " if line else "") + word
        column += need
    return "\n    ".join([*lines, line])
