// What happened since the player's own last turn, drawn on the board: each action a
// fading trail along its path, numbered as in the move log (the action's version), and a
// Bluffing Joker's declared move while the table decides whether to doubt it.

import { parseSteps, pointsText, stepOwner, stepPath } from "./board_paths.js";
import { seatName } from "./board_text.js";
import { moveLine, shortName } from "./people.js";
import { add, D, el, inkOn, PEG, seatColour, seatLetter, seatShape, shapeElement, text, unit } from "./board_shapes.js";

/** At most this many actions are drawn (a long wait shows its latest ones). */
const MOST_MARKS = 40;
const CARD_WORDS = { A: "Ace", J: "Jack", Q: "Queen", K: "King", Joker: "Joker", "J*": "Joker" };

/**
 * The actions to mark for `seat`: every entry of the move log `log` after that seat's own
 * last action (a spectator sees the last round: `players` actions).  Entries are
 * {v or version, seat, action, text or announcement}; the answer is oldest first.
 */
export function trailSince(log, seat, players) {
  const entries = [...(log || [])].sort((a, b) => version(a) - version(b));
  let from = 0;
  if (seat >= 0) {
    for (let i = entries.length - 1; i >= 0; i--) {
      if (entries[i].seat === seat) { from = i + 1; break; }
    }
  } else {
    from = Math.max(0, entries.length - (players || 1));
  }
  return entries.slice(Math.max(from, entries.length - MOST_MARKS));
}

function version(entry) {
  return entry.v !== undefined ? entry.v : entry.version;
}

/** A card's name for people ("Ace", "7"). */
export function cardWords(rank) {
  return CARD_WORDS[rank] || rank;
}

/** Place a number badge near `spot`, away from the hole, clear of badges placed before. */
function badgeAt(geo, spot, placed, k) {
  const dir = spot.kind === "ring" ? geo.sides[spot.side].inward : [-0.7071, -0.7071];
  let at = add([spot.x, spot.y], dir, (0.5 + 0.5 * k) * D);
  for (let tries = 0; tries < 5 && placed.some((p) => Math.hypot(p[0] - at[0], p[1] - at[1]) < 0.9 * k * D); tries++) {
    at = add(at, dir, 0.9 * k * D);
  }
  placed.push(at);
  return at;
}

/** How much bigger the marks are drawn on a big board, so they read when it is shown whole. */
function markScale(geo) {
  return Math.min(2, Math.max(1, geo.R / (12 * D)));
}

function badge(parent, at, label, colour, cls, k) {
  // data-at and data-k: the zoom draws a badge smaller when the board is shown bigger
  const g = el("g", { class: cls, transform: `translate(${at[0].toFixed(1)} ${at[1].toFixed(1)}) scale(${k.toFixed(2)})`,
    "data-at": `${at[0].toFixed(1)} ${at[1].toFixed(1)}`, "data-k": k.toFixed(2) }, parent);
  // a disc for one or two digits, a pill for longer numbers
  const h = 0.92 * D, w = Math.max(h, (0.34 * label.length + 0.3) * D);
  el("rect", { x: -w / 2, y: -h / 2, width: w, height: h, rx: h / 2, fill: colour, class: "trail-badge" }, g);
  text(g, 0, 1, label, { "font-size": 0.56 * D, fill: inkOn(colour), class: "trail-number" });
  return g;
}

/**
 * Draw `trail` (log entries, oldest first): paths into `layer` (under the pegs), numbers
 * into `marks` (over them).  geo: the layout with `labelAnchor(seat)`, where a move
 * without steps (a discard, a decision) is marked.
 */
