// Move picking: card -> (declared rank) -> peg -> target, narrowing the server's `legal`
// list.  Every choice offered here comes from that list; the page knows no rules.

import { spotKey } from "./board.js";

function rank(text) {
  return text === "J*" ? "Joker" : text;
}

/**
 * One step of an action text ("0.5>0.9", "S>2.7x", "3.18>H1@0"): {seat, from, to, op, hit},
 * `seat` owning the moved peg: the `@owner` of a start or home position, else the mover's
 * start or home, else the peg standing on the ring hole in the view.
 */
function parseStep(text, mover, view) {
  const [, src, op, dst, hit] = /^([^<>~]+)([<>~])([^<>~]+?)(x?)$/.exec(text);
  const [from, fromOwner] = src.split("@");
  const [to, toOwner] = dst.split("@");
  let seat = mover;
  if (fromOwner !== undefined) {
    seat = Number(fromOwner);
  } else if (from.includes(".") && toOwner !== undefined && op !== "~") {
    seat = Number(toOwner);
  } else if (from.includes(".") && to.includes(".")) {
    const owner = view ? view.pegs.findIndex((pegs) => pegs.includes(from)) : -1;
    if (owner >= 0) seat = owner;
  }
  return { seat, from, to, op, hit: hit === "x" };
}

/** The indices a bitmap of the grouped `legal` holds ("3.1" is "0001": index 12). */
function unbits(text) {
  const dot = text.indexOf(".");
  const skip = dot < 0 ? 0 : Number(text.slice(0, dot));
  const out = [];
  [...text.slice(dot + 1)].forEach((digit, k) => {
    const v = parseInt(digit, 16);
    for (let b = 0; b < 4; b += 1) if (v & (1 << b)) out.push(4 * (skip + k) + b);
  });
  return out;
}

/**
 * The server's grouped `legal` (docs/PROTOCOL.md) as a list of actions {text, card,
 * declared, decision, discard, steps, announcement}; a card play's announcement is
 * undefined until asked for (TableSocket.explain).  null (not this seat's turn): [].
 */
export function expandLegal(compact, view) {
  if (!compact) return [];
  const out = compact.decisions.map((d) => ({
    text: d.text, card: null, declared: null, decision: d.text, discard: false, steps: [], announcement: d.announcement,
  }));
  for (const [head, group] of Object.entries(compact.plays)) {
    const [card, declared] = head.split(" as ");
    const add = (parts) => out.push({
      text: `${head}: ${parts.join(", ")}`, card: rank(card), declared: declared ? rank(declared) : null,
      decision: null, discard: parts[0] === "discard",
      steps: parts.filter((p) => p !== "discard").map((p) => parseStep(p, compact.mover, view)),
    });
    const parts = group.parts;
    for (const i of unbits(group.one)) add([parts[i]]);
    for (const [i, row] of Object.entries(group.two || {})) for (const j of unbits(row)) add([parts[i], parts[j]]);
    for (const seq of group.more || []) add(seq.map((i) => parts[i]));
  }
  return out;
}

/** The spot keys of a legal step: {from, to} ("2.7", "3:S", "3:H2"). */
export function stepKeys(step) {
  return { from: spotKey(step.from, step.seat), to: spotKey(step.to, step.seat) };
}

/** Whether the `chosen` steps ({from, to} keys) are all among the action's steps, each once. */
function covers(action, chosen) {
  const left = action.steps.map(stepKeys);
  for (const c of chosen) {
    const i = left.findIndex((s) => s.from === c.from && s.to === c.to);
    if (i < 0) return null;
    left.splice(i, 1);
  }
  return left;
}

export function isDiscard(action) {
  return !action.decision && /:\s*discard\b/.test(action.text);
}

export class Picker {
  constructor(legal) {
    this.legal = legal || [];
    this.reset();
  }

  reset() {
    this.card = null;
    this.declared = null;
    this.peg = null;
    this.chosen = [];
  }

  /** Decisions (Bluffing Joker: doubt, pass, send s.h). */
  decisions() {
    return this.legal.filter((a) => a.decision);
  }

  plays() {
    return this.legal.filter((a) => !a.decision);
  }

  /** Cards that can be played (each card of the hand that starts at least one legal action). */
  playableCards() {
    return new Set(this.plays().map((a) => a.card));
  }

  chooseCard(card) {
    this.reset();
    this.card = card;
    const declared = this.declaredOptions();
    if (declared.length === 1) this.declared = declared[0];
  }

  /** Ranks the chosen card may be declared as (empty when the table has no face-down play). */
  declaredOptions() {
    const out = [];
    for (const a of this.plays()) {
      if (a.card === this.card && a.declared && !out.includes(a.declared)) out.push(a.declared);
    }
    return out;
  }

  chooseDeclared(rank) {
    this.declared = rank;
    this.peg = null;
    this.chosen = [];
  }

  needsDeclaration() {
    return this.card !== null && this.declared === null && this.declaredOptions().length > 0;
  }

  /** Actions still possible with the card, declaration and steps chosen so far. */
  candidates() {
    if (this.card === null || this.needsDeclaration()) return [];
    return this.plays().filter((a) => a.card === this.card
      && (this.declared === null || a.declared === this.declared)
      && covers(a, this.chosen) !== null);
  }

  /** Pegs (spot keys) that can make the next step. */
  pegs() {
    const out = new Set();
    for (const a of this.candidates()) for (const s of covers(a, this.chosen)) out.add(s.from);
    return out;
  }

  choosePeg(key) {
    this.peg = this.pegs().has(key) ? key : null;
    return this.peg !== null;
  }

  /** Where the chosen peg may go next (spot keys). */
  targets() {
    const out = new Set();
    if (this.peg === null) return out;
    for (const a of this.candidates()) {
      for (const s of covers(a, this.chosen)) if (s.from === this.peg) out.add(s.to);
    }
    return out;
  }

  chooseTarget(key) {
    if (!this.targets().has(key)) return false;
    this.chosen.push({ from: this.peg, to: key });
    this.peg = null;
    const next = this.pegs();
    if (next.size === 1 && this.complete().length === 0) this.choosePeg([...next][0]);
    return true;
  }

  /** Undo the last chosen step (or the peg, or the card). */
  back() {
    if (this.peg !== null) this.peg = null;
    else if (this.chosen.length) this.chosen.pop();
    else if (this.declared !== null && this.declaredOptions().length > 1) this.declared = null;
    else this.reset();
  }

  /** Discards without a move that the chosen card allows. */
  discards() {
    return this.candidates().filter((a) => a.steps.length === 0);
  }

  /** Actions made exactly by the steps chosen so far (ready to confirm). */
  complete() {
    if (this.chosen.length === 0) return [];
    return this.candidates().filter((a) => covers(a, this.chosen).length === 0);
  }

  /** Select a whole action (a hint, or a typed move): card, declaration and all its steps. */
  select(action) {
    this.reset();
    this.card = action.card;
    this.declared = action.declared || null;
    this.chosen = action.steps.map(stepKeys);
  }
}

/** The legal action a typed text means: exact text first, then ignoring case and spaces. */
export function matchTyped(legal, typed) {
  const norm = (t) => t.toLowerCase().replace(/\s+/g, "").replace(/joker/g, "j*");
  const want = norm(typed);
  if (!want) return null;
  return legal.find((a) => a.text === typed.trim()) || legal.find((a) => norm(a.text) === want) || null;
}
