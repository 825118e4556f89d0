"use strict";
// The page: every view calls the JSON API under /api/ (docs/web.md); nothing leaves this machine.
// Every text it shows comes from the message catalogues (i18n.js, static/i18n/*.json).

const $ = (id) => document.getElementById(id);
const t = (key, values) => I18n.t(key, values);
// solveSeq / gameSeq: the latest request wins (a slow answer to an older one never replaces a newer board);
// busy: requests in flight (the browser tests wait for 0).
const state = { languages: [], scoring: [], solved: null, game: null, job: null, compare: null, view: "play", tracer: null, solveSeq: 0, gameSeq: 0, busy: 0, room: null };
const VIEWS = ["play", "room", "solve", "word", "compare", "search", "records"];

// ------------------------------------------------------------------ API

function say(text, kind = "info") {
  const m = $("message");
  m.textContent = text;
  m.className = kind;
  m.hidden = !text;
}

function sayError(err) {
  say(t("error", { message: errorText(err) }), "error");
}

// A refusal in the interface language: the library's code (errors.CODES) through this catalogue's
// `errors.<code>` message with its params, else the server's English line (a code this catalogue lacks, or none).
function errorText(err) {
  const key = err && err.code ? `errors.${err.code}` : null;
  if (key && Object.hasOwn(I18n.messages, key)) return t(key, err.params || {});
  return err ? err.message : "";
}

// The error an API answer carries: its English line, and the library's code and params when it has them.
function apiError(text, code, params) {
  const err = new Error(text);
  err.code = code || null;
  err.params = params || {};
  return err;
}

// GET or POST JSON (POSTs always `Content-Type: application/json`); a 409 "not built" answer asks for the
// build (a GET never builds: POST /api/lexicons/NAME/build); a 202 "building" answer shows the build's progress
// and retries until the lexicon is ready.
async function api(url, body) {
  for (;;) {
    const opts = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
    state.busy += 1;
    let res, data;
    try {
      // The static site (export-web) answers the same calls in the browser (local_api.js): one page, two backends.
      res = await (window.LocalApi ? window.LocalApi.fetch(url, opts) : fetch(url, opts));
      data = await res.json();
    } finally {
      state.busy -= 1;
    }
    if (res.status === 409 && data.not_built) {
      await api(`/api/lexicons/${encodeURIComponent(data.not_built)}/build`, {});
      continue;
    }
    if (res.status === 202 && data.building) {
      showBuilding(data);
      await new Promise((ok) => setTimeout(ok, 1000));
      continue;
    }
    $("building").hidden = true;
    if (!res.ok) throw apiError(data.error || `HTTP ${res.status}`, data.code, data.params);
    return data;
  }
}

// A first use builds the word list: say which language's, and how much of its list is read, in the interface
// language (the server's lines, in English, stay below for the curious).
function showBuilding(data) {
  $("building").hidden = false;
  const l = state.languages && state.languages.find((x) => x.lang === data.lang);
  const lang = data.lang ? I18n.languageName(data.lang, l ? l.name : data.lang) : null;
  const known = typeof data.percent === "number"; // not for an expanded dictionary: a tool's output has no length
  $("building-title").textContent = !lang
    ? t("panel.building")
    : known ? t("panel.building_lang", { lang, percent: data.percent }) : t("panel.building_lang_any", { lang });
  $("building-name").textContent = data.building;
  const bar = $("building-progress");
  bar.hidden = !lang;
  if (known) bar.value = data.percent;
  else bar.removeAttribute("value"); // an indeterminate bar: it moves, it does not measure
  $("building-lines").textContent = (data.lines || []).join("\n");
}

function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== "") q.set(k, v);
  return q.toString();
}

const fmt = (n) => I18n.number.format(n);

// ------------------------------------------------------------------ board panel

function currentLanguage() {
  return state.languages.find((l) => l.lang === $("lang").value);
}

function sizeText() {
  return $("size").value === "custom" ? $("custom-size").value.trim() : $("size").value;
}

function fillLanguages() {
  $("lang").textContent = "";
  for (const l of state.languages) $("lang").add(new Option("", l.lang));
  for (const s of state.scoring) $("scoring").add(new Option(s, s));
  const box = $("compare-langs");
  for (const l of state.languages) {
    const label = document.createElement("label");
    const input = document.createElement("input");
    input.type = "checkbox";
    input.value = l.lang;
    label.append(input, " " + l.lang);
    box.appendChild(label);
  }
  nameLanguages();
}

// The board languages named in the interface language (Intl.DisplayNames), else by the library's name.
function nameLanguages() {
  for (const o of $("lang").options) {
    const l = state.languages.find((x) => x.lang === o.value);
    // A beta language (a word list below the bar for a fair one: `languages --all` says why) is offered, marked.
    if (l && l.status === "beta") o.textContent = t("panel.lang_beta", { name: I18n.languageName(l.lang, l.name), code: l.lang });
    else if (l) o.textContent = `${I18n.languageName(l.lang, l.name)} (${l.lang})`;
  }
  for (const label of $("compare-langs").querySelectorAll("label")) {
    const l = state.languages.find((x) => x.lang === label.querySelector("input").value);
    if (l) label.title = I18n.languageName(l.lang, l.name);
  }
}

function fillLexicons(chosen) {
  const l = currentLanguage();
  $("lexicon").textContent = "";
  for (const x of l.lexicons) {
    const built = x.state === "built" ? "" : ` (${t("panel.not_built")})`;
    $("lexicon").add(new Option(x.name + built, x.name));
  }
  if (chosen && ![...$("lexicon").options].some((o) => o.value === chosen)) $("lexicon").add(new Option(chosen, chosen));
  // The server's choice (language/overview.py playable_lexicon): built, else installed, no download; else the default.
  const preferred = l.playable_lexicon || l.default_lexicon;
  $("lexicon").value = chosen || preferred || (l.lexicons[0] && l.lexicons[0].name) || "";
}

// Dice sets of the chosen size, else letters weighted by the lexicon (the first option is the default: the rule
// of `compare` and `random`, Selection.rolls), or uniform over the dice faces.
function fillDice(chosen) {
  const l = currentLanguage();
  const size = sizeText();
  chosen = chosen || $("dice").value;
  $("dice").textContent = "";
  for (const d of l.dice_sets.filter((d) => d.size === size)) $("dice").add(new Option(d.id, d.id));
  $("dice").add(new Option(t("panel.dice.lexicon"), "letters:lexicon"));
  if (l.dice_sets.length) $("dice").add(new Option(t("panel.dice.uniform"), "letters:uniform"));
  if (chosen && [...$("dice").options].some((o) => o.value === chosen)) $("dice").value = chosen;
}