export function drawTrail(layer, marks, geo, msg, trail) {
  const placed = [];
  const n = trail.length;
  const k = markScale(geo);
  const width = (w) => ({ style: `stroke-width: ${(w * k).toFixed(1)}px` });
  trail.forEach((entry, i) => {
    const number = version(entry);
    const actor = entry.seat;
    const colour = seatColour(msg.board, actor);
    const latest = i === n - 1;
    const g = el("g", { class: `trail-move${latest ? " trail-latest" : ""}`, "data-n": number, "data-seat": actor, opacity: (0.4 + 0.6 * ((i + 1) / n)).toFixed(2) }, layer);
    const said = entry.text || entry.announcement || entry.action;
    el("title", {}, g).textContent = `${number}. ${moveLine(msg, actor, seatName(msg, actor), said)}`;
    const steps = parseSteps(entry.action);
    let mark = null;
    for (const step of steps) {
      const path = stepPath(geo, msg.board, step, stepOwner(step, actor, null));
      if (path.length < 2) continue;
      const line = latest ? 8 : 5;
      el("polyline", { points: pointsText(path), class: "trail-casing", ...width(line + 5) }, g);
      el("polyline", { points: pointsText(path), class: "trail-line", stroke: colour, ...width(line) }, g);
      el("circle", { cx: path[0].x, cy: path[0].y, r: 0.22 * D * k, class: "trail-from", stroke: colour }, g);
      const end = path[path.length - 1];
      el("circle", { cx: end.x, cy: end.y, r: PEG + 4, class: "trail-dest", stroke: colour }, g);
      if (!mark) mark = { end, at: badgeAt(geo, end, placed, k) };
    }
    if (mark) {
      el("line", { x1: mark.end.x, y1: mark.end.y, x2: mark.at[0], y2: mark.at[1], class: "trail-leader" }, g);
    } else {
      mark = { at: geo.labelAnchor(actor) };
      placed.push(mark.at);
    }
    const b = badge(marks, mark.at, String(number), colour, "trail-mark", k);
    b.setAttribute("data-n", String(number));
    el("title", {}, b).textContent = g.firstChild.textContent;
  });
}

/**
 * Bluffing Joker: the declared move drawn dashed into `layer`, with a ghost peg where it
 * would land, and what was declared written over the pegs (into `marks`).
 */
export function drawPending(layer, marks, geo, msg) {
  const pending = msg.view && msg.view.pending;
  if (!pending || !pending.action) return;
  const actor = pending.declarer;
  const colour = seatColour(msg.board, actor);
  const declared = cardWords(pending.declared || "?");
  const g = el("g", { class: "pending-move", "data-declared": pending.declared || "" }, layer);
  el("title", {}, g).textContent = `${seatName(msg, actor)} says the face-down card is ${declared}`;
  for (const step of parseSteps(pending.action)) {
    const path = stepPath(geo, msg.board, step, stepOwner(step, actor, msg.view.pegs));
    if (path.length < 2) continue;
    el("polyline", { points: pointsText(path), class: "pending-casing" }, g);
    el("polyline", { points: pointsText(path), class: "pending-line" }, g);
    const end = path[path.length - 1];
    const ghost = el("g", { class: "pending-ghost", transform: `translate(${end.x.toFixed(1)} ${end.y.toFixed(1)})` }, g);
    ghost.appendChild(shapeElement(seatShape(actor), PEG, { fill: colour, class: "pending-peg" }));
    text(ghost, 0, 1, seatLetter(msg.board, actor), { "font-size": PEG * 0.95, fill: inkOn(colour), class: "peg-letter" });
  }
  const first = parseSteps(pending.action)[0];
  const anchor = first ? stepPath(geo, msg.board, first, stepOwner(first, actor, msg.view.pegs)).pop() : null;
  // towards the middle of the board, clear of the seat labels outside the track
  const at = anchor ? add([anchor.x, anchor.y], unit([-anchor.x, -anchor.y]), 3.4 * D) : geo.labelAnchor(actor);
  const label = el("g", { class: "pending-label", transform: `translate(${at[0].toFixed(1)} ${at[1].toFixed(1)})` }, marks);
  const who = shortName(msg, actor);
  const words = `${who.length > 14 ? `${who.slice(0, 13)}…` : who} says: ${declared}?`;
  const w = (words.length * 0.42 + 1) * D;
  el("rect", { x: -w / 2, y: -0.55 * D, width: w, height: 1.1 * D, rx: 0.55 * D, class: "pending-box" }, label);
  text(label, 0, 1, words, { "font-size": 0.62 * D, class: "pending-text" });
}
