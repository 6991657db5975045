"""The terminal game driven by key presses through Textual's headless pilot."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from textual import events
from textual.pilot import Pilot
from textual.widgets import Input, OptionList, Static

from pegs.house import HouseName
from pegs.notation import seat_name, team_name
from pegs.record import length_words, load
from pegs.rules import GameState, Rules
from pegs.tui.app import PegsApp
from pegs.tui.board import POINTER, layout
from pegs.tui.screens import CoverScreen, TextScreen
from pegs.tui.session import Session

SIZE = (150, 48)


@pytest.fixture(autouse=True)
def private_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PEGS_DATA_DIR", str(tmp_path / "data"))


def small_table() -> Rules:
    """Two players, three pegs each: the quickest whole game."""
    return Rules.preset("basic", players=2, teams=0, pegs=3)


def text_of(app: PegsApp, selector: str) -> str:
    return str(app.query_one(selector, Static).render())


async def until(pilot: Pilot[None], test: Callable[[], bool], seconds: float = 20) -> None:
    end = time.monotonic() + seconds
    while not test():
        assert time.monotonic() < end, "timed out waiting"
        await pilot.pause(0.01)


def my_turn(app: PegsApp) -> bool:
    return app.picker is not None and not isinstance(app.screen, CoverScreen)


def quick_table() -> Rules:
    """Pegoo for two with three pegs on the smallest board: whole games in under 100 plies."""
    return Rules.preset("pegoo", players=2, teams=0, pegs=3, holes_per_side=18)


async def press_until_over(pilot: Pilot[None], app: PegsApp) -> int:
    """Press Enter (the first option) at every choice until the game ends; the presses."""
    session, presses = app.session, 0

    def mark() -> tuple[int, tuple[str, ...] | None]:
        return session.state.ply, (app.picker.chosen if app.picker else None)

    while not app.finished:
        await until(pilot, lambda: my_turn(app) or bool(app.finished))
        if app.finished:
            break
        before = mark()
        app.simulate_key("enter")
        presses += 1
        await until(pilot, lambda before=before: mark() != before)
    return presses


# deals picked so that pressing Enter at every choice wins one game and loses the other
# (a change in the order of the legal list can change the game: pick them anew)
@pytest.mark.parametrize(("seed", "human_wins"), [(26, True), (20, False)])
def test_a_human_plays_a_whole_game_against_a_random_bot(
    tmp_path: Path, seed: int, human_wins: bool
) -> None:
    path = tmp_path / "game.json"
    session = Session(quick_table(), seed, ("human", "random"), path)
    app = PegsApp(session, delay=0)

    async def run() -> int:
        async with app.run_test(size=SIZE) as pilot:
            presses = await press_until_over(pilot, app)
            assert "wins after" in text_of(app, "#prompt")
            await pilot.press("q")
        return presses

    presses = asyncio.run(run())
    outcome = session.state.outcome()
    assert outcome is not None and presses >= 10
    assert (outcome.seats == (0,)) is human_wins
    winner = "Seat 0 (Red, R)" if human_wins else "Seat 1 (Blue, B)"
    assert app.finished == f"{winner} wins after {length_words(session.actions)}."
    record = load(path)  # verifies every action
    human = [a for state, a in record.states() if a is not None and state.current_player == 0]
    assert len(human) >= 10
    assert record.actions == session.actions
    assert record.replay().outcome() == outcome


def test_quit_and_resume_continue_the_same_game(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    first = Session(small_table(), 5, ("human", "random"), path)
    app = PegsApp(first, delay=0)

    async def play_some() -> None:
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(6):
                await until(pilot, lambda: my_turn(app))
                await pilot.press("1")
                await until(pilot, lambda: app.picker is None or app.picker.chosen == ())
                while app.picker is not None and app.picker.chosen:
                    await pilot.press("1")
            await until(pilot, lambda: my_turn(app))
            await pilot.press("q")

    asyncio.run(play_some())
    assert not app.finished
    assert len(first.actions) >= 12
    again = Session.resume(path)
    assert again.seats == ("human", "random")
    assert again.actions == first.actions
    assert again.state == first.state
    second = PegsApp(again, delay=0)

    async def carry_on() -> str:
        async with second.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: my_turn(second))
            log = "".join("".join(line.plain.split()) for line in second.log_view.entries)
            assert "".join(first.recent[-1].split()) in log  # wrapping aside
            assert f"Resumedafter{len(first.actions)}actions" in log
            hand = text_of(second, "#hand")
            await pilot.press("enter")
            await until(pilot, lambda: len(again.actions) > len(first.actions))
            return hand

    hand = asyncio.run(carry_on())
    assert "  ".join(f"[{c}]" for c in first.state.hands[0]) in hand
    assert load(path).actions[: len(first.actions)] == first.actions
    assert len(load(path).actions) > len(first.actions)


def test_illegal_input_shows_a_message_and_changes_nothing(tmp_path: Path) -> None:
    session = Session(Rules.preset("pegoo"), 5, ("human", "random", "random", "random"),
                      tmp_path / "g.json")
    app = PegsApp(session, delay=0)

    async def run() -> list[str]:
        seen = []
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: my_turn(app))
            await pilot.press("9")
            seen.append(text_of(app, "#message"))
            await pilot.press("t", *"7: 0.5>0.9", "enter")
            seen.append(text_of(app, "#message"))
            notation = app.query_one("#notation", Input)
            assert notation.value == "7: 0.5>0.9"  # kept for correcting
            notation.value = ""
            await pilot.press(*"nonsense", "enter")
            seen.append(text_of(app, "#message"))
            assert session.state.ply == 0
            await pilot.press("escape")
            legal = str(session.state.legal_actions()[0])
            await pilot.press("t")
            notation.value = legal
            await pilot.press("enter")
            await until(pilot, lambda: session.state.ply > 0)
            seen.append(legal)
        return seen

    no_option, illegal, unreadable, legal = asyncio.run(run())
    assert "There is no option 9" in no_option
    assert illegal.startswith("Not legal:") and "7" in illegal
    assert "Cannot read that move" in unreadable
    assert str(session.actions[0]) == legal


def guard_passed(app: PegsApp) -> None:
    """Moves the cover's clock past its guard, as if the player had waited."""
    cover = app.screen
    assert isinstance(cover, CoverScreen)
    cover.shown_at -= cover.GUARD


