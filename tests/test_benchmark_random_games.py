"""benchmarks/random_games.py: its profile finds the engine's methods, compiled or not."""

from __future__ import annotations

import cProfile
import importlib.util
import pstats
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "random_games.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("random_games", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def profiled(call: Any) -> dict[Any, Any]:
    profiler = cProfile.Profile()
    profiler.runcall(call)
    table: dict[Any, Any] = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    return table


def test_a_compiled_method_is_found_by_its_builtin_label(bench: ModuleType) -> None:
    # str.upper is a method_descriptor without __code__, as a mypyc-compiled method is
    table = profiled(lambda: [str.upper("a") for _ in range(1000)])
    assert bench.profile_label(str.upper) in table
    assert bench.inclusive_time(table, str.upper) > 0


def test_a_python_function_is_found_by_its_code(bench: ModuleType) -> None:
    def work() -> int:
        return sum(range(1000))

    table = profiled(work)
    assert bench.profile_label(work) in table
    assert bench.inclusive_time(table, work) > 0


def test_the_profile_runs_on_this_build(bench: ModuleType,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--presets", "basic", "--players", "4", "--games", "1",
                       "--budget", "0", "--profile"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "Legal generation (GameState.legal_actions and everything it calls) took" in out
    took = float(out.split("everything it calls) took ")[1].split("%")[0])
    assert took > 10  # found, whether the engine is compiled or not
