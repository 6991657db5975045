// The board as SVG, drawn from a `state` message (docs/PROTOCOL.md) and nothing else.
//
// A regular polygon with one side per board side (rules.sides), holes_per_side holes per
// side numbered 1..H clockwise; each seat's start area lies inside the ring next to its
// out-hole and its home track runs inward from its door.  The viewer's own side is drawn
// at the bottom.  Every hole carries data-kind (ring, home, start) and data-key, every peg
// data-seat, data-pos and data-key, so tests and the picker can find them.

const SVG = "http://www.w3.org/2000/svg";
const D = 28; // distance between neighbouring holes, in SVG units
const HOLE = 0.28 * D;
const PEG = 0.49 * D;

// Okabe-Ito based, colour-blind safe; shapes and letters make every seat distinct anyway.
export const PALETTE = {
  red: "#cc2a2a", blue: "#0072b2", yellow: "#f0e442", green: "#009e73",
  purple: "#7b4fb0", orange: "#e69f00", white: "#ffffff", black: "#1d1d1d",
  pink: "#cc79a7", teal: "#56b4e9",
};
const SHAPES = ["circle", "square", "triangle", "diamond", "pentagon", "hexagon",
  "star", "cross", "down", "octagon"];
const MARKED = new Set([5, 10, 15, 20]);
const SEVENTEEN = 17;

export function seatColour(board, seat) {
  const name = (board.colours && board.colours[seat]) || "";
  return PALETTE[name.toLowerCase()] || "#888888";
}

export function seatLetter(board, seat) {
  return (board.letters && board.letters[seat]) || String(seat);
}

export function seatShape(seat) {
  return SHAPES[seat % SHAPES.length];
}

/** Dark or light ink for text drawn on a seat colour. */
export function inkOn(hex) {
  const n = parseInt(hex.slice(1), 16);
  const lum = 0.299 * (n >> 16) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255);
  return lum > 140 ? "#111111" : "#ffffff";
}

/** The key of a spot: a ring hole by its name ("2.7"), start and home by owner ("3:S", "3:H2"). */
export function spotKey(pos, seat) {
  const [name, owner] = String(pos).split("@");
  if (name.includes(".")) return name;
  return `${owner !== undefined ? owner : seat}:${name}`;
}

function add(v, w, k = 1) { return [v[0] + k * w[0], v[1] + k * w[1]]; }
function unit(v) { const l = Math.hypot(v[0], v[1]) || 1; return [v[0] / l, v[1] / l]; }
function rad(deg) { return (deg * Math.PI) / 180; }

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

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined && v !== null) node.setAttribute(k, String(v));
  }
  if (parent) parent.appendChild(node);
  return node;
}

function text(parent, x, y, str, attrs = {}) {
  const node = el("text", { x, y, "text-anchor": "middle", "dominant-baseline": "central", ...attrs }, parent);
  node.textContent = str;
  return node;
}

function polygonPoints(n, r, rot = -90) {
  const pts = [];
  for (let i = 0; i < n; i++) {
    const t = rad(rot + (360 * i) / n);
    pts.push(`${(r * Math.cos(t)).toFixed(2)},${(r * Math.sin(t)).toFixed(2)}`);
  }
  return pts.join(" ");
}

