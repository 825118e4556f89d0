"use strict";
// The page: every view calls the JSON API under /api/ (docs/web.md); nothing leaves this machine.

const $ = (id) => document.getElementById(id);
const state = { languages: [], scoring: [], solved: null, game: null, job: null, view: "solve" };

// ------------------------------------------------------------------ API

function say(text, kind = "info") {
  const m = $("message");
  m.textContent = text;
  m.className = kind;
  m.hidden = !text;
}

// GET or POST JSON; a 202 "building" answer shows the build's progress and retries until the lexicon is ready.
async function api(url, body) {
  for (;;) {
    const opts = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
    const res = await fetch(url, opts);
    const data = await res.json();
    if (res.status === 202 && data.building) {
      showBuilding(data.building, data.lines);
      await new Promise((ok) => setTimeout(ok, 1000));
      continue;
    }
    $("building").hidden = true;
    if (!res.ok) throw new Error(data.error || `HTTP ${res.status}`);
    return data;
  }
}

function showBuilding(name, lines) {
  $("building").hidden = false;
  $("building-name").textContent = name;
  $("building-lines").textContent = (lines || []).join("\n");
}

function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== "") q.set(k, v);
  return q.toString();
}

// ------------------------------------------------------------------ board panel

function currentLanguage() {
  return state.languages.find((l) => l.lang === $("lang").value);
}

function sizeText() {
  return $("size").value === "custom" ? $("custom-size").value.trim() : $("size").value;
}

function fillLanguages() {
  $("lang").textContent = "";
  for (const l of state.languages) $("lang").add(new Option(`${l.name} (${l.lang})`, l.lang));
  for (const s of state.scoring) $("scoring").add(new Option(s, s));
  const box = $("compare-langs");
  for (const l of state.languages) {
    const label = document.createElement("label");
    label.innerHTML = `<input type="checkbox" value="${l.lang}"> ${l.lang}`;
    box.appendChild(label);
  }
}

function fillLexicons(chosen) {
  const l = currentLanguage();
  $("lexicon").textContent = "";
  for (const x of l.lexicons) {
    const built = x.state === "built" ? "" : ` (${x.state})`;
    $("lexicon").add(new Option(x.name + built, x.name));
  }
  if (chosen && ![...$("lexicon").options].some((o) => o.value === chosen)) $("lexicon").add(new Option(chosen, chosen));
  $("lexicon").value = chosen || l.default_lexicon || (l.lexicons[0] && l.lexicons[0].name) || "";
}

// Dice sets of the chosen size, else letters drawn from the dice faces or the lexicon's letter frequencies.
function fillDice(chosen) {
  const l = currentLanguage();
  const size = sizeText();
  $("dice").textContent = "";
  for (const d of l.dice_sets.filter((d) => d.size === size)) $("dice").add(new Option(d.id, d.id));
  if (l.dice_sets.length) $("dice").add(new Option("letters: dice faces", "letters:uniform"));
  $("dice").add(new Option("letters: lexicon frequencies", "letters:lexicon"));
  if (chosen && [...$("dice").options].some((o) => o.value === chosen)) $("dice").value = chosen;
}

function rulesParams() {
  return {
    min_length: $("min-length").value,
    scoring: $("scoring").value,
    diagonals: $("diagonals").checked ? "" : "false",
  };
}

function boardParams() {
  // No dice set: the server takes the language's set of the board's size (its rules and what a bare q means).
  return {
    board: $("board-text").value.trim(),
    lang: $("lang").value,
    lexicon: $("lexicon").value,
    size: $("size").value === "custom" ? sizeText() : "",
    ...rulesParams(),
  };
}

async function rollBoard() {
  const dice = $("dice").value;
  const p = { lang: $("lang").value, lexicon: $("lexicon").value, size: sizeText() };
  if (dice.startsWith("letters:")) p.letters = dice.slice(8);
  else p.dice = dice;
  const rolled = await api("/api/roll?" + query(p));
  $("board-text").value = rolled.board;
  return rolled;
}

// ------------------------------------------------------------------ solve view

function shareUrl(solved) {
  const p = boardParams();
  const q = { board: solved.board, lang: solved.lang, lexicon: solved.lexicon.name, size: p.size, min_length: p.min_length, scoring: p.scoring, diagonals: p.diagonals, view: state.view };
  return location.origin + "/?" + query(q);
}

async function solve() {
  const p = boardParams();
  if (!p.board) await rollBoard();
  const solved = await api("/api/solve?" + query(boardParams()));
  state.solved = solved;
  showSolved();
  return solved;
}

