// The game screen: the board, the hand and move picker, the lobby before the start, the
// log, the cue card, and the record and replay after the end.

import { renderBoard, seatBadge } from "./board.js";
import { banner, fill, h, store } from "./dom.js";
import { api, loadPresets, TableSocket } from "./net.js";
import { matchTyped, Picker, stepKeys } from "./picker.js";
import { ReplayViewer } from "./replay.js";

export function shareLink(code) {
  return `${location.origin}/t/${code}`;
}

function cardText(card) {
  return card === "Joker" ? "J*" : card;
}

export class GameScreen {
  /** seat: {token, seat, name} held by this browser, or null to watch. */
  constructor(code, seat, { onLostSeat } = {}) {
    this.code = code;
    this.seat = seat;
    this.onLostSeat = onLostSeat || (() => location.assign(`/t/${code}`));
    this.msg = null;
    this.picker = new Picker([]);
    this.hint = null;
    this.notice = "";
    this.sending = false;
    this.log = store.log(code);
    this.replay = null;
  }

  start() {
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("class", "board");
    svg.id = "board";
    svg.addEventListener("click", (e) => this.onBoardClick(e));
    this.svg = svg;
    this.panel = h("section", { class: "panel", id: "panel", "aria-live": "polite" });
    this.root = h("div", { class: "game" }, h("div", { class: "board-wrap" }, svg), this.panel);
    document.getElementById("app").replaceChildren(this.root);
    this.cueDialog = h("dialog", { id: "cue-dialog" });
    document.body.append(this.cueDialog);
    const hello = this.seat ? { type: "hello", token: this.seat.token } : { type: "hello", spectator: true };
    this.socket = new TableSocket(this.code, hello, {
      onMessage: (m) => this.onMessage(m),
      onStatus: (s) => this.onStatus(s),
    });
    this.socket.connect();
    this.render();
    return this;
  }

  onStatus(status) {
    this.connection = status;
    if (status !== "open") this.sending = false; // an unanswered move may be confirmed again
    banner(status === "reconnecting" ? "Reconnecting…" : status === "connecting" ? "Connecting…" : "");
    document.body.dataset.connection = status;
    this.render();
  }

  onMessage(msg) {
    if (msg.type === "state") {
      const fresh = !this.msg || this.msg.version !== msg.version || this.msg.legal.length !== msg.legal.length;
      this.msg = msg;
      if (fresh) {
        this.picker = new Picker(msg.legal);
        this.hint = null;
        this.sending = false;
        this.notice = "";
        this.chosenDecision = null;
      }
      if (msg.last && msg.view) this.addLog(msg.version, msg.last.seat, msg.last.announcement, msg.last.action);
      if (msg.view && !this.logFetched && this.log.length < msg.version) this.fetchLog();
      this.render();
    } else if (msg.type === "event") {
      this.addLog(msg.version, msg.seat, msg.announcement, msg.action);
      this.renderLog();
    } else if (msg.type === "explain") {
      this.render();
    } else if (msg.type === "hint") {
      this.hint = msg;
      const action = this.msg && this.msg.legal.find((a) => a.text === msg.action);
      if (action && !action.decision) this.picker.select(action);
      this.render();
    } else if (msg.type === "error") {
      this.sending = false;
      if (msg.code === "bad_token" && this.seat) {
        this.socket.close();
        store.dropSeat(this.code);
        banner("");
        this.onLostSeat();
        return;
      }
      if (msg.code === "no_table") {
        this.socket.close();
        banner("");
        fill(this.panel, h("p", { class: "error" }, msg.message), h("a", { href: "/" }, "Start page"));
        return;
      }
      this.notice = msg.message;
      this.render();
    }
  }