function rulesParams() {
  return {
    min_length: $("min-length").value,
    scoring: $("scoring").value,
    diagonals: $("diagonals").checked ? "" : "false",
  };
}

function boardParams(board) {
  // No dice set: the server takes the language's set of the board's size (its rules and what a bare q means).
  return {
    board: board ?? $("board-text").value.trim(),
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
  return api("/api/roll?" + query(p));
}

function settingsSummary() {
  const l = currentLanguage();
  const rules = (state.view === "play" && state.game ? state.game.solved : state.solved)?.rules;
  const parts = [l ? I18n.languageName(l.lang, l.name) : $("lang").value, sizeText(), $("lexicon").value];
  if (rules) parts.push(rulesText(rules));
  $("settings-summary").textContent = parts.join(" · ");
}

// ------------------------------------------------------------------ solve view

function shareUrl(solved, view = "solve") {
  const p = boardParams();
  const q = { view, board: solved.board, lang: solved.lang, lexicon: solved.lexicon.name, size: p.size, min_length: p.min_length, scoring: p.scoring, diagonals: p.diagonals };
  return location.origin + location.pathname + "?" + query(q);
}

async function solve() {
  const seq = ++state.solveSeq;
  if (!$("board-text").value.trim()) {
    const rolled = await rollBoard();
    if (seq !== state.solveSeq) return state.solved;
    $("board-text").value = rolled.board;
  }
  const solved = await api("/api/solve?" + query(boardParams()));
  if (seq !== state.solveSeq) return state.solved; // a newer board was asked for meanwhile
  state.solved = solved;
  showSolved();
  return solved;
}

function rulesText(rules) {
  const table = Object.entries(rules.scoring.table).map(([n, pts]) => `${n}:${pts}`).join(" ");
  return t("rules.text", { min: rules.min_length, scoring: rules.scoring.name, table, diagonals: rules.diagonals ? t("rules.diagonals_on") : t("rules.diagonals_off") });
}

function showSolved() {
  const s = state.solved;
  if (!s) return;
  Board.render($("solve-board"), $("solve-path"), s.grid, s.shown_grid);
  const summary = $("solve-summary");
  summary.textContent = "";
  const strong = document.createElement("strong");
  strong.id = "total";
  strong.dataset.score = s.score;
  strong.textContent = t("solve.total", { score: s.score, words: s.n_words });
  const detail = document.createElement("span");
  detail.id = "solve-detail";
  detail.dataset.board = s.board;
  detail.textContent = " · " + [s.board, `${s.rows}x${s.cols}`, s.lang, s.dice ? t("solve.dice", { dice: s.dice }) : "",
    t("solve.lexicon", { name: s.lexicon.name, count: s.lexicon.word_count || 0 })].filter(Boolean).join(" · ");
  const rules = document.createElement("span");
  rules.id = "rules-summary";
  rules.className = "rules-line";
  rules.textContent = rulesText(s.rules);
  summary.append(strong, detail, document.createElement("br"), rules);
  for (const w of s.warnings || []) say(t("warning", { message: w }), "warn");
  const url = shareUrl(s);
  $("share-url").value = url;
  if (state.view === "solve") history.replaceState(null, "", url.slice(location.origin.length));
  settingsSummary();
  showWords();
}

function sortedWords(words, how = $("sort").value) {
  const list = words.slice();
  const cmp = (a, b) => a.word.localeCompare(b.word, I18n.code);
  if (how === "length") list.sort((a, b) => b.length - a.length || cmp(a, b));
  else if (how === "alpha") list.sort(cmp);
  else list.sort((a, b) => b.points - a.points || cmp(a, b));
  return list;
}

const escapeHtml = (s) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

// A word list: one HTML string (a thousand words lay out in milliseconds), one set of listeners on the list.
// Hovering, focusing (Tab) or tapping a word draws its path on `boardEl` (kept in view: style.css).
function bindList(ol, boardEl, svgEl) {
  ol.words = [];
  const show = (e) => {
    const li = e.target.closest("li");
    if (!li || !ol.contains(li) || !ol.words[+li.dataset.i]) return;
    Board.draw(boardEl, svgEl, ol.words[+li.dataset.i].path);
    if (e.type === "click") {
      ol.querySelectorAll("li.sel").forEach((x) => x.classList.remove("sel"));
      li.classList.add("sel");
      const box = boardEl.getBoundingClientRect();
      if (box.bottom < 0 || box.top > innerHeight) boardEl.scrollIntoView({ block: "nearest" });
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
    `<span class="w" dir="auto">${escapeHtml(w.shown || w.word)}</span> <span class="pts">${w.points}</span></li>`).join("");
}

function showWords() {
  const s = state.solved;
  if (!s) return;
  const filter = $("filter").value.trim().toLowerCase();
  fillList($("words"), sortedWords(s.words).filter((w) => !filter || w.word.includes(filter) || (w.shown || "").includes(filter)));
}

// ------------------------------------------------------------------ play view
// The game's board and words live in state.game only: the Solve view never shows them, the panel's
// controls start a new game, and the words are listed when the game is over.

// The board of the day (daily.py): the same board for everyone today in the board language, from the date.
async function dailyGame() {
  const d = await api("/api/daily?" + query({ lang: $("lang").value, lexicon: $("lexicon").value }));
  return startGame({ board: d.board, minutes: null, vs: null });
}

async function startGame(challenge) {
  if (state.game && state.game.timer) clearInterval(state.game.timer);
  state.game = null;
  document.body.dataset.game = "starting";
  const seq = ++state.gameSeq;
  const board = challenge ? challenge.board : (await rollBoard()).board;
  const solved = await api("/api/solve?" + query(boardParams(board)));
  if (seq !== state.gameSeq) return; // a newer game was started meanwhile
  const minutes = challenge && challenge.minutes ? challenge.minutes : Math.max(0.05, Number($("play-minutes").value) || 3);
  $("play-minutes").value = minutes;
  const words = new Map(solved.words.map((w) => [w.word, w]));
  state.game = { solved, words, found: new Map(), score: 0, minutes, ends: Date.now() + minutes * 60000, timer: null, over: false, vs: challenge ? challenge.vs : null };
  Board.render($("play-board"), $("play-path"), solved.grid, solved.shown_grid);
  $("play-board").dataset.board = solved.board;
  for (const w of solved.warnings || []) say(t("warning", { message: w }), "warn");
  fillList($("play-found"), []);
  fillList($("play-missed"), []);
  $("play-summary").hidden = true;
  $("play-current").textContent = "";
  feedback(state.game.vs != null ? t("play.challenge_start", { score: state.game.vs }) : t("play.go"), "start");
  for (const id of ["play-input", "play-submit", "play-end"]) $(id).disabled = false;
  $("play-input").value = "";
  settingsSummary();
  tick();
  state.game.timer = setInterval(tick, 250);
  showPlayScore();
  history.replaceState(null, "", "/?" + query({ view: "play", lang: solved.lang, lexicon: solved.lexicon.name }));
  document.body.dataset.game = "running";
}

function tick() {
  const g = state.game;
  if (!g) return;
  const left = Math.max(0, g.ends - Date.now());
  const s = Math.ceil(left / 1000);
  $("play-timer").textContent = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  if (left <= 0) endGame(true);
}

function showPlayScore() {
  const g = state.game;
  $("play-score").textContent = t("play.score", { score: g.score, words: g.found.size });
}

function feedback(text, kind) {
  const f = $("play-feedback");
  f.textContent = text;
  f.className = kind;
  f.dataset.kind = kind;
}

function found(key, hit, path) {
  const g = state.game;
  g.found.set(key, hit);
  g.score += hit.points;
  fillList($("play-found"), [hit, ...$("play-found").words]);
  Board.draw($("play-board"), $("play-path"), path || hit.path);
  showPlayScore();
  feedback(t("feedback.found", { word: hit.shown || key, points: hit.points }), "found");
}

// A word traced on the board (by dragging or tapping): always on the board; the same checks as a typed one.
async function guessPath(path) {
  const g = state.game;
  if (!g || g.over || !path.length) return;
  const word = Board.word($("play-board"), path);
  $("play-current").textContent = word;
  if (g.found.has(word)) return feedback(t("feedback.already", { word: shown(g, word) }), "already");
  const hit = g.words.get(word);
  if (hit) return found(word, hit, path);
  return notAWord(word);
}

// A word as a reader writes it (the server's `shown`: Greek final ς, Korean syllables), else as stored.
function shown(g, word) {
  const hit = g.words.get(word);
  return hit && hit.shown ? hit.shown : word;
}

// Too short for this game: by the lexicon's own count of letters (Welsh `ll` is one, Korean keys are
// letters), which the server's lookup answers; a word the lexicon's length stage dropped is too short too.
function tooShort(look, min) {
  return look.category === "length" || (look.length !== null && look.length !== undefined && look.length < min);
}

// A typed word: in the game's words as typed, else as the lexicon's recipe normalises it (asked of the
// server: `Häuser` is `haeuser` in German), else a word not on this board, else not a word.
async function guess(raw) {
  const g = state.game;
  if (!g || g.over) return;
  const word = raw.trim().toLowerCase().normalize("NFC");
  if (!word) return;
  const min = g.solved.rules.min_length;
  if (g.found.has(word)) return feedback(t("feedback.already", { word: shown(g, word) }), "already");
  if (g.words.has(word)) return found(word, g.words.get(word));
  let look;
  try {
    look = await lookUpWord(word, g.solved);
  } catch (e) {
    return feedback(t("error", { message: errorText(e) }), "not-word");
  }
  if (g.over) return;
  if (look.found && g.found.has(look.key)) return feedback(t("feedback.already", { word: shown(g, look.key) }), "already");
  if (look.found && g.words.has(look.key)) return found(look.key, g.words.get(look.key));
  if (tooShort(look, min)) return feedback(t("feedback.short", { word, min }), "short");
  if (look.found) return feedback(t("feedback.not_on_board", { word }), "not-on-board");
  return feedback(t("feedback.not_word", { word, reason: t("reason." + look.category) }), "not-word");
}

async function notAWord(word) {
  const g = state.game;
  try {
    const look = await lookUpWord(word, g.solved);
    if (g.over) return;
    if (tooShort(look, g.solved.rules.min_length)) return feedback(t("feedback.short", { word, min: g.solved.rules.min_length }), "short");
    if (look.found) return feedback(t("feedback.not_on_board", { word }), "not-on-board");
    feedback(t("feedback.not_word", { word, reason: t("reason." + look.category) }), "not-word");
  } catch (e) {
    feedback(t("error", { message: errorText(e) }), "not-word");
  }
}

function lookUpWord(word, solved) {
  return api("/api/lookup?" + query({ word, lang: solved.lang, lexicon: solved.lexicon.name }));
}

function challengeUrl(g) {
  const s = g.solved;
  const p = rulesParams();
  const q = { view: "play", board: s.board, lang: s.lang, lexicon: s.lexicon.name, min_length: s.rules.min_length,
    scoring: p.scoring || undefined, diagonals: s.rules.diagonals ? "" : "false", minutes: g.minutes, vs: g.score };
  return location.origin + location.pathname + "?" + query(q);
}

function endGame(timeUp = false) {
  const g = state.game;
  if (!g || g.over) return;
  g.over = true;
  clearInterval(g.timer);
  state.tracer && state.tracer.reset();
  if (timeUp) $("play-timer").textContent = "0:00";
  for (const id of ["play-input", "play-submit", "play-end"]) $(id).disabled = true;
  const s = g.solved;
  const values = { score: g.score, total: s.score, found: g.found.size, words: s.n_words };
  feedback(`${timeUp ? t("play.time_up") : t("play.over")} ${t("play.final", values)}`, "over");
  if (g.vs != null) say(g.score > g.vs ? t("play.beat", { score: g.vs }) : t("play.not_beat", { score: g.vs }), "info");
  fillList($("play-missed"), sortedWords(s.words, "points").filter((w) => !g.found.has(w.word)));
  offerRemoval($("play-found"), s);
  $("challenge-url").value = challengeUrl(g);
  $("play-result").textContent = t("play.result_line", { ...values, lang: s.lang, size: `${s.rows}x${s.cols}`, board: s.board });
  $("play-summary").hidden = false;
  document.body.dataset.game = "over";
  $("play-start").focus();
}

// "not a word?" beside each found word once the game is over: the word goes on the player's blocklist of the
// lexicon (POST /api/word/remove, as `boggle-i18n word remove`); the next game's lexicon no longer has it.
function offerRemoval(ol, s) {
  ol.querySelectorAll("li").forEach((li) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "not-word";
    button.textContent = t("play.not_a_word");
    button.onclick = async (e) => {
      e.stopPropagation();
      button.disabled = true;
      try {
        const r = await api("/api/word/remove", { word: li.dataset.word, lexicon: s.lexicon.name, lang: s.lang });
        li.dataset.removed = "true";
        button.textContent = t("play.word_removed", { word: r.normalised, lexicon: r.lexicon });
        say(t("play.word_removed", { word: r.normalised, lexicon: r.lexicon }));
      } catch (err) {
        button.disabled = false;
        sayError(err);
      }
    };
    li.append(" ", button);
  });
}

async function copy(text, input) {
  if (input) input.select();
  try { await navigator.clipboard.writeText(text); } catch { document.execCommand("copy"); }
  say(t("copied"));
}

// ------------------------------------------------------------------ is it a word?

async function lookUp() {
  const word = $("word-input").value.trim();
  if (!word) return;
  const r = await api("/api/lookup?" + query({ word, lang: $("lang").value, lexicon: $("lexicon").value }));
  const a = $("word-answer");
  a.dataset.found = r.found;
  a.dataset.category = r.category;
  a.textContent = r.found ? t("word.yes", { word: r.key, lexicon: r.lexicon }) : t("word.no", { word: r.word, reason: t("reason." + r.category) });
  const small = document.createElement("small");
  small.className = "detail";
  small.textContent = t("word.detail", { detail: r.reason });
  a.append(document.createElement("br"), small);
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
    if (done.state === "error") sayError(apiError(done.error, done.error_code, done.error_params));
    else onEnd(done);
  });
  events.onerror = () => { if (events.readyState === EventSource.CLOSED) { stopButton.disabled = true; startButton.disabled = false; } };
  stopButton.onclick = () => fetch(`/api/jobs/${job.id}/stop`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
}

