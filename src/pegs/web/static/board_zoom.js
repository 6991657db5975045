// Zoom and pan for big tables on small screens: pinch, drag and the buttons under the
// board change the SVG viewBox.  A small or touch screen whose holes would be tiny starts
// on the player's own side; on a touch screen the board zooms in on the pegs or holes to
// choose from until they are a finger apart.  Every peg or hole to choose gets a tap area of its own (up to 44 px across),
// cut where it meets a neighbour's, drawn above everything else.

import { D, el } from "./board_shapes.js";

/** Hole spacing on screen (px) under which a board starts zoomed on the player's side. */
const SMALL_HOLES_PX = 10;
/** A board narrower than this (px) is on a small screen. */
const NARROW_PX = 600;
/** A finger's tap: the on-screen size of each choice's tap area on a touch screen. */
const FINGER_PX = 46;
const MOUSE_PX = 24;
/** The height of a trail's number badge on screen, where the board's size allows. */
const BADGE_PX = 26;
/** The closest zoom shows this many hole spacings across (holes a finger and a half apart
 * on a phone: enough for two holes at a corner of a square board to be a finger apart). */
const CLOSEST = 5 * D;
const DRAG_PX = 8;
/** The widest the view of the player's side gets (width / height). */
const HOME_ASPECT = 1.4;

const zooms = new WeakMap();

/** The zoom of board `svg` (made on first use, with its buttons after the board). */
export function boardZoom(svg) {
  let z = zooms.get(svg);
  if (!z) {
    z = new BoardZoom(svg);
    zooms.set(svg, z);
  }
  return z;
}

function coarse() {
  return typeof matchMedia === "function" && matchMedia("(pointer: coarse)").matches;
}

function boxOf(points, pad) {
  const xs = points.map((p) => p[0]), ys = points.map((p) => p[1]);
  const x = Math.min(...xs) - pad, y = Math.min(...ys) - pad;
  return { x, y, w: Math.max(...xs) + pad - x, h: Math.max(...ys) + pad - y };
}

/** The part of a circle round `site` nearer to it than to any site of another key. */
function cell(site, sites, r) {
  let poly = [];
  for (let i = 0; i < 20; i++) {
    const t = (Math.PI * 2 * i) / 20;
    poly.push([site.x + r * Math.cos(t), site.y + r * Math.sin(t)]);
  }
  for (const o of sites) {
    if (o.key === site.key || Math.hypot(o.x - site.x, o.y - site.y) > 2 * r) continue;
    const n = [o.x - site.x, o.y - site.y];
    const m = [(o.x + site.x) / 2, (o.y + site.y) / 2];
    const side = (p) => (p[0] - m[0]) * n[0] + (p[1] - m[1]) * n[1];
    const out = [];
    poly.forEach((p, i) => {
      const q = poly[(i + 1) % poly.length];
      const sp = side(p), sq = side(q);
      if (sp <= 0) out.push(p);
      if ((sp < 0) !== (sq < 0) && sp !== sq) {
        const t = sp / (sp - sq);
        out.push([p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])]);
      }
    });
    poly = out;
    if (!poly.length) break;
  }
  return poly;
}

/** The smallest distance between a site of `chosen` and a site of another key in `sites`
 * (Infinity when there is none): each of those cuts a choice's tap area halfway. */
function spacing(chosen, sites) {
  let best = Infinity;
  for (const a of chosen) {
    for (const b of sites) {
      if (a.key !== b.key) best = Math.min(best, Math.hypot(a.x - b.x, a.y - b.y));
    }
  }
  return best;
}

/** The centre of a `w` by `h` window showing the most `chosen` sites (an `anchor` counts
 * half), the nearest to `near` of equally good ones. */
