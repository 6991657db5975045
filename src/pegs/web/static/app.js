// The page's screens: create a table, join one by its link, then the game (game.js).

import { fill, h, mount, store } from "./dom.js";
import { api, loadPresets } from "./net.js";
import { GameScreen } from "./game.js";

const HIDDEN_SETTINGS = new Set(["name", "powers", "players", "teams"]);
const PLAYER_DEPENDENT = new Set(["sides", "decks", "jokers_per_deck"]);

/** The table code of this page: /t/CODE or ?t=CODE. */
export function tableCode() {
  const m = location.pathname.match(/^\/t\/([A-Za-z0-9_-]+)/);
  if (m) return m[1];
  return new URLSearchParams(location.search).get("t");
}

function errorLine() {
  return h("p", { class: "error", role: "alert", "aria-live": "assertive" });
}

function settingField(name, value, allowed) {
  const label = name.replaceAll("_", " ");
  const note = PLAYER_DEPENDENT.has(name) ? " (default follows the players)" : "";
  let input;
  if (typeof value === "boolean") {
    input = h("select", { name },
      h("option", { value: "" }, `default (${value ? "yes" : "no"})`),
      h("option", { value: "true" }, "yes"), h("option", { value: "false" }, "no"));
  } else if (Array.isArray(allowed)) {
    input = h("select", { name }, h("option", { value: "" }, `default (${value})`),
      ...allowed.map((v) => h("option", { value: v }, v)));
  } else if (Array.isArray(value)) {
    input = h("input", { name, type: "text", placeholder: `default: ${value.join(", ") || "none"}`, "data-list": "1" });
  } else {
    const range = allowed && typeof allowed === "object" ? allowed : {};
    input = h("input", { name, type: "number", inputmode: "numeric", placeholder: `default: ${value}`,
      min: typeof range.min === "number" ? range.min : undefined, max: typeof range.max === "number" ? range.max : undefined });
  }
  const wrap = h("label", {}, h("span", {}, label + note), input);
  input.addEventListener("change", () => wrap.classList.toggle("changed", input.value !== ""));
  return wrap;
}

/** The overrides typed into the settings fields (only the changed ones). */
function readSettings(form) {
  const out = {};
  for (const input of form.querySelectorAll(".rule-settings [name]")) {
    const v = input.value.trim();
    if (v === "") continue;
    if (v === "true" || v === "false") out[input.name] = v === "true";
    else if (input.dataset.list) out[input.name] = v.split(/[\s,]+/).filter(Boolean);
    else if (input.type === "number") out[input.name] = Number(v);
    else out[input.name] = v;
  }
  return out;
}

async function homeScreen() {
  const err = errorLine();
  const form = h("form", { class: "card-panel", id: "create" });
  mount(h("div", { class: "screen" },
    h("h1", { style: "color:#fff" }, "Pegs & Jokers"),
    form,
    h("div", { class: "card-panel", id: "open-tables" }, h("h2", {}, "Open tables"), h("p", { class: "muted" }, "Loading…"))));
  let data;
  try {
    data = await loadPresets();
  } catch (e) {
    fill(form, h("p", { class: "error" }, e.message));
    return;
  }
  const presets = data.presets || [];
  const allowed = data.allowed || {};
  const presetSelect = h("select", { name: "preset", id: "preset" },
    ...presets.map((p) => h("option", { value: p.name }, `${p.title} (${p.name})`)));
  const players = h("select", { name: "players", id: "players" });
  const teams = h("input", { name: "teams", id: "teams", type: "number", min: 0, max: 5, placeholder: "default" });
  const grid = h("div", { class: "settings-grid rule-settings" });
  const cue = h("pre", { class: "cue" });
  const botKinds = data.bots || ["heuristic", "random", "ismcts"];
  const botSelect = h("select", { name: "bot", id: "bot" }, ...botKinds.map((b) => h("option", { value: b, selected: b === "heuristic" }, b)));
  const strength = h("select", { name: "strength", id: "strength" },
    h("option", { value: "" }, "normal"), h("option", { value: "easy" }, "easy"), h("option", { value: "strong" }, "strong"));
  const showPreset = () => {
    const p = presets.find((x) => x.name === presetSelect.value) || presets[0];
    const keep = players.value || "4";
    fill(players, ...(p.players || [2, 3, 4, 5, 6, 7, 8, 9, 10]).map((n) => h("option", { value: n, selected: String(n) === keep }, n)));
    fill(grid, ...Object.entries(p.defaults)
      .filter(([k]) => !HIDDEN_SETTINGS.has(k))
      .map(([k, v]) => settingField(k, v, allowed[k])));
    cue.textContent = p.cue || "";
  };
  presetSelect.addEventListener("change", showPreset);
  const name = h("input", { name: "name", id: "name", required: true, maxlength: 40, autocomplete: "nickname", value: store.name() });
  const hints = h("input", { type: "checkbox", name: "hints", id: "hints", checked: true });
  form.append(
    h("h2", {}, "New table"),
    h("div", { class: "settings-grid" },
      h("label", {}, h("span", {}, "Your name"), name),
      h("label", {}, h("span", {}, "Rules"), presetSelect),
      h("label", {}, h("span", {}, "Players"), players),
      h("label", {}, h("span", {}, "Teams (0: none)"), teams),
      h("label", {}, h("span", {}, "Bots for empty seats"), botSelect),
      h("label", {}, h("span", {}, "Bot strength (ismcts)"), strength)),
    h("label", { class: "row" }, hints, "Allow hints (the bot's suggestion)"),
    h("details", {}, h("summary", {}, "Settings (preset defaults)"), grid),
    h("details", {}, h("summary", {}, "Cue card"), cue),
    err,
    h("button", { class: "primary", type: "submit", id: "create-btn" }, "Create table"));
  showPreset();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    err.textContent = "";
    const body = { preset: presetSelect.value, name: name.value.trim(), players: Number(players.value),
      settings: readSettings(form), hints: hints.checked };
    if (teams.value !== "") body.teams = Number(teams.value);
    if (!body.name) { err.textContent = "Type your name first."; return; }
    try {
      const made = await api("POST", "/api/tables", body);
      store.setName(body.name);
      store.setSeat(made.code, { token: made.token, seat: made.seat, name: body.name });
      store.setBots(made.code, { bot: botSelect.value, strength: strength.value || null });
      location.assign(`/t/${made.code}`);
    } catch (e) {
      err.textContent = e.message;
    }
  });
  listOpenTables(presets);
}

