"""A rating ladder: team matches between every pair of bots on duplicate deals, and ratings
with their uncertainty.

Bots are specs (:mod:`pegs.sim.bot_spec`: ``random``, ``heuristic``,
``ismcts:iterations=400``; a bot bounded by iterations plays the same games on any machine,
one bounded by ``seconds`` does not).  The
table must have two sides (two teams, or two seats without teams); in a match of bots
``a`` and ``b`` one side is all ``a`` and the other all ``b``.  Pairs are numbered in the
order of the list (``(0, 1), (0, 2), .., (1, 2), ..``), ``games`` games each; game ``k``
of a pair is dealt with seed ``S + k // 2`` (the same deals for every pair) and ``a`` plays
side ``k mod 2``: each deal is played once from each side, so card luck cancels out.  Seat
``s`` has the bot seed ``deal * 1000 + s``.  Results are one JSON line per game, as in
``pegs simulate`` plus ``pair`` and ``deals_from`` (the ladder's first deal seed).

Growing: a game of the file is known by its pair of bots, its deal and the bot of seat 0,
not by its number, so a run with more bots or more games on an existing file plays only
the pairs and games it lacks (and a run with fewer uses the games it names).  A file of
other rules, another action cap or other deals (``--seed``) is refused.

Ratings: the games in game order through an OpenSkill Plackett-Luce model (each side one
player; an unfinished game counts as a draw), giving each bot ``mu`` and ``sigma``; the
table ranks by ``mu - 3 sigma`` and shows each pair's score with a 95% Wilson interval.
"""

from __future__ import annotations

import json
import traceback
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce

from ..rules import Rules
from .bot_spec import BotSpecError, parse_bot_spec
from .records import keep_records
from .run import (
    DEFAULT_MAX_ACTIONS,
    GameError,
    Progress,
    SimulationError,
    Task,
    bot_seed,
    games_stream,
    play_with,
    record,
    settings_now,
)
from .stats import wilson_interval

LADDER_KEYS = ("game", "pair", "seed", "rules", "seats", "max_actions", "winner_team",
               "turns", "finished")

#: What identifies a ladder game in any ladder: its pair, its deal, the bot of seat 0.
GameKey = tuple[frozenset[str], int, str]


