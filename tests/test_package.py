"""The package's public names: loaded on demand, so `import boggle_i18n` and the CLI start cheaply."""

from __future__ import annotations

import subprocess
import sys

import pytest


def test_every_public_name_loads_on_demand() -> None:
    import boggle_i18n

    for name in boggle_i18n.__all__:
        assert getattr(boggle_i18n, name) is not None
        assert name in dir(boggle_i18n)
    with pytest.raises(AttributeError):
        boggle_i18n.no_such_name  # noqa: B018


def test_importing_the_package_loads_no_pipeline_and_no_numpy() -> None:
    """A fresh interpreter: the build pipeline, numpy and numba stay unloaded until something needs them."""
    code = "import sys, boggle_i18n; print(' '.join(sorted(sys.modules)))"
    loaded = set(
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    )
    assert not loaded & {"numpy", "numba", "boggle_i18n.pipeline", "boggle_i18n.lexicon.build"}


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True)


def test_the_console_entry_point_runs_the_command_line() -> None:
    """`python -m boggle_i18n` goes through launch.main, like the installed script: version, errors, exit codes."""
    version = run("-m", "boggle_i18n", "--version")
    assert version.returncode == 0 and version.stdout.startswith("boggle-i18n ")
    bad = run("-m", "boggle_i18n", "paths", "--size", "0x0")
    assert bad.returncode != 0 and bad.stderr.startswith("Error:")
    code = "import gc, sys, boggle_i18n.launch as launch\nsys.argv = ['x', '--version']\n"
    code += "try:\n    launch.main()\nexcept SystemExit:\n    pass\nprint(gc.isenabled())"
    out = run("-c", code).stdout
    assert out.strip().endswith("True")  # the collector is back on for the command itself
