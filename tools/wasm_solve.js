// Solve boards with the browser's solver (static/solver.js over the WebAssembly walk) under Node: the parity test
// (tests/test_wasm_parity.py) and the benchmark (benchmarks/bench_wasm.py) feed it a job file.
//   node tools/wasm_solve.js JOB.json > OUT.json
// JOB: {"wasm": path, "lexicons": {name: path to .bgc}, "boards": [{"lexicon", "rows", "cols", "faces",
// "rules": {"min_length", "diagonals", "points"}}], "repeat": n (optional, for timing)}
// OUT: {"results": [{"score", "words": [[word, points, path]]}], "ms": [per-board solve times of the last round]}
"use strict";
const fs = require("fs");
const path = require("path");
const BoggleSolver = require(path.join(__dirname, "..", "boggle_i18n", "web", "static", "solver.js"));

async function main() {
  const job = JSON.parse(fs.readFileSync(process.argv[2], "utf-8"));
  const wasm = await WebAssembly.compile(fs.readFileSync(job.wasm));
  const solvers = {};
  for (const [name, file] of Object.entries(job.lexicons)) {
    solvers[name] = await BoggleSolver.create(wasm, BoggleSolver.parseCompiled(fs.readFileSync(file)));
  }
  const results = [];
  const ms = [];
  for (let round = 0; round < (job.repeat || 1); round++) {
    results.length = 0;
    ms.length = 0;
    for (const b of job.boards) {
      const started = performance.now();
      const solved = solvers[b.lexicon].solve(b, b.rules);
      ms.push(performance.now() - started);
      results.push({ score: solved.score, words: solved.words.map((w) => [w.word, w.points, w.path]) });
    }
  }
  process.stdout.write(JSON.stringify({ results, ms }));
}

main().catch((err) => {
  process.stderr.write(`Error: ${err.message}\n`);
  process.exit(1);
});