@dataclass(frozen=True)
class Ladder:
    """What a ladder plays."""

    rules: Rules
    bots: tuple[str, ...]
    games: int
    seed: int = 1
    max_actions: int = DEFAULT_MAX_ACTIONS

    def __post_init__(self) -> None:
        sides = self.rules.teams or self.rules.players
        if sides != 2:
            raise SimulationError(
                f"a ladder plays two sides against each other; this table has {sides}: use "
                "--teams 2 (or 2 players)")
        for text in self.bots:
            try:
                spec = parse_bot_spec(text)
                spec.make(0)
            except (BotSpecError, ValueError, TypeError) as e:
                raise SimulationError(f"--bots: {e}") from None
            if spec.text != text:  # the spec's own spelling names it in files and tables
                raise SimulationError(f"--bots: write {text!r} as {spec.text!r}")
        if len(self.bots) < 2 or len(set(self.bots)) != len(self.bots):
            raise SimulationError("--bots needs two or more different bots, e.g. "
                                  "random,heuristic,ismcts:iterations=400")
        if self.games < 2 or self.games % 2:
            raise SimulationError(f"--games must be an even number, 2 or more (each deal is "
                                  f"played from both sides), not {self.games}")

    @property
    def pairs(self) -> list[tuple[str, str]]:
        b = self.bots
        return [(b[i], b[j]) for i in range(len(b)) for j in range(i + 1, len(b))]

    @property
    def total(self) -> int:
        return len(self.pairs) * self.games

    def seats(self, game: int) -> tuple[str, ...]:
        a, b = self.pairs[game // self.games]
        side_of_a = game % self.games % 2
        return tuple(a if s % 2 == side_of_a else b for s in range(self.rules.players))

    def deal(self, game: int) -> int:
        return self.seed + game % self.games // 2

    def task(self, game: int, keep_record: bool = False) -> LadderTask:
        return LadderTask(game, self.deal(game), self.rules.settings(), self.seats(game), {},
                          self.max_actions, keep_record, self.pairs[game // self.games],
                          self.seed)

    def key(self, game: int) -> GameKey:
        return frozenset(self.pairs[game // self.games]), self.deal(game), self.seats(game)[0]


@dataclass(frozen=True)
class LadderTask(Task):
    """A ladder game: a simulation task with the pair of bots it matches."""

    pair: tuple[str, str] = ("", "")
    deals_from: int = 1


def play_ladder_game(task: LadderTask) -> dict[str, Any]:
    """One ladder game: bots built from the seat specs; its line with ``pair`` and
    ``deals_from`` (and its record, with ``pair``, when the task keeps one)."""
    try:
        bots = [parse_bot_spec(text).make(bot_seed(task.seed, s))
                for s, text in enumerate(task.seats)]
        line = play_with(task, bots)
    except Exception as e:
        raise GameError(f"ladder game {task.game} (seed {task.seed}, seats "
                        f"{','.join(task.seats)}) failed: {type(e).__name__}: {e}\n"
                        f"{traceback.format_exc()}") from None
    line["pair"] = list(task.pair)
    line["deals_from"] = task.deals_from
    if "record" in line:
        line["record"]["pair"] = list(task.pair)
    return line


def read_ladder(path: Path, ladder: Ladder) -> dict[int, dict[str, Any]]:
    """The games of ``ladder`` already in a ladder file, by their number in ``ladder``
    (found by pair, deal and seating, so a file of fewer bots or games serves a bigger
    ladder); a file of other rules, action cap or deals raises :class:`SimulationError`."""
    if not path.exists():
        return {}
    wanted = {ladder.key(g): g for g in range(ladder.total)}
    rules = json.loads(json.dumps(ladder.rules.settings()))
    done: dict[int, dict[str, Any]] = {}
    try:
        raw_lines = path.read_text(encoding="utf-8").split("\n")
    except OSError as e:
        raise SimulationError(f"cannot read the results file {path}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise SimulationError(f"{path} is not a text file: not a ladder results file") from None
    for number, raw in enumerate(raw_lines, 1):
        if not raw.strip():
            continue
        try:
            line = json.loads(raw)
        except json.JSONDecodeError as e:
            if number == len(raw_lines):  # a last line cut short: play that game again
                text = "\n".join(raw_lines[:-1]) + "\n"
                path.write_text(text, encoding="utf-8")
                break
            raise SimulationError(f"{path} line {number} is not JSON ({e.msg})") from e
        except RecursionError:
            raise SimulationError(f"{path} line {number} nests too deeply: it is not a "
                                  "ladder results file") from None
        if not isinstance(line, dict) or any(k not in line for k in LADDER_KEYS) or not (
                isinstance(line["pair"], list) and isinstance(line["seats"], list)
                and line["seats"]):
            raise SimulationError(f"{path} line {number} is not a game of a ladder")
        for key, value in (("rules", rules), ("max_actions", ladder.max_actions),
                           ("deals_from", ladder.seed)):
            have = line.get(key, value)  # lines of older files have no deals_from
            if key == "rules":  # ... nor the whole power table
                have = settings_now(have)
            if have != value:
                raise SimulationError(
                    f"{path} holds another ladder (line {number}: {key} is "
                    f"{json.dumps(have)} there, {json.dumps(value)} now); use another "
                    "--out, or the settings it was made with to resume or grow it")
        game = wanted.get((frozenset(line["pair"]), line["seed"], line["seats"][0]))
        if game is not None and list(ladder.seats(game)) == line["seats"]:
            done.setdefault(game, {**line, "game": game})
    return done


@dataclass(frozen=True)
class Rating:
    bot: str
    mu: float
    sigma: float
    games: int
    score: float  # wins + half the unfinished games

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class PairScore:
    a: str
    b: str
    games: int
    a_score: float  # a's wins + half the unfinished games

    @property
    def rate(self) -> float:
        return self.a_score / self.games if self.games else 0.0

    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.a_score, self.games)


def rate(ladder: Ladder, lines: Sequence[dict[str, Any]],
         ) -> tuple[list[Rating], list[PairScore]]:
    """The bots' ratings (best first) and each pair's score, from the games in game order."""
    model = PlackettLuce()
    ratings = {b: model.rating(name=b) for b in ladder.bots}
    games = dict.fromkeys(ladder.bots, 0)
    score = dict.fromkeys(ladder.bots, 0.0)
    pair_games = {p: 0 for p in ladder.pairs}
    pair_score = {p: 0.0 for p in ladder.pairs}
    for line in sorted(lines, key=lambda g: g["game"]):
        a, b = ladder.pairs[line["game"] // ladder.games]
        side_of_a = line["game"] % ladder.games % 2
        if line["winner_team"] is None:
            result_a = 0.5
        else:
            result_a = 1.0 if line["winner_team"] == side_of_a else 0.0
        ranks: list[float] = [1, 1] if result_a == 0.5 else ([0, 1] if result_a else [1, 0])
        new_a, new_b = model.rate([[ratings[a]], [ratings[b]]], ranks=ranks)
        ratings[a], ratings[b] = new_a[0], new_b[0]
        for bot, won in ((a, result_a), (b, 1 - result_a)):
            games[bot] += 1
            score[bot] += won
        pair_games[(a, b)] += 1
        pair_score[(a, b)] += result_a
    table = [Rating(b, ratings[b].mu, ratings[b].sigma, games[b], score[b])
             for b in ladder.bots]
    table.sort(key=lambda r: -r.ordinal)
    pairs = [PairScore(a, b, pair_games[(a, b)], pair_score[(a, b)]) for a, b in ladder.pairs]
    return table, pairs


def format_ladder(ladder: Ladder, table: Sequence[Rating], pairs: Sequence[PairScore]) -> str:
    r = ladder.rules
    width = max(16, *(len(b) for b in ladder.bots))
    pair_width = max(36, *(len(p.a) + len(p.b) + 4 for p in pairs))
    lines = [f"{r.name}, {r.players} players, {r.teams or r.players} sides; deals seeded "
             f"{ladder.seed}-{ladder.seed + ladder.games // 2 - 1}, {ladder.games} games a pair",
             f"{'rank':>4}  {'bot':{width}} {'rating':>7} {'mu':>6} {'sigma':>6} {'games':>6} "
             f"{'score':>7}"]
    for i, t in enumerate(table, 1):
        share = f"{100 * t.score / t.games:.1f}%" if t.games else "-"
        lines.append(f"{i:>4}  {t.bot:{width}} {t.ordinal:7.2f} {t.mu:6.2f} {t.sigma:6.2f} "
                     f"{t.games:6d} {share:>7}")
    lines.append("")
    lines.append(f"{'pair':{pair_width}}  games  first's score  95% interval")
    for p in pairs:
        low, high = p.interval()
        shown = f"{100 * p.rate:.1f}%" if p.games else "-"
        lines.append(f"{p.a + ' vs ' + p.b:{pair_width}} {p.games:6d}  {shown:>13}  "
                     f"[{100 * low:.1f}%, {100 * high:.1f}%]")
    return "\n".join(lines)


@dataclass
class LadderResult:
    lines: list[dict[str, Any]]
    already: int
    interrupted: bool


def run_ladder(ladder: Ladder, out: Path | None = None, jobs: int | None = None,
               progress: Progress | None = None, backend: str = "local",
               address: str | None = None, records: Path | None = None) -> LadderResult:
    """Play the ladder's games not yet in ``out`` (as :func:`pegs.sim.run.simulate`),
    appending each played game's record to ``records`` (:mod:`pegs.sim.records`)."""
    if jobs is not None and jobs < 1:
        raise SimulationError(f"--jobs must be 1 or more, not {jobs}")
    done = read_ladder(out, ladder) if out is not None else {}
    already = len(done)
    tasks = [ladder.task(g, records is not None) for g in range(ladder.total)
             if g not in done]
    if progress is not None:
        progress.total, progress.done, progress.first = ladder.total, already, already
    interrupted = False
    if tasks:
        stream = keep_records(games_stream(tasks, jobs, backend, address, play_ladder_game),
                              records)
        interrupted = record(stream, out, done, progress)
    return LadderResult([done[g] for g in sorted(done)], already, interrupted)


def plot_ladder(table: Sequence[Rating], path: str, title: str) -> None:
    """Each bot's rating mu with a bar of two sigmas either side, best at the top."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 0.6 * len(table) + 1.5))
    names = [t.bot for t in reversed(table)]
    mus = [t.mu for t in reversed(table)]
    errs = [2 * t.sigma for t in reversed(table)]
    ax.errorbar(mus, range(len(names)), xerr=errs, fmt="o", capsize=4)
    ax.set_yticks(range(len(names)), names)
    ax.set_xlabel("OpenSkill rating mu, with 2 sigma either side")
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
