// The player's choices on the game screen: the hand, a doubt or the peg to send back, the
// picker's steps in words (card, peg, target, Confirm), the typed notation for those who
// ask for it.  Mixed into GameScreen.

import { h } from "./dom.js";
import { pageMoveWords, spotWords } from "./move_words.js";
import { shortName } from "./people.js";
import { matchTyped } from "./picker.js";

export class PickerView {
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
}
