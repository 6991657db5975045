"""Statistics of simulated games: pure functions over the per-game results.

A result is one line of the simulation's JSONL file (see :mod:`pegs.sim.run`): a mapping
with at least ``seats`` (bot kind per seat), ``winner_seats``, ``turns`` and ``finished``.

Definitions (what :func:`summarize` reports):

* **Expected win rate** of one side in an even match: ``1 / teams``, or ``1 / players``
  when everyone plays alone.  Teams always have the same size (teams divide the players).
* **Win rate per seat**: the share of finished games in which the seat was among the
  winners (teammates therefore show the same rate).  Trials: finished games.
* **Win rate per bot kind**: the mean over the finished games the kind played of the
  share of its seats that won.  When a kind holds whole teams (``ismcts,heuristic,...``
  with two teams) that is simply the share of games its team won, an exact binomial
  count.  When a kind sits on several sides (or on several seats in a free-for-all) the
  per-game share is fractional; its interval then still uses the games as trials, which is
  conservative (a fractional share varies less than a win/loss).
* **First-seat advantage**: seat 0 always plays first; its team's (or, alone, its own)
  win rate compared with the expected rate, with a normal-approximation z and two-sided
  p-value.  Rotating the seats between games (the default of ``pegs simulate``) makes
  every bot kind sit first equally often, so this measures the seat, not the bots.
* **Game length**: ``turns`` (actions played, as in ``pegs demo``) of the finished games:
  mean, sample standard deviation, minimum and maximum.
* Intervals are 95 % Wilson score intervals.

Unfinished games (stopped at the action cap) count in ``games`` and ``unfinished`` only.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

#: The two-sided 95 % normal quantile.
Z95 = 1.959963984540054


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``successes / trials`` (``(0, 1)`` when
    there are no trials).  ``successes`` may be fractional (see the module notes)."""
    if trials < 0 or successes < 0 or successes > trials:
        raise ValueError(f"need 0 <= successes <= trials, not {successes}/{trials}")
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    denom = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return (low, high)


def mean_std(values: Sequence[float]) -> tuple[float, float]:
    """Mean and sample standard deviation (``n - 1``); ``(nan, nan)`` for no values and a
    standard deviation of 0 for one value."""
    n = len(values)
    if n == 0:
        return (math.nan, math.nan)
    mean = math.fsum(values) / n
    if n == 1:
        return (mean, 0.0)
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    return (mean, math.sqrt(var))


def expected_win_rate(players: int, teams: int) -> float:
    """The win rate of one side in an even match: 1/teams, or 1/players without teams."""
    return 1.0 / (teams if teams else players)


def z_test(successes: float, trials: int, expected: float) -> tuple[float, float]:
    """Normal-approximation test of a proportion against ``expected``: (z, two-sided p).
    ``(nan, nan)`` without trials or with a degenerate expectation."""
    if trials == 0 or not 0 < expected < 1:
        return (math.nan, math.nan)
    sd = math.sqrt(trials * expected * (1 - expected))
    z = (successes - trials * expected) / sd
    return (z, math.erfc(abs(z) / math.sqrt(2)))


@dataclass(frozen=True)
class Rate:
    """A win rate with its 95 % Wilson interval."""

    label: str
    wins: float
    games: int

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else math.nan

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)


@dataclass(frozen=True)
class Summary:
    """Everything ``pegs simulate`` reports about a set of games."""

    games: int
    finished: int
    players: int
    teams: int
    expected: float
    per_bot: tuple[Rate, ...]
    per_seat: tuple[Rate, ...]
    first_seat: Rate
    first_seat_z: float
    first_seat_p: float
    lengths: tuple[int, ...]
    length_mean: float
    length_std: float

    @property
    def unfinished(self) -> int:
        return self.games - self.finished

    @property
    def first_seat_advantage(self) -> float:
        """Seat 0's side's win rate minus the expected rate (nan without finished games)."""
        return self.first_seat.rate - self.expected


def team_of(seat: int, teams: int) -> int:
    """The team of a seat (seat ``p`` plays in team ``p % teams``; alone: its own number)."""
    return seat % teams if teams else seat


