// The turn clock: how long the human seat to act has left (the state's `turn_ends`, Unix
// seconds, docs/PROTOCOL.md), or while that seat is away how long until its stand-in bot
// moves (the seat's `away_ends`), counted down every second next to the status line.

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

/** "1:05" */
function minutes(seconds) {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/** "1:05 left", or for an away seat "away: a bot moves in 1:05" */
export function clockWords(seconds, away = false) {
  return away ? `away: a bot moves in ${minutes(seconds)}` : `${minutes(seconds)} left`;
}

/** The clock to show for a state: the turn clock (`turn_ends`), or when the seat to act is
 * away and its stand-in comes first, the away clock (the seat's `away_ends`):
 * {ends, longest, away} or null. */
export function clockFor(msg) {
  const v = msg.view;
  if (!v || v.outcome) return null;
  const seat = msg.table.seats[v.current_player] || {};
  const awayEnds = seat.kind === "human" && !seat.connected && !seat.standin ? seat.away_ends ?? null : null;
  const turnEnds = msg.turn_ends ?? null;
  if (awayEnds !== null && (turnEnds === null || awayEnds < turnEnds)) {
    return { ends: awayEnds, longest: msg.table.away_seconds || null, away: true };
  }
  return turnEnds === null ? null : { ends: turnEnds, longest: msg.table.turn_seconds || null, away: false };
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
    const clock = clockFor(msg);
    if (clock === null) {
      this.stop();
      return null;
    }
    this.ends = clock.ends;
    this.longest = clock.longest;
    this.away = clock.away;
    this.mine = msg.legal.length > 0;
    this.key = `${msg.version}:${clock.ends}`;
    this.node = h("span", { class: "turn-clock", id: "turn-clock", role: "timer",
      "aria-label": clock.away ? "Time until a bot moves for the player away" : "Time left for this turn" });
    this.tick();
    if (!this.timer) this.timer = setInterval(() => this.tick(), 1000);
    return this.node;
  }

  tick() {
    if (!this.node) return;
    const left = secondsLeft(this.ends, Date.now(), this.longest);
    // away: the stand-in moves at this time, whatever the turn clock says
    this.node.textContent = clockWords(left, this.away);
    this.node.classList.toggle("away", this.away);
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
