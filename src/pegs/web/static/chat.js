// Table talk: the chat panel (quick phrases, reactions, a short text), the host's mutes,
// and at a teaching table the team channel and a move suggested to the partner.  Messages
// are shown as text, never as HTML, with the names the rest of the page uses.

import { seatBadge } from "./board.js";
import { fill, h } from "./dom.js";
import { api } from "./net.js";
import { namedText, seatName, shortName, teamOf } from "./people.js";
import { expandLegal, stepKeys } from "./picker.js";
import { pageMoveWords } from "./move_words.js";

export const PHRASES = [["good_move", "Good move!"], ["your_turn", "Your turn"], ["oops", "Oops"],
  ["well_played", "Well played"], ["thanks", "Thanks"]];
export const REACTIONS = [["thumbs_up", "👍"], ["laugh", "😂"], ["wow", "😮"], ["party", "🎉"]];
export const MAX_TEXT = 200;

/** "2026-12-08 14:05" in the reader's time zone, from Unix seconds. */
function stamp(seconds) {
  const d = new Date(seconds * 1000);
  const two = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}
/** Messages kept on the page (the server replays the latest 50 on connecting). */
const KEEP = 200;

export class ChatPanel {
  /** screen: the GameScreen (its socket, its latest state, render()). */
  constructor(screen) {
    this.screen = screen;
    this.messages = new Map(); // by n
    this.sent = new Set(); // ids of this page's chat messages
    this.channel = "table";
    this.unread = 0;
    this.preview = null; // the partner's action chosen to suggest
    this.build();
  }

  build() {
    const narrow = window.matchMedia("(max-width: 700px)").matches;
    this.list = h("ol", { class: "chat-list", id: "chat-list", "aria-live": "polite" });
    this.tabs = h("div", { class: "chat-tabs", id: "chat-tabs", role: "tablist" });
    this.note = h("p", { class: "muted", id: "chat-note" });
    this.error = h("p", { class: "error", id: "chat-error" });
    this.host = h("div", { class: "row", id: "chat-host" });
    this.suggestBox = h("div", { class: "suggest-box", id: "suggest-box" });
    this.input = h("input", { id: "chat-text", maxlength: MAX_TEXT, placeholder: "Say something…",
      "aria-label": "Message", autocomplete: "off" });
    this.form = h("form", { class: "chat-form", id: "chat-form" }, this.input,
      h("button", { type: "submit", id: "chat-send" }, "Send"));
    this.form.addEventListener("submit", (e) => {
      e.preventDefault();
      const text = this.input.value.trim();
      if (text && this.send({ text })) this.input.value = "";
    });
    this.quick = h("div", { class: "chat-quick", id: "chat-quick" },
      ...PHRASES.map(([key, words]) => h("button", { type: "button", "data-phrase": key, onclick: () => this.send({ phrase: key }) }, words)),
      ...REACTIONS.map(([key, face]) => h("button", { type: "button", class: "reaction", "data-phrase": key,
        "aria-label": key.replace("_", " "), onclick: () => this.send({ phrase: key }) }, face)));
    this.summary = h("summary", { id: "chat-summary" }, h("span", { class: "chat-title" }, "Table talk"));
    this.root = h("details", { class: "chat-panel", id: "chat", open: !narrow,
      ontoggle: () => this.toggled() },
      this.summary, this.tabs, this.list, this.suggestBox, this.note, this.error, this.quick, this.form, this.host,
      h("button", { type: "button", id: "chat-download", onclick: () => this.download() }, "Download the chat"));
  }

  /** Opened: the news are read; on a phone the panel (at the page's foot) comes into view. */
  toggled() {
    if (!this.root.open) return;
    this.unread = 0;
    this.renderSummary();
    this.scrollDown();
    if (window.matchMedia("(max-width: 700px)").matches) this.root.scrollIntoView({ block: "end" });
  }

  /** Handle a chat-related message; whether it was one. */
  onMessage(m) {
    if (m.type === "chat") {
      this.add([m]);
    } else if (m.type === "chat_log") {
      this.add(m.messages || []);
    } else if (m.type === "suggest") {
      if (this.screen.msg && m.to === this.screen.msg.seat) this.screen.suggested(m);
    } else if (m.type === "error" && this.sent.has(m.id)) {
      this.error.textContent = m.message;
    } else {
      return false;
    }
    return true;
  }

