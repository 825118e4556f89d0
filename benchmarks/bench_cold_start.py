"""Cold start, measured: a one-board `solve --json` process against a bare `python -c pass`, in one run.

    python benchmarks/bench_cold_start.py [--repeat N]

Builds en-enable2k into a temporary store, then runs each process below N times,
alternating them (so load on the machine falls on all alike), and prints each
one's median wall and CPU time and their ratios to `python -c pass` (the issue's target: a
cold `solve` of a 4x4 board, lexicon built, JSON out, at most 4x). The rows
between show where the time goes: the interpreter, `import boggle_i18n`, the
command line with nothing to do (`--version`), the library on `solve`'s path
imported without running anything (`import boggle_i18n.cli.solve_cmd`).
`python -X importtime` gives the module-by-module detail. Nothing is asserted.

Run it from the install you mean to measure: `python -m venv V && V/bin/pip install .`
then `V/bin/python benchmarks/bench_cold_start.py`. In an editable install (`pip install -e`,
as the tests use) every interpreter, `python -c pass` included, loads the editable finder and
`pathlib` at start-up (about 20 ms), which a user's `pip install .` does not: the ratio printed
there is lower than a user's. The first line says which install ran.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SOURCE = REPO.parent / "shared" / "data" / "lexicons" / "en-enable2k.txt"
SOLVE = "boggle-i18n solve perslatgsineters --lexicon en-enable2k --json"
# A board as people play them: `boggle-i18n random --lang en --seed 1` (166 points, 122 words), beside the densest
# known 4x4 above (3,625 points, 1,045 words), whose walk and JSON are the dearest a 4x4 solve can be.
TYPICAL = "ane[qu]/duks/yhra/oeea"


def install_kind() -> str:
    """'regular' when the package runs from site-packages, else editable (or run from the source tree)."""
    import sysconfig

    import boggle_i18n

    site = Path(sysconfig.get_paths()["purelib"]).resolve()
    if Path(boggle_i18n.__file__).resolve().is_relative_to(site):
        return "regular (pip install .)"
    return "editable or source tree: `python -c pass` also loads the editable finder, so the ratio is low"


def run_once(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """One run: its wall time and its CPU time (user + system, from the kernel's accounting of the child)."""
    started = time.perf_counter()
    child = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"{' '.join(command)} exited {child.returncode}")
    return wall, usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=21, help="runs of each process (medians)")
    args = parser.parse_args()
    from boggle_i18n import build_lexicon

    py = sys.executable
    exe = str(Path(py).with_name("boggle-i18n"))
    with tempfile.TemporaryDirectory() as tmp:
        store = str(Path(tmp) / "store")
        build_lexicon("en-enable2k", source=SOURCE, store=store, download=False)
        env = {**os.environ, "BOGGLE_I18N_HOME": store, "BOGGLE_I18N_CACHE": str(Path(tmp) / "cache")}
        # An installed package has its bytecode compiled (pip writes it); a shell with PYTHONDONTWRITEBYTECODE
        # set would compile every module from source on every run and measure that instead.
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        runs = {
            "python -c pass": [py, "-c", "pass"],
            "python -c 'import boggle_i18n'": [py, "-c", "import boggle_i18n"],
            "boggle-i18n --version": [exe, "--version"],
            "python -c 'import boggle_i18n.cli.solve_cmd'": [py, "-c", "import boggle_i18n.cli.solve_cmd"],
            f"boggle-i18n solve {TYPICAL} --lexicon en-enable2k --json": [exe, "solve", TYPICAL, *SOLVE.split()[3:]],
            SOLVE: [exe, "solve", "perslatgsineters", "--lexicon", "en-enable2k", "--json"],
        }
        for command in runs.values():  # once each first: bytecode written, files in the page cache
            subprocess.run(command, env=env, capture_output=True, check=True)
        times: dict[str, list[float]] = {name: [] for name in runs}
        cpu: dict[str, list[float]] = {name: [] for name in runs}
        for _ in range(args.repeat):
            for name, command in runs.items():
                wall, used = run_once(command, env)
                times[name].append(wall)
                cpu[name].append(used)
    base = statistics.median(times["python -c pass"])
    base_cpu = statistics.median(cpu["python -c pass"])
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} cores; medians of {args.repeat} alternating runs")
    print(f"install: {install_kind()}")
    print(f"{'process':66} {'wall ms':>8} {'x pass':>7} {'CPU ms':>7} {'x pass':>7}")
    for name in runs:
        ms, used = statistics.median(times[name]) * 1e3, statistics.median(cpu[name]) * 1e3
        print(f"{name:66} {ms:>8.1f} {ms / 1e3 / base:>7.2f} {used:>7.1f} {used / 1e3 / base_cpu:>7.2f}")
    for label, name in (("densest 4x4", SOLVE), ("typical 4x4", next(n for n in runs if TYPICAL in n))):
        wall, used = statistics.median(times[name]), statistics.median(cpu[name])
        ratios = f"{wall / base:.2f}x wall, {used / base_cpu:.2f}x CPU"
        print(f"cold solve ({label}) / python -c pass: {ratios} (target: at most 4x)")
    print("load average (1, 5, 15 min) at the end: " + ", ".join(f"{x:.1f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