function busiest(chosen, anchor, w, h, near) {
  let best = null;
  for (const c of chosen) {
    const inside = chosen.filter((s) => Math.abs(s.x - c.x) <= w / 2 && Math.abs(s.y - c.y) <= h / 2);
    const box = boxOf(inside.map((s) => [s.x, s.y]), 0);
    const at = [box.x + box.w / 2, box.y + box.h / 2];
    const score = inside.length + (anchor && Math.abs(anchor.x - at[0]) <= w / 2 && Math.abs(anchor.y - at[1]) <= h / 2 ? 0.5 : 0);
    const far = Math.hypot(at[0] - near[0], at[1] - near[1]);
    if (!best || score > best.score || (score === best.score && far < best.far)) best = { score, far, at };
  }
  return best.at;
}

class BoardZoom {
  constructor(svg) {
    this.svg = svg;
    this.full = null;
    this.view = null;
    this.rest = null; // the view to go back to after zooming in on choices
    this.sites = [];
    this.layer = null;
    this.pointers = new Map();
    this.gesture = null;
    this.tools = null;
    svg.addEventListener("pointerdown", (e) => this.down(e));
    svg.addEventListener("pointermove", (e) => this.move(e));
    for (const name of ["pointerup", "pointercancel", "pointerleave"]) svg.addEventListener(name, (e) => this.up(e));
    svg.addEventListener("click", (e) => {
      if (this.dragged) { e.stopPropagation(); e.preventDefault(); this.dragged = false; }
    }, true);
    svg.addEventListener("wheel", (e) => {
      if (!e.ctrlKey || !this.view) return;
      e.preventDefault();
      this.zoomAt(Math.exp(-e.deltaY / 200), this.toBoard(e.clientX, e.clientY));
    }, { passive: false });
  }

  /** Buttons after the board: zoom out and in, the whole board, my side, and the peg list. */
  toolbar(onList) {
    if (this.tools && this.tools.isConnected) return this.tools;
    const parent = this.svg.parentElement;
    if (!parent) return null;
    const button = (label, title, action, id) => {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = label;
      b.title = title;
      // a word is its own name (the title describes it); a sign is named by its title
      if (!/\w/.test(label)) b.setAttribute("aria-label", title);
      b.id = id;
      b.addEventListener("click", action);
      return b;
    };
    const tools = document.createElement("div");
    tools.className = "board-tools";
    tools.append(
      button("−", "Zoom out", () => this.zoomAt(1 / 1.5), "zoom-out"),
      button("+", "Zoom in", () => this.zoomAt(1.5), "zoom-in"),
      button("Whole board", "Show the whole board", () => this.show(this.full), "zoom-all"),
      button("My side", "Show my side of the board", () => this.show(this.home), "zoom-mine"),
      button("Peg list", "Show or hide the list of where the pegs are", onList, "peg-list-btn"));
    tools.lastChild.setAttribute("aria-pressed", "false");
    this.svg.after(tools);
    this.tools = tools;
    return tools;
  }

  /** Screen pixels per board unit at `view` (the current one by default).  The board's
   * height follows its view up to its highest (or is that height): either way a view
   * shows at this scale, whatever the view drawn now. */
  scale(view = this.view) {
    const r = this.svg.getBoundingClientRect();
    if (!view || !r.width) return 1;
    return Math.min(r.width / view.w, this.highest(r) / view.h);
  }

  highest(r) {
    const most = parseFloat(getComputedStyle(this.svg).maxHeight);
    return Number.isFinite(most) && most > 0 ? most : (r.height || r.width);
  }

  toBoard(clientX, clientY) {
    const r = this.svg.getBoundingClientRect();
    const k = this.scale();
    const v = this.view;
    const ox = (r.width - v.w * k) / 2, oy = (r.height - v.h * k) / 2;
    return [v.x + (clientX - r.left - ox) / k, v.y + (clientY - r.top - oy) / k];
  }

  /**
   * A view of width/height `aspect` (the full board's by default) around `box`, kept
   * inside the full board.
   */
  fitted(box, aspect = this.full.w / this.full.h) {
    const full = this.full;
    let w = Math.max(box.w, box.h * aspect, CLOSEST);
    w = Math.min(w, full.w, full.h * aspect);
    const h = w / aspect;
    const cx = box.x + box.w / 2, cy = box.y + box.h / 2;
    return this.clamp({ x: cx - w / 2, y: cy - h / 2, w, h });
  }

