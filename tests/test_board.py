"""Board geometry against RULES.md section 1."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pegs.rules import START, Rules, geometry
from pegs.rules.board_work import WorkBoard, change_of, index_of, moved


def _rules(players: int, **kw: object) -> Rules:
    teams = kw.pop("teams", 0)
    return Rules.preset("basic", players=players, teams=teams, **kw)


@pytest.mark.parametrize(
    ("players", "sides", "expected"),
    [
        (2, 4, (0, 2)),  # two players sit opposite on a 4-sided board
        (3, 3, (0, 1, 2)),
        (4, 4, (0, 1, 2, 3)),
        (5, 5, (0, 1, 2, 3, 4)),
        (6, 6, tuple(range(6))),
        (8, 8, tuple(range(8))),
        (10, 10, tuple(range(10))),
    ],
)
def test_default_sides_and_seat_sides(players: int, sides: int, expected: tuple[int, ...]) -> None:
    r = _rules(players)
    assert r.sides == sides
    geo = geometry(r)
    assert geo.side_of == expected
    assert geo.ring_size == sides * r.holes_per_side


@pytest.mark.parametrize(("players", "sides"), [(3, 6), (4, 6), (5, 8), (2, 6), (3, 4)])
def test_seat_side_is_floor_of_p_times_sides_over_players(players: int, sides: int) -> None:
    geo = geometry(_rules(players, sides=sides))
    assert geo.side_of == tuple(p * sides // players for p in range(players))


def test_sides_must_hold_every_player() -> None:
    with pytest.raises(ValueError, match="sides"):
        _rules(6, sides=4)


@pytest.mark.parametrize("preset", ["pegoo", "basic"])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 8, 10])
def test_out_hole_door_and_the_eight_back_marker(preset: str, players: int) -> None:
    r = Rules.preset(preset, players=players, teams=0)
    geo = geometry(r)
    h, ring = r.holes_per_side, geo.ring_size
    for seat in range(players):
        side = geo.side_of[seat]
        assert geo.name(geo.out_hole[seat]) == f"{side}.5"
        before = (side - 1) % r.sides
        assert geo.name(geo.door[seat]) == f"{before}.{h}"
        # the door is 5 holes behind the out-hole: coming out leaves sides*H - 5 to go
        assert (geo.door[seat] - geo.out_hole[seat]) % ring == ring - 5
        # backing 8 from the out-hole lands 3 before the door (Pegoo's hole 17 marker)
        eight_back = (geo.out_hole[seat] - 8) % ring
        assert (geo.door[seat] - eight_back) % ring == 3
        assert geo.name(eight_back) == f"{before}.{h - 3}"


def test_pegoo_four_player_landmarks() -> None:
    geo = geometry(Rules.preset("pegoo"))
    assert geo.name(geo.out_hole[0]) == "0.5"
    assert geo.name(geo.door[0]) == "3.20"
    assert geo.name((geo.out_hole[0] - 8) % geo.ring_size) == "3.17"
    assert geo.name(geo.door[2]) == "1.20"
    assert geo.ring_size == 80


def test_ring_order_is_side_then_hole() -> None:
    r = Rules.preset("pegoo")
    geo = geometry(r)
    # side s hole H is followed by side s+1 hole 1; the last hole wraps to 0.1
    assert geo.parse("0.20") + 1 == geo.parse("1.1")
    assert geo.parse("3.20") == geo.ring_size - 1
    assert geo.parse("0.1") == 0
    assert geo.parse("2.7") == 2 * 20 + 6


@pytest.mark.parametrize(
    "rules",
    [
        Rules.preset("pegoo"),
        Rules.preset("basic", players=6),
        Rules.preset("basic", players=2, teams=0),
        Rules.preset("havasu", players=10),
        Rules.preset("pegoo", players=3, teams=0, holes_per_side=25, pegs=6, home_holes=8),
    ],
    ids=lambda r: f"{r.name}-{r.players}",
)
def test_position_names_round_trip(rules: Rules) -> None:
    geo = geometry(rules)
    seen = set()
    for pos in range(-1, geo.ring_size + rules.home_holes):
        name = geo.name(pos)
        assert geo.parse(name) == pos
        seen.add(name)
    assert len(seen) == geo.ring_size + rules.home_holes + 1
    assert geo.name(START) == "S"
    assert geo.parse("S") == START
    assert geo.name(geo.ring_size) == "H1"
    assert geo.name(geo.ring_size + rules.home_holes - 1) == f"H{rules.home_holes}"


@pytest.mark.parametrize(
    "text",
    ["4.1", "0.0", "0.21", "H0", "H5", "H", "X", "", "1.", ".5", "-1.3", "0.5.1", "s", "S1",
     "H1@", "0,5", "1.2x"],
)
def test_bad_position_names_raise_value_error(text: str) -> None:
    geo = geometry(Rules.preset("pegoo"))  # 4 sides of 20, 4 home holes
    with pytest.raises(ValueError) as info:
        geo.parse(text)
    assert str(info.value)


def test_all_home_is_the_far_end_of_a_longer_home() -> None:
    r = Rules.preset("basic", home_holes=7)
    geo = geometry(r)
    assert [geo.name(p) for p in geo.all_home] == ["H3", "H4", "H5", "H6", "H7"]


def test_pegoo_spoken_numbers() -> None:
    geo = geometry(Rules.preset("pegoo"))
    assert geo.pegoo_number(START) == "START"
    assert geo.pegoo_number(geo.parse("2.17")) == "17"
    assert geo.pegoo_number(geo.parse("H1")) == "21"  # Pegoo numbers home H+1..H+k
    assert geo.pegoo_number(geo.parse("H4")) == "24"


@pytest.mark.parametrize(("teams", "expected"), [(0, None), (2, (0, 2, 4)), (3, (0, 3))])
def test_teams_alternate(teams: int, expected: tuple[int, ...] | None) -> None:
    geo = geometry(Rules.preset("pegoo", players=6, teams=teams))
    if expected is None:
        assert geo.team_seats[0] == (0,)
        assert all(geo.opponent[0][q] for q in range(1, 6))
    else:
        assert geo.team_seats[0] == expected
        for q in range(6):
            assert geo.opponent[0][q] == (q not in expected)


@given(st.lists(st.integers(-2, 300), max_size=6), st.integers(-2, 300))
def test_index_of_finds_what_list_index_finds(holes: list[int], hole: int) -> None:
    """The scratch board's compiled ``index_of`` agrees with ``list.index``, missing
    values included (a wrong slot would move another peg)."""
    if hole in holes:
        assert index_of(holes, hole) == holes.index(hole)
    else:
        with pytest.raises(ValueError):
            index_of(holes, hole)


@given(st.data())
def test_scratch_board_log_snapshot_and_undo(data: st.DataObject) -> None:
    """Moves with hits on the scratch board: its snapshot is the start layout moved by its
    log, each peg is where ``where`` follows it, the ring holes say whose peg stands there,
    and undoing to a mark restores the board as it was at the mark."""
    geo = geometry(Rules.preset("north-carolina", players=4))
    ring = geo.ring_size
    holes = data.draw(st.lists(st.integers(0, ring - 1), min_size=16, max_size=16,
                               unique=True))
    base = tuple(tuple(sorted(holes[4 * q:4 * q + 4])) for q in range(4))
    board = WorkBoard(geo, base, data.draw(st.integers(0, 3)))
    for _ in range(data.draw(st.integers(1, 6))):
        seat = data.draw(st.integers(0, 3))
        on_ring = [p for p in board.pos[seat] if 0 <= p < ring]
        if not on_ring:
            continue
        before, occ = board.snapshot(), list(board.occ)
        mark = board.mark()
        src, dst = data.draw(st.sampled_from(on_ring)), data.draw(st.integers(0, ring - 1))
        if dst == src or not board.land(seat, src, dst):
            board.undo(mark)
            assert board.snapshot() == before and list(board.occ) == occ
            continue
        assert board.where(seat, src, mark) == dst
        layout = board.snapshot()
        assert layout == moved(base, tuple(change_of(code) for code in board.log))
        assert [board.occ[h] for h in range(ring)] == [
            next((q for q, ps in enumerate(layout) if h in ps), -1) for h in range(ring)]
    board.undo(0)
    assert board.snapshot() is base
    assert board.snapshot(1) == base
