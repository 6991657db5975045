// The game screen: the board, the hand and move picker, the lobby before the start, the
// log, the cue card, and the record and replay after the end.

import { renderBoard, seatBadge, trailSince } from "./board.js";
import { ChatPanel } from "./chat.js";
import { banner, fill, h, store } from "./dom.js";
import { api, TableSocket } from "./net.js";
import { matchTyped, Picker, stepKeys } from "./picker.js";
import { afterActor, isPartner, listNames, moveLine, namedText, resultLine, seatName, seatTags, shortName, teamName, teamOf, teamSeats } from "./people.js";
import { ReplayViewer } from "./replay.js";
import { TurnClock } from "./turn_clock.js";
import { doubtStory, isDecision } from "./bluff.js";
import { controlKey, installKeys, placeFocus } from "./keys.js";
import { cueNodes, gameName, SETTINGS, tableOptionWords, valueWords } from "./words.js";
import { houseLine, tableCue } from "./house.js";
import { copyRow } from "./copy.js";
import { pageMoveWords, spotWords } from "./move_words.js";

export function shareLink(code) {
  return `${location.origin}/t/${code}`;
}

/** The personal link that opens a seat on another device. */
export function rejoinLink(code, token) {
  return `${location.origin}/t/${code}#seat=${token}`;
}

/** A name and its chips as one run of text: on a narrow screen it wraps between words and
 * chips, next to the seat's badge (never a chip or a button alone on a line). */
