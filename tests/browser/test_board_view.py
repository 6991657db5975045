"""The board as a player follows it (issue 31): every action since the player's own last
turn marked by number, pegs sliding along their path (not under reduced motion), zoom and
finger-sized tap areas on a phone, the list of where the pegs are, seat labels with names
and teams, and a Bluffing Joker's declared move drawn while the table decides."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from browser_support import FAKE
from make_fixtures import state_message
from playwright.sync_api import Browser, Page

from pegs.notation import announce
from pegs.rules import GameState, Rules
from pegs.server import protocol

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}
TABLET = {"viewport": {"width": 820, "height": 1180}, "is_mobile": True, "has_touch": True}


def game(preset: str, players: int, plies: int, seed: int, seat: int = 0,
         **settings: Any) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """``seat``'s state messages after 0..plies plies of a seeded game, and the move log
    (entries as the server's log gives them)."""
    rng = random.Random(seed)
    state = GameState.new(Rules.preset(preset, players=players, **settings), seed)
    states = [state_message(state, seat, None)]
    log: list[dict[str, Any]] = []
    for ply in range(1, plies + 1):
        if state.is_over():
            break
        action = max(state.legal_actions(), key=lambda a: (len(a.steps), rng.random()))
        actor = state.current_player
        shown = protocol.hidden_text(action, actor, seat)
        said = announce(state, action)
        log.append({"version": ply, "seat": actor, "action": shown, "announcement": said})
        state = state.apply(action)
        states.append(state_message(state, seat, {"seat": actor, "action": shown,
                                                  "announcement": said}))
    return states, log


def open_board(page: Page) -> None:
    page.goto(f"{FAKE}/tests/board_view.html")
    page.wait_for_selector("body[data-ready]", timeout=10_000)


RENDER = """([msg, log, opts]) => {
  const svg = document.getElementById('board');
  const trail = log ? board.trailSince(log, msg.seat, msg.rules.players) : [];
  const sets = {};
  for (const k of ['pegs', 'targets', 'victims']) if (opts && opts[k]) sets[k] = new Set(opts[k]);
  board.renderBoard(svg, msg, { ...(opts || {}), ...sets, trail });
  return trail.length;
}"""


def render(page: Page, msg: dict[str, Any], log: list[dict[str, Any]] | None = None,
           **opts: Any) -> int:
    """Draw ``msg`` with the trail of ``log``; answers the trail's length."""
    return int(page.evaluate(RENDER, [msg, log, opts]))


def since_own_turn(log: list[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    mine = [i for i, e in enumerate(log) if e["seat"] == seat]
    return log[mine[-1] + 1:] if mine else log


def own_turn_index(states: list[dict[str, Any]], seat: int = 0) -> int:
    """The last state where ``seat`` is to play after having played before."""
    return max(i for i, m in enumerate(states) if m["view"]["current_player"] == seat
               and m["legal"] and i > m["rules"]["players"])


@pytest.mark.parametrize(("preset", "players", "plies"), [("basic", 4, 40), ("pegoo", 10, 90)])
def test_trail_numbers_every_action_since_my_last_turn(
        static_page: Page, artifacts: Path, preset: str, players: int, plies: int) -> None:
    states, log = game(preset, players, plies, seed=3)
    at = own_turn_index(states)
    expected = since_own_turn(log[:at], 0)
    assert len(expected) >= players - 1
    open_board(static_page)
    assert render(static_page, states[at], log[:at]) == len(expected)
    marks = static_page.eval_on_selector_all("#board .trail-mark", """ms => ms.map(m => [
        +m.dataset.n, m.querySelector('.trail-number').textContent,
        m.querySelector('title').textContent])""")
    assert [n for n, _, _ in marks] == list(range(1, len(expected) + 1))
    # each mark shows its number and names the action it marks
    for (n, number, title), entry in zip(marks, expected, strict=True):
        assert number == str(n) and title.startswith(f"{n}. ")
        assert title.endswith(entry["announcement"])
    # every move with steps is drawn along its path, the newest one stronger
    moving = [e for e in expected if ">" in e["action"] or "<" in e["action"]
              or "~" in e["action"]]
    assert static_page.locator("#board .trail-move .trail-line").count() >= len(moving)
    assert static_page.locator("#board .trail-latest").count() == 1
    # after the player's own move the trail starts again
    mine = next(i for i in range(at, len(states)) if log[i - 1]["seat"] == 0) \
        if any(e["seat"] == 0 for e in log[at:]) else None
    if mine is not None:
        assert render(static_page, states[mine], log[:mine]) == 0
        assert static_page.locator("#board .trail-mark").count() == 0
    render(static_page, states[at], log[:at])
    static_page.locator("#board").screenshot(path=str(artifacts / f"trail-{players}.png"))


def walking_move(states: list[dict[str, Any]]) -> int:
    """The first ply whose action walks one peg three or more holes along the ring."""
    for i, m in enumerate(states[1:], 1):
        action = m["last"]["action"]
        if "," in action or "x" in action.rsplit(":", 1)[-1]:
            continue
        found = [p.split(".") for p in action.split(": ")[-1].split(">") if "." in p]
        if len(found) == 2 and found[0][0] == found[1][0] and int(found[1][1]) - int(
                found[0][1]) >= 3:
            return i
    raise AssertionError("no walking move in the game")


MOTION = """() => document.getAnimations().map(a => ({
    key: a.effect.target.dataset.key, frames: a.effect.getKeyframes().length}))"""


def test_pegs_walk_along_their_path_and_a_tap_skips(static_page: Page) -> None:
    states, _ = game("basic", 4, 40, seed=3)
    i = walking_move(states)
    step = states[i]["last"]["action"].split(": ")[-1]
    src, dst = step.split(">")
    open_board(static_page)
    render(static_page, states[i - 1])
    assert static_page.evaluate(MOTION) == []
    render(static_page, states[i])
    holes = int(dst.split(".")[1]) - int(src.split(".")[1])
    assert static_page.evaluate(MOTION) == [{"key": dst, "frames": holes + 1}]
    static_page.dispatch_event("#board", "pointerdown")
    assert static_page.evaluate(MOTION) == []
    # the same state again, or a jump of many actions, places the pegs without moving them
    render(static_page, states[i])
    assert static_page.evaluate(MOTION) == []
    render(static_page, states[i + 8])
    assert static_page.evaluate(MOTION) == []


def test_no_motion_under_reduced_motion(static_page: Page) -> None:
    states, _ = game("basic", 4, 40, seed=3)
    i = walking_move(states)
    static_page.emulate_media(reduced_motion="reduce")
    open_board(static_page)
    render(static_page, states[i - 1])
    render(static_page, states[i])
    assert static_page.evaluate(MOTION) == []
    dst = states[i]["last"]["action"].split(">")[-1]
    assert static_page.locator(f"#board .peg[data-key='{dst}']").count() == 1
