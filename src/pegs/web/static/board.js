// The board as SVG, drawn from a `state` message (docs/PROTOCOL.md) and nothing else.
//
// A regular polygon with one side per board side (rules.sides), holes_per_side holes per
// side numbered 1..H clockwise; each seat's start area lies inside the ring next to its
// out-hole and its home track runs inward from its door.  The viewer's own side is drawn
// at the bottom.  Every hole carries data-kind (ring, home, start) and data-key, every peg
// data-seat, data-pos and data-key, so tests and the picker can find them.  The parts live
// in board_*.js: shapes, paths, motion (pegs sliding), trail (what happened since the
// player's turn, a declared bluff), zoom (pinch, buttons, tap areas) and text (labels,
// the list of where the pegs are).

import { animatePegs, skipMotion } from "./board_motion.js";
import { parseSteps, spotKey } from "./board_paths.js";
import { add, colourName, D, el, fitText, HOLE, inkOn, PEG, rad, seatColour, seatLetter, seatShape, shapeElement, text, unit } from "./board_shapes.js";
import { pegLines, seatWords, teamOf } from "./board_text.js";
import { drawPending, drawTrail } from "./board_trail.js";
import { boardZoom } from "./board_zoom.js";

export { PALETTE, inkOn, seatBadge, seatColour, seatLetter, seatShape, shapeElement } from "./board_shapes.js";
export { parseSteps, spotKey } from "./board_paths.js";
export { trailSince } from "./board_trail.js";

const MARKED = new Set([5, 10, 15, 20]);
const SEVENTEEN = 17;

/** Hole positions for the table of a state message: {spots, sides, R, seatFrames}. */
export function layout(msg) {
  const rules = msg.rules;
  const S = rules.sides, H = rules.holes_per_side, players = rules.players;
  const sideOf = msg.board.side_of;
  const viewer = msg.seat >= 0 ? msg.seat : 0;
  const bottom = sideOf[viewer] || 0;
  const R = (D * H) / (2 * Math.sin(Math.PI / S));
  const sides = [];
  for (let s = 0; s < S; s++) {
    const rel = (s - bottom + S) % S;
    const mid = 90 + (360 * rel) / S;
    const a = [R * Math.cos(rad(mid - 180 / S)), R * Math.sin(rad(mid - 180 / S))];
    const b = [R * Math.cos(rad(mid + 180 / S)), R * Math.sin(rad(mid + 180 / S))];
    const along = unit([b[0] - a[0], b[1] - a[1]]);
    const outward = [Math.cos(rad(mid)), Math.sin(rad(mid))];
    sides.push({ a, b, along, outward, inward: [-outward[0], -outward[1]], mid });
  }
  const spots = new Map();
  const put = (key, p, kind, extra) => spots.set(key, { key, x: p[0], y: p[1], kind, ...extra });
  for (let s = 0; s < S; s++) {
    const { a, along } = sides[s];
    for (let h = 1; h <= H; h++) {
      put(`${s}.${h}`, add(a, along, (h - 0.5) * D), "ring", { side: s, hole: h });
    }
  }
  const seatFrames = [];
  for (let p = 0; p < players; p++) {
    const s = sideOf[p];
    const side = sides[s];
    const corner = side.a;
    const door = spots.get(`${(s - 1 + S) % S}.${H}`);
    const toCentre = unit([-corner[0], -corner[1]]);
    const home = [];
    for (let k = 1; k <= rules.home_holes; k++) {
      const at = add([door.x, door.y], toCentre, k * D * 0.95);
      put(`${p}:H${k}`, at, "home", { seat: p, hole: k });
      home.push(at);
    }
    const start = [];
    const first = 4.4 * D;
    for (let i = 0; i < rules.pegs; i++) {
      const at = add(add(corner, side.along, first + i * 0.95 * D), side.inward, 1.55 * D);
      put(`${p}:S${i}`, at, "start", { seat: p, slot: i });
      start.push(at);
    }
    seatFrames.push({ seat: p, side, home, start });
  }
  return { spots, sides, R, seatFrames, S, H };
}

function drawPeg(parent, board, seat, x, y, pos, key) {
  const colour = seatColour(board, seat);
  const g = el("g", { class: "peg", transform: `translate(${x.toFixed(2)} ${y.toFixed(2)})`, "data-seat": seat, "data-pos": pos, "data-key": key }, parent);
  el("circle", { r: D * 0.5, class: "hit-area" }, g);
  g.appendChild(shapeElement(seatShape(seat), PEG, { fill: colour, stroke: "#111", "stroke-width": 2.2, class: "peg-body" }));
  text(g, 0, 1, seatLetter(board, seat), { class: "peg-letter", "font-size": PEG * 0.95, fill: inkOn(colour) });
  return g;
}

