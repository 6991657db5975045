"""The engine interpreted (as installed with ``PEGS_PURE=1``) plays the same games as the
compiled one: the sources are plain Python that runs without mypyc."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pegs

GAMES = """
import hashlib, random, sys
import pegs.rules.coded, pegs.rules.ten_count
from pegs.rules import GameState, Rules
print(*(m.__file__.rpartition(".")[2] for m in (pegs.rules.coded, pegs.rules.ten_count)))
digest = hashlib.sha256()
for name, players in (("basic", 4), ("north-carolina", 6), ("bluffing-joker", 4)):
    rng = random.Random(players)
    state = GameState.new(Rules.preset(name, players=players), players)
    for _ in range(250):
        if state.is_over():
            break
        legal = state.legal_actions()
        digest.update(" | ".join(map(str, legal)).encode())
        state = state.apply(legal[rng.randrange(len(legal))])
    digest.update(repr((state.pegs, state.hands, state.draw_pile)).encode())
print(digest.hexdigest())
"""


def test_the_interpreted_engine_plays_the_same_games(tmp_path: Path) -> None:
    source = Path(pegs.__file__).parent
    shutil.copytree(source, tmp_path / "pegs",
                    ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    pure = subprocess.run([sys.executable, "-c", GAMES], capture_output=True, text=True,
                          env={"PYTHONPATH": str(tmp_path)}, timeout=600, check=False)
    assert pure.returncode == 0, pure.stderr
    installed = subprocess.run([sys.executable, "-c", GAMES], capture_output=True, text=True,
                               timeout=600, check=False)
    assert installed.returncode == 0, installed.stderr
    kinds, digest = pure.stdout.splitlines()
    assert kinds == "py py"  # interpreted
    assert installed.stdout.splitlines()[1] == digest
