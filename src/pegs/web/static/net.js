// The WebSocket to a table, reconnecting by itself, and the HTTP calls.

const RETRY_MIN_MS = 400;
const RETRY_MAX_MS = 5000;
const PING_MS = 20000;

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
 * then sends the current state, so nothing is lost.
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
    this.counter = 0;
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
    ws.onopen = () => {
      this.delay = RETRY_MIN_MS;
      ws.send(JSON.stringify(this.hello));
    };
    ws.onmessage = (event) => {
      let msg;
      try { msg = JSON.parse(event.data); } catch { return; }
      if (msg.type === "state" && !this.isOpen) {
        this.isOpen = true;
        this.everOpen = true;
        this.onStatus("open");
      }
      this.onMessage(msg);
    };
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      this.isOpen = false;
      this.ws = null;
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

  /** Send a message; false when not connected (the caller keeps its choice and retries). */
  send(msg) {
    if (!this.ws || !this.isOpen || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    if (this.ws) this.ws.close();
  }
}