  add(list) {
    let fresh = 0;
    for (const m of list) {
      if (this.messages.has(m.n)) continue;
      this.messages.set(m.n, m);
      if (m.id === undefined || !this.sent.has(m.id)) fresh += 1;
    }
    while (this.messages.size > KEEP) this.messages.delete(Math.min(...this.messages.keys()));
    if (!this.root.open) this.unread += fresh;
    this.renderList();
    this.renderSummary();
  }

  /** Send a phrase or text in the channel shown; whether it went. */
  send(body) {
    const id = this.screen.socket.nextId();
    const message = { type: "chat", id, ...body };
    if (this.channel === "team") message.channel = "team";
    this.error.textContent = "";
    if (!this.screen.socket.send(message)) {
      this.error.textContent = "Not connected: the message was not sent.";
      return false;
    }
    this.sent.add(id);
    return true;
  }

  mute(seat, muted) {
    this.screen.socket.send({ type: "mute", id: this.screen.socket.nextId(), seat, muted });
  }

  /** The host's Mute/Unmute toggle for a seat in a seat list (null for others). */
  muteToggle(s) {
    const msg = this.screen.msg;
    if (!msg || msg.seat !== msg.table.host || s.seat === msg.table.host || s.kind !== "human") return null;
    const muted = (msg.table.muted || []).includes(s.seat);
    return h("button", { class: "mute-toggle", "data-mute": s.seat, "aria-pressed": muted ? "true" : "false",
      title: muted ? "Let this player chat again" : "Stop this player's chat messages",
      onclick: () => this.mute(s.seat, !muted) }, muted ? "Unmute" : "Mute");
  }

  /** Whether this page may write in the table chat now, and why not. */
  silence(msg) {
    const me = msg.seat;
    const muted = msg.table.muted || [];
    if (me < 0 && !msg.table.spectators_chat) return "Spectators read the table talk; the host may let them write.";
    if (me >= 0 && muted.includes(me)) return "The host muted your messages.";
    return "";
  }

  hasTeam(msg) {
    return Boolean(msg.table.teaching && msg.seat >= 0 && teamOf(msg, msg.seat) !== null);
  }

  /** After every state: tabs, who may write, the host's tools and the suggestion box. */
  update() {
    const msg = this.screen.msg;
    if (!msg) return;
    const team = this.hasTeam(msg);
    if (!team) this.channel = "table";
    const tab = (key, words) => h("button", { type: "button", role: "tab", "data-channel": key,
      "aria-selected": this.channel === key ? "true" : "false",
      onclick: () => { this.channel = key; this.update(); this.renderList(); } }, words);
    fill(this.tabs, ...(team ? [tab("table", "Everyone"), tab("team", "My team")] : []));
    const silence = this.silence(msg);
    this.note.textContent = silence;
    for (const control of [this.input, ...this.form.querySelectorAll("button"), ...this.quick.querySelectorAll("button")]) {
      control.disabled = Boolean(silence);
    }
    const host = msg.seat >= 0 && msg.seat === msg.table.host;
    fill(this.host, host ? h("label", { class: "row check" },
      h("input", { type: "checkbox", id: "spectators-chat", checked: Boolean(msg.table.spectators_chat),
        onchange: (e) => this.mute(-1, !e.target.checked) }), "Spectators may write") : null);
    this.renderSuggest(msg);
    this.renderSummary();
  }

