"""A picture of a simulation: win rates with 95 % intervals, and the game lengths.

Drawn with matplotlib's Agg backend (no display needed).  Three panels: win rate per bot
kind, win rate per seat (seat 0 plays first), both with Wilson error bars and the even-
match expectation as a dashed line; and the histogram of game length of finished games.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
from matplotlib.axes import Axes
from matplotlib.backend_bases import FigureCanvasBase
from matplotlib.ticker import MaxNLocator

from .stats import Rate, Summary


def _rates(ax: Axes, rates: Sequence[Rate], expected: float, title: str,
           colours: Sequence[str]) -> None:
    shown = [r for r in rates if r.games]
    xs = list(range(len(shown)))
    values = [r.rate for r in shown]
    low = [r.rate - r.interval[0] for r in shown]
    high = [r.interval[1] - r.rate for r in shown]
    ax.bar(xs, values, yerr=[low, high], capsize=6, color=list(colours)[:len(shown)] or None,
           edgecolor="black", linewidth=0.6)
    ax.axhline(expected, color="grey", linestyle="--", linewidth=1,
               label=f"even match {100 * expected:.0f}%")
    ax.set_xticks(xs, [r.label for r in shown])
    ax.set_ylim(0, 1.15)
    ax.set_yticks([i / 5 for i in range(6)])
    ax.set_ylabel("win rate (95% Wilson CI)")
    ax.set_title(title)
    for x, r in zip(xs, shown, strict=True):
        ax.annotate(f"{100 * r.rate:.1f}%", (x, r.interval[1]), textcoords="offset points",
                    xytext=(0, 4), ha="center", fontsize=8)
    ax.legend(loc="upper right", fontsize=8, framealpha=0.9)


def plot_file(name: str) -> Path:
    """The file a plot asked for as ``name`` is written to (``.png`` added to a name without
    an extension); ValueError if matplotlib cannot write the format its extension names."""
    path = Path(name)
    if not path.suffix:
        return path.with_name(path.name + ".png")
    formats = FigureCanvasBase.get_supported_filetypes()
    if path.suffix[1:].lower() not in formats:
        raise ValueError(f"cannot draw a plot as {path.suffix} (use one of: "
                         f"{', '.join(sorted(formats))})")
    return path


def plot_summary(summary: Summary, path: str | Path, title: str = "") -> None:
    """Write the three panels of ``summary`` to ``path`` (PNG, or any format matplotlib
    knows by the file's extension)."""
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.8), layout="constrained")
    palette = [f"C{i}" for i in range(10)]
    try:
        _rates(axes[0], summary.per_bot, summary.expected, "win rate per bot", palette)
        seats = [
            Rate(f"{i}" + ("\n(first)" if i == 0 else ""), r.wins, r.games)
            for i, r in enumerate(summary.per_seat)
        ]
        # greys (not the bots' colours): one shade per team, alternating seats without teams
        shades = ["#9e9e9e", "#d6d6d6", "#6e6e6e", "#bdbdbd", "#e8e8e8"]
        seat_colours = [shades[(i % summary.teams if summary.teams else i % 2) % len(shades)]
                        for i in range(len(seats))]
        _rates(axes[1], seats, summary.expected,
               "win rate per seat" + (" (shade: team)" if summary.teams else ""), seat_colours)
        ax = axes[2]
        if summary.lengths:
            low, high = min(summary.lengths), max(summary.lengths)
            bins = max(1, min(40, int(math.sqrt(len(summary.lengths))) * 2, high - low + 1))
            ax.hist(summary.lengths, bins=bins, color="C7", edgecolor="black", linewidth=0.5)
            ax.axvline(summary.length_mean, color="black", linestyle="--", linewidth=1,
                       label=f"mean {summary.length_mean:.0f} (sd {summary.length_std:.0f})")
            ax.legend(loc="upper right", fontsize=8)
        else:
            ax.text(0.5, 0.5, "no finished games", ha="center", va="center",
                    transform=ax.transAxes)
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("game length (actions)")
        ax.set_ylabel("games")
        ax.set_title(f"game length ({summary.finished} finished games)")
        if title:
            fig.suptitle(title)
        fig.savefig(path, dpi=100)
    finally:
        plt.close(fig)
