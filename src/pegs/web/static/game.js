// The game screen: the connection, the board, the status and clock, the players, the cue
// card; its other parts in their own modules: the choices (picker_view.js), the lobby
// before the start (lobby.js), the log (move_log.js), the end (end_screen.js).

import { renderBoard, seatBadge, trailSince } from "./board.js";
import { ChatPanel } from "./chat.js";
import { banner, fill, h, store } from "./dom.js";
import { api, TableSocket } from "./net.js";
import { Picker, stepKeys } from "./picker.js";
import { afterActor, isPartner, listNames, moveLine, namedText, seatName, seatTags, shortName, teamName, teamOf, teamSeats, whoLine } from "./people.js";
import { TurnClock } from "./turn_clock.js";
import { doubtStory, isDecision } from "./bluff.js";
import { controlKey, installKeys, placeFocus } from "./keys.js";
import { cueNodes, SETTINGS, valueWords } from "./words.js";
import { houseLine, tableCue } from "./house.js";
import { EndScreen } from "./end_screen.js";
import { Lobby } from "./lobby.js";
import { MoveLog } from "./move_log.js";
import { PickerView } from "./picker_view.js";

export class GameScreen {
  /** seat: {token, seat, name} held by this browser, or null to watch. */
  constructor(code, seat, { onLostSeat } = {}) {
    this.code = code;
    this.seat = seat;
    this.onLostSeat = onLostSeat || (() => location.assign(`/t/${code}`));
    this.msg = null;
    this.picker = new Picker([]);
    this.hint = null;
    this.setNotice("");
    this.sending = false;
    this.log = store.log(code);
    this.replay = null;
    this.clock = new TurnClock((text) => this.sayAloud(text));
  }

  start() {
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("class", "board");
    svg.id = "board";
    svg.addEventListener("click", (e) => this.onBoardClick(e));
    this.svg = svg;
    this.panel = h("section", { class: "panel", id: "panel", "aria-label": "Your game" });
    // only new announcements are read aloud: each is added here once
    this.live = h("div", { class: "visually-hidden", id: "live", role: "log", "aria-live": "polite" });
    this.chat = new ChatPanel(this);
    this.root = h("div", { class: "game" }, h("h1", { class: "visually-hidden" }, `Pegs & Jokers, table ${this.code}`),
      h("div", { class: "board-wrap" }, svg), this.panel, this.chat.root, this.live);
    installKeys(this);
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
    // back after a drop: the moves missed meanwhile (a stand-in's among them) are fetched
    if (status === "open" && this.connection === "reconnecting") this.logFetched = false;
    this.connection = status;
    if (status === "open" && this.noticeKind === "connection") this.setNotice("");
    // a move on its way when the connection went is settled once reconnected (afterLostMove)
    if (status !== "open" && this.sending && this.unanswered) this.unanswered.lost = true;
    else if (status !== "open") this.sending = false;
    banner(status === "reconnecting" ? "Reconnecting…" : status === "connecting" ? "Connecting…" : "");
    document.body.dataset.connection = status;
    this.render();
  }

