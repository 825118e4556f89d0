"""Engine speed, measured in one run: boards/s per engine, ratios, load and JIT time, peak RSS, `score` end to end.

    python benchmarks/bench_engines.py [--boards N] [--repeat R] [--score-boards N] [--quick]

The workload of the field's published figures: seeded uniform random boards over
a-z with q = qu, ENABLE2K, 3+ letters, the classic 4x4 table on every size. Each
engine (`fast` on its C kernel, `numba`, `reference`) scores the same boards; so
does a plain set-of-prefixes Python solver written below (the usual 40-line
solver), the baseline of the ratios. Dutch
boards are rolled from the `nl-4x4` dice and scored on `nl`. Then whole
`boggle-i18n score` processes read a file of boards with 1 and 2 workers. Last,
`score --workers 1` reads the same boards written in each notation (bare, rows
split by `/` or spaces, `[qu]` in brackets), for two kinds of board (uniform
letters, English dice rolls), beside the in-process engine and the plain Python
solver on the same boards; and `random --count N` is timed alone and piped into
`score -`.
Lexicons are built from ../shared into a temporary store. Figures are medians of
R runs; nothing here is asserted by a test.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" / "data" / "lexicons"
LETTERS = "abcdefghijklmnopqrstuvwxyz"


def median_time(fn, repeat: int) -> float:  # type: ignore[no-untyped-def]
    """Median wall time of `fn()`."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def random_boards(n: int, cells: int, seed: int) -> list[str]:
    """Uniform random boards as strings of a-z (q is read as qu)."""
    rng = random.Random(seed)
    return ["".join(rng.choice(LETTERS) for _ in range(cells)) for _ in range(n)]


# --------------------------------------------------------------------------- the baseline


def prefix_solver(words: set[str], prefixes: set[str], faces: list[str], side: int, points: list[int]) -> int:
    """The usual pure-Python solver: DFS over cells, pruned by a set of every prefix."""
    adjacent = [
        [
            r2 * side + c2
            for r2 in range(max(0, r - 1), min(side, r + 2))
            for c2 in range(max(0, c - 1), min(side, c + 2))
            if (r2, c2) != (r, c)
        ]
        for r in range(side)
        for c in range(side)
    ]
    found: set[str] = set()

    def walk(cell: int, text: str, used: int) -> None:
        if text in words:
            found.add(text)
        for nxt in adjacent[cell]:
            if not used >> nxt & 1:
                longer = text + faces[nxt]
                if longer in prefixes:
                    walk(nxt, longer, used | 1 << nxt)

    for cell in range(side * side):
        if faces[cell] in prefixes:
            walk(cell, faces[cell], 1 << cell)
    return sum(points[min(len(w), len(points) - 1)] for w in found)


# --------------------------------------------------------------------------- one engine in a child process


def child(store: str, lexicon_name: str, engine: str, boards_file: str, cells: int, repeat: int) -> None:
    """Load, prepare and score in a fresh process; print timings as JSON (peak RSS is read by the parent)."""
    started = time.perf_counter()
    import numpy as np

    from boggle_i18n import Lexicon
    from boggle_i18n.scoring import get_scoring
    from boggle_i18n.solver import Rules
    from boggle_i18n.solver.scorer import prepare_scorer

    if engine in ("fast", "numba"):  # the kernel module: counted as import, not as prepare
        from boggle_i18n.solver.fast import load_kernel

        load_kernel("c" if engine == "fast" else "numba")
    imported = time.perf_counter()
    lexicon = Lexicon.load(lexicon_name, store)
    loaded = time.perf_counter()
    side = int(cells**0.5)
    language_q = {"q": "qu"} if lexicon.manifest.get("language") == "en" else {}
    scorer = prepare_scorer(lexicon, Rules(3, get_scoring("classic-4x4"), True), (side, side), engine=engine)
    prepared = time.perf_counter()
    texts = Path(boards_file).read_text().split()
    flat = [scorer.codec.index(language_q.get(ch, ch)) for text in texts for ch in text]
    codes = np.asarray(flat, dtype=np.int32).reshape(len(texts), cells)
    first_started = time.perf_counter()
    scorer.score_codes(codes[:1])
    first = time.perf_counter() - first_started
    cpu_started = time.process_time()
    seconds = median_time(lambda: scorer.score_codes(codes), repeat)
    cpu_seconds = (time.process_time() - cpu_started) / repeat
    scores, _ = scorer.score_codes(codes)
    print(
        json.dumps(
            {
                "import": imported - started,  # numpy, boggle_i18n and the kernel (numba's: numba)
                "load": loaded - imported,
                "prepare": prepared - loaded,
                "first_call": first,
                "boards_per_s": len(texts) / seconds,
                "cpu_boards_per_s": len(texts) / cpu_seconds,  # boards a CPU second: what a shared machine leaves
                "mean_score": float(scores.mean()),
                "peak_mib": peak_mib(),
            }
        )
    )