def test_hot_seat_covers_the_table_between_humans(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A guard far longer than any test step: a slow machine cannot outlast it by accident.
    monkeypatch.setattr(CoverScreen, "GUARD", 3600.0)
    session = Session(small_table(), 2, ("human", "human"), tmp_path / "g.json")
    app = PegsApp(session, delay=0)

    def hand_of(seat: int) -> str:
        return "  ".join(f"[{c}]" for c in session.view_for(seat).hand)

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, CoverScreen)
            assert "Seat 0" in str(app.screen.query_one("#cover", Static).render())
            assert text_of(app, "#hand") == "Hands are hidden."
            await pilot.press("space")  # within the guard: ignored
            assert isinstance(app.screen, CoverScreen)
            guard_passed(app)
            await pilot.press("space")
            assert not isinstance(app.screen, CoverScreen)
            assert hand_of(0) in text_of(app, "#hand")
            for _ in range(6):  # a move takes at most card, peg, second peg, split
                if session.state.current_player != 0:
                    break
                await pilot.press("enter")
            await pilot.pause()
            assert session.state.current_player == 1
            assert isinstance(app.screen, CoverScreen)
            assert "Seat 1" in str(app.screen.query_one("#cover", Static).render())
            assert text_of(app, "#hand") == "Hands are hidden."
            assert app.picker is None
            await pilot.press("enter")  # one press too many right after the move
            assert isinstance(app.screen, CoverScreen)
            guard_passed(app)
            await pilot.press("x")
            assert "Seat 1" in text_of(app, "#hand")
            assert hand_of(1) in text_of(app, "#hand")

    asyncio.run(run())


def test_bluffing_joker_asks_the_human_to_doubt(tmp_path: Path) -> None:
    rules = Rules.preset("bluffing-joker", players=2, teams=0)
    session = Session(rules, 4, ("random", "human"), tmp_path / "g.json")
    app = PegsApp(session, delay=0)

    async def run() -> tuple[str, list[str], str]:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: my_turn(app))
            prompt = text_of(app, "#prompt")
            options = [str(o.prompt) for o in app.query_one("#options", OptionList).options]
            await pilot.press("1")
            await until(pilot, lambda: session.state.ply >= 2)
            return prompt, options, str(session.actions[1])

    prompt, options, decision = asyncio.run(run())
    assert "face down as" in prompt and "doubt it?" in prompt
    assert options[0].startswith("1. Doubt") and options[1].startswith("2. No doubt")
    assert decision == "doubt"