  onMessage(msg) {
    if (this.chat.onMessage(msg)) return;
    if (msg.type === "state") {
      this.tellDoubt(this.msg, msg);
      const fresh = !this.msg || this.msg.version !== msg.version || this.msg.legal.length !== msg.legal.length;
      this.msg = msg;
      this.keepSeat(msg);
      this.followRematch(msg);
      const resent = this.afterLostMove(msg);
      if (fresh) {
        this.picker = new Picker(msg.legal);
        this.hint = null;
        this.sending = resent;
        if (!this.keepNotice) this.setNotice("");
        this.keepNotice = false;
        this.chosenDecision = null;
        this.suggestion = null;
      }
      this.chat.update();
      this.chat.renderList();
      if (msg.last && msg.view) this.addLog(msg.version, msg.last.seat, msg.last.announcement, msg.last.action);
      if (msg.view && !this.logFetched && this.log.length < msg.version) this.fetchLog();
      this.render();
    } else if (msg.type === "event") {
      // a stand-in bot's move (the seat's time ran out, or a bot covers it) is marked as such
      const seat = this.msg && this.msg.table.seats[msg.seat];
      const standin = Boolean(msg.timed_out || (seat && seat.standin));
      if (!this.log.some((e) => e.v === msg.version)) {
        this.sayAloud(moveLine(this.msg, msg.seat, this.actor(msg.seat, standin), msg.announcement));
        if (msg.timed_out) {
          this.ranOut = { v: msg.version, seat: msg.seat };
          this.sayAloud(`${this.name(msg.seat)} ran out of time: a bot played the turn.`);
        }
      }
      this.addLog(msg.version, msg.seat, msg.announcement, msg.action, standin, Boolean(msg.timed_out));
      this.renderLog();
    } else if (msg.type === "explain") {
      this.render();
    } else if (msg.type === "hint") {
      this.hint = msg;
      if (this.noticeKind === "hint") this.setNotice("");
      const action = this.msg && this.msg.legal.find((a) => a.text === msg.action);
      if (action && !action.decision) this.picker.select(action);
      this.render();
    } else if (msg.type === "error") {
      // a move sent again after a reconnect that had arrived the first time: already played
      if (msg.code === "stale_version" && msg.id && msg.id === this.resentId) return;
      this.sending = false;
      this.unanswered = null;
      if (msg.code === "bad_token" && this.seat) {
        this.socket.close();
        store.dropSeat(this.code);
        banner("");
        this.onLostSeat();
        return;
      }
      if (msg.code === "full" || msg.code === "too_many_connections") {
        this.refused(msg);
        return;
      }
      if (msg.code === "no_table") {
        this.socket.close();
        banner("");
        fill(this.panel, h("p", { class: "error" }, msg.message), h("a", { href: "/" }, "Start page"));
        return;
      }
      this.setNotice(msg.message);
      this.render();
    }
  }

  /** The server turned this page away (the seat already open in as many tabs and devices
   * as it may be, or too many connections from here): said plainly, no endless
   * "Reconnecting", a button to try again. */
  refused(msg) {
    this.socket.close();
    banner("");
    const most = /at most (\d+)/.exec(msg.message || "");
    const text = msg.code === "full" && this.seat
      ? `This seat is already open in ${most ? most[1] : "several"} other tabs or devices, the most one seat may have. Close one of them, then try again.`
      : `The table did not let this page in: ${msg.message}.`;
    this.root.querySelector(".board-wrap").hidden = true;
    fill(this.panel, h("h2", {}, "Not connected"), h("p", { class: "error", id: "refused" }, text),
      h("div", { class: "row" }, h("button", { class: "primary", id: "retry-btn", onclick: () => location.reload() }, "Try again"),
        h("a", { href: "/" }, "Start page")));
  }

  /** After a doubt: the real card, bluff or not, and the penalty, in the banner and the log
   * (the banner stays until this seat plays again, the next face-down card, or OK). */
  tellDoubt(prev, msg) {
    // the banner goes once this seat plays again, or once a new face-down card awaits a doubt
    const pending = msg.view && msg.view.pending;
    if (this.reveal && msg.version > this.reveal.version && ((pending && pending.chooser < 0)
        || (msg.last && msg.last.seat === msg.seat && !isDecision(msg.last.action)))) this.reveal = null;
    const story = doubtStory(prev, msg, (q) => seatName(msg, q), (text) => namedText(msg, text));
    if (!story) return;
    const lines = msg.last.action === "doubt" || !this.reveal ? story.lines : [...this.reveal.lines, ...story.lines];
    this.reveal = { version: msg.version, bluff: story.bluff, lines };
    const told = namedText(msg, msg.last.announcement);
    for (const line of story.lines) if (line !== told) this.sayAloud(line); // the event said it
    const entry = this.log.find((e) => e.v === msg.version);
    if (entry) {
      entry.note = story.lines.filter((line) => line !== namedText(msg, entry.text)).join(" ");
      store.setLog(this.code, this.log);
    }
  }

