"""The presets: one record each (title, card powers, settings, decks, stuck rule, fitted
bot model), read by the engine (:meth:`Rules.preset <pegs.rules.Rules.preset>`), the cue
card, ``/api/presets`` and the page, the bots and the tests.

A preset of mechanics the engine already has is one :class:`Preset` in :data:`PRESETS`
(plus its conformance scenarios); nothing else names presets.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: Every rank's powers in a table (rank -> power tokens), in the order of ``RANKS``.
PowerTable = dict[str, tuple[str, ...]]

_BASIC: PowerTable = {
    "A": ("out", "+1"), "2": ("+2",), "3": ("+3",), "4": ("+4",), "5": ("+5",),
    "6": ("+6",), "7": ("+7", "split7"), "8": ("-8",), "9": ("+9",), "10": ("+10",),
    "J": ("out", "+10"), "Q": ("out", "+10"), "K": ("out", "+10"), "Joker": ("joker",),
}
_HIGH_FACES = {"J": ("out", "+11"), "Q": ("out", "+12"), "K": ("out", "+13")}

#: The settings of a preset that its record does not change (RULES.md section 5).
COMMON: dict[str, Any] = {
    "holes_per_side": 18, "pegs": 5, "home_holes": 0, "jokers_per_deck": 2,
    "extra_jokers": 0, "hand_size": 5, "turn_order": "draw_then_play", "may_pass_own": False,
    "control": "own_then_partner", "help_order": "clockwise", "must_turn_in_at_door": False,
    "split_finish_with_partner": (), "joker_rule": "hit_from_anywhere",
    "joker_comes_out": False, "joker_obligatory": False, "bluffing": False,
}


def power_table(changed: PowerTable | None = None) -> PowerTable:
    """The basic game's powers with the ranks in ``changed`` replaced."""
    return {**_BASIC, **(changed or {})}


@dataclass(frozen=True)
class Preset:
    """One preset: what the game is called and every rule in which it differs."""

    name: str
    title: str  # the game's full name, as the page, the cue card and the terminal show it
    powers: PowerTable = field(default_factory=power_table)
    #: (most players, decks) from the smallest table up: the first that fits the table
    decks: tuple[tuple[int, int], ...] = ((6, 3), (8, 4), (10, 5))
    stuck_rule: str = "none"
    #: the settings that differ from :data:`COMMON`
    settings: dict[str, Any] = field(default_factory=dict)
    #: ... and those that differ again at a table of two
    two_players: dict[str, Any] = field(default_factory=dict)
    #: the ISMCTS leaf model fitted to its games (a key of ``pegs.bots.leaf_models.MODELS``);
    #: None: the search uses the general leaf score
    leaf_model: str | None = None

    def defaults(self, players: int, teams: int) -> dict[str, Any]:
        """Every setting of this preset at a table of ``players`` seats in ``teams`` teams."""
        decks = next((d for most, d in self.decks if players <= most), self.decks[-1][1])
        return {**COMMON, **self.settings, **(self.two_players if players == 2 else {}),
                "name": self.name, "players": players, "teams": teams,
                "sides": 4 if players == 2 else players, "decks": decks,
                "stuck_rule": self.stuck_rule, "powers": self.powers}


_FINISH = {"split_finish_with_partner": ("7", "9")}
_ARIZONA = {"turn_order": "play_then_draw", "control": "team", "joker_rule": "hit_start_first"}

#: Every preset by name, in the order menus list them.
PRESETS: dict[str, Preset] = {p.name: p for p in (
    Preset("pegoo", "Pegoo (W. W. Wilkerson's rules)",
           power_table({"2": ("+2", "swap"), "9": ("+9", "split9")}), decks=((4, 2), (10, 3)),
           stuck_rule="pegoo_cant_play_pile",
           settings={"holes_per_side": 20, "pegs": 4, "may_pass_own": True,
                     "help_order": "any", "joker_rule": "pegoo", **_FINISH},
           leaf_model="pegoo"),
    Preset("basic", "Pegs and Jokers, basic rules", leaf_model="basic"),
    Preset("traditional", "Pegs and Jokers, traditional rules",
           two_players={"jokers_per_deck": 0}, leaf_model="traditional"),
    Preset("havasu", "Pegs and Jokers, Havasu Falls rules",
           power_table({"7": ("split7!", "+7"), "9": ("split9!", "+9"), **_HIGH_FACES}),
           stuck_rule="havasu_fourth_turn",
           settings={"turn_order": "play_then_draw", "joker_comes_out": True, **_FINISH},
           leaf_model="havasu"),
    Preset("social-security", "Social Security (Hatcher variation)",
           power_table({"9": ("split9!", "+9"), **_HIGH_FACES}),
           two_players={"jokers_per_deck": 0}, leaf_model="social-security"),
    Preset("arizona", "Pegs and Jokers, Arizona rules", power_table({"9": ("+9", "split9")}),
           decks=((8, 4), (10, 5)), settings=_ARIZONA, leaf_model="arizona"),
    Preset("kilpatrick", "Pegs and Jokers, Kilpatrick rules", power_table({"9": ("+9", "split9")}),
           decks=((8, 4), (10, 5)),
           settings={**_ARIZONA, "hand_size": 3, "must_turn_in_at_door": True},
           leaf_model="kilpatrick"),
    Preset("north-carolina", "Pegs and Jokers, North Carolina rules",
           power_table({"A": ("out", "+1", "-1", "+11"), "2": ("+2", "swap"),
                   "7": ("split7!", "+7"), "9": ("split9!", "+9"), "10": ("split10",)}),
           stuck_rule="nc_counting", settings={"joker_obligatory": True, **_FINISH},
           leaf_model="north-carolina"),
    Preset("bluffing-joker", "Bluffing Joker (Jokers played face down)",
           settings={"bluffing": True}, leaf_model="bluffing-joker"),
)}
