// The end of a game on the game screen: the result, play again (with a bot for one gone to
// bed), the summary, the record to download and the replay.  Mixed into GameScreen.

import { h, store } from "./dom.js";
import { api } from "./net.js";
import { listNames, resultLine, shortName, teamName } from "./people.js";
import { ReplayViewer } from "./replay.js";

export class EndScreen {
  finishedBlock() {
    const msg = this.msg;
    if (msg.table.status !== "finished" || !msg.view.outcome) return null;
    const result = resultLine(msg);
    if (this.summary === undefined) this.fetchSummary();
    return h("div", { class: `result${result.won ? " won" : ""}`, id: "finished" },
      h("h2", { id: "result" }, result.headline),
      result.detail ? h("p", {}, result.detail) : null,
      this.rematchBlock(),
      this.summaryBlock(),
      h("div", { class: "row" },
        h("button", { id: "replay-btn", onclick: () => this.openReplay() }, "Replay the game"),
        h("button", { id: "record-btn", onclick: () => this.downloadRecord() }, "Download the record")));
  }

  /** "Play again" (everyone is asked; it starts once every player agreed) and "New table". */
  rematchBlock() {
    const msg = this.msg, table = msg.table, me = msg.seat;
    const agreed = table.rematch || [];
    const humans = table.seats.filter((s) => s.kind === "human");
    const waiting = humans.filter((s) => !agreed.includes(s.seat)).map((s) => this.name(s.seat));
    const asking = humans.filter((s) => agreed.includes(s.seat) && s.seat !== me).map((s) => this.name(s.seat));
    const handed = (table.rematch_bots || []).map((q) => this.name(q));
    // the host, or a player who agreed, need not wait for one gone to bed
    const mayHand = me >= 0 && !table.next && (me === table.host || agreed.includes(me));
    const handTools = mayHand ? humans.filter((s) => !agreed.includes(s.seat) && s.seat !== me).map((s) =>
      h("button", { class: "rematch-bot", "data-seat": s.seat, onclick: () => this.handRematchSeat(s.seat) },
        `A bot plays for ${this.name(s.seat)}`)) : [];
    let line = null;
    if (table.next) {
      line = h("p", { id: "next-game" }, "The next game has started: ", h("a", { href: `/t/${table.next}`, id: "next-link" }, "open it"));
    } else if (me >= 0 && agreed.includes(me)) {
      line = h("p", { id: "rematch-wait" }, `Waiting for ${listNames(waiting)} to say yes…`);
    } else if (asking.length) {
      line = h("p", { class: "prompt", id: "rematch-ask" }, `${listNames(asking)} ${asking.length > 1 ? "want" : "wants"} to play again.`);
    }
    const again = me >= 0 && !table.next && !agreed.includes(me)
      ? h("button", { class: "primary", id: "again-btn", onclick: () => this.agreeRematch() }, "Play again") : null;
    return h("div", { class: "rematch" }, line,
      handed.length && !table.next ? h("p", { class: "muted", id: "rematch-bots" },
        `A bot will play for ${listNames(handed)} in the next game until they come back.`) : null,
      handTools.length ? h("div", { class: "row", id: "rematch-hand" }, ...handTools) : null,
      h("div", { class: "row" }, again,
        h("button", { id: "new-table-btn", onclick: () => location.assign("/") }, "New table")));
  }

  async agreeRematch() {
    try {
      await api("POST", `/api/tables/${encodeURIComponent(this.code)}/rematch`, {}, this.seat.token);
    } catch (e) {
      this.setNotice(e.message);
      this.render();
    }
  }

  /** A seat that has not agreed, given to a stand-in bot for the rematch. */
  async handRematchSeat(seat) {
    try {
      await api("POST", `/api/tables/${encodeURIComponent(this.code)}/rematch/seats/${seat}/bot`, {}, this.seat.token);
    } catch (e) {
      this.setNotice(e.message);
      this.render();
    }
  }

  /** Once the rematch exists, a player who agreed moves to it with the same seat token, but
   * only when this page was on the end screen as it started: a finished table opened later
   * (back, its old link, "Your games") stays, with a link to the next game, so its record
   * and replay can still be opened. */
  followRematch(msg) {
    const next = msg.table.next;
    if (msg.table.status === "finished" && !next) this.endScreen = true;
    if (!next || !this.seat || this.followed || !(msg.table.rematch || []).includes(msg.seat)) return;
    // the same token holds the seat there: the "open it" link finds it too
    if (!store.seat(next)) store.setSeat(next, { token: this.seat.token, seat: msg.seat, name: this.seat.name });
    if (!this.endScreen) return;
    this.followed = true;
    this.socket.close();
    location.assign(`/t/${next}`);
  }

  async fetchSummary() {
    this.summary = null;
    try {
      const data = await api("GET", `/api/tables/${encodeURIComponent(this.code)}/summary`);
      this.summary = data.teams || [];
    } catch {
      this.summary = [];
    }
    this.render();
  }

  /** One sentence per team: turns, pegs sent back and had sent back, Jokers. */
  summaryBlock() {
    if (!this.summary || !this.summary.length) return null;
    const msg = this.msg;
    const count = (n, one, many) => `${n} ${n === 1 ? one : many}`;
    return h("ul", { class: "summary", id: "summary" }, ...this.summary.map((t) => {
      const mine = t.seats.includes(msg.seat);
      const who = msg.rules.teams ? `${mine ? "Your team" : teamName(t.team)} (${listNames(t.seats.map((q) => shortName(msg, q)))})`
        : (mine ? "You" : this.name(t.seats[0]));
      return h("li", { "data-team": t.team, class: mine ? "mine" : null }, h("strong", {}, who), ": ",
        `${count(t.turns, "turn", "turns")}, sent ${count(t.hits_given, "peg", "pegs")} back to START, `
        + `had ${count(t.hits_taken, "peg", "pegs")} sent back, played ${count(t.jokers, "Joker", "Jokers")}.`);
    }));
  }

  /** Save the record exactly as the server sends it: parsing it in JavaScript would round
   * the 62-bit seed and the file would no longer replay. */
  async downloadRecord() {
    const headers = { Accept: "application/json" };
    if (this.seat) headers.Authorization = `Bearer ${this.seat.token}`;
    try {
      const response = await fetch(`/api/tables/${encodeURIComponent(this.code)}/record`, { headers });
      const text = await response.text();
      if (!response.ok) {
        let message = `The server answered ${response.status}.`;
        try { message = JSON.parse(text).error.message || message; } catch { /* not JSON */ }
        throw new Error(message);
      }
      const blob = new Blob([text], { type: "application/json" });
      const a = h("a", { href: URL.createObjectURL(blob), download: `pegs-${this.code}.json` });
      document.body.append(a);
      a.click();
      a.remove();
    } catch (e) {
      this.setNotice(e.message === "Failed to fetch" ? "The server cannot be reached; try again." : e.message);
      this.render();
    }
  }

  async openReplay() {
    try {
      const data = await api("GET", `/api/tables/${this.code}/replay`);
      this.replay = new ReplayViewer(this, data.states || []);
      this.render();
    } catch (e) {
      this.setNotice(`The replay is not available: ${e.message}`);
      this.render();
    }
  }

  closeReplay() {
    this.replay = null;
    this.render();
  }
}