function rulesText(rules) {
  const t = rules.scoring.table;
  const table = Object.entries(t).map(([n, pts]) => `${n}:${pts}`).join(" ");
  return `${rules.min_length}+ letters, ${rules.scoring.name} (${table}), diagonals ${rules.diagonals ? "on" : "off"}`;
}

function showSolved() {
  const s = state.solved;
  Board.render($("solve-board"), $("solve-path"), s.grid);
  Board.render($("play-board"), $("play-path"), s.grid);
  $("solve-summary").innerHTML = "";
  const strong = document.createElement("strong");
  strong.id = "total";
  strong.textContent = `score ${s.score}`;
  $("solve-summary").append(strong, ` from ${s.n_words} words · ${s.board} (${s.rows}x${s.cols}) · ${s.lang}` +
    `${s.dice ? " · dice " + s.dice : ""} · lexicon ${s.lexicon.name} (${(s.lexicon.word_count || 0).toLocaleString("en")} words)`);
  $("rules-summary").textContent = rulesText(s.rules);
  for (const w of s.warnings || []) say("Warning: " + w, "warn");
  const url = shareUrl(s);
  $("share-url").value = url;
  history.replaceState(null, "", url.slice(location.origin.length));
  showWords();
}

function sortedWords(words) {
  const how = $("sort").value;
  const list = words.slice();
  if (how === "length") list.sort((a, b) => b.length - a.length || a.word.localeCompare(b.word));
  else if (how === "alpha") list.sort((a, b) => a.word.localeCompare(b.word));
  else list.sort((a, b) => b.points - a.points || a.word.localeCompare(b.word));
  return list;
}

const escapeHtml = (s) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

// A word list: one HTML string (a thousand words lay out in milliseconds), one set of listeners on the list.
// Hovering, focusing (Tab) or tapping a word draws its path on `boardEl`.
function bindList(ol, boardEl, svgEl) {
  ol.words = [];
  const show = (e) => {
    const li = e.target.closest("li");
    if (!li || !ol.contains(li)) return;
    Board.draw(boardEl, svgEl, ol.words[+li.dataset.i].path);
    if (e.type === "click") {
      ol.querySelectorAll("li.sel").forEach((x) => x.classList.remove("sel"));
      li.classList.add("sel");
    }
  };
  ol.addEventListener("mouseover", show);
  ol.addEventListener("focusin", show);
  ol.addEventListener("click", show);
}

function fillList(ol, words) {
  ol.words = words;
  ol.innerHTML = words.map((w, i) =>
    `<li tabindex="0" data-i="${i}" data-word="${escapeHtml(w.word)}" data-path="${w.path.map(([r, c]) => `${r},${c}`).join(" ")}">` +
    `<span class="w" dir="auto">${escapeHtml(w.word)}</span> <span class="pts">${w.points}</span></li>`).join("");
}

function showWords() {
  const s = state.solved;
  if (!s) return;
  const filter = $("filter").value.trim().toLowerCase();
  fillList($("words"), sortedWords(s.words).filter((w) => !filter || w.word.includes(filter)));
}

// ------------------------------------------------------------------ play view

async function startGame() {
  await rollBoard();
  await solve();
  const minutes = Math.max(0.05, Number($("play-minutes").value) || 3);
  const words = new Map(state.solved.words.map((w) => [w.word, w]));
  if (state.game && state.game.timer) clearInterval(state.game.timer);
  state.game = { words, found: new Map(), score: 0, ends: Date.now() + minutes * 60000, timer: null, over: false };
  fillList($("play-found"), []);
  fillList($("play-missed"), []);
  $("play-summary").hidden = true;
  $("play-feedback").textContent = "";
  $("play-input").disabled = false;
  $("play-end").disabled = false;
  $("play-input").value = "";
  $("play-input").focus();
  Board.clear($("play-board"), $("play-path"));
  tick();
  state.game.timer = setInterval(tick, 250);
  showPlayScore();
}

function tick() {
  const g = state.game;
  const left = Math.max(0, g.ends - Date.now());
  const s = Math.ceil(left / 1000);
  $("play-timer").textContent = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  if (left <= 0) endGame();
}

function showPlayScore() {
  const g = state.game;
  $("play-score").textContent = `${g.score} points, ${g.found.size} words`;
}

function feedback(text, kind) {
  const f = $("play-feedback");
  f.textContent = text;
  f.className = kind;
  f.dataset.kind = kind;
}

