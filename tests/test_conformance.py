"""Rules-conformance scenarios (shared FORMAT.md): the project's own and the shared ones."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pegs.conformance import run_paths, run_scenario, scenario_files
from pegs.rules import PRESETS

ROOT = Path(__file__).resolve().parents[1]
OWN = ROOT / "tests" / "scenarios"
SHARED = Path(__file__).parents[1].parent / "shared" / "conformance"


def _scenarios(folder: Path) -> list[tuple[str, dict[str, Any]]]:
    out = []
    if not folder.is_dir():
        return out
    for path in scenario_files([folder]):
        data = json.loads(path.read_text(encoding="utf-8"))
        items = data if isinstance(data, list) else [data]
        for i, sc in enumerate(items):
            name = sc.get("name", f"#{i}") if isinstance(sc, dict) else f"#{i}"
            out.append((f"{path.relative_to(folder)}::{name}", sc))
    return out


OWN_SCENARIOS = _scenarios(OWN)
SHARED_SCENARIOS = _scenarios(SHARED)


def test_there_are_own_scenarios_for_every_preset() -> None:
    presets = {sc.get("rules") for _, sc in OWN_SCENARIOS}
    assert set(PRESETS) <= presets
    assert len(OWN_SCENARIOS) >= 100


def test_own_scenario_names_are_unique() -> None:
    names = [sc.get("name") for _, sc in OWN_SCENARIOS]
    assert len(names) == len(set(names))


def _check(sc: dict[str, Any]) -> None:
    result = run_scenario(sc)
    assert result.passed, result.line()


@pytest.mark.parametrize(("where", "sc"), OWN_SCENARIOS, ids=[w for w, _ in OWN_SCENARIOS])
def test_own_scenario(where: str, sc: dict[str, Any]) -> None:
    _check(sc)


#: The shared scenarios live beside the checkout, not in it: a clone elsewhere skips them
#: with this reason (and `pegs conformance PATH` runs them from any folder).
NO_SHARED = pytest.param(
    "", {}, marks=pytest.mark.skip(reason=f"no shared scenarios beside the checkout ({SHARED})"))


@pytest.mark.parametrize(
    ("where", "sc"), SHARED_SCENARIOS or [NO_SHARED],
    ids=[w for w, _ in SHARED_SCENARIOS] or ["absent"],
)
def test_shared_scenario(where: str, sc: dict[str, Any]) -> None:
    _check(sc)


def test_run_paths_reads_folders_recursively() -> None:
    results = run_paths([OWN])
    assert len(results) == len(OWN_SCENARIOS)
    if SHARED.is_dir():
        assert len(run_paths([SHARED])) == len(SHARED_SCENARIOS)


def test_a_scenario_that_expects_too_much_fails() -> None:
    sc = {
        "name": "nine-split",
        "rules": "pegoo",
        "pegs": {"0": ["H3", "0.5", "S", "S"]},
        "to_move": 0,
        "hand": ["9"],
        "expect": {"includes": [{"card": "9", "pegs": {"0": ["H4", "0.6", "S", "S"]}}]},
    }
    result = run_scenario(sc)
    assert not result.passed
    assert "missing" in result.message and "0.6" in result.message
    sc["expect"] = {"includes": [{"card": "9", "pegs": {"0": ["H4", "3.17", "S", "S"]}}],
                    "excludes": [{"card": "9", "pegs": {"0": ["H3", "0.14", "S", "S"]}}]}
    result = run_scenario(sc)
    assert not result.passed
    assert "unexpected" in result.message and "0.14" in result.message


def test_the_format_md_example_passes() -> None:
    sc = {
        "name": "pegoo-nine-split-etiquette",
        "rules": "pegoo",
        "setup": {"players": 4, "teams": 2},
        "pegs": {"0": ["H3", "0.5", "S", "S"]},
        "to_move": 0,
        "hand": ["9"],
        "state": {"stuck_turns": 0, "first_turn": False},
        "expect": {"exactly": [
            {"card": "9", "pegs": {"0": ["0.14", "H3", "S", "S"]}},
            {"card": "9", "pegs": {"0": ["H4", "3.17", "S", "S"]}},
        ]},
    }
    assert run_scenario(sc).passed, run_scenario(sc).line()
