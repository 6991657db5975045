"""Rule settings: one frozen :class:`Rules` value per game, built from a preset's record
(:mod:`pegs.rules.presets`) with any settings and card powers changed.

Every setting of RULES.md is a field here.  Card powers are data (a token list per
rank) read by both the move generator and the cue card, so the two never disagree.

Power tokens: ``out`` come out of start; ``+n`` forward n; ``-n`` backward n;
``swap`` exchange a controlled ring peg with another colour's ring peg;
``split7`` two pegs forward; ``split9`` one peg forward and another backward;
``split10`` the North Carolina ten; a trailing ``!`` marks a split that is
obligatory whenever one is legal (the single full move is legal only otherwise,
I-08); ``joker`` the preset's joker rule.

A house rule may give any rank other powers (``Rules.preset(..., powers={"4": ["-4"]})``);
:func:`check_powers` says what is allowed, naming the rank and the token it refuses.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from .errors import RulesError
from .presets import PRESETS

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "Joker")

TURN_ORDERS = ("draw_then_play", "play_then_draw")
CONTROLS = ("own_then_partner", "team")
HELP_ORDERS = ("clockwise", "any")
STUCK_RULES = ("none", "pegoo_cant_play_pile", "nc_counting", "havasu_fourth_turn")
JOKER_RULES = ("pegoo", "hit_from_anywhere", "hit_start_first")

Powers = tuple[tuple[str, tuple[str, ...]], ...]


#: The longest single move a ``+n`` or ``-n`` power may make.
LONGEST_STEP = 20
SPLITS = ("split7", "split9", "split10")
POWER_HELP = (f"out, +n or -n (n from 1 to {LONGEST_STEP}), swap, split7, split9, split10 "
              "(a trailing ! makes a split obligatory), joker (the Joker only)")


def _token_problem(rank: str, token: object) -> str | None:
    """Why ``token`` cannot be one of ``rank``'s powers (None when it can)."""
    if not isinstance(token, str):
        return f"a power is a word such as +4 or split7, not {token!r}"
    if token in ("out", "swap") or (token.rstrip("!") in SPLITS and token.count("!") <= 1):
        return None
    if token == "joker":
        return None if rank == "Joker" else "joker is the Joker's own power"
    sign, number = token[:1], token[1:]
    if sign in ("+", "-") and number.isdigit():
        return None if 1 <= int(number) <= LONGEST_STEP else (
            f"a move of {token} is out of range: n goes from 1 to {LONGEST_STEP}")
    return f"unknown power {token!r}: use {POWER_HELP}"


def check_powers(rank: object, tokens: object) -> tuple[str, ...]:
    """``tokens`` as ``rank``'s powers, or :class:`RulesError` naming the rank and token."""
    if rank not in RANKS:
        raise RulesError(f"card {rank!r} is not a rank: ranks are {', '.join(RANKS)}")
    if isinstance(tokens, str) or not isinstance(tokens, (list, tuple)) or not tokens:
        raise RulesError(f"card {rank}: give its powers as a non-empty list, such as "
                         f'["+4"] or ["+9", "split9"], not {tokens!r}')
    for token in tokens:
        problem = _token_problem(str(rank), token)
        if problem:
            raise RulesError(f"card {rank}: {problem}")
    written = tuple(_plain_token(str(t)) for t in tokens)
    if len(set(written)) < len(written):
        raise RulesError(f"card {rank}: a power is listed twice in {list(tokens)}")
    if sum(t.rstrip("!") in SPLITS for t in written) > 1:
        raise RulesError(f"card {rank}: one split at most in {list(tokens)}")
    return written


def _plain_token(token: str) -> str:
    """A power as the engine writes it (``+04`` is ``+4``)."""
    if token[:1] in ("+", "-") and token[1:].isdigit():
        return f"{token[0]}{int(token[1:])}"
    return token


def _finish_problem(r: Rules) -> str | None:
    """Why a game of these rules could never finish (None when it can): no peg could ever
    leave START, or none could ever move forward."""
    tokens = {t.rstrip("!") for _, powers in r.powers for t in powers}
    jokers = r.decks * r.jokers_per_deck + r.extra_jokers
    joker_out = jokers > 0 and "joker" in tokens and (r.joker_rule == "pegoo"
                                                      or r.joker_comes_out)
    if "out" not in tokens and not joker_out and r.stuck_rule == "none":
        return ("these powers can never finish a game: no card brings a peg out of START "
                "(give some card the power out)")
    if not any(t.startswith("+") or t in SPLITS for t in tokens):
        return ("these powers can never finish a game: no card moves a peg forward "
                "(give some card a power +n or a split)")
    return None