async function guess(raw) {
  const g = state.game;
  if (!g || g.over) return;
  const word = raw.trim().toLowerCase().normalize("NFC");
  if (!word) return;
  const min = state.solved.rules.min_length;
  if (g.found.has(word)) return feedback(`${word}: already found`, "already");
  if ([...word].length < min) return feedback(`${word}: too short (at least ${min} letters)`, "short");
  const hit = g.words.get(word);
  if (hit) {
    g.found.set(word, hit);
    g.score += hit.points;
    fillList($("play-found"), [hit, ...$("play-found").words]);
    Board.draw($("play-board"), $("play-path"), hit.path);
    showPlayScore();
    return feedback(`${word}: found, +${hit.points}`, "found");
  }
  try {
    const look = await api("/api/lookup?" + query({ word, lang: state.solved.lang, lexicon: state.solved.lexicon.name }));
    if (look.found) feedback(`${word}: a word, but not on the board`, "not-on-board");
    else feedback(`${word}: not a word in ${look.lexicon}`, "not-word");
  } catch (e) {
    feedback(`${word}: ${e.message}`, "not-word");
  }
}

function endGame() {
  const g = state.game;
  if (!g || g.over) return;
  g.over = true;
  clearInterval(g.timer);
  $("play-timer").textContent = "0:00";
  $("play-input").disabled = true;
  $("play-end").disabled = true;
  const s = state.solved;
  feedback(`Time! ${g.score} of ${s.score} points (${g.found.size} of ${s.n_words} words)`, "over");
  fillList($("play-missed"), sortedWords(s.words).filter((w) => !g.found.has(w.word)));
  $("play-summary").hidden = false;
  $("play-start").focus();
}

// ------------------------------------------------------------------ is it a word?

async function lookUp() {
  const word = $("word-input").value.trim();
  if (!word) return;
  const r = await api("/api/lookup?" + query({ word, lang: $("lang").value, lexicon: $("lexicon").value }));
  const a = $("word-answer");
  a.dataset.found = r.found;
  a.textContent = r.found ? `Yes: “${r.key}” is in lexicon ${r.lexicon}.` : `No: “${r.key}”: ${r.reason}.`;
}

// ------------------------------------------------------------------ long jobs: compare and search

// Start a job and follow its server-sent events; closing the page closes the stream, which stops the job.
async function runJob(url, body, onProgress, onEnd, stopButton, startButton) {
  const job = await api(url, body);
  state.job = job.id;
  stopButton.disabled = false;
  startButton.disabled = true;
  const events = new EventSource(`/api/jobs/${job.id}/events`);
  events.addEventListener("progress", (e) => onProgress(JSON.parse(e.data)));
  events.addEventListener("end", (e) => {
    events.close();
    stopButton.disabled = true;
    startButton.disabled = false;
    state.job = null;
    const done = JSON.parse(e.data);
    if (done.state === "error") say("Error: " + done.error, "error");
    else onEnd(done);
  });
  events.onerror = () => { if (events.readyState === EventSource.CLOSED) { stopButton.disabled = true; startButton.disabled = false; } };
  stopButton.onclick = () => fetch(`/api/jobs/${job.id}/stop`, { method: "POST" });
}

async function startCompare() {
  const langs = [...$("compare-langs").querySelectorAll("input:checked")].map((x) => x.value);
  $("compare-progress").textContent = "";
  $("compare-out").textContent = "";
  $("compare-chart").hidden = true;
  const body = { langs, size: $("compare-size").value, boards: Number($("compare-boards").value), seed: Number($("compare-seed").value) };
  await runJob("/api/compare", body,
    (ev) => { if (ev.message) $("compare-progress").textContent += ev.message + "\n"; },
    (done) => { $("compare-progress").textContent += `done in ${done.seconds} s (${done.state})\n`; showCompare(done.result); },
    $("compare-stop"), $("compare-start"));
}

function showCompare(result) {
  if (!result || !result.rows.length) return;
  const table = document.createElement("table");
  table.id = "compare-table";
  const head = table.createTHead().insertRow();
  for (const h of result.headers) head.appendChild(document.createElement("th")).textContent = h;
  const body = table.createTBody();
  for (const row of result.rows) {
    const tr = body.insertRow();
    for (const cell of row) tr.insertCell().textContent = cell;
  }
  $("compare-out").appendChild(table);
  drawChart(result.languages);
}

