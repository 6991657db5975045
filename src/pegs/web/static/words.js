// The rules' settings and the table's options in plain words: a label, one line of
// explanation and a name for each choice, so no internal name reaches the player.

import { h } from "./dom.js";

/** Full game names by preset, as the server's preset records give them (/api/presets). */
const gameNames = new Map();

export function setGameNames(presets) {
  for (const p of presets) gameNames.set(p.name, p.title);
}

/** A preset's full name: from a table's or a preset's own `title`, else the list read. */
export function gameName(preset, title) {
  return title || gameNames.get(preset) || preset || "Pegs and Jokers";
}

/** Each setting: label, help line, and (for choices) the words for each value. */
export const SETTINGS = {
  sides: { label: "Sides of the board", help: "One side per player, or more for a longer track." },
  holes_per_side: { label: "Holes on each side", help: "More holes make a longer race." },
  pegs: { label: "Pegs for each player", help: "How many pegs each player must bring home." },
  home_holes: { label: "Holes in each home", help: "At least one per peg." },
  decks: { label: "Decks of cards", help: "Decks shuffled together into one draw pile." },
  jokers_per_deck: { label: "Jokers in each deck", help: "Most decks come with two." },
  extra_jokers: { label: "Extra Jokers", help: "Jokers added on top of the decks' own." },
  hand_size: { label: "Cards in each hand", help: "How many cards each player holds." },
  turn_order: {
    label: "When you draw", help: "Draw before you play (one card more to choose from) or after.",
    choices: { draw_then_play: "draw, then play", play_then_draw: "play, then draw" },
  },
  may_pass_own: { label: "Jump over your own pegs", help: "May a peg pass a peg of its own colour on the track?" },
  control: {
    label: "Whose pegs you move", help: "Partners only: when you may move a partner's pegs.",
    choices: { own_then_partner: "your own, then a partner's once yours are home", team: "any peg of your team, any time" },
  },
  help_order: {
    label: "Which partner you help", help: "Once your pegs are home, whose pegs you move.",
    choices: { clockwise: "the next partner clockwise", any: "any partner still playing" },
  },
  stuck_rule: {
    label: "Stuck in START", help: "What happens to a player who keeps discarding because no card brings a peg out.",
    choices: {
      none: "nothing: just discard",
      pegoo_cant_play_pile: "after two discards any card brings a peg out",
      nc_counting: "on the third discard a peg comes out free",
      havasu_fourth_turn: "after three discards any card brings a peg out",
    },
  },
  must_turn_in_at_door: { label: "Must turn in at the door", help: "A peg reaching its home door has to go in." },
  split_finish_with_partner: {
    label: "Finish a split on a partner's peg", help: "When a 7 or 9 takes your last peg home, the rest may move a partner's peg.",
    choices: { "7,9": "with a 7 or a 9", 7: "with a 7 only", 9: "with a 9 only", "": "no" },
  },
  joker_rule: {
    label: "What a Joker does", help: "The Joker's power at this table.",
    choices: {
      pegoo: "moves a team peg to its door, or sends an opponent's peg back to START",
      hit_from_anywhere: "jumps one of your pegs onto another player's peg, hitting it",
      hit_start_first: "the same, but pegs still in START must go first",
    },
  },
  joker_comes_out: { label: "A Joker brings a peg out", help: "A Joker may also bring a peg out of START, like an Ace." },
  joker_obligatory: { label: "Jokers must be played", help: "When a Joker is the only move, it has to be played." },
  bluffing: { label: "Cards played face down", help: "Each card is played face down and named; others may doubt it." },
};

/** A setting's value in words ("yes", "draw, then play", "7 and 9"). */
export function valueWords(name, value) {
  if (typeof value === "boolean") return value ? "yes" : "no";
  const choices = (SETTINGS[name] || {}).choices;
  if (Array.isArray(value)) {
    const key = value.join(",");
    return choices && key in choices ? choices[key] : value.join(" and ") || "none";
  }
  if (choices && value in choices) return choices[value];
  return String(value);
}

/** The bot levels offered for empty seats: a person's level, and the bot behind it. */
export const BOT_LEVELS = [
  { value: "beginner", label: "beginner", help: "plays any legal move", bot: "random", strength: null },
  { value: "club", label: "club player", help: "plays sensibly and quickly", bot: "heuristic", strength: null },
  { value: "expert", label: "expert", help: "thinks ahead; a little slower", bot: "ismcts", strength: "normal" },
];

/** Timer and pace choices: [seconds or null, words]; the first is the server's default. */
export const TURN_TIMES = [[120, "2 minutes"], [60, "1 minute"], [300, "5 minutes"], [null, "no limit"]];
export const AWAY_TIMES = [[120, "after 2 minutes"], [60, "after 1 minute"], [300, "after 5 minutes"], [null, "never"]];
export const BOT_PACES = [[null, "normal"], [0.2, "quick"], [1.5, "relaxed"], [3, "slow, easy to follow"]];

/** The cue card's text without the preset's internal name on its first line. */
export function plainCue(text, preset) {
  return (text || "").replace(` (${preset})`, "");
}

/** The cue card as headed lists that wrap on a phone: a line at the margin is a heading,
 * an indented "Term   text" line a row of its list (a term and its definition), an indented
 * line without a term a paragraph between lists. */
export function cueNodes(text) {
  const out = [];
  let list = null;
  for (const line of text.split("\n")) {
    if (!line.trim()) { list = null; continue; }
    if (!line.startsWith(" ")) {
      out.push(h("h3", {}, line.trim()));
      list = null;
      continue;
    }
    const m = line.trim().match(/^(\S+(?: \S+)?)\s{2,}(.*)$/);
    if (!m) {
      out.push(h("p", { class: "whole" }, line.trim()));
      list = null;
      continue;
    }
    if (!list) { list = h("dl", {}); out.push(list); }
    list.append(h("dt", {}, m[1]), h("dd", {}, m[2]));
  }
  return out;
}

function duration(seconds) {
  if (seconds >= 60 && seconds % 60 === 0) return seconds === 60 ? "1 minute" : `${seconds / 60} minutes`;
  return `${Math.round(seconds)} seconds`;
}

/** The table's options in words (for the tables that carry them), or []. */
export function tableOptionWords(table) {
  if (!("turn_seconds" in table)) return [];
  const pace = BOT_PACES.find(([v]) => v === table.bot_delay);
  return [
    table.public ? "Listed on the start page for anyone to join." : "Private: only people with the link can join.",
    table.turn_seconds ? `Up to ${duration(table.turn_seconds)} for a turn, then a bot moves.` : "No time limit for a turn.",
    table.away_seconds ? `A bot plays for anyone away for ${duration(table.away_seconds)}, until they come back.` : "Nobody is covered by a bot when away.",
    `Bots' pace: ${pace ? pace[1] : `${table.bot_delay} seconds a move`}.`,
    ...(table.teaching ? ["Teaching table: partners have their own channel and may show each other moves."] : []),
    table.hints ? "Hints: anyone may ask for a suggested move." : "No hints at this table.",
  ];
}