def test_hint_cue_card_and_pace_keys(tmp_path: Path) -> None:
    session = Session(Rules.preset("pegoo"), 8, ("human", "random", "random", "random"),
                      tmp_path / "g.json")
    app = PegsApp(session, delay=0.5, hint_seconds=0.05)

    async def run() -> tuple[str, str]:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: my_turn(app))
            await pilot.press("h")
            await until(pilot, lambda: "Hint, " in text_of(app, "#message"))
            hint = text_of(app, "#message")
            await pilot.press("c")
            assert isinstance(app.screen, TextScreen)
            cue = str(app.screen.query_one(Static).render())
            await pilot.press("space")
            assert not isinstance(app.screen, TextScreen)
            await pilot.press("plus")
            assert app.delay == 0.75
            for _ in range(5):
                await pilot.press("minus")
            assert app.delay == 0
            assert "instant" in text_of(app, "#status")
            return hint, cue

    hint, cue = asyncio.run(run())
    assert hint.startswith("Hint, the strong bot's move: ") and "ismcts" not in hint
    assert "(typed: " in hint  # the move in the notation too, to type it with t
    assert cue.startswith("Pegoo") and "Cards" in cue


def test_bots_wait_for_the_pace_and_all_bot_runs_play_out(tmp_path: Path) -> None:
    session = Session(Rules.preset("pegoo"), 3, ("human", "random", "random", "random"),
                      tmp_path / "g.json")
    app = PegsApp(session, delay=1.0)

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: my_turn(app))
            while session.state.ply == 0:
                pressed = time.monotonic()  # the human's move is made after this
                before = app.picker.chosen if app.picker else None
                app.simulate_key("enter")
                await until(pilot, lambda before=before: session.state.ply > 0 or (
                    app.picker is not None and app.picker.chosen != before))
            assert session.state.current_player == 1 and "thinking" in text_of(app, "#prompt")
            await until(pilot, lambda: session.state.ply == 2)
            assert time.monotonic() - pressed >= 1.0
            await until(pilot, lambda: my_turn(app))
            assert session.state.ply == 4 and session.state.current_player == 0

    asyncio.run(run())


def test_a_failed_save_is_reported_and_the_game_goes_on(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("", encoding="utf-8")
    session = Session(quick_table(), 13, ("human", "random"), blocker / "game.json")
    app = PegsApp(session, delay=0)

    async def run() -> str:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: my_turn(app))
            while session.state.ply == 0:
                await pilot.press("enter")
            await until(pilot, lambda: my_turn(app))
            return "".join(line.plain for line in app.log_view.entries)

    log = asyncio.run(run())
    assert "Warning: cannot save the game to" in log
    assert session.state.ply >= 2


def test_the_board_points_at_where_the_option_under_the_cursor_goes(tmp_path: Path) -> None:
    session = Session(Rules.preset("pegoo"), 5, ("human", "random", "random", "random"),
                      tmp_path / "g.json")
    app = PegsApp(session, delay=0)
    lay = layout(session.state.geo)

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: my_turn(app))
            await pilot.pause()
            (king,) = app.picker.options() if app.picker else ()
            assert king.label == "King: START to 5."
            row, col = lay.ring[4]  # Red's out-hole
            lines = text_of(app, "#board").split("\n")
            assert lines[row][2 * col - 1] == POINTER
            assert sum(line.count(POINTER) for line in lines) == 1

    asyncio.run(run())


def test_a_finished_team_game_shows_the_winning_team(tmp_path: Path) -> None:
    rules = Rules.preset("pegoo", players=4, pegs=3, holes_per_side=18)
    state, rng, actions = GameState.new(rules, 2), random.Random(2), []
    while not state.is_over():
        action = rng.choice(state.legal_actions())
        actions.append(action)
        state = state.apply(action)
    outcome = state.outcome()
    assert outcome is not None
    session = Session(rules, 2, ("human",) + ("random",) * 3, tmp_path / "g.json", actions)
    app = PegsApp(session, delay=0)

    async def run() -> str:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: bool(app.finished))
            return text_of(app, "#prompt")

    prompt = asyncio.run(run())
    a, b = (seat_name(s) for s in outcome.seats)
    expected = f"{team_name(outcome.team)} wins after {length_words(actions)}: {a} and {b}."
    assert app.finished == expected
    assert prompt == f"Game over. {expected}"


