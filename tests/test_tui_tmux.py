"""``pegs play`` in a real terminal (tmux on a private socket), driven by keys.

Every step waits for what it needs on the screen (a text, the focus shown by the title of
the option list or of the move box), never for a fixed time, so a busy machine only makes
the tests slower.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pegs.record import load
from pegs.tui.turn_keys import BOX_TITLE, LIST_TITLE


@pytest.fixture
def tmux() -> Iterator[list[str]]:
    """The tmux command on a socket of this test's own; its server is killed at the end."""
    assert shutil.which("tmux"), "tmux is needed (scripts/setup.sh installs it)"
    base = ["tmux", "-L", f"pegs-test-{os.getpid()}", "-f", os.devnull]
    yield base
    socket = subprocess.run([*base, "display-message", "-p", "#{socket_path}"],
                            capture_output=True, text=True, timeout=10).stdout.strip()
    subprocess.run([*base, "kill-server"], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, timeout=10)  # no pipe left to wait on
    if socket:
        Path(socket).unlink(missing_ok=True)


def start(tmux: list[str], tmp_path: Path, options: list[str], size: str = "160x50") -> None:
    """Run ``pegs play OPTIONS`` in a pane of ``size`` (it stays open after the game)."""
    command = [sys.executable, "-m", "pegs.cli", "play", *options]
    # COLUMNS and LINES from the test's own environment would override the pane's size
    shell = (f"env -u COLUMNS -u LINES PEGS_DATA_DIR={shlex.quote(str(tmp_path / 'data'))} "
             f"{shlex.join(command)}; echo PLAY-EXITED $?; sleep 60")
    x, y = size.split("x")
    subprocess.run([*tmux, "new-session", "-d", "-s", "play", "-x", x, "-y", y, shell],
                   check=True, timeout=10)
    subprocess.run([*tmux, "resize-window", "-t", "play", "-x", x, "-y", y],
                   check=True, timeout=10)


def screen(tmux: list[str]) -> str:
    return subprocess.run([*tmux, "capture-pane", "-p", "-t", "play"], capture_output=True,
                          text=True, timeout=10).stdout


def wait_until(tmux: list[str], test: Callable[[str], bool], what: str,
               seconds: float = 60) -> str:
    end = time.monotonic() + seconds
    while True:
        shown = screen(tmux)
        if test(shown):
            return shown
        assert time.monotonic() < end, f"{what} never happened; the screen:\n{shown}"
        time.sleep(0.1)


def wait_for(tmux: list[str], *texts: str) -> str:
    return wait_until(tmux, lambda shown: all(t in shown for t in texts), f"{texts!r} shown")


def keys(tmux: list[str], *names: str) -> None:
    subprocess.run([*tmux, "send-keys", "-t", "play", *names], check=True, timeout=10)


def type_text(tmux: list[str], text: str) -> None:
    for ch in text:
        keys(tmux, "-l", ch)


RED_MOVED = re.compile(r"^Seat 0 \(Red, R\): \S", re.MULTILINE)  # a log line of Red's


def saved_a_move(record: Path) -> Callable[[str], bool]:
    """Whether the game saved to ``record`` holds an action (bots playing at once can push
    the player's own log line off a small screen before it is read)."""
    def done(_shown: str) -> bool:
        try:
            return bool(load(record).actions)
        except (OSError, ValueError):  # not written yet, or being written
            return False
    return done


def choose_until_moved(tmux: list[str], key: str,
                       moved: str | re.Pattern[str] | Callable[[str], bool]) -> str:
    """Press ``key`` on the option list, each time once the screen has answered the last
    press, until ``moved`` (a text or a pattern shown, or a test of the screen) holds."""
    def done(shown: str) -> bool:
        if callable(moved):
            return moved(shown)
        return moved in shown if isinstance(moved, str) else bool(moved.search(shown))

    shown = wait_for(tmux, LIST_TITLE)
    for _ in range(6):
        if done(shown):
            return shown
        keys(tmux, key)
        shown = wait_until(tmux, lambda now, before=shown: now != before, "an answer")
    return wait_until(tmux, done, f"{moved!r} shown")


