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


# --- the README's and docs' figures, checked so they cannot drift (issue 38) ------------------------------------

DOCS = REPO / "docs"


def _text(name: str) -> str:
    return (REPO / name).read_text(encoding="utf-8")


def readme_word_counts(any_source: bool = True) -> dict[str, int]:
    """Recipe -> the word count the README's recipe table gives (`| `en` | ... : 172,695 words`).

    A count the README ties to one release (`309,361 words from 2.20.23`) holds for that release only;
    `any_source=False` leaves those out, for a test that builds from whatever list Debian installed.
    """
    counts = {}
    for name, row in re.findall(r"^\| `([a-z0-9-]+)` \|(.*)$", _text("README.md"), re.M):
        found = re.search(r"([\d,]{5,}) words( from \d)?", row)
        if found and (any_source or not found.group(2)):
            counts[name] = int(found.group(1).replace(",", ""))
    return counts


def test_readme_language_counts_are_the_records() -> None:
    """Every count of languages, beta languages, dice sets and dice-less languages the README and docs quote."""
    from boggle_i18n.board.dice import dice_sets
    from boggle_i18n.language.records import languages

    records = languages().values()
    stable = [r for r in records if r.status != "beta"]
    beta = len(records) - len(stable)
    with_dice = {d.language for d in dice_sets().values()}
    readme = _text("README.md")
    assert f"in {len(stable)} languages (" in readme
    assert f"lists the {len(stable)} languages" in readme and f"names the {beta} in beta" in readme
    assert f"{len(records)} languages in all ({len(stable)}, and {beta} in beta)" in readme
    assert f"the {len(records)} languages ({beta} in beta)" in readme
    assert f"({len(dice_sets())} editions, {len(with_dice)} languages)" in readme
    no_dice = sum(not r.dice for r in stable)
    assert f"{no_dice} of the {len(stable)} have no dice" in readme
    assert f"Shipped: {len(records)} languages" in (DOCS / "data.md").read_text(encoding="utf-8")


def test_no_hand_kept_language_lists() -> None:
    """No `--lang a|b|c` list of some languages in the README or docs: it drifts as languages are added."""
    for path in [REPO / "README.md", *sorted(DOCS.glob("*.md"))]:
        assert not re.search(r"--lang [a-z-]+\|", path.read_text(encoding="utf-8")), path.name


def test_readme_word_counts_of_the_shared_lists(built_store: Path) -> None:
    """The README's word counts of en, en-enable2k and de are what the build gives from the same lists."""
    import json

    counts = readme_word_counts()
    for name in ("en", "en-enable2k", "de"):
        manifest = json.loads((built_store / f"{name}.json").read_text(encoding="utf-8"))
        assert counts[name] == manifest["word_count"], name


def test_readme_word_count_of_nl_teuncm(tmp_path: Path) -> None:
    """nl-teuncm from OpenTaal 2.20.23 (the shared list) keeps the README's count, the grep pipeline's."""
    from boggle_i18n import build_lexicon

    lexicon = build_lexicon("nl-teuncm", source=shared_file("lexicons", "nl-opentaal-wordlist.txt"), store=tmp_path)
    assert len(lexicon) == readme_word_counts()["nl-teuncm"]


def test_readme_prove_block_is_the_shipped_record() -> None:
    """The README's `prove` example prints exactly what the shipped proof record renders: numbers from one run."""
    import json

    from boggle_i18n.cli.prove_cmd import _render

    record = json.loads((REPO / "results" / "prove-en-enable2k-3x3.json").read_text(encoding="utf-8"))
    block = re.search(r"```console\n\$ (boggle-i18n prove [^\n]*)\n(.*?)```", _text("README.md"), re.S)
    assert block is not None
    command, shown = block.groups()
    same = re.compile(r" (?:--output|-o) \S+$")  # where the record was written is not part of the proof
    assert same.sub("", command) == same.sub("", record["command"])
    assert shown.rstrip("\n") == _render(record).rstrip("\n")


def test_readme_offline_english_line_is_what_solve_says(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The README's offline English example is the line `solve` prints on an empty store (Debian's English lists)."""
    from boggle_i18n.cli import app
    from boggle_i18n.cli.testing import CliRunner

    require_file(Path("/usr/share/dict/american-english"), "apt-get install wamerican; .ci/run installs it")
    require_file(Path("/usr/share/dict/british-english"), "apt-get install wbritish; .ci/run installs it")
    shown = re.search(r"\$ BOGGLE_I18N_OFFLINE=1 boggle-i18n (solve \S+)\n(Error: [^\n]*)", _text("README.md"))
    assert shown is not None
    result = CliRunner().invoke(app, [*shown.group(1).split(), "--store", str(tmp_path / "store")])
    assert result.stderr.strip() == shown.group(2)


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
