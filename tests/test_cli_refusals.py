"""Bad command lines (issue 51): each is one clear line on stderr, a non-zero exit, and
nothing created; run as subprocesses like a user would."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import no_traceback
from pegs.rules import PRESETS


def listing(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def run(folder: Path, *args: str, env: dict[str, str] | None = None,
        timeout: float = 120) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k != "PEGS_DATABASE_URL"}
    environ["PEGS_DATA_DIR"] = str(folder / "data")
    return subprocess.run([sys.executable, "-m", "pegs.cli", *args], capture_output=True,
                          text=True, timeout=timeout, cwd=folder, env={**environ, **(env or {})})


def refused(folder: Path, *args: str, env: dict[str, str] | None = None,
            code: int = 2) -> str:
    """The one line ``pegs ARGS`` (in ``folder``) says; it exits ``code`` and creates or
    changes no file there."""
    before = {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    proc = run(folder, *args, env=env)
    no_traceback(proc)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert proc.returncode == code, (proc.returncode, proc.stderr)
    assert proc.stdout == ""
    after = {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    assert after == before
    return lines[0]


@pytest.fixture(scope="module")
def demo_record(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    path = tmp_path_factory.mktemp("rec") / "game.json"
    proc = run(path.parent, "demo", "--seed", "7", "--players", "2", "--quiet",
               "--max-turns", "10", "--save", str(path))
    assert proc.returncode == 0, proc.stderr
    data: dict[str, object] = json.loads(path.read_text())
    return data


# --- files nested too deeply, empty names, byte-order marks --------------------------------


@pytest.mark.parametrize("command", ["rules", "demo"])
def test_a_house_file_nested_too_deeply_is_one_line(tmp_path: Path, command: str) -> None:
    (tmp_path / "deep.toml").write_text('title = "x"\nbase = ' + "[" * 5000 + "\n")
    line = refused(tmp_path, command, "--house", "deep.toml")
    assert line == ("pegs: deep.toml: not a house-rules file: it nests lists or tables too "
                    "deeply to be read")


def test_a_house_file_without_base_says_it_is_required(tmp_path: Path) -> None:
    (tmp_path / "nobase.toml").write_text('title = "x"\n')
    line = refused(tmp_path, "rules", "--house", "nobase.toml")
    assert line.startswith("pegs: nobase.toml: base is required: name the preset")
    assert line.endswith("presets: " + ", ".join(PRESETS))


@pytest.mark.parametrize(("args", "says"), [
    (("rules", "--house", ""), "pegs: --house needs a file name, not an empty one"),
    (("replay", ""), "pegs: the file name is empty: name the file of a JSON game record"),
    (("hint", ""), "pegs: the file name is empty: name the file of a JSON game record"),
    (("play", "--resume", ""), "pegs: --resume needs a file name, not an empty one"),
])
def test_an_empty_file_name_is_refused(tmp_path: Path, args: tuple[str, ...],
                                       says: str) -> None:
    assert refused(tmp_path, *args) == says


def test_replay_accepts_a_byte_order_mark(tmp_path: Path,
                                          demo_record: dict[str, object]) -> None:
    path = tmp_path / "notepad.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(demo_record).encode())
    proc = run(tmp_path, "replay", "--quiet", "notepad.json")
    assert proc.returncode == 0, proc.stderr
    assert "actions verified" in proc.stdout


def test_a_house_file_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    (tmp_path / "house.toml").write_bytes(b'\xef\xbb\xbftitle = "x"\nbase = "basic"\n')
    proc = run(tmp_path, "rules", "--house", "house.toml")
    assert proc.returncode == 0, proc.stderr
