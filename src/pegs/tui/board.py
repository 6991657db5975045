"""The board drawn as text: the ring as a polygon of ``sides`` sides, start and home per seat.

The drawing is a grid of two-character cells (a hole and a space, roughly square in a
terminal).  Ring holes follow the polygon clockwise from seat 0's side at the bottom;
every fifth hole (Pegoo's 5, 10, 15, 20) and the 8-back spot (17 on a 20-hole side) have
their own marks and numbers outside the ring.  Each seat's start holes sit inside its
side next to its out-hole, and its home track runs from its door toward the middle.
Pegs are the seat's letter in the seat's colour, so colour is never the only clue.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache

from rich.style import Style
from rich.text import Text

from ..notation import SEAT_COLOURS
from ..rules import Geometry
from ..rules.board import START

HOLE = "·"
FIFTH = "○"
EIGHT_BACK = "◇"
START_HOLE = "□"
HOME_HOLE = "▫"
POINTER = "▸"

#: Terminal colours for the seats (same order as ``SEAT_COLOURS``).
TERMINAL_COLOURS = (
    "red", "dodger_blue1", "yellow", "green3", "medium_purple1", "dark_orange", "white",
    "grey50", "hot_pink", "dark_cyan",
)

def legend(holes_per_side: int) -> str:
    """What the marks mean on a board of ``holes_per_side`` holes a side."""
    eight = holes_per_side - 3
    fifths = ", ".join(str(n) for n in range(5, holes_per_side + 1, 5) if n != eight)
    return (f"{HOLE} hole   {FIFTH} {fifths}   {EIGHT_BACK} {eight}: 8 back from the "
            f"out-hole   {START_HOLE} start   {HOME_HOLE} home   {POINTER} the option under "
            "the cursor")

#: Horizontal stretch of the polygon (terminals are wider than tall).
STRETCH = 1.0

Cell = tuple[int, int]  # (row, column of two-character cells)


@dataclass(frozen=True)
class Layout:
    """Where every hole of a table is drawn."""

    rows: int
    cols: int
    ring: tuple[Cell, ...]
    home: tuple[tuple[Cell, ...], ...]
    start: tuple[tuple[Cell, ...], ...]
    labels: tuple[tuple[int, int, str, int], ...]  # (row, character column, text, seat or -1)


def marked(hole: int, holes_per_side: int) -> str:
    """The mark of ring hole ``hole`` (1-based on its side): fifth, 8-back spot or plain."""
    if hole == holes_per_side - 3:
        return EIGHT_BACK
    return FIFTH if hole % 5 == 0 else HOLE


def _attempt(geo: Geometry, radius: float) -> Layout | None:
    """The layout at this radius, or None when two holes would share a cell."""
    sides = geo.ring_size // geo.holes_per_side
    h = geo.holes_per_side
    vertices = []
    for k in range(sides + 1):
        phi = math.pi / 2 - math.pi / sides + 2 * math.pi * k / sides
        vertices.append((radius * STRETCH * math.cos(phi), radius * math.sin(phi)))

    def on_side(side: int, t: float) -> tuple[float, float]:
        (x0, y0), (x1, y1) = vertices[side], vertices[side + 1]
        return x0 + (x1 - x0) * t, y0 + (y1 - y0) * t

    def cell(x: float, y: float) -> Cell:
        return round(y), round(x)

    ring = tuple(cell(*on_side(i // h, (i % h + 0.5) / h)) for i in range(geo.ring_size))
    taken = set(ring)
    if len(taken) != len(ring):
        return None
    home: list[tuple[Cell, ...]] = []
    start: list[tuple[Cell, ...]] = []
    labels: list[tuple[int, int, str, int]] = []
    for seat in range(geo.players):
        side = geo.side_of[seat]
        vx, vy = vertices[side]
        ux, uy = -vx, -vy
        scale = max(abs(ux), abs(uy))
        track = tuple(cell(vx + ux / scale * (2 + j), vy + uy / scale * (2 + j))
                      for j in range(geo.home_holes))
        mx, my = on_side(side, 0.5)
        norm = math.hypot(mx, my)
        nx, ny = -mx / norm, -my / norm
        first = min(5, h - geo.pegs)
        spots = tuple(cell(px + nx * 2.6, py + ny * 2.6)
                      for px, py in (on_side(side, (first + j + 0.5) / h)
                                     for j in range(geo.pegs)))
        for c in (*track, *spots):
            if c in taken:
                return None
            taken.add(c)
        home.append(track)
        start.append(spots)
        name = "{} {}".format(*SEAT_COLOURS[seat])
        labels.append((round(my - ny * 3.2), round(2 * (mx - nx * 3.2)) - len(name) // 2,
                       name, seat))
    for i, (row, col) in enumerate(ring):
        hole = i % h + 1
        if marked(hole, h) != HOLE:
            mx, my = on_side(i // h, 0.5)
            d = math.hypot(mx, my)
            labels.append((round(row + my / d * 1.2), 2 * round(col + mx / d * 1.2), str(hole),
                           -1))
    rows = [r for r, _ in taken] + [r for r, _, _, _ in labels]
    lefts = [2 * c for _, c in taken] + [c for _, c, _, _ in labels]
    rights = [2 * c + 2 for _, c in taken] + [c + len(t) for _, c, t, _ in labels]
    top = min(rows)
    left = min(lefts) // 2 * 2  # keep holes on even character columns

    def shift(c: Cell) -> Cell:
        return c[0] - top, c[1] - left // 2

    return Layout(
        max(rows) - top + 1, (max(rights) - left + 1) // 2, tuple(shift(c) for c in ring),
        tuple(tuple(shift(c) for c in t) for t in home),
        tuple(tuple(shift(c) for c in s) for s in start),
        tuple((r - top, c - left, t, s) for r, c, t, s in labels),
    )


@lru_cache(maxsize=64)
def layout(geo: Geometry) -> Layout:
    """The smallest layout of this table in which every hole has a cell of its own."""
    radius = geo.ring_size / (2 * math.pi * 1.2)
    while True:
        found = _attempt(geo, radius)
        if found is not None:
            return found
        radius += 0.25


def seat_style(seat: int) -> Style:
    return Style(color=TERMINAL_COLOURS[seat], bold=True)


def render(
    geo: Geometry,
    pegs: Sequence[Sequence[int]],
    highlight: Collection[tuple[int, int]] = (),
    last: Collection[tuple[int, int]] = (),
    pointed: Collection[tuple[int, int]] = (),
) -> Text:
    """The board with the pegs of ``pegs`` (``view.pegs``): ``highlight`` marks pegs a player
    may pick (reverse video), ``last`` the pegs the last move touched (underlined) and
    ``pointed`` the peg or holes of the option under the cursor (a ``POINTER`` before
    each); all are ``(seat, position)`` pairs."""
    lay = layout(geo)
    grid: list[list[tuple[str, Style | None]]] = [
        [(" ", None)] * (2 * lay.cols) for _ in range(lay.rows)
    ]
    dim = Style(dim=True)

    def put(c: Cell, char: str, style: Style | None) -> None:
        grid[c[0]][2 * c[1]] = (char, style)

    h = geo.holes_per_side
    for i, c in enumerate(lay.ring):
        mark = marked(i % h + 1, h)
        put(c, mark, dim if mark == HOLE else Style(bold=True))
    for row, col, label, seat in lay.labels:
        style = seat_style(seat) if seat >= 0 else dim
        for k, ch in enumerate(label):
            if 0 <= col + k < 2 * lay.cols and grid[row][col + k][0] == " ":
                grid[row][col + k] = (ch, style)
    picked = set(highlight)
    touched = set(last)
    for seat in range(geo.players):
        colour = Style(color=TERMINAL_COLOURS[seat])
        for c in lay.home[seat]:
            put(c, HOME_HOLE, colour)
        for c in lay.start[seat]:
            put(c, START_HOLE, colour)
        letter = SEAT_COLOURS[seat][1]
        in_start = 0
        for pos in sorted(pegs[seat]):
            if pos == START:
                c = lay.start[seat][in_start]
                in_start += 1
            elif pos < geo.ring_size:
                c = lay.ring[pos]
            else:
                c = lay.home[seat][pos - geo.ring_size]
            style = seat_style(seat)
            if (seat, pos) in picked:
                style += Style(reverse=True)
            if (seat, pos) in touched:
                style += Style(underline=True)
            put(c, letter, style)
    for seat, pos in pointed:
        if pos == START:
            row, col = lay.start[seat][0]
        elif pos < geo.ring_size:
            row, col = lay.ring[pos]
        else:
            row, col = lay.home[seat][pos - geo.ring_size]
        if col > 0:
            grid[row][2 * col - 1] = (POINTER, Style(bold=True))
    text = Text()
    for i, cells in enumerate(grid):
        if i:
            text.append("\n")
        line = list(cells)
        while line and line[-1][0] == " ":
            line.pop()
        for ch, look in line:
            text.append(ch, look or "")
    return text
