// The static site's API (static/local_api.js) under Node, reading an export-web folder instead of a host:
// tests/test_wasm_parity.py asks it what it asks `serve` and compares the answers.
//   node tools/static_api.js SITE_DIR URLS.json > ANSWERS.json      (URLS: ["/api/solve?board=...", ...])
"use strict";
const fs = require("fs");
const path = require("path");
const STATIC = path.join(__dirname, "..", "boggle_i18n", "web", "static");
globalThis.BoggleSolver = require(path.join(STATIC, "solver.js"));
const LocalApi = require(path.join(STATIC, "local_api.js"));

async function main() {
  const site = process.argv[2];
  globalThis.fetch = async (file) => {
    try {
      return new Response(fs.readFileSync(path.join(site, String(file))));
    } catch {
      return new Response("", { status: 404 });
    }
  };
  const answers = [];
  for (const url of JSON.parse(fs.readFileSync(process.argv[3], "utf-8"))) {
    const res = await LocalApi.fetch(url);
    answers.push({ status: res.status, body: await res.json() });
  }
  process.stdout.write(JSON.stringify(answers));
}

main().catch((err) => {
  process.stderr.write(`Error: ${err.message}\n`);
  process.exit(1);
});
