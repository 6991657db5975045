// The replay viewer: steps through a finished game's spectator states on the same board.

import { renderBoard } from "./board.js";
import { fill, h } from "./dom.js";
import { moveLine } from "./people.js";

export class ReplayViewer {
  constructor(screen, states) {
    this.screen = screen;
    this.states = states;
    this.index = states.length ? states.length - 1 : 0;
    this.timer = null;
  }

  go(index) {
    this.index = Math.max(0, Math.min(this.states.length - 1, index));
    this.render();
  }

  togglePlay() {
    if (this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    } else {
      if (this.index >= this.states.length - 1) this.index = 0;
      this.timer = setInterval(() => {
        if (this.index >= this.states.length - 1) this.togglePlay();
        else this.go(this.index + 1);
      }, 700);
    }
    this.render();
  }

  close() {
    if (this.timer) clearInterval(this.timer);
    this.screen.closeReplay();
  }

  render() {
    const screen = this.screen;
    if (!this.states.length) {
      fill(screen.panel, h("p", {}, "This game has no moves to replay."),
        h("button", { onclick: () => this.close() }, "Back to the table"));
      return;
    }
    const state = this.states[this.index];
    // seen from this browser's seat, but with nobody's cards
    const shown = { ...state, seat: screen.msg ? screen.msg.seat : -1, legal: [] };
    // a replay is nobody's turn: the centre says where in the game it is
    renderBoard(screen.svg, shown, { centre: this.index === 0 ? "Deal" : `Move ${this.index}` });
    const slider = h("input", { type: "range", min: 0, max: this.states.length - 1, value: this.index, id: "replay-slider",
      "aria-label": "Move number", oninput: (e) => this.go(Number(e.target.value)) });
    const last = state.last;
    fill(screen.panel,
      h("h2", {}, "Replay"),
      h("p", { class: "status-line", id: "replay-position" }, `Move ${this.index} of ${this.states.length - 1}`),
      h("p", { class: "announce", id: "replay-move" }, last ? moveLine(screen.msg, last.seat, screen.name(last.seat), last.announcement) : "The deal."),
      h("div", { class: "replay-bar" },
        h("button", { "aria-label": "First", onclick: () => this.go(0) }, "|◀"),
        h("button", { "aria-label": "Previous", id: "replay-prev", onclick: () => this.go(this.index - 1) }, "◀"),
        h("button", { "aria-label": this.timer ? "Pause" : "Play", onclick: () => this.togglePlay() }, this.timer ? "Pause" : "Play"),
        h("button", { "aria-label": "Next", id: "replay-next", onclick: () => this.go(this.index + 1) }, "▶"),
        h("button", { "aria-label": "Last", onclick: () => this.go(this.states.length - 1) }, "▶|"),
        slider),
      h("button", { id: "replay-close", onclick: () => this.close() }, "Back to the table"));
    document.body.dataset.replayIndex = String(this.index);
  }
}
