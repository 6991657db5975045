// House rules on the create page: each card's powers in plain words, the cue card written
// live by the server from the engine's own words, saving with a share link, opening a
// shared one, and the published ones ("Rules other families play").

import { fill, h } from "./dom.js";
import { api } from "./net.js";
import { copyRow } from "./copy.js";
import { cueNodes, gameName, plainCue } from "./words.js";

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "Joker"];
const CARD_WORDS = { A: "Ace", J: "Jack", Q: "Queen", K: "King", Joker: "Joker" };
const STEPS = Array.from({ length: 20 }, (_, i) => i + 1);
const SPLITS = [["", "no split"], ["split7", "split 7 forward"], ["split9", "split 9 (one back)"],
  ["split10", "split 10 (two colours)"]];
const CUE_DELAY_MS = 250;

/** A card's power tokens as the editor's choices. */
function choicesOf(tokens) {
  const c = { out: false, forward: [], back: [], swap: false, split: "", must: false, joker: false };
  for (const t of tokens) {
    const word = t.replace(/!$/, "");
    if (word === "out" || word === "swap" || word === "joker") c[word] = true;
    else if (word.startsWith("split")) { c.split = word; c.must = t.endsWith("!"); }
    else if (t.startsWith("+")) c.forward.push(Number(t.slice(1)));
    else if (t.startsWith("-")) c.back.push(Number(t.slice(1)));
  }
  return c;
}

function stepSelect(name, label, chosen) {
  return h("label", { class: "power" }, h("span", {}, label),
    h("select", { name, "aria-label": label },
      h("option", { value: "" }, "—"),
      ...STEPS.map((n) => h("option", { value: n, selected: n === chosen }, String(n)))));
}

function check(name, label, checked) {
  return h("label", { class: "power" }, h("input", { type: "checkbox", name, checked }), h("span", {}, label));
}

/** A card's powers in a few words, for its row's summary. */
function powerWords(tokens) {
  const words = tokens.map((t) => {
    const word = t.replace(/!$/, "");
    const name = { out: "out of START", swap: "swap", joker: "the Joker's move" }[word]
      || (SPLITS.find(([v]) => v === word) || [])[1]
      || (t.startsWith("+") ? `forward ${t.slice(1)}` : `back ${t.slice(1)}`);
    return t.endsWith("!") ? `must ${name}` : name;
  });
  return words.length ? words.join(", or ") : "no power: choose one";
}

/** One card's row: its moves, then its other powers, as choices (never tokens). */
function cardRow(rank, tokens) {
  const c = choicesOf(tokens);
  const split = h("select", { name: "split", "aria-label": "split" }, ...SPLITS.map(([v, words]) =>
    h("option", { value: v, selected: v === c.split }, words)));
  const must = check("must", "must split", c.must);
  const mustBox = must.querySelector("input");
  const showMust = () => { mustBox.disabled = !split.value; if (!split.value) mustBox.checked = false; };
  split.addEventListener("change", showMust);
  showMust();
  return h("details", { class: "card-row", "data-rank": rank },
    h("summary", {}, h("span", { class: "card-name" }, CARD_WORDS[rank] || rank), h("span", { class: "card-words" }, powerWords(tokens))),
    h("div", { class: "powers" },
      check("out", "out of START", c.out),
      stepSelect("forward", "forward", c.forward[0]),
      stepSelect("forward2", "or forward", c.forward[1]),
      stepSelect("back", "back", c.back[0]),
      stepSelect("back2", "or back", c.back[1])),
    h("div", { class: "powers" },
      check("swap", "swap with another colour", c.swap),
      h("label", { class: "power" }, h("span", {}, "split"), split),
      must,
      rank === "Joker" ? check("joker", "the Joker's move", c.joker) : null));
}

/** A row's choices back as power tokens, in the engine's usual order. */
function rowTokens(row) {
  const get = (name) => row.querySelector(`[name=${name}]`);
  const out = [];
  if (get("out").checked) out.push("out");
  for (const name of ["forward", "forward2"]) if (get(name).value) out.push(`+${get(name).value}`);
  for (const name of ["back", "back2"]) if (get(name).value) out.push(`-${get(name).value}`);
  if (get("swap").checked) out.push("swap");
  if (get("split").value) out.push(get("split").value + (get("must").checked ? "!" : ""));
  if (get("joker") && get("joker").checked) out.push("joker");
  return [...new Set(out)];
}