def peak_mib(pid: int | str = "self") -> float:
    """VmHWM (peak resident memory) of a process, in MiB.

    Read from /proc rather than getrusage: a child's ru_maxrss keeps the parent's
    peak across fork and exec, and this script's parent holds big word sets.
    """
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def run_child(args: list[str]) -> tuple[dict[str, float], float]:
    """Run this script as a child; (its JSON, its peak RSS in MiB)."""
    out = subprocess.run([sys.executable, __file__, "--child", *args], capture_output=True, text=True, check=False)
    if out.returncode:
        raise SystemExit(f"child {args} failed: {out.stderr}")
    data = json.loads(out.stdout)
    return data, data["peak_mib"]


def notations(faces: list[str], side: int) -> dict[str, str]:
    """One board in each notation `score` reads: a `qu` face is `q` (English shorthand) or `[qu]`."""
    short = ["q" if f == "qu" else f for f in faces]
    rows = ["".join(short[r * side : (r + 1) * side]) for r in range(side)]
    bracketed = ["".join(f if len(f) == 1 else f"[{f}]" for f in faces[r * side : (r + 1) * side]) for r in range(side)]
    return {"bare": "".join(rows), "/": "/".join(rows), "spaces": " ".join(rows), "/ and [qu]": "/".join(bracketed)}


def notation_rates(
    store: str, tmp: str, kinds: dict[str, list[list[str]]], words: set[str], prefixes: set[str], points: list[int],
    repeat: int,
) -> None:  # fmt: skip
    """`score --workers 1` end to end per notation and kind of board, beside the engine and the Python baseline."""
    n = len(next(iter(kinds.values())))
    print(f"\nboggle-i18n score --workers 1, whole process, {n:,} 4x4 boards a file, by notation (median of {repeat}):")
    print("load average (1, 5, 15 min) at the start: " + ", ".join(f"{x:.1f}" for x in os.getloadavg()))
    print(f"{'':16} {'':11} {'wall clock':-^41} {'CPU time (user + system)':-^28}")
    print(
        f"{'boards':16} {'notation':11} {'boards/s':>10} {'x bare':>7} {'x engine':>9} {'x prefix-set':>12} "
        f"{'boards/s':>10} {'x bare':>7} {'x engine':>9}  score"
    )
    for kind, boards in kinds.items():
        files = {}
        for name in ("bare", "/", "spaces", "/ and [qu]"):
            files[name] = Path(tmp) / f"{kind.split()[0]}-{len(files)}.txt"
            files[name].write_text("".join(notations(f, 4)[name] + "\n" for f in boards))
        some = boards[:1000]
        base = len(some) / median_time(
            lambda some=some: [prefix_solver(words, prefixes, f, 4, points) for f in some], repeat
        )
        run_score(store, "en-enable2k", files["bare"], 1)  # the page cache warm
        runs: dict[str, list[tuple[float, float, str, float]]] = {name: [] for name in files}
        engine_rates, engine_cpu = [], []
        for _ in range(repeat):  # alternating, so the machine's load falls on the engine and every notation alike
            engine, _ = run_child([store, "en-enable2k", "fast", str(files["bare"]), "16", "1"])
            engine_rates.append(engine["boards_per_s"])
            engine_cpu.append(engine["cpu_boards_per_s"])
            for name, path in files.items():
                runs[name].append(run_score(store, "en-enable2k", path, 1))
        rates = {name: n / statistics.median(r[0] for r in got) for name, got in runs.items()}
        cpu_rates = {name: n / statistics.median(r[3] for r in got) for name, got in runs.items()}
        in_process, in_process_cpu = statistics.median(engine_rates), statistics.median(engine_cpu)
        for name, rate in rates.items():
            print(
                f"{kind:16} {name:11} {rate:>10,.0f} {rate / rates['bare']:>7.2f} "
                f"{rate / in_process:>9.2f} {rate / base:>12.1f} {cpu_rates[name]:>10,.0f} "
                f"{cpu_rates[name] / cpu_rates['bare']:>7.2f} {cpu_rates[name] / in_process_cpu:>9.2f}  "
                f"{runs[name][0][2]}"
            )
        print(
            f"{kind:16} {'(engine)':11} {in_process:>10,.0f} {'':20} {in_process_cpu:>10,.0f}   "
            "in process, score_codes on the same boards"
        )
        print(f"{kind:16} {'(prefix-set)':11} {base:>10,.0f}   plain Python baseline, in process, 1,000 of them")
    print("load average (1, 5, 15 min) at the end: " + ", ".join(f"{x:.1f}" for x in os.getloadavg()))