def test_choice_keys_typed_before_the_turn_choose_nothing(tmp_path: Path) -> None:
    session = Session(Rules.preset("pegoo"), 5, ("human", "random", "random", "random"),
                      tmp_path / "g.json")
    app = PegsApp(session, delay=0)

    def typed_before_the_turn(key: str) -> events.Key:
        event = events.Key(key, key if len(key) == 1 else None)
        event.time = app.clock.since - 0.5  # typed, then read only once the turn began
        return event

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: my_turn(app))
            assert app.options_view.has_focus
            for key in ("1", "enter", "space"):
                app.post_message(typed_before_the_turn(key))
                await pilot.pause()
                assert app.picker is not None and app.picker.chosen == ()
            await pilot.press("t")
            app.notation_input.value = str(session.state.legal_actions()[0])
            app.post_message(typed_before_the_turn("enter"))
            await pilot.pause()
            assert "Wait" in text_of(app, "#message")
            assert app.notation_input.value and session.state.ply == 0
            await pilot.press("1")  # a number in the move box is text, not a choice
            assert app.picker.chosen == () and app.notation_input.value.endswith("1")
            await pilot.press("escape", "1")  # on the list, typed in the turn: a choice
            await until(pilot, lambda: session.state.ply > 0 or app.picker.chosen != ())

    asyncio.run(run())


def whole_on_screen(app: PegsApp, widget_id: str) -> bool:
    region = app.query_one(widget_id).region
    return region.height > 0 and app.screen.region.contains_region(region)


def test_a_small_window_lists_the_pegs_and_keeps_the_move_box_and_footer(
        tmp_path: Path) -> None:
    session = Session(Rules.preset("pegoo", players=10), 5, ("human",) + ("random",) * 9,
                      tmp_path / "g.json")
    app = PegsApp(session, delay=0)

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: my_turn(app))
            await pilot.pause()
            assert app.has_class("-compact")
            assert not app.board_view.display or app.board_view.region.height == 0
            seats = text_of(app, "#seats")
            assert "seat, team, pegs; you: Red\n▶ Red    A S\N{MULTIPLICATION SIGN}4\n" in seats
            assert "Teal   B S\N{MULTIPLICATION SIGN}4\n" in seats
            assert "Bots: easy, instant (+/-)" in seats
            assert "t0" not in seats and "t1" not in seats
            for widget in ("#notation", "Footer", "#options"):
                assert whole_on_screen(app, widget), widget
            await pilot.press("1")  # the first card: still playable from the list
            await until(pilot, lambda: session.state.ply > 0 or app.picker.chosen != ())
            await pilot.resize_terminal(130, 40)
            await until(pilot, lambda: not app.has_class("-compact"))
            await pilot.pause()
            assert app.board_view.region.height > 0 and not app.seats_view.region.height

    asyncio.run(run())


def test_a_big_board_starts_at_the_players_side_and_scrolls_by_keys(tmp_path: Path) -> None:
    session = Session(Rules.preset("pegoo", players=10), 5, ("random",) * 3 + ("human",)
                      + ("random",) * 6, tmp_path / "g.json")
    app = PegsApp(session, delay=0)
    geo = session.state.geo

    def in_view(cell: tuple[int, int]) -> bool:
        row, col = cell
        box = app.board_box
        seen = box.scrollable_content_region
        top, left = box.scroll_offset.y, box.scroll_offset.x
        return top <= row < top + seen.height and left <= 1 + 2 * col < left + seen.width

    async def run() -> None:
        async with app.run_test(size=(130, 40)) as pilot:
            await until(pilot, lambda: my_turn(app))
            await pilot.pause()
            lay = layout(geo)
            assert app.board_box.max_scroll_y > 0  # the board is bigger than the window
            assert all(in_view(c) for c in (*lay.start[3], *lay.home[3]))
            before = app.board_box.scroll_offset
            await pilot.press("b")
            assert app.board_box.has_focus
            await pilot.press("up", "up")
            await until(pilot, lambda: app.board_box.scroll_offset.y == before.y - 2)
            await pilot.press("end")
            await until(pilot, lambda: app.board_box.scroll_offset.y == app.board_box.max_scroll_y)
            await pilot.press("escape")
            assert app.options_view.has_focus

    asyncio.run(run())


