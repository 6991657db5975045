// Where an action's pegs go on the drawn board: its steps read from the notation, each
// position found among the layout's spots, and the holes a peg passes on its way.

/** The longest walk along the track a single card makes; longer moves are jumps. */
const LONGEST_WALK = 13;

/** Steps of an action text: [{from, to, op, hit}] ("K: 1.3>1.16, H1>H2" -> two steps). */
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

/** The key of a spot: a ring hole by its name ("2.7"), start and home by owner ("3:S", "3:H2"). */
export function spotKey(pos, seat) {
  const [name, owner] = String(pos).split("@");
  if (name.includes(".")) return name;
  return `${owner !== undefined ? owner : seat}:${name}`;
}

/** The seat whose peg a step moves: `@owner`, the peg standing on a ring hole, or the actor. */
export function stepOwner(step, actor, pegs) {
  const [name, owner] = step.from.split("@");
  if (owner !== undefined) return Number(owner);
  if (name.includes(".") && pegs) {
    const seat = pegs.findIndex((ps) => ps.includes(name));
    if (seat >= 0) return seat;
  }
  return actor;
}

function ringIndex(geo, name) {
  if (!name.includes(".")) return null;
  const [side, hole] = name.split(".").map(Number);
  return side * geo.H + hole - 1;
}

function ringName(geo, index) {
  const n = geo.S * geo.H;
  const i = ((index % n) + n) % n;
  return `${Math.floor(i / geo.H)}.${(i % geo.H) + 1}`;
}

/** The spot of a position text for `seat`'s pegs; a start position takes start slot `slot`. */
export function spotOf(geo, pos, seat, slot = 0) {
  const key = spotKey(pos, seat);
  if (key.endsWith(":S")) {
    return geo.spots.get(`${key.slice(0, -2)}:S${slot}`) || geo.spots.get(`${key.slice(0, -2)}:S0`);
  }
  return geo.spots.get(key);
}

/** Ring holes from index `a` to `b` walking `dir` (+1 or -1), both ends included. */
function walk(geo, a, b, dir) {
  const n = geo.S * geo.H;
  const count = ((dir * (b - a)) % n + n) % n;
  if (count > LONGEST_WALK) return null;
  const out = [];
  for (let k = 0; k <= count; k++) out.push(geo.spots.get(ringName(geo, a + dir * k)));
  return out;
}

/**
 * The spots a peg of `owner` passes on `step`, first and last included: along the track for
 * forward and backward moves, straight for swaps, jumps and moves out of START.
 * `slots` gives the start slots to draw a START end at: {from, to}.
 */
export function stepPath(geo, board, step, owner, slots = {}) {
  const from = spotOf(geo, step.from, owner, slots.from || 0);
  const to = spotOf(geo, step.to, owner, slots.to || 0);
  if (!from || !to) return [];
  const straight = [from, to];
  const a = ringIndex(geo, step.from.split("@")[0]);
  const b = ringIndex(geo, step.to.split("@")[0]);
  const toHome = to.kind === "home";
  let path = null;
  if (step.op === "<" && a !== null && b !== null) {
    path = walk(geo, a, b, -1);
  } else if (step.op === ">") {
    if (a !== null && b !== null) {
      path = walk(geo, a, b, 1);
    } else if (a !== null && toHome) {
      const ring = walk(geo, a, ringIndex(geo, board.door[to.seat]), 1);
      path = ring && [...ring, ...homeHoles(geo, to.seat, 1, to.hole)];
    } else if (from.kind === "home" && toHome) {
      path = [from, ...homeHoles(geo, to.seat, from.hole + 1, to.hole)];
    } else if (from.kind === "start" && b !== null) {
      const ring = walk(geo, ringIndex(geo, board.out_hole[owner]), b, 1);
      path = ring && [from, ...ring];
    }
  }
  return path && path.every(Boolean) ? path : straight;
}

function homeHoles(geo, seat, first, last) {
  const out = [];
  for (let k = first; k <= last; k++) out.push(geo.spots.get(`${seat}:H${k}`));
  return out;
}

/** `points` as an SVG points attribute. */
export function pointsText(spots) {
  return spots.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(" ");
}