  clamp(v) {
    const f = this.full;
    return { ...v, x: Math.min(Math.max(v.x, f.x), f.x + f.w - v.w), y: Math.min(Math.max(v.y, f.y), f.y + f.h - v.h) };
  }

  /**
   * After a drawing: `full` the whole board's box, `home` the box of the viewer's side,
   * `sites` the pegs and holes to choose ({key, x, y, node?}), `layer` for their tap areas.
   */
  update(full, home, sites, layer) {
    const same = this.full && Math.abs(this.full.w - full.w) < 1 && Math.abs(this.full.h - full.h) < 1;
    this.full = full;
    // the player's side is wide and low: its view is too, so the board takes less height
    this.home = this.fitted(home, Math.min(HOME_ASPECT, Math.max(full.w / full.h, home.w / home.h)));
    if (!same) {
      this.view = full;
      this.rest = null;
      const narrow = this.svg.getBoundingClientRect().width < NARROW_PX;
      if (D * this.scale(full) < SMALL_HOLES_PX && (narrow || coarse())) this.view = this.home;
    }
    this.sites = sites;
    this.layer = layer;
    this.focus();
    this.apply();
  }

  /**
   * On a touch screen, show the choices (the sites marked `focus`) a finger apart from
   * every other site: the view as it is when it does; else all of them, zooming out when
   * they are far apart; else, zoomed in, as many of them as fit (and the chosen peg,
   * `anchor`); the rest stay a pan away, and the panel lists them all.
   */
  focus() {
    const sites = this.sites;
    const chosen = sites.filter((s) => s.focus);
    if (!coarse() || !chosen.length) {
      if (this.rest) this.view = this.rest;
      this.rest = null;
      return;
    }
    const base = this.rest || this.view;
    const gap = spacing(chosen, sites);
    const need = Number.isFinite(gap) ? FINGER_PX / gap : 0;
    const box = boxOf(chosen.map((s) => [s.x, s.y]), 1.2 * D);
    const inside = (v) => box.x >= v.x && box.y >= v.y && box.x + box.w <= v.x + v.w && box.y + box.h <= v.y + v.h;
    if (this.scale(base) >= need && inside(base)) {
      this.view = base;
      this.rest = null;
      return;
    }
    this.rest = base;
    const r = this.svg.getBoundingClientRect();
    // all of them, the board as high as it may be if they need it
    const all = this.fitted(box, Math.max(r.width / this.highest(r), box.w / box.h));
    if (this.scale(all) >= need && inside(all)) {
      this.view = all;
      return;
    }
    const aspect = base.w / base.h;
    const w = Math.min(r.width, this.highest(r) * aspect) / need, h = w / aspect;
    const anchor = sites.find((s) => s.anchor);
    const [cx, cy] = busiest(chosen, anchor, w - 2.4 * D, h - 2.4 * D, [base.x + base.w / 2, base.y + base.h / 2]);
    this.view = this.fitted({ x: cx - w / 2, y: cy - h / 2, w, h }, aspect);
  }

  show(view) {
    if (!view) return;
    this.rest = null;
    this.view = this.clamp(view);
    this.apply();
  }

  zoomAt(factor, at) {
    if (!this.view) return;
    const v = this.view;
    const [cx, cy] = at || [v.x + v.w / 2, v.y + v.h / 2];
    const w = Math.min(this.full.w, Math.max(CLOSEST, v.w / factor));
    const k = w / v.w;
    this.rest = null;
    // zoomed out all the way: the whole board, in its own shape
    this.view = w >= this.full.w ? this.full
      : this.clamp({ x: cx - (cx - v.x) * k, y: cy - (cy - v.y) * k, w, h: Math.min(v.h * k, this.full.h) });
    this.apply();
  }

