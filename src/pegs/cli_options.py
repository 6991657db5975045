"""Options shared by several ``pegs`` commands, so that one idea has one name, one
default and one placeholder everywhere; older spellings stay as hidden aliases."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from .sim.bot_spec import BotSpecError, _shown, parse_bot_spec
from .sim.run import BotOptions, SimulationError

#: Seconds a hint searches, in pegs hint, pegs play and pegs serve.
HINT_SECONDS = 1.0
#: Seconds before each bot move, in pegs play and pegs serve.
BOT_DELAY = 0.5


def hidden_alias(p: argparse.ArgumentParser, old: str, dest: str, **kwargs: object) -> None:
    """``old`` still works as another spelling of the option of ``dest``, unlisted."""
    p.add_argument(old, dest=dest, help=argparse.SUPPRESS, default=argparse.SUPPRESS,
                   **kwargs)  # type: ignore[arg-type]


def add_hint_seconds(p: argparse.ArgumentParser, old: str | None, what: str) -> None:
    p.add_argument("--hint-seconds", type=float, default=HINT_SECONDS, metavar="SECONDS",
                   help=f"{what} (default {HINT_SECONDS:g})")
    if old:
        hidden_alias(p, old, "hint_seconds", type=float, metavar="SECONDS")


def add_bot_delay(p: argparse.ArgumentParser, old: str | None, what: str) -> None:
    p.add_argument("--bot-delay", type=float, default=BOT_DELAY, metavar="SECONDS",
                   help=f"{what} (default {BOT_DELAY:g})")
    if old:
        hidden_alias(p, old, "bot_delay", type=float, metavar="SECONDS")


def add_bot_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--bot-option", action="append", default=[], metavar="BOT.NAME=VALUE",
                   help="an option for one bot kind, e.g. ismcts.seconds=1, where its spec "
                        "does not set it (repeatable; default: none)")


def with_bot_options(specs: Sequence[str], options: BotOptions) -> list[str]:
    """The bot specs with the ``--bot-option`` options of their kind written in (a spec's
    own option wins), so that a ladder names each bot by all its options."""
    if not options:
        return list(specs)  # (the specs are checked, and refused, by the ladder)
    try:
        kinds = {parse_bot_spec(text).kind for text in specs}
    except BotSpecError as e:
        raise SimulationError(str(e)) from None
    unused = sorted(set(options) - kinds)
    if unused:
        raise SimulationError(f"--bot-option for {unused[0]!r}, which is not one of the "
                              f"bots ({','.join(specs)})")
    out = []
    for text in specs:
        spec = parse_bot_spec(text)
        extra = {k: v for k, v in options.get(spec.kind, {}).items() if k not in spec.options}
        if extra:
            merged = {**spec.options, **extra}
            text = spec.kind + ":" + ",".join(f"{k}={_shown(v)}" for k, v in merged.items())
        out.append(text)
    return out