/** A seat's peg shape centred on 0,0 with radius r. */
export function shapeElement(shape, r, attrs) {
  switch (shape) {
    case "circle": return el("circle", { r: r * 0.92, ...attrs });
    case "square": return el("rect", { x: -r * 0.8, y: -r * 0.8, width: r * 1.6, height: r * 1.6, rx: r * 0.15, ...attrs });
    case "triangle": return el("polygon", { points: polygonPoints(3, r * 1.18, -90), transform: `translate(0 ${r * 0.18})`, ...attrs });
    case "down": return el("polygon", { points: polygonPoints(3, r * 1.18, 90), transform: `translate(0 ${-r * 0.18})`, ...attrs });
    case "diamond": return el("polygon", { points: polygonPoints(4, r * 1.1, -90), ...attrs });
    case "pentagon": return el("polygon", { points: polygonPoints(5, r, -90), ...attrs });
    case "hexagon": return el("polygon", { points: polygonPoints(6, r, 0), ...attrs });
    case "octagon": return el("polygon", { points: polygonPoints(8, r, 22.5), ...attrs });
    case "star": {
      const pts = [];
      for (let i = 0; i < 10; i++) {
        const t = rad(-90 + 36 * i), rr = i % 2 ? r * 0.62 : r * 1.15;
        pts.push(`${(rr * Math.cos(t)).toFixed(2)},${(rr * Math.sin(t)).toFixed(2)}`);
      }
      return el("polygon", { points: pts.join(" "), ...attrs });
    }
    case "cross": {
      const a = r * 0.4, b = r;
      const pts = [[-a, -b], [a, -b], [a, -a], [b, -a], [b, a], [a, a], [a, b], [-a, b], [-a, a], [-b, a], [-b, -a], [-a, -a]];
      return el("polygon", { points: pts.map((p) => p.join(",")).join(" "), ...attrs });
    }
    default: return el("circle", { r, ...attrs });
  }
}

/** A small SVG badge (shape + letter) for seat `seat`, for use in HTML next to names. */
export function seatBadge(board, seat, size = 22) {
  const svg = el("svg", { viewBox: "-14 -14 28 28", width: size, height: size, class: "badge", "aria-hidden": "true" });
  const colour = seatColour(board, seat);
  const g = el("g", {}, svg);
  g.appendChild(shapeElement(seatShape(seat), 12, { fill: colour, stroke: "#111", "stroke-width": 1.6 }));
  text(g, 0, 1, seatLetter(board, seat), { "font-size": 11, "font-weight": 700, fill: inkOn(colour) });
  return svg;
}

function drawPeg(parent, board, seat, x, y, pos, key) {
  const colour = seatColour(board, seat);
  const g = el("g", { class: "peg", transform: `translate(${x.toFixed(2)} ${y.toFixed(2)})`, "data-seat": seat, "data-pos": pos, "data-key": key }, parent);
  el("circle", { r: D * 0.5, class: "hit-area" }, g);
  g.appendChild(shapeElement(seatShape(seat), PEG, { fill: colour, stroke: "#111", "stroke-width": 2.2, class: "peg-body" }));
  text(g, 0, 1, seatLetter(board, seat), { class: "peg-letter", "font-size": PEG * 0.95, fill: inkOn(colour) });
  return g;
}

/** Steps of an action text: [{from, to, op}] ("K: 1.3>1.16, H1>H2" -> two steps). */
export function parseSteps(action) {
  const colon = String(action || "").indexOf(":");
  if (colon < 0) return [];
  const out = [];
  for (const part of action.slice(colon + 1).split(",")) {
    const m = part.trim().match(/^(\S+?)([<>~])(\S+?)(x?)$/);
    if (m) out.push({ from: m[1], op: m[2], to: m[3], hit: m[4] === "x" });
  }
  return out;
}

function seatName(msg, seat) {
  const s = msg.table && msg.table.seats && msg.table.seats[seat];
  return (s && s.name) || `Seat ${seat}`;
}