  /** Teaching table, at the partner's turn: pick one of the partner's moves and suggest it. */
  renderSuggest(msg) {
    const options = msg.partner_legal ? expandLegal(msg.partner_legal, msg.view) : [];
    if (!options.length) {
      this.preview = null;
      fill(this.suggestBox);
      return;
    }
    const mover = msg.view.current_player;
    if (this.preview && (this.preview.version !== msg.version || !options.some((a) => a.text === this.preview.text))) this.preview = null;
    const select = h("select", { id: "suggest-select", "aria-label": "Your partner's move",
      onchange: (e) => {
        const a = options.find((x) => x.text === e.target.value);
        this.preview = a ? { version: msg.version, text: a.text, steps: a.steps } : null;
        button.disabled = !this.preview || Boolean(this.silence(msg));
        this.screen.render();
      } },
      h("option", { value: "" }, "Choose one of their moves…"),
      ...options.slice(0, 300).map((a) => h("option", { value: a.text, selected: this.preview && this.preview.text === a.text }, this.moveWords(a, options))));
    const button = h("button", { type: "button", class: "primary", id: "suggest-btn", disabled: !this.preview || Boolean(this.silence(msg)),
      onclick: () => {
        if (!this.preview) return;
        const id = this.screen.socket.nextId();
        this.sent.add(id);
        if (this.screen.socket.send({ type: "suggest", id, action: this.preview.text })) {
          this.error.textContent = "";
          this.note.textContent = `Suggested to ${shortName(msg, mover)}.`;
        }
      } }, "Suggest this move to my partner");
    fill(this.suggestBox, h("p", { class: "prompt" }, `${shortName(msg, mover)}'s turn: show them a move (drawn on their board).`),
      select, button);
  }

  /** A partner's move in words, their pegs and spots named ("Jack. Ann's peg from Ann's
   * START to Ann's 5."). */
  moveWords(a, options) {
    const msg = this.screen.msg;
    return a.decision ? namedText(msg, a.announcement || a.text) : pageMoveWords(msg, a, msg.seat, options);
  }

  /** Save the whole table talk (every page of GET .../chat, the team's channel too for a
   * seat at a teaching table) as a text file, a line a message. */
  async download() {
    const screen = this.screen;
    const lines = [];
    let after = 0;
    this.error.textContent = "";
    try {
      for (;;) {
        const page = await api("GET", `/api/tables/${encodeURIComponent(screen.code)}/chat?after=${after}&limit=500`,
          undefined, screen.seat ? screen.seat.token : null);
        for (const m of page.chat) {
          const team = m.channel === "team" ? " (team)" : "";
          lines.push(`${stamp(m.at)}${team} ${m.name}: ${m.text}`);
        }
        if (!page.more || page.after === after) break;
        after = page.after;
      }
    } catch (e) {
      this.error.textContent = e.message;
      return;
    }
    const text = `Table talk at table ${screen.code}\n${lines.join("\n") || "(no messages)"}\n`;
    const a = h("a", { href: URL.createObjectURL(new Blob([text], { type: "text/plain" })), download: `pegs-${screen.code}-chat.txt` });
    document.body.append(a);
    a.click();
    a.remove();
  }

  /** The steps of the move chosen to suggest, to draw on this page's board. */
  previewSteps() {
    const msg = this.screen.msg;
    return this.preview && msg && this.preview.version === msg.version ? this.preview.steps.map(stepKeys) : null;
  }

  renderSummary() {
    const last = [...this.messages.values()].at(-1);
    const msg = this.screen.msg;
    const news = this.unread && !this.root.open && last && msg
      ? h("span", { class: "chat-news", id: "chat-news" }, ` · ${this.unread} new: ${this.who(msg, last)}: ${last.text}`) : null;
    fill(this.summary, h("span", { class: "chat-title" }, "Table talk"), news);
  }

  who(msg, m) {
    return m.seat >= 0 && msg.table.seats[m.seat] ? seatName(msg, m.seat) : m.name;
  }

  renderList() {
    const msg = this.screen.msg;
    if (!msg) return;
    const shown = [...this.messages.values()].filter((m) => m.channel === this.channel).sort((a, b) => a.n - b.n);
    fill(this.list, ...shown.map((m) => h("li", { "data-n": m.n, class: m.phrase ? `phrase ${m.phrase}` : null },
      m.seat >= 0 && msg.board ? seatBadge(msg.board, m.seat, 14) : null, " ",
      h("span", { class: "who" }, this.who(msg, m)), ": ", h("span", { class: "said" }, m.text))));
    if (!shown.length) this.list.append(h("li", { class: "muted" }, this.channel === "team" ? "Only your team sees this channel." : "No messages yet."));
    this.scrollDown();
  }

  scrollDown() {
    this.list.scrollTop = this.list.scrollHeight;
  }
}