  /** Fill the move log from the server when this browser missed part of the game. */
  async fetchLog() {
    this.logFetched = true;
    try {
      const data = await api("GET", `/api/tables/${encodeURIComponent(this.code)}/log`);
      for (const e of data.log || []) this.addLog(e.version, e.seat, e.announcement, e.action);
      this.renderLog();
    } catch {
      // an older server without the log: the page shows the moves it saw
    }
  }

  addLog(version, seat, text, action) {
    if (!text || this.log.some((e) => e.v === version)) return;
    this.log.push({ v: version, seat, text, action });
    this.log.sort((a, b) => a.v - b.v);
    store.setLog(this.code, this.log);
  }

  name(seat) {
    const s = this.msg && this.msg.table.seats[seat];
    return (s && s.name) || `Seat ${seat}`;
  }

  mySeat() {
    return this.msg ? this.msg.seat : (this.seat ? this.seat.seat : -1);
  }

  // --- sending ---------------------------------------------------------------------------
  play(action) {
    if (!this.msg || this.sending) return;
    const sent = this.socket.send({ type: "act", id: this.socket.nextId(), version: this.msg.version, action: action.text || action });
    if (!sent) {
      this.notice = "Not connected: the move was not sent. It will be possible again once reconnected.";
    } else {
      this.sending = true;
      this.notice = "";
    }
    this.render();
  }

  askHint() {
    if (!this.socket.send({ type: "hint", id: this.socket.nextId() })) this.notice = "Not connected.";
    else this.notice = "Asking for a hint…";
    this.render();
  }

  // --- board taps ------------------------------------------------------------------------
  onBoardClick(event) {
    if (this.replay || !this.msg || !this.msg.legal.length || this.sending) return;
    const target = event.target.closest("[data-target]");
    const peg = event.target.closest(".peg");
    const p = this.picker;
    if (peg && peg.classList.contains("victim")) {
      const send = this.msg.legal.find((a) => a.decision === `send ${peg.dataset.pos}`);
      if (send) { this.chosenDecision = send; this.render(); }
      return;
    }
    const key = target ? target.dataset.target : peg ? peg.dataset.key : null;
    if (key === null) return;
    if (p.peg !== null && p.targets().has(key)) p.chooseTarget(key);
    else if (p.pegs().has(key)) this.pickPeg(key);
    else if (key === p.peg) p.peg = null;
    this.render();
  }

  pickPeg(key) {
    const p = this.picker;
    p.choosePeg(key);
    const targets = p.targets();
    if (targets.size === 1) p.chooseTarget([...targets][0]);
  }

  // --- rendering -------------------------------------------------------------------------
  render() {
    if (!this.panel) return;
    const msg = this.msg;
    if (!msg) {
      fill(this.panel, h("p", {}, "Connecting to the table…"));
      return;
    }
    document.body.dataset.version = String(msg.version);
    document.body.dataset.status = msg.table.status;
    document.body.dataset.myTurn = msg.legal.length && !this.sending ? "1" : "0";
    if (!msg.view) return this.renderLobby();
    if (this.replay) return this.replay.render();
    const p = this.picker;
    const victims = new Set(msg.legal.filter((a) => a.decision && a.decision.startsWith("send "))
      .map((a) => a.decision.slice(5)));
    renderBoard(this.svg, msg, {
      pegs: p.card !== null && !p.needsDeclaration() ? p.pegs() : null,
      selected: p.peg,
      targets: p.peg !== null ? p.targets() : null,
      victims,
      hint: this.hint ? this.hintSteps() : null,
      chosen: p.chosen,
    });
    fill(this.panel,
      this.statusBlock(),
      this.notice ? h("p", { class: "error", id: "notice", role: "alert" }, this.notice) : null,
      this.decisionBlock(),
      this.handBlock(),
      this.pickBlock(),
      this.typedBlock(),
      this.finishedBlock(),
      this.logBlock(),
      this.toolsBlock());
  }

  hintSteps() {
    const a = this.msg.legal.find((x) => x.text === this.hint.action);
    return a ? a.steps.map(stepKeys) : null;
  }