def run_score(store: str, lexicon: str, boards_file: Path, workers: int) -> tuple[float, float, str, float]:
    """One whole `boggle-i18n score` process: (seconds, peak RSS of the main process in MiB, total score,
    CPU seconds, user + system)."""
    env = {**os.environ, "BOGGLE_I18N_HOME": store}
    exe = Path(sys.executable).with_name("boggle-i18n")
    started = time.perf_counter()
    proc = subprocess.Popen(
        [str(exe), "score", str(boards_file), "--lexicon", lexicon, "--workers", str(workers), "--min-length", "3",
         "--scoring", "classic-4x4"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip
    peak = 0.0
    while True:  # VmHWM only grows: the last reading before exit is the peak
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        try:
            peak = max(peak, peak_mib(proc.pid))
        except (OSError, ValueError):
            pass
        time.sleep(0.01)
    seconds = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read() if proc.stderr else ""
    if proc.returncode:
        raise SystemExit(f"score failed: {err}")
    total = err.strip().rsplit("total score ", 1)[-1]
    return seconds, peak, total, usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--boards", type=int, default=50_000, help="boards per size for the fast engine")
    parser.add_argument("--repeat", type=int, default=5, help="runs per figure (medians)")
    parser.add_argument("--score-boards", type=int, default=200_000, help="boards in the `score` end-to-end file")
    parser.add_argument("--notation-boards", type=int, default=1_000_000, help="boards a file, score by notation")
    parser.add_argument("--only-notations", action="store_true", help="only the by-notation `score` figures")
    parser.add_argument("--only-random", action="store_true", help="only the `random --count` figures")
    parser.add_argument("--quick", action="store_true", help="small figures, for a smoke run")
    parser.add_argument("--child", nargs=6, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        store, name, engine, boards_file, cells, repeat = args.child
        child(store, name, engine, boards_file, int(cells), int(repeat))
        return
    if args.quick:
        args.boards, args.repeat, args.score_boards, args.notation_boards = 5_000, 3, 20_000, 20_000

    from boggle_i18n import build_lexicon, get_dice
    from boggle_i18n.scoring import get_scoring

    py = platform.python_version()
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {py}, {platform.system()}")
    import numba
    import numpy

    from boggle_i18n.solver.fast import c_kernel_built

    print(f"numpy {numpy.__version__}, numba {numba.__version__}, C kernel built: {c_kernel_built()}")
    print("boards: seeded uniform a-z, q = qu; ENABLE2K; 3+ letters; classic table")
    with tempfile.TemporaryDirectory() as tmp:
        store = str(Path(tmp) / "store")
        build_lexicon("en-enable2k", source=SHARED / "en-enable2k.txt", store=store, download=False)
        build_lexicon("nl", source=SHARED / "nl-opentaal-wordlist.txt", store=store, download=False)
        classic = get_scoring("classic-4x4")
        points = [classic.points(n) for n in range(30)]
        words = {w.strip() for w in (SHARED / "en-enable2k.txt").read_text().split() if len(w.strip()) >= 3}
        prefixes = {w[:i] for w in words for i in range(1, len(w) + 1)}
        if args.only_random:
            random_rates(store, tmp, args.notation_boards, args.repeat)
            return
        if args.only_notations:
            notation_rates(store, tmp, board_kinds(args.notation_boards), words, prefixes, points, args.repeat)
            return

        # The first fast run compiles the trie into the store's cache: time it once, apart.
        warm = Path(tmp) / "warm.txt"
        warm.write_text("\n".join(random_boards(100, 16, seed=1)) + "\n")
        first, _ = run_child([store, "en-enable2k", "fast", str(warm), "16", "1"])
        print(f"first fast run: compiling ENABLE2K's trie into the store's cache {first['prepare'] * 1e3:.0f} ms")

        rows = []
        for side in (4, 5):
            cells = side * side
            boards = random_boards(args.boards, cells, seed=side)
            path = Path(tmp) / f"boards{side}.txt"
            path.write_text("\n".join(boards) + "\n")
            # Baseline: a slice of the same boards, in this process.
            some = boards[: max(200, args.boards // 50)]
            faces = [[("qu" if ch == "q" else ch) for ch in b] for b in some]
            base = len(some) / median_time(
                lambda fs=faces, s=side: [prefix_solver(words, prefixes, f, s, points) for f in fs], args.repeat
            )
            fast, fast_rss = run_child([store, "en-enable2k", "fast", str(path), str(cells), str(args.repeat)])
            nb, nb_rss = run_child([store, "en-enable2k", "numba", str(path), str(cells), str(args.repeat)])
            ref_path = Path(tmp) / f"ref{side}.txt"
            ref_path.write_text("\n".join(some) + "\n")
            ref, ref_rss = run_child([store, "en-enable2k", "reference", str(ref_path), str(cells), "3"])
            engines = [("fast (C)", fast, fast_rss), ("numba", nb, nb_rss), ("reference", ref, ref_rss)]
            rows.append((f"{side}x{side}", engines, base))

        print()
        print(f"{'board':6} {'engine':10} {'boards/s':>10} {'x prefix-set':>12} {'import ms':>9} {'load ms':>8} "
              f"{'prepare ms':>10} {'1st call ms':>11} {'peak MiB':>9}")  # fmt: skip
        for size, engines, base in rows:
            for name, fig, rss in engines:
                print(
                    f"{size:6} {name:10} {fig['boards_per_s']:>10,.0f} {fig['boards_per_s'] / base:>12.1f} "
                    f"{fig['import'] * 1e3:>9.0f} {fig['load'] * 1e3:>8.1f} {fig['prepare'] * 1e3:>10.1f} "
                    f"{fig['first_call'] * 1e3:>11.1f} "
                    f"{rss:>9.0f}"
                )
            print(f"{size:6} {'prefix-set':10} {base:>10,.0f} {1.0:>12.1f}   (plain Python baseline, in process)")
        print(
            "(import: numpy, boggle_i18n and the kernel module (numba for numba); load: Lexicon.load; prepare: "
            "compiled trie from the store's cache + scorer;\n 1st call: numba loads its kernels' machine code "
            "from its cache; the C kernel has nothing to load)"
        )

        # Dutch: boards rolled from the Dutch dice, on nl.
        rng = random.Random(11)
        dice = get_dice("nl-4x4")
        nl_boards = ["".join(dice.roll(rng).faces) for _ in range(args.boards)]
        nl_path = Path(tmp) / "nl.txt"
        nl_path.write_text("\n".join(nl_boards) + "\n")
        compile_run, _ = run_child([store, "nl", "fast", str(nl_path), "16", "1"])  # first: compiles and caches
        nl, nl_rss = run_child([store, "nl", "fast", str(nl_path), "16", str(args.repeat)])
        print(
            f"\nDutch: nl-4x4 dice rolls on nl ({nl['mean_score']:.1f} points a board): "
            f"{nl['boards_per_s']:,.0f} boards/s; "
            f"compiling nl's trie the first time {compile_run['prepare'] * 1e3:.0f} ms, "
            f"then prepare {nl['prepare'] * 1e3:.0f} ms; peak {nl_rss:.0f} MiB"
        )

        # score end to end.
        score_file = Path(tmp) / "score.txt"
        score_file.write_text("\n".join(random_boards(args.score_boards, 16, seed=99)) + "\n")
        print(f"\nboggle-i18n score, whole process, {args.score_boards:,} 4x4 boards (median of {args.repeat}):")
        results = {}
        run_score(store, "en-enable2k", score_file, 1)  # warm the page cache and numba's cache
        for workers in (1, 2):
            runs = [run_score(store, "en-enable2k", score_file, workers) for _ in range(args.repeat)]
            seconds = statistics.median(r[0] for r in runs)
            results[workers] = seconds
            print(
                f"  --workers {workers}: {seconds:.2f} s, {args.score_boards / seconds:,.0f} boards/s, "
                f"peak {max(r[1] for r in runs):.0f} MiB (main process), total score {runs[0][2]}"
            )
        in_process = rows[0][1][0][1]["boards_per_s"]
        ratio = in_process / (args.score_boards / results[1])
        print(f"  in-process fast engine / score --workers 1: {ratio:.2f}x")
        print(f"  --workers 2 speed-up over --workers 1: {results[1] / results[2]:.2f}x")
        nl_score = run_score(store, "nl", nl_path, 1)
        print(f"  score on nl ({args.boards:,} dice boards, --workers 1): peak {nl_score[1]:.0f} MiB")
        notation_rates(store, tmp, board_kinds(args.notation_boards), words, prefixes, points, args.repeat)
        random_rates(store, tmp, args.notation_boards, args.repeat)


def random_rates(store: str, tmp: str, n: int, repeat: int) -> None:
    """`random --count N` alone, piped into `score -`, and `score` of the same boards from a file, alternating."""
    exe = str(Path(sys.executable).with_name("boggle-i18n"))
    env = {**os.environ, "BOGGLE_I18N_HOME": store}
    rolled = Path(tmp) / "rolled.txt"
    roll = f"{exe} random --lang en --count {n} --seed 5"
    rules = "--lexicon en-enable2k --min-length 3 --scoring classic-4x4"
    commands = {
        "random --count N > file": f"{roll} > {rolled}",
        "random --count N | score -": f"{roll} | {exe} score - {rules} > /dev/null 2>&1",
        "score file (the same boards)": f"{exe} score {rolled} {rules} > /dev/null 2>&1",
    }
    subprocess.run(commands["random --count N > file"], shell=True, env=env, check=True)
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(repeat):
        for name, command in commands.items():
            started = time.perf_counter()
            subprocess.run(command, shell=True, env=env, check=True)
            times[name].append(time.perf_counter() - started)
    print(f"\nrandom --lang en --count {n:,} (en-new-4x4 dice), whole processes (median of {repeat}):")
    for name, values in times.items():
        print(f"  {name:30} {statistics.median(values):6.2f} s  {n / statistics.median(values):>10,.0f} boards/s")


def board_kinds(n: int) -> dict[str, list[list[str]]]:
    """`n` uniform a-z boards (q = qu) and `n` rolls of the en-new-4x4 dice, as faces."""
    from boggle_i18n import get_dice

    uniform = [["qu" if ch == "q" else ch for ch in board] for board in random_boards(n, 16, seed=42)]
    dice = get_dice("en-new-4x4")
    rng = random.Random(43)
    return {"uniform a-z": uniform, "en-new-4x4 dice": [list(dice.roll(rng).faces) for _ in range(n)]}


if __name__ == "__main__":
    main()
