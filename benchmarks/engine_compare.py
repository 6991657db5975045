#!/usr/bin/env python3
"""Two installs of the engine side by side: the same work, the same seeds, one core.

Each figure is measured by a worker process of this script run by each install's Python
(``--old-python``, default this one, and ``--new-python``), alternately and in a shuffled
order for ``--rounds`` rounds, so that load on the machine weighs on both alike; a worker
times its own work in CPU time (``time.process_time``).  The figures (medians over the
rounds, and the ratio new / old):

- ``random <preset> <seats>``: actions a second of uniformly random games (listing the
  legal actions, choosing one, applying it), seeds 1 onwards, at most ``--actions``;
  through the integer codes (``legal_codes``, ``apply_code``) on an engine that has them,
  as a simulation or a bot's rollout would play, else through ``Action`` values;
- ``actions <preset> <seats>``: the same games through ``legal_actions`` and ``apply``
  on both sides (the public API of the clients that read actions);
- ``ismcts basic 4``: ISMCTS iterations a second with the bot's defaults, a fresh bot per
  position deciding with 200 iterations, on positions of random games;
- ``env <preset> <seats>``: PettingZoo environment steps a second under a random masked
  agent;
- ``refuse``: at a crowded North Carolina position (10 seats, a ten in hand, the most legal
  actions among the first positions of a few random games), the microseconds to list the
  legal actions and apply one, and to refuse each kind of illegal action through
  ``apply`` (a ten made of two tens' parts, a held card's peg sent where the card cannot
  take it, a come-out with a card that cannot come out, a card not held, a split of one
  peg twice, ``Q: S>0.0``), each on fresh states (the least of five alternate runs), and
  the worst refusal's ratio to the legal turn.

    .venv/bin/python benchmarks/engine_compare.py --old-python OLD/.venv/bin/python
    .venv/bin/python benchmarks/engine_compare.py --old-python OLD/.venv/bin/python \\
        --figures random-basic-4 refuse --rounds 3
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

FIGURES = ("random-basic-4", "random-north-carolina-8", "actions-basic-4",
           "actions-north-carolina-8", "ismcts-basic-4", "env-basic-4", "env-north-carolina-4",
           "refuse")


def fresh(state: Any) -> Any:
    """An equal state with nothing cached (no listing)."""
    try:
        return copy.copy(state)
    except TypeError:  # an engine whose states do not copy
        return state._replace()


def random_games(preset: str, players: int, budget: int, codes: bool = True
                 ) -> dict[str, float]:
    """Random play; with ``codes``, through the integer codes where the engine has them."""
    from pegs.rules import GameState, Rules

    rules = Rules.preset(preset, players=players)
    actions, seed = 0, 1
    coded = codes and hasattr(GameState, "legal_codes")
    start = time.process_time()
    while actions < budget:
        rng = random.Random(seed)
        state = GameState.new(rules, seed)
        while not state.is_over() and actions < budget:
            if coded:
                listed = state.legal_codes()
                state = state.apply_code(listed[rng.randrange(len(listed))])
            else:
                legal = state.legal_actions()
                state = state.apply(legal[rng.randrange(len(legal))])
            actions += 1
        seed += 1
    return {"per_second": actions / (time.process_time() - start)}


def positions(preset: str, players: int, count: int) -> list[Any]:
    from pegs.rules import GameState, Rules

    rules = Rules.preset(preset, players=players)
    out = []
    for seed in range(1, count + 1):
        rng = random.Random(seed)
        state = GameState.new(rules, seed)
        for _ in range(rng.randrange(400)):
            if state.is_over():
                break
            legal = state.legal_actions()
            state = state.apply(legal[rng.randrange(len(legal))])
        if not state.is_over() and len(state.legal_actions()) > 1:
            out.append(state)
    return out


def ismcts(count: int) -> dict[str, float]:
    from pegs.bots.ismcts import IsmctsBot
    from pegs.rules import view

    iterations, seconds = 0, 0.0
    for i, state in enumerate(positions("basic", 4, count)):
        bot = IsmctsBot(seed=i, iterations=200)
        seen, legal = view(state, state.current_player), state.legal_actions()
        start = time.process_time()
        bot.choose(seen, legal)
        seconds += time.process_time() - start
        iterations += bot.last_iterations
    return {"per_second": iterations / seconds}


def env_steps(preset: str, players: int, budget: int) -> dict[str, float]:
    import numpy as np

    from pegs.adapters.pettingzoo import raw_env

    e = raw_env(rules=preset, players=players, seed=1)
    rng = np.random.default_rng(0)
    steps = 0
    start = time.process_time()
    while steps < budget:
        e.reset()
        for _agent in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
            if steps >= budget:
                break
    return {"per_second": steps / (time.process_time() - start)}


def crowded() -> tuple[Any, Any, dict[str, Any]]:
    """A crowded 10-seat North Carolina position, a legal ten, and illegal actions of each
    kind a client may send."""
    from pegs.rules import Action, GameState, Rules, Step

    rules = Rules.preset("north-carolina", players=10)
    best, most = None, 0
    for seed in range(1, 5):
        rng = random.Random(seed)
        state = GameState.new(rules, seed)
        for _ in range(700):
            if state.is_over():
                break
            legal = state.legal_actions()
            if "10" in state.hands[state.turn] and len(legal) > most:
                best, most = state, len(legal)
            state = state.apply(legal[rng.randrange(len(legal))])
    assert best is not None
    legal = best.legal_actions()
    texts = {str(a) for a in legal}
    tens = [a for a in legal if a.card == "10" and len(a.steps) == 2]
    good = tens[len(tens) // 2]
    first = good.steps[0]
    bad: dict[str, Any] = {}
    for a in tens:  # the first part of one ten with the second part of another
        candidate = Action("10", (first, a.steps[1]))
        if str(candidate) not in texts and a.steps[1].src != first.src:
            bad["ten"] = candidate
            break
    hand = best.hands[best.turn]
    singles = [a for a in legal if len(a.steps) == 1 and a.steps[0].op == ">"
               and a.steps[0].src != "S" and not a.discard]
    for a in singles:  # a held card's peg sent where the card cannot take it
        step = a.steps[0]
        for other in legal:
            wrong = Action(a.card, (Step(step.src, other.steps[0].dst, ">"),)) if (
                other.steps) else None
            if wrong is not None and str(wrong) not in texts:
                bad["wrong move"] = wrong
                break
        if "wrong move" in bad:
            break
    cannot = [c for c in hand if not any(a.card == c and a.steps and a.steps[0].src == "S"
                                         for a in legal)]
    out_hole = next(a.steps[0].dst for a in legal if a.steps and a.steps[0].src == "S") if any(
        a.steps and a.steps[0].src == "S" for a in legal) else "0.9"
    bad["come-out"] = Action(cannot[0] if cannot else "10", (Step("S", out_hole, ">"),))
    missing = next(r for r in ("K", "Q", "J", "9", "8", "A") if r not in hand)
    bad["not held"] = Action(missing, good.steps[:1])
    bad["malformed split"] = Action("10", (first, first))
    bad["Q: S>0.0"] = Action.parse("Q: S>0.0")
    return best, good, bad


def refuse(repeat: int) -> dict[str, float]:
    from pegs.rules import IllegalActionError

    state, good, bad = crowded()

    def timed(work: Callable[[Any], None]) -> float:
        states = [fresh(state) for _ in range(repeat)]
        start = time.process_time()
        for s in states:
            work(s)
        return 1e6 * (time.process_time() - start) / repeat

    def legal_turn(s: Any) -> None:
        s.legal_actions()
        s.apply(good)

    def refusal(action: Any) -> Callable[[Any], None]:
        def work(s: Any) -> None:
            try:
                s.apply(action)
            except IllegalActionError:
                return
            raise AssertionError(f"{action} was accepted")
        return work

    listed = float("inf")
    refused = dict.fromkeys(bad, float("inf"))
    for _ in range(5):  # alternately; the least of each
        listed = min(listed, timed(legal_turn))
        for name, action in bad.items():
            refused[name] = min(refused[name], timed(refusal(action)))
    out = {"legal_us": listed, "legal_actions": len(state.legal_actions())}
    for name, us in refused.items():
        out[f"{name} us"] = us
    out["worst ratio"] = max(refused.values()) / listed
    return out


def work(figure: str, args: argparse.Namespace) -> dict[str, float]:
    kind, _, rest = figure.partition("-")
    if kind == "refuse":
        return refuse(args.refuse_repeat)
    if kind == "ismcts":
        return ismcts(args.positions)
    preset, _, seats = rest.rpartition("-")
    if kind == "random":
        return random_games(preset, int(seats), args.actions)
    if kind == "actions":
        return random_games(preset, int(seats), args.actions, codes=False)
    return env_steps(preset, int(seats), args.steps)


def run_worker(python: str, figure: str, args: argparse.Namespace) -> dict[str, float]:
    command = [python, __file__, "--worker", figure, "--actions", str(args.actions),
               "--steps", str(args.steps), "--positions", str(args.positions),
               "--refuse-repeat", str(args.refuse_repeat)]
    done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=1800)
    if done.returncode:
        raise SystemExit(f"{python} {figure} failed:\n{done.stderr.strip()}")
    result: dict[str, float] = json.loads(done.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old-python", default=sys.executable)
    parser.add_argument("--new-python", default=sys.executable)
    parser.add_argument("--figures", nargs="+", default=list(FIGURES), choices=FIGURES)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--actions", type=int, default=20_000)
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--refuse-repeat", type=int, default=20)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(work(args.worker, args)))
        return
    order = random.Random(0)
    print(f"{'figure':24} {'old':>12} {'new':>12} {'new/old':>8}")
    for figure in args.figures:
        runs: dict[str, list[dict[str, float]]] = {"old": [], "new": []}
        for _ in range(args.rounds):
            sides = ["old", "new"]
            order.shuffle(sides)
            for side in sides:
                python = args.old_python if side == "old" else args.new_python
                runs[side].append(run_worker(python, figure, args))
        for key in runs["old"][0]:
            old = statistics.median(r[key] for r in runs["old"])
            new = statistics.median(r[key] for r in runs["new"])
            name = figure if key == "per_second" else f"{figure} {key}"
            print(f"{name:24} {old:12,.1f} {new:12,.1f} {new / old:8.2f}", flush=True)


if __name__ == "__main__":
    main()