async function listOpenTables(presets) {
  const box = document.getElementById("open-tables");
  try {
    const { tables } = await api("GET", "/api/tables");
    const title = (name) => (presets.find((p) => p.name === name) || { title: name }).title;
    fill(box, h("h2", {}, "Open tables"), tables.length
      ? h("ul", {}, ...tables.map((t) => h("li", {}, h("a", { href: `/t/${t.code}` },
        `${title(t.preset)}, ${t.players} seats, host ${t.seats[t.host].name}`))))
      : h("p", { class: "muted" }, "None right now: create one and share its link."));
  } catch (e) {
    fill(box, h("h2", {}, "Open tables"), h("p", { class: "error" }, e.message));
  }
}

async function joinScreen(code) {
  const err = errorLine();
  const box = h("div", { class: "card-panel" }, h("p", {}, "Loading the table…"));
  mount(h("div", { class: "screen" }, h("h1", { style: "color:#fff" }, "Pegs & Jokers"), box));
  let table;
  try {
    table = await api("GET", `/api/tables/${encodeURIComponent(code)}`);
  } catch (e) {
    fill(box, h("p", { class: "error" }, e.message), h("a", { href: "/" }, "Back to the start page"));
    return;
  }
  const free = table.seats.filter((s) => s.kind === "empty");
  const watch = h("button", { type: "button", id: "watch", onclick: () => new GameScreen(code, null).start() }, "Watch");
  if (table.status !== "waiting" || !free.length) {
    fill(box, h("h2", {}, "This table has no free seat"),
      h("p", {}, table.status === "waiting" ? "Every seat is taken." : `The game is ${table.status}.`),
      h("div", { class: "row" }, watch, h("a", { href: "/" }, "Start page")));
    return;
  }
  const name = h("input", { name: "name", id: "join-name", required: true, maxlength: 40, autocomplete: "nickname", value: store.name() });
  const form = h("form", {},
    h("h2", {}, `Join ${table.seats[table.host].name}'s table`),
    h("p", { class: "muted" }, `${table.preset}, ${table.players} seats, ${free.length} free.`),
    h("label", {}, h("span", {}, "Your name"), name),
    err,
    h("div", { class: "row" }, h("button", { class: "primary", type: "submit", id: "join-btn" }, "Join"), watch));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    err.textContent = "";
    const chosen = name.value.trim();
    if (!chosen) { err.textContent = "Type your name first."; return; }
    try {
      const joined = await api("POST", `/api/tables/${encodeURIComponent(code)}/join`, { name: chosen });
      store.setName(chosen);
      store.setSeat(code, { token: joined.token, seat: joined.seat, name: chosen });
      new GameScreen(code, store.seat(code)).start();
    } catch (e) {
      err.textContent = e.message;
    }
  });
  fill(box, form);
  name.focus();
}

export function main() {
  const code = tableCode();
  if (!code) return homeScreen();
  const seat = store.seat(code);
  if (seat && seat.token) return new GameScreen(code, seat, { onLostSeat: () => joinScreen(code) }).start();
  return joinScreen(code);
}

main();
