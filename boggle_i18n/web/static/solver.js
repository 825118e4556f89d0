"use strict";
// The in-browser solver: the library's own walk (solver/_walk.h) compiled to WebAssembly (web/wasm/solver.c),
// over the compiled trie file the library caches (solver/compiled.py, `.bgc`). This file only moves bytes:
// faces are spelled as the library's FaceCodec spells them (greedy longest match over the trie's multi-letter
// letters), and points come from the rules data `export-web` writes (boggle_i18n/web/export.py). It decides no
// rule. Runs in a page (global `BoggleSolver`) and under Node (the parity test, tests/test_wasm_parity.py).
(function (root) {
  const MAGIC = "BGLXC003";
  const DIGEST = 32;
  const ALIGN = 64;
  const DEAD = 255;
  const SERIAL_LIMIT = 2 ** 31 - 2;

  // The `.bgc` file: magic, sha256, header length (uint64 LE), JSON header, padding, the records 64-byte aligned.
  function parseCompiled(bytes) {
    const u8 = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
    const magic = new TextDecoder("latin1").decode(u8.subarray(0, MAGIC.length));
    if (magic !== MAGIC) throw new Error("not a compiled lexicon (.bgc) file");
    const start = MAGIC.length + DIGEST;
    const view = new DataView(u8.buffer, u8.byteOffset, u8.byteLength);
    const size = Number(view.getBigUint64(start, true));
    if (start + 8 + size > u8.length) throw new Error("a damaged compiled lexicon: its header runs past the file");
    const header = JSON.parse(new TextDecoder("utf-8").decode(u8.subarray(start + 8, start + 8 + size)));
    const base = start + 8 + size + ((ALIGN - ((start + 8 + size) % ALIGN)) % ALIGN);
    const [offset, dtype, shape] = header.arrays.records;
    if (dtype !== "<u8" || shape.length !== 2 || shape[1] !== 2) throw new Error("a damaged compiled lexicon: records");
    const nodes = shape[0];
    const records = u8.subarray(base + offset, base + offset + nodes * 16);
    if (records.length !== nodes * 16) throw new Error("a damaged compiled lexicon: records run past the file");
    return { key: header.key, letters: header.letters, wordCount: header.word_count, maxLength: header.max_length, nodes, records };
  }

  // Adjacent cells in the library's order (board.neighbours): 8 neighbours, or 4 without diagonals.
  function neighbours(rows, cols, diagonals) {
    const steps = [[-1, 0], [0, -1], [0, 1], [1, 0]];
    if (diagonals) steps.push([-1, -1], [-1, 1], [1, -1], [1, 1]);
    const out = [];
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const cells = [];
        for (const [dr, dc] of steps) if (r + dr >= 0 && r + dr < rows && c + dc >= 0 && c + dc < cols) cells.push((r + dr) * cols + c + dc);
        out.push(cells.sort((a, b) => a - b));
      }
    }
    return out;
  }

  function escapeRegExp(text) {
    return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  }

  class Solver {
    constructor(instance, compiled) {
      this.x = instance.exports;
      this.compiled = compiled;
      this.index = new Map(compiled.letters.map((l, i) => [l, i]));
      const units = compiled.letters.filter((l) => Array.from(l).length > 1);
      // FaceCodec.spell: the multi-letter letters longest first (then in order), else one character.
      units.sort((a, b) => b.length - a.length || (a < b ? -1 : a > b ? 1 : 0));
      this.split = units.length ? new RegExp(units.map(escapeRegExp).join("|") + "|[^\\u0000]", "gsu") : null;
      this.records = this.alloc(compiled.nodes * 16, 16);
      this.u8().set(compiled.records, this.records);
      this.stamp = this.alloc(compiled.nodes * 4, 4);
      this.serial = 1;
      this.mark = this.x.top();
    }

    u8() {
      return new Uint8Array(this.x.memory.buffer);
    }

    alloc(bytes) {
      const at = this.x.alloc(Math.max(bytes, 1));
      if (!at) throw new Error("out of memory for the solver");
      return at;
    }

    // A face as letter indices of the trie's alphabet (DEAD for a letter it never uses).
    spell(face) {
      const parts = this.split ? face.match(this.split) || [] : Array.from(face);
      return parts.map((p) => (this.index.has(p) ? this.index.get(p) : DEAD));
    }

    // Whether the trie holds `word` (spelled in its letters as a face is): the page's "is it a word?".
    contains(word) {
      const view = new DataView(this.compiled.records.buffer, this.compiled.records.byteOffset, this.compiled.records.byteLength);
      let node = 0;
      for (const letter of this.spell(word)) {
        if (letter === DEAD) return false;
        const mask = view.getBigUint64(node * 16, true);
        const bit = 1n << BigInt(letter);
        if (!(mask & bit)) return false;
        let below = mask & (bit - 1n);
        let rank = 0;
        for (; below; below &= below - 1n) rank++;
        node = view.getUint32(node * 16 + 8, true) + rank;
      }
      return word !== "" && view.getUint32(node * 16 + 12, true) !== 0;
    }

    // Every distinct word of a board: {rows, cols, faces} with rules {diagonals, min_length, points}; `points`
    // is the library's table by length in letters (export.py writes it up to the lexicon's longest word).
    solve(board, rules) {
      const { rows, cols, faces } = board;
      const cells = rows * cols;
      if (cells > 64 || faces.length !== cells) throw new Error(`a ${rows}x${cols} board: at most 64 cells here`);
      this.x.reset(this.mark);
      const codes = new Map([["", 0]]);
      const list = [""];
      for (const f of faces) if (!codes.has(f)) { codes.set(f, list.length); list.push(f); }
      const spelled = list.map((f) => this.spell(f));
      const longest = Math.max(1, ...spelled.map((s) => s.length));
      const letters = this.alloc(list.length * longest);
      const faceLen = this.alloc(list.length);
      const nbr = this.alloc(cells * 64);
      const nbrN = this.alloc(cells * 8);
      const points = this.alloc(rules.points.length * 8);
      const codesAt = this.alloc(cells * 4);
      let mem = this.u8();
      mem.fill(DEAD, letters, letters + list.length * longest);
      spelled.forEach((s, i) => { mem.set(s, letters + i * longest); mem[faceLen + i] = s.length; });
      const adjacent = neighbours(rows, cols, rules.diagonals);
      const i64 = new BigInt64Array(this.x.memory.buffer);
      adjacent.forEach((cellsNear, c) => {
        cellsNear.forEach((n, k) => { i64[nbr / 8 + c * 8 + k] = BigInt(n); });
        i64[nbrN / 8 + c] = BigInt(cellsNear.length);
      });
      rules.points.forEach((p, n) => { i64[points / 8 + n] = BigInt(n >= rules.min_length ? p : 0); });
      new Int32Array(this.x.memory.buffer, codesAt, cells).set(faces.map((f) => codes.get(f)));
      const failed = this.x.load(this.records, this.compiled.nodes, letters, list.length, longest, faceLen, nbr, nbrN, cells, this.stamp, points, rules.points.length, rules.min_length);
      if (failed) throw new Error(`the solver refused its tables (check ${failed})`);
      const mark = this.x.top();
      for (let cap = 1024; ; cap *= 4) {
        this.x.reset(mark);
        const paths = this.alloc(cap * cells * 8);
        const plen = this.alloc(cap * 8);
        if (this.serial + 1 >= SERIAL_LIMIT) {
          new Int32Array(this.x.memory.buffer, this.stamp, this.compiled.nodes).fill(0);
          this.serial = 1;
        }
        const found = this.x.solve(codesAt, this.serial++, paths, plen, cap);
        if (found === -1) continue;
        if (found < 0) throw new Error("a face code out of range");
        return this.collect(board, rules, spelled, codes, paths, plen, found);
      }
    }

    collect(board, rules, spelled, codes, paths, plen, found) {
      const { cols, faces } = board;
      const cells = faces.length;
      const i64 = new BigInt64Array(this.x.memory.buffer);
      const length = faces.map((f) => spelled[codes.get(f)].length);
      const words = [];
      let score = 0;
      for (let k = 0; k < found; k++) {
        const n = Number(i64[plen / 8 + k]);
        const path = [];
        let word = "";
        let letters = 0;
        for (let j = 0; j < n; j++) {
          const c = Number(i64[paths / 8 + k * cells + j]);
          path.push([Math.floor(c / cols), c % cols]);
          word += faces[c];
          letters += length[c];
        }
        const points = letters < rules.points.length ? rules.points[letters] : 0;
        score += points;
        words.push({ word, points, path, letters });
      }
      return { words, score, nodes: this.x.nodes() };
    }
  }

  // A solver for one compiled lexicon: `wasm` is the module's bytes or a compiled WebAssembly.Module.
  async function create(wasm, compiled) {
    const module = wasm instanceof WebAssembly.Module ? wasm : await WebAssembly.compile(wasm);
    const instance = await WebAssembly.instantiate(module, {});
    return new Solver(instance, compiled);
  }

  const api = { parseCompiled, create, neighbours };
  if (typeof module === "object" && module.exports) module.exports = api;
  else root.BoggleSolver = api;
})(typeof self !== "undefined" ? self : this);
