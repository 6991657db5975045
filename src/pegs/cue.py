"""The cue card of a rule set, written from the same settings and powers the engine uses."""

from __future__ import annotations

from .rules import PRESETS, RANKS, Rules

_CARD_NAMES = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King", "Joker": "Joker"}

_JOKERS = {
    "pegoo": "move any peg of your team (from START or the ring) to its owner's door "
             "(hits apply there), or send an opponent's ring peg back to START",
    "hit_from_anywhere": "move one of your pegs (from START or the ring, never from home) "
                         "onto any ring hole held by another colour, hitting that peg",
    "hit_start_first": "move a team peg onto any ring hole held by another colour, hitting it; "
                       "while your team has a peg in START it must be one of those",
}


def _phrase(token: str, rules: Rules) -> str:
    must = token.endswith("!")
    t = token.rstrip("!")
    if t == "out":
        return "bring a peg out of START to its out-hole (hole 5)"
    if t == "swap":
        return "swap one of your ring pegs with another colour's ring peg (no hit)"
    if t == "split7":
        text = "split 7 forward between two pegs"
    elif t == "split9":
        text = "split 9 between two pegs: one forward, the other back"
    elif t == "split10":
        return ("must split 10 between two pegs of different colours, any seats, each forward "
                "or back (never one peg 10)")
    elif t == "joker":
        text = _JOKERS[rules.joker_rule]
        if rules.joker_comes_out:
            text += "; or bring a peg out of START"
        if rules.joker_obligatory:
            text += " (must be played when it is the only play, except on your first turn)"
        return text
    elif t.startswith("+"):
        return f"move a peg forward {t[1:]}"
    elif t.startswith("-"):
        return f"move a peg back {t[1:]}"
    else:
        return t
    return f"{text} (whenever a split is possible the card must split)" if must else text


def cue_card(rules: Rules, title: str = "", description: str = "") -> str:
    """A plain-text cue card: card powers, then the table setup.  House rules give their
    ``title`` and ``description``; the cards they change are marked."""
    base = f"{PRESETS[rules.name].title} ({rules.name})"
    lines = [title, description, f"House rules based on {base}"] if title else [base]
    lines = [line for line in lines if line] + [""]
    changed = rules.changed_powers()
    lines.append("Cards" + ("   (* a house rule)" if changed else ""))
    for rank in RANKS:
        tokens = rules.power(rank)
        ordered = sorted(tokens, key=lambda t: t.rstrip("!").startswith("split")
                         and not t.endswith("!"))
        if "joker" in tokens and rules.joker_comes_out:  # its phrase says it comes out
            ordered = [t for t in ordered if t != "out"]
        phrases = [_phrase(t, rules) for t in ordered]
        name = _CARD_NAMES.get(rank, rank) + ("*" if rank in changed else "")
        lines.append(f"  {name:<6} " + "; or ".join(phrases))
    teams = (f"{rules.teams} teams of {rules.players // rules.teams}, partners sit alternately"
             if rules.teams else "every player for themselves")
    jokers = rules.decks * rules.jokers_per_deck + rules.extra_jokers
    order = (f"draw, then play (choose from {rules.hand_size + 1} cards)"
             if rules.turn_order == "draw_then_play"
             else f"play, then draw (choose from {rules.hand_size} cards)")
    lines += [
        "",
        "Table",
        f"  Players  {rules.players}: {teams}",
        f"  Board    {rules.sides} sides of {rules.holes_per_side} holes; out-hole 5, "
        f"door at hole {rules.holes_per_side} of the side before yours",
        f"  Pegs     {rules.pegs} each; home has {rules.home_holes} holes",
        f"  Cards    {rules.decks} decks with {jokers} jokers; deal {rules.hand_size}; {order}",
        "",
        "Moving",
        "  Land on an opponent: it goes back to START. Land on a partner: it goes to its door "
        "(not if that door holds its own colour; another colour there is hit in turn).",
        "  " + ("You may pass your own pegs on the ring." if rules.may_pass_own
                else "You may never pass or land on your own colour."),
        "  Exact count into home; no passing inside home; never back into home.",
    ]
    if rules.must_turn_in_at_door:
        lines.append("  A peg may not pass its own door: it must turn into home.")
        if any("split10" in tokens for _, tokens in rules.powers):
            lines.append("  The parts of a 10 move the ten's own way: at a door they may turn "
                         "in or go on around.")
    if rules.control == "team":
        lines.append("  You may move any peg of your team at any time.")
    else:
        who = ("the nearest partner clockwise" if rules.help_order == "clockwise"
               else "any partner")
        lines.append(f"  When all your pegs are home you move the pegs of {who} still playing.")
    if rules.split_finish_with_partner:
        lines.append("  A " + " or ".join(rules.split_finish_with_partner)
                     + " that takes your last peg home may finish on a partner's peg.")
    lines.append("  You must play a card that moves if you can (jokers are "
                 + ("obligatory after your first turn" if rules.joker_obligatory else "optional")
                 + "); otherwise discard one card.")
    stuck = {
        "pegoo_cant_play_pile": "After two can't-play discards, any card brings a peg out.",
        "havasu_fourth_turn": "After three turns unable to come out, any card brings a peg out.",
        "nc_counting": "Counting: on the third turn without a move, discard any card and come "
                       "out free.",
    }.get(rules.stuck_rule)
    if stuck:
        lines.append("  " + stuck)
    if rules.bluffing:
        lines.append("  Cards are played face down with a declared rank; opponents may doubt.")
    return "\n".join(lines)
