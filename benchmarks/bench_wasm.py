"""The static site's weight and speed in Debian's Chromium: what docs/performance.md quotes for export-web.

    python benchmarks/bench_wasm.py [--boards N] [--loads N]

Builds `en` (ENABLE, English's default) from ../shared into a temporary store, exports it
(`boggle-i18n export-web --lang en`), serves the folder with `python -m http.server` on loopback
and drives Chromium (Playwright) at 390x844:
- weight: every byte a first visit fetches before any lexicon (the app shell), what the service
  worker then caches in the background, and the English lexicon as sent (gzipped trie + rules);
- a cold first playable board: a fresh browser context, from navigation to a running game;
- a 4x4 solve in the browser: /api/solve answered by the page's in-browser API (board read,
  WebAssembly walk, words and paths as the page gets them), on N boards rolled from the English
  dice, after one warm-up.
Nothing is asserted; medians are printed with the machine's load (os.getloadavg).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SOURCE = REPO.parent / "shared" / "data" / "lexicons" / "en-enable1.txt"
CHROMIUM = "/usr/bin/chromium"
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}

SOLVE_JS = """async (n) => {
  const rolled = [];
  for (let i = 0; i < n; i++) rolled.push((await (await LocalApi.fetch("/api/roll?lang=en&size=4x4")).json()).board);
  await LocalApi.fetch("/api/solve?lexicon=en&board=" + encodeURIComponent(rolled[0]));
  const api = [], words = [];
  for (const board of rolled) {
    const t0 = performance.now();
    const answer = await (await LocalApi.fetch("/api/solve?lexicon=en&board=" + encodeURIComponent(board))).json();
    api.push(performance.now() - t0);
    words.push(answer.n_words);
  }
  return { api, words };
}"""


def run(cmd: list[str], **kw: object) -> None:
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, **kw)  # type: ignore[call-overload]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=200)
    parser.add_argument("--loads", type=int, default=5)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        store, site = Path(tmp) / "store", Path(tmp) / "site"
        cli = [sys.executable, "-m", "boggle_i18n"]
        run([*cli, "build-lexicon", "en", "--source", str(SOURCE), "--store", str(store)], stderr=subprocess.DEVNULL)
        run([*cli, "export-web", str(site), "--lang", "en", "--store", str(store)], stderr=subprocess.DEVNULL)
        port = 8700 + os.getpid() % 200
        server = subprocess.Popen(
            [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "-d", str(site)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        url = f"http://127.0.0.1:{port}/"
        try:
            for _ in range(50):
                try:
                    urllib.request.urlopen(url, timeout=2).close()
                    break
                except OSError:
                    time.sleep(0.1)
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
                sizes: dict[str, int] = {}

                def seen(response: object) -> None:
                    name = response.url.removeprefix(url)  # type: ignore[attr-defined]
                    if name.startswith("?"):
                        name = ""
                    try:
                        sizes.setdefault(name or "index.html", len(response.body()))  # type: ignore[attr-defined]
                    except Exception:
                        pass

                loads = []
                for i in range(args.loads):
                    context = browser.new_context(**PHONE)
                    page = context.new_page()
                    if i == 0:
                        page.on("response", seen)
                    started = time.perf_counter()
                    page.goto(url)
                    page.wait_for_selector("body[data-game=running]", state="attached", timeout=60_000)
                    loads.append(time.perf_counter() - started)
                    if i == 0:
                        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=60_000)
                        page.wait_for_timeout(500)
                        timing = page.evaluate(SOLVE_JS, args.boards)
                    context.close()
                browser.close()
        finally:
            server.terminate()
            server.wait()
        lexicon = {k: v for k, v in sizes.items() if k.startswith("data/lexicons/")}
        page_files = {k: v for k, v in sizes.items() if k not in lexicon}
        on_disk = {str(f.relative_to(site)): f.stat().st_size for f in site.rglob("*") if f.is_file()}
        print(f"load average {os.getloadavg()[0]:.2f}; Chromium {CHROMIUM}, 390x844, http.server on loopback")
        print(
            f"app shell, first visit before any lexicon: {sum(page_files.values()) / 1024:.0f} KiB in "
            f"{len(page_files)} files ({', '.join(sorted(page_files))})"
        )
        print(f"English lexicon as sent: {sum(lexicon.values()) / 1e6:.2f} MB ({', '.join(sorted(lexicon))})")
        rest = {k: v for k, v in on_disk.items() if not k.startswith("data/lexicons/")}
        print(
            f"the service worker's cache besides lexicons (every catalogue, icons, manifest): "
            f"{sum(rest.values()) / 1024:.0f} KiB in {len(rest)} files"
        )
        print(f"the whole export on disk: {sum(on_disk.values()) / 1e6:.2f} MB in {len(on_disk)} files")
        print(
            f"cold first playable board (new context, lexicon fetched, {args.loads} loads): "
            f"median {statistics.median(loads) * 1000:.0f} ms, max {max(loads) * 1000:.0f} ms"
        )
        api = timing["api"]
        print(
            f"4x4 solve in the browser, /api/solve answered in the page, {len(api)} rolled boards "
            f"(median {statistics.median(timing['words']):.0f} words): median {statistics.median(api):.2f} ms, "
            f"p90 {statistics.quantiles(api, n=10)[-1]:.2f} ms, max {max(api):.2f} ms"
        )


if __name__ == "__main__":
    main()
