// Pegs move along their path instead of jumping: after a new state the moved pegs slide
// from where the previous drawing had them, hole by hole.  Short, skipped by a tap on the
// board, and off when the system asks for reduced motion.

import { parseSteps, spotKey, spotOf, stepOwner, stepPath } from "./board_paths.js";

const PER_HOLE_MS = 90;
const SHORTEST_MS = 300;
const LONGEST_MS = 1100;
/** More actions than this between two drawings: the pegs are placed, not moved. */
const MOST_ACTIONS = 3;

const previous = new WeakMap();
const running = new WeakMap();

export function reducedMotion() {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Finish every peg movement on `svg` at once (their end is where the pegs are drawn). */
export function skipMotion(svg) {
  for (const anim of running.get(svg) || []) anim.finish();
  running.set(svg, []);
}

/** Remove one of `value` from the list `list` (a multiset); whether it was there. */
function take(list, value) {
  const i = list.indexOf(value);
  if (i < 0) return false;
  list.splice(i, 1);
  return true;
}

function startCount(pegs, seat) {
  return pegs[seat] ? pegs[seat].filter((p) => p === "S").length : 0;
}

/** The peg element of `seat` drawn at position `pos` (the last one for START). */
function pegElement(svg, seat, pos) {
  const all = svg.querySelectorAll(`.peg[data-seat="${seat}"][data-key="${spotKey(pos, seat)}"]`);
  return all.length ? all[all.length - 1] : null;
}

/** The moves from `before` (per-seat positions) to `msg`: [{seat, pos, path, delay}]. */
function moves(geo, msg, before) {
  const after = msg.view.pegs;
  const gone = before.map((ps) => [...ps]);
  const come = after.map((ps) => [...ps]);
  // only what differs: take every position present on both sides out of both lists
  gone.forEach((ps, seat) => {
    for (const p of [...ps]) if (take(come[seat], p)) take(ps, p);
  });
  const out = [];
  let delay = 0;
  if (msg.last && msg.version === before.version + 1) {
    for (const step of parseSteps(msg.last.action)) {
      const owner = stepOwner(step, msg.last.seat, before);
      const from = step.from.split("@")[0], to = step.to.split("@")[0];
      if (!take(gone[owner] || [], from) || !take(come[owner] || [], to)) continue;
      const path = stepPath(geo, msg.board, step, owner, {
        from: Math.max(0, startCount(before, owner) - 1), to: Math.max(0, startCount(after, owner) - 1),
      });
      out.push({ seat: owner, pos: to, path, delay: 0 });
      delay = Math.max(delay, duration(path));
    }
  }
  // pegs no step explains (a hit peg going back, a swapped peg): straight, after the mover
  gone.forEach((ps, seat) => {
    ps.forEach((from, i) => {
      const to = come[seat][i];
      if (to === undefined) return;
      const a = spotOf(geo, from, seat, Math.max(0, startCount(before, seat) - 1));
      const b = spotOf(geo, to, seat, Math.max(0, startCount(after, seat) - 1));
      if (a && b) out.push({ seat, pos: to, path: [a, b], delay });
    });
  });
  return out;
}

function duration(path) {
  return Math.min(LONGEST_MS, Math.max(SHORTEST_MS, PER_HOLE_MS * (path.length - 1)));
}

/** Keyframes through the path's spots, spaced by distance so the speed is even. */
function keyframes(path) {
  const lengths = [0];
  for (let i = 1; i < path.length; i++) {
    lengths.push(lengths[i - 1] + Math.hypot(path[i].x - path[i - 1].x, path[i].y - path[i - 1].y));
  }
  const total = lengths[lengths.length - 1] || 1;
  return path.map((p, i) => ({ transform: `translate(${p.x.toFixed(2)}px, ${p.y.toFixed(2)}px)`, offset: lengths[i] / total }));
}

/**
 * Move the pegs drawn on `svg` from where the previous drawing of the same game had them.
 * Answers the number of pegs set moving.
 */
export function animatePegs(svg, geo, msg) {
  const before = previous.get(svg);
  const pegs = msg.view.pegs;
  previous.set(svg, Object.assign(pegs.map((ps) => [...ps]), { version: msg.version }));
  skipMotion(svg);
  if (!before || before.length !== pegs.length || reducedMotion()) return 0;
  const ahead = msg.version - before.version;
  if (ahead < 1 || ahead > MOST_ACTIONS || typeof Element.prototype.animate !== "function") return 0;
  const anims = [];
  for (const m of moves(geo, msg, before)) {
    const node = pegElement(svg, m.seat, m.pos);
    if (!node || m.path.length < 2) continue;
    anims.push(node.animate(keyframes(m.path), { duration: duration(m.path), delay: m.delay, fill: "backwards", easing: "ease-in-out" }));
  }
  running.set(svg, anims);
  return anims.length;
}
