"""Build hook: compiles the rules engine's hot modules to C with mypyc.

The move generator and the scratch board run millions of small steps in simulations and
searches; compiled, they run about three times as fast as the same code interpreted.  The
search bots and the learning environment's token choices and observations, which run at
every step, are compiled too.
The sources stay plain, typed Python (mypy --strict); set ``PEGS_PURE=1`` when installing
to skip compiling (for working on the engine without rebuilding).
"""

import os

from setuptools import setup

COMPILED = [
    "src/pegs/rules/actions.py",
    "src/pegs/rules/board.py",
    "src/pegs/rules/board_work.py",
    "src/pegs/rules/listing.py",
    "src/pegs/rules/powers.py",
    "src/pegs/rules/spelling.py",
    "src/pegs/rules/declared.py",
    "src/pegs/rules/split_count.py",
    "src/pegs/rules/ten_count.py",
    "src/pegs/rules/state.py",
    "src/pegs/rules/counted.py",
    "src/pegs/rules/pairs.py",
    "src/pegs/rules/deferred.py",
    "src/pegs/rules/listed.py",
    "src/pegs/rules/part.py",
    "src/pegs/rules/code_set.py",
    "src/pegs/rules/coded.py",
    "src/pegs/rules/code_list.py",
    "src/pegs/rules/cards.py",
    "src/pegs/rules/table.py",
    # the rules core's codes (issue 40)
    "src/pegs/rules/walks.py",
    "src/pegs/rules/split_codes.py",
    "src/pegs/bots/heuristic.py",
    "src/pegs/bots/ismcts.py",
    "src/pegs/bots/leaf.py",
    "src/pegs/rules/view.py",
    "src/pegs/rules/determinize.py",
    "src/pegs/adapters/codec.py",
    "src/pegs/adapters/decisions.py",
    "src/pegs/adapters/observation.py",
]

ext_modules = []
if os.environ.get("PEGS_PURE", "") in ("", "0"):
    from mypyc.build import mypycify

    ext_modules = mypycify(COMPILED, opt_level="3")

setup(ext_modules=ext_modules)
