"""The bots decide exactly as they did when the published ladders were played.

``tests/bot_decisions.json`` holds positions of the first games of each preset's ladder
records (``docs/ladders/PRESET-records.jsonl``: the rules, the seed and the actions up to
the last position) and the choices that a heuristic bot and an ISMCTS bot (its defaults,
few iterations) made there, one bot of each kind deciding at every position of a game in
order, as a seat does (so what a bot keeps from one decision to the next is covered).  A
faster bot must decide the same, or the published records would no longer verify
(``pegs ladder --verify``).

Write the file again only on purpose (a change of the bots' play), with the bots as they
are to be:  ``python tests/test_bot_decisions.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from pegs.bots.heuristic import HeuristicBot
from pegs.bots.ismcts import IsmctsBot
from pegs.rules import Action, GameState, Rules, view
from pegs.sim.records import read_records

EXPECTED = Path(__file__).with_name("bot_decisions.json")
PRESETS = ("basic", "arizona", "north-carolina", "bluffing-joker", "kilpatrick", "pegoo",
           "havasu", "social-security")
#: Recorded games per preset, and positions per game: evenly spread over the game, plus
#: (Bluffing Joker) its first doubts and pegs sent back.
GAMES = 2
POSITIONS = 12
ISMCTS_ITERATIONS = 24
SEED = 7


def _plies(actions: list[str]) -> list[int]:
    plies = list(range(3, len(actions), max(1, len(actions) // POSITIONS)))[:POSITIONS]
    decisions = [i for i, a in enumerate(actions)
                 if a in ("doubt", "pass") or a.startswith("send ")]
    return sorted(set(plies + decisions[:8]))


def decide(game: dict[str, Any]) -> dict[str, list[str]]:
    """The choices of one heuristic and one ISMCTS bot at the positions of ``game`` (after
    each of its ``plies`` actions)."""
    heuristic = HeuristicBot(SEED)
    ismcts = IsmctsBot(SEED, iterations=ISMCTS_ITERATIONS)
    out: dict[str, list[str]] = {"heuristic": [], "ismcts": []}
    state = GameState.new(Rules.from_settings(game["rules"]), game["seed"])
    actions = game["actions"]
    for ply in game["plies"]:
        while state.ply < ply:
            state = state.apply(Action.parse(actions[state.ply]))
        seat = state.current_player
        seen, legal = view(state, seat), state.legal_actions()
        out["heuristic"].append(str(heuristic.choose(seen, legal)))
        out["ismcts"].append(f"{ismcts.choose(seen, legal)} ({ismcts.last_iterations})")
    return out


def write() -> None:
    ladders = Path(__file__).resolve().parent.parent / "docs" / "ladders"
    expected: dict[str, Any] = {}
    for preset in PRESETS:
        expected[preset] = []
        for line in read_records(ladders / f"{preset}-records.jsonl")[:GAMES]:
            plies = _plies(line["actions"])
            game = {"rules": line["rules"], "seed": line["seed"],
                    "actions": line["actions"][: max(plies)], "plies": plies}
            expected[preset].append({**game, **decide(game)})
    EXPECTED.write_text(json.dumps(expected, indent=0) + "\n", encoding="utf-8")


@pytest.mark.parametrize("preset", PRESETS)
def test_the_bots_decide_as_when_the_ladders_were_played(preset: str) -> None:
    for game in json.loads(EXPECTED.read_text(encoding="utf-8"))[preset]:
        got = decide(game)
        assert got["heuristic"] == game["heuristic"]
        assert got["ismcts"] == game["ismcts"]


if __name__ == "__main__":
    write()
    sys.exit(0)
