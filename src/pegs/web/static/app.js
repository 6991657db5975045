// The page's screens: create a table, join one by its link, then the game (game.js).

import { fill, h, mount, store } from "./dom.js";
import { api, loadPresets } from "./net.js";
import { GameScreen } from "./game.js";
import { houseEditor, houseLine, publishedPanel } from "./house.js";
import { listNames, teamName } from "./people.js";
import { AWAY_TIMES, BOT_LEVELS, BOT_PACES, cueNodes, gameName, plainCue, setGameNames, SETTINGS, TURN_TIMES, valueWords } from "./words.js";

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

/** A labelled field with one line of explanation under it: the label names the control,
 * the line describes it (outside the label, so a screen reader reads it once). */
function field(label, input, help) {
  const id = input.id || `f-${input.name}`;
  input.id = id;
  const note = help ? h("small", { class: "help", id: `${id}-help` }, help) : null;
  if (note) input.setAttribute("aria-describedby", note.id);
  return h("div", { class: "field" }, h("label", { for: id }, h("span", {}, label)), input, note);
}

/** A check box with its label and, outside the label, its line of help. */
function checkField(input, label, help) {
  const note = h("small", { class: "help", id: `${input.id}-help` }, help);
  input.setAttribute("aria-describedby", note.id);
  return h("div", { class: "row check" }, input, h("div", {}, h("label", { for: input.id }, label), note));
}

/** A select of [value, words] pairs; the value is kept as text in the option. */
function choiceSelect(name, pairs, selected) {
  return h("select", { name, id: name }, ...pairs.map(([value, words]) =>
    h("option", { value: value === null ? "" : String(value), selected: value === selected }, words)));
}

function settingField(name, value) {
  const words = SETTINGS[name] || { label: name.replaceAll("_", " "), help: "" };
  const rulesSay = `as the rules say (${valueWords(name, value)})`;
  let input;
  if (typeof value === "boolean") {
    input = h("select", { name, "data-kind": "bool" }, h("option", { value: "" }, rulesSay),
      h("option", { value: "true" }, "yes"), h("option", { value: "false" }, "no"));
  } else if (words.choices) {
    input = h("select", { name, "data-kind": Array.isArray(value) ? "list" : "text" },
      h("option", { value: "" }, rulesSay),
      ...Object.entries(words.choices).map(([v, w]) => h("option", { value: v === "" ? "none" : v }, w)));
  } else {
    input = h("input", { name, type: "number", inputmode: "numeric", placeholder: `as the rules say: ${value}`, "data-kind": "number" });
  }
  input.id = `setting-${name}`;
  const help = `${words.help}${PLAYER_DEPENDENT.has(name) ? " The rules' number follows the players." : ""}`;
  const wrap = field(words.label, input, help);
  input.addEventListener("change", () => wrap.classList.toggle("changed", input.value !== ""));
  return wrap;
}

/** The overrides chosen in the rules' settings (only the changed ones). */
function readSettings(form) {
  const out = {};
  for (const input of form.querySelectorAll(".rule-settings [name]")) {
    const v = input.value.trim();
    if (v === "") continue;
    const kind = input.dataset.kind;
    if (kind === "bool") out[input.name] = v === "true";
    else if (kind === "list") out[input.name] = v === "none" ? [] : v.split(",");
    else if (kind === "number") out[input.name] = Number(v);
    else out[input.name] = v;
  }
  return out;
}

/** The team choices for `players` seats: none (unless the rules need teams), 2 teams, ... */
function teamChoices(players, needsTeams) {
  const out = needsTeams ? [] : [[0, "none: everyone plays for themselves"]];
  for (let t = 2; t <= 5; t += 1) {
    if (players % t === 0 && players / t >= 2) out.push([t, `${t} teams of ${players / t}`]);
  }
  return out;
}