  apply() {
    const v = this.view;
    if (!v) return;
    this.svg.setAttribute("viewBox", `${v.x.toFixed(1)} ${v.y.toFixed(1)} ${v.w.toFixed(1)} ${v.h.toFixed(1)}`);
    const zoomed = v.w < this.full.w * 0.98;
    this.svg.classList.toggle("zoomed", zoomed);
    this.svg.dataset.zoom = (this.full.w / v.w).toFixed(2);
    this.sizeBadges();
    this.drawTaps();
  }

  /** The trail's number badges (drawn up to twice their size so that they read on a
   * whole big board) no bigger than a badge of BADGE_PX once zoomed in. */
  sizeBadges() {
    const s = this.scale();
    for (const mark of this.svg.querySelectorAll(".trail-mark[data-at]")) {
      const k = Math.max(1, Math.min(Number(mark.dataset.k), BADGE_PX / (0.92 * D * s)));
      mark.setAttribute("transform", `translate(${mark.dataset.at}) scale(${k.toFixed(2)})`);
    }
  }

  /** One tap area per choice: a circle of a finger's size, cut halfway to its neighbours. */
  drawTaps() {
    if (!this.layer) return;
    while (this.layer.firstChild) this.layer.removeChild(this.layer.firstChild);
    const r = Math.max(0.55 * D, (coarse() ? FINGER_PX : MOUSE_PX) / 2 / this.scale());
    for (const site of this.sites) {
      const poly = cell(site, this.sites, r);
      if (poly.length < 3) continue;
      const points = poly.map((p) => `${(p[0] - (site.node ? site.x : 0)).toFixed(1)},${(p[1] - (site.node ? site.y : 0)).toFixed(1)}`).join(" ");
      if (site.node) {
        site.node.querySelectorAll(".tap-cell").forEach((n) => n.remove());
        el("polygon", { points, class: "tap-cell" }, site.node);
      } else {
        el("polygon", { points, class: "tap-cell", "data-target": site.key }, this.layer);
      }
    }
  }

  // --- pinch and drag ------------------------------------------------------------------
  down(e) {
    if (!this.view) return;
    this.pointers.set(e.pointerId, [e.clientX, e.clientY]);
    const pts = [...this.pointers.values()];
    if (pts.length === 1) {
      this.gesture = { kind: "drag", start: pts[0], view: this.view, moved: false };
    } else if (pts.length === 2) {
      const mid = [(pts[0][0] + pts[1][0]) / 2, (pts[0][1] + pts[1][1]) / 2];
      this.gesture = { kind: "pinch", dist: Math.hypot(pts[0][0] - pts[1][0], pts[0][1] - pts[1][1]) || 1,
        at: this.toBoard(mid[0], mid[1]), view: this.view };
      this.dragged = true;
    }
  }

  move(e) {
    if (!this.pointers.has(e.pointerId) || !this.gesture) return;
    const last = this.pointers.get(e.pointerId);
    this.pointers.set(e.pointerId, [e.clientX, e.clientY]);
    const g = this.gesture;
    const pts = [...this.pointers.values()];
    if (g.kind === "pinch" && pts.length === 2) {
      const dist = Math.hypot(pts[0][0] - pts[1][0], pts[0][1] - pts[1][1]);
      this.view = g.view;
      this.zoomAt(dist / g.dist, g.at);
    } else if (g.kind === "drag") {
      const dx = e.clientX - g.start[0], dy = e.clientY - g.start[1];
      if (!g.moved && Math.hypot(dx, dy) < DRAG_PX) return;
      g.moved = true;
      this.dragged = true;
      if (this.svg.classList.contains("zoomed")) {
        const k = this.scale();
        this.rest = null;
        this.view = this.clamp({ ...g.view, x: g.view.x - dx / k, y: g.view.y - dy / k });
        this.apply();
      } else if (e.pointerType === "touch") {
        window.scrollBy(0, last[1] - e.clientY); // the whole board shows: the page scrolls
      }
    }
  }

  up(e) {
    this.pointers.delete(e.pointerId);
    if (this.pointers.size === 0) {
      this.gesture = null;
      if (!this.dragged) return;
      // the click that ends a drag or pinch is not a tap: it is dropped once, soon
      setTimeout(() => { this.dragged = false; }, 0);
    }
  }
}
