"""Commands load lazily: `solve` imports only what it uses; the help still lists every command; errors stay one line."""

from __future__ import annotations

import json
import os
import site
import subprocess
import sys
from pathlib import Path

from boggle_i18n.cli import COMMANDS, app, load_command
from boggle_i18n.cli.testing import CliRunner

runner = CliRunner()


def test_help_lists_every_command_with_its_short_help() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    listed = [line.split()[0] for line in result.stdout.split("Commands:")[1].splitlines() if line.strip()]
    assert listed == list(COMMANDS)
    for name in COMMANDS:
        first = load_command(name).help.split("\n")[0][:20]
        assert any(line.split()[:1] == [name] and first in line for line in result.stdout.splitlines()), name


def test_unknown_command_is_one_error_line() -> None:
    result = runner.invoke(app, ["solv", "abcd"])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert result.stderr.startswith("Error: No such command 'solv'.")


def test_solve_imports_only_what_it_uses(built_store: Path) -> None:
    """A cold `solve --json` (reference engine): no numpy, no other command's module, no optimiser or prover,
    no build pipeline (recipe schema, stages, runner), and one language record and one dice set read, not all."""
    code = (
        "import sys, io, contextlib\n"
        "from boggle_i18n.launch import main\n"
        f"sys.argv = ['boggle-i18n', 'solve', 'perslatgsineters', '--lexicon', 'en-enable2k', '--json',"
        f" '--store', {str(built_store)!r}]\n"
        "out = io.StringIO()\n"
        "try:\n"
        "    with contextlib.redirect_stdout(out):\n"
        "        main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "print('\"score\": 3625' in out.getvalue())\n"
        "tops = ('numpy', 'numba', 'boggle_i18n', 'typer', 'click')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in tops))\n"
        "from boggle_i18n.language import records\n"
        "from boggle_i18n.board import dice\n"
        "print(records._record.cache_info().currsize, dice._dice_set.cache_info().currsize)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.splitlines()
    assert out[0] == "True"
    loaded = set(json.loads(out[1].replace("'", '"')))
    assert "boggle_i18n.cli.solve_cmd" in loaded
    heavy = {
        "numpy",
        "numba",
        "typer",
        "click",
        "boggle_i18n.optimize",
        "boggle_i18n.prove",
        "boggle_i18n.web",
        "boggle_i18n.comparison.compare",
    }
    heavy |= {f"boggle_i18n.pipeline.{module}" for module in ("recipe", "stages", "runner", "sources")}
    others = {f"boggle_i18n.cli.{module}" for module in COMMANDS.values()} - {"boggle_i18n.cli.solve_cmd"}
    assert not loaded & (heavy | others), loaded & (heavy | others)
    assert out[2] == "1 1"  # en's record and its 4x4 dice set: a cold start reads no other language's data
    bare = subprocess.run(
        [sys.executable, "-c", "import sys, boggle_i18n; print(len([m for m in sys.modules if 'boggle_i18n' in m]))"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert int(bare.stdout) <= 2  # `import boggle_i18n` loads the package and nothing else of it


# Modules a cold library solve must not load: each cost a cold start millions of instructions
# (docs/performance.md, "Cold start"); dataclasses brings inspect, pathlib urllib.parse and ipaddress.
NOT_ON_THE_SOLVE_PATH = (
    *("dataclasses", "inspect", "tomllib", "typing", "pathlib", "subprocess", "shutil", "contextlib"),
    *("tempfile", "platformdirs", "numpy", "boggle_i18n.storage", "boggle_i18n.solver.scorer"),
)


def test_library_solve_path_imports_none_of_the_heavy_modules(built_store: Path) -> None:
    """The library's solve (choose the board, load the lexicon, solve, JSON) as the CLI calls it, run twice in a
    bare interpreter (`-S`: an editable install's finder would load pathlib at start-up): the first run parses
    the TOML files and checks the trie in a child, the second (a cold start as users meet it) loads none of
    the modules above, and both print the same words."""
    code = (
        "import sys, json\n"
        "from boggle_i18n.api import solve, load_lexicon\n"
        "from boggle_i18n.solving import choose_board, solution_dict\n"
        f"store = {str(built_store)!r}\n"
        "chosen, parsed = choose_board('perslatgsineters', lexicon='en-enable2k', store=store)\n"
        "lexicon = load_lexicon(chosen.require_lexicon(), store)\n"
        "result = solve(parsed, lexicon, chosen.rules, lang=chosen.language.code, engine='reference')\n"
        "data = solution_dict(chosen, result)\n"
        "del data['seconds']\n"
        "print(json.dumps({'solved': data, 'modules': sorted(sys.modules)}))\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).parents[1]), *site.getsitepackages()])}
    runs = [
        json.loads(
            subprocess.run(
                [sys.executable, "-S", "-c", code], capture_output=True, text=True, check=True, env=env
            ).stdout
        )
        for _ in range(2)
    ]
    assert runs[0]["solved"] == runs[1]["solved"] and runs[1]["solved"]["score"] == 3625
    assert "tomllib" in runs[0]["modules"]  # the first run parsed the TOML: the check below can fail
    loaded = set(runs[1]["modules"])
    assert loaded & {"boggle_i18n.api", "marisa_trie", "json"} == {"boggle_i18n.api", "marisa_trie", "json"}
    assert not loaded & set(NOT_ON_THE_SOLVE_PATH), sorted(loaded & set(NOT_ON_THE_SOLVE_PATH))


# Standard modules a cold `solve --json` command does without (docs/performance.md, "Cold start"): `json` and
# `re` (with `enum`) were about a tenth of it, `functools`, `collections`, `contextlib` and `importlib` another
# tenth; the library reads and writes JSON through `jsontext`, and memoises through `memo.cache`.
# hashlib: OpenSSL loads only for data over digest.SMALL (ENABLE2K's trie is 0.4 MiB).
NOT_ON_THE_COMMAND_PATH = (
    "re",
    "json",
    "enum",
    "functools",
    "collections",
    "contextlib",
    "importlib",
    "typing",
    "_hashlib",
)


def test_cold_solve_command_loads_no_json_re_or_functools(built_store: Path) -> None:
    """The command as the installed script runs it (`launch.main`), in a bare interpreter (`-S`: an editable
    install's finder would load `re` at start-up), run twice so the second meets the caches as users do."""
    code = (
        "import sys\n"
        "from boggle_i18n.launch import main\n"
        "sys.argv = ['boggle-i18n', 'solve', 'perslatgsineters', '--lexicon', 'en-enable2k', '--json']\n"
        "try:\n"
        "    main()\n"
        "finally:\n"
        "    sys.stderr.write(' '.join(sorted(sys.modules)))\n"
    )
    # The store by $BOGGLE_I18N_HOME, as users set it (a `--store` option is a path: pathlib loads `re`).
    env = {
        **os.environ,
        "BOGGLE_I18N_HOME": str(built_store),
        "PYTHONPATH": os.pathsep.join([str(Path(__file__).parents[1]), *site.getsitepackages()]),
    }
    for _ in range(2):
        run = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, env=env)
    assert run.returncode == 0 and json.loads(run.stdout)["score"] == 3625
    loaded = set(run.stderr.split())
    assert "boggle_i18n.jsontext" in loaded  # the check below can fail: this is the command's path
    assert not loaded & set(NOT_ON_THE_COMMAND_PATH), sorted(loaded & set(NOT_ON_THE_COMMAND_PATH))


def test_installed_command_is_a_plain_script_on_posix() -> None:
    """setup.py installs scripts/boggle-i18n (no `import re` before the command, as pip's generated wrapper
    has) on POSIX systems; it runs `launch.main`."""
    script = (Path(__file__).parents[1] / "scripts" / "boggle-i18n").read_text(encoding="utf-8")
    assert script.startswith("#!python\n") and "from boggle_i18n.launch import main" in script
    assert "import re" not in script
    run = subprocess.run(
        [sys.executable, "-S", "-c", script.split("\n", 1)[1], "--version"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).parents[1]), *site.getsitepackages()])},
    )
    assert run.returncode == 0 and run.stdout.startswith("boggle-i18n "), run