/**
 * Draw the board of `msg` into the <svg> `svg`.
 * opts: {pegs: Set of selectable peg keys, selected: peg key, targets: Set of spot keys,
 *        hint, chosen: [{from, to}] spot keys, victims: Set of peg keys}
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
  while (svg.firstChild) svg.removeChild(svg.firstChild);

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
    seats: el("g", { class: "seats" }, svg),
  };

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
  // big invisible tap areas over targets (touch friendly)
  if (opts.targets) {
    for (const spot of spots.values()) {
      const key = spotTargetKey(spot);
      if (opts.targets.has(key) && !(spot.kind === "start" && spot.slot > 0)) {
        el("circle", { cx: spot.x, cy: spot.y, r: 0.55 * D, class: "tap target-tap", "data-target": key }, layers.holes);
      }
    }
  }

  // last move: arrows from each step's source to its destination
  if (msg.last && msg.last.action) {
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
      if (opts.pegs && opts.pegs.has(key)) g.classList.add("selectable");
      if (opts.victims && opts.victims.has(key)) g.classList.add("selectable", "victim");
      if (opts.selected === key) g.classList.add("selected");
      if (opts.targets && opts.targets.has(key)) g.classList.add("target-peg");
    }
  });

  // seat labels outside each seat's side, along it (never upside down)
  const turn = view.outcome ? -1 : view.current_player;
  for (const f of seatFrames) {
    const p = f.seat;
    const side = f.side;
    const centre = add([(side.a[0] + side.b[0]) / 2, (side.a[1] + side.b[1]) / 2], side.outward, 2.3 * D);
    let angle = (Math.atan2(side.along[1], side.along[0]) * 180) / Math.PI;
    if (angle > 90.5) angle -= 180;
    if (angle <= -90.5) angle += 180;
    const colour = seatColour(board, p);
    const g = el("g", { class: `seat-label${p === turn ? " to-act" : ""}${p === msg.seat ? " me" : ""}`, "data-seat": p, transform: `translate(${centre[0].toFixed(1)} ${centre[1].toFixed(1)}) rotate(${angle.toFixed(1)})` }, layers.seats);
    const w = Math.min(H * D * 0.8, 13 * D), h = 1.6 * D;
    el("rect", { x: -w / 2, y: -h / 2, width: w, height: h, rx: h / 2, class: "seat-box", stroke: colour }, g);
    const badge = el("g", { transform: `translate(${-w / 2 + h / 2} 0)` }, g);
    badge.appendChild(shapeElement(seatShape(p), h * 0.36, { fill: colour, stroke: "#111", "stroke-width": 1.6 }));
    text(badge, 0, 1, seatLetter(board, p), { "font-size": h * 0.32, "font-weight": 700, fill: inkOn(colour) });
    const seatInfo = msg.table && msg.table.seats ? msg.table.seats[p] : null;
    const bot = seatInfo && seatInfo.kind === "bot" && !/bot/i.test(seatInfo.name) ? " (bot)" : "";
    const away = seatInfo && seatInfo.kind === "human" && seatInfo.connected === false ? " (away)" : "";
    const cards = view.hand_sizes ? view.hand_sizes[p] : null;
    const count = cards === null ? "" : ` · ${cards} card${cards === 1 ? "" : "s"}`;
    const empty = seatInfo && seatInfo.kind === "empty" ? "(open seat)" : null;
    const label = `${p === turn ? "▶ " : ""}${truncate(empty || seatName(msg, p), 14)}${bot}${away}${count}`;
    text(g, h * 0.35, 1, label, { class: "seat-text", "font-size": 0.72 * D, "data-cards": cards === null ? undefined : cards });
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
  text(disc, cw / 2, ch / 2, top === "Joker" ? "J*" : top, { class: "discard-top", "font-size": 0.9 * D });
  text(disc, cw / 2, ch + 0.45 * D, "discard", { class: "pile-label", "font-size": 0.45 * D });
  let status = "";
  if (view.outcome) status = `Winner: ${view.outcome.seats.map((q) => seatName(msg, q)).join(" & ")}`;
  else if (turn >= 0) status = turn === msg.seat ? "Your turn" : `${truncate(seatName(msg, turn), 16)} to play`;
  text(c, 0, -ch / 2 - 0.75 * D, status, { class: "turn-text", "font-size": 0.7 * D });
  fitViewBox(svg);
  return geo;
}

/** Shrink the viewBox to what was drawn, with a small margin. */
function fitViewBox(svg) {
  if (typeof svg.getBBox !== "function") return;
  let box;
  try { box = svg.getBBox(); } catch { return; }
  if (!box || !box.width) return;
  const m = 0.4 * D;
  svg.setAttribute("viewBox", `${(box.x - m).toFixed(1)} ${(box.y - m).toFixed(1)} ${(box.width + 2 * m).toFixed(1)} ${(box.height + 2 * m).toFixed(1)}`);
}

function truncate(s, n) { return s.length > n ? s.slice(0, n - 1) + "…" : s; }

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
