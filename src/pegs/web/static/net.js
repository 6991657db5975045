// The WebSocket to a table, reconnecting by itself, and the HTTP calls.

import { expandLegal } from "./picker.js";

const RETRY_MIN_MS = 400;
const RETRY_MAX_MS = 5000;
const PING_MS = 10000;
/** A connection that answers nothing for this long after a ping (or a move) is dead, even
 * if it was never closed (a phone in a tunnel): it is closed and opened again. */
const SILENT_MS = 4000;
/** A new connection that has not brought the table's state by then is given up and tried again. */
const OPEN_MS = 8000;

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** A JSON HTTP call; errors become ApiError with the server's message. */
export async function api(method, path, body = undefined, token = null) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, "network", "The server cannot be reached; check the connection and try again.");
  }
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (!response.ok) {
    const err = (data && data.error) || {};
    const detail = data && typeof data.detail === "string" ? data.detail : null;
    throw new ApiError(response.status, err.code || "http", err.message || detail || `The server answered ${response.status}.`);
  }
  return data;
}

let presetsCache = null;

/** GET /api/presets, once per page. */
export async function loadPresets() {
  if (!presetsCache) presetsCache = api("GET", "/api/presets");
  try {
    return await presetsCache;
  } catch (e) {
    presetsCache = null;
    throw e;
  }
}

/**
 * One table's WebSocket.  `hello` is the first message ({"type": "hello", ...}); handlers:
 * onMessage(msg), onStatus("connecting" | "open" | "reconnecting" | "closed").
 * After a drop it reconnects with a growing delay and sends the hello again; the server
 * then sends the current state, so nothing is lost.  A state's grouped `legal` reaches
 * onMessage as a list of actions (expandLegal); a `presence` message updates the last
 * state's seats and hands that state on again; an `explain` answer fills in the
 * announcements of the last state's actions before it is handed on.
 * A silent connection (no answer to a ping or a move within SILENT_MS) counts as dropped:
 * the page says "reconnecting" within seconds instead of waiting for the network to give up.
 */
export class TableSocket {
  constructor(code, hello, { onMessage, onStatus }) {
    this.code = code;
    this.hello = hello;
    this.onMessage = onMessage;
    this.onStatus = onStatus || (() => {});
    this.delay = RETRY_MIN_MS;
    this.ws = null;
    this.stopped = false;
    this.timer = null;
    this.pinger = null;
    this.watchdog = null;
    this.heard = 0;
    this.counter = 0;
    this.last = null;
    this.asked = new Set();
    this.prefix = Math.random().toString(36).slice(2, 8);
    window.addEventListener("online", () => this.retryNow());
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    return `${scheme}://${location.host}/ws/${encodeURIComponent(this.code)}`;
  }

  connect() {
    if (this.stopped) return;
    this.onStatus(this.everOpen ? "reconnecting" : "connecting");
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    clearTimeout(this.watchdog);
    this.watchdog = setTimeout(() => { if (this.ws === ws && !this.isOpen) this.drop(ws); }, OPEN_MS);
    ws.onopen = () => {
      this.delay = RETRY_MIN_MS;
      ws.send(JSON.stringify(this.hello));
    };
    ws.onmessage = (event) => {
      let msg;
      if (this.ws !== ws) return;
      this.heard = Date.now();
      try { msg = JSON.parse(event.data); } catch { return; }
      if (msg.type === "state" && !this.isOpen) {
        clearTimeout(this.watchdog);
        this.isOpen = true;
        this.everOpen = true;
        this.onStatus("open");
      }
      if (msg.type === "state") {
        msg.legal = expandLegal(msg.legal, msg.view);
        this.last = msg;
        this.asked = new Set();
      } else if (msg.type === "presence") {
        if (!this.last) return;
        msg.connected.forEach((on, seat) => {
          const s = this.last.table.seats[seat];
          if (s) s.connected = on;
          if (s && msg.away_ends) s.away_ends = msg.away_ends[seat];
        });
        msg = this.last;
      } else if (msg.type === "explain" && this.last && this.last.version === msg.version) {
        for (const a of this.last.legal) {
          if (a.text in msg.announcements) a.announcement = msg.announcements[a.text];
        }
      }
      this.onMessage(msg);
    };
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      this.isOpen = false;
      this.ws = null;
      clearTimeout(this.watchdog);
      if (event.code === 4401 || event.code === 4404) {
        this.stopped = true;
        this.onStatus("closed");
        return;
      }
      this.onStatus("reconnecting");
      this.scheduleRetry();
    };
    ws.onerror = () => {};
    clearInterval(this.pinger);
    this.pinger = setInterval(() => this.send({ type: "ping" }), PING_MS);
  }

  /** Expect an answer (any message) within SILENT_MS of now, else drop the connection. */
  expectAnswer() {
    const ws = this.ws, asked = Date.now();
    clearTimeout(this.watchdog);
    this.watchdog = setTimeout(() => {
      if (this.ws === ws && this.heard < asked) this.drop(ws);
    }, SILENT_MS);
  }

  /** Give up a connection that stays silent: close it and connect again. */
  drop(ws) {
    if (this.ws !== ws) return;
    ws.onclose = null;
    ws.onmessage = null;
    try { ws.close(); } catch { /* already closed */ }
    this.ws = null;
    this.isOpen = false;
    this.onStatus("reconnecting");
    this.scheduleRetry();
  }

  scheduleRetry() {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), this.delay);
    this.delay = Math.min(RETRY_MAX_MS, this.delay * 1.7);
  }

  retryNow() {
    if (this.stopped || this.isOpen) return;
    this.delay = RETRY_MIN_MS;
    clearTimeout(this.timer);
    if (this.ws) { try { this.ws.close(); } catch { /* already closed */ } this.ws = null; }
    this.connect();
  }

  /** A fresh message id, unique for this page. */
  nextId() {
    this.counter += 1;
    return `c-${this.prefix}-${this.counter}`;
  }

  /** Ask for the announcements of these actions of the last state (each asked once). */
  explain(actions) {
    const texts = actions.filter((a) => a.announcement === undefined && !this.asked.has(a.text))
      .map((a) => a.text).slice(0, 64);
    if (texts.length && this.send({ type: "explain", id: this.nextId(), actions: texts })) {
      for (const t of texts) this.asked.add(t);
    }
  }

  /** Send a message; false when not connected (the caller keeps its choice and retries). */
  send(msg) {
    if (!this.ws || !this.isOpen || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    if (msg.type === "ping" || msg.type === "act") this.expectAnswer();
    return true;
  }

  /** Close for good: no status or message is handed on after this. */
  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    clearTimeout(this.watchdog);
    if (this.ws) {
      this.ws.onclose = null;
      this.ws.onmessage = null;
      this.ws.close();
      this.ws = null;
    }
    this.isOpen = false;
  }
}