const sameSet = (a, b) => a.length === b.length && a.every((t) => b.includes(t));

/**
 * The "House rules" part of the create form.  `form` is the create form, `presetSelect` its
 * game choice, `cue` the cue card's box, `readSettings()` the changed settings and
 * `tableSize()` the chosen players and teams.  Answers {node, powers(), label(), open(code)}.
 */
/** The owner tokens of the house rules this browser saved (their author may change them). */
const owners = {
  key: (code) => `pegs.house.${code}`,
  get(code) { try { return localStorage.getItem(this.key(code)); } catch { return null; } },
  keep(code, token) { try { localStorage.setItem(this.key(code), token); } catch { /* storage off */ } },
  forget(code) { try { localStorage.removeItem(this.key(code)); } catch { /* storage off */ } },
};

export function houseEditor({ form, presets, presetSelect, cue, readSettings, tableSize }) {
  const preset = () => presets.find((p) => p.name === presetSelect.value) || presets[0];
  const rows = h("div", { class: "card-rows", id: "card-rows" });
  const title = h("input", { name: "house-title", id: "house-title", maxlength: 80, placeholder: "e.g. Grandma's rules" });
  const description = h("textarea", { name: "house-description", id: "house-description", maxlength: 1000, rows: 2,
    placeholder: "e.g. Fours go back, twenty holes a side." });
  const publish = h("input", { type: "checkbox", id: "house-publish" });
  const status = h("p", { class: "muted", id: "house-status", role: "status" });
  const shared = h("div", { id: "house-share" });
  let savedCode = null;
  // the saved rules the form shows, when this browser saved them (it may change them)
  let ownedCode = null;
  // rules this browser saved are changed in place ("Save changes"), never saved twice
  const saveButton = h("button", { type: "button", id: "house-save", onclick: () => save() }, "Save these rules");
  const showSaveButton = () => { saveButton.hidden = Boolean(ownedCode); };
  // at the top of the create form: the house rules a share link filled it with
  const loaded = h("div", { class: "house-loaded", id: "house-loaded", role: "status", hidden: true });

  const showCards = (cards) => {
    const base = preset().cards;
    fill(rows, ...RANKS.filter((rank) => rank in base).map((rank) => cardRow(rank, (cards && cards[rank]) || base[rank])));
    markChanged();
  };
  /** The cards whose powers differ from the game's: rank -> tokens. */
  const powers = () => {
    const base = preset().cards;
    const out = {};
    for (const row of rows.querySelectorAll(".card-row")) {
      const tokens = rowTokens(row);
      if (!sameSet(tokens, base[row.dataset.rank])) out[row.dataset.rank] = tokens;
    }
    return out;
  };
  function markChanged() {
    const changed = powers();
    for (const row of rows.querySelectorAll(".card-row")) {
      row.classList.toggle("changed", row.dataset.rank in changed);
      row.querySelector(".card-words").textContent = powerWords(rowTokens(row));
    }
  }
  const draft = () => ({ title: title.value.trim(), description: description.value.trim(), base: presetSelect.value,
    settings: readSettings(), cards: powers() });

  let timer = null;
  let asked = 0;
  const showCue = async () => {
    const mine = ++asked;
    const body = draft();
    body.settings = { ...body.settings, ...tableSize() };
    try {
      const { cue: text } = await api("POST", "/api/cue", body);
      if (mine === asked) fill(cue, ...cueNodes(plainCue(text, body.base)));
    } catch (e) {
      if (mine === asked) fill(cue, h("p", { class: "error", id: "cue-error", role: "alert" }, e.message));
    }
  };
  const changed = (event) => {
    // the saved rules' code stays with the table until the rules themselves change
    if (event && event.target.closest(".rule-settings, #house, #preset")) savedCode = null;
    // a card changed: the cue card shows what it now does
    if (event && event.target.closest("#card-rows") && cue.closest("details")) cue.closest("details").open = true;
    markChanged();
    clearTimeout(timer);
    timer = setTimeout(showCue, CUE_DELAY_MS);
  };
  form.addEventListener("change", changed);
  form.addEventListener("input", (event) => { if (event.target.matches("input[type=number], textarea, #house-title")) changed(event); });
  presetSelect.addEventListener("change", () => { showCards(null); changed(); });

  const save = async () => {
    status.textContent = "";
    const body = { ...draft(), publish: publish.checked };
    if (!body.title) { status.textContent = "Give your rules a name first."; title.focus(); return; }
    try {
      const saved = await api("POST", "/api/house", body);
      owners.keep(saved.code, saved.owner_token);
      savedCode = ownedCode = saved.code;
      showSaveButton();
      showSaved(saved);
      refreshPublished();
    } catch (e) {
      status.textContent = e.message;
    }
  };
  const refreshPublished = () => {
    const listed = document.getElementById("published");
    if (listed) publishedPanel(listed);
  };
  /** The author saves the form over the rules they opened: the same code and link. */
  const update = async () => {
    status.textContent = "";
    const body = { ...draft(), publish: publish.checked };
    if (!body.title) { status.textContent = "Give your rules a name first."; title.focus(); return; }
    try {
      const saved = await api("PUT", `/api/house/${encodeURIComponent(ownedCode)}`, body, owners.get(ownedCode));
      savedCode = saved.code;
      showSaved(saved);
      status.textContent = "Changes saved: the same link now gives these rules.";
      refreshPublished();
    } catch (e) {
      status.textContent = e.message;
    }
  };
  const remove = async () => {
    const code = ownedCode;
    if (!window.confirm(`Delete “${title.value.trim() || "these rules"}”? Their link stops working; tables made with them keep their rules.`)) return;
    try {
      await api("DELETE", `/api/house/${encodeURIComponent(code)}`, undefined, owners.get(code));
      owners.forget(code);
      ownedCode = savedCode = null;
      showSaveButton();
      fill(shared);
      status.textContent = "Deleted. The form keeps the rules: save them again to share them anew.";
      refreshPublished();
    } catch (e) {
      status.textContent = e.message;
    }
  };
  const showSaved = (saved) => {
    const url = `${location.origin}${saved.link}`;
    const link = h("input", { id: "house-link", readonly: true, value: url, "aria-label": "Share link of these house rules" });
    const file = URL.createObjectURL(new Blob([saved.toml], { type: "application/toml" }));
    fill(shared, h("p", {}, saved.published ? "Saved and published. Share this link:" : "Saved. Share this link:"),
      copyRow(link, url, "copy-house"),
      h("a", { href: file, download: "house-rules.toml", id: "house-file" }, "Download the house-rules file"),
      ownedCode === saved.code ? h("div", { class: "row" },
        h("button", { type: "button", id: "house-update", onclick: update }, "Save changes to these rules"),
        h("button", { type: "button", id: "house-delete", onclick: remove }, "Delete these rules")) : null);
  };

  /** The line at the top of the form: which house rules the link brought, or why none. */
  const showLoaded = (saved, problem) => {
    const see = h("button", { type: "button", id: "house-loaded-see", onclick: () => {
      node.open = true;
      node.scrollIntoView({ block: "start" });
    } }, "See their cards");
    fill(loaded, saved
      ? [h("strong", {}, `House rules: ${saved.title}`), ` — based on ${gameName(saved.base)}. `,
        saved.description ? h("span", {}, saved.description, " ") : null,
        h("span", {}, "The form below is filled with them: create the table to play them."), " ", see]
      : h("span", { class: "error" }, `The house rules of this link did not open: ${problem}`));
    loaded.hidden = false;
    const heading = form.querySelector("h2");
    if (heading) heading.after(loaded); else form.prepend(loaded);
  };

  /** Fill the form with saved house rules (a share link). */
  const open = async (code) => {
    try {
      const saved = await api("GET", `/api/house/${encodeURIComponent(code)}`);
      presetSelect.value = saved.base;
      presetSelect.dispatchEvent(new Event("change"));
      for (const [name, value] of Object.entries(saved.settings || {})) {
        const input = form.querySelector(`.rule-settings [name="${name}"], select[name="${name}"]#${name}`);
        if (!input) continue;
        input.value = Array.isArray(value) ? (value.join(",") || "none") : String(value);
        input.dispatchEvent(new Event("change", { bubbles: true }));
      }
      title.value = saved.title;
      description.value = saved.description || "";
      showCards(saved.cards);
      for (const row of rows.querySelectorAll(".card-row.changed")) row.open = true;
      node.open = true;
      savedCode = saved.code;
      ownedCode = owners.get(saved.code) ? saved.code : null;
      // someone else's rules are never published again in the visitor's name unasked
      publish.checked = ownedCode ? saved.published : false;
      showSaveButton();
      showSaved(saved);
      status.textContent = `These are “${saved.title}”, based on ${gameName(saved.base)}.`;
      showLoaded(saved);
      await showCue();
    } catch (e) {
      status.textContent = e.message;
      showLoaded(null, e.message);
      node.open = true;
    }
  };

  const node = h("details", { class: "house", id: "house" }, h("summary", {}, "House rules: change what cards do, save and share"),
    h("p", { class: "help" }, "Start from the game above, change the rules under “More rules” and the cards here; the cue card follows."),
    h("div", { class: "settings-grid" },
      labelled(title, "Name of your rules", "The table and the list of rules show it."),
      labelled(description, "A sentence for the players", "What is different, in a few words (optional).")),
    h("p", { class: "help" }, "Each card: what it may do (the player chooses one each time). Open a card to change it."),
    rows,
    h("div", { class: "row check publish-row" }, publish, h("label", { for: "house-publish" }, "Publish them in “Rules other families play”")),
    h("div", { class: "row" }, saveButton),
    status, shared);
  showCards(null);
  return {
    node,
    powers,
    open,
    /** What the new table shows: {title, description, code} (null without a name). */
    label: () => {
      const t = title.value.trim();
      if (!t) return null;
      const out = { title: t, description: description.value.trim() };
      if (savedCode) out.code = savedCode;
      return out;
    },
  };
}