  revealBlock() {
    if (!this.reveal) return null;
    return h("div", { class: "reveal", id: "reveal" },
      h("h2", { id: "reveal-verdict" }, this.reveal.bluff ? "The card is turned over: a bluff!" : "The card is turned over: it was true"),
      ...this.reveal.lines.map((line) => h("p", {}, line)),
      h("button", { id: "reveal-ok", onclick: () => { this.reveal = null; this.render(); } }, "OK"));
  }

  /** The words of the face-down declaration now pending (as announced when it was made). */
  declarationWords() {
    const entry = [...this.log].reverse().find((e) => / as /.test(e.action || ""));
    return entry ? this.said(entry.text) : "";
  }

  /** Remember this seat's number and name (a rejoin link brings only the token). */
  keepSeat(msg) {
    if (!this.seat || msg.seat < 0) return;
    const name = (msg.table.seats[msg.seat] || {}).name || "";
    if (this.seat.seat !== msg.seat || this.seat.name !== name) {
      this.seat = { ...this.seat, seat: msg.seat, name };
      store.setSeat(this.code, this.seat);
    }
  }

  name(seat) {
    return this.msg ? seatName(this.msg, seat) : `Seat ${seat}`;
  }

  /** Who made a move: the seat's name, or its stand-in bot's. */
  actor(seat, standin) {
    return standin ? `${this.name(seat)}'s stand-in bot` : this.name(seat);
  }

  /** A server announcement as the page words it: the table's names, not seat colours. */
  said(text) {
    return this.msg ? namedText(this.msg, text) : text;
  }

  mySeat() {
    return this.msg ? this.msg.seat : (this.seat ? this.seat.seat : -1);
  }

  // --- sending ---------------------------------------------------------------------------
  play(action) {
    if (!this.msg || this.sending) return;
    const text = action.text || action;
    const sent = this.socket.send({ type: "act", id: this.socket.nextId(), version: this.msg.version, action: text });
    if (!sent) {
      this.setNotice("Not connected: the move was not sent. It will be possible again once reconnected.", "connection");
    } else {
      this.sending = true;
      this.unanswered = { version: this.msg.version, action: text, resent: false, lost: false };
      this.setNotice("");
    }
    this.render();
  }

  /** The first state after a connection dropped while a move was on its way: the move was
   * played (the state says so), or the game is still where it was and the move is sent once
   * more (the server refuses it if it did arrive: its version is then stale), or the game went
   * on without it (a stand-in bot played the turn) and the page says so.  True when resent. */
  afterLostMove(msg) {
    const u = this.unanswered;
    if (!u) return false;
    if (msg.version !== u.version) {
      this.unanswered = null;
      const mine = msg.version === u.version + 1 && msg.last && msg.last.seat === msg.seat && msg.last.action === u.action;
      if (u.lost && mine) {
        // the same move may be the stand-in's (its turn ran out): the move log says
        const entry = this.log.find((e) => e.v === msg.version);
        if (entry) this.lostMoveCheck(entry);
        else this.lostCheck = msg.version;  // the log is fetched after a reconnect
      } else if (u.lost) this.lostMoveSaid();
      return false;
    }
    if (!u.lost || this.socket.ws === null) return false;
    u.lost = false;
    this.sending = false;
    if (u.resent || !msg.legal.some((a) => a.text === u.action)) {
      this.unanswered = null;
      this.setNotice("The connection was lost: your move was not played. Choose it again.", "connection");
      this.keepNotice = true;
      return false;
    }
    u.resent = true;
    this.resentId = this.socket.nextId();
    if (!this.socket.send({ type: "act", id: this.resentId, version: u.version, action: u.action })) return false;
    this.setNotice("Reconnected: your move was sent again.");
    this.keepNotice = true;
    this.sending = true;
    return true;
  }

