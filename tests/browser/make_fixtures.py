"""The board fixtures the page's rendering tests load: `state` messages as the server sends
them (docs/PROTOCOL.md), built from seeded engine games.  The tests write them afresh into
tests/browser/fixtures/ (not kept in git); to look at them by hand:

    .venv/bin/python tests/browser/make_fixtures.py
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from pegs.notation import announce
from pegs.rules import GameState, Rules, view
from pegs.server import protocol

FIXTURES = Path(__file__).parent / "fixtures"




def state_message(state: GameState, seat: int, last: dict[str, Any] | None) -> dict[str, Any]:
    """The `state` message of ``seat``, its parts encoded by the server's own protocol
    module (only the table's seats are made up)."""
    rules = state.rules
    to_act = seat == state.current_player and not state.is_over()
    return {
        "type": "state", "version": state.ply, "seat": seat,
        "table": {"code": "fixture0001", "status": "finished" if state.is_over() else "playing",
                  "host": 0, "hints": True,
                  "seats": [{"seat": p, "name": f"Player {p}" if p else "Ann",
                             "kind": "human" if p < 2 else "bot", "connected": True}
                            for p in range(rules.players)]},
        "rules": protocol.rules_json(rules),
        "board": protocol.board_json(rules),
        "view": protocol.view_json(view(state, seat)),
        "legal": protocol.legal_json(state, state.legal_actions()) if to_act else [],
        # the listing as the server sends it (the page expands it into "legal"'s form)
        "wire_legal": protocol.legal_compact(state, state.legal_actions()) if to_act else None,
        "last": last,
    }


def played(preset: str, players: int, plies: int, seed: int, **settings: Any) -> dict[str, Any]:
    """The state message for the seat to act after ``plies`` random plies."""
    state, last = played_state(preset, players, plies, seed, **settings)
    return state_message(state, state.current_player, last)


def played_state(preset: str, players: int, plies: int, seed: int,
                 **settings: Any) -> tuple[GameState, dict[str, Any] | None]:
    """The game after ``plies`` seeded plies, and its last move as ``last``."""
    rng = random.Random(seed)
    state = GameState.new(Rules.preset(preset, players=players, **settings), seed)
    last = None
    for _ in range(plies):
        legal = state.legal_actions()
        # prefer moves out of start and forward so the fixture board is busy
        action = max(legal, key=lambda a: (len(a.steps), rng.random()))
        last = {"seat": state.turn, "action": str(action),
                "announcement": announce(state, action)}
        state = state.apply(action)
        if state.is_over():
            break
    return state, last


def first_split(preset: str, players: int, seed: int) -> dict[str, Any]:
    """The first position of a seeded game where the seat to act may split a card."""
    rng = random.Random(seed)
    state = GameState.new(Rules.preset(preset, players=players), seed)
    last = None
    while not any(len(a.steps) == 2 for a in state.legal_actions()):
        legal = state.legal_actions()
        action = max(legal, key=lambda a: (len(a.steps), rng.random()))
        last = {"seat": state.turn, "action": str(action),
                "announcement": announce(state, action)}
        state = state.apply(action)
    return state_message(state, state.current_player, last)


CASES: dict[str, tuple[str, int, int, dict[str, Any]]] = {
    "pegoo-2": ("pegoo", 2, 30, {}),
    "basic-3": ("basic", 3, 40, {}),
    "pegoo-4": ("pegoo", 4, 60, {}),
    "basic-4": ("basic", 4, 60, {}),
    "basic-5": ("basic", 5, 60, {}),
    "pegoo-6": ("pegoo", 6, 80, {}),
    "north-carolina-6": ("north-carolina", 6, 30, {}),
    "basic-8": ("basic", 8, 90, {}),
    "pegoo-10": ("pegoo", 10, 100, {}),
    "havasu-10-home8": ("havasu", 10, 60, {"holes_per_side": 25, "home_holes": 8}),
    "bluffing-joker-4": ("bluffing-joker", 4, 9, {}),
    "bluffing-joker-4-play": ("bluffing-joker", 4, 0, {}),
}
SPLITS = {"pegoo-4-split": ("pegoo", 4), "north-carolina-4-split": ("north-carolina", 4)}


#: Every fixture's name.
NAMES = sorted([*CASES, *SPLITS])


def write_fixtures(folder: Path = FIXTURES) -> None:
    """Write every fixture as ``folder/NAME.json``."""
    folder.mkdir(exist_ok=True)
    for name, (preset, players, plies, settings) in CASES.items():
        message = played(preset, players, plies, seed=3, **settings)
        (folder / f"{name}.json").write_text(json.dumps(message, indent=1) + "\n")
    for name, (preset, players) in SPLITS.items():
        message = first_split(preset, players, seed=5)
        (folder / f"{name}.json").write_text(json.dumps(message, indent=1) + "\n")


if __name__ == "__main__":
    write_fixtures()
    print(f"wrote {len(NAMES)} fixtures to {FIXTURES}")