async function startCompare() {
  const langs = [...$("compare-langs").querySelectorAll("input:checked")].map((x) => x.value);
  $("compare-progress").textContent = "";
  $("compare-out").textContent = "";
  $("compare-chart").setAttribute("hidden", "");
  const body = { langs, size: $("compare-size").value, boards: Number($("compare-boards").value), seed: Number($("compare-seed").value) };
  // The run's events and result are kept, so a switch of interface language words them again.
  const run = state.compare = { events: [], done: null };
  await runJob("/api/compare", body,
    (ev) => { run.events.push(ev); const line = compareStep(ev); if (line) $("compare-progress").textContent += line + "\n"; },
    (done) => { run.done = done; showCompareRun(); },
    $("compare-stop"), $("compare-start"));
}

function showCompareRun() {
  const run = state.compare;
  const lines = run.events.map(compareStep).filter(Boolean);
  if (run.done) lines.push(t(run.done.state === "stopped" ? "compare.stopped" : "compare.finished", { seconds: run.done.seconds }));
  $("compare-progress").textContent = lines.map((x) => x + "\n").join("");
  $("compare-out").textContent = "";
  if (run.done) showCompare(run.done.result);
}

// The server sends what happened in numbers and names (compare.progress_line's facts); the catalogue words it.
// A job's "building" event: whose word list is built on first use and how much of it is read (the page's wording).
function buildingStep(ev) {
  const lang = I18n.languageName(ev.lang, ev.lang);
  return typeof ev.percent === "number" ? t("panel.building_lang", { lang, percent: ev.percent }) : t("panel.building_lang_any", { lang });
}