def house_powers(preset: str, changed: object) -> Powers:
    """The preset's powers with the ranks in ``changed`` (rank -> tokens) replaced."""
    if not isinstance(changed, Mapping):
        raise RulesError('powers must map card ranks to lists of powers, such as {"4": ["-4"]}')
    table = dict(PRESETS[preset].powers)
    for rank, tokens in changed.items():
        table[str(rank)] = check_powers(rank, tokens)
    return tuple((rank, table.get(rank, ())) for rank in RANKS)


@dataclass(frozen=True)
class Rules:
    """Every setting of one game.  Build it with :meth:`Rules.preset`; it validates itself."""

    name: str
    players: int
    teams: int
    sides: int
    holes_per_side: int
    pegs: int
    home_holes: int
    decks: int
    jokers_per_deck: int
    extra_jokers: int
    hand_size: int
    turn_order: str
    may_pass_own: bool
    control: str
    help_order: str
    stuck_rule: str
    must_turn_in_at_door: bool
    split_finish_with_partner: tuple[str, ...]
    joker_rule: str
    joker_comes_out: bool
    joker_obligatory: bool
    bluffing: bool
    powers: Powers

    def __post_init__(self) -> None:
        if self.home_holes == 0:
            object.__setattr__(self, "home_holes", self.pegs)
        _validate(self)
        object.__setattr__(self, "_hash", hash(tuple(getattr(self, f.name) for f in fields(self))))

    def __hash__(self) -> int:
        return self._hash  # type: ignore[attr-defined, no-any-return]

    @classmethod
    def preset(cls, name: str, **overrides: Any) -> Rules:
        """The preset ``name`` with settings overridden, e.g. ``Rules.preset("pegoo", players=6)``.

        Without ``teams``, a table of 4 or more with an even seat count plays in two teams
        and any other table plays every seat for itself.
        """
        if name not in PRESETS:
            raise RulesError(f"unknown preset {name!r}; choose one of: {', '.join(PRESETS)}")
        unknown = set(overrides) - SETTING_NAMES | (set(overrides) & {"name"})
        if unknown:
            raise RulesError(
                f"unknown setting {sorted(unknown)[0]!r}; settings are: "
                + ", ".join(sorted(SETTING_NAMES - {"name"}))
            )
        players = overrides.get("players", 4)
        _check_int("players", players, 2, 10)
        teams = overrides.get("teams", 2 if players >= 4 and players % 2 == 0 else 0)
        values = PRESETS[name].defaults(players, teams)
        if "pegs" in overrides and "home_holes" not in overrides:
            values["home_holes"] = 0
        values.update(overrides)
        finish = overrides.get("split_finish_with_partner")
        if isinstance(finish, list):  # as JSON and TOML give it (settings() writes a list)
            values["split_finish_with_partner"] = tuple(finish)
        values["powers"] = house_powers(name, overrides.get("powers", {}))
        return cls(**values)

    def with_settings(self, **overrides: Any) -> Rules:
        """A copy with some settings changed (validated).  A home that was as long as the
        pegs stays so when only ``pegs`` changes."""
        if "pegs" in overrides and "home_holes" not in overrides and self.home_holes == self.pegs:
            overrides["home_holes"] = 0
        return replace(self, **overrides)

    @property
    def total_cards(self) -> int:
        return self.decks * (52 + self.jokers_per_deck) + self.extra_jokers

    def power(self, rank: str) -> tuple[str, ...]:
        """The power tokens of a rank under these rules."""
        for r, tokens in self.powers:
            if r == rank:
                return tokens
        raise RulesError(f"unknown card rank {rank!r}")

    def changed_powers(self) -> dict[str, list[str]]:
        """The ranks whose powers differ from the preset's (house rules), rank -> tokens."""
        preset = PRESETS[self.name].powers
        return {rank: list(tokens) for rank, tokens in self.powers if preset[rank] != tokens}

    def settings(self) -> dict[str, Any]:
        """The settings as plain JSON-friendly values, ``powers`` the whole table (rank ->
        tokens): a record or a stored table means the same whatever a later release
        makes of its preset.  (Settings without ``powers``, as older records have them,
        read as the preset's.)"""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "powers":
                out[f.name] = {rank: list(tokens) for rank, tokens in value}
            else:
                out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def from_settings(cls, data: Mapping[str, Any]) -> Rules:
        """Inverse of :meth:`settings`: the preset named in ``data`` with the other values."""
        if not isinstance(data, Mapping) or not isinstance(data.get("name"), str):
            raise RulesError("settings must be an object with a preset 'name'")
        return cls.preset(data["name"], **{k: v for k, v in data.items() if k != "name"})


