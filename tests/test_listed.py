"""The native store of a ten's simulated splits (pegs.rules.listed) against plain lists."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from librt.vecs import vec
from mypy_extensions import i64

from pegs.rules import START, Rules, geometry
from pegs.rules.board_work import IN_HAND, Change, Pegs, change_code, change_of, moved
from pegs.rules.listed import Listed, Make, peg_in

Split = tuple[Make, Make, tuple[Change, ...]]

GEO = geometry(Rules.preset("north-carolina", players=4))
RING = GEO.ring_size
#: pegs of every seat on the ring, one in start
BASE: Pegs = tuple(tuple(sorted((START, 3 + 20 * q, 9 + 20 * q, 15 + 20 * q))) for q in range(4))


def peg_table(pegs: list[tuple[int, int]]) -> tuple[vec[i64], vec[i64]]:
    """The table of :func:`peg_in` for these (seat, position) pegs, as the engine makes it."""
    home = GEO.home_holes
    index = vec[i64]([-1] * (RING + home * len(BASE)))
    for i, (q, p) in enumerate(pegs):
        index[p if p < RING else p + q * home] = i
    return index, vec[i64]([q for q, _ in pegs])


def test_a_peg_is_found_at_its_hole_for_its_own_seat_only() -> None:
    """Ring pegs, home pegs of two seats at the same home hole, start and the hand."""
    pegs = [(0, 5), (1, 30), (0, RING), (2, RING), (2, RING + 2)]
    index, seats = peg_table(pegs)
    home = GEO.home_holes
    for i, (q, p) in enumerate(pegs):
        assert peg_in(index, seats, RING, home, q, p) == i
        assert peg_in(index, seats, RING, home, (q + 1) % 4, p) == -1
    for pos in (START, IN_HAND, 6, RING + 1):
        assert peg_in(index, seats, RING, home, 0, pos) == -1


@given(st.integers(0, 9), st.integers(IN_HAND, 1000), st.integers(IN_HAND, 1000))
def test_a_peg_move_reads_back_as_written(seat: int, src: int, dst: int) -> None:
    assert change_of(change_code(seat, src, dst)) == (seat, src, dst)


@st.composite
def splits(draw: st.DrawFn) -> Split:
    """Two steps and one to three peg moves, each of a peg where it stands by then."""
    pegs = [list(ps) for ps in BASE]
    changes: list[Change] = []
    for _ in range(draw(st.integers(1, 3))):
        q = draw(st.integers(0, 3))
        a = draw(st.sampled_from(pegs[q]))
        b = draw(st.sampled_from([START, *range(RING)]))
        pegs[q][pegs[q].index(a)] = b
        changes.append((q, a, b))
    first: Make = (changes[0][0], changes[0][1], changes[0][2], draw(st.sampled_from("<>")),
             draw(st.booleans()))
    second: Make = (changes[-1][0], changes[-1][1], changes[-1][2], draw(st.sampled_from("<>")),
              draw(st.booleans()))
    return first, second, tuple(changes)


@given(st.lists(splits(), max_size=40), st.booleans(), st.data())
def test_keeps_each_layout_once_in_order(found: list[Split], shared_keys: bool,
                                         data: st.DataObject) -> None:
    """A split is kept unless an earlier kept one leads to its layout; its steps and moves
    read back as given.  With every key zero, all layouts share one key change and only
    the full comparison tells them apart."""
    keys = vec[i64]([0] * len(GEO.flat_keys)) if shared_keys else GEO.flat_keys
    listed = Listed(BASE, keys, len(GEO.keys[0]))
    kept: list[Split] = []
    for first, second, changes in found:
        listed.start(first, second)
        listed.moves(changes)
        listed.finish()
        if all(moved(BASE, changes) != moved(BASE, other[2]) for other in kept):
            kept.append((first, second, changes))
    assert len(listed) == len(kept)
    for n, (first, second, changes) in enumerate(kept):
        for step, got in ((first, listed.step(n, False)), (second, listed.step(n, True))):
            assert got == (step[0], step[1], step[2], step[3] == ">", step[4])
        assert listed.changes(n) == changes
        assert listed.layout(n) == moved(BASE, changes)
    gone = data.draw(st.lists(st.integers(0, max(0, len(kept) - 1)), unique=True)) if kept else []
    listed.drop(gone)
    rest = [split for n, split in enumerate(kept) if n not in gone]
    assert [listed.changes(n) for n in range(len(listed))] == [split[2] for split in rest]


@given(st.lists(splits(), max_size=12), st.lists(st.integers(0, 11), max_size=2, unique=True))
def test_pairs_left_are_the_pegs_whose_holes_end_empty(found: list[Split],
                                                        silent: list[int]) -> None:
    """Two pegs are marked when some kept split's layout has both their holes empty on
    the unchanged board (or a peg counts as always left: ``silent``), whatever the order
    and number of the moves that empty or refill a hole."""
    pegs = [(q, p) for q, ps in enumerate(BASE) for p in ps if p != START]
    index, seats = peg_table(pegs)
    listed = Listed(BASE, GEO.flat_keys, len(GEO.keys[0]))
    for first, second, changes in found:
        listed.start(first, second)
        listed.moves(changes)
        listed.finish()
    expected = [False] * (len(pegs) ** 2)
    for n in range(len(listed)):
        layout = listed.layout(n)
        cands = set(silent) | {i for i, (q, p) in enumerate(pegs) if p not in layout[q]}
        for i in cands:
            for j in cands:
                expected[i * len(pegs) + j] = True
    assert list(listed.pairs_left(index, seats, RING, GEO.home_holes, silent)) == expected