function compareStep(ev) {
  if (ev.step === "loading") return t("compare.loading", { lang: ev.lang });
  if (ev.step === "building") return buildingStep(ev);
  if (ev.step === "done") return t("compare.lang_done", { lang: ev.lang, done: ev.done, of: ev.of });
  if (ev.step !== "rolling") return "";
  return t("compare.rolling", { lang: ev.lang, boards: ev.boards, size: ev.size, how: sourceText(ev.source, "compare.source."), seed: String(ev.seed) });
}

// How a language's boards were made (`prefix` + dice, faces or alphabet), from the source the library reports.
function sourceText(source, prefix) {
  if (source.kind === "dice") return t(prefix + "dice", { dice: source.dice });
  return t(prefix + (source.dice ? "faces" : "alphabet"), { dice: source.dice, lexicon: source.lexicon });
}

function showCompare(result) {
  if (!result || !result.rows.length) return;
  const table = document.createElement("table");
  table.id = "compare-table";
  const head = table.createTHead().insertRow();
  // Column names and the two worded columns (boards from, rules) in the interface language; figures as computed.
  const columns = result.columns || [];
  result.headers.forEach((h, i) => { head.appendChild(document.createElement("th")).textContent = columns[i] ? t("compare.col." + columns[i]) : h; });
  const body = table.createTBody();
  result.rows.forEach((row, k) => {
    const tr = body.insertRow();
    const lang = result.languages[k];
    row.forEach((cell, i) => {
      let text = cell;
      if (columns[i] === "source" && lang) text = sourceText(lang.boards_from, "compare.cell.");
      if (columns[i] === "rules" && lang) text = t("compare.cell.rules", { min: lang.rules.min_length, scoring: lang.rules.scoring.name });
      const td = tr.insertCell();
      td.textContent = text;
      if (columns[i]) td.dataset.col = columns[i];
    });
  });
  $("compare-out").appendChild(table);
  drawChart(result.languages);
}

