"""Bluffing Joker (RULES.md section 5, I-23 to I-26): declarations, doubts, hidden cards."""

from __future__ import annotations

from helpers import card_count, position
from pegs.rules import Action, GameState, IllegalActionError, Rules, view

BLUFF = Rules.preset("bluffing-joker")  # basic rules, 4 seats: opponents of 0 are 1 and 3


def _play(state: GameState, *texts: str) -> GameState:
    for text in texts:
        state = state.apply(Action.parse(text))
        assert card_count(state) + (state.pending is not None) == BLUFF.total_cards
    return state


def _names(state: GameState, seat: int) -> list[str]:
    return sorted(state.geo.name(p) for p in state.pegs[seat])


def test_any_card_may_be_declared_as_any_rank_with_a_legal_move() -> None:
    st = position(BLUFF, {0: ["0.5"], 1: ["1.5"]}, ["5"])
    texts = {str(a) for a in st.legal_actions()}
    assert "5 as 5: 0.5>0.10" in texts  # the truth
    assert "5 as 7: 0.5>0.12" in texts  # a bluff
    assert "5 as 8: 0.5<3.15" in texts
    assert "5 as J*: S>1.5x" in texts
    assert "5 as A: S>0.5" not in texts  # the out-hole holds the seat's own peg
    assert not any(a.discard for a in st.legal_actions())
    assert all(a.card == "5" for a in st.legal_actions())


def test_declarations_must_be_legal_for_the_declared_rank() -> None:
    st = position(BLUFF, {0: ["0.5"]}, ["5"])
    before = st.key()
    for text in ("5 as 7: 0.5>0.13", "5 as 8: 0.5>0.13", "6 as 6: 0.5>0.11"):
        try:
            st.apply(Action.parse(text))
        except IllegalActionError:
            pass
        else:
            raise AssertionError(f"{text} was accepted")
    assert st.key() == before


def test_no_discard_while_a_start_peg_can_come_out() -> None:
    st = position(BLUFF, {}, ["5", "6"])
    assert not any(a.discard for a in st.legal_actions())  # I-26: declare an ace, say
    assert "5 as A: S>0.5" in {str(a) for a in st.legal_actions()}


def test_opponents_are_asked_clockwise_and_an_undoubted_card_stays_hidden() -> None:
    st = _play(position(BLUFF, {0: ["0.5"], 1: ["1.5"]}, ["5"]), "5 as 7: 0.5>0.12")
    assert st.current_player == 1
    assert [str(a) for a in st.legal_actions()] == ["doubt", "pass"]
    # the other seats see the declaration, not the card
    for seat in (1, 2, 3):
        v = view(st, seat)
        assert v.pending is not None and v.pending.action.card != "5"
        assert v.pending.action.declared == "7"
    assert view(st, 0).pending.action.card == "5"  # type: ignore[union-attr]
    st = _play(st, "pass")
    assert st.current_player == 3  # seat 2 is a partner: never asked
    st = _play(st, "pass")
    assert st.pending is None
    assert st.current_player == 1
    assert _names(st, 0) == ["0.12", "S", "S", "S", "S"]
    assert "5" in st.discards
    for seat in (1, 2, 3):
        v = view(st, seat)
        assert "5" not in v.discards and v.hidden_discards == 1
    assert "5" in view(st, 0).discards


def test_a_doubted_bluff_costs_a_ring_peg_and_the_move() -> None:
    st = _play(position(BLUFF, {0: ["0.5", "2.3"], 1: ["1.5"]}, ["5"]),
               "5 as 7: 0.5>0.12", "doubt")
    # the doubting side picks one of the bluffer's ring pegs (I-25: the doubter itself)
    assert st.current_player == 1
    assert sorted(str(a) for a in st.legal_actions()) == ["send 0.5", "send 2.3"]
    st = _play(st, "send 2.3")
    assert st.pending is None
    assert _names(st, 0) == ["0.5", "S", "S", "S", "S"]  # no move, one peg home to start
    assert _names(st, 1) == ["1.5", "S", "S", "S", "S"]
    assert st.current_player == 1
    assert "5" in view(st, 3).discards  # a doubted card is shown


def test_a_doubted_truth_costs_the_doubter_a_peg_then_the_move_is_made() -> None:
    st = _play(position(BLUFF, {0: ["0.5"], 1: ["1.5", "3.3"]}, ["7"]),
               "7 as 7: 0.5>0.12", "doubt")
    assert st.current_player == 0  # the declarer chooses
    assert sorted(str(a) for a in st.legal_actions()) == ["send 1.5", "send 3.3"]
    st = _play(st, "send 3.3")
    assert _names(st, 1) == ["1.5", "S", "S", "S", "S"]
    assert _names(st, 0) == ["0.12", "S", "S", "S", "S"]
    assert st.current_player == 1


def test_bluffer_without_ring_pegs_gives_the_doubter_an_extra_turn() -> None:
    st = _play(position(BLUFF, {1: ["1.5"]}, ["5"]), "5 as A: S>0.5", "doubt")
    assert st.pending is None
    assert _names(st, 0) == ["S"] * 5  # the declared move is not made
    assert st.current_player == 1
    assert st.extra[1] == 1
    # seat 1 plays its turn, then plays again (I-24)
    seat1 = st.legal_actions()[0]
    st = st.apply(seat1)
    while st.pending is not None:
        st = st.apply(Action.parse("pass"))
    assert st.current_player == 1


def test_doubter_without_ring_pegs_gives_the_declarer_an_extra_turn() -> None:
    st = _play(position(BLUFF, {0: ["0.5"]}, ["7"]), "7 as 7: 0.5>0.12", "doubt")
    assert st.pending is None
    assert _names(st, 0) == ["0.12", "S", "S", "S", "S"]
    assert st.extra[0] == 1
    assert st.current_player == 1
