"""The native set of split codes (pegs.rules.code_set) against Python's set."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pegs.rules.code_set import CodeSet


@given(st.lists(st.integers(0, 2**40)), st.lists(st.integers(0, 2**40)))
def test_holds_what_a_set_holds(added: list[int], asked: list[int]) -> None:
    codes = CodeSet()
    for code in added:
        codes.add(code)
    assert len(codes) == len(set(added))
    assert sorted(codes.codes()) == sorted(set(added))
    for code in added + asked:
        assert (code in codes) == (code in added)
