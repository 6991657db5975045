// Tiny DOM helpers and the browser storage of seats, names and move logs.

/** h("button", {class: "primary", onclick}, "Start") -> an element; children may be nodes or text. */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else if (v === true) node.setAttribute(k, "");
    else node.setAttribute(k, String(v));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

/** Replace a node's children, leaving out null, undefined and false. */
export function fill(node, ...children) {
  node.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

export function mount(node) {
  const app = document.getElementById("app");
  app.replaceChildren(node);
  return node;
}

export function banner(text) {
  const b = document.getElementById("banner");
  if (!b) return;
  b.textContent = text || "";
  b.hidden = !text;
}

function read(key, fallback) {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? fallback : JSON.parse(raw);
  } catch {
    return fallback;
  }
}

function write(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* storage full or off */ }
}

/** The seat this browser holds at table `code`: {token, seat, name} or null. */
export const store = {
  seat: (code) => read(`pegs.seat.${code}`, null),
  setSeat: (code, value) => write(`pegs.seat.${code}`, { ...value, at: Date.now() }),
  /** The tables this browser holds a seat at, newest first: [{code, token, seat, name, at}]. */
  games: () => {
    const out = [];
    try {
      for (let i = 0; i < localStorage.length; i += 1) {
        const key = localStorage.key(i);
        if (!key || !key.startsWith("pegs.seat.")) continue;
        const value = read(key, null);
        if (value && value.token) out.push({ ...value, code: key.slice("pegs.seat.".length) });
      }
    } catch { /* storage off */ }
    return out.sort((a, b) => (b.at || 0) - (a.at || 0));
  },
  dropSeat: (code) => { try { localStorage.removeItem(`pegs.seat.${code}`); } catch { /* off */ } },
  name: () => read("pegs.name", ""),
  setName: (name) => write("pegs.name", name),
  bots: (code) => read(`pegs.bots.${code}`, { bot: "heuristic", strength: null }),
  setBots: (code, value) => write(`pegs.bots.${code}`, value),
  alerts: () => read("pegs.alerts", false),
  setAlerts: (on) => write("pegs.alerts", Boolean(on)),
  log: (code) => read(`pegs.log.${code}`, []),
  setLog: (code, value) => write(`pegs.log.${code}`, value.slice(-1000)),
};
