#!/usr/bin/env python3
"""Simulation throughput with the Ray backend against local worker processes, same cores.

Plays the same ``--games`` games (basic, 4 seats, ``--seats``, seeds from 1) with
``simulate(..., jobs=J)`` locally (J spawned worker processes, their start included) and
on a local Ray started beforehand with ``num_cpus=J`` (its start timed apart), in wall
time, and prints games a second and Ray's overhead a game: (Ray time - local time) /
games.  Run it on an otherwise idle machine for clean figures (``nice`` if shared).

    python benchmarks/ray_overhead.py
    python benchmarks/ray_overhead.py --games 400 --jobs 2 --seats heuristic
"""

from __future__ import annotations

import argparse
import os
import time

import ray

from pegs.rules import Rules
from pegs.sim.run import Config, expand_seats, simulate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seats", default="random")
    args = parser.parse_args()
    config = Config(Rules.preset("basic"), expand_seats(args.seats.split(","), 4), args.games)
    start = time.perf_counter()
    local = simulate(config, jobs=args.jobs)
    local_s = time.perf_counter() - start
    start = time.perf_counter()
    ray.init(num_cpus=args.jobs, include_dashboard=False, log_to_driver=False)
    init_s = time.perf_counter() - start
    start = time.perf_counter()
    on_ray = simulate(config, jobs=args.jobs, backend="ray")
    ray_s = time.perf_counter() - start
    ray.shutdown()
    assert on_ray.results == local.results, "the backends played different games"
    g = args.games
    print(f"{g} games of {args.seats}, basic 4 seats, {args.jobs} jobs (wall time)")
    print(f"local processes: {local_s:7.2f} s  {g / local_s:7.1f} games/s")
    print(f"ray tasks:       {ray_s:7.2f} s  {g / ray_s:7.1f} games/s  (+ {init_s:.1f} s to "
          "start Ray)")
    print(f"Ray overhead: {1000 * (ray_s - local_s) / g:+.1f} ms a game")


if __name__ == "__main__":
    main()