/** A form field: label, control and one line of help (read once, outside the label). */
function labelled(input, label, help) {
  const note = h("small", { class: "help", id: `${input.id}-help` }, help);
  input.setAttribute("aria-describedby", note.id);
  return h("div", { class: "field" }, h("label", { for: input.id }, h("span", {}, label)), input, note);
}

/** The published house rules, a page at a time, each opening the create form with them. */
export async function publishedPanel(box, offset = 0) {
  const head = h("h2", {}, "Rules other families play");
  try {
    const page = await api("GET", `/api/house?limit=10&offset=${offset}`);
    const more = page.offset + page.houses.length < page.total;
    fill(box, head, page.houses.length
      ? h("ul", { id: "published-houses" }, ...page.houses.map((house) => h("li", {},
        h("a", { href: house.link }, house.title), h("span", {}, `, based on ${gameName(house.base)}`),
        house.description ? h("small", { class: "help" }, house.description) : null)))
      : h("p", { class: "muted" }, "None yet: save yours with “Publish” ticked."),
    h("div", { class: "row" },
      offset > 0 ? h("button", { type: "button", onclick: () => publishedPanel(box, Math.max(0, offset - 10)) }, "Newer") : null,
      more ? h("button", { type: "button", id: "published-more", onclick: () => publishedPanel(box, offset + 10) }, "Older") : null));
  } catch (e) {
    fill(box, head, h("p", { class: "error" }, e.message));
  }
}

/** The house rules' title and description a table shows (or null). */
export function houseLine(table) {
  if (!table.house) return null;
  return h("p", { class: "house-title", id: "house-line" }, h("strong", {}, `House rules: ${table.house.title}`),
    table.house.description ? ` — ${table.house.description}` : "");
}

/** The cue card of a table's own rules (its changed cards marked), from the server. */
export async function tableCue(rules, table) {
  const { name, powers, ...settings } = rules;
  const body = { base: name, settings, cards: powers || {} };
  if (table.house) Object.assign(body, { title: table.house.title, description: table.house.description || "" });
  const { cue } = await api("POST", "/api/cue", body);
  return plainCue(cue, name);
}