async function homeScreen() {
  const err = errorLine();
  const form = h("form", { class: "card-panel", id: "create" });
  mount(h("div", { class: "screen" },
    h("h1", { style: "color:#fff" }, "Pegs & Jokers"),
    myGamesPanel(),
    form,
    h("div", { class: "card-panel", id: "open-tables" }, h("h2", {}, "Open tables"), h("p", { class: "muted" }, "Loading…")),
    h("div", { class: "card-panel", id: "published" })));
  let data;
  try {
    data = await loadPresets();
  } catch (e) {
    fill(form, h("p", { class: "error" }, e.message));
    return;
  }
  const presets = data.presets || [];
  setGameNames(presets);
  const presetSelect = h("select", { name: "preset", id: "preset" },
    ...presets.map((p) => h("option", { value: p.name }, gameName(p.name, p.title))));
  const players = h("select", { name: "players", id: "players" });
  const teams = h("select", { name: "teams", id: "teams" });
  const grid = h("div", { class: "settings-grid rule-settings" });
  const cue = h("div", { class: "cue", id: "create-cue" });
  const level = choiceSelect("bot-level", BOT_LEVELS.map((b) => [b.value, `${b.label}: ${b.help}`]), "club");
  const turnTime = choiceSelect("turn-seconds", TURN_TIMES, TURN_TIMES[0][0]);
  const awayTime = choiceSelect("away-seconds", AWAY_TIMES, AWAY_TIMES[0][0]);
  const pace = choiceSelect("bot-delay", BOT_PACES, BOT_PACES[0][0]);
  const current = () => presets.find((x) => x.name === presetSelect.value) || presets[0];
  const showTeams = () => {
    const p = current();
    const n = Number(players.value);
    const needsTeams = p.defaults.control === "team";
    const keep = teams.value;
    const usual = n >= 4 && n % 2 === 0 ? 2 : 0;
    fill(teams, ...teamChoices(n, needsTeams).map(([t, words]) =>
      h("option", { value: t, selected: keep !== "" ? String(t) === keep : t === usual }, words)));
  };
  const showPreset = () => {
    const p = current();
    const keep = players.value || "4";
    fill(players, ...(p.players || [2, 3, 4, 5, 6, 7, 8, 9, 10]).map((n) =>
      h("option", { value: n, selected: String(n) === keep }, `${n} players`)));
    fill(grid, ...Object.entries(p.defaults)
      .filter(([k]) => !HIDDEN_SETTINGS.has(k))
      .map(([k, v]) => settingField(k, v)));
    fill(cue, ...cueNodes(plainCue(p.cue, p.name)));
    showTeams();
  };
  presetSelect.addEventListener("change", showPreset);
  players.addEventListener("change", showTeams);
  const name = h("input", { name: "name", id: "name", required: true, maxlength: 40, autocomplete: "nickname", value: store.name() });
  const hints = h("input", { type: "checkbox", name: "hints", id: "hints", checked: true });
  const listed = h("input", { type: "checkbox", name: "public", id: "public" });
  const teaching = h("input", { type: "checkbox", name: "teaching", id: "teaching" });
  const watchersTalk = h("input", { type: "checkbox", name: "spectators_chat", id: "spectators-chat-option" });
  form.append(
    h("h2", {}, "New table"),
    h("div", { class: "settings-grid" },
      field("Your name", name, "What the others see."),
      field("Game", presetSelect, "The rules you play by; the cue card below sums them up."),
      field("Players", players, "Seats at the table, you included. Empty seats get bots."),
      field("Teams", teams, "Partners sit apart, alternating, and win together."),
      field("Bots for empty seats", level, "How well the computer players play."),
      field("Bots' pace", pace, "How long each bot waits before its move, so everyone can follow."),
      field("Time for a turn", turnTime, "When a player's time runs out, a bot moves for them."),
      field("Someone away", awayTime, "A bot plays for a player who left, until they come back.")),
    checkField(hints, "Allow hints", "A player may ask for a suggested move."),
    checkField(listed, "List this table publicly",
      "Anyone can find it on the start page; otherwise only people with the link can join."),
    checkField(teaching, "Teaching table",
      "For learning: partners get their own chat and may show each other a move on the board (with hints allowed, everyone may ask for one)."),
    checkField(watchersTalk, "Spectators may chat", "Otherwise they read the table talk only."),
    h("details", {}, h("summary", {}, "More rules (as the game says unless you change them)"), grid),
    h("details", {}, h("summary", {}, "Cue card"), cue),
    err,
    h("button", { class: "primary", type: "submit", id: "create-btn" }, "Create table"));
  const house = houseEditor({ form, presets, presetSelect, cue, readSettings: () => readSettings(form),
    tableSize: () => ({ players: Number(players.value), ...(teams.value !== "" ? { teams: Number(teams.value) } : {}) }) });
  cue.closest("details").before(house.node);
  showPreset();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    err.textContent = "";
    const body = { preset: presetSelect.value, name: name.value.trim(), players: Number(players.value),
      settings: readSettings(form), hints: hints.checked };
    if (teams.value !== "") body.teams = Number(teams.value);
    const powers = house.powers();
    if (Object.keys(powers).length) body.settings.powers = powers;
    if (house.label()) body.house = house.label();
    // the table options are sent only when they differ from the server's defaults
    if (listed.checked) body.public = true;
    if (teaching.checked) body.teaching = true;
    if (watchersTalk.checked) body.spectators_chat = true;
    const chosen = (select) => (select.value === "" ? null : Number(select.value));
    if (chosen(turnTime) !== TURN_TIMES[0][0]) body.turn_seconds = chosen(turnTime);
    if (chosen(awayTime) !== AWAY_TIMES[0][0]) body.away_seconds = chosen(awayTime);
    if (chosen(pace) !== BOT_PACES[0][0]) body.bot_delay = chosen(pace);
    if (!body.name) { err.textContent = "Type your name first."; return; }
    const bot = BOT_LEVELS.find((b) => b.value === level.value) || BOT_LEVELS[1];
    try {
      const made = await api("POST", "/api/tables", body);
      store.setName(body.name);
      store.setSeat(made.code, { token: made.token, seat: made.seat, name: body.name });
      store.setBots(made.code, { bot: bot.bot, strength: bot.strength, level: bot.label });
      location.assign(`/t/${made.code}`);
    } catch (e) {
      err.textContent = e.message;
    }
  });
  listOpenTables();
  publishedPanel(document.getElementById("published"));
  const shared = new URLSearchParams(location.search).get("house");
  if (shared) house.open(shared);
}

