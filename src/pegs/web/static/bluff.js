// Bluffing Joker told in full: what a doubt turned over and what follows (the peg sent back
// to START, or an extra turn), worked out from two consecutive `state` messages.

const DECISION = /^(doubt|pass|send )/;

export function isDecision(action) {
  return DECISION.test(action || "");
}

function samePegs(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

function says(announcement, words) {
  return words.some((w) => announcement.toLowerCase().includes(w));
}

/**
 * Lines telling what the last action of `msg` did to a face-down declaration, or null.
 * `prev` is the state before it; `name(seat)` names a seat, `said(text)` words an
 * announcement as the page shows it.
 */
export function doubtStory(prev, msg, name, said = (text) => text) {
  const last = msg.last;
  const before = prev && prev.view && prev.view.pending;
  if (!last || !before || !msg.view || msg.version !== prev.version + 1) return null;
  const declarer = name(before.declarer);
  if (last.action === "doubt") {
    const now = msg.view.pending;
    let bluff, winner, victim, extra;
    if (now && now.chooser >= 0) {
      [winner, victim, extra] = [now.chooser, now.victim, false];
      bluff = victim === before.declarer;
    } else {
      // nobody to send back: the move is made only if it was true
      bluff = samePegs(prev.view.pegs, msg.view.pegs);
      [winner, victim, extra] = bluff ? [last.seat, before.declarer, true] : [before.declarer, last.seat, true];
    }
    const lines = [said(last.announcement)]; // it names the doubter and the declared card itself
    if (!says(last.announcement, ["bluff", "true"])) {
      lines.push(bluff ? `It was a bluff: ${declarer}'s move is not made.` : `It was true: ${declarer}'s move is made.`);
    }
    if (!says(last.announcement, ["start", "extra turn"])) {
      lines.push(extra
        ? `${name(victim)} has no peg on the track to send back, so ${name(winner)} gets an extra turn.`
        : `${name(winner)} chooses one of ${name(victim)}'s pegs to send back to START.`);
    }
    return { bluff, lines };
  }
  if (last.action.startsWith("send ") && before.chooser >= 0) {
    // the announcement names the peg sent back and what became of the declared move
    return { bluff: before.victim === before.declarer, lines: [said(last.announcement)] };
  }
  return null;
}
