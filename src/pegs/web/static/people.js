// Who sits where: seat names (never two alike), teams, partners and the result line, all
// from a `state` message (its table, rules and board).

import { h } from "./dom.js";

const TEAM_LETTERS = "ABCDE";

function capital(word) {
  return word ? word[0].toUpperCase() + word.slice(1) : word;
}

/** A seat's colour as a word ("Blue"). */
export function colourName(msg, seat) {
  return capital((msg.board.colours || [])[seat] || `seat ${seat}`);
}

/** A seat's display name; a name two seats share gets the seat colour ("Ann (Blue)"). */
export function seatName(msg, seat) {
  const seats = msg.table.seats;
  const s = seats[seat];
  const name = (s && s.name) || `${colourName(msg, seat)} seat`;
  const key = name.toLowerCase();
  const shared = seats.some((o) => o.seat !== seat && o.kind !== "empty" && (o.name || "").toLowerCase() === key);
  return shared ? `${name} (${colourName(msg, seat)})` : name;
}

/** A seat's name inside a sentence: a bot's without its level ("Blue bot"). */
export function shortName(msg, seat) {
  const s = msg.table.seats[seat];
  const m = s && s.kind === "bot" ? /^(.* bot), [^,]+$/.exec(s.name || "") : null;
  return m ? m[1] : seatName(msg, seat);
}

/** An announcement (which names seats by colour: "Red's peg", "Blue doubts") with each
 * seat of the table named as the page names it ("Gran's peg", "Blue bot doubts"). */
export function namedText(msg, text) {
  const colours = (msg && msg.board && msg.board.colours) || [];
  if (!text || !colours.length) return text;
  const seatOf = new Map(colours.map((c, seat) => [capital(c), seat]));
  const words = new RegExp(`\\b(${[...seatOf.keys()].join("|")})\\b`, "g");
  return text.replace(words, (word) => shortName(msg, seatOf.get(word)));
}

/** The rest of an announcement that names the seat acting first (a decision: "Blue
 * doubts Red's face-down Five." gives " doubts Gran's face-down Five."), worded as the page
 * words it; null for one that does not (a card move: "Five. 10 to 15."). */
export function afterActor(msg, seat, text) {
  const own = `${colourName(msg, seat)} `;
  return msg && text && text.startsWith(own) ? ` ${namedText(msg, text.slice(own.length))}` : null;
}

/** A move as one line: "Ann: Five. 10 to 15.", or for a sentence that names the seat
 * acting first "Ann doubts Gran's face-down Five." (never "Ann: Ann doubts ..."). */
export function moveLine(msg, seat, who, text) {
  if (!msg) return `${who}: ${text}`;
  const rest = afterActor(msg, seat, text);
  return rest === null ? `${who}: ${namedText(msg, text)}` : `${who}${rest}`;
}

/** A seat's team (0, 1, ...) or null without teams. */
export function teamOf(msg, seat) {
  const t = msg.rules.teams;
  return t ? seat % t : null;
}

export function teamName(team) {
  return `Team ${TEAM_LETTERS[team] || team + 1}`;
}

/** The seats of a team, in seat order. */
export function teamSeats(msg, team) {
  return msg.table.seats.map((s) => s.seat).filter((q) => teamOf(msg, q) === team);
}

export function isPartner(msg, seat) {
  const me = msg.seat;
  return me >= 0 && seat !== me && msg.rules.teams > 0 && teamOf(msg, seat) === teamOf(msg, me);
}

/** "Ann and Blue bot" / "Ann, Bob and Blue bot". */
export function listNames(names) {
  if (names.length < 2) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/** The small team label shown next to a name (text, not only colour). */
export function teamChip(msg, seat) {
  const team = teamOf(msg, seat);
  if (team === null) return null;
  return h("span", { class: `team-chip team-${team}`, title: teamName(team) }, teamName(team));
}

/** The tags after a name: team, you / your partner, and (with `presence`) stand-in or away. */
export function seatTags(msg, seat, presence = true) {
  const s = msg.table.seats[seat] || {};
  const tags = [teamChip(msg, seat)];
  if (seat === msg.seat) tags.push(h("span", { class: "tag you" }, "you"));
  else if (isPartner(msg, seat)) tags.push(h("span", { class: "tag partner" }, "your partner"));
  if (!presence) return tags.filter(Boolean);
  if (s.standin) tags.push(h("span", { class: "tag" }, "a bot plays for now"));
  else if (s.kind === "human" && !s.connected) tags.push(h("span", { class: "tag away" }, awayWords(s)));
  return tags.filter(Boolean);
}

/** "away", or with the time its stand-in bot takes over (the seat's `away_ends`, Unix
 * seconds) "away, a bot plays from 8:42 PM" (a clock time: the list is not redrawn every
 * second; the seat to act gets a countdown by the status line). */
function awayWords(seat) {
  if (seat.away_ends == null) return "away";
  const at = new Date(seat.away_ends * 1000).toLocaleTimeString([], { hour: "numeric", minute: "2-digit" });
  return `away, a bot plays from ${at}`;
}

/** The end of the game from this seat's side: {headline, detail, won}. */
export function resultLine(msg) {
  const outcome = msg.view.outcome;
  const me = msg.seat;
  const names = (seats) => listNames(seats.map((q) => shortName(msg, q)));
  const won = me >= 0 && outcome.seats.includes(me);
  if (msg.rules.teams) {
    const team = teamOf(msg, outcome.seats[0]);
    const winners = `${teamName(team)}: ${names(teamSeats(msg, team))}`;
    if (won) return { won, headline: `Your team won: ${names(teamSeats(msg, team))}`, detail: `${teamName(team)} brought every peg home first.` };
    if (me >= 0) return { won, headline: `${teamName(team)} won: ${names(teamSeats(msg, team))}`, detail: `Your team (${names(teamSeats(msg, teamOf(msg, me)))}) did not make it this time.` };
    return { won, headline: `${winners} won`, detail: "" };
  }
  if (won) return { won, headline: "You won!", detail: "All your pegs are home first." };
  return { won, headline: `${names(outcome.seats)} won`, detail: "" };
}

/** A name and its chips as one run of text: on a narrow screen it wraps between words and
 * chips, next to the seat's badge (never a chip or a button alone on a line). */
export function whoLine(name, tags) {
  return h("span", { class: "who-line" }, h("span", { class: "player-name" }, name), ...tags.flatMap((tag) => [" ", tag]));
}