function whoLine(name, tags) {
  return h("span", { class: "who-line" }, h("span", { class: "player-name" }, name), ...tags.flatMap((tag) => [" ", tag]));
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

  /** Fill the move log from the server when this browser missed part of the game. */
  async fetchLog() {
    this.logFetched = true;
    try {
      const data = await api("GET", `/api/tables/${encodeURIComponent(this.code)}/log`);
      const me = this.mySeat();
      let forMe = 0;
      for (const e of data.log || []) {
        if (me >= 0 && e.seat === me && e.standin && !this.log.some((x) => x.v === e.version)) forMe += 1;
        this.addLog(e.version, e.seat, e.announcement, e.action, Boolean(e.standin), Boolean(e.timed_out));
      }
      // a returning player is told what was done in their name
      if (forMe) {
        const away = `While you were away, a bot made ${forMe === 1 ? "1 move" : `${forMe} moves`} for you (marked in the moves below).`;
        // a lost move's notice, said first, stays with it
        const lost = this.noticeKind === "connection" && this.notice ? `${this.notice} ` : "";
        this.setNotice(lost + away, lost ? "connection" : null);
        this.keepNotice = true;
        this.render();
      }
      this.renderLog();
    } catch {
      // an older server without the log: the page shows the moves it saw
    }
  }

  addLog(version, seat, text, action, standin = false, timedOut = false) {
    if (!text || this.log.some((e) => e.v === version)) return;
    this.log.push({ v: version, seat, text, action, ...(standin ? { standin } : {}), ...(timedOut ? { timedOut } : {}) });
    this.log.sort((a, b) => a.v - b.v);
    store.setLog(this.code, this.log);
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
      if (u.lost && !mine) {
        this.setNotice("The connection was lost: your move was not played.", "connection");
        this.keepNotice = true;
      }
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
      return h("div", { class: "doubt", id: "doubt" },
        h("p", { class: "prompt" }, `${this.name(pending.declarer)} played a card face down and says:`),
        h("p", { class: "declaration", id: "declaration" }, this.declarationWords() || pending.declared),
        h("p", {}, "Do you doubt it? If it is a bluff, you send one of their pegs back to START; if it is true, they send one of yours."),
        h("div", { class: "choices" },
          doubt ? h("button", { class: "danger", id: "doubt-btn", onclick: () => this.play(doubt) }, "Doubt!") : null,
          pass ? h("button", { id: "pass-btn", onclick: () => this.play(pass) }, "No doubt") : null));
    }
    const chosen = this.chosenDecision && decisions.includes(this.chosenDecision) ? this.chosenDecision : null;
    return h("div", { class: "doubt", id: "send" },
      h("p", { class: "prompt" }, `Choose a peg of ${this.name(pending.victim)} to send back to START (tap it on the board or below).`),
      h("div", { class: "choices" }, ...decisions.map((a) =>
        h("button", { class: chosen === a ? "primary" : "", onclick: () => { this.chosenDecision = a; this.render(); } }, this.said(a.announcement) || a.text))),
      chosen ? h("div", { class: "confirm" }, h("span", {}, this.said(chosen.announcement) || chosen.text),
        h("button", { class: "primary", id: "confirm-btn", onclick: () => this.play(chosen) }, "Confirm")) : null);
  }

  handBlock() {
    const msg = this.msg, v = msg.view, p = this.picker;
    if (msg.seat < 0 || v.outcome) return null;
    const playable = p.playableCards();
    const myTurn = msg.legal.length > 0 && !this.sending;
    // of two equal cards only the one chosen is marked
    const chosen = p.card === null ? -1 : v.hand[this.cardIndex] === p.card ? this.cardIndex : v.hand.indexOf(p.card);
    const cards = v.hand.map((card, i) => {
      const cls = ["card"];
      if (card === "Joker") cls.push("joker");
      if (i === chosen) cls.push("selected");
      else if (myTurn && playable.has(card)) cls.push("playable");
      return h("button", {
        class: cls.join(" "), "data-card": card, "data-index": i, "aria-pressed": i === chosen ? "true" : "false",
        "aria-keyshortcuts": i < 10 ? String((i + 1) % 10) : null,
        disabled: !(myTurn && playable.has(card)),
        onclick: () => { p.chooseCard(card); this.cardIndex = i; this.hint = null; this.render(); this.showChoices(); },
      }, card);
    });
    return h("div", {}, h("h2", {}, `Your hand (${v.hand.length})`), h("div", { class: "hand", id: "hand", "data-seat": msg.seat }, ...cards),
      myTurn ? h("p", { class: "keys-help help" }, "Keys: 1–9 pick a card, arrows move between choices, Enter confirms, Esc goes back.") : null);
  }

  /** A spot in words: "5", "START", "Ann's 12" (names, never seat letters). */
  spotLabel(key) {
    return spotWords(this.msg, key, Math.max(0, this.msg.seat));
  }

  pegLabel(key) {
    const msg = this.msg;
    let owner;
    if (key.includes(".")) owner = msg.view.pegs.findIndex((ps) => ps.includes(key));
    else owner = Number(key.split(":")[0]);
    const whose = owner < 0 ? "A" : owner === msg.seat ? "Your" : `${shortName(msg, owner)}'s`;
    return `${whose} peg at ${this.spotLabel(key)}`;
  }

  pickBlock() {
    const msg = this.msg, p = this.picker;
    if (!msg.legal.length || this.sending || p.decisions().length) {
      if (!this.sending) return null;
      return h("p", { class: "muted", id: "sending" }, this.unanswered && this.unanswered.lost
        ? "The connection was lost while your move was on its way: it is sent again once reconnected." : "Sending…");
    }
    const back = h("button", { id: "back-btn", onclick: () => { p.back(); this.render(); } }, "Back");
    const cancel = h("button", { id: "cancel-btn", onclick: () => { p.reset(); this.render(); } }, "Cancel");
    if (p.card === null) return h("p", { class: "prompt", id: "prompt" }, "Tap a card to play.");
    if (p.needsDeclaration()) {
      return h("div", {}, h("p", { class: "prompt", id: "prompt" }, `Play the ${p.card} face down, saying it is:`),
        h("div", { class: "choices", id: "declare" }, ...p.declaredOptions().map((r) =>
          h("button", { "data-declared": r, onclick: () => { p.chooseDeclared(r); this.render(); } }, r))),
        h("div", { class: "row" }, cancel));
    }
    const parts = [];
    const complete = p.complete();
    const discards = p.chosen.length === 0 ? p.discards() : [];
    if (complete.length || discards.length) {
      this.socket.explain([...complete, ...discards]);
      for (const a of [...complete, ...discards]) {
        parts.push(h("div", { class: "confirm" },
          // words at once: the server's, naming the pegs hit, replace the page's when they come
          h("span", { class: "move-text" }, this.said(a.announcement) || pageMoveWords(msg, a, msg.seat)),
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
          h("button", { "data-peg": k, onclick: () => { this.pickPeg(k); this.render(); this.showChoices(); } }, this.pegLabel(k)))));
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
    const input = h("input", { id: "typed", list: "legal-list", placeholder: "e.g. 7: 0.5>0.9, 0.12>0.15", "aria-label": "A move in notation", autocomplete: "off", autocapitalize: "off", spellcheck: "false" });
    const form = h("form", { class: "typed" }, input, list, h("button", { type: "submit" }, "Play"));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      const found = matchTyped(msg.legal, text);
      this.play(found || { text });
    });
    // the notation is for those who ask for it
    const box = h("details", { class: "typed-box", id: "typed-box", open: this.typedOpen,
      ontoggle: (e) => { this.typedOpen = e.target.open; } }, h("summary", {}, "Type a move in notation"), form);
    return h("div", {}, msg.table.hints && this.picker.card === null && !this.picker.decisions().length ? this.hintButton() : null, box);
  }

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

  logBlock() {
    // it scrolls: reachable by keyboard, named for a screen reader
    this.logList = h("ol", { class: "log", id: "log", reversed: true, tabindex: "0", "aria-label": "Moves, the latest first" });
    this.renderLog();
    return h("details", { open: true }, h("summary", {}, "Moves"), this.logList);
  }

  renderLog() {
    if (!this.logList || !this.msg) return;
    // a face-down card and the doubt, pass or peg sent back that follow it: one entry
    const groups = [];
    for (const e of this.log.slice(-1000)) {
      const head = groups.at(-1);
      if (head && isDecision(e.action) && / as /.test(head[0].action || "")) head.push(e);
      else groups.push([e]);
    }
    fill(this.logList, ...groups.reverse().map((group) => {
      const last = group.at(-1);
      return h("li", { "data-version": group[0].v, value: group[0].v },
        seatBadge(this.msg.board, group[0].seat, 16), " ",
        // the team and "you" once a line, at a name's first time in it
        ...group.flatMap((e, i) => [i ? " " : null,
          ...this.logWords(e, !group.slice(0, i).some((x) => x.seat === e.seat))]),
        last.note ? h("span", { class: "note" }, ` ${last.note}`) : null);
    }));
  }

  /** One move of the log: who (a stand-in's move is the bot's, not "<name> - you"), the
   * team and "you" next to the name, then the words ("Ann Team B doubts ...", "Ann: Five."). */
  logWords(e, tagged = true) {
    const tags = e.standin || !tagged ? [] : seatTags(this.msg, e.seat, false).flatMap((tag) => [" ", tag]);
    const rest = afterActor(this.msg, e.seat, e.text);
    return [h("span", { class: "who", "data-version": e.v }, this.actor(e.seat, e.standin)), ...tags,
      rest === null ? `: ${this.said(e.text)}` : rest,
      e.timedOut ? h("span", { class: "ran-out" }, ` (${this.name(e.seat)} ran out of time)`) : null];
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
      h("div", { id: "cue-text", class: "cue" }, ...cueNodes(`${text}\n\nThis table's settings\n${settings}`)),
      h("form", { method: "dialog" }, h("button", { class: "primary", id: "cue-close" }, "Close")));
    this.cueDialog.showModal();
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
      h("h2", {}, `${gameName(table.preset || msg.rules.name)}, ${msg.rules.players} players`),
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
}