def north_carolina_for_ten(tmp_path: Path, **options: object) -> Session:
    return Session(Rules.preset("north-carolina", players=10, teams=5), 3,
                   ("human",) + ("random",) * 9, tmp_path / "nc.json", **options)


def test_ten_seats_fit_80_by_24_with_the_draw_pile_and_the_legend(tmp_path: Path) -> None:
    session = north_carolina_for_ten(tmp_path)
    app = PegsApp(session, delay=0)

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(4):  # a few rounds: pegs out on the ring and home
                await until(pilot, lambda: my_turn(app))
                before = session.state.ply
                app.simulate_key("enter")
                await until(pilot, lambda before=before: session.state.ply > before
                            or app.picker is None or app.picker.chosen != ())
                while app.picker is not None and session.state.ply == before:
                    app.simulate_key("enter")
                    await pilot.pause(0.01)
            await until(pilot, lambda: my_turn(app))
            await pilot.pause()
            seats = text_of(app, "#seats").splitlines()
            assert seats[1] == "seat, team, pegs; you: Red" and seats[2].startswith("▶ Red")
            colours = ["Red", "Blue", "Yellow", "Green", "Purple", "Orange", "White", "Black",
                       "Pink", "Teal"]
            assert [row.split()[0] for row in seats if row.startswith("  ") and
                    row.split()[0] in colours] == colours[1:]
            assert any(row.startswith("Draw pile") for row in seats)
            assert "S start, s.h side.hole, Hk home" in seats
            assert seats[-1] == "Bots: easy, instant (+/-)"
            box = app.board_box
            assert box.max_scroll_y == 0 and box.max_scroll_x == 0  # nothing cut off
            assert whole_on_screen(app, "#seats")

    asyncio.run(run())


def test_a_window_below_80_by_24_says_how_much_room_the_game_needs(tmp_path: Path) -> None:
    session = north_carolina_for_ten(tmp_path)
    app = PegsApp(session, delay=0)

    async def run() -> None:
        async with app.run_test(size=(70, 20)) as pilot:
            await until(pilot, lambda: my_turn(app))
            await pilot.pause()
            assert app.has_class("-too-small")
            words = text_of(app, "#too-small")
            assert "This window is 70 x 20: the game needs at least 80 x 24" in words
            assert whole_on_screen(app, "#too-small") and not app.options_view.region.height
            await pilot.press("1", "enter")  # nothing is chosen unseen
            assert session.state.ply == 0 and app.picker is not None and not app.picker.chosen
            await pilot.resize_terminal(80, 24)
            await until(pilot, lambda: not app.has_class("-too-small"))
            await pilot.pause()
            assert whole_on_screen(app, "#options") and not app.too_small_view.region.height

    asyncio.run(run())


def test_ctrl_c_quits_as_q_does(tmp_path: Path) -> None:
    session = north_carolina_for_ten(tmp_path)
    app = PegsApp(session, delay=0)

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: my_turn(app))
            await pilot.press("ctrl+c")
            await until(pilot, lambda: not app.is_running)

    asyncio.run(run())
    assert app.stopped_by is None and not app.finished


def test_a_house_game_is_called_by_its_house_rules_name(tmp_path: Path) -> None:
    house = HouseName("Grandma's rules", "Fours go back.")
    rules = Rules.preset("basic", players=2, teams=0, powers={"4": ["-4"]})
    session = Session(rules, 4, ("human", "random"), tmp_path / "g.json", house=house)
    app = PegsApp(session, delay=0)

    async def run() -> str:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: my_turn(app))
            assert app.title == "Pegs & Jokers: Grandma's rules"
            assert text_of(app, "#status").startswith(
                "Grandma's rules (house rules on basic), 2 players")
            await pilot.press("c")
            return str(app.screen.query_one(Static).render())

    cue = asyncio.run(run())
    session.save()
    assert cue.startswith("Grandma's rules\nFours go back.\nHouse rules based on")
    assert "basic" not in text_of_record(session)


def text_of_record(session: Session) -> str:
    """The record's title, as a resumed game reads it back."""
    again = Session.resume(session.path)
    assert again.house == session.house
    return again.name.replace("Grandma's rules (house rules on basic)", "")
