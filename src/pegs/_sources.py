"""Loading the modules of ``pegs`` from their sources, ahead of compiled modules."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType


class SourcesFirst:
    """A finder placed before the standard ones: a module of ``pegs`` with a ``.py`` file
    is loaded from it (packages and everything else are left to the standard finders)."""

    @staticmethod
    def find_spec(name: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if not name.startswith("pegs.") or path is None:
            return None
        leaf = name.rpartition(".")[2]
        for folder in path:
            source = Path(folder) / f"{leaf}.py"
            if source.is_file():
                return importlib.util.spec_from_file_location(name, source)
        return None


def prefer_sources() -> None:
    """Put :class:`SourcesFirst` in front of the import system (once)."""
    if SourcesFirst not in sys.meta_path:
        sys.meta_path.insert(0, SourcesFirst)