// One line per language: the share of boards at each score (20 bins up to the highest score).
function drawChart(langs) {
  const svg = $("compare-chart");
  const W = 720, H = 320, L = 50, B = 30, T = 10, R = 130;
  const top = Math.max(...langs.map((l) => Math.max(...l.scores)), 1);
  const bins = 20, width = Math.ceil((top + 1) / bins);
  const shares = langs.map((l) => {
    const h = new Array(bins).fill(0);
    for (const s of l.scores) h[Math.min(bins - 1, Math.floor(s / width))] += 1;
    return h.map((n) => n / l.scores.length);
  });
  const ymax = Math.max(...shares.flat(), 0.01);
  const x = (i) => L + (i + 0.5) * (W - L - R) / bins, y = (v) => H - B - v / ymax * (H - B - T);
  const colours = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"];
  let out = `<line x1="${L}" y1="${H - B}" x2="${W - R}" y2="${H - B}" stroke="#444"/><line x1="${L}" y1="${T}" x2="${L}" y2="${H - B}" stroke="#444"/>`;
  out += `<text x="${(W - R + L) / 2}" y="${H - 5}" text-anchor="middle">score (bins of ${width})</text>`;
  out += `<text x="${L + 6}" y="${T + 10}">share of boards</text><text x="${L - 4}" y="${T + 10}" text-anchor="end">${(ymax * 100).toFixed(0)}%</text>`;
  for (let i = 0; i <= bins; i += 5) out += `<text x="${L + i * (W - L - R) / bins}" y="${H - B + 14}" text-anchor="middle">${i * width}</text>`;
  langs.forEach((l, k) => {
    const c = colours[k % colours.length];
    const pts = shares[k].map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    out += `<polyline class="series" data-lang="${l.lang}" fill="none" stroke="${c}" stroke-width="2" points="${pts}"/>`;
    out += `<text x="${W - R + 10}" y="${T + 16 + 18 * k}" fill="${c}">${l.lang}: mean ${l.mean}</text>`;
  });
  svg.innerHTML = out;
  svg.hidden = false;
}

async function startSearch() {
  const p = boardParams();
  const dice = $("dice").value;
  const body = {
    lang: p.lang, lexicon: p.lexicon, size: sizeText(), time_limit: Number($("search-time").value),
    min_length: p.min_length, scoring: p.scoring, diagonals: $("diagonals").checked,
    dice: $("search-dice").checked && !dice.startsWith("letters:") ? dice : "",
    seed: $("search-seed").value,
  };
  $("search-best").textContent = "";
  $("search-progress").textContent = "starting...";
  await runJob("/api/optimize", body,
    (ev) => {
      if (ev.message) $("search-progress").textContent = ev.message;
      else $("search-progress").textContent = `best ${ev.best} · ${ev.evaluated.toLocaleString("en")} boards · ${ev.rate.toLocaleString("en")} boards/s · ${ev.elapsed.toFixed(1)} s`;
    },
    (done) => {
      const r = done.result;
      if (!r) return;
      $("search-progress").textContent = `${done.state === "stopped" ? "stopped" : "done"}: best ${r.best.length ? r.best[0].score : "-"} · ${r.boards_evaluated.toLocaleString("en")} boards in ${r.seconds} s (${(r.boards_per_second || 0).toLocaleString("en")} boards/s) · seed ${r.seed}`;
      for (const b of r.best) {
        const li = document.createElement("li");
        const a = document.createElement("a");
        a.href = "/?" + query({ board: b.board, lang: r.lang, lexicon: r.settings.lexicon, min_length: p.min_length, scoring: p.scoring, diagonals: p.diagonals, view: "solve" });
        a.textContent = `${b.score} ${b.board}`;
        a.className = "open-board";
        li.appendChild(a);
        $("search-best").appendChild(li);
      }
    },
    $("search-stop"), $("search-start"));
}

// ------------------------------------------------------------------ records

async function showRecords() {
  const r = await api("/api/records");
  $("records-note").textContent = r.folder ? `best boards from the result files in ${r.folder} (boggle-i18n optimize --output, proofs from prove --output, marked proven)` : "no results folder (serve --results DIR)";
  const body = $("records").tBodies[0];
  body.textContent = "";
  for (const x of r.records) {
    const tr = body.insertRow();
    for (const v of [x.lang || "", x.lexicon, x.size, x.dice || "free", x.score + (x.proven ? " proven" : ""), x.board]) tr.insertCell().textContent = v;
    const a = document.createElement("a");
    a.href = "/?" + query({ board: x.board, lang: x.lang, lexicon: x.lexicon, min_length: x.rules && x.rules.min_length, scoring: x.rules && x.rules.scoring.name, diagonals: x.rules && x.rules.diagonals === false ? "false" : "", view: "solve" });
    a.textContent = "solve";
    tr.insertCell().appendChild(a);
  }
}

