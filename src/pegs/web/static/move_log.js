// The game screen's log of moves: kept in this browser, filled from the server for the
// moves it missed, a stand-in's moves marked as the bot's, a face-down card and what
// followed it on one line.  Mixed into GameScreen.

import { seatBadge } from "./board.js";
import { isDecision } from "./bluff.js";
import { fill, h, store } from "./dom.js";
import { api } from "./net.js";
import { afterActor, seatTags } from "./people.js";

export class MoveLog {
  /** Fill the move log from the server when this browser missed part of the game. */
  async fetchLog() {
    this.logFetched = true;
    try {
      const data = await api("GET", `/api/tables/${encodeURIComponent(this.code)}/log`);
      const me = this.mySeat();
      let forMe = 0;
      for (const e of data.log || []) {
        if (me >= 0 && e.seat === me && e.standin && !this.log.some((x) => x.v === e.version)) forMe += 1;
        this.addLog(e.version, e.seat, e.announcement, e.action, Boolean(e.standin), Boolean(e.timed_out));
      }
      if (this.lostCheck != null) {
        const entry = this.log.find((e) => e.v === this.lostCheck);
        if (entry) this.lostMoveCheck(entry);
      }
      // a returning player is told what was done in their name
      if (forMe) {
        const away = `While you were away, a bot made ${forMe === 1 ? "1 move" : `${forMe} moves`} for you (marked in the moves below).`;
        // a lost move's notice, said first, stays with it
        const lost = this.noticeKind === "connection" && this.notice ? `${this.notice} ` : "";
        this.setNotice(lost + away, lost ? "connection" : null);
        this.keepNotice = true;
        this.render();
      }
      this.renderLog();
    } catch {
      // an older server without the log: the page shows the moves it saw
    }
  }

  addLog(version, seat, text, action, standin = false, timedOut = false) {
    if (!text || this.log.some((e) => e.v === version)) return;
    this.log.push({ v: version, seat, text, action, ...(standin ? { standin } : {}), ...(timedOut ? { timedOut } : {}) });
    this.log.sort((a, b) => a.v - b.v);
    store.setLog(this.code, this.log);
  }

  logBlock() {
    // it scrolls: reachable by keyboard, named for a screen reader
    this.logList = h("ol", { class: "log", id: "log", reversed: true, tabindex: "0", "aria-label": "Moves, the latest first" });
    this.renderLog();
    return h("details", { open: true }, h("summary", {}, "Moves"), this.logList);
  }

  renderLog() {
    if (!this.logList || !this.msg) return;
    // a face-down card and the doubt, pass or peg sent back that follow it: one entry
    const groups = [];
    for (const e of this.log.slice(-1000)) {
      const head = groups.at(-1);
      if (head && isDecision(e.action) && / as /.test(head[0].action || "")) head.push(e);
      else groups.push([e]);
    }
    fill(this.logList, ...groups.reverse().map((group) => {
      const last = group.at(-1);
      return h("li", { "data-version": group[0].v, value: group[0].v },
        seatBadge(this.msg.board, group[0].seat, 16), " ",
        // the team and "you" once a line, at a name's first time in it
        ...group.flatMap((e, i) => [i ? " " : null,
          ...this.logWords(e, !group.slice(0, i).some((x) => x.seat === e.seat))]),
        last.note ? h("span", { class: "note" }, ` ${last.note}`) : null);
    }));
  }

  /** One move of the log: who (a stand-in's move is the bot's, not "<name> - you"), the
   * team and "you" next to the name, then the words ("Ann Team B doubts ...", "Ann: Five."). */
  logWords(e, tagged = true) {
    const tags = e.standin || !tagged ? [] : seatTags(this.msg, e.seat, false).flatMap((tag) => [" ", tag]);
    const rest = afterActor(this.msg, e.seat, e.text);
    return [h("span", { class: "who", "data-version": e.v }, this.actor(e.seat, e.standin)), ...tags,
      rest === null ? `: ${this.said(e.text)}` : rest,
      e.timedOut ? h("span", { class: "ran-out" }, ` (${this.name(e.seat)} ran out of time)`) : null];
  }
}