// One line per language: the share of boards at each score (20 bins up to the highest score). The SVG has a
// viewBox and scales to its box (style.css), so it fits a phone.
function drawChart(langs) {
  const svg = $("compare-chart");
  // Drawn for the width it will have: a phone gets a narrower viewBox, so its text is not scaled down to specks.
  const room = $("view-compare").clientWidth || 720;
  const W = room < 560 ? 420 : 720, H = room < 560 ? 300 : 320, L = 50, B = 30, T = 10, R = 130;
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  const top = Math.max(...langs.map((l) => Math.max(...l.scores)), 1);
  const bins = 20, width = Math.ceil((top + 1) / bins);
  const shares = langs.map((l) => {
    const h = new Array(bins).fill(0);
    for (const s of l.scores) h[Math.min(bins - 1, Math.floor(s / width))] += 1;
    return h.map((n) => n / l.scores.length);
  });
  const ymax = Math.max(...shares.flat(), 0.01);
  const x = (i) => L + (i + 0.5) * (W - L - R) / bins, y = (v) => H - B - v / ymax * (H - B - T);
  const colours = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#b35900", "#8c564b", "#c2188b", "#0f7c8a"];
  const text = (s) => escapeHtml(String(s));
  let out = `<line x1="${L}" y1="${H - B}" x2="${W - R}" y2="${H - B}" stroke="#444"/><line x1="${L}" y1="${T}" x2="${L}" y2="${H - B}" stroke="#444"/>`;
  out += `<text x="${(W - R + L) / 2}" y="${H - 5}" text-anchor="middle">${text(t("compare.x_axis", { width }))}</text>`;
  out += `<text x="${L + 6}" y="${T + 10}">${text(t("compare.y_axis"))}</text><text x="${L - 4}" y="${T + 10}" text-anchor="end">${(ymax * 100).toFixed(0)}%</text>`;
  for (let i = 0; i <= bins; i += 5) out += `<text x="${L + i * (W - L - R) / bins}" y="${H - B + 14}" text-anchor="middle">${i * width}</text>`;
  langs.forEach((l, k) => {
    const c = colours[k % colours.length];
    const pts = shares[k].map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    out += `<polyline class="series" data-lang="${text(l.lang)}" fill="none" stroke="${c}" stroke-width="2" points="${pts}"/>`;
    // the legend reads in the page's direction (the plot itself keeps its axes: scores grow to the right)
    const legend = I18n.rtl() ? `x="${W - 6}" direction="rtl"` : `x="${W - R + 10}"`;
    out += `<text ${legend} y="${T + 16 + 18 * k}" fill="${c}">${text(t("compare.legend", { lang: l.lang, mean: l.mean }))}</text>`;
  });
  svg.innerHTML = out;
  svg.removeAttribute("hidden"); // an SVG element has no `hidden` property: the attribute is what CSS hides

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
  $("search-progress").textContent = t("search.starting");
  await runJob("/api/optimize", body,
    (ev) => {
      if (ev.step === "loading") $("search-progress").textContent = t("search.loading", { name: ev.lexicon });
      else if (ev.step === "building") $("search-progress").textContent = buildingStep(ev);
      else if (ev.best !== undefined) $("search-progress").textContent = t("search.progress", { best: ev.best, boards: ev.evaluated, rate: ev.rate, seconds: ev.elapsed.toFixed(1) });
    },
    (done) => {
      const r = done.result;
      if (!r) return;
      $("search-progress").dataset.state = done.state;
      $("search-progress").textContent = t(done.state === "stopped" ? "search.stopped" : "search.done",
        { best: r.best.length ? r.best[0].score : "-", boards: r.boards_evaluated, seconds: r.seconds, rate: r.boards_per_second || 0, seed: r.seed });
      for (const b of r.best) {
        const li = document.createElement("li");
        const a = document.createElement("a");
        a.href = "/?" + query({ view: "solve", board: b.board, lang: r.lang, lexicon: r.settings.lexicon, min_length: p.min_length, scoring: p.scoring, diagonals: p.diagonals });
        a.textContent = `${b.score} ${b.board}`;
        a.className = "open-board";
        a.dataset.score = b.score;
        a.dataset.board = b.board;
        li.appendChild(a);
        $("search-best").appendChild(li);
      }
    },
    $("search-stop"), $("search-start"));
}

// ------------------------------------------------------------------ records

async function showRecords() {
  const r = await api("/api/records");
  $("records-note").textContent = r.folder ? t("records.note_folder", { folder: r.folder }) : t("records.note");
  const body = $("records").tBodies[0];
  body.textContent = "";
  // Each cell carries its column's name (data-label): on a phone every row is a card (style.css) whose cells
  // say what they are, so nothing scrolls sideways; the roles keep it a table for screen readers.
  const labels = [...$("records").tHead.rows[0].cells].map((th) => th.textContent);
  const cols = ["lang", "size", "score", "board", "lexicon", "dice", "open"];
  for (const x of r.records) {
    const tr = body.insertRow();
    tr.setAttribute("role", "row");
    const cells = [x.lang || "", x.size, x.proven ? t("records.proven", { score: x.score }) : fmt(x.score), x.board, x.lexicon, x.dice || t("records.free")];
    cells.forEach((v, i) => {
      const td = tr.insertCell();
      td.setAttribute("role", "cell");
      td.dataset.col = cols[i];
      td.dataset.label = labels[i];
      // A board in a right-to-left script reads in its own direction, isolated from the label before it.
      const text = document.createElement(cols[i] === "board" ? "bdi" : "span");
      text.textContent = v;
      td.appendChild(text);
    });
    if (x.proven) tr.classList.add("proven");
    const a = document.createElement("a");
    a.href = "/?" + query({ view: "solve", board: x.board, lang: x.lang, lexicon: x.lexicon, min_length: x.rules && x.rules.min_length, scoring: x.rules && x.rules.scoring.name, diagonals: x.rules && x.rules.diagonals === false ? "false" : "" });
    a.textContent = t("records.solve");
    const open = tr.insertCell();
    open.setAttribute("role", "cell");
    open.dataset.col = "open";
    open.appendChild(a);
  }
}

// ------------------------------------------------------------------ rooms
// A room (docs/web.md, Rooms): created, joined and started with POST; played over one WebSocket. The server
// keeps the clock and checks every word against the room's board; this page only shows what it is sent.
// The player's token is kept in localStorage, so a phone that sleeps or reloads comes back to its round.

const ROOM_KEY = "boggle-i18n.room";

function savedRoom() {
  try { return JSON.parse(localStorage.getItem(ROOM_KEY) || "null"); } catch { return null; }
}

function saveRoom(r) {
  try { if (r) localStorage.setItem(ROOM_KEY, JSON.stringify(r)); else localStorage.removeItem(ROOM_KEY); } catch { /* private mode */ }
}

