// "Copy" beside a link: the clipboard where the browser offers it (https, or this computer),
// otherwise the old copy command on the selected text; when neither works, the link is left
// selected and the page says so (a family server on the home network is plain http).

import { h } from "./dom.js";

const TRY_AGAIN_MS = 2500;

/** Copy `text`, shown in `input`: true once it is on the clipboard. */
export async function copyText(input, text) {
  if (navigator.clipboard && window.isSecureContext) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch { /* refused: the copy command below */ }
  }
  input.focus();
  input.select();
  input.setSelectionRange(0, input.value.length);
  try {
    if (document.execCommand("copy")) return true;
  } catch { /* no copy command either */ }
  input.focus();
  input.select();
  return false;
}

/** The link's box, its Copy button (`id`) and a line saying what happened. */
export function copyRow(input, text, id) {
  const note = h("small", { class: "help copy-note", id: `${id}-note`, role: "status" });
  const button = h("button", { type: "button", id, onclick: async () => {
    const copied = await copyText(input, text);
    button.textContent = copied ? "Copied" : "Not copied";
    note.textContent = copied ? "" : "Select and copy the link: this page may not copy here. It is selected now: press Ctrl+C (on a phone, press and hold it).";
    clearTimeout(button.timer);
    if (copied) button.timer = setTimeout(() => { button.textContent = "Copy"; }, TRY_AGAIN_MS);
  } }, "Copy");
  input.addEventListener("focus", () => input.select());
  return h("div", { class: "copy-row" }, h("div", { class: "share" }, input, button), note);
}