async function listOpenTables() {
  const box = document.getElementById("open-tables");
  try {
    const { tables } = await api("GET", "/api/tables");
    fill(box, h("h2", {}, "Open tables"), tables.length
      ? h("ul", {}, ...tables.map((t) => h("li", {}, h("a", { href: `/t/${t.code}` },
        `${gameName(t.preset, t.title)}, ${t.players} seats, host ${t.seats[t.host].name}`))))
      : h("p", { class: "muted" }, "None right now: create one and share its link."));
  } catch (e) {
    fill(box, h("h2", {}, "Open tables"), h("p", { class: "error" }, e.message));
  }
}

/** At a table with teams, which team to join (the first free seat of each team with one):
 * the teams with people first, the first of them chosen. */
function teamChoice(table, free) {
  if (!table.teams) return null;
  const firstFree = new Map();
  for (const s of free) if (!firstFree.has(s.seat % table.teams)) firstFree.set(s.seat % table.teams, s.seat);
  if (firstFree.size < 2) return null;
  const teams = [...firstFree.entries()].map(([team, seat]) => ({ team, seat,
    mates: table.seats.filter((s) => s.seat % table.teams === team && s.kind !== "empty").map((s) => s.name) }));
  teams.sort((a, b) => (b.mates.length > 0) - (a.mates.length > 0) || a.team - b.team);
  const options = teams.map(({ team, seat, mates }, i) => {
    return h("label", { class: "row check" }, h("input", { type: "radio", name: "seat", value: seat, checked: i === 0 }),
      h("span", {}, teamName(team), mates.length ? `, with ${listNames(mates)}` : ", nobody there yet"));
  });
  return h("fieldset", { class: "team-choice", id: "team-choice" }, h("legend", {}, "Your team"), ...options);
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
      h("p", {}, table.status === "waiting" ? "Every seat is taken."
        : table.status === "playing" ? "They are already playing: you may watch." : "This game is over: you may watch its end."),
      h("div", { class: "row" }, watch, h("a", { href: "/" }, "Start page")));
    return;
  }
  const name = h("input", { name: "name", id: "join-name", required: true, maxlength: 40, autocomplete: "nickname", value: store.name() });
  const teams = teamChoice(table, free);
  const form = h("form", {},
    h("h2", {}, `Join ${table.seats[table.host].name}'s table`),
    h("p", { class: "muted" }, `${gameName(table.preset, table.title)}, ${table.players} players, ${free.length} seat${free.length > 1 ? "s" : ""} free.`),
    houseLine(table),
    h("label", {}, h("span", {}, "Your name"), name),
    teams,
    err,
    h("div", { class: "row" }, h("button", { class: "primary", type: "submit", id: "join-btn" }, "Join"), watch));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    err.textContent = "";
    const chosen = name.value.trim();
    if (!chosen) { err.textContent = "Type your name first."; return; }
    try {
      const body = { name: chosen };
      const seat = form.querySelector("input[name=seat]:checked");
      if (seat) body.seat = Number(seat.value);
      const joined = await api("POST", `/api/tables/${encodeURIComponent(code)}/join`, body);
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

/** A personal rejoin link (/t/CODE#seat=TOKEN) puts its seat in this browser, then the
 * token leaves the address bar. */
function takeRejoinLink(code) {
  const m = location.hash.match(/seat=([A-Za-z0-9_-]+)/);
  if (!m) return;
  const held = store.seat(code);
  if (!held || held.token !== m[1]) store.setSeat(code, { token: m[1], seat: null, name: "" });
  history.replaceState(null, "", location.pathname + location.search);
}

const STATUS_WORDS = { waiting: "waiting for the start", playing: "in play", finished: "finished" };

/** The games this browser takes part in (its stored seats), each with its table's state. */
function myGamesPanel() {
  const games = store.games().slice(0, 20);
  const box = h("div", { class: "card-panel", id: "my-games", hidden: !games.length });
  if (!games.length) return box;
  const list = h("ul", { class: "my-games" });
  fill(box, h("h2", {}, "Your games"), list);
  for (const g of games) {
    const item = h("li", { "data-code": g.code }, h("a", { href: `/t/${g.code}` }, `Table ${g.code}`));
    list.append(item);
    api("GET", `/api/tables/${encodeURIComponent(g.code)}`).then((t) => {
      const others = t.seats.filter((s) => s.seat !== g.seat && s.kind !== "empty").map((s) => s.name);
      fill(item, h("a", { href: `/t/${g.code}` }, gameName(t.preset, t.title)),
        h("span", {}, ` ${STATUS_WORDS[t.status] || t.status}`),
        h("small", { class: "help" }, `${g.name ? `You are ${g.name}` : "Your seat"}${others.length ? `, with ${others.join(", ")}` : ""}.`));
    }).catch((e) => {
      if (e.status === 404) { store.dropSeat(g.code); item.remove(); }
    });
  }
  return box;
}

export function main() {
  const code = tableCode();
  if (!code) return homeScreen();
  takeRejoinLink(code);
  const seat = store.seat(code);
  if (seat && seat.token) return new GameScreen(code, seat, { onLostSeat: () => joinScreen(code) }).start();
  return joinScreen(code);
}

main();
