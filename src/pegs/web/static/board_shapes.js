// SVG primitives of the board: elements, text, seat colours, letters and peg shapes.

export const SVG = "http://www.w3.org/2000/svg";
export const D = 28; // distance between neighbouring holes, in SVG units
export const HOLE = 0.28 * D;
export const PEG = 0.49 * D;

// Okabe-Ito based, colour-blind safe; shapes and letters make every seat distinct anyway.
export const PALETTE = {
  red: "#cc2a2a", blue: "#0072b2", yellow: "#f0e442", green: "#009e73",
  purple: "#7b4fb0", orange: "#e69f00", white: "#ffffff", black: "#1d1d1d",
  pink: "#cc79a7", teal: "#56b4e9",
};
const SHAPES = ["circle", "square", "triangle", "diamond", "pentagon", "hexagon",
  "star", "cross", "down", "octagon"];

export function seatColour(board, seat) {
  const name = (board.colours && board.colours[seat]) || "";
  return PALETTE[name.toLowerCase()] || "#888888";
}

export function seatLetter(board, seat) {
  return (board.letters && board.letters[seat]) || String(seat);
}

/** A seat's colour name with a capital ("Blue"), or "Seat 3" when the board has none. */
export function colourName(board, seat) {
  const name = board.colours && board.colours[seat];
  return name ? name[0].toUpperCase() + name.slice(1) : `Seat ${seat}`;
}

export function seatShape(seat) {
  return SHAPES[seat % SHAPES.length];
}

/** Dark or light ink for text drawn on a seat colour. */
export function inkOn(hex) {
  const n = parseInt(hex.slice(1), 16);
  const lum = 0.299 * (n >> 16) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255);
  return lum > 140 ? "#111111" : "#ffffff";
}

export function add(v, w, k = 1) { return [v[0] + k * w[0], v[1] + k * w[1]]; }
export function unit(v) { const l = Math.hypot(v[0], v[1]) || 1; return [v[0] / l, v[1] / l]; }
export function rad(deg) { return (deg * Math.PI) / 180; }

export function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined && v !== null) node.setAttribute(k, String(v));
  }
  if (parent) parent.appendChild(node);
  return node;
}

export function text(parent, x, y, str, attrs = {}) {
  const node = el("text", { x, y, "text-anchor": "middle", "dominant-baseline": "central", ...attrs }, parent);
  node.textContent = str;
  return node;
}

/**
 * Make an SVG text fit `width` (its own units): first a smaller font (down to `least` of
 * its size), then, only if that is not enough, fewer letters and an ellipsis.  Needs the
 * text in the document (it is measured); elsewhere it is left as it is.
 */
export function fitText(node, width, least = 0.6) {
  if (typeof node.getComputedTextLength !== "function" || !node.isConnected) return node;
  let length = node.getComputedTextLength();
  if (!length || length <= width) return node;
  const size = Number(node.getAttribute("font-size"));
  const k = Math.max(least, width / length);
  node.setAttribute("font-size", (size * k).toFixed(2));
  length *= k;
  const full = node.textContent;
  for (let n = full.length - 1; length > width && n > 1; n--) {
    node.textContent = `${full.slice(0, n).trimEnd()}…`;
    length = node.getComputedTextLength();
  }
  if (node.textContent !== full) el("title", {}, node).textContent = full;
  return node;
}

function polygonPoints(n, r, rot = -90) {
  const pts = [];
  for (let i = 0; i < n; i++) {
    const t = rad(rot + (360 * i) / n);
    pts.push(`${(r * Math.cos(t)).toFixed(2)},${(r * Math.sin(t)).toFixed(2)}`);
  }
  return pts.join(" ");
}

/** A seat's peg shape centred on 0,0 with radius r. */
export function shapeElement(shape, r, attrs) {
  switch (shape) {
    case "circle": return el("circle", { r: r * 0.92, ...attrs });
    case "square": return el("rect", { x: -r * 0.8, y: -r * 0.8, width: r * 1.6, height: r * 1.6, rx: r * 0.15, ...attrs });
    case "triangle": return el("polygon", { points: polygonPoints(3, r * 1.18, -90), transform: `translate(0 ${r * 0.18})`, ...attrs });
    case "down": return el("polygon", { points: polygonPoints(3, r * 1.18, 90), transform: `translate(0 ${-r * 0.18})`, ...attrs });
    case "diamond": return el("polygon", { points: polygonPoints(4, r * 1.1, -90), ...attrs });
    case "pentagon": return el("polygon", { points: polygonPoints(5, r, -90), ...attrs });
    case "hexagon": return el("polygon", { points: polygonPoints(6, r, 0), ...attrs });
    case "octagon": return el("polygon", { points: polygonPoints(8, r, 22.5), ...attrs });
    case "star": {
      const pts = [];
      for (let i = 0; i < 10; i++) {
        const t = rad(-90 + 36 * i), rr = i % 2 ? r * 0.62 : r * 1.15;
        pts.push(`${(rr * Math.cos(t)).toFixed(2)},${(rr * Math.sin(t)).toFixed(2)}`);
      }
      return el("polygon", { points: pts.join(" "), ...attrs });
    }
    case "cross": {
      const a = r * 0.4, b = r;
      const pts = [[-a, -b], [a, -b], [a, -a], [b, -a], [b, a], [a, a], [a, b], [-a, b], [-a, a], [-b, a], [-b, -a], [-a, -a]];
      return el("polygon", { points: pts.map((p) => p.join(",")).join(" "), ...attrs });
    }
    default: return el("circle", { r, ...attrs });
  }
}

/** A small SVG badge (shape + letter) for seat `seat`, for use in HTML next to names. */
export function seatBadge(board, seat, size = 22) {
  const svg = el("svg", { viewBox: "-14 -14 28 28", width: size, height: size, class: "badge", "aria-hidden": "true" });
  const colour = seatColour(board, seat);
  const g = el("g", {}, svg);
  g.appendChild(shapeElement(seatShape(seat), 12, { fill: colour, stroke: "#111", "stroke-width": 1.6 }));
  text(g, 0, 1, seatLetter(board, seat), { "font-size": 11, "font-weight": 700, fill: inkOn(colour) });
  return svg;
}
