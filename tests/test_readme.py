"""The README's Python example runs as written (with ENABLE from ../shared as `enable1.txt`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import REPO, require_file, shared_file


def readme_python() -> str:
    blocks = re.findall(r"```python\n(.*?)```", (REPO / "README.md").read_text(encoding="utf-8"), re.S)
    assert blocks, "README has no Python example"
    return "\n".join(blocks)  # later blocks go on from the first


def test_readme_python_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    """A newcomer copying the README's API example gets scores, not an exception."""
    require_file(Path("/usr/share/dict/dutch"), "apt-get install wdutch; .ci/run installs it")
    (tmp_path / "enable1.txt").symlink_to(shared_file("lexicons", "en-enable1.txt"))
    monkeypatch.chdir(tmp_path)
    exec(compile(readme_python(), "README.md", "exec"), {})
    out = capsys.readouterr().out.splitlines()
    score, n_words = (int(x) for x in out[0].split())
    assert score > 100 and n_words > 100  # the Dutch board is rich: 348 points on OpenTaal 2.20.19
    assert any(line.startswith("[{'word'") for line in out)
    assert out[-1] == "True True"  # the engine contract's batch score equals the one-board solve


def test_readme_word_counts_are_the_measured_builds() -> None:
    """Every "N words" of a recipe in the README's table of shipped recipes is the word count that
    tools/measure_builds.py wrote for that recipe in docs/languages.md (so the README cannot drift from
    the build: it once said 915,875 for `es` while the build made 614,060). Counts of another list version
    ("309,361 words from 2.20.23") are not the Debian build's and are left out."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    docs = (REPO / "docs" / "languages.md").read_text(encoding="utf-8")
    section = docs.split("<!-- measure_builds:start -->", 1)[1].split("<!-- measure_builds:end -->", 1)[0]
    row = r"^\| `([\w-]+)` \| [\w-]+ \| (?:stable|beta) \| [^|]+ \| [\d,]+ \| ([\d,]+) \|"
    measured = {m[1]: m[2] for m in re.finditer(row, section, re.M)}
    claims = re.findall(r"^\| `([\w-]+)` \|[^\n]*?([\d,]{5,}) words(?! from)", readme, re.M)
    assert {"en", "de", "es"} <= {name for name, _ in claims}
    for name, count in claims:
        assert measured.get(name) == count, f"README says {name} has {count} words, the build {measured.get(name)}"
