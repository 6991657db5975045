"""The engine's and the server's modules import each other without cycles (a reader can
start at the bottom), and no module of either is over 600 lines."""

from __future__ import annotations

import ast
from pathlib import Path

PEGS = Path(__file__).resolve().parents[1] / "src" / "pegs"
RULES = PEGS / "rules"
SERVER = PEGS / "server"
#: The most lines a rules or server module may have.
LONGEST = 600


def imports(package: Path = RULES) -> dict[str, set[str]]:
    """Module -> the modules of ``package`` it imports (at run time or for types)."""
    out: dict[str, set[str]] = {}
    for path in package.glob("*.py"):
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                if node.module:
                    found.add(node.module.split(".")[0])
                else:
                    found.update(alias.name for alias in node.names)
        out[path.stem] = found
    return out


def cycle_free(graph: dict[str, set[str]]) -> None:
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


def test_no_import_cycles_in_the_rules() -> None:
    graph = imports()
    cycle_free(graph)
    assert {"coded", "powers", "spelling", "split_count", "ten_count", "listing", "state",
            "bluff"} <= set(graph)


def test_no_import_cycles_in_the_server() -> None:
    graph = imports(SERVER)
    cycle_free(graph)
    assert {"hub", "rooms", "chat", "expiry", "archive", "leases", "listening",
            "presence"} <= set(graph)


def test_no_rules_or_server_module_is_over_600_lines() -> None:
    long = {p.name: n for p in [*RULES.glob("*.py"), *SERVER.glob("*.py")]
            if (n := len(p.read_text().splitlines())) > LONGEST}
    assert long == {}
