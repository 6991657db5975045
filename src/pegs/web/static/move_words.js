// A move in words made on the page, from a legal action's card and steps, so no notation
// is ever shown: the confirm box says it at once (the server's fuller announcement, with
// the pegs it hits, replaces it when it arrives), the teacher's list of a partner's moves.

import { shortName } from "./people.js";
import { stepKeys } from "./picker.js";

export const CARD_WORDS = {
  A: "Ace", 2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven", 8: "Eight",
  9: "Nine", 10: "Ten", J: "Jack", Q: "Queen", K: "King", Joker: "Joker",
};

function cardWord(rank) {
  return CARD_WORDS[rank] || rank;
}

function withArticle(word) {
  return /^[AEIOU]/.test(word) ? `an ${word}` : `a ${word}`;
}

/** A spot ("2.7", "3:S", "3:H2") in words for `viewer`: its own START, home and side plain
 * ("START", "home 2", "7"), or with `mine` ("your 7") when another seat's peg is moving;
 * another seat's by name ("Ann's START", "Ann's 7"). */
export function spotWords(msg, key, viewer, mine = "") {
  let seat, where;
  if (key.includes(".")) {
    const [side, hole] = key.split(".").map(Number);
    seat = msg.board.side_of.indexOf(side);
    if (seat < 0) return `${hole} on side ${side + 1}`;
    where = String(hole);
  } else {
    const [owner, name] = key.split(":");
    seat = Number(owner);
    where = name === "S" ? "START" : `home ${name.slice(1)}`;
  }
  return seat === viewer ? `${mine}${where}` : `${shortName(msg, seat)}'s ${where}`;
}

/** One step in words: "START to 5" (the viewer's peg), "Ann's peg from Ann's 5 to your 2". */
function stepWords(msg, step, viewer) {
  const keys = stepKeys(step);
  const own = step.seat === viewer;
  const from = spotWords(msg, keys.from, viewer, own ? "" : "your ");
  const to = spotWords(msg, keys.to, viewer, own ? "" : "your ");
  const head = own ? from : `${shortName(msg, step.seat)}'s peg from ${from}`;
  if (step.op === "~") return `${head} swaps with the peg on ${to}`;
  return `${head} ${step.op === "<" ? "back " : ""}to ${to}`;
}

/**
 * A card play in words for `viewer` (the seat reading it): "King. START to 5.", "Nine, face
 * down as a Five. 5 to 10.", "Five. Can't play; discards." (a decision's words come from
 * the server). `listed`: the actions this one is listed with (a Joker discarded beside
 * Joker moves keeps its move unused, as the server says it).
 */
export function pageMoveWords(msg, action, viewer, listed = msg.legal || []) {
  const card = action.declared
    ? `${cardWord(action.card)}, face down as ${withArticle(cardWord(action.declared))}` : cardWord(action.card);
  if (!action.steps.length) {
    const jokerMoves = action.card === "Joker" && listed.some((b) => b.card === "Joker" && b.steps.length);
    return jokerMoves ? `${card}. Discards it, keeping its move unused.` : `${card}. Can't play; discards.`;
  }
  const steps = action.steps.map((s) => stepWords(msg, s, viewer)).join(" and ");
  const said = steps[0].toUpperCase() + steps.slice(1);
  return action.discard ? `${card}. Discards and comes out free: ${said}.` : `${card}. ${said}.`;
}
