"""The PettingZoo environment gives exactly the observations, masks and rewards it gave
before: ``tests/env_trajectory.json`` holds, for a few tables, the tokens a seeded random
masked agent chose and a running digest of everything the environment showed (every
``last()``, and every seat's observation every 10th step).

Write the file again only on purpose (a change of the observation or action space):
``python tests/test_env_trajectory.py``.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import pegs
from pegs.adapters.pettingzoo import raw_env

EXPECTED = Path(__file__).with_name("env_trajectory.json")
#: (preset, players, relative, steps)
TABLES = (("basic", 4, False, 2000), ("kilpatrick", 4, False, 700),
          ("north-carolina", 4, True, 400),
          ("bluffing-joker", 4, False, 500), ("arizona", 6, False, 300))
#: Steps between two digests kept in the file.
EVERY = 50


def trajectory(preset: str, players: int, relative: bool, steps: int) -> dict[str, Any]:
    e = raw_env(rules=preset, players=players, seed=5, relative=relative)
    e.reset()
    rng = np.random.default_rng(1)
    digest = hashlib.sha256()
    tokens: list[int] = []
    marks: list[str] = []
    for agent in e.agent_iter(steps):
        obs, reward, terminated, truncated, info = e.last()
        digest.update(agent.encode())
        digest.update(obs["observation"].tobytes())
        digest.update(obs["action_mask"].tobytes())
        digest.update(repr((reward, terminated, truncated, info, e.last_action)).encode())
        if len(tokens) % 10 == 0:
            for other in e.possible_agents:
                seen = e.observe(other)
                digest.update(seen["observation"].tobytes() + seen["action_mask"].tobytes())
        if terminated or truncated:
            e.step(None)
            continue
        token = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        tokens.append(token)
        e.step(token)
        if len(tokens) % EVERY == 0:
            marks.append(digest.hexdigest()[:16])
    marks.append(digest.hexdigest()[:16])
    return {"tokens": tokens, "digests": marks}


def _key(preset: str, players: int, relative: bool, steps: int) -> str:
    return f"{preset} {players}{' relative' if relative else ''} {steps}"


def write() -> None:
    EXPECTED.write_text(json.dumps({_key(*t): trajectory(*t) for t in TABLES}) + "\n",
                        encoding="utf-8")


@pytest.mark.parametrize("table", TABLES, ids=lambda t: _key(*t))
def test_the_environment_shows_what_it_showed(table: tuple[str, int, bool, int]) -> None:
    expected = json.loads(EXPECTED.read_text(encoding="utf-8"))[_key(*table)]
    got = trajectory(*table)
    assert got["tokens"] == expected["tokens"]
    assert got["digests"] == expected["digests"]


def test_the_interpreted_environment_shows_the_same(tmp_path: Path) -> None:
    """The codec, token choices and observation encoder run interpreted (as installed with
    ``PEGS_PURE=1``) as they do compiled."""
    shutil.copytree(Path(pegs.__file__).parent, tmp_path / "pegs",
                    ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    table = TABLES[2]  # North Carolina: counted tens, relative frame
    script = (f"import json, sys; sys.path.insert(0, {str(Path(__file__).parent)!r})\n"
              "import pegs.adapters.decisions as d; assert d.__file__.endswith('.py')\n"
              f"from test_env_trajectory import trajectory; print(json.dumps(trajectory{table}))")
    pure = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env={"PYTHONPATH": str(tmp_path)}, timeout=600, check=False)
    assert pure.returncode == 0, pure.stderr
    expected = json.loads(EXPECTED.read_text(encoding="utf-8"))[_key(*table)]
    assert json.loads(pure.stdout) == expected


if __name__ == "__main__":
    write()
    sys.exit(0)
