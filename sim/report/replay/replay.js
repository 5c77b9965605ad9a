/* fray replay: a fight's event log (docs/log-format.md) shown on its map, line by line.
 * Everything it shows is read from the events in the page: each event's `positions` and
 * `states` say who moved and who changed; `status` events who went out; the rest is the log. */
"use strict";
(function () {
  const DATA = JSON.parse(document.getElementById("fray-data").textContent);
  const SVG = "http://www.w3.org/2000/svg";
  const TOKEN = 16;          // token radius, pixels
  const GAP = 37;            // between the centres of tokens standing together
  const WIDTH = 960;         // the map's drawing width, pixels
  const MARGIN = 70;
  const MOVE_MS = 650;       // a move's walk at 1x
  const LINE_MS = 1000;      // a line shown while playing, at 1x
  const STRIKES = new Set(["attack", "hit", "miss", "damage", "aim"]);
  const DOWN = new Set(["unconscious", "incapacitated"]);
  const MARKS = {hurt: "!", down: "\u2193", fled: "\u2192", surrendered: "\u2690"};
  const WORDS = {ok: "fighting", dead: "dead", unconscious: "unconscious",
                 incapacitated: "incapacitated", fled: "fled", surrendered: "surrendered"};
  const $ = (id) => document.getElementById(id);
  const map = $("map"), log = $("log"), body = document.body;

  let F = null;              // the fight shown
  let cursor = 0;            // the event shown: the state after it
  let shownSeg = -1;         // the segment the log lists
  let shown = {};            // where each token is drawn now, pixels
  let anim = null;           // a move being walked
  let timer = null;          // playing
  let speed = 1;

  function el(tag, attrs, parent, text) {
    const node = document.createElementNS(SVG, tag);
    for (const k in attrs) node.setAttribute(k, attrs[k]);
    if (text !== undefined) node.textContent = text;
    if (parent) parent.appendChild(node);
    return node;
  }
  function html(tag, cls, parent, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    if (parent) parent.appendChild(node);
    return node;
  }

  // ------------------------------------------------------------------ reading the events
  function prepare(f) {
    if (f.ready) return;
    const ev = f.events;
    f.by = {};
    f.fighters.forEach((p) => { f.by[p.name] = p; });
    f.side = {};
    f.sides.forEach((s) => { f.side[s.name] = s; });
    f.place = {};
    f.places.forEach((p, i) => { f.place[p.name] = i; });
    f.len = {};
    f.paths.forEach((p) => { f.len[p.a + "|" + p.b] = p.m; f.len[p.b + "|" + p.a] = p.m; });
    const end = ev.findIndex((e) => e.type === "end");
    const after = ev.findIndex((e) => e.type === "aftermath");
    f.rounds = end >= 0 ? ev[end].rounds : Math.max(0, ...ev.map((e) => e.round));
    f.settled = after >= 0 ? ev[after].round : f.rounds;
    f.last = after >= 0 ? f.rounds + 1 : f.rounds;
    f.seg = ev.map((e, i) => (after >= 0 && i >= after ? f.rounds + 1 : Math.min(e.round, f.rounds)));
    f.segStart = [];
    for (let i = ev.length - 1; i >= 0; i--) f.segStart[f.seg[i]] = i;
    for (let s = f.last; s >= 0; s--) if (f.segStart[s] === undefined) f.segStart[s] = f.segStart[s + 1] || 0;
    // everyone's place, state and status after each event (shared while unchanged)
    let pos = {}, state = {}, status = {}, called = {};
    f.first = {};
    ev.forEach((e) => {
      if (e.type === "combatant" && e.who && !(e.who in pos) && e.at in f.place) pos[e.who] = {node: e.at};
    });
    f.snap = ev.map((e) => {
      if (e.positions) pos = Object.assign({}, pos, e.positions);
      if (e.states) {
        state = Object.assign({}, state, e.states);
        for (const who in e.states) if (!(who in f.first)) f.first[who] = e.states[who];
      }
      if (e.type === "status" && e.who) status = Object.assign({}, status, {[e.who]: e.status});
      if (e.type === "rollcall" && e.who) called = Object.assign({}, called, {[e.who]: e.state});
      return {pos, state, status, called};
    });
    geometry(f);
    f.ready = true;
  }

  // ------------------------------------------------------------------ the map's geometry
  function geometry(f) {
    // room for the most fighters that ever stand at one place
    const most = {};
    f.snap.forEach((s) => {
      const here = {};
      for (const who in s.pos) if (s.pos[who].node !== undefined) here[s.pos[who].node] = (here[s.pos[who].node] || 0) + 1;
      for (const n in here) most[n] = Math.max(most[n] || 0, here[n]);
    });
    f.radius = f.places.map((p) => {
      const [w, h] = grid(most[p.name] || 0);
      return Math.max(30, Math.hypot(w, h) / 2 + TOKEN + 6);
    });
    const places = f.places.map((p) => [p.x, p.y]);
    frame(f, places);
    // a path that would run through another place bows around it, as fray map draws it;
    // the frame then makes room for the bows
    f.bend = {};
    f.paths.forEach((p) => {
      const i = Math.min(p.a, p.b), j = Math.max(p.a, p.b);
      const through = f.places.some((_, k) => k !== i && k !== j
        && nearSegment(f.node[k], f.node[i], f.node[j], f.radius[k]));
      f.bend[i + "|" + j] = through ? DATA.style.bend : 0;
    });
    const bows = Object.keys(f.bend).filter((k) => f.bend[k])
      .map((k) => f.metres(...along(f, ...k.split("|").map(Number), 0.5)));
    if (bows.length) frame(f, places.concat(bows));
  }

  function frame(f, points) {  // the scale and the drawing's size for points in metres
    const xs = points.map((p) => p[0]), ys = points.map((p) => p[1]);
    const minX = Math.min(...xs), maxX = Math.max(...xs), minY = Math.min(...ys), maxY = Math.max(...ys);
    const spanX = maxX - minX, spanY = maxY - minY;
    const big = Math.max(...f.radius);
    const inner = WIDTH - 2 * (MARGIN + big);
    let scale = spanX > 0 ? inner / spanX : 1;
    if (spanY * scale > 520) scale = 520 / spanY;
    const height = spanY * scale + 2 * (big + 48);  // room for a name above, terrain below
    const offX = (WIDTH - spanX * scale) / 2, offY = (height - spanY * scale) / 2;
    f.px = (x, y) => [offX + (x - minX) * scale, offY + (maxY - y) * scale];
    f.metres = (x, y) => [minX + (x - offX) / scale, maxY - (y - offY) / scale];
    f.node = f.places.map((p) => f.px(p.x, p.y));
    f.height = height;
  }

  function nearSegment([px, py], [xa, ya], [xb, yb], within) {  // mapparts.near_segment
    const dx = xb - xa, dy = yb - ya, length2 = dx * dx + dy * dy;
    if (!length2) return false;
    const t = ((px - xa) * dx + (py - ya) * dy) / length2;
    return t > 0.02 && t < 0.98 && Math.hypot(xa + t * dx - px, ya + t * dy - py) < within;
  }

  function along(f, i, j, share) {  // the point share of the way from node i to node j (i < j)
    const [xa, ya] = f.node[i], [xb, yb] = f.node[j];
    const bend = f.bend[i + "|" + j] || 0;
    const cx = (xa + xb) / 2 - bend * (yb - ya), cy = (ya + yb) / 2 + bend * (xb - xa);
    const u = 1 - share;
    return [u * u * xa + 2 * u * share * cx + share * share * xb,
      u * u * ya + 2 * u * share * cy + share * share * yb];
  }

  function grid(k) {  // the width and height (between centres) of k tokens in a block
    if (k <= 1) return [0, 0];
    const cols = Math.ceil(Math.sqrt(k)), rows = Math.ceil(k / cols);
    return [(cols - 1) * GAP, (rows - 1) * GAP];
  }

  function at(place) {  // a place of the log, in pixels
    if (!place) return null;
    if (place.node !== undefined) return F.node[F.place[place.node]];
    const a = F.place[place.from], b = F.place[place.toward];
    const share = place.m / F.len[a + "|" + b];
    return a < b ? along(F, a, b, share) : along(F, b, a, 1 - share);
  }

  function layout(snap) {  // each fighter's token centre: those standing together in a block
    const groups = new Map();
    F.fighters.forEach((p) => {
      const xy = at(snap.pos[p.name]);
      if (!xy) return;
      const key = Math.round(xy[0]) + "," + Math.round(xy[1]);
      if (!groups.has(key)) groups.set(key, {xy, names: []});
      groups.get(key).names.push(p.name);
    });
    // groups whose blocks would overlap (fighters a few metres apart) share one block,
    // centred between them, in the order they stand along the map
    let blocks = [...groups.values()].map((g) => ({xy: g.xy, names: g.names, parts: [g]}));
    for (let merged = true; merged;) {
      merged = false;
      outer: for (let a = 0; a < blocks.length; a++) {
        for (let b = a + 1; b < blocks.length; b++) {
          const [wa] = grid(blocks[a].names.length), [wb] = grid(blocks[b].names.length);
          const apart = Math.hypot(blocks[a].xy[0] - blocks[b].xy[0], blocks[a].xy[1] - blocks[b].xy[1]);
          if (apart < (wa + wb) / 2 + GAP) {
            const parts = blocks[a].parts.concat(blocks[b].parts);
            const n = parts.reduce((k, p) => k + p.names.length, 0);
            const xy = [0, 1].map((d) => parts.reduce((t, p) => t + p.xy[d] * p.names.length, 0) / n);
            parts.sort((p, q) => p.xy[0] - q.xy[0] || p.xy[1] - q.xy[1]);
            blocks[a] = {xy, names: parts.flatMap((p) => p.names), parts};
            blocks.splice(b, 1);
            merged = true;
            break outer;
          }
        }
      }
    }
    const out = {};
    blocks.forEach(({xy, names}) => {
      const cols = Math.ceil(Math.sqrt(names.length));
      const [w, h] = grid(names.length);
      names.forEach((name, k) => {
        out[name] = [xy[0] - w / 2 + (k % cols) * GAP, xy[1] - h / 2 + Math.floor(k / cols) * GAP];
      });
    });
    return out;
  }

  // ------------------------------------------------------------------ drawing the map
  function contrast(hex) {  // black or white: whichever reads better on the colour
    const c = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
      .map((v) => (v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4)));
    const lum = 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
    return (lum + 0.05) / 0.05 > 1.05 / (lum + 0.05) ? "#000" : "#fff";
  }

  function shape(code, r, attrs, parent) {  // a side's marker, as fray map draws it
    const pts = (list) => el("polygon", Object.assign({points: list.map((p) => p.join(",")).join(" ")}, attrs), parent);
    const s = r * 0.88;
    switch (code) {
      case "s": return el("rect", Object.assign({x: -s, y: -s, width: 2 * s, height: 2 * s}, attrs), parent);
      case "^": return pts([[0, -r * 1.25], [r * 1.15, r * 0.8], [-r * 1.15, r * 0.8]]);
      case "v": return pts([[0, r * 1.25], [r * 1.15, -r * 0.8], [-r * 1.15, -r * 0.8]]);
      case "D": return pts([[0, -r * 1.25], [r * 1.25, 0], [0, r * 1.25], [-r * 1.25, 0]]);
      case "P": {
        const a = r * 0.45, b = r * 1.1;
        return pts([[-a, -b], [a, -b], [a, -a], [b, -a], [b, a], [a, a], [a, b], [-a, b], [-a, a], [-b, a], [-b, -a], [-a, -a]]);
      }
      case "X": {
        const list = [];
        for (let k = 0; k < 6; k++) list.push([r * 1.1 * Math.cos(Math.PI / 3 * k), r * 1.1 * Math.sin(Math.PI / 3 * k)]);
        return pts(list);
      }
      default: return el("circle", Object.assign({r}, attrs), parent);
    }
  }

  function drawMap() {
    while (map.lastChild) map.removeChild(map.lastChild);
    el("title", {id: "map-label"}, map, "The map");
    map.setAttribute("viewBox", `0 0 ${WIDTH} ${Math.round(F.height)}`);
    const defs = el("defs", {}, map);
    const arrow = el("marker", {id: "arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7,
      markerHeight: 7, orient: "auto-start-reverse"}, defs);
    el("path", {d: "M0,0 L10,5 L0,10 z", fill: "#1a1a1a"}, arrow);
    const st = DATA.style;
    const paths = el("g", {class: "paths"}, map);
    const ends = (p) => [Math.min(p.a, p.b), Math.max(p.a, p.b)];
    F.paths.forEach((p) => {
      const [i, j] = ends(p), [x1, y1] = F.node[i], [x2, y2] = F.node[j];
      const [mx, my] = along(F, i, j, 0.5);  // the curve's control point from its middle
      const cx = 2 * mx - (x1 + x2) / 2, cy = 2 * my - (y1 + y2) / 2;
      el("path", {class: "path", d: `M${x1},${y1} Q${cx},${cy} ${x2},${y2}`, fill: "none", stroke: st.edge}, paths);
    });
    F.paths.forEach((p) => {  // lengths above every path's middle
      const [x, y] = along(F, ...ends(p), 0.5);
      const t = el("text", {class: "metres", x, y: y - 6, "text-anchor": "middle"}, paths);
      t.textContent = `${+p.m.toFixed(1)} m`;
    });
    const places = el("g", {class: "places"}, map);
    F.places.forEach((p, i) => {
      const [x, y] = F.node[i], r = F.radius[i];
      const dash = st.visibility[p.visibility] || "";
      el("circle", {class: "place", "data-place": p.name, cx: x, cy: y, r, fill: st.cover[p.cover] || "#fff", stroke: "#333",
        "stroke-width": 2, "stroke-dasharray": dash}, places);
      if (p.width != null) {  // a narrow place: two rails across it
        for (const dy of [-r * 0.35, r * 0.35]) {
          el("line", {class: "narrow", x1: x - r, y1: y + dy, x2: x + r, y2: y + dy, stroke: "#333", "stroke-width": 2}, places);
        }
      }
      if (p.exit) el("text", {class: "exit-mark", x: x + r + 4, y: y + 5}, places, "\u21E5");
      el("text", {class: "place-name", x, y: y - r - 9, "text-anchor": "middle"}, places, p.name);
      const terrain = [p.cover !== "none" ? `${p.cover} cover` : "",
        p.visibility !== "clear" ? `${p.visibility.replace("_", " ")} visibility` : "",
        p.width != null ? `narrow: ${p.width} a side` : "", p.exit ? "exit" : ""].filter(Boolean);
      if (terrain.length) el("text", {class: "terrain", x, y: y + r + 16, "text-anchor": "middle"}, places, terrain.join(", "));
    });
    F.onMap = () => {  // once drawn: names and terrain kept inside the map's edges
      for (const t of places.querySelectorAll("text")) {
        const half = t.getComputedTextLength() / 2, x = +t.getAttribute("x");
        t.setAttribute("x", Math.max(half + 4, Math.min(WIDTH - half - 4, x)));
      }
    };
    el("text", {class: "round-label", id: "map-round", x: 12, y: 22}, map);
    el("g", {id: "strikes"}, map);
    const tokens = el("g", {id: "tokens"}, map);
    F.tokens = {};
    F.fighters.forEach((p) => {
      const side = F.side[p.side] || {colour: "#000", shape: "o"};
      const g = el("g", {class: "token", "data-name": p.name, "data-label": p.label}, tokens);
      el("circle", {class: "ring", r: TOKEN + 6}, g);
      const body = shape(side.shape, TOKEN, {fill: side.colour, stroke: "#1a1a1a", "stroke-width": 1.5}, g);
      const ink = contrast(side.colour);
      const cross = el("g", {class: "cross", visibility: "hidden"}, g);
      el("line", {x1: -TOKEN, y1: -TOKEN, x2: TOKEN, y2: TOKEN, stroke: "#000", "stroke-width": 2.5}, cross);
      el("line", {x1: TOKEN, y1: -TOKEN, x2: -TOKEN, y2: TOKEN, stroke: "#000", "stroke-width": 2.5}, cross);
      const text = el("text", {"text-anchor": "middle", y: side.shape === "^" ? 7 : side.shape === "v" ? 0 : 4,
        fill: ink, "font-size": p.label.length > 3 ? 10 : 12}, g, p.label);
      const badge = el("g", {class: "badge", transform: `translate(${TOKEN * 0.85},${-TOKEN * 0.85})`, visibility: "hidden"}, g);
      el("circle", {r: 8, fill: "#fff", stroke: "#000", "stroke-width": 1.5}, badge);
      const mark = el("text", {"text-anchor": "middle", y: 4, fill: "#000"}, badge);
      const tip = el("title", {}, g);
      F.tokens[p.name] = {g, body, text, ink, cross, badge, mark, tip, colour: side.colour};
    });
    shown = {};
  }

  function legend() {
    const box = $("legend");
    box.textContent = "";
    const item = (draw, words) => {
      const span = html("span", "", box);
      const svg = el("svg", {width: 26, height: 26, viewBox: "-13 -13 26 26", "aria-hidden": "true"}, span);
      draw(svg);
      html("span", "", span, words);
    };
    F.sides.forEach((s) => item((svg) => shape(s.shape, 9, {fill: s.colour, stroke: "#1a1a1a"}, svg), s.name));
    const marked = (mark) => (svg) => {
      el("circle", {r: 9, fill: "#fff", stroke: "#000"}, svg);
      el("text", {"text-anchor": "middle", y: 4, "font-size": 11, "font-weight": 700}, svg, mark);
    };
    item(marked(MARKS.hurt), "hurt (its state changed)");
    item(marked(MARKS.down), "down");
    item(marked(MARKS.fled), "fled");
    item(marked(MARKS.surrendered), "surrendered");
    item((svg) => {
      el("circle", {r: 9, fill: DATA.style.out}, svg);
      el("path", {d: "M-8,-8 L8,8 M8,-8 L-8,8", stroke: "#000", "stroke-width": 2.5}, svg);
    }, "dead");
    item((svg) => el("path", {d: "M-11,0 L8,0 M3,-5 L9,0 L3,5", stroke: "#000", "stroke-width": 2, fill: "none"}, svg),
      "an attack (dashed: a miss)");
    for (const [cover, fill] of Object.entries(DATA.style.cover)) {
      if (F.places.some((p) => p.cover === cover) && cover !== "none") {
        item((svg) => el("circle", {r: 9, fill, stroke: "#333"}, svg), `${cover} cover`);
      }
    }
    for (const [vis, dash] of Object.entries(DATA.style.visibility)) {
      if (F.places.some((p) => p.visibility === vis) && vis !== "clear") {
        item((svg) => el("circle", {r: 9, fill: "#fff", stroke: "#333", "stroke-width": 2, "stroke-dasharray": dash}, svg),
          `${vis.replace("_", " ")} visibility`);
      }
    }
  }

  // ------------------------------------------------------------------ one moment
  function statusOf(snap, name) {
    return snap.status[name] || "ok";
  }

  function drawTokens(animate) {
    const snap = F.snap[cursor];
    const e = F.events[cursor];
    const target = layout(snap);
    const track = animate ? F.tracks[String(cursor)] : null;
    stopWalk();
    const walks = [];
    F.fighters.forEach((p) => {
      const t = F.tokens[p.name];
      const status = statusOf(snap, p.name);
      const hurt = snap.state[p.name] !== undefined && snap.state[p.name] !== F.first[p.name];
      const mark = status === "ok" ? (hurt ? MARKS.hurt : "") : DOWN.has(status) ? MARKS.down : MARKS[status] || "";
      t.g.classList.toggle("out", status !== "ok");
      t.g.classList.toggle("acting", !!(e.who === p.name && (e.target || STRIKES.has(e.type) || e.type === "move")));
      t.g.classList.toggle("targeted", e.target === p.name);
      t.g.setAttribute("data-status", status);
      t.g.setAttribute("data-hurt", hurt ? "1" : "");
      t.body.setAttribute("fill", status === "dead" ? DATA.style.out : t.colour);
      t.body.setAttribute("stroke-dasharray", status === "fled" ? "4 3" : "");
      t.text.setAttribute("fill", status === "dead" ? "#000" : t.ink);
      t.text.setAttribute("class", status === "dead" ? "on-cross" : "");
      t.cross.setAttribute("visibility", status === "dead" ? "visible" : "hidden");
      t.badge.setAttribute("visibility", mark ? "visible" : "hidden");
      t.mark.textContent = mark;
      t.tip.textContent = `${p.name} (${p.side}, ${p.label}): ${WORDS[status] || status}; ${snap.state[p.name] || ""}`;
      const to = target[p.name];
      if (!to) { t.g.setAttribute("visibility", "hidden"); return; }
      t.g.setAttribute("visibility", "visible");
      const from = shown[p.name];
      if (track && track[p.name] && from) {
        const via = track[p.name].slice(1, -1).map(([x, y]) => F.px(x, y));
        walks.push({name: p.name, pts: [from, ...via, to]});
      } else {
        place(p.name, to);
      }
    });
    if (walks.length) walk(walks, target);
    drawStrike(e, target);
  }

  function place(name, xy) {
    shown[name] = xy;
    F.tokens[name].g.setAttribute("transform", `translate(${xy[0].toFixed(1)},${xy[1].toFixed(1)})`);
  }

  function walk(walks, target) {
    walks.forEach((w) => {
      w.lens = [0];
      for (let k = 1; k < w.pts.length; k++) {
        w.lens.push(w.lens[k - 1] + Math.hypot(w.pts[k][0] - w.pts[k - 1][0], w.pts[k][1] - w.pts[k - 1][1]));
      }
    });
    const start = performance.now(), ms = MOVE_MS / speed;
    body.dataset.busy = "1";
    const frame = (now) => {
      const share = Math.min(1, (now - start) / ms);
      const ease = share < 0.5 ? 2 * share * share : 1 - Math.pow(-2 * share + 2, 2) / 2;
      walks.forEach((w) => {
        const total = w.lens[w.lens.length - 1], d = ease * total;
        let k = 1;
        while (k < w.lens.length - 1 && w.lens[k] < d) k++;
        const seg = w.lens[k] - w.lens[k - 1] || 1, s = (d - w.lens[k - 1]) / seg;
        const [xa, ya] = w.pts[k - 1], [xb, yb] = w.pts[k];
        place(w.name, [xa + (xb - xa) * s, ya + (yb - ya) * s]);
      });
      if (share < 1) {
        anim = {raf: requestAnimationFrame(frame), walks};
      } else {
        anim = null;
        walks.forEach((w) => place(w.name, w.pts[w.pts.length - 1]));
        drawStrike(F.events[cursor], target);
        body.dataset.busy = "";
      }
    };
    anim = {raf: requestAnimationFrame(frame), walks};
  }

  function stopWalk() {  // a walk cut short ends where it was going
    if (!anim) return;
    cancelAnimationFrame(anim.raf);
    anim.walks.forEach((w) => place(w.name, w.pts[w.pts.length - 1]));
    anim = null;
    body.dataset.busy = "";
  }

  function drawStrike(e, target) {
    const g = $("strikes");
    while (g.lastChild) g.removeChild(g.lastChild);
    if (!STRIKES.has(e.type) || !e.who || !e.target || !target[e.who] || !target[e.target]) return;
    const [x1, y1] = target[e.who], [x2, y2] = target[e.target];
    const d = Math.hypot(x2 - x1, y2 - y1);
    if (d < 2 * TOKEN + 8) return;
    const ux = (x2 - x1) / d, uy = (y2 - y1) / d, cut = TOKEN + 7;
    const missed = e.type === "miss" || e.hit === false;
    el("line", {class: "strike" + (missed ? " missed" : ""), x1: x1 + ux * cut, y1: y1 + uy * cut,
      x2: x2 - ux * cut, y2: y2 - uy * cut, "marker-end": "url(#arrow)"}, g);
  }

  // ------------------------------------------------------------------ the log beside it
  function segName(s) {
    if (s === 0) return "Before the fight";
    if (s > F.rounds) return "After the fight";
    return `Round ${s} of ${F.rounds}`;
  }

  function stamp(e, s) {
    if (s === 0 || e.type === "round" || e.type === "rollcall") return "";
    if (s > F.rounds) return `+${e.round - F.settled} rd`;
    return `${e.t.toFixed(2)} s`;
  }

  function rulesLine(rules) {
    const out = [];
    for (const k in rules) {
      const v = rules[k];
      if (k === "dice" || k === "wild" || v === false || v === null || typeof v === "object" && !Array.isArray(v)) continue;
      const key = k.replace(/_/g, " ");
      const shown = Array.isArray(v) ? (v.length ? v.join(", ") : "none") : v;
      out.push(v === true ? key : `${key} ${shown}`);
    }
    return out.join(" \u00b7 ");
  }

  function listSegment(s) {
    log.textContent = "";
    const [from, to] = [F.segStart[s], s < F.last ? F.segStart[s + 1] : F.events.length];
    let called = false;
    for (let i = from; i < to; i++) {
      const e = F.events[i];
      if (e.type === "rollcall" && !called) {
        called = true;
        html("li", "heading", log, "Roll call").setAttribute("aria-hidden", "true");
      }
      const li = html("li", ["round", "start", "end", "aftermath"].includes(e.type) ? "heading" : "", log);
      li.dataset.i = i;
      li.tabIndex = 0;
      const when = stamp(e, s);
      if (when) html("time", "", li, when);
      html("span", "text", li, e.text.trim());
      const rules = e.rules || {};
      for (const key of ["dice", "wild"]) {
        if (Array.isArray(rules[key]) && rules[key].length) {
          const dice = html("span", "dice", li);
          dice.setAttribute("aria-label", `${key === "wild" ? "wild die" : "dice"}: ${rules[key].join(" ")}`);
          rules[key].flat().forEach((v) => html("span", "die" + (key === "wild" ? " wild" : ""), dice, String(v)));
        }
      }
      const extra = rulesLine(rules);
      if (extra) html("span", "rules", li, extra);
    }
    log.dataset.round = String(s);
    $("log-title").textContent = segName(s);
    shownSeg = s;
  }

  function markLog() {
    let now = null;
    for (const li of log.children) {
      if (li.dataset.i === undefined) continue;
      const i = +li.dataset.i;
      li.classList.toggle("now", i === cursor);
      li.classList.toggle("later", i > cursor);
      if (i === cursor) { now = li; li.setAttribute("aria-current", "step"); } else li.removeAttribute("aria-current");
    }
    if (now) {
      const top = now.offsetTop - log.offsetTop, bottom = top + now.offsetHeight;
      if (top < log.scrollTop || bottom > log.scrollTop + log.clientHeight) log.scrollTop = top - log.clientHeight / 3;
    }
  }

  function roster() {
    const tbody = $("roster").tBodies[0];
    tbody.textContent = "";
    F.rows = {};
    F.fighters.forEach((p) => {
      const side = F.side[p.side] || {colour: "#000", shape: "o"};
      const tr = html("tr", "", tbody);
      const td = html("td", "", tr);
      const svg = el("svg", {width: 36, height: 36, viewBox: "-18 -18 36 36", "aria-hidden": "true"}, td);
      shape(side.shape, 14, {fill: side.colour, stroke: "#1a1a1a"}, svg);
      el("text", {"text-anchor": "middle", y: 3.5, "font-size": p.label.length > 3 ? 8.5 : 10, "font-weight": 700,
        fill: contrast(side.colour)}, svg, p.label);
      html("td", "", tr, `${p.name} (${p.label})`);
      html("td", "", tr, p.side);
      F.rows[p.name] = {tr, status: html("td", "status", tr), state: html("td", "state", tr)};
    });
  }

  function markRoster() {
    const snap = F.snap[cursor], before = cursor ? F.snap[cursor - 1] : null;
    F.fighters.forEach((p) => {
      const row = F.rows[p.name];
      const status = statusOf(snap, p.name);
      row.status.textContent = snap.called[p.name] ? `${snap.called[p.name]} (roll call)` : WORDS[status] || status;
      row.state.textContent = snap.state[p.name] || "";
      row.tr.dataset.status = status;
      const changed = before && (before.state[p.name] !== snap.state[p.name] || before.status[p.name] !== snap.status[p.name]
        || before.pos[p.name] !== snap.pos[p.name] || before.called[p.name] !== snap.called[p.name]);
      row.tr.classList.toggle("changed", !!changed);
    });
  }

  function clock(s, e) {
    const box = $("clock"), ticks = $("clock-ticks");
    const inRound = s > 0 && s <= F.rounds;
    box.hidden = !inRound;
    box.dataset.end = `${F.seconds} s`;
    if (!inRound) return;
    if (ticks.dataset.seg !== String(s)) {
      ticks.textContent = "";
      const times = new Set();
      for (let i = F.segStart[s]; i < F.events.length && F.seg[i] === s; i++) times.add(F.events[i].t);
      times.forEach((t) => { html("span", "", ticks).style.left = `${Math.min(100, 100 * t / F.seconds)}%`; });
      ticks.dataset.seg = String(s);
    }
    $("clock-hand").style.left = `calc(${Math.min(100, 100 * e.t / F.seconds)}% - 2px)`;
  }

  // ------------------------------------------------------------------ going somewhere
  function go(i, animate) {
    i = Math.max(0, Math.min(F.events.length - 1, i));
    const step = animate && i === cursor + 1;
    cursor = i;
    const s = F.seg[i], e = F.events[i];
    if (s !== shownSeg) listSegment(s);
    drawTokens(step);
    markLog();
    markRoster();
    clock(s, e);
    let where = segName(s);
    if (s > 0 && s <= F.rounds) where += ` \u00b7 ${e.t.toFixed(2)} s of ${F.seconds} s`;
    if (s > F.rounds && e.round > F.settled) where += ` \u00b7 ${e.round - F.settled} round${e.round - F.settled > 1 ? "s" : ""} on`;
    $("where").textContent = where;
    $("map-round").textContent = segName(s);
    map.dataset.round = String(s);
    map.dataset.event = String(i);
    $("map-label").textContent = `The map, ${segName(s).toLowerCase()}`;
    $("round").value = String(s);
    $("round").setAttribute("aria-valuetext", segName(s));
    $("now").textContent = e.text.trim();
    body.dataset.event = String(i);
  }

  function byRound(d) {
    const s = F.seg[cursor];
    if (d < 0 && cursor > F.segStart[s]) return go(F.segStart[s]);
    if (d > 0 && s >= F.last) return go(F.events.length - 1);  // past the last: its end
    go(F.segStart[Math.max(0, s + d)]);
  }

  function play(on) {
    if (timer) { clearTimeout(timer); timer = null; }
    const button = $("play");
    if (on && cursor >= F.events.length - 1) go(0);
    button.querySelector("path").setAttribute("d", on ? "M3 2h4v12H3zM9 2h4v12H9z" : "M4 2v12l10-6z");
    button.setAttribute("aria-label", on ? "Pause" : "Play");
    button.setAttribute("aria-pressed", on ? "true" : "false");
    if (!on) return;
    const tick = () => {
      if (cursor >= F.events.length - 1) return play(false);
      go(cursor + 1, true);
      timer = setTimeout(tick, LINE_MS / speed);
    };
    timer = setTimeout(tick, 200);
  }

  function load(k) {
    play(false);
    stopWalk();
    F = DATA.fights[k];
    prepare(F);
    $("round").max = String(F.last);
    shownSeg = -1;
    cursor = 0;
    drawMap();
    F.onMap();
    legend();
    roster();
    go(0);
  }

  // ------------------------------------------------------------------ controls and keys
  $("first").onclick = () => { play(false); go(0); };
  $("last").onclick = () => { play(false); go(F.events.length - 1); };
  $("prev").onclick = () => { play(false); go(cursor - 1); };
  $("next").onclick = () => { play(false); go(cursor + 1, true); };
  $("prev-round").onclick = () => { play(false); byRound(-1); };
  $("next-round").onclick = () => { play(false); byRound(1); };
  $("play").onclick = () => play(!timer);
  $("round").addEventListener("input", (ev) => { play(false); go(F.segStart[+ev.target.value]); });
  $("speed").addEventListener("change", (ev) => { speed = +ev.target.value; });
  log.addEventListener("click", (ev) => {
    const li = ev.target.closest("li");
    if (li && li.dataset.i !== undefined) { play(false); go(+li.dataset.i); }
  });
  log.addEventListener("keydown", (ev) => {
    const li = ev.target.closest("li");
    if (li && li.dataset.i !== undefined && (ev.key === "Enter" || ev.key === " ")) {
      ev.preventDefault();
      play(false);
      go(+li.dataset.i);
      li.focus();
    }
  });
  document.addEventListener("keydown", (ev) => {
    const t = ev.target;
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    if (t.tagName === "SELECT" || (t.tagName === "INPUT" && t.type !== "range")) return;
    if (t.tagName === "INPUT" && ev.key.startsWith("Arrow")) return;  // the slider's own keys
    if (t.tagName === "BUTTON" && (ev.key === " " || ev.key === "Enter")) return;
    if (t.closest && t.closest("#log") && (ev.key === " " || ev.key === "Enter")) return;
    const keys = {
      ArrowRight: () => go(cursor + 1, true), ArrowLeft: () => go(cursor - 1),
      ArrowDown: () => byRound(1), PageDown: () => byRound(1),
      ArrowUp: () => byRound(-1), PageUp: () => byRound(-1),
      Home: () => go(0), End: () => go(F.events.length - 1),
    };
    if (ev.key === " " || ev.key === "k") { ev.preventDefault(); play(!timer); return; }
    if (keys[ev.key]) { ev.preventDefault(); play(false); keys[ev.key](); }
  });

  const pick = $("fight");
  if (DATA.fights.length > 1) {
    DATA.fights.forEach((f, k) => { const o = html("option", "", pick, f.title); o.value = String(k); });
    pick.addEventListener("change", () => load(+pick.value));
    $("fight-pick").hidden = false;
  }
  window.fray = {go: (i) => go(i, true), load, fight: () => F, cursor: () => cursor};
  load(0);
})();
