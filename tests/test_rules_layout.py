"""The engine's modules import each other without cycles (a reader can start at the bottom)."""

from __future__ import annotations

import ast
from pathlib import Path

RULES = Path(__file__).resolve().parents[1] / "src" / "pegs" / "rules"


def imports() -> dict[str, set[str]]:
    """Module -> the modules of ``pegs.rules`` it imports (at run time or for types)."""
    out: dict[str, set[str]] = {}
    for path in RULES.glob("*.py"):
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                if node.module:
                    found.add(node.module.split(".")[0])
                else:
                    found.update(alias.name for alias in node.names)
        out[path.stem] = found
    return out


def test_no_import_cycles_in_the_rules() -> None:
    graph = imports()
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> None:
        assert module not in path, f"import cycle: {' -> '.join([*path, module])}"
        if module in done:
            return
        for other in sorted(graph.get(module, ())):
            visit(other, [*path, module])
        done.add(module)

    for module in sorted(graph):
        visit(module, [])
    assert {"coded", "powers", "split_count", "ten_count", "listing", "state",
            "bluff"} <= set(graph)