  statusBlock() {
    const msg = this.msg, v = msg.view, me = msg.seat;
    let line;
    if (v.outcome) {
      const won = v.outcome.seats.includes(me);
      line = `Game over: ${v.outcome.seats.map((q) => this.name(q)).join(" & ")} ${v.outcome.seats.length > 1 ? "win" : "wins"}${won ? " (you!)" : ""}.`;
    } else if (msg.legal.length) {
      line = v.pending ? "Your decision" : "Your turn";
    } else {
      line = `Waiting for ${this.name(v.current_player)}…`;
    }
    const you = me >= 0 ? h("span", { class: "row" }, seatBadge(msg.board, me), ` You are ${this.name(me)}`) : h("span", { class: "muted" }, "Watching");
    return h("div", {},
      h("div", { class: "row" }, you),
      h("p", { class: "status-line", id: "status" }, line),
      msg.last ? h("p", { class: "announce", id: "last-move" }, h("strong", {}, `${this.name(msg.last.seat)}: `), msg.last.announcement) : null,
      this.hint ? h("p", { class: "announce", id: "hint" }, h("strong", {}, "Hint: "), `${this.hint.announcement} `, h("em", {}, this.hint.reason || "")) : null);
  }

  decisionBlock() {
    const msg = this.msg, v = msg.view;
    const decisions = this.picker.decisions();
    if (!decisions.length) {
      if (v.pending && v.pending.chooser < 0 && !msg.legal.length) {
        return h("p", { class: "muted" }, `${this.name(v.pending.declarer)} declared a card face down; ${this.name(v.pending.asked)} may doubt it.`);
      }
      return null;
    }
    const pending = v.pending || {};
    const doubt = decisions.find((a) => a.decision === "doubt");
    const pass = decisions.find((a) => a.decision === "pass");
    if (doubt || pass) {
      const declared = pending.declared || "?";
      return h("div", { class: "doubt", id: "doubt" },
        h("p", { class: "prompt" }, `${this.name(pending.declarer)} plays a card face down and says it is ${declared === "Joker" ? "a Joker" : `a ${declared}`}.`),
        msg.last ? h("p", {}, msg.last.announcement) : null,
        h("p", {}, "Do you doubt it?"),
        h("div", { class: "choices" },
          doubt ? h("button", { class: "danger", id: "doubt-btn", onclick: () => this.play(doubt) }, "Doubt!") : null,
          pass ? h("button", { id: "pass-btn", onclick: () => this.play(pass) }, "No doubt") : null));
    }
    const chosen = this.chosenDecision && decisions.includes(this.chosenDecision) ? this.chosenDecision : null;
    return h("div", { class: "doubt", id: "send" },
      h("p", { class: "prompt" }, `Choose a peg of ${this.name(pending.victim)} to send back to START (tap it on the board or below).`),
      h("div", { class: "choices" }, ...decisions.map((a) =>
        h("button", { class: chosen === a ? "primary" : "", onclick: () => { this.chosenDecision = a; this.render(); } }, a.announcement || a.text))),
      chosen ? h("div", { class: "confirm" }, h("span", {}, chosen.announcement || chosen.text),
        h("button", { class: "primary", id: "confirm-btn", onclick: () => this.play(chosen) }, "Confirm")) : null);
  }

  handBlock() {
    const msg = this.msg, v = msg.view, p = this.picker;
    if (msg.seat < 0) return null;
    const playable = p.playableCards();
    const myTurn = msg.legal.length > 0 && !this.sending;
    const cards = v.hand.map((card, i) => {
      const cls = ["card"];
      if (card === "Joker") cls.push("joker");
      if (p.card === card) cls.push("selected");
      else if (myTurn && playable.has(card)) cls.push("playable");
      return h("button", {
        class: cls.join(" "), "data-card": card, "data-index": i, "aria-pressed": p.card === card ? "true" : "false",
        disabled: !(myTurn && playable.has(card)),
        onclick: () => { p.chooseCard(card); this.hint = null; this.render(); },
      }, cardText(card));
    });
    return h("div", {}, h("h2", {}, `Your hand (${v.hand.length})`), h("div", { class: "hand", id: "hand", "data-seat": msg.seat }, ...cards));
  }

