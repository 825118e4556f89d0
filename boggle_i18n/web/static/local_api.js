"use strict";
// The page's API answered in the browser, for the static site `boggle-i18n export-web` writes (web/site.py):
// the page (app.js) asks the same /api/ calls it asks `serve`, and this answers them from data/site.json, each
// lexicon's compiled trie and rules data (checked against their sha256 before use) and the WebAssembly solver
// (solver.js). Every rule comes from the library as data (web/export.py): the dice, the notation's tokens, the
// sizes' rules and scoring tables. Loaded only by the exported page; under `serve` the server answers.
(function (root) {
  const SITE = "data/site.json";
  let site = null;
  let wasm = null;
  const lexicons = new Map(); // name -> Promise<{solver, rules}>

  function fail(status, error, code, params) {
    const err = new Error(error);
    err.status = status;
    err.body = { error, code: code || null, params: params || {} };
    return err;
  }

  // ---------------------------------------------------------------- sha256 (SubtleCrypto, else this)
  // Pages served over plain http from another machine have no SubtleCrypto: the same digest in plain JS.
  const K = new Uint32Array([
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01,
    0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
    0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
    0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08,
    0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
    0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
  ]);

  function sha256Plain(bytes) {
    const n = bytes.length;
    const padded = new Uint8Array(((n + 9 + 63) >> 6) << 6);
    padded.set(bytes);
    padded[n] = 0x80;
    const view = new DataView(padded.buffer);
    view.setUint32(padded.length - 8, Math.floor(n / 0x20000000));
    view.setUint32(padded.length - 4, (n << 3) >>> 0);
    const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
    const w = new Uint32Array(64);
    const rot = (x, k) => (x >>> k) | (x << (32 - k));
    for (let at = 0; at < padded.length; at += 64) {
      for (let i = 0; i < 16; i++) w[i] = view.getUint32(at + 4 * i);
      for (let i = 16; i < 64; i++) {
        const s0 = rot(w[i - 15], 7) ^ rot(w[i - 15], 18) ^ (w[i - 15] >>> 3);
        const s1 = rot(w[i - 2], 17) ^ rot(w[i - 2], 19) ^ (w[i - 2] >>> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
      }
      let [a, b, c, d, e, f, g, hh] = h;
      for (let i = 0; i < 64; i++) {
        const t1 = (hh + (rot(e, 6) ^ rot(e, 11) ^ rot(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) >>> 0;
        const t2 = ((rot(a, 2) ^ rot(a, 13) ^ rot(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
        hh = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
      }
      h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
    }
    return Array.from(h, (x) => x.toString(16).padStart(8, "0")).join("");
  }

  async function sha256(bytes) {
    if (globalThis.crypto && globalThis.crypto.subtle) {
      const digest = new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", bytes));
      return Array.from(digest, (x) => x.toString(16).padStart(2, "0")).join("");
    }
    return sha256Plain(bytes);
  }

  // The lexicons a player opened stay on the device (Cache Storage, where the browser offers it: a secure
  // context); their names carry their sha256, so a kept copy is the file site.json lists, or is refused below.
  const LEXICON_CACHE = "boggle-i18n-lexicons";

  async function kept() {
    try {
      return root.caches ? await root.caches.open(LEXICON_CACHE) : null;
    } catch {
      return null; // storage refused (a private window): fetched each visit instead
    }
  }

  // A file the site lists, refused unless its bytes have the sha256 site.json gives.
  async function checked(entry, keep = false) {
    const cache = keep ? await kept() : null;
    const hit = cache ? await cache.match(entry.path) : null;
    const res = hit || (await fetch(entry.path));
    if (!res.ok) throw fail(503, `${entry.path}: HTTP ${res.status}`);
    const bytes = new Uint8Array(await res.clone().arrayBuffer());
    if ((await sha256(bytes)) !== entry.sha256) {
      if (hit) await cache.delete(entry.path);
      throw fail(503, `${entry.path} is damaged (its sha256 differs from the site's list)`);
    }
    if (cache && !hit) await cache.put(entry.path, res).catch(() => {});
    return bytes;
  }

  async function loadSite() {
    if (!site) {
      site = fetch(SITE).then((res) => {
        if (!res.ok) throw fail(503, `${SITE}: HTTP ${res.status}`);
        return res.json();
      });
      site.catch(() => { site = null; });
    }
    return site;
  }

  // A lexicon's solver and rules: fetched on first use, checked, kept for the page's life (and, with the service
  // worker, on the device).
  function lexicon(name) {
    if (!lexicons.has(name)) {
      const load = (async () => {
        const s = await loadSite();
        const entry = s.lexicons[name];
        if (!entry) throw fail(409, `lexicon ${name} is not in this site`, "lexicon.not_built", { name });
        if (!wasm) wasm = checked(s.wasm).then((bytes) => WebAssembly.compile(bytes));
        const [module, packed, rules] = await Promise.all([wasm, checked(entry.trie, true), checked(entry.rules, true)]);
        const trie = new Uint8Array(await new Response(new Blob([packed]).stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer());
        const parsed = JSON.parse(new TextDecoder().decode(rules));
        return { solver: await BoggleSolver.create(module, BoggleSolver.parseCompiled(trie)), rules: parsed };
      })();
      load.catch(() => { lexicons.delete(name); wasm = null; });
      lexicons.set(name, load);
    }
    return lexicons.get(name);
  }

  async function chosenLexicon(p) {
    const s = await loadSite();
    let name = p.get("lexicon");
    const lang = p.get("lang");
    if (!name) {
      const l = s.languages.languages.find((x) => x.lang === (lang || "en"));
      if (!l) throw fail(400, `unknown language ${lang}`, "language.unknown", { lang });
      name = l.default_lexicon;
    }
    return { name, ...(await lexicon(name)) };
  }

  // ---------------------------------------------------------------- roll: the library's dice and weights, as data

  function random() {
    const x = new Uint32Array(1);
    globalThis.crypto.getRandomValues(x);
    return x[0] / 2 ** 32;
  }

  function pick(faces, weights) {
    const total = weights.reduce((a, b) => a + b, 0);
    let r = random() * total;
    for (let i = 0; i < faces.length; i++) if ((r -= weights[i]) < 0) return faces[i];
    return faces[faces.length - 1];
  }

  function parseSize(text) {
    const m = /^\s*(\d+)\s*[xX×]\s*(\d+)\s*$/.exec(text || "");
    if (!m || +m[1] < 1 || +m[2] < 1) throw fail(400, `size must be RxC, e.g. 4x4, not '${text}'`, "size.bad", { size: text || "" });
    return [+m[1], +m[2]];
  }

  function notation(rows, cols, faces) {
    const one = (f) => (f === "" ? "." : Array.from(f).length === 1 ? f : `[${f}]`);
    const text = [];
    for (let r = 0; r < rows; r++) text.push(faces.slice(r * cols, (r + 1) * cols).map(one).join(""));
    return text.join("/") + (rows === 1 && cols > 1 ? "/" : "");
  }

  async function roll(p) {
    const { name, rules } = await chosenLexicon(p);
    const [rows, cols] = parseSize(p.get("size") || "4x4");
    const mode = p.get("letters");
    const diceId = p.get("dice") || (rules.sizes[`${rows}x${cols}`] || {}).dice;
    let faces;
    if (!mode) {
      const set = rules.dice[diceId];
      if (!set || set.rows !== rows || set.cols !== cols) throw fail(400, `no ${rules.lang} dice set is ${rows}x${cols}`, "roll.no_dice", { lang: rules.lang });
      const order = set.dice.slice();
      for (let i = order.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [order[i], order[j]] = [order[j], order[i]];
      }
      faces = order.map((die) => die[Math.floor(random() * die.length)]);
    } else {
      const source = rules.dice[diceId] ? diceId : Object.keys(rules.dice)[0] || "";
      const draw = mode === "uniform" && rules.dice[source] ? null : rules.draw[source] || rules.draw[""];
      if (!draw && mode !== "uniform") throw fail(400, `no letters to draw for ${rules.lang}`, "roll.no_dice", { lang: rules.lang });
      const printed = draw ? null : rules.dice[source].dice.flat().filter(Boolean);
      faces = Array.from({ length: rows * cols }, () => (draw ? pick(draw.faces, draw.weights) : printed[Math.floor(random() * printed.length)]));
    }
    return { board: notation(rows, cols, faces), rows, cols, seed: null, lang: rules.lang, dice: mode ? null : diceId, letters: mode || null, lexicon: mode === "lexicon" ? name : null };
  }

  // The board of the day: the library rolled the coming year's (daily.py, web/export.py); today is UTC's day.
  async function daily(p) {
    const { name, rules } = await chosenLexicon(p);
    const day = p.get("date") || new Date().toISOString().slice(0, 10);
    const board = rules.daily[day];
    if (!board) throw fail(400, `this site has no board of the day for ${day}: publish a newer export`);
    const dice = (rules.sizes["4x4"] || {}).dice || null;
    return { board, rows: 4, cols: 4, seed: null, lang: rules.lang, dice, letters: dice ? null : "lexicon", lexicon: dice ? null : name, date: day };
  }

  // ---------------------------------------------------------------- solve

  // A bracketed face the token table does not list (`[ij]`): parse_board takes any group of the language's
  // letters, lower-cased by its table, or one of its multi-letter letters; anything else is refused.
  function bracketed(token, rules) {
    const inner = Array.from(token.slice(1, -1).normalize("NFC")).map((ch) => rules.lower[ch] ?? ch.toLowerCase()).join("").replace(/\u2019/g, "'");
    const letters = Array.from(inner);
    if (!letters.length) return "";
    if (rules.units.includes(inner)) return inner;
    const ok = rules.alphabet ? letters.every((ch) => rules.alphabet.includes(ch)) : letters.every((ch) => /\p{L}|\p{M}/u.test(ch));
    return ok ? inner : undefined;
  }

  // Board notation read with the library's token table (parse_board's faces, shorthands and capitals, as data):
  // rows by `/` or spaces, a face a character or a bracketed group, `.` or `[]` a blank.
  function parseBoard(text, rules, size) {
    const rows = [];
    const explicit = text.includes("/");
    for (const raw of text.normalize("NFC").replace(/\//g, " ").split(/\s+/).filter(Boolean)) {
      const row = [];
      for (let i = 0; i < raw.length;) {
        let token;
        if (raw[i] === "[") {
          const end = raw.indexOf("]", i);
          if (end < 0) throw fail(400, `unclosed '[' in board row '${raw}'`, "board.bracket", { row: raw });
          token = raw.slice(i, end + 1);
          i = end + 1;
        } else {
          token = String.fromCodePoint(raw.codePointAt(i));
          i += token.length;
        }
        if (token === "." || token === "[]") { row.push(""); continue; }
        let face = rules.tokens[token];
        if (face === undefined && token.startsWith("[")) face = bracketed(token, rules);
        if (face === undefined) {
          const letters = Array.from(token.replace(/[[\]]/g, "").toLowerCase()).filter((ch) => !rules.alphabet.includes(ch));
          throw fail(400, `face '${token}' is not a face of ${rules.lang} boards`, "board.outside_alphabet",
            { face: token, letters: letters.join("") || token, count: letters.length || 1, lang: rules.lang, alphabet: rules.alphabet });
        }
        row.push(face);
      }
      rows.push(row);
    }
    if (!rows.length) throw fail(400, "empty board", "board.empty");
    let grid = rows;
    if (rows.length === 1 && rows[0].length > 1 && !explicit) {
      const flat = rows[0];
      let [r, c] = size || [Math.round(Math.sqrt(flat.length)), Math.round(Math.sqrt(flat.length))];
      if (r * c !== flat.length) throw fail(400, `board '${text}' has ${flat.length} faces, not a square`, "board.not_rectangle", { board: text });
      grid = Array.from({ length: r }, (_, i) => flat.slice(i * c, (i + 1) * c));
    }
    if (new Set(grid.map((row) => row.length)).size !== 1) throw fail(400, `board '${text}' has rows of different lengths`, "board.not_rectangle", { board: text });
    return { rows: grid.length, cols: grid[0].length, faces: grid.flat() };
  }

  async function solve(p) {
    const text = (p.get("board") || "").trim();
    if (!text) throw fail(400, "give a board, e.g. board=trap/kaas/oven/blij", "board.empty");
    const { name, solver, rules } = await chosenLexicon(p);
    const board = parseBoard(text, rules, p.get("size") ? parseSize(p.get("size")) : null);
    const shape = `${board.rows}x${board.cols}`;
    const sized = rules.sizes[shape];
    if (!sized) throw fail(400, `a ${shape} board: this page solves boards of at most 64 cells`, "board.too_large", { size: shape, max: 64 });
    const scoringName = p.get("scoring") || sized.scoring;
    const scoring = rules.scoring[scoringName];
    if (!scoring) throw fail(400, `unknown scoring ${scoringName}`, "scoring.unknown", { scoring: scoringName });
    const minLength = p.get("min_length") ? Number(p.get("min_length")) : sized.min_length;
    if (!Number.isInteger(minLength) || minLength < 1) throw fail(400, `min_length must be a whole number`, "limit.not_number", { option: "min_length", value: p.get("min_length") });
    const diagonals = p.get("diagonals") !== "false";
    const started = performance.now();
    const found = solver.solve(board, { min_length: minLength, diagonals, points: scoring.points });
    const seconds = (performance.now() - started) / 1000;
    // A word as a reader writes it: its last letter in final form (Language.display: Greek ς, Hebrew ם).
    const words = found.words.map((w) => {
      const last = Array.from(w.word).pop();
      const entry = { word: w.word, points: w.points, length: w.letters, path: w.path };
      if (last && rules.finals[last]) entry.shown = w.word.slice(0, -last.length) + rules.finals[last];
      return entry;
    });
    words.sort((a, b) => b.points - a.points || (a.word < b.word ? -1 : a.word > b.word ? 1 : 0));
    const grid = Array.from({ length: board.rows }, (_, r) => board.faces.slice(r * board.cols, (r + 1) * board.cols));
    return {
      board: notation(board.rows, board.cols, board.faces), rows: board.rows, cols: board.cols, lang: rules.lang, dice: sized.dice,
      grid, lexicon: { name, manifest_sha256: rules.manifest_sha256, trie_sha256: rules.trie_sha256, word_count: rules.word_count },
      rules: { min_length: minLength, scoring: scoring.scoring, diagonals }, engine: "wasm", score: found.score, n_words: words.length,
      words, nodes: found.nodes, seconds, shown_grid: grid.map((row) => row.map((f) => rules.shown[f] ?? f)), warnings: [],
    };
  }

  // Is it in the word list? The trie answers; why a word is not there is the server's (its recipe's stages).
  async function lookup(p) {
    const word = (p.get("word") || "").trim();
    if (!word) throw fail(400, "give a word, e.g. word=kaas", "lookup.empty_word");
    const { name, solver, rules } = await chosenLexicon(p);
    const key = word.toLowerCase().normalize("NFC");
    const found = solver.contains(key);
    return { word, normalised: key, found, category: found ? "word" : "not-in-list", length: solver.spell(key).length,
      reason: found ? "" : `not in the word list ${name}`, lexicon: name, lang: rules.lang, key };
  }

  const ROUTES = {
    "/api/languages": async () => (await loadSite()).languages,
    "/api/roll": roll,
    "/api/daily": daily,
    "/api/solve": solve,
    "/api/lookup": lookup,
  };

  // fetch() for the page's API calls: a Response as the server would give it.
  async function apiFetch(url, opts) {
    const u = new URL(url, root.location ? root.location.href : "http://localhost/");
    const reply = (status, data) => new Response(JSON.stringify(data), { status, headers: { "Content-Type": "application/json" } });
    try {
      const lex = /^\/api\/lexicons\/([^/]+)$/.exec(u.pathname);
      if (lex) {
        await lexicon(decodeURIComponent(lex[1]));
        return reply(200, { name: decodeURIComponent(lex[1]), state: "loaded" });
      }
      const route = ROUTES[u.pathname];
      if (!route || (opts && opts.method === "POST")) return reply(404, { error: `${u.pathname} needs boggle-i18n serve`, code: null });
      return reply(200, await route(u.searchParams));
    } catch (err) {
      return reply(err.status || 503, err.body || { error: err.message, code: null });
    }
  }

  const api = { fetch: apiFetch, sha256, sha256Plain, parseBoard };
  if (typeof module === "object" && module.exports) module.exports = api;
  else {
    root.LocalApi = api;
    // Installable and offline: the service worker keeps the page and the solver (static/sw.js).
    if (root.navigator && "serviceWorker" in root.navigator && root.isSecureContext) {
      root.navigator.serviceWorker.register("sw.js").catch(() => {});
    }
  }
})(typeof self !== "undefined" ? self : this);