// ------------------------------------------------------------------ views and start-up

function showView(view) {
  state.view = view;
  for (const b of document.querySelectorAll("#tabs button")) b.setAttribute("aria-selected", b.dataset.view === view);
  for (const s of document.querySelectorAll(".view")) s.hidden = s.id !== "view-" + view;
  $("board-panel").hidden = view === "records" || view === "compare";
  if (view === "records") showRecords().catch((e) => say("Error: " + e.message, "error"));
  if (state.solved) history.replaceState(null, "", shareUrl(state.solved).slice(location.origin.length));
}

function guard(fn) {
  return async (e) => {
    if (e && e.preventDefault) e.preventDefault();
    say("");
    try { await fn(e); } catch (err) { say("Error: " + err.message, "error"); }
  };
}

async function main() {
  const url = new URLSearchParams(location.search);
  // A shared link's board is solved while the language list loads: the two requests run side by side.
  const keys = ["board", "lang", "lexicon", "size", "min_length", "scoring", "diagonals"];
  const shared = url.get("board") ? api("/api/solve?" + query(Object.fromEntries(keys.map((k) => [k, url.get(k)])))) : null;
  if (shared) shared.catch(() => {}); // reported below, once the page is set up
  const data = await api("/api/languages");
  state.languages = data.languages;
  state.scoring = data.scoring;
  fillLanguages();
  bindList($("words"), $("solve-board"), $("solve-path"));
  bindList($("play-found"), $("play-board"), $("play-path"));
  bindList($("play-missed"), $("play-board"), $("play-path"));
  const lang = url.get("lang") || "en";
  $("lang").value = state.languages.some((l) => l.lang === lang) ? lang : "en";
  fillLexicons(url.get("lexicon"));
  if (url.get("size")) { $("size").value = "custom"; $("custom-size").value = url.get("size"); $("custom-size-label").hidden = false; }
  fillDice();
  if (url.get("min_length")) $("min-length").value = url.get("min_length");
  if (url.get("scoring")) {
    if (![...$("scoring").options].some((o) => o.value === url.get("scoring"))) $("scoring").add(new Option(url.get("scoring"), url.get("scoring")));
    $("scoring").value = url.get("scoring");
  }
  $("diagonals").checked = url.get("diagonals") !== "false";
  for (const b of document.querySelectorAll("#tabs button")) b.addEventListener("click", () => showView(b.dataset.view));
  $("lang").addEventListener("change", () => { fillLexicons(); fillDice(); $("board-text").value = ""; });
  $("size").addEventListener("change", () => { $("custom-size-label").hidden = $("size").value !== "custom"; fillDice(); });
  $("custom-size").addEventListener("change", () => fillDice());
  $("roll").addEventListener("click", guard(async () => { await rollBoard(); await solve(); }));
  $("board-form").addEventListener("submit", guard(solve));
  for (const id of ["min-length", "scoring", "diagonals"]) $(id).addEventListener("change", guard(() => state.solved && solve()));
  $("sort").addEventListener("change", showWords);
  $("filter").addEventListener("input", showWords);
  $("copy-link").addEventListener("click", guard(async () => {
    $("share-url").select();
    try { await navigator.clipboard.writeText($("share-url").value); } catch { document.execCommand("copy"); }
    say("Link copied");
  }));
  $("play-start").addEventListener("click", guard(startGame));
  $("play-end").addEventListener("click", () => endGame());
  $("play-form").addEventListener("submit", guard(async () => { const v = $("play-input").value; $("play-input").value = ""; await guess(v); }));
  $("word-form").addEventListener("submit", guard(lookUp));
  $("compare-form").addEventListener("submit", guard(startCompare));
  $("search-form").addEventListener("submit", guard(startSearch));
  showView(["solve", "play", "word", "compare", "search", "records"].includes(url.get("view")) ? url.get("view") : "solve");
  if (shared) {
    $("board-text").value = url.get("board");
    state.solved = await shared;
    showSolved();
  }
  document.body.dataset.ready = "true";
}

main().catch((e) => say("Error: " + e.message, "error"));
