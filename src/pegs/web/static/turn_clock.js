// The turn clock: how long the human seat to act has left (the state's `turn_ends`, Unix
// seconds, docs/PROTOCOL.md), counted down every second next to the status line.

import { h } from "./dom.js";

/** Under this many seconds the clock is marked as running out (and said aloud once). */
export const LOW_SECONDS = 20;

/** Seconds left until `turnEnds` (Unix seconds) at `now` (ms), never below 0 nor above
 * `longest` (the table's time for a turn: a device clock running behind the server's
 * would otherwise show more). */
export function secondsLeft(turnEnds, now, longest) {
  const left = Math.max(0, Math.ceil(turnEnds - now / 1000));
  return longest ? Math.min(left, longest) : left;
}

/** "1:05 left" */
export function clockWords(seconds) {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")} left`;
}

export class TurnClock {
  /** `sayAloud(text)` tells a screen reader once that the player's time runs out. */
  constructor(sayAloud) {
    this.sayAloud = sayAloud;
    this.node = null;
    this.warned = null;
    this.timer = null;
  }

  /** The clock's element for this state (null without a clock), ticking once a second. */
  render(msg) {
    const ends = msg.view && !msg.view.outcome ? msg.turn_ends : null;
    if (ends === null || ends === undefined) {
      this.stop();
      return null;
    }
    this.ends = ends;
    this.longest = msg.table.turn_seconds || null;
    this.mine = msg.legal.length > 0;
    this.key = `${msg.version}:${ends}`;
    this.node = h("span", { class: "turn-clock", id: "turn-clock", role: "timer", "aria-label": "Time left for this turn" });
    this.tick();
    if (!this.timer) this.timer = setInterval(() => this.tick(), 1000);
    return this.node;
  }

  tick() {
    if (!this.node) return;
    const left = secondsLeft(this.ends, Date.now(), this.longest);
    this.node.textContent = clockWords(left);
    const low = left <= LOW_SECONDS;
    this.node.classList.toggle("low", low);
    if (low && this.mine && this.warned !== this.key) {
      this.warned = this.key;
      this.sayAloud(`${left} seconds left for your turn; then a bot moves for you.`);
    }
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.node = null;
  }
}
