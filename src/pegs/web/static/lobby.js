// The game screen before the start: the table's link, its seats (bots for the empty ones),
// its options and Start; the rejoin link of the seat held.  Mixed into GameScreen.

import { renderBoard, seatBadge } from "./board.js";
import { copyRow } from "./copy.js";
import { fill, h, store } from "./dom.js";
import { houseLine } from "./house.js";
import { api } from "./net.js";
import { seatTags, whoLine } from "./people.js";
import { gameName, tableOptionWords } from "./words.js";

export function shareLink(code) {
  return `${location.origin}/t/${code}`;
}

/** The personal link that opens a seat on another device. */
export function rejoinLink(code, token) {
  return `${location.origin}/t/${code}#seat=${token}`;
}

export class Lobby {
  renderLobby() {
    const msg = this.msg, table = msg.table, me = msg.seat;
    const host = me >= 0 && me === table.host;
    const rules = msg.rules;
    const preview = {
      pegs: Array.from({ length: rules.players }, () => Array(rules.pegs).fill("S")),
      hand: [], hand_sizes: null, draw_pile_size: 0, discards: [],
      current_player: -1, outcome: null, pending: null,
    };
    renderBoard(this.svg, { ...msg, view: preview, last: null }, {});
    const link = shareLink(this.code);
    const linkInput = h("input", { id: "share-link", value: link, readonly: true, "aria-label": "The table's link" });
    const bots = store.bots(this.code);
    const seats = h("ul", { class: "seats-list", id: "seats" }, ...table.seats.map((s) => h("li", { "data-seat": s.seat, "data-kind": s.kind },
      seatBadge(msg.board, s.seat, 28),
      whoLine(s.kind === "empty" ? "(open seat)" : this.name(s.seat), seatTags(msg, s.seat, s.kind !== "empty")),
      host && s.kind === "empty" ? h("button", { onclick: () => this.addBots([s.seat]) }, "Bot here") : null,
      this.chat.muteToggle(s))));
    const empty = table.seats.filter((s) => s.kind === "empty").length;
    const err = h("p", { class: "error", id: "lobby-error" }, this.notice);
    const start = host ? h("button", { class: "primary", id: "start-btn", onclick: async () => {
      try {
        if (table.seats.some((s) => s.kind === "empty")) await this.addBots(null, true);
        await api("POST", `/api/tables/${this.code}/start`, {}, this.seat.token);
      } catch (e) { this.setNotice(e.message); this.render(); }
    } }, empty ? `Start: ${empty > 1 ? `${empty} bots` : "a bot"} (${bots.level || "club player"}) take${empty > 1 ? "" : "s"} the empty seat${empty > 1 ? "s" : ""}` : "Start the game") : null;
    const leave = !host && me >= 0 ? h("button", { id: "leave-btn", onclick: async () => {
      try {
        await api("POST", `/api/tables/${this.code}/leave`, {}, this.seat.token);
        this.socket.close();
        store.dropSeat(this.code);
        location.assign("/");
      } catch (e) { this.setNotice(e.message); this.render(); }
    } }, "Leave the table") : null;
    fill(this.panel,
      h("h2", {}, `${gameName(table.preset || msg.rules.name, table.title)}, ${msg.rules.players} players`),
      houseLine(table),
      h("p", {}, "Share this link; opening it asks only for a name:"),
      this.shareCopy || (this.shareCopy = copyRow(linkInput, link, "copy-link")),
      seats, err,
      h("ul", { class: "table-options", id: "table-options" }, ...tableOptionWords(table).map((line) => h("li", {}, line))),
      // Start stays in sight at the foot of a laptop's panel (the panel scrolls there)
      h("div", { class: "row lobby-actions", id: "lobby-actions" }, start, leave, h("button", { id: "cue-btn", onclick: () => this.showCue() }, "Cue card")),
      host ? null : h("p", { class: "muted" }, "Waiting for the host to start the game."),
      this.rejoinBlock());
  }

  async addBots(seats, quiet = false) {
    const bots = store.bots(this.code);
    const body = { bot: bots.bot || "heuristic" };
    if (bots.strength) body.strength = bots.strength;
    if (seats) body.seats = seats;
    try {
      await api("POST", `/api/tables/${this.code}/bots`, body, this.seat.token);
    } catch (e) {
      if (quiet) throw e;
      this.setNotice(e.message);
      this.render();
    }
  }

  /** The rejoin link, shown and copyable, for the seat this browser holds. */
  rejoinBlock() {
    if (!this.seat || this.mySeat() < 0) return null;
    const link = rejoinLink(this.code, this.seat.token);
    const input = h("input", { id: "rejoin-link", value: link, readonly: true, "aria-label": "Your rejoin link" });
    return h("details", { class: "rejoin", id: "rejoin", open: this.rejoinOpen,
      ontoggle: (e) => { this.rejoinOpen = e.target.open; } },
      h("summary", {}, "Play this seat on another device"),
      h("p", { class: "help" }, "Open this link on a phone, tablet or computer to carry on as yourself there. It is your seat: keep it to yourself."),
      // kept between renders: its "Copied" stays
      this.rejoinCopy || (this.rejoinCopy = copyRow(input, link, "copy-rejoin")));
  }
}