  spotLabel(key) {
    const msg = this.msg;
    const me = Math.max(0, msg.seat);
    if (key.includes(".")) {
      const [side, hole] = key.split(".").map(Number);
      if (side === msg.board.side_of[me]) return hole;
      const owner = msg.board.side_of.indexOf(side);
      return owner >= 0 ? `${hole} (${msg.board.letters[owner]} side)` : `${hole} (side ${side})`;
    }
    const [seat, name] = key.split(":");
    const where = name === "S" ? "START" : `home ${name.slice(1)}`;
    return Number(seat) === msg.seat ? where : `${msg.board.letters[seat]} ${where}`;
  }

  pegLabel(key) {
    const msg = this.msg;
    let owner;
    if (key.includes(".")) owner = msg.view.pegs.findIndex((ps) => ps.includes(key));
    else owner = Number(key.split(":")[0]);
    const letter = owner >= 0 ? msg.board.letters[owner] : "?";
    return `${letter} peg at ${this.spotLabel(key)}`;
  }

  pickBlock() {
    const msg = this.msg, p = this.picker;
    if (!msg.legal.length || this.sending || p.decisions().length) {
      return this.sending ? h("p", { class: "muted", id: "sending" }, "Sending…") : null;
    }
    const back = h("button", { id: "back-btn", onclick: () => { p.back(); this.render(); } }, "Back");
    const cancel = h("button", { id: "cancel-btn", onclick: () => { p.reset(); this.render(); } }, "Cancel");
    if (p.card === null) return h("p", { class: "prompt", id: "prompt" }, "Tap a card to play.");
    if (p.needsDeclaration()) {
      return h("div", {}, h("p", { class: "prompt", id: "prompt" }, `Play the ${cardText(p.card)} face down, saying it is:`),
        h("div", { class: "choices", id: "declare" }, ...p.declaredOptions().map((r) =>
          h("button", { "data-declared": r, onclick: () => { p.chooseDeclared(r); this.render(); } }, cardText(r)))),
        h("div", { class: "row" }, cancel));
    }
    const parts = [];
    const complete = p.complete();
    const discards = p.chosen.length === 0 ? p.discards() : [];
    if (complete.length || discards.length) {
      this.socket.explain([...complete, ...discards]);
      for (const a of [...complete, ...discards]) {
        parts.push(h("div", { class: "confirm" },
          h("span", { class: "move-text" }, a.announcement || a.text),
          h("small", { class: "muted" }, a.text),
          h("button", { class: "primary confirm-btn", "data-action": a.text, onclick: () => this.play(a) }, a.steps.length ? "Confirm move" : "Discard it")));
      }
    }
    if (p.peg !== null) {
      parts.push(h("p", { class: "prompt", id: "prompt" }, `Where to? (${this.pegLabel(p.peg)})`));
      parts.push(h("div", { class: "choices", id: "targets" }, ...[...p.targets()].map((k) =>
        h("button", { "data-target": k, onclick: () => { p.chooseTarget(k); this.render(); } }, this.spotLabel(k)))));
    } else {
      const pegs = p.pegs();
      if (pegs.size) {
        const what = p.chosen.length ? "Now the other peg of the split:" : "Tap a peg to move (lit up on the board):";
        parts.push(h("p", { class: "prompt", id: "prompt" }, what));
        parts.push(h("div", { class: "choices", id: "pegs" }, ...[...pegs].map((k) =>
          h("button", { "data-peg": k, onclick: () => { this.pickPeg(k); this.render(); } }, this.pegLabel(k)))));
      }
    }
    parts.push(h("div", { class: "row" }, back, cancel, msg.table.hints ? this.hintButton() : null));
    return h("div", { id: "picker" }, ...parts);
  }

