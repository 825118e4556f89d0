"use strict";
// Drawing a board and a word's path on it (plain DOM and SVG, no library), and tracing a path with a pointer.

const Board = {
  // A face as printed on a die: "qu" -> "Qu", "" -> blank; a combining mark alone (Thai "ิ") on a dotted circle.
  label(face) {
    if (/^\p{M}/u.test(face)) return "\u25CC" + face;
    return face ? face.charAt(0).toUpperCase() + face.slice(1) : "";
  },

  // Fill `el` with one cell per face of `grid` (rows of faces), each printed as `shown` has it (the server's
  // `shown_grid`: the language's own capitals, Turkish i -> İ), else capitalised; --cols sizes the cells (style.css).
  render(el, svg, grid, shown) {
    el.textContent = "";
    const rows = grid.length, cols = rows ? grid[0].length : 0;
    el.style.gridTemplateColumns = `repeat(${cols}, var(--cell))`;
    el.style.setProperty("--cols", Math.max(cols, 1));
    el.dataset.rows = rows;
    el.dataset.cols = cols;
    el.grid = grid;
    grid.forEach((row, r) => row.forEach((face, c) => {
      const cell = document.createElement("div");
      cell.className = "cell" + (face ? "" : " blank") + (face.length > 1 ? " multi" : "");
      cell.dataset.r = r;
      cell.dataset.c = c;
      cell.textContent = shown && shown[r] && face ? shown[r][c] : Board.label(face);
      el.appendChild(cell);
    }));
    Board.clear(el, svg);
  },

  clear(el, svg) {
    el.querySelectorAll(".cell").forEach((c) => c.classList.remove("on", "first", "last"));
    svg.textContent = "";
    svg.removeAttribute("data-path");
  },

  // Mark the path's cells (first and last apart) and draw arrows between their centres.
  draw(el, svg, path) {
    Board.clear(el, svg);
    if (!path || !path.length) return;
    const box = el.getBoundingClientRect();
    svg.setAttribute("width", box.width);
    svg.setAttribute("height", box.height);
    svg.setAttribute("viewBox", `0 0 ${box.width} ${box.height}`);
    const ns = "http://www.w3.org/2000/svg";
    const defs = document.createElementNS(ns, "defs");
    defs.innerHTML = '<marker id="' + svg.id + '-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="currentColor"/></marker>';
    svg.appendChild(defs);
    const centre = ([r, c]) => {
      const cell = Board.cell(el, r, c);
      const b = cell.getBoundingClientRect();
      return [b.left - box.left + b.width / 2, b.top - box.top + b.height / 2, cell];
    };
    const points = path.map(centre);
    points.forEach(([, , cell], i) => {
      cell.classList.add("on");
      if (i === 0) cell.classList.add("first");
      if (i === points.length - 1) cell.classList.add("last");
    });
    for (let i = 0; i + 1 < points.length; i++) {
      const [x1, y1] = points[i], [x2, y2] = points[i + 1];
      const k = 0.28; // stop short of the centres so arrows do not cover letters
      const line = document.createElementNS(ns, "line");
      line.setAttribute("x1", x1 + (x2 - x1) * k);
      line.setAttribute("y1", y1 + (y2 - y1) * k);
      line.setAttribute("x2", x2 - (x2 - x1) * k);
      line.setAttribute("y2", y2 - (y2 - y1) * k);
      line.setAttribute("marker-end", `url(#${svg.id}-arrow)`);
      svg.appendChild(line);
    }
    svg.dataset.path = path.map(([r, c]) => `${r},${c}`).join(" ");
  },

  cell(el, r, c) {
    return el.querySelector(`.cell[data-r="${r}"][data-c="${c}"]`);
  },

  // The word a path spells: its faces joined (`qu` is one face, as the solver reads it).
  word(el, path) {
    return path.map(([r, c]) => el.grid[r][c]).join("");
  },

  // Tracing a path with a pointer (mouse, touch or pen: pointer events). Drag across the letters: each
  // neighbouring cell entered joins the path, going back onto the cell before undoes the last one, and the
  // release sends the word. Or tap cells one by one: a tap on the last cell sends, on the one before undoes.
  // `on.change(path)` follows the path, `on.submit(path)` gets a finished one, `on.enabled()` says whether
  // the game takes input now.
  trace(el, svg, on) {
    let path = [], down = false, moved = false, centres = [];
    const same = (a, b) => a && b && a[0] === b[0] && a[1] === b[1];
    const has = (p) => path.some((q) => same(p, q));
    const near = (a, b) => Math.max(Math.abs(a[0] - b[0]), Math.abs(a[1] - b[1])) === 1;
    const update = () => { Board.draw(el, svg, path); on.change(path.slice()); };
    const reset = () => { path = []; update(); };
    // The cell under a point, only near its centre (0.42 of its width), so a diagonal move between two
    // cells does not pick up the corner of a third.
    const hit = (x, y) => {
      for (const [r, c, cx, cy, half] of centres) if (Math.hypot(x - cx, y - cy) < half * 0.84) return [r, c];
      return null;
    };
    const measure = () => {
      centres = [...el.querySelectorAll(".cell:not(.blank)")].map((cell) => {
        const b = cell.getBoundingClientRect();
        return [+cell.dataset.r, +cell.dataset.c, b.left + b.width / 2, b.top + b.height / 2, b.width / 2];
      });
    };
    const submit = () => {
      const done = path.slice();
      path = [];
      on.submit(done);
    };
    el.addEventListener("pointerdown", (e) => {
      if (!on.enabled() || (e.pointerType === "mouse" && e.button !== 0)) return;
      const target = e.target.closest(".cell");
      if (!target || target.classList.contains("blank")) return;
      e.preventDefault();
      measure();
      const p = [+target.dataset.r, +target.dataset.c];
      down = true;
      moved = false;
      if (el.hasPointerCapture && el.releasePointerCapture) {
        try { el.releasePointerCapture(e.pointerId); } catch { /* not captured */ }
      }
      if (path.length) {
        if (same(p, path[path.length - 1])) { down = false; submit(); return; }
        if (path.length > 1 && same(p, path[path.length - 2])) { path.pop(); update(); return; }
        if (near(p, path[path.length - 1]) && !has(p)) { path.push(p); update(); return; }
      }
      path = [p];
      update();
    });
    const move = (e) => {
      if (!down) return;
      const p = hit(e.clientX, e.clientY);
      if (!p || same(p, path[path.length - 1])) return;
      if (path.length > 1 && same(p, path[path.length - 2])) { path.pop(); moved = true; update(); }
      else if (near(p, path[path.length - 1]) && !has(p)) { path.push(p); moved = true; update(); }
    };
    const up = () => {
      if (!down) return;
      down = false;
      if (moved) submit(); // a drag: the release sends it; a tap keeps the path for the next tap
    };
    document.addEventListener("pointermove", move);
    document.addEventListener("pointerup", up);
    document.addEventListener("pointercancel", () => { if (down) { down = false; reset(); } });
    return { reset, path: () => path.slice() };
  },
};
