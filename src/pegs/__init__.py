"""Pegs & Jokers: the Pegs and Jokers family of card-and-peg race games.

With ``PEGS_PURE=1`` in the environment, the modules of ``pegs`` load from their sources
even where a compiled module (mypyc) sits beside them: for running just-edited code
without rebuilding (slower), in this process and every process it starts.
"""

from __future__ import annotations

import os

__version__ = "0.1.0"

if os.environ.get("PEGS_PURE", "") not in ("", "0"):
    from . import _sources

    _sources.prefer_sources()