  /** Say that the move sent before the connection dropped was not played. */
  lostMoveSaid() {
    const away = this.notice && this.notice.startsWith("While you were away") ? ` ${this.notice}` : "";
    this.setNotice(`The connection was lost: your move was not played.${away}`, "connection");
    this.keepNotice = true;
  }

  /** The log's entry of the version after a lost move that looked like it: played by the
   * stand-in bot, the player's move was not played. */
  lostMoveCheck(entry) {
    this.lostCheck = null;
    if (entry.standin || entry.timedOut) this.lostMoveSaid();
  }

  askHint() {
    if (!this.socket.send({ type: "hint", id: this.socket.nextId() })) this.setNotice("Not connected.", "connection");
    else this.setNotice("Asking for a hint…", "hint");
    this.render();
  }

  /** A notice under the status; `kind` says what clears it ("connection": reconnecting,
   * "hint": the hint's answer). */
  setNotice(text, kind = null) {
    if (text && text !== this.notice) this.sayAloud(text);
    this.notice = text;
    this.noticeKind = text ? kind : null;
  }

  /** Read a line aloud once (screen readers), keeping the last few. */
  sayAloud(text) {
    if (!this.live || !text) return;
    this.live.append(h("p", {}, text));
    while (this.live.childElementCount > 5) this.live.firstElementChild.remove();
  }

  /** Escape: one step back (a chosen peg to send, a target, a peg, the declaration, the card). */
  back() {
    if (this.replay || !this.msg) return;
    if (this.chosenDecision) this.chosenDecision = null;
    else if (this.picker.card === null) return;
    else this.picker.back();
    this.hint = null;
    this.render();
  }

