"""The streaming read: LF-only splitting, declared encodings, hashing on the way, bounded memory."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import FIXTURES

from boggle_i18n import build_lexicon
from boggle_i18n.errors import SourceError
from boggle_i18n.pipeline import sources
from boggle_i18n.pipeline.compactset import CompactSet
from boggle_i18n.pipeline.sources import ResolvedSource


def local(path: Path) -> ResolvedSource:
    return ResolvedSource("file", path, "test", None, None, None)


def test_u0085_and_u2028_do_not_split_entries() -> None:
    """Only LF ends an entry: NEL (U+0085) and LINE SEPARATOR (U+2028) stay inside theirs."""
    path = FIXTURES / "u0085.txt"
    assert len(path.read_text(encoding="utf-8").splitlines()) == 7  # what str.splitlines would make of it
    assert list(local(path).lines("utf-8")) == ["kat", "ab\u0085cd", "hond", "ef\u2028gh", "fiets"]


def test_latin1_0x85_byte_stays_in_its_entry() -> None:
    """A Latin-1 byte 0x85 decodes to U+0085 inside the entry; CR stays for the strip stage."""
    entries = list(local(FIXTURES / "latin1-x85.txt").lines("iso-8859-1"))
    assert entries == ["kat\r", "ab\x85cd\r", "hond\r"]


def test_latin1_fixture_builds_with_declared_encoding(store: Path) -> None:
    """The sv-wswedish recipe declares ISO-8859-1: å ä ö are read as letters of their own, é folds, names go."""
    lexicon = build_lexicon("sv-wswedish", source=FIXTURES / "latin1-sv.txt", store=store)
    assert set(lexicon) == {"åka", "ärlig", "öga", "kött", "hälsa", "abbe", "björk", "sjö"}
    raw = (FIXTURES / "latin1-sv.txt").read_bytes()
    assert lexicon.manifest["source"]["sha256"] == hashlib.sha256(raw).hexdigest()
    assert lexicon.manifest["source"]["bytes"] == len(raw)


def test_wrong_declared_encoding_names_byte_and_offset(store: Path) -> None:
    """Latin-1 read as UTF-8 fails on the first å (0xe5 at offset 0 of the file), in one line."""
    with pytest.raises(SourceError, match=r"not valid utf-8: byte 0xe5 at offset 0 \(") as err:
        build_lexicon("sv-wswedish", source=FIXTURES / "latin1-sv.txt", store=store, encoding="utf-8")
    assert "\n" not in str(err.value)
    assert not list(store.glob("*")) if store.exists() else True  # nothing half-written


def test_error_offset_is_the_file_offset_across_chunks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The offset counts from the start of the file, not of the line or the chunk being read."""
    monkeypatch.setattr(sources, "CHUNK", 7)  # many chunks, lines cut across them
    data = b"kat\nhond\nfiets\nbo\xe9k\n"
    path = tmp_path / "list.txt"
    path.write_bytes(data)
    bad = data.index(0xE9)
    with pytest.raises(SourceError, match=rf"byte 0xe9 at offset {bad}\b"):
        list(local(path).lines("utf-8"))


def test_chunked_read_equals_whole_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Any chunk size gives the same entries and hash, with or without a final newline."""
    monkeypatch.setattr(sources, "CHUNK", 3)
    for data in (b"een\ntwee\ndrie\n", b"een\ntwee\ndrie", b"\n\nx\n", b"\xc3\xa9t\xc3\xa9\nna\xc3\xafef"):
        path = tmp_path / "l.txt"
        path.write_bytes(data)
        src = local(path)
        assert list(src.lines("utf-8")) == data.decode("utf-8").split("\n")[: None if not data.endswith(b"\n") else -1]
        assert src.sha256 == hashlib.sha256(data).hexdigest() and src.size == len(data)


def test_progress_callback_sees_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`on_bytes(read, total)` is called per chunk and ends at the file size."""
    monkeypatch.setattr(sources, "CHUNK", 4)
    path = tmp_path / "l.txt"
    path.write_bytes(b"kat\nhond\nfiets\n")
    seen: list[tuple[int, int]] = []
    list(local(path).lines("utf-8", lambda done, total: seen.append((done, total))))
    assert seen[-1] == (15, 15) and len(seen) == 4
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_non_ascii_compatible_encoding_is_refused(tmp_path: Path) -> None:
    """UTF-16 cannot be split on the byte 0x0a: a clear error, not garbage."""
    path = tmp_path / "l.txt"
    path.write_bytes("kat\n".encode("utf-16"))
    with pytest.raises(SourceError, match="ASCII-compatible"):
        list(local(path).lines("utf-16"))
    with pytest.raises(SourceError, match="unknown encoding"):
        list(local(path).lines("klingon"))