/**
 * Where a seat's label sits: outside its side, along it, never upside down; drawn bigger
 * on a big board (as long as its side is long enough), so it reads when shown whole.
 */
function labelFrame(f, geo) {
  const side = f.side;
  const w0 = Math.min(geo.H * D * 0.8, 13 * D);
  const k = Math.min(Math.max(1, geo.R / (12 * D)), (geo.H * D * 0.95) / w0);
  const w = w0 * k, h = 2.2 * D * k;
  const centre = add([(side.a[0] + side.b[0]) / 2, (side.a[1] + side.b[1]) / 2], side.outward, 1.4 * D + h / 2);
  let angle = (Math.atan2(side.along[1], side.along[0]) * 180) / Math.PI;
  if (angle > 90.5) angle -= 180;
  if (angle <= -90.5) angle += 180;
  return { centre, angle, w, h, k, anchor: add(centre, side.along, w / 2 + 0.8 * D) };
}

/** The box of the viewer's side: its holes, start area, home track and label. */
function homeBox(geo, msg) {
  const me = msg.seat >= 0 ? msg.seat : 0;
  const f = geo.seatFrames[me];
  if (!f) return null;
  const lf = labelFrame(f, geo);
  const pts = [f.side.a, f.side.b, ...f.home, ...f.start, add(lf.centre, f.side.outward, lf.h / 2)];
  const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
  const pad = 0.8 * D;
  const x = Math.min(...xs) - pad, y = Math.min(...ys) - pad;
  return { x, y, w: Math.max(...xs) + pad - x, h: Math.max(...ys) + pad - y };
}

/**
 * Draw the board of `msg` into the <svg> `svg`.
 * opts: {pegs: Set of selectable peg keys, selected: peg key, targets: Set of spot keys,
 *        hint, chosen: [{from, to}] spot keys, victims: Set of peg keys,
 *        trail: the move-log entries to mark, oldest first (see trailSince),
 *        centre: words for the middle instead of whose turn it is}
 * Pegs that moved since the last drawing of the same game slide along their path.
 */