def bot_kinds(results: Sequence[Mapping[str, Any]]) -> list[str]:
    """The bot kinds in the results, in order of first appearance."""
    kinds: dict[str, None] = {}
    for r in results:
        for kind in r["seats"]:
            kinds.setdefault(str(kind), None)
    return list(kinds)


def summarize(results: Sequence[Mapping[str, Any]], players: int, teams: int) -> Summary:
    """The win rates, first-seat advantage and game lengths of ``results``."""
    done = [r for r in results if r["finished"]]
    n = len(done)
    expected = expected_win_rate(players, teams)

    per_bot: list[Rate] = []
    for kind in bot_kinds(results):
        share = 0.0
        played = 0
        for r in done:
            mine = [s for s, k in enumerate(r["seats"]) if k == kind]
            if not mine:
                continue
            played += 1
            winners = set(r["winner_seats"])
            share += sum(s in winners for s in mine) / len(mine)
        per_bot.append(Rate(kind, share, played))

    per_seat = tuple(
        Rate(f"seat {s}", float(sum(s in r["winner_seats"] for r in done)), n)
        for s in range(players)
    )
    first = Rate("seat 0's side", per_seat[0].wins if players else 0.0, n)
    z, p = z_test(first.wins, n, expected)
    lengths = tuple(int(r["turns"]) for r in done)
    mean, std = mean_std(lengths)
    return Summary(
        games=len(results), finished=n, players=players, teams=teams, expected=expected,
        per_bot=tuple(per_bot), per_seat=per_seat, first_seat=first,
        first_seat_z=z, first_seat_p=p, lengths=lengths, length_mean=mean, length_std=std,
    )


def _pct(x: float) -> str:
    return "   -  " if math.isnan(x) else f"{100 * x:5.1f}%"


def _rate_row(label: str, extra: str, rate: Rate) -> str:
    lo, hi = rate.interval
    ci = "" if not rate.games else f"[{_pct(lo).strip()}, {_pct(hi).strip()}]"
    return f"  {label:<18}{extra:>5} {rate.games:>7} {_pct(rate.rate):>9}  {ci}"


def format_summary(summary: Summary) -> str:
    """The summary as a plain-text table."""
    s = summary
    lines: list[str] = []
    head = f"{s.games} games"
    if s.unfinished:
        head += f" ({s.finished} finished, {s.unfinished} stopped at the action cap)"
    side = f"{s.teams} teams" if s.teams else f"{s.players} players alone"
    lines.append(f"{head}; expected win rate of one side in an even match: "
                 f"{_pct(s.expected).strip()} ({side})")
    lines.append("")
    lines.append(f"  {'bot':<18}{'':>5} {'games':>7} {'win rate':>9}  95% CI")
    for rate in s.per_bot:
        lines.append(_rate_row(rate.label, "", rate))
    lines.append("")
    team_head = "team" if s.teams else ""
    lines.append(f"  {'seat':<18}{team_head:>5} {'games':>7} {'win rate':>9}  95% CI")
    for seat, rate in enumerate(s.per_seat):
        label = f"{seat}" + (" (plays first)" if seat == 0 else "")
        team = str(team_of(seat, s.teams)) if s.teams else ""
        lines.append(_rate_row(label, team, rate))
    lines.append("")
    if s.finished:
        lo, hi = s.first_seat.interval
        who = "seat 0's team" if s.teams else "seat 0"
        adv = 100 * s.first_seat_advantage
        test = "" if math.isnan(s.first_seat_z) else (
            f" (z = {s.first_seat_z:.2f}, p = {s.first_seat_p:.3g})")
        lines.append(
            f"first-seat advantage: {who} won {_pct(s.first_seat.rate).strip()} "
            f"[{_pct(lo).strip()}, {_pct(hi).strip()}] vs {_pct(s.expected).strip()} expected: "
            f"{adv:+.1f} points{test}"
        )
        lines.append(
            f"game length (actions): mean {s.length_mean:.1f}, sd {s.length_std:.1f}, "
            f"min {min(s.lengths)}, max {max(s.lengths)}"
        )
    else:
        lines.append("no finished games: no win rates or game lengths")
    return "\n".join(lines)