def test_play_in_a_real_terminal(tmux: list[str], tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    start(tmux, tmp_path, ["--players", "2", "--teams", "0", "--seats", "human,easy",
                           "--seed", "13", "--delay", "0", "--save", str(record)])
    wait_for(tmux, "Choose a card", "Red R", "Blue B", "Hand of Seat 0 (Red, R)", "Draw pile",
             "8 back from the out-hole", "New game, saved as it goes", LIST_TITLE)
    keys(tmux, "c")
    wait_for(tmux, "Cue card", "any other key closes")
    keys(tmux, "Space")
    wait_for(tmux, "Choose a card", LIST_TITLE)
    keys(tmux, "t")
    wait_for(tmux, BOX_TITLE)
    type_text(tmux, "K: S>3.9")
    keys(tmux, "Enter")
    wait_for(tmux, "Not legal")
    keys(tmux, "Escape")
    choose_until_moved(tmux, "Enter", RED_MOVED)
    keys(tmux, "q")
    shown = wait_for(tmux, "PLAY-EXITED")
    assert "Continue with: pegs play --resume" in shown
    assert "Traceback" not in shown
    saved = load(record)
    assert saved.actions and saved.seed == 13
    assert not (tmp_path / "data").exists()  # --save was used: nothing else written


def test_keys_typed_during_the_bots_turn_choose_nothing(tmux: list[str],
                                                        tmp_path: Path) -> None:
    record = tmp_path / "ahead.json"
    start(tmux, tmp_path, ["--players", "2", "--teams", "0", "--seats", "human,easy",
                           "--seed", "5", "--delay", "4", "--save", str(record)])
    wait_for(tmux, "Choose a card", LIST_TITLE)
    choose_until_moved(tmux, "1", "thinking")
    keys(tmux, "1")  # on the list during the bot's turn: nothing to choose
    keys(tmux, "1")
    keys(tmux, "Enter")
    keys(tmux, "t")
    wait_for(tmux, BOX_TITLE, "thinking")
    type_text(tmux, "11: 1.1")
    shown = wait_until(tmux, lambda now: "thinking" not in now and "Choose a card" in now,
                       "the human's turn")
    assert BOX_TITLE in shown  # the turn did not take the focus from the box
    type_text(tmux, ">1.11 111")
    wait_for(tmux, "11: 1.1>1.11 111", BOX_TITLE)
    keys(tmux, "Escape")
    wait_for(tmux, LIST_TITLE)
    keys(tmux, "q")
    shown = wait_for(tmux, "PLAY-EXITED")
    assert "Traceback" not in shown
    saved = load(record)
    assert [str(a).split(":")[0] for a in saved.actions][:1] == ["Q"]
    assert len(saved.actions) == 2  # the move chosen and the bot's answer: nothing more


def test_resuming_a_finished_game_notes_ignored_options_and_leaves_the_file(
        tmux: list[str], tmp_path: Path) -> None:
    record = tmp_path / "done.json"
    demo = subprocess.run([sys.executable, "-m", "pegs.cli", "demo", "--players", "2",
                           "--teams", "0", "--seed", "2", "--quiet", "--save", str(record)],
                          capture_output=True, text=True, timeout=120)
    assert demo.returncode == 0, demo.stderr
    before = (record.read_bytes(), record.stat().st_mtime_ns)
    start(tmux, tmp_path, ["--resume", str(record), "--rules", "basic", "--players", "2"])
    wait_for(tmux, "Game over.", "--rules basic ignored: the resumed game keeps its own table")
    keys(tmux, "q")
    shown = wait_for(tmux, "PLAY-EXITED")
    assert "pegs: note: --rules basic ignored" in shown
    assert "Traceback" not in shown
    assert (record.read_bytes(), record.stat().st_mtime_ns) == before


def test_an_80_by_24_terminal_shows_the_pegs_the_move_box_and_the_keys(
        tmux: list[str], tmp_path: Path) -> None:
    record = tmp_path / "small.json"
    start(tmux, tmp_path, ["--players", "6", "--teams", "3", "--seed", "5", "--delay", "0",
                           "--save", str(record)], size="80x24")
    wait_for(tmux, "Choose a card", LIST_TITLE, "t: type a move", "q Quit",
             "R Red    Team A you 6 cards", "    S S S S", "G Green  Team A     5 cards",
             "Bots: normal, instant (+/-)")
    choose_until_moved(tmux, "Enter", saved_a_move(record))
    keys(tmux, "q")
    wait_for(tmux, "PLAY-EXITED")
    assert load(record).actions


TEN_SEATS = ["--players", "10", "--seats", ",".join(["easy"] * 9 + ["human"]), "--seed", "3",
             "--delay", "0"]


def test_ten_seats_at_80_by_24_list_the_player_and_keep_every_move_in_the_log(
        tmux: list[str], tmp_path: Path) -> None:
    record = tmp_path / "ten.json"
    start(tmux, tmp_path, [*TEN_SEATS, "--save", str(record)], size="80x24")
    wait_for(tmux, "seat, team, pegs; you: Teal", "Teal   B S\N{MULTIPLICATION SIGN}4",
             "Hand of Seat 9 (Teal, T)", LIST_TITLE)
    before = len(load(record).actions)

    def round_played(_shown: str) -> bool:  # the player's move and the nine bots' answers
        try:
            return len(load(record).actions) >= before + 10
        except (OSError, ValueError):
            return False

    choose_until_moved(tmux, "Enter", round_played)
    wait_for(tmux, "you: Teal", "Choose a card", LIST_TITLE)
    keys(tmux, "l")
    shown = wait_for(tmux, "The whole log", "any other key closes")
    missing = [seat for seat in range(10) if f"Seat {seat} (" not in shown]
    assert not missing, shown  # every seat's move of the last round, the player's too
    keys(tmux, "x")
    wait_for(tmux, LIST_TITLE)
    keys(tmux, "q")
    assert "Traceback" not in wait_for(tmux, "PLAY-EXITED")


def test_the_keys_page_fits_80_by_24_and_says_the_log_scrolls(
        tmux: list[str], tmp_path: Path) -> None:
    from pegs.tui.app import KEYS

    start(tmux, tmp_path, [*TEN_SEATS, "--save", str(tmp_path / "k.json")], size="80x24")
    wait_for(tmux, LIST_TITLE)
    keys(tmux, "?")
    shown = wait_for(tmux, "Keys", "any other key closes")
    for line in KEYS.splitlines():  # every line whole, none wrapped or scrolled away
        assert line.strip() in shown, line
    assert "the whole log of moves" in shown and "scroll it" in shown
    keys(tmux, "q")  # closes the page
    wait_for(tmux, LIST_TITLE)
    keys(tmux, "q")
    wait_for(tmux, "PLAY-EXITED")


def test_escape_after_tabbing_away_gives_the_number_keys_back(
        tmux: list[str], tmp_path: Path) -> None:
    record = tmp_path / "tab.json"
    start(tmux, tmp_path, ["--players", "2", "--teams", "0", "--seats", "human,easy",
                           "--seed", "13", "--delay", "0", "--save", str(record)],
          size="80x24")
    wait_for(tmux, "Choose a card", LIST_TITLE)
    keys(tmux, "Tab")
    wait_for(tmux, BOX_TITLE)
    keys(tmux, "Tab")
    wait_until(tmux, lambda shown: LIST_TITLE not in shown and BOX_TITLE not in shown,
               "the focus past the move box")
    keys(tmux, "Escape")
    choose_until_moved(tmux, "1", saved_a_move(record))
    keys(tmux, "q")
    assert "Traceback" not in wait_for(tmux, "PLAY-EXITED")


ENTRY = re.compile(r"(Seat \d+ \(|New game, |Resumed after )")  # how log entries begin


def first_log_row(shown: str) -> str:
    """The top row of the log: the row under its border, a full row of ``─``."""
    rows = shown.splitlines()
    border = max(i for i, row in enumerate(rows) if row.strip() and set(row.strip()) == {"─"})
    return rows[border + 1]


def test_the_log_at_80_by_24_never_shows_a_cut_announcement(
        tmux: list[str], tmp_path: Path) -> None:
    record = tmp_path / "bluff.json"
    start(tmux, tmp_path, ["--rules", "bluffing-joker", "--seed", "4", "--delay", "0",
                           "--save", str(record)], size="80x24")
    for _ in range(12):  # bluffing announcements are long: they wrap at 80 columns
        shown = wait_until(tmux, lambda now: LIST_TITLE in now and "q Quit" in now
                           and bool(first_log_row(now).strip()), "the player's turn")
        assert ENTRY.match(first_log_row(shown)), shown
        keys(tmux, "Enter")
        wait_until(tmux, lambda now, before=shown: now != before, "an answer")
    keys(tmux, "q")
    assert "Traceback" not in wait_for(tmux, "PLAY-EXITED")


def terminal_modes(tmux: list[str]) -> str:
    """The pane's alternate screen, mouse reporting and cursor, as tmux sees them."""
    return subprocess.run([*tmux, "display-message", "-p", "-t", "play",
                           "alt=#{alternate_on} mouse=#{mouse_any_flag} cursor=#{cursor_flag}"],
                          capture_output=True, text=True, timeout=10).stdout.strip()


def test_kill_saves_says_so_and_gives_the_terminal_back(tmux: list[str],
                                                         tmp_path: Path) -> None:
    record = tmp_path / "killed.json"
    start(tmux, tmp_path, [*TEN_SEATS, "--save", str(record)], size="80x24")
    wait_for(tmux, "Choose a card", LIST_TITLE)
    assert terminal_modes(tmux) == "alt=1 mouse=1 cursor=0"  # the game's own screen
    shell = subprocess.run([*tmux, "display-message", "-p", "-t", "play", "#{pane_pid}"],
                           capture_output=True, text=True, timeout=10).stdout.strip()
    game = subprocess.run(["pgrep", "-P", shell, "-f", "pegs.cli play"], capture_output=True,
                          text=True, timeout=10).stdout.split()
    assert len(game) == 1, game
    os.kill(int(game[0]), signal.SIGTERM)
    shown = wait_for(tmux, "PLAY-EXITED")
    assert "PLAY-EXITED 143" in shown and "Traceback" not in shown
    assert "Game saved after" in shown  # (the path may wrap at 80 columns)
    assert f"pegs play --resume {record}" in shown.replace("\n", "")
    assert terminal_modes(tmux) == "alt=0 mouse=0 cursor=1"
    assert load(record).seed == 3