export function renderBoard(svg, msg, opts = {}) {
  const geo = layout(msg);
  const { spots, sides, R, seatFrames, S, H } = geo;
  const board = msg.board;
  const view = msg.view;
  const margin = 3.6 * D;
  const ext = R + margin;
  svg.setAttribute("viewBox", `${-ext} ${-ext} ${2 * ext} ${2 * ext}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `Board with ${S} sides of ${H} holes`);
  skipMotion(svg);
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  if (!svg.dataset.listening) {
    svg.dataset.listening = "1";
    svg.addEventListener("pointerdown", () => skipMotion(svg));
  }

  const pts = sides.map((s) => s.a);
  const outline = (k) => pts.map((p) => `${(p[0] * k).toFixed(1)},${(p[1] * k).toFixed(1)}`).join(" ");
  const kOut = (R + 1.2 * D) / R;
  el("polygon", { points: outline(kOut), class: "board-bg", "stroke-linejoin": "round" }, svg);
  el("polygon", { points: outline(1), class: "track-line" }, svg);

  const layers = {
    zones: el("g", { class: "zones" }, svg),
    holes: el("g", { class: "holes" }, svg),
    labels: el("g", { class: "labels" }, svg),
    last: el("g", { class: "last-move" }, svg),
    pegs: el("g", { class: "pegs" }, svg),
    marks: el("g", { class: "trail-marks" }, svg),
    seats: el("g", { class: "seats" }, svg),
  };
  const frames = seatFrames.map((f) => labelFrame(f, geo));
  geo.labelAnchor = (seat) => frames[seat].anchor;

  // seat zones: start area and home track in the seat's colour
  for (const f of seatFrames) {
    const colour = seatColour(board, f.seat);
    const door = spots.get(board.door[f.seat]);
    const track = [[door.x, door.y], ...f.home];
    el("polyline", { points: track.map((p) => p.join(",")).join(" "), class: "home-track", stroke: colour }, layers.zones);
    const s0 = f.start[0], s1 = f.start[f.start.length - 1];
    el("line", { x1: s0[0], y1: s0[1], x2: s1[0], y2: s1[1], class: "start-zone", stroke: colour }, layers.zones);
  }

  const holeAttrs = (spot) => {
    const cls = ["hole", spot.kind];
    if (opts.targets && opts.targets.has(spotTargetKey(spot))) cls.push("target");
    return { cx: spot.x.toFixed(2), cy: spot.y.toFixed(2), r: HOLE, class: cls.join(" "), "data-kind": spot.kind, "data-key": spotTargetKey(spot) };
  };
  const outHoles = new Map(board.out_hole.map((name, seat) => [name, seat]));
  const doors = new Map(board.door.map((name, seat) => [name, seat]));
  for (const spot of spots.values()) {
    if (spot.kind === "ring") {
      const side = sides[spot.side];
      const mark = MARKED.has(spot.hole) || spot.hole === SEVENTEEN;
      if (outHoles.has(spot.key)) {
        el("circle", { cx: spot.x, cy: spot.y, r: HOLE + 5, class: "out-ring", stroke: seatColour(board, outHoles.get(spot.key)) }, layers.holes);
      }
      if (doors.has(spot.key)) {
        el("rect", { x: spot.x - HOLE - 5, y: spot.y - HOLE - 5, width: 2 * HOLE + 10, height: 2 * HOLE + 10, rx: 3, class: "door-ring", stroke: seatColour(board, doors.get(spot.key)) }, layers.holes);
      }
      const c = el("circle", holeAttrs(spot), layers.holes);
      if (mark) c.classList.add(spot.hole === SEVENTEEN ? "mark17" : "mark");
      const lp = add([spot.x, spot.y], side.outward, 0.95 * D);
      text(layers.labels, lp[0].toFixed(1), lp[1].toFixed(1), String(spot.hole), {
        class: mark ? "num num-mark" : "num", "font-size": mark ? 0.6 * D : 0.4 * D,
      });
    } else {
      el("circle", holeAttrs(spot), layers.holes);
    }
  }
  // the targets, ringed (their tap areas are drawn on top of everything)
  const sites = [];
  if (opts.targets) {
    for (const spot of spots.values()) {
      const key = spotTargetKey(spot);
      if (opts.targets.has(key) && !(spot.kind === "start" && spot.slot > 0)) {
        el("circle", { cx: spot.x, cy: spot.y, r: 0.55 * D, class: "tap target-tap", "data-target": key }, layers.holes);
        sites.push({ key, x: spot.x, y: spot.y, focus: true });
      }
    }
  }

  // what happened: the trail since the player's last turn, or else the last move
  const trail = opts.trail || [];
  if (trail.length) {
    drawTrail(layers.last, layers.marks, geo, msg, trail);
  } else if (msg.last && msg.last.action) {
    el("defs", {}, layers.last).innerHTML =
      '<marker id="arrowhead" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4" markerHeight="4" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="arrow-head"/></marker>';
    for (const st of parseSteps(msg.last.action)) {
      const a = findSpot(spots, st.from, msg.last.seat, view);
      const b = findSpot(spots, st.to, msg.last.seat, view);
      if (!a || !b) continue;
      el("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: "last-arrow", "marker-end": "url(#arrowhead)" }, layers.last);
      el("circle", { cx: b.x, cy: b.y, r: PEG + 6, class: "last-dest" }, layers.last);
    }
  }
  drawPending(layers.last, layers.marks, geo, msg);
  const arrows = (steps, cls) => {
    for (const st of steps || []) {
      const a = spotByTargetKey(spots, st.from), b = spotByTargetKey(spots, st.to);
      if (!a || !b) continue;
      el("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: cls }, layers.last);
      el("circle", { cx: b.x, cy: b.y, r: PEG + 5, class: `${cls}-dest` }, layers.last);
    }
  };
  arrows(opts.hint, "hint-arrow");
  arrows(opts.chosen, "chosen-arrow");

  // pegs
  view.pegs.forEach((pegs, seat) => {
    let slot = 0;
    for (const pos of pegs) {
      let spot;
      if (pos === "S") spot = spots.get(`${seat}:S${slot++}`);
      else if (pos.startsWith("H")) spot = spots.get(`${seat}:${pos}`);
      else spot = spots.get(pos);
      if (!spot) continue;
      const key = spotKey(pos, seat);
      const g = drawPeg(layers.pegs, board, seat, spot.x, spot.y, pos, key);
      const choosable = (opts.pegs && opts.pegs.has(key)) || (opts.victims && opts.victims.has(key));
      if (opts.pegs && opts.pegs.has(key)) g.classList.add("selectable");
      if (opts.victims && opts.victims.has(key)) g.classList.add("selectable", "victim");
      if (opts.selected === key) g.classList.add("selected");
      if (opts.targets && opts.targets.has(key)) g.classList.add("target-peg");
      else if (choosable) {
        sites.push({ key, x: spot.x, y: spot.y, node: g, focus: !opts.targets, anchor: opts.selected === key });
      }
    }
  });

  // seat labels outside each seat's side: name, "you" or "your partner", team, cards
  const turn = view.outcome ? -1 : view.current_player;
  for (const f of seatFrames) {
    const p = f.seat;
    const lf = frames[p];
    const colour = seatColour(board, p);
    const team = teamOf(msg, p);
    const words = seatWords(msg, p);
    const g = el("g", { class: `seat-label${p === turn ? " to-act" : ""}${p === msg.seat ? " me" : ""}`, "data-seat": p, "data-team": team === null ? undefined : team, transform: `translate(${lf.centre[0].toFixed(1)} ${lf.centre[1].toFixed(1)}) rotate(${lf.angle.toFixed(1)})` }, layers.seats);
    const inner = el("g", { transform: `scale(${lf.k.toFixed(3)})` }, g);
    const w = lf.w / lf.k, h = lf.h / lf.k;
    el("rect", { x: -w / 2, y: -h / 2, width: w, height: h, rx: h / 3, class: `seat-box team-${team === null ? "none" : team}`, stroke: colour }, inner);
    const badge = el("g", { transform: `translate(${-w / 2 + 0.95 * D} 0)` }, inner);
    badge.appendChild(shapeElement(seatShape(p), 0.62 * D, { fill: colour, stroke: "#111", "stroke-width": 1.6 }));
    text(badge, 0, 1, seatLetter(board, p), { "font-size": 0.56 * D, "font-weight": 700, fill: inkOn(colour) });
    const cards = view.hand_sizes ? view.hand_sizes[p] : null;
    const x = 0.9 * D;
    // the whole name and detail, in a smaller font where the box is short
    const room = w - 2.2 * D;
    fitText(text(inner, x, -0.42 * D, `${p === turn ? "▶ " : ""}${words.name}`, { class: "seat-text", "font-size": 0.72 * D, "data-cards": cards === null ? undefined : cards }), room);
    fitText(text(inner, x, 0.52 * D, words.detail, { class: "seat-detail", "font-size": 0.5 * D }), room);
    el("title", {}, g).textContent = `${colourName(board, p)}: ${words.name}${words.detail ? `, ${words.detail}` : ""}`;
  }

  // centre: draw pile, discard, whose turn
  const zoom = Math.max(1, R / (14 * D));
  const c = el("g", { class: "centre", transform: `scale(${zoom.toFixed(3)})` }, svg);
  const cw = 2.2 * D, ch = 3.1 * D;
  const pile = el("g", { class: "draw-pile", transform: `translate(${-cw - 0.3 * D} ${-ch / 2})` }, c);
  el("rect", { width: cw, height: ch, rx: 6, class: "card-back" }, pile);
  text(pile, cw / 2, ch / 2, view.draw_pile_size ? String(view.draw_pile_size) : "", { class: "pile-count", "font-size": 0.8 * D });
  text(pile, cw / 2, ch + 0.45 * D, "draw", { class: "pile-label", "font-size": 0.45 * D });
  const disc = el("g", { class: "discard", transform: `translate(${0.3 * D} ${-ch / 2})` }, c);
  el("rect", { width: cw, height: ch, rx: 6, class: "card-face" }, disc);
  const top = view.discards && view.discards.length ? view.discards[view.discards.length - 1] : "";
  text(disc, cw / 2, ch / 2, top, { class: "discard-top", "font-size": (top.length > 2 ? 0.52 : 0.9) * D });
  text(disc, cw / 2, ch + 0.45 * D, "discard", { class: "pile-label", "font-size": 0.45 * D });
  centreWords(c, geo, msg, opts.centre, zoom, -ch / 2 - 0.75 * D);
  const full = fitViewBox(svg);
  const taps = el("g", { class: "taps" }, svg);
  const zoomer = boardZoom(svg);
  zoomer.toolbar(() => togglePegList(svg));
  if (full) {
    zoomer.update(full, homeBox(geo, msg) || full, sites, taps);
    // at the end the whole board shows, the winners in its middle
    if (view.outcome && !zoomer.ended) zoomer.show(full);
    zoomer.ended = Boolean(view.outcome);
  }
  renderPegList(svg, msg);
  animatePegs(svg, geo, msg);
  return geo;
}

/** The text alternative: a list of where each seat's pegs are, after the board. */
function renderPegList(svg, msg) {
  const parent = svg.parentElement;
  if (!parent) return;
  let list = parent.querySelector(":scope > .peg-list");
  if (!list) {
    list = document.createElement("div");
    list.className = "peg-list sr-only";
    list.id = document.getElementById("peg-list") ? `peg-list-${Math.random().toString(36).slice(2, 8)}` : "peg-list";
    parent.append(list);
  }
  svg.setAttribute("aria-describedby", list.id);
  const title = document.createElement("h2");
  title.textContent = "Where the pegs are";
  const ul = document.createElement("ul");
  for (const line of pegLines(msg)) {
    const li = document.createElement("li");
    li.dataset.seat = String(line.seat);
    li.textContent = line.text;
    ul.append(li);
  }
  list.replaceChildren(title, ul);
}

function togglePegList(svg) {
  const list = svg.parentElement && svg.parentElement.querySelector(":scope > .peg-list");
  if (!list) return;
  const shown = list.classList.toggle("sr-only") === false;
  const button = svg.parentElement.querySelector("#peg-list-btn");
  if (button) button.setAttribute("aria-pressed", shown ? "true" : "false");
}

/** Shrink the viewBox to what was drawn, with a small margin; answers the box. */
function fitViewBox(svg) {
  if (typeof svg.getBBox !== "function") return null;
  let box;
  try { box = svg.getBBox(); } catch { return null; }
  if (!box || !box.width) return null;
  const m = 0.4 * D;
  const full = { x: box.x - m, y: box.y - m, w: box.width + 2 * m, h: box.height + 2 * m };
  svg.setAttribute("viewBox", `${full.x.toFixed(1)} ${full.y.toFixed(1)} ${full.w.toFixed(1)} ${full.h.toFixed(1)}`);
  return full;
}

/**
 * Whose turn it is, or who won (or the words `said`), over the piles in the centre group `c` (drawn at `zoom`):
 * one line a name, each fitted into the free middle of the board, the last line at `y`.
 */
function centreWords(c, geo, msg, said, zoom, y) {
  const view = msg.view;
  const turn = view.outcome ? -1 : view.current_player;
  let lines = [];
  if (view.outcome) {
    const names = view.outcome.seats.map((q) => seatWords(msg, q).name);
    lines = [names.length > 1 ? "Winners:" : "Winner:", ...names];
  } else if (said) {
    lines = [said];
  } else if (turn >= 0) {
    // Bluffing Joker: while a face-down card is pending, the seat to act decides
    const [mine, theirs] = view.pending ? ["Your decision", "to decide"] : ["Your turn", "to play"];
    lines = [turn === msg.seat ? mine : `${seatWords(msg, turn).name} ${theirs}`];
  }
  // the middle clear of start areas and home tracks, in the centre group's units
  const free = Math.min(geo.R * Math.cos(Math.PI / geo.S) - 2.2 * D, geo.R - (msg.rules.home_holes + 0.6) * 0.95 * D);
  const width = (1.6 * Math.max(free, 3 * D)) / zoom;
  const size = (lines.length > 2 ? 0.6 : 0.7) * D;
  lines.forEach((line, i) => {
    const at = y - (lines.length - 1 - i) * size * 1.15;
    fitText(text(c, 0, at, line, { class: "turn-text", "font-size": size }), width);
  });
}

/** The target key of a spot: ring name, or "seat:Hk" / "seat:S" (every start slot is "seat:S"). */
function spotTargetKey(spot) {
  if (spot.kind === "ring") return spot.key;
  if (spot.kind === "home") return `${spot.seat}:H${spot.hole}`;
  return `${spot.seat}:S`;
}

function spotByTargetKey(spots, key) {
  if (key.endsWith(":S")) return spots.get(`${key.slice(0, -2)}:S0`);
  return spots.get(key);
}

function findSpot(spots, pos, seat, view) {
  const key = spotKey(pos, seat);
  if (key.endsWith(":S")) {
    // the first free start slot after the move, or the first slot
    const owner = Number(key.split(":")[0]);
    const n = view.pegs[owner] ? view.pegs[owner].filter((p) => p === "S").length : 1;
    return spots.get(`${owner}:S${Math.max(0, n - 1)}`) || spots.get(`${owner}:S0`);
  }
  return spots.get(key);
}
