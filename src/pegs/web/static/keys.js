// A whole turn from the keyboard: number keys pick a card, arrows move between the options of
// the current step, Enter confirms (the focused button), Escape goes back a step.  After each
// step the focus goes to the next step's options, so the player never hunts for it.

/** The option groups of a turn, the current step's first. */
const GROUPS = [
  "#doubt .choices button",
  "#send #confirm-btn",
  "#send .choices button",
  "#declare button",
  "#targets button",
  ".confirm-btn",
  "#pegs button",
  "#hand .card:not(:disabled)",
];

/** The buttons of the step the player is at (empty when there is nothing to choose). */
export function currentOptions(root) {
  for (const selector of GROUPS) {
    const found = [...root.querySelectorAll(selector)];
    if (found.length) return found;
  }
  return [];
}

function groupOf(root, element) {
  for (const selector of GROUPS) {
    const found = [...root.querySelectorAll(selector)];
    if (found.includes(element)) return found;
  }
  return null;
}

/** A selector finding "the same" control again after the panel is drawn anew. */
export function controlKey(element) {
  if (!element || element === document.body) return null;
  if (element.id) return `#${CSS.escape(element.id)}`;
  for (const name of ["data-index", "data-peg", "data-target", "data-declared", "data-action"]) {
    const value = element.getAttribute(name);
    if (value !== null) return `[${name}="${CSS.escape(value)}"]`;
  }
  return null;
}

/** After a redraw: keep the focus on the same control if it is among the current options,
 * else on the first of them. */
export function placeFocus(root, key) {
  const options = currentOptions(root);
  const same = key ? root.querySelector(key) : null;
  if (same && typing(same)) return; // never taken out of a field being typed in
  const target = same && (options.includes(same) || !options.length) ? same : options[0];
  if (target && document.activeElement !== target) target.focus();
}

function typing(element) {
  return element && (element.tagName === "INPUT" || element.tagName === "SELECT" || element.tagName === "TEXTAREA");
}

/** Listen for the turn's keys; `screen` answers back() and is told keyboard use. */
export function installKeys(screen) {
  document.addEventListener("pointerdown", () => { screen.keyboard = false; });
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const root = screen.panel;
    if (!root || !root.isConnected || document.querySelector("dialog[open]")) return;
    if (typing(event.target)) {
      if (event.key === "Escape") event.target.blur();
      return;
    }
    screen.keyboard = true;
    const key = event.key;
    if (/^[0-9]$/.test(key)) {
      const index = key === "0" ? 9 : Number(key) - 1;
      const card = root.querySelector(`#hand .card[data-index="${index}"]`);
      if (card && !card.disabled) { event.preventDefault(); card.click(); }
      return;
    }
    if (["ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp"].includes(key)) {
      const group = groupOf(root, document.activeElement) || currentOptions(root);
      if (!group.length) return;
      event.preventDefault();
      const at = group.indexOf(document.activeElement);
      const step = key === "ArrowRight" || key === "ArrowDown" ? 1 : -1;
      const next = at < 0 ? 0 : (at + step + group.length) % group.length;
      group[next].focus();
      return;
    }
    if (key === "Escape") {
      event.preventDefault();
      screen.back();
      return;
    }
    if (key === "Enter" && (!document.activeElement || document.activeElement === document.body)) {
      const options = currentOptions(root);
      if (options.length) { event.preventDefault(); options[0].click(); }
    }
  });
}
