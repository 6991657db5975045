// The board in words: each seat's name, team and partner for the seat labels, and the
// text alternative listing where every seat's pegs are.

import { colourName, seatLetter } from "./board_shapes.js";

const TEAM_LETTERS = "ABCDE";

/** The team of `seat` (board.team_of when the server sends it, else seat mod teams), or null. */
export function teamOf(msg, seat) {
  if (msg.board.team_of) return msg.board.team_of[seat];
  const teams = msg.rules.teams || 0;
  return teams > 1 ? seat % teams : null;
}

export function teamName(team) {
  return `Team ${TEAM_LETTERS[team] || team + 1}`;
}

export function seatName(msg, seat) {
  const s = msg.table && msg.table.seats && msg.table.seats[seat];
  if (s && s.kind === "empty") return "(open seat)";
  return (s && s.name) || `Seat ${seat}`;
}

/** Whether `seat` is a partner (not the viewer) of the viewing seat. */
export function isPartner(msg, seat) {
  const me = msg.seat;
  if (me < 0 || seat === me) return false;
  const mine = teamOf(msg, me);
  return mine !== null && teamOf(msg, seat) === mine;
}

/** The seat label's two lines: {name, detail} ("Ann (bot)", "your partner · Team A · 5 cards"). */
export function seatWords(msg, seat) {
  const info = msg.table && msg.table.seats ? msg.table.seats[seat] : null;
  let name = seatName(msg, seat);
  if (info && info.kind === "bot" && !/bot/i.test(info.name || "")) name += " (bot)";
  // as the seat list says: a stand-in bot covering the seat, else away
  if (info && info.standin) name += " (a bot plays)";
  else if (info && info.kind === "human" && info.connected === false) name += " (away)";
  const parts = [];
  if (seat === msg.seat) parts.push("you");
  else if (isPartner(msg, seat)) parts.push("your partner");
  const team = teamOf(msg, seat);
  if (team !== null) parts.push(teamName(team));
  const cards = msg.view && msg.view.hand_sizes ? msg.view.hand_sizes[seat] : null;
  if (cards !== null && cards !== undefined) parts.push(`${cards} card${cards === 1 ? "" : "s"}`);
  return { name, detail: parts.join(" · ") };
}

/** Where a position is, in words: "START", "home 2", "hole 5 on Gran's side" (the side's
 * seat by name, as its label on the board says). */
export function placeWords(msg, pos) {
  if (pos === "S") return "START";
  if (pos.startsWith("H")) return `home ${pos.slice(1)}`;
  const [side, hole] = pos.split(".").map(Number);
  const owner = msg.board.side_of.indexOf(side);
  if (owner >= 0 && owner === msg.seat) return `hole ${hole} on your side`;
  return owner >= 0 ? `hole ${hole} on ${seatName(msg, owner)}'s side` : `hole ${hole} of side ${side + 1}`;
}

/** One line per seat: who it is and where each of its pegs stands. */
export function pegLines(msg) {
  return msg.view.pegs.map((pegs, seat) => {
    const who = [`${colourName(msg.board, seat)} (${seatLetter(msg.board, seat)})`, seatName(msg, seat)];
    if (seat === msg.seat) who.push("you");
    else if (isPartner(msg, seat)) who.push("your partner");
    const team = teamOf(msg, seat);
    if (team !== null) who.push(teamName(team));
    const start = pegs.filter((p) => p === "S").length;
    const ring = pegs.filter((p) => p.includes(".")).map((p) => placeWords(msg, p));
    const home = pegs.filter((p) => p.startsWith("H")).sort().map((p) => placeWords(msg, p));
    const where = [];
    if (start) where.push(`${start} in START`);
    where.push(...ring, ...home);
    return { seat, text: `${who.join(", ")}: ${where.join("; ")}.` };
  });
}
