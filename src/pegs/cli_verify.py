"""``pegs ladder --verify FILE``: play the games of a records file again with their bots;
it takes only ``--games``, ``--jobs`` and ``--quiet``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .cli_checks import check_alone, check_input, check_jobs
from .sim import run as sim_run


def verify_command(args: argparse.Namespace) -> int:
    """Exit 1 when a game differs, 2 when the file or an option cannot be used."""
    from .sim import verify

    check_input("--verify", args.verify)
    check_alone("--verify", {
        "--bots": args.bots is not None, "--out": args.out is not None,
        "--records": args.records is not None, "--plot": args.plot is not None,
        "--rules": args.rules is not None, "--house": args.house is not None,
        "--players": args.players is not None, "--teams": args.teams is not None,
        "--set": bool(args.set), "--seed": args.seed != 1,
        "--max-actions": args.max_actions != sim_run.DEFAULT_MAX_ACTIONS,
        "--backend": args.backend != "local", "--address": args.address is not None,
    }, "it plays each record again with the record's own bots and rules, in local worker "
       "processes, and writes no file")
    check_jobs(args.jobs)
    try:
        results = verify.verify(Path(args.verify), args.games, args.jobs,
                                lambda r: print(verify.describe(r), flush=True))
    except (sim_run.SimulationError, sim_run.GameError) as e:
        print(f"pegs: {e}", file=sys.stderr)
        return 2
    differ = sum("differs" in r for r in results)
    print(f"{len(results) - differ} of {len(results)} games played again the same"
          + (f"; {differ} differ" if differ else ""))
    return 1 if differ else 0
