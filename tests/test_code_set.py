"""The native set of split codes (pegs.rules.code_set) against Python's set."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pegs.rules.code_set import CodeSet
from pegs.rules.pairs import group_code, group_of


@given(st.lists(st.integers(0, 2**40)), st.lists(st.integers(0, 2**40)))
def test_holds_what_a_set_holds(added: list[int], asked: list[int]) -> None:
    codes = CodeSet()
    for code in added:
        codes.add(code)
    assert len(codes) == len(set(added))
    assert sorted(codes.codes()) == sorted(set(added))
    for code in added + asked:
        assert (code in codes) == (code in added)


@given(st.integers(0, 59), st.integers(0, 59), st.integers(1, 9), st.booleans(), st.booleans())
def test_a_group_code_gives_back_its_group(i: int, j: int, k: int, fx: bool, fy: bool) -> None:
    code = group_code(i, j, k, fx, fy)
    assert code >= 0
    assert group_of(code) == (i, j, k, fx, fy)