  /** On the player's turn: the tab's title, and (if turned on) a sound and a vibration. */
  turnChanged(myTurn) {
    document.title = myTurn ? "▶ Your turn · Pegs & Jokers" : "Pegs & Jokers";
    if (!myTurn || this.wasMyTurn) { this.wasMyTurn = myTurn; return; }
    this.wasMyTurn = true;
    this.turnBegan = true;
    this.sayAloud("Your turn.");
    if (!store.alerts()) return;
    try {
      const audio = this.audio || (this.audio = new AudioContext());
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      gain.gain.setValueAtTime(0.15, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.4);
      tone.frequency.value = 660;
      tone.connect(gain).connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.4);
    } catch { /* no sound on this device */ }
    if (navigator.vibrate) navigator.vibrate(200);
  }

  /** After a card or peg is chosen in the panel: scroll up just enough that the choices lit
   * up on the board (those in its view) are on screen, when the page is scrolled below them. */
  showChoices() {
    const board = this.svg.getBoundingClientRect();
    const lit = [...this.svg.querySelectorAll(".peg.selectable .tap-cell, .tap-cell[data-target]")]
      .map((n) => n.getBoundingClientRect())
      .filter((r) => r.bottom > board.top && r.top < board.bottom && r.right > board.left && r.left < board.right);
    if (!lit.length) return;
    const top = Math.max(board.top, Math.min(...lit.map((r) => r.top)));
    if (top < 0) window.scrollBy({ top: top - 8, behavior: "instant" });
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
    this.turnChanged(msg.legal.length > 0 && !msg.view?.outcome);
    const focused = this.keyboard ? controlKey(document.activeElement) : null;
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
      hint: this.hint ? this.hintSteps() : this.suggestionSteps() || this.chat.previewSteps(),
      chosen: p.chosen,
      trail: trailSince(this.log, msg.seat, msg.rules.players),
    });
    fill(this.panel,
      this.statusBlock(),
      this.revealBlock(),
      this.finishedBlock(),
      this.notice ? h("p", { class: "error", id: "notice" }, this.notice) : null,
      this.decisionBlock(),
      this.handBlock(),
      this.pickBlock(),
      this.typedBlock(),
      // the house rules stay in sight during play (a rematch starts without a lobby)
      houseLine(msg.table),
      this.playersBlock(),
      this.logBlock(),
      this.toolsBlock(),
      this.rejoinBlock());
    if (this.keyboard && !this.chat.root.contains(document.activeElement)) placeFocus(this.panel, focused);
    if (!this.inGame) {
      // from the lobby (its Start button at the bottom on a phone) to the board
      this.inGame = true;
      this.root.querySelector(".board-wrap").scrollIntoView({ block: "start", behavior: "instant" });
      this.panel.scrollTop = 0;
    }
    if (this.turnBegan) {
      // a laptop's panel scrolls on its own: back to its top, the status and the hand
      this.turnBegan = false;
      if (getComputedStyle(this.panel).overflowY !== "visible") this.panel.scrollTop = 0;
    }
  }

  hintSteps() {
    const a = this.msg.legal.find((x) => x.text === this.hint.action);
    return a ? a.steps.map(stepKeys) : null;
  }

  /** A partner suggested a move (teaching table): drawn on the board and chosen in the
   * picker, ready to confirm or change. */
  suggested(m) {
    if (!this.msg || m.version !== this.msg.version) return;
    this.suggestion = m;
    const action = this.msg.legal.find((a) => a.text === m.action);
    if (action && !action.decision) this.picker.select(action);
    if (action) this.socket.explain([action]);
    this.sayAloud(`${this.name(m.seat)} suggests a move.`);
    this.render();
  }

  suggestionSteps() {
    const s = this.suggestion;
    const a = s && this.msg.version === s.version ? this.msg.legal.find((x) => x.text === s.action) : null;
    return a ? a.steps.map(stepKeys) : null;
  }

  statusBlock() {
    const msg = this.msg, v = msg.view, me = msg.seat;
    let line;
    if (v.outcome) {
      line = "Game over.";
    } else if (msg.legal.length) {
      line = v.pending ? "Your decision" : "Your turn";
    } else {
      line = `Waiting for ${this.name(v.current_player)}…`;
    }
    const clock = this.clock.render(msg);
    const ranOut = this.ranOut && this.ranOut.v === msg.version
      ? h("p", { class: "muted", id: "ran-out" }, `${this.name(this.ranOut.seat)} ran out of time: a bot played the turn.`) : null;
    return h("div", {},
      this.whoBlock(),
      h("p", { class: "status-line", id: "status" }, line, clock ? " · " : null, clock),
      ranOut,
      // a doubt's banner tells the last move itself
      msg.last && !(this.reveal && this.reveal.version === msg.version) ? this.lastMove(msg) : null,
      this.hint ? h("p", { class: "announce", id: "hint" }, h("strong", {}, "Hint: "), `${this.said(this.hint.announcement)} `, h("em", {}, this.hint.reason || "")) : null,
      this.suggestionLine());
  }

  /** The last move under the status line: "Ann: Five. 10 to 15." or "Ann doubts ...". */
  lastMove(msg) {
    const { seat, announcement } = msg.last;
    const who = this.actor(seat, (this.log.find((e) => e.v === msg.version) || {}).standin);
    const rest = afterActor(msg, seat, announcement);
    return h("p", { class: "announce", id: "last-move" }, h("strong", {}, rest === null ? `${who}: ` : who),
      rest === null ? this.said(announcement) : rest);
  }

  suggestionLine() {
    const s = this.suggestion;
    if (!s || s.version !== this.msg.version) return null;
    const action = this.msg.legal.find((a) => a.text === s.action);
    return h("p", { class: "announce suggestion", id: "suggestion" }, h("strong", {}, `${this.name(s.seat)} suggests: `),
      (action && this.said(action.announcement)) || s.action);
  }

  /** Who I am, my team and my partners. */
  whoBlock() {
    const msg = this.msg, me = msg.seat;
    let mine = h("p", { class: "muted", id: "me" }, "Watching");
    if (me >= 0) {
      const team = teamOf(msg, me);
      const partners = team === null ? [] : teamSeats(msg, team).filter((q) => q !== me).map((q) => shortName(msg, q));
      mine = h("p", { id: "me" }, seatBadge(msg.board, me), " ",
        h("span", {}, `You are ${this.name(me)}`, team === null ? ", playing for yourself" : `, ${teamName(team)}`,
          partners.length ? ` with ${listNames(partners)}` : ""));
    }
    return mine;
  }

  /** Every seat with its team, a partner marked as such, the seat to act underlined (after
   * the play itself: at a big table on a phone it would push the hand off the screen). */
  playersBlock() {
    const msg = this.msg, me = msg.seat;
    return h("ul", { class: "players", id: "players" }, ...msg.table.seats.map((s) => h("li", {
        "data-seat": s.seat, class: [s.seat === me ? "me" : "", isPartner(msg, s.seat) ? "partner" : "",
          msg.view && msg.view.current_player === s.seat && !msg.view.outcome ? "to-act" : ""].join(" ").trim() || null },
      seatBadge(msg.board, s.seat, 20), whoLine(this.name(s.seat), seatTags(msg, s.seat)), this.chat.muteToggle(s))));
  }

  toolsBlock() {
    const msg = this.msg;
    const me = msg.seat;
    const alerts = h("input", { type: "checkbox", id: "alert-toggle", checked: store.alerts(),
      onchange: (e) => store.setAlerts(e.target.checked) });
    const tools = h("div", { class: "row" },
      h("button", { id: "cue-btn", onclick: () => this.showCue() }, "Cue card"),
      me >= 0 ? h("label", { class: "row check" }, alerts, "Sound and vibration on my turn") : null,
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
      } catch (e) { this.setNotice(e.message); this.render(); }
    } }, "A bot plays for you: take your seat back");
  }

  standInTools() {
    const away = this.msg.table.seats.filter((s) => s.kind === "human" && !s.connected && !s.standin);
    if (!away.length || this.msg.table.status !== "playing") return null;
    return h("span", {}, ...away.map((s) => h("button", {
      onclick: async () => {
        try {
          await api("POST", `/api/tables/${this.code}/seats/${s.seat}/bot`, {}, this.seat.token);
        } catch (e) { this.setNotice(e.message); this.render(); }
      },
    }, `A bot plays for ${s.name}`)));
  }

  async showCue() {
    let text = "";
    try {
      text = await tableCue(this.msg.rules, this.msg.table);
    } catch (e) {
      text = e.message;
    }
    const settings = Object.entries(this.msg.rules).filter(([k]) => SETTINGS[k])
      .map(([k, v]) => `  ${SETTINGS[k].label}: ${valueWords(k, v)}`).join("\n");
    fill(this.cueDialog,
      h("h2", {}, "Cue card"),
      // it scrolls: reachable by keyboard
      h("div", { id: "cue-text", class: "cue", tabindex: "0", role: "region", "aria-label": "The cue card" }, ...cueNodes(`${text}\n\nThis table's settings\n${settings}`)),
      h("form", { method: "dialog" }, h("button", { class: "primary", id: "cue-close" }, "Close")));
    this.cueDialog.showModal();
  }

}

// the screen's other parts, each in its own module, share the screen's state as its methods
for (const part of [EndScreen, Lobby, MoveLog, PickerView]) {
  for (const name of Object.getOwnPropertyNames(part.prototype)) {
    if (name !== "constructor") Object.defineProperty(GameScreen.prototype, name, Object.getOwnPropertyDescriptor(part.prototype, name));
  }
}
