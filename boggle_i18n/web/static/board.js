"use strict";
// Drawing a board and a word's path on it (plain DOM and SVG, no library).

const Board = {
  // A face as printed on a die: "qu" -> "Qu", "" -> blank.
  label(face) {
    return face ? face.charAt(0).toUpperCase() + face.slice(1) : "";
  },

  // Fill `el` with one cell per face of `grid` (rows of faces).
  render(el, svg, grid) {
    el.textContent = "";
    const rows = grid.length, cols = rows ? grid[0].length : 0;
    el.style.gridTemplateColumns = `repeat(${cols}, var(--cell))`;
    el.dataset.rows = rows;
    el.dataset.cols = cols;
    grid.forEach((row, r) => row.forEach((face, c) => {
      const cell = document.createElement("div");
      cell.className = "cell" + (face ? "" : " blank") + (face.length > 1 ? " multi" : "");
      cell.dataset.r = r;
      cell.dataset.c = c;
      cell.textContent = Board.label(face);
      cell.title = face ? face : "blank";
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
      const cell = el.querySelector(`.cell[data-r="${r}"][data-c="${c}"]`);
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
};