SETTING_NAMES: frozenset[str] = frozenset(f.name for f in fields(Rules))


def _check_int(name: str, value: Any, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RulesError(f"{name} must be a whole number from {low} to {high}, not {value!r}")


def _check_choice(name: str, value: Any, choices: Collection[str]) -> None:
    if value not in choices:
        raise RulesError(f"{name} must be one of {', '.join(choices)}, not {value!r}")


def _team_counts(players: int) -> list[int]:
    """The numbers of teams (of two or more seats each) ``players`` can be split into."""
    return [t for t in range(2, players // 2 + 1) if players % t == 0]


def _team_advice(players: int) -> str:
    """How to give a table of ``players`` teams, or what to do when it cannot have any."""
    counts = _team_counts(players)
    if counts:
        return f"set teams to {' or '.join(map(str, counts))}"
    tables = ", ".join(str(n) for n in range(2, 11) if _team_counts(n))
    return (f"{players} players cannot be split into teams of two or more; play it with "
            f"{tables} players, or set control to own_then_partner")


def _validate(r: Rules) -> None:
    _check_choice("name", r.name, PRESETS)
    if not (isinstance(r.powers, tuple) and [p[0] for p in r.powers] == list(RANKS)
            and all(isinstance(t, tuple) for _, t in r.powers)):
        raise RulesError("powers must give every rank its tuple of power tokens")
    for rank, tokens in r.powers:
        check_powers(rank, tokens)
    problem = _finish_problem(r)
    if problem:
        raise RulesError(problem)
    _check_int("players", r.players, 2, 10)
    _check_int("teams", r.teams, 0, r.players)
    if r.teams == 1 or (r.teams and (r.players % r.teams or r.players // r.teams < 2)):
        allowed = _team_counts(r.players)
        listed = ", ".join(str(t) for t in [0, *allowed])
        raise RulesError(
            f"teams={r.teams} is impossible with {r.players} players: teams must divide the "
            f"players into teams of two or more; allowed values: {listed} (0 = no teams)"
        )
    _check_int("sides", r.sides, max(3, r.players), 12)
    _check_int("holes_per_side", r.holes_per_side, 18, 25)
    _check_int("pegs", r.pegs, 3, 6)
    _check_int("home_holes", r.home_holes, r.pegs, 8)
    _check_int("decks", r.decks, 1, 8)
    _check_int("jokers_per_deck", r.jokers_per_deck, 0, 4)
    _check_int("extra_jokers", r.extra_jokers, 0, 8)
    _check_int("hand_size", r.hand_size, 1, 8)
    for name in ("may_pass_own", "must_turn_in_at_door", "joker_comes_out",
                 "joker_obligatory", "bluffing"):
        if not isinstance(getattr(r, name), bool):
            raise RulesError(f"{name} must be true or false, not {getattr(r, name)!r}")
    _check_choice("turn_order", r.turn_order, TURN_ORDERS)
    _check_choice("control", r.control, CONTROLS)
    _check_choice("help_order", r.help_order, HELP_ORDERS)
    _check_choice("stuck_rule", r.stuck_rule, STUCK_RULES)
    _check_choice("joker_rule", r.joker_rule, JOKER_RULES)
    if not isinstance(r.split_finish_with_partner, tuple) or not set(
        r.split_finish_with_partner
    ) <= {"7", "9"}:
        raise RulesError("split_finish_with_partner must be a list of some of the ranks 7 and 9")
    if r.control == "team" and r.teams == 0:
        raise RulesError(f"control='team' (moving a partner's pegs) needs teams: "
                         f"{_team_advice(r.players)}")
    needed = r.players * (r.hand_size + 1) + 10
    if r.total_cards < needed:
        least = -(-(needed - r.extra_jokers) // (52 + r.jokers_per_deck))
        raise RulesError(
            f"decks={r.decks} gives {r.total_cards} cards, too few for {r.players} hands of "
            f"{r.hand_size}: use at least {least} decks"
        )
