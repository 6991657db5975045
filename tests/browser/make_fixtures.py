"""Write the board fixtures the page's rendering tests load: `state` messages in the shape of
docs/PROTOCOL.md, built from the engine after some seeded random plies.

    .venv/bin/python tests/browser/make_fixtures.py
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from pegs.notation import SEAT_COLOURS, announce
from pegs.rules import Action, GameState, Rules, geometry, view

FIXTURES = Path(__file__).parent / "fixtures"




def legal_entry(state: GameState, action: Action) -> dict[str, Any]:
    """One `legal` entry: text, card, declared, decision, steps with owners, announcement."""
    steps = []
    for step in action.steps:
        name, _, owner = step.src.partition("@")
        seat = int(owner) if owner else state.turn
        if "." in name:
            pos = state.geo.parse(name)
            seat = next((q for q, ps in enumerate(state.pegs) if pos in ps), seat)
        steps.append({"seat": seat, "from": step.src, "to": step.dst, "op": step.op,
                      "hit": step.hit})
    return {"text": str(action), "card": action.card or None,
            "declared": action.declared or None, "decision": action.decision or None,
            "steps": steps, "announcement": announce(state, action)}


def state_message(state: GameState, seat: int, last: dict[str, Any] | None) -> dict[str, Any]:
    rules = state.rules
    geo = geometry(rules)
    v = view(state, seat)
    players = rules.players
    return {
        "type": "state", "version": state.ply, "seat": seat,
        "table": {"code": "fixture0001", "status": "finished" if state.is_over() else "playing",
                  "host": 0, "hints": True,
                  "seats": [{"seat": p, "name": f"Player {p}" if p else "Ann",
                             "kind": "human" if p < 2 else "bot", "connected": True}
                            for p in range(players)]},
        "rules": rules.settings(),
        "board": {"ring_size": geo.ring_size, "side_of": list(geo.side_of),
                  "out_hole": [geo.name(p) for p in geo.out_hole],
                  "door": [geo.name(p) for p in geo.door],
                  "colours": [SEAT_COLOURS[p][0].lower() for p in range(players)],
                  "letters": [SEAT_COLOURS[p][1] for p in range(players)]},
        "view": {
            "pegs": [[geo.name(p) for p in ps] for ps in v.pegs],
            "hand": list(v.hand), "hand_sizes": list(v.hand_sizes),
            "draw_pile_size": v.draw_pile_size, "discards": list(v.discards),
            "hidden_discards": v.hidden_discards, "current_player": v.current_player,
            "turn": v.turn, "ply": v.ply,
            "outcome": None if v.outcome is None
            else {"team": v.outcome.team, "seats": list(v.outcome.seats)},
            "pending": None if v.pending is None
            else {"declarer": v.pending.declarer, "action": str(v.pending.action),
                  "asked": v.pending.asked, "chooser": v.pending.chooser,
                  "victim": v.pending.victim},
        },
        "legal": [legal_entry(state, a) for a in state.legal_actions()]
        if seat == state.current_player and not state.is_over() else [],
        "last": last,
    }


def played(preset: str, players: int, plies: int, seed: int, **settings: Any) -> dict[str, Any]:
    """The state message for the seat to act after ``plies`` random plies."""
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
    return state_message(state, state.current_player, last)


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


def main() -> None:
    FIXTURES.mkdir(exist_ok=True)
    for name, (preset, players, plies, settings) in CASES.items():
        message = played(preset, players, plies, seed=3, **settings)
        (FIXTURES / f"{name}.json").write_text(json.dumps(message, indent=1) + "\n")
        print(name, len(message["legal"]), "legal")
    for name, (preset, players) in SPLITS.items():
        message = first_split(preset, players, seed=5)
        (FIXTURES / f"{name}.json").write_text(json.dumps(message, indent=1) + "\n")
        print(name, len(message["legal"]), "legal")


if __name__ == "__main__":
    main()
