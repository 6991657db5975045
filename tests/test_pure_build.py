"""The engine interpreted (``PEGS_PURE=1``) plays the same games as the
compiled one: the sources are plain Python that runs without mypyc."""

from __future__ import annotations

import os
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


def _games(pure: str) -> list[str]:
    env = {**os.environ, "PEGS_PURE": pure}
    done = subprocess.run([sys.executable, "-c", GAMES], capture_output=True, text=True,
                          env=env, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_the_interpreted_engine_plays_the_same_games() -> None:
    """``PEGS_PURE=1`` loads the sources even beside compiled modules, and they play the
    same games as the modules a plain run loads (compiled, where they are built)."""
    kinds, digest = _games("1")
    assert kinds == "py py"  # interpreted
    installed_kinds, installed_digest = _games("0")
    built = any(Path(pegs.__file__).parent.glob("rules/coded.*.so"))
    assert installed_kinds == ("so so" if built else "py py")
    assert installed_digest == digest