async function createRoom() {
  const r = await api("/api/rooms", { name: $("room-name").value });
  enterRoom({ room: r.room, token: r.token, me: r.me });
}

async function joinRoom() {
  const code = $("room-code").value.trim();
  const r = await api(`/api/rooms/${encodeURIComponent(code)}/join`, { name: $("room-name").value });
  enterRoom({ room: r.room, token: r.token, me: r.me });
}

function enterRoom(saved) {
  saveRoom(saved);
  if (state.room && state.room.socket) { state.room.left = true; state.room.socket.close(); }
  state.room = { code: saved.room, token: saved.token, me: saved.me, socket: null, data: null, left: false, shownRound: 0, startsAt: 0, endsAt: 0, sent: 0 };
  history.replaceState(null, "", "/?" + query({ view: "room", room: saved.room }));
  connectRoom();
  showRoom();
}

function leaveRoom() {
  const R = state.room;
  if (R) { R.left = true; if (R.socket) R.socket.close(); }
  state.room = null;
  saveRoom(null);
  history.replaceState(null, "", "/?" + query({ view: "room" }));
  showRoom();
}

function connectRoom() {
  const R = state.room;
  if (!R || R.left || (R.socket && R.socket.readyState <= 1)) return;
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/rooms/${encodeURIComponent(R.code)}/socket`);
  R.socket = ws;
  ws.onopen = () => ws.send(JSON.stringify({ type: "hello", token: R.token }));
  ws.onmessage = (e) => roomMessage(R, JSON.parse(e.data));
  ws.onclose = (e) => {
    if (R.socket !== ws) return;
    R.socket = null;
    if (R.left || state.room !== R) return;
    if (e.code === 4403 || e.code === 4404) { leaveRoom(); return; } // the room closed, or this token is not in it
    $("room-status").textContent = t("room.reconnecting");
    setTimeout(connectRoom, 1000);
  };
}

function roomMessage(R, m) {
  if (state.room !== R) return;
  if (m.type === "state") {
    R.data = m;
    R.startsAt = Date.now() + (m.starts_in_ms || 0);
    R.endsAt = Date.now() + (m.ends_in_ms || 0);
    showRoom();
  } else if (m.type === "players" && R.data) {
    R.data.players = m.players;
    showRoomPlayers();
  } else if (m.type === "checked" && R.data) {
    R.data.words = [...(R.data.words || []), m.answer];
    showRoomWords();
    roomFeedback(m.answer);
    if (m.answer.path) Board.draw($("room-board"), $("room-path"), m.answer.path); // [row, col] pairs
  } else if (m.type === "error") {
    if (m.code === "room.token" || m.code === "room.unknown") saveRoom(null);
    sayError(apiError(m.error, m.code, m.params));
  }
}

function sendWord(word) {
  const R = state.room;
  word = word.trim();
  if (!R || !word || !R.data || R.data.phase !== "running") return;
  if (!R.socket || R.socket.readyState !== 1) { $("room-feedback").textContent = t("room.reconnecting"); return; }
  R.socket.send(JSON.stringify({ type: "word", word }));
  R.sent += 1;
}

// The server's answer about a word, worded in the interface language (its status; `reason` is English).
function roomWordText(w) {
  if (w.status === "not-a-word" && w.category) return t("feedback.not_word", { word: w.written, reason: t("reason." + w.category) });
  return t("room.status." + w.status, { word: w.written, points: w.points });
}

function roomFeedback(w) {
  const f = $("room-feedback");
  f.textContent = roomWordText(w);
  f.dataset.kind = w.status;
}

function showRoomWords() {
  const R = state.room;
  const words = (R && R.data && R.data.words) || [];
  const ol = $("room-words");
  ol.innerHTML = words.slice().reverse().map((w) =>
    `<li data-status="${escapeHtml(w.status)}" data-word="${escapeHtml(w.word || w.written)}"><span class="w" dir="auto">${escapeHtml(w.written)}</span> <span class="pts">${w.points}</span></li>`).join("");
}

function showRoomPlayers() {
  const R = state.room;
  const ul = $("room-players");
  ul.textContent = "";
  for (const p of R.data.players) {
    const li = document.createElement("li");
    li.dataset.player = p.id;
    li.dataset.words = p.words;
    if (!p.online) li.classList.add("away");
    const name = document.createElement("bdi");
    name.textContent = p.name;
    li.append(name, " " + t("room.player_words", { words: p.words }));
    if (p.host) li.append(" · " + t("room.host_mark"));
    if (p.id === R.me) li.append(" · " + t("room.you"));
    if (!p.online) li.append(" · " + t("room.away"));
    ul.appendChild(li);
  }
}

function roomTick() {
  const R = state.room;
  if (!R || !R.data) return;
  const phase = R.data.phase;
  if (phase === "countdown") {
    $("room-status").textContent = t("room.starting", { seconds: Math.max(0, Math.ceil((R.startsAt - Date.now()) / 1000)) });
  } else if (phase === "running") {
    const s = Math.max(0, Math.ceil((R.endsAt - Date.now()) / 1000));
    $("room-timer").textContent = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
    if (s === 0) $("room-status").textContent = t("room.judging");
  }
}

// The room as its last state message has it: lobby, countdown, the round, or its results.
function showRoom() {
  const R = state.room;
  $("room-enter").hidden = Boolean(R);
  $("room-in").hidden = !R;
  if (state.view === "room") $("board-panel").hidden = !(R && R.data && R.data.host);
  if (!R) { document.body.dataset.room = "none"; return; }
  const d = R.data;
  $("room-title").textContent = t("room.code_is", { code: R.code });
  if (!d) { document.body.dataset.room = "connecting"; return; }
  document.body.dataset.room = d.phase;
  $("room-link").textContent = d.join_url;
  $("room-link").href = d.join_url;
  $("room-qr").innerHTML = d.qr_svg || ""; // made by the server (segno) from the join link
  showRoomPlayers();
  const playing = d.phase === "countdown" || d.phase === "running" || d.phase === "judging";
  $("room-host").hidden = !d.host || playing;
  $("room-start").textContent = t(d.round ? "room.rematch" : "room.start");
  if (d.settings && d.settings.seconds && !playing) $("room-seconds").value = d.settings.seconds;
  $("room-timer").hidden = d.phase !== "running";
  const status = { lobby: d.host ? "" : t("room.wait"), judging: t("room.judging"), over: d.host ? "" : t("room.wait_rematch") };
  if (d.phase in status) $("room-status").textContent = status[d.phase];
  $("room-play").hidden = !(d.phase === "running" || d.phase === "judging" || d.phase === "over") || !d.board;
  $("room-results").hidden = d.phase !== "over";
  if (d.board && R.shownRound !== d.round) {
    R.shownRound = d.round;
    Board.render($("room-board"), $("room-path"), d.board.grid, d.board.shown_grid);
    $("room-board").dataset.board = d.board.board;
    $("room-feedback").textContent = "";
    $("room-input").value = "";
  }
  for (const id of ["room-input", "room-submit"]) $(id).disabled = d.phase !== "running";
  showRoomWords();
  roomTick();
  if (d.phase === "running") $("room-status").textContent = t("play.go");
  if (d.phase === "over" && d.results) showRoomResults(d.results);
}

// Every list with its shared words struck, each total, and the words nobody found (judging.judgement_dict).
function showRoomResults(res) {
  const box = $("room-lists");
  box.textContent = "";
  if (res.error) sayError(apiError(res.error, res.code, res.params)); // the round could not be judged
  for (const p of res.players) {
    const div = document.createElement("div");
    div.className = "room-list";
    div.dataset.player = p.name;
    div.dataset.total = p.total;
    const h = document.createElement("h3");
    const name = document.createElement("bdi");
    name.textContent = p.name;
    h.append(name, " " + t("room.total", { points: p.total }));
    const ol = document.createElement("ol");
    ol.className = "words";
    ol.innerHTML = p.words.map((w) => {
      const text = `<span class="w" dir="auto">${escapeHtml(w.written)}</span>`;
      const shown = w.status === "shared" ? `<s>${text}</s>` : text;
      return `<li data-status="${escapeHtml(w.status)}" data-word="${escapeHtml(w.word || w.written)}" title="${escapeHtml(roomWordText(w))}">${shown} <span class="pts">${w.points}</span></li>`;
    }).join("");
    div.append(h, ol);
    box.appendChild(div);
  }
  fillList($("room-missed"), (res.missed || []).map((w) => ({ ...w, path: w.path || [] }))); // paths: [row, col] pairs
}

async function startRound() {
  const R = state.room;
  const dice = $("dice").value;
  const p = { ...boardParams(""), size: sizeText(), token: R.token, seconds: Number($("room-seconds").value) };
  delete p.board;
  if (dice.startsWith("letters:")) p.letters = dice.slice(8);
  else p.dice = dice;
  await api(`/api/rooms/${encodeURIComponent(R.code)}/start`, p);
}

// ------------------------------------------------------------------ views, interface language, start-up

function showView(view, focus = false) {
  state.view = view;
  document.body.dataset.view = view;
  for (const b of document.querySelectorAll("#tabs button")) {
    const on = b.dataset.view === view;
    b.setAttribute("aria-selected", on);
    b.tabIndex = on ? 0 : -1;
    if (on && focus) b.focus();
  }
  for (const s of document.querySelectorAll(".view")) s.hidden = s.id !== "view-" + view;
  $("board-panel").hidden = view === "records" || view === "compare" || (view === "room" && !(state.room && state.room.data && state.room.data.host));
  $("skip-game").hidden = view !== "play";
  if (view === "play") $("settings").open = false;
  if (view === "solve" || view === "search") $("settings").open = true;
  settingsSummary();
  if (view === "records") showRecords().catch(sayError);
  if (view === "play" && !state.game) startGame().catch(sayError);
  if (view === "solve") {
    if (state.solved) history.replaceState(null, "", shareUrl(state.solved).slice(location.origin.length));
    else solve().catch(sayError);
  }
  if (view !== "solve" && view !== "play") history.replaceState(null, "", "/?" + query({ view, lang: $("lang").value }));
}

// Tabs: one Tab stop; arrow keys, Home and End move between them (the WAI-ARIA tabs pattern).
function bindTabs() {
  const tabs = [...document.querySelectorAll("#tabs button")];
  for (const b of tabs) b.addEventListener("click", () => showView(b.dataset.view));
  $("tabs").addEventListener("keydown", (e) => {
    const i = tabs.indexOf(document.activeElement);
    if (i < 0) return;
    const rtl = document.documentElement.dir === "rtl";
    const step = { ArrowRight: rtl ? -1 : 1, ArrowLeft: rtl ? 1 : -1 }[e.key];
    let j = null;
    if (step) j = (i + step + tabs.length) % tabs.length;
    if (e.key === "Home") j = 0;
    if (e.key === "End") j = tabs.length - 1;
    if (j === null) return;
    e.preventDefault();
    showView(tabs[j].dataset.view, true);
  });
}

async function setInterfaceLanguage(code) {
  await I18n.load(code);
  I18n.apply();
  $("ui-lang").value = code;
  try { localStorage.setItem("boggle-i18n.ui", code); } catch { /* private mode */ }
  if (state.languages.length) {
    nameLanguages();
    fillDice($("dice").value);
    fillLexicons($("lexicon").value);
  }
  if (state.solved) showSolved();
  if (state.view === "records") showRecords().catch(sayError);
  if (state.compare) showCompareRun();
  if (state.room) showRoom();
  if (state.game) {
    showPlayScore();
    if (state.game.over) { state.game.over = false; endGame(false); }
  }
  settingsSummary();
}

function chooseInterfaceLanguage(url) {
  const asked = url.get("ui");
  if (asked && asked in I18n.LANGS) return asked;
  let saved = null;
  try { saved = localStorage.getItem("boggle-i18n.ui"); } catch { /* private mode */ }
  if (saved && saved in I18n.LANGS) return saved;
  return I18n.fromBrowser(navigator.languages || [navigator.language]);
}

function guard(fn) {
  return async (e) => {
    if (e && e.preventDefault) e.preventDefault();
    say("");
    try { await fn(e); } catch (err) { sayError(err); }
  };
}

// A change in the board panel: in Play it starts a new game on the new settings; in Solve it solves again.
function panelChanged(newBoard) {
  if (state.view === "room") return null; // the host's next round takes the panel as it is then
  if (state.view === "play") return startGame();
  if (newBoard) $("board-text").value = "";
  return state.solved || newBoard ? solve() : null;
}

async function main() {
  const url = new URLSearchParams(location.search);
  for (const [code, name] of Object.entries(I18n.LANGS)) $("ui-lang").add(new Option(name, code));
  const ui = chooseInterfaceLanguage(url);
  const view = url.get("room") ? "room" : VIEWS.includes(url.get("view")) ? url.get("view") : url.get("board") ? "solve" : "play";
  // A shared Solve link's board is solved while the catalogue and the language list load, side by side.
  const keys = ["board", "lang", "lexicon", "size", "min_length", "scoring", "diagonals"];
  const shared = url.get("board") && view === "solve" ? api("/api/solve?" + query(Object.fromEntries(keys.map((k) => [k, url.get(k)])))) : null;
  if (shared) shared.catch(() => {}); // reported below, once the page is set up
  const [data] = await Promise.all([api("/api/languages"), I18n.load(ui)]);
  I18n.apply();
  $("ui-lang").value = ui;
  state.languages = data.languages;
  state.scoring = data.scoring;
  fillLanguages();
  bindList($("words"), $("solve-board"), $("solve-path"));
  bindList($("play-found"), $("play-board"), $("play-path"));
  bindList($("play-missed"), $("play-board"), $("play-path"));
  // The board's language: the link's; else one with a built word list (no wait): the interface language's,
  // English, the first; else one whose list is installed (a build, no download) in the same order; else English.
  const built = (l) => l.lexicons.some((x) => x.state === "built");
  const playable = (l) => Boolean(l.playable_lexicon);
  let lang = url.get("lang");
  for (const ok of [built, playable]) {
    const fits = state.languages.filter(ok);
    lang = lang || [ui, "en"].find((code) => fits.some((l) => l.lang === code)) || (fits[0] && fits[0].lang);
  }
  lang = lang || "en";
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
  bindTabs();
  $("ui-lang").addEventListener("change", guard(() => setInterfaceLanguage($("ui-lang").value)));
  $("lang").addEventListener("change", guard(() => { fillLexicons(); fillDice(); return panelChanged(true); }));
  $("lexicon").addEventListener("change", guard(() => panelChanged(false)));
  $("size").addEventListener("change", guard(() => {
    $("custom-size-label").hidden = $("size").value !== "custom";
    fillDice();
    return $("size").value === "custom" ? null : panelChanged(true);
  }));
  $("custom-size").addEventListener("change", guard(() => { fillDice(); return panelChanged(true); }));
  $("dice").addEventListener("change", guard(() => (state.view === "play" ? startGame() : null)));
  $("roll").addEventListener("click", guard(() => { $("board-text").value = ""; return solve(); }));
  $("board-form").addEventListener("submit", guard(() => (state.view === "play" ? startGame() : solve())));
  for (const id of ["min-length", "scoring", "diagonals"]) $(id).addEventListener("change", guard(() => panelChanged(false)));
  $("sort").addEventListener("change", showWords);
  $("filter").addEventListener("input", showWords);
  $("copy-link").addEventListener("click", guard(() => copy($("share-url").value, $("share-url"))));
  $("copy-challenge").addEventListener("click", guard(() => copy($("challenge-url").value, $("challenge-url"))));
  $("copy-result").addEventListener("click", guard(() => copy(`${$("play-result").textContent} ${$("challenge-url").value}`)));
  $("play-start").addEventListener("click", guard(() => startGame()));
  $("play-daily").addEventListener("click", guard(dailyGame));
  $("play-end").addEventListener("click", () => endGame(false));
  $("play-form").addEventListener("submit", guard(async () => { const v = $("play-input").value; $("play-input").value = ""; await guess(v); }));
  state.tracer = Board.trace($("play-board"), $("play-path"), {
    enabled: () => Boolean(state.game && !state.game.over),
    change: (path) => { $("play-current").textContent = path.length ? Board.word($("play-board"), path) : ""; },
    submit: (path) => guessPath(path).catch(sayError),
  });
  $("word-form").addEventListener("submit", guard(lookUp));
  $("room-form-enter").addEventListener("submit", guard(joinRoom));
  $("room-create").addEventListener("click", guard(createRoom));
  $("room-start").addEventListener("click", guard(startRound));
  $("room-leave").addEventListener("click", () => leaveRoom());
  $("room-form").addEventListener("submit", (e) => { e.preventDefault(); const v = $("room-input").value; $("room-input").value = ""; sendWord(v); });
  bindList($("room-missed"), $("room-board"), $("room-path"));
  Board.trace($("room-board"), $("room-path"), {
    enabled: () => Boolean(state.room && state.room.data && state.room.data.phase === "running"),
    change: (path) => { $("room-current").textContent = path.length ? Board.word($("room-board"), path) : ""; },
    submit: (path) => sendWord(Board.word($("room-board"), path)),
  });
  setInterval(roomTick, 250);
  // A phone that slept: its connection may be gone; the room's state comes back with it.
  document.addEventListener("visibilitychange", () => { if (!document.hidden) connectRoom(); });
  if (url.get("room")) {
    $("room-code").value = url.get("room");
    const saved = savedRoom();
    if (saved && saved.room === url.get("room")) enterRoom(saved);
  }
  $("compare-form").addEventListener("submit", guard(startCompare));
  $("search-form").addEventListener("submit", guard(startSearch));
  if (shared) {
    $("board-text").value = url.get("board");
    state.solved = await shared.catch((e) => { sayError(e); return null; });
  }
  if (view === "play" && url.get("board")) {
    // A challenge link: the same board, rules and time as the friend who sent it.
    const minutes = Number(url.get("minutes")) || 0;
    state.game = { over: true }; // showView must not roll a board of its own
    showView("play");
    await startGame({ board: url.get("board"), minutes: minutes > 0 && minutes <= 60 ? minutes : null, vs: url.has("vs") ? Number(url.get("vs")) : null }).catch(sayError);
  } else if (view === "play" && url.get("daily")) {
    state.game = { over: true }; // showView must not roll a board of its own
    showView("play");
    await dailyGame().catch(sayError);
  } else {
    showView(view);
    if (state.solved) showSolved();
  }
  document.body.dataset.ready = "true";
}

main().catch(sayError);