  hintButton() {
    return h("button", { id: "hint-btn", onclick: () => this.askHint() }, "Hint");
  }

  typedBlock() {
    const msg = this.msg;
    if (!msg.legal.length || this.sending) return null;
    const list = h("datalist", { id: "legal-list" }, ...msg.legal.slice(0, 300).map((a) => h("option", { value: a.text })));
    const input = h("input", { id: "typed", list: "legal-list", placeholder: "or type a move, e.g. 7: 0.5>0.9, 0.12>0.15", autocomplete: "off", autocapitalize: "off", spellcheck: "false" });
    const form = h("form", { class: "typed" }, input, list, h("button", { type: "submit" }, "Play"));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      const found = matchTyped(msg.legal, text);
      this.play(found || { text });
    });
    return h("div", {}, form, msg.table.hints && this.picker.card === null && !this.picker.decisions().length ? this.hintButton() : null);
  }

  finishedBlock() {
    const msg = this.msg;
    if (msg.table.status !== "finished") return null;
    return h("div", { class: "row", id: "finished" },
      h("button", { id: "record-btn", onclick: () => this.downloadRecord() }, "Download the record"),
      h("button", { class: "primary", id: "replay-btn", onclick: () => this.openReplay() }, "Replay the game"));
  }

  logBlock() {
    this.logList = h("ol", { class: "log", id: "log", reversed: true });
    this.renderLog();
    return h("details", { open: true }, h("summary", {}, "Moves"), this.logList);
  }

  renderLog() {
    if (!this.logList || !this.msg) return;
    const entries = this.log.slice(-1000).reverse();
    fill(this.logList, ...entries.map((e) => h("li", { "data-version": e.v, value: e.v },
      seatBadge(this.msg.board, e.seat, 16), " ", h("span", { class: "who" }, this.name(e.seat)), `: ${e.text}`)));
  }

  toolsBlock() {
    const msg = this.msg;
    const me = msg.seat;
    const tools = h("div", { class: "row" },
      h("button", { id: "cue-btn", onclick: () => this.showCue() }, "Cue card"),
      me >= 0 ? this.reclaimTool() : null,
      me >= 0 && msg.table.host === me ? this.standInTools() : null);
    return tools;
  }

  reclaimTool() {
    const mine = this.msg.table.seats[this.msg.seat];
    if (!mine || !mine.standin || this.msg.table.status !== "playing") return null;
    return h("button", { class: "primary", id: "reclaim-btn", onclick: async () => {
      try {
        await api("POST", `/api/tables/${this.code}/seats/${this.msg.seat}/reclaim`, {}, this.seat.token);
      } catch (e) { this.notice = e.message; this.render(); }
    } }, "A bot plays for you: take your seat back");
  }

  standInTools() {
    const away = this.msg.table.seats.filter((s) => s.kind === "human" && !s.connected && !s.standin);
    if (!away.length || this.msg.table.status !== "playing") return null;
    return h("span", {}, ...away.map((s) => h("button", {
      onclick: async () => {
        try {
          await api("POST", `/api/tables/${this.code}/seats/${s.seat}/bot`, {}, this.seat.token);
        } catch (e) { this.notice = e.message; this.render(); }
      },
    }, `A bot plays for ${s.name}`)));
  }

  async showCue() {
    let text = "";
    try {
      const data = await loadPresets();
      const p = (data.presets || []).find((x) => x.name === this.msg.rules.name);
      text = p ? p.cue : "";
    } catch (e) {
      text = e.message;
    }
    const settings = Object.entries(this.msg.rules).filter(([k]) => k !== "powers")
      .map(([k, v]) => `  ${k}: ${Array.isArray(v) ? v.join(", ") || "none" : v}`).join("\n");
    fill(this.cueDialog,
      h("h2", {}, "Cue card"),
      h("pre", { id: "cue-text" }, `${text}\n\nThis table's settings\n${settings}`),
      h("form", { method: "dialog" }, h("button", { class: "primary", id: "cue-close" }, "Close")));
    this.cueDialog.showModal();
  }

  async downloadRecord() {
    try {
      const record = await api("GET", `/api/tables/${this.code}/record`, undefined, this.seat ? this.seat.token : null);
      const blob = new Blob([JSON.stringify(record, null, 1)], { type: "application/json" });
      const a = h("a", { href: URL.createObjectURL(blob), download: `pegs-${this.code}.json` });
      document.body.append(a);
      a.click();
      a.remove();
    } catch (e) {
      this.notice = e.message;
      this.render();
    }
  }

  async openReplay() {
    try {
      const data = await api("GET", `/api/tables/${this.code}/replay`);
      this.replay = new ReplayViewer(this, data.states || []);
      this.render();
    } catch (e) {
      this.notice = `The replay is not available: ${e.message}`;
      this.render();
    }
  }

  closeReplay() {
    this.replay = null;
    this.render();
  }

  // --- before the start ------------------------------------------------------------------
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
    const linkInput = h("input", { id: "share-link", value: link, readonly: true, onfocus: (e) => e.target.select() });
    const copy = h("button", { id: "copy-link", onclick: async () => {
      try { await navigator.clipboard.writeText(link); copy.textContent = "Copied"; } catch { linkInput.select(); }
    } }, "Copy");
    const bots = store.bots(this.code);
    const seats = h("ul", { class: "seats-list", id: "seats" }, ...table.seats.map((s) => h("li", { "data-seat": s.seat, "data-kind": s.kind },
      seatBadge(msg.board, s.seat, 28),
      h("span", {}, s.kind === "empty" ? "(open seat)" : `${s.name}${s.kind === "bot" ? " (bot)" : ""}${s.seat === me ? " (you)" : ""}${s.kind === "human" && !s.connected ? " (away)" : ""}`),
      host && s.kind === "empty" ? h("button", { onclick: () => this.addBots([s.seat]) }, "Bot here") : null)));
    const empty = table.seats.filter((s) => s.kind === "empty").length;
    const err = h("p", { class: "error", id: "lobby-error" }, this.notice);
    const start = host ? h("button", { class: "primary", id: "start-btn", onclick: async () => {
      try {
        if (table.seats.some((s) => s.kind === "empty")) await this.addBots(null, true);
        await api("POST", `/api/tables/${this.code}/start`, {}, this.seat.token);
      } catch (e) { this.notice = e.message; this.render(); }
    } }, empty ? `Start (${empty} empty seat${empty > 1 ? "s get" : " gets"} a ${bots.bot} bot)` : "Start the game") : null;
    const leave = !host && me >= 0 ? h("button", { id: "leave-btn", onclick: async () => {
      try {
        await api("POST", `/api/tables/${this.code}/leave`, {}, this.seat.token);
        this.socket.close();
        store.dropSeat(this.code);
        location.assign("/");
      } catch (e) { this.notice = e.message; this.render(); }
    } }, "Leave the table") : null;
    fill(this.panel,
      h("h2", {}, `Table ${this.code}: ${table.preset || msg.rules.name}, ${msg.rules.players} seats`),
      h("p", {}, "Share this link; opening it asks only for a name:"),
      h("div", { class: "share" }, linkInput, copy),
      seats, err,
      h("div", { class: "row" }, start, leave, h("button", { id: "cue-btn", onclick: () => this.showCue() }, "Cue card")),
      host ? null : h("p", { class: "muted" }, "Waiting for the host to start the game."));
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
      this.notice = e.message;
      this.render();
    }
  }
}