def test_compact_set_is_an_exact_set() -> None:
    """The dedupe table agrees with a Python set, including after many growths and for long entries."""
    cs = CompactSet(capacity=2)
    reference: set[str] = set()
    words = [f"w{i % 5000}é{i % 7}" for i in range(20000)] + ["x" * 2_000_000, "x" * 2_000_000, ""]
    for w in words:
        assert cs.add(w) == (w not in reference)
        reference.add(w)
    assert len(cs) == len(reference)
    assert all(w in cs for w in reference)
    assert "absent" not in cs and 3 not in cs


# --- bounded memory ---------------------------------------------------------------------------

CHILD = textwrap.dedent(
    """
    import json, os, sys
    from boggle_i18n import build_lexicon
    lexicon = build_lexicon(sys.argv[1], source=sys.argv[2], store=sys.argv[3])
    print(json.dumps({"words": len(lexicon), "raw": lexicon.manifest["raw_entries"]}))
    """
)

RECIPE = """
name = "stream-test"
language = "en"
licence = "test"
[source]
name = "generated"
[[stages]]
stage = "strip"
[[stages]]
stage = "skip-blank"
[[stages]]
stage = "lowercase"
[[stages]]
stage = "length"
min = 16  # letters: keep-this-long-entry-N has 17, WordNNNxNNNNNNN has 5
[[stages]]
stage = "dedupe"
"""


def peak_rss_mib(args: list[str]) -> tuple[float, dict]:
    """Run a child process and return its own peak RSS (from wait4, not the parent's) and its JSON output."""
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, env={**os.environ, "CI": ""})
    assert proc.stdout is not None
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    assert proc.returncode == 0
    return usage.ru_maxrss / 1024, json.loads(out)


def test_build_memory_does_not_grow_with_the_source(tmp_path: Path) -> None:
    """A 48 MB list whose entries mostly go costs about what a tiny list costs: nothing holds the file or its lines.

    The old whole-file path held the bytes, the decoded text and a list of 3 million strings (> 300 MB here).
    """
    recipe = tmp_path / "stream-test.toml"
    recipe.write_text(RECIPE, encoding="utf-8")
    big = tmp_path / "big.txt"
    with big.open("wb") as handle:
        for block in range(300):
            rows = [f"Word{block:03d}x{i:07d}" for i in range(block * 10_000, block * 10_000 + 10_000)]
            rows[0] = f"keep-this-long-entry-{block:05d}"
            handle.write(("\n".join(rows) + "\n").encode("ascii"))
    small = tmp_path / "small.txt"
    small.write_text("".join(f"keep-this-long-entry-{i:05d}\n" for i in range(300)), encoding="ascii")
    child = [sys.executable, "-c", CHILD, str(recipe)]
    small_rss, small_out = peak_rss_mib([*child, str(small), str(tmp_path / "s1")])
    big_rss, big_out = peak_rss_mib([*child, str(big), str(tmp_path / "s2")])
    assert big_out == {"words": 300, "raw": 3_000_000} and small_out == {"words": 300, "raw": 300}
    size_mib = big.stat().st_size / 2**20
    assert size_mib > 45
    assert big_rss - small_rss < 20, f"peak {big_rss:.0f} MiB vs {small_rss:.0f} MiB for a {size_mib:.0f} MiB list"
