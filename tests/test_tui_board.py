"""The terminal board: its layout for every table, and text snapshots of seeded positions.

The snapshots are in tests/tui_boards/.  After an intended change to the drawing, write
them again with ``PEGS_REGENERATE=1 .venv/bin/python -m pytest tests/test_tui_board.py``
and look at the difference before committing it.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from pegs.notation import SEAT_COLOURS
from pegs.rules import GameState, Rules, geometry
from pegs.rules.board import START
from pegs.tui.board import (
    EIGHT_BACK,
    FIFTH,
    HOLE,
    HOME_HOLE,
    POINTER,
    START_HOLE,
    layout,
    render,
)

SNAPSHOTS = Path(__file__).parent / "tui_boards"
REGENERATE = os.environ.get("PEGS_REGENERATE") == "1"


def played(players: int, plies: int, seed: int) -> GameState:
    """A Pegoo position after ``plies`` random actions, chosen among the legal ones ordered
    by card and the layout each leads to: the position (and so the snapshot) does not
    depend on the order in which the engine lists its actions."""
    state = GameState.new(Rules.preset("pegoo", players=players), seed)
    rng = random.Random(seed)
    for _ in range(plies):
        here = state
        state = state.apply(rng.choice(sorted(
            here.legal_actions(), key=lambda a: (a.card, a.discard, here.result_of(a)))))
    return state


def grid(text: str) -> list[str]:
    return text.split("\n")


def at(lines: list[str], cell: tuple[int, int]) -> str:
    row, col = cell
    line = lines[row]
    return line[2 * col] if 2 * col < len(line) else " "


@pytest.mark.parametrize("players", [4, 6, 8])
def test_snapshot_of_a_seeded_position(players: int) -> None:
    state = played(players, plies=150, seed=players)
    drawn = render(state.geo, state.pegs).plain
    path = SNAPSHOTS / f"pegoo-{players}.txt"
    if REGENERATE:
        path.write_text(drawn + "\n", encoding="utf-8")
    assert path.exists(), f"missing {path}: run with PEGS_REGENERATE=1 to write it"
    assert drawn + "\n" == path.read_text(encoding="utf-8")
    lines = grid(drawn)
    lay = layout(state.geo)
    on_ring = {pos: seat for seat, pegs in enumerate(state.pegs) for pos in pegs
               if 0 <= pos < state.geo.ring_size}
    assert on_ring, "the snapshot position should have pegs on the ring"
    for pos, cell in enumerate(lay.ring):
        expected = SEAT_COLOURS[on_ring[pos]][1] if pos in on_ring else None
        shown = at(lines, cell)
        if expected:
            assert shown == expected, (pos, shown)
        else:
            assert shown in (HOLE, FIFTH, EIGHT_BACK), (pos, shown)


@pytest.mark.parametrize("players", range(2, 11))
@pytest.mark.parametrize("holes", [18, 20, 25])
def test_every_table_has_a_cell_for_every_hole(players: int, holes: int) -> None:
    rules = Rules.preset("basic", players=players, teams=0, holes_per_side=holes)
    geo = geometry(rules)
    lay = layout(geo)
    cells = [*lay.ring, *(c for t in lay.home for c in t), *(c for s in lay.start for c in s)]
    assert len(lay.ring) == geo.ring_size
    assert all(len(t) == geo.home_holes for t in lay.home)
    assert all(len(s) == geo.pegs for s in lay.start)
    assert len(set(cells)) == len(cells), "two holes share a cell"
    assert all(0 <= r < lay.rows and 0 <= c < lay.cols for r, c in cells)
    # the ring is drawn as one closed line of neighbouring holes ...
    for a, b in zip(lay.ring, lay.ring[1:] + lay.ring[:1], strict=True):
        assert max(abs(a[0] - b[0]), abs(a[1] - b[1])) <= 2, (a, b)
    # ... clockwise on the screen (rows grow downward), seat 0's side at the bottom
    area = sum(a[1] * b[0] - b[1] * a[0]
               for a, b in zip(lay.ring, lay.ring[1:] + lay.ring[:1], strict=True))
    assert area > 0
    bottom = max(r for r, _ in lay.ring)
    assert any(r == bottom for r, _ in lay.ring[:holes])


def test_holes_marks_start_and_home_of_a_new_game() -> None:
    rules = Rules.preset("pegoo", players=4)
    geo = geometry(rules)
    state = GameState.new(rules, 1)
    lines = grid(render(geo, state.pegs).plain)
    lay = layout(geo)
    marks = [at(lines, c) for c in lay.ring]
    sides = rules.sides
    assert marks.count(FIFTH) == 4 * sides  # 5, 10, 15, 20 on each side
    assert marks.count(EIGHT_BACK) == sides
    assert all(marks[s * 20 + 16] == EIGHT_BACK for s in range(sides))  # hole 17
    assert all(marks[s * 20 + h - 1] == FIFTH for s in range(sides) for h in (5, 10, 15, 20))
    assert set(marks) == {HOLE, FIFTH, EIGHT_BACK}
    for seat in range(rules.players):
        letter = SEAT_COLOURS[seat][1]
        assert [at(lines, c) for c in lay.start[seat]] == [letter] * rules.pegs
        assert [at(lines, c) for c in lay.home[seat]] == [HOME_HOLE] * rules.home_holes
        label = f"{SEAT_COLOURS[seat][0]} {letter}"
        assert sum(label in line for line in lines) == 1
    for number in ("5", "10", "15", "17", "20"):
        assert sum(line.split().count(number) for line in lines) >= sides - 1


def test_pegs_at_home_and_in_start_and_highlights() -> None:
    rules = Rules.preset("pegoo", players=4)
    geo = geometry(rules)
    ring = geo.ring_size
    pegs = ((START, 4, ring, ring + 2), (START,) * 4, (START,) * 4, (START,) * 4)
    text = render(geo, pegs, highlight={(0, 4)}, last={(0, ring)})
    lines = grid(text.plain)
    lay = layout(geo)
    assert [at(lines, c) for c in lay.start[0]] == ["R", START_HOLE, START_HOLE, START_HOLE]
    assert [at(lines, c) for c in lay.home[0]] == ["R", HOME_HOLE, "R", HOME_HOLE]
    assert at(lines, lay.ring[4]) == "R"
    styles = {str(span.style) for span in text.spans}
    assert any("reverse" in s for s in styles)
    assert any("underline" in s for s in styles)


def test_the_option_under_the_cursor_is_pointed_at() -> None:
    rules = Rules.preset("pegoo", players=4)
    geo = geometry(rules)
    pegs = ((START, 4, START, START), (START,) * 4, (START,) * 4, (START,) * 4)
    lay = layout(geo)
    lines = grid(render(geo, pegs, pointed={(0, 4), (0, 11), (0, geo.ring_size)}).plain)
    for row, col in (lay.ring[4], lay.ring[11], lay.home[0][0]):
        assert lines[row][2 * col - 1] == POINTER
    assert sum(line.count(POINTER) for line in lines) == 3
    assert POINTER not in render(geo, pegs).plain


def test_the_legend_names_the_marks_of_the_board_in_play() -> None:
    from pegs.tui.board import legend

    assert "○ 5, 10, 15, 20   ◇ 17: 8 back from the out-hole" in legend(20)
    short = legend(18)
    assert "○ 5, 10   ◇ 15: 8 back from the out-hole" in short and "20" not in short
    assert "○ 5, 10, 15, 20, 25   ◇ 22: 8 back" in legend(25)
