"""What listing a turn reads of a table's settings (:class:`Table`), read once per
geometry and kept, so that the listing (:mod:`pegs.rules.coded`) and the state read plain
fields."""

from __future__ import annotations

from typing import Final

from .board import Geometry
from .listing import card_plans
from .settings import RANKS

#: Joker rules, as :attr:`Table.joker` numbers them.
_JOKER_RULES: Final = {"hit_from_anywhere": 1, "hit_start_first": 2, "pegoo": 3}


class Table:
    """What listing a turn reads of a table's settings, read once per geometry."""

    __slots__ = (
        "bluffing",
        "counting",
        "door",
        "draw_first",
        "finish",
        "first_helper",
        "geo",
        "hand_size",
        "homes",
        "joker",
        "joker_comes_out",
        "joker_must",
        "keep_pile",
        "no_pegs",
        "out_hole",
        "pass_own",
        "plan_of",
        "plans",
        "players",
        "ring",
        "stuck_out",
        "team",
        "turn_in",
    )

    def __init__(self, geo: Geometry) -> None:
        rules = geo.rules
        self.geo = geo
        self.ring = geo.ring_size
        self.homes = geo.home_holes
        self.no_pegs = geo.no_pegs
        self.door = geo.door
        self.out_hole = geo.out_hole
        self.players = rules.players
        self.hand_size = rules.hand_size
        #: Draw before playing (else after), and keep the unplayable cards (Pegoo).
        self.draw_first = rules.turn_order == "draw_then_play"
        self.keep_pile = rules.stuck_rule == "pegoo_cant_play_pile"
        self.pass_own = rules.may_pass_own
        self.turn_in = rules.must_turn_in_at_door
        self.bluffing = rules.bluffing
        self.counting = rules.stuck_rule == "nc_counting"
        #: A stuck seat may come out with any card from this many turns without a move.
        self.stuck_out = {"pegoo_cant_play_pile": 2, "havasu_fourth_turn": 3}.get(
            rules.stuck_rule, 0)
        self.joker = _JOKER_RULES[rules.joker_rule]
        self.joker_comes_out = rules.joker_comes_out
        self.joker_must = rules.joker_obligatory
        self.team = rules.control == "team"
        #: A seat all home helps only its first partner still playing (else all of them).
        self.first_helper = rules.help_order == "clockwise"
        plans = self.plan_of = card_plans(rules)
        #: The plan of each rank, by its index in ``RANKS``.
        self.plans = [plans[rank] for rank in RANKS]
        #: May a split of the rank finish with a partner's peg?
        self.finish = [r in rules.split_finish_with_partner and not self.team for r in RANKS]


_TABLES: Final[dict[Geometry, Table]] = {}


def table_of(geo: Geometry) -> Table:
    """The :class:`Table` of a geometry (made once)."""
    table = _TABLES.get(geo)
    if table is None:
        if len(_TABLES) > 256:
            _TABLES.clear()
        table = _TABLES[geo] = Table(geo)
    return table


def controls(table: Table, pegs: tuple[tuple[int, ...], ...], seat: int) -> tuple[int, ...]:
    """The seats whose pegs ``seat`` may move (as :func:`pegs.rules.listing.controlled`,
    on the table's fields)."""
    geo = table.geo
    if table.team:
        return geo.team_seats[seat]
    home = geo.all_home
    if pegs[seat] != home:
        return (seat,)
    waiting = tuple(q for q in geo.partners[seat] if pegs[q] != home)
    return waiting[:1] if table.first_helper else waiting
