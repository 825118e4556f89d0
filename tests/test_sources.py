"""Finding a recipe's raw list: --source > cache > system list > download, and clear errors."""

from __future__ import annotations

import dataclasses
import hashlib
import os
from pathlib import Path
from unittest.mock import ANY

import pytest
from conftest import FIXTURES, require_file, require_tool

from boggle_i18n import build_lexicon
from boggle_i18n.errors import RecipeError, SourceError
from boggle_i18n.pipeline import load_recipe, resolve_source
from boggle_i18n.pipeline.recipe import Recipe

URL = "https://example.invalid/lists/words-1.0.txt"
CONTENT = b"kat\nhond\nfiets\n"
SHA = hashlib.sha256(CONTENT).hexdigest()
DUTCH = Path("/usr/share/dict/dutch")


def write_recipe(
    folder: Path,
    *,
    system: list[Path] = (),
    filename: str | None = "words.txt",
    url: str | None = URL,
    sha256: str | None = SHA,
    package: str | None = "wfake",
) -> Recipe:
    """A small recipe of our own, written as TOML so it goes through the real loader."""
    lines = [
        'name = "fake"',
        'language = "nl"',
        'licence = "test"',
        "",
        "[source]",
        'name = "fake list"',
        'version = "1.0"',
    ]
    if url:
        lines.append(f'url = "{url}"')
    if sha256:
        lines.append(f'sha256 = "{sha256}"')
    if filename:
        lines.append(f'filename = "{filename}"')
    if system:
        lines.append("system = [" + ", ".join(f'"{p}"' for p in system) + "]")
    if package:
        lines.append(f'system_package = "{package}"')
    lines += ["", "[[stages]]", 'stage = "strip"']
    path = folder / "fake.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return load_recipe(str(path))


def cache_file(name: str = "words.txt", sha: str = SHA) -> Path:
    """Where a download of the recipe's list is cached: $BOGGLE_I18N_CACHE/sources/<sha16>-<name>."""
    return Path(os.environ["BOGGLE_I18N_CACHE"]) / "sources" / f"{sha[:16]}-{name}"


def put(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


@pytest.fixture
def no_download(monkeypatch: pytest.MonkeyPatch) -> list:
    """Fail the test if a download is attempted; record attempts."""
    calls: list = []

    def fake(recipe, target):
        calls.append(target)
        raise AssertionError("no download expected")

    monkeypatch.setattr("boggle_i18n.pipeline.sources._download", fake)
    return calls


# --- resolution order -------------------------------------------------------------------------


def test_source_option_beats_everything(tmp_path: Path, no_download: list) -> None:
    """--source wins over a valid cache and an installed system list."""
    system = put(tmp_path / "system.txt", b"system\n")
    recipe = write_recipe(tmp_path, system=[system])
    put(cache_file(), CONTENT)
    mine = put(tmp_path / "mine.txt", b"mine\n")
    resolved = resolve_source(recipe, mine)
    assert resolved.kind == "file"
    assert resolved.path == mine
    assert resolved.path.read_bytes() == b"mine\n"
    assert resolved.sha256 is None  # a local file is hashed while it is streamed, not before
    assert list(resolved.lines("utf-8")) == ["mine"]
    assert resolved.sha256 == hashlib.sha256(b"mine\n").hexdigest()


def test_cache_beats_system(tmp_path: Path, no_download: list) -> None:
    """A cached download whose sha256 matches the recipe is used before a system list."""
    system = put(tmp_path / "system.txt", b"system\n")
    recipe = write_recipe(tmp_path, system=[system])
    cached = put(cache_file(), CONTENT)
    resolved = resolve_source(recipe)
    assert (resolved.kind, resolved.path, resolved.path.read_bytes()) == ("cache", cached, CONTENT)
    assert resolved.sha256 == SHA and resolved.url == URL and resolved.version == "1.0"


def test_cache_name_defaults_to_url_basename(tmp_path: Path, no_download: list) -> None:
    """Without `filename`, the cached file is named after the URL's last part."""
    recipe = write_recipe(tmp_path, filename=None)
    cached = put(cache_file("words-1.0.txt"), CONTENT)
    assert resolve_source(recipe).path == cached


def test_cache_with_wrong_checksum_is_skipped(tmp_path: Path, no_download: list) -> None:
    """A damaged cached file is not trusted: the system list is used instead."""
    system = put(tmp_path / "system.txt", b"system\n")
    recipe = write_recipe(tmp_path, system=[system])
    put(cache_file(), b"tampered\n")
    resolved = resolve_source(recipe)
    assert (resolved.kind, resolved.path, resolved.path.read_bytes()) == ("system", system, b"system\n")


def test_system_list(tmp_path: Path, no_download: list) -> None:
    """With no cache, the first installed system list is used, with its own checksum."""
    second = put(tmp_path / "second.txt", b"second\n")
    recipe = write_recipe(tmp_path, system=[tmp_path / "absent.txt", second])
    resolved = resolve_source(recipe)
    assert resolved.kind == "system"
    assert resolved.path == second
    assert list(resolved.lines("utf-8")) == ["second"]
    assert resolved.sha256 == hashlib.sha256(b"second\n").hexdigest()
    assert resolved.version is None  # dpkg does not know the package "wfake"
    assert resolved.to_dict()["bytes"] == 7


def test_download_is_last(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With no file, cache or system list, and downloads allowed, the list is fetched into the cache."""
    monkeypatch.delenv("BOGGLE_I18N_OFFLINE")
    recipe = write_recipe(tmp_path, system=[tmp_path / "absent.txt"])
    calls = []

    def fake(rec, target):
        calls.append((rec.source.url, target))
        put(target, CONTENT)

    monkeypatch.setattr("boggle_i18n.pipeline.sources._download", fake)
    resolved = resolve_source(recipe)
    assert calls == [(URL, cache_file())]
    assert (resolved.kind, resolved.path, resolved.path.read_bytes(), resolved.sha256) == (
        "download",
        cache_file(),
        CONTENT,
        SHA,
    )


def test_failed_download_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A download error ends in the one-line no-source error that names what failed."""
    monkeypatch.delenv("BOGGLE_I18N_OFFLINE")
    recipe = write_recipe(tmp_path)

    def fake(rec, target):
        raise SourceError(f"download of {URL} failed (ConnectionError)")

    monkeypatch.setattr("boggle_i18n.pipeline.sources._download", fake)
    with pytest.raises(SourceError, match=r"ConnectionError.*--source") as info:
        resolve_source(recipe)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("via", ["env", "flag"])
def test_nothing_available_names_three_ways(
    tmp_path: Path, no_download: list, monkeypatch: pytest.MonkeyPatch, via: str
) -> None:
    """Offline ($BOGGLE_I18N_OFFLINE or download=False) and nothing found: one line naming the three ways."""
    if via == "flag":
        monkeypatch.delenv("BOGGLE_I18N_OFFLINE")
    absent = tmp_path / "absent.txt"
    recipe = write_recipe(tmp_path, system=[absent])
    with pytest.raises(SourceError) as info:
        resolve_source(recipe, download=via == "env")
    message = str(info.value)
    assert "\n" not in message
    assert "--source" in message
    assert str(absent) in message and "apt-get install wfake" in message
    assert URL in message
    assert no_download == []


def test_shipped_nl_recipe_offline_error(tmp_path: Path, no_download: list) -> None:
    """For the real nl recipe the error names wdutch and the pinned OpenTaal URL."""
    recipe = load_recipe("nl")
    spec = dataclasses.replace(recipe.source, system=(str(tmp_path / "no-dutch"),))
    with pytest.raises(SourceError) as info:
        resolve_source(dataclasses.replace(recipe, source=spec))
    message = str(info.value)
    assert "\n" not in message
    assert "--source" in message and "apt-get install wdutch" in message
    assert "https://raw.githubusercontent.com/OpenTaal/opentaal-wordlist/" in message


# --- bad sources ------------------------------------------------------------------------------


def test_missing_source_file(tmp_path: Path) -> None:
    """A --source path that does not exist is a SourceError naming it."""
    with pytest.raises(SourceError, match=r"not found") as info:
        build_lexicon("nl", source=tmp_path / "nope.txt", store=tmp_path / "store")
    assert "nope.txt" in str(info.value)


def test_source_is_a_folder(tmp_path: Path) -> None:
    """A folder given as --source is refused clearly."""
    with pytest.raises(SourceError, match="folder"):
        build_lexicon("nl", source=tmp_path, store=tmp_path / "store")


def test_undecodable_source_names_offset(tmp_path: Path) -> None:
    """Latin-1 bytes under UTF-8: the error names the byte and its offset."""
    bad = put(tmp_path / "latin1.txt", "kat\ncafé\nhond\n".encode("latin-1"))
    with pytest.raises(SourceError) as info:
        build_lexicon("nl", source=bad, store=tmp_path / "store")
    message = str(info.value)
    assert "0xe9" in message and "offset 7" in message and "utf-8" in message
    assert "\n" not in message
    assert not (tmp_path / "store").exists()


def test_encoding_override_decodes_latin1(tmp_path: Path) -> None:
    """--encoding fixes such a list: café is folded to cafe by the nl recipe."""
    bad = put(tmp_path / "latin1.txt", "kat\ncafé\nhond\n".encode("latin-1"))
    lexicon = build_lexicon("nl", source=bad, store=tmp_path / "store", encoding="latin-1")
    assert list(lexicon) == ["cafe", "hond", "kat"]


def test_unknown_encoding(tmp_path: Path) -> None:
    """A misspelt encoding is a SourceError, not a LookupError."""
    with pytest.raises(SourceError, match="encoding"):
        build_lexicon("nl", source=FIXTURES / "mini-nl.txt", store=tmp_path / "store", encoding="utf-99")


@pytest.mark.parametrize("data", [b"", b"\n", b"  \n\t\n"])
def test_empty_source(tmp_path: Path, data: bytes) -> None:
    """An empty list is an error, not an empty lexicon."""
    empty = put(tmp_path / "empty.txt", data)
    with pytest.raises(SourceError, match="empty"):
        build_lexicon("nl", source=empty, store=tmp_path / "store")


# --- the Debian system list -------------------------------------------------------------------


def test_nl_builds_from_debian_wdutch(tmp_path: Path) -> None:
    """With wdutch installed, `nl` needs no --source: it uses /usr/share/dict/dutch (kind 'system')."""
    require_file(DUTCH, "apt-get install wdutch; .ci/run installs it")
    lexicon = build_lexicon("nl", store=tmp_path / "store", download=False)
    source = lexicon.manifest["source"]
    assert source["kind"] == "system"
    assert source["path"] == str(DUTCH)
    assert source["sha256"] == hashlib.sha256(DUTCH.read_bytes()).hexdigest()
    assert "fiets" in lexicon and "ideeen" in lexicon and "ideeën" not in lexicon
    assert (tmp_path / "store" / "nl.marisa").is_file()


def test_real_download_path_prints_nothing_on_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    """Through pooch itself (its HTTP fetch replaced by a failing one): no "Downloading data from" line leaks."""
    import pooch
    import requests

    monkeypatch.delenv("BOGGLE_I18N_OFFLINE")
    recipe = write_recipe(tmp_path)

    def refuse(*args: object, **kwargs: object) -> None:
        raise requests.ConnectionError("no network here")

    monkeypatch.setattr(requests, "get", refuse)
    pooch.get_logger().setLevel("INFO")  # as a fresh process has it
    with pytest.raises(SourceError, match="ConnectionError"):
        resolve_source(recipe)
    captured = capfd.readouterr()
    assert captured.err == "" and captured.out == ""


# --- a dictionary expanded by a tool (unmunch, aspell) -------------------------------------

AFF = "SET UTF-8\n\nSFX S Y 2\nSFX S 0 s [aeiou]\nSFX S 0 es [^aeiou]\n\nSFX V Y 1\nSFX V r mos r\n"
DIC = "3\ncasa/S\nreloj/S\nhablar/V\n"


def expand_recipe(folder: Path, dic: Path, expand: str = "unmunch") -> Path:
    """A recipe of our own whose source is a Hunspell dictionary expanded by unmunch."""
    path = folder / "expanded.toml"
    path.write_text(
        'extends = "wordlist"\nname = "expanded"\nlanguage = "es"\nlicence = "test"\n'
        f'[source]\nname = "tiny hunspell"\nsystem = ["{dic}"]\nsystem_package = "tiny"\n'
        f'expand = "{expand}"\ntool_package = "hunspell-tools"\n',
        encoding="utf-8",
    )
    return path


def test_unmunch_expands_a_hunspell_dictionary(tmp_path: Path) -> None:
    """Every form the affix rules make is a word; the manifest names the tool and the inputs' sha256."""
    require_tool("unmunch", "hunspell-tools")
    dic = tmp_path / "tiny.dic"
    dic.write_text(DIC, encoding="utf-8")
    (tmp_path / "tiny.aff").write_text(AFF, encoding="utf-8")
    lexicon = build_lexicon(str(expand_recipe(tmp_path, dic)), store=tmp_path / "store", download=False)
    assert sorted(lexicon.words_with_prefix("")) == ["casa", "casas", "hablamos", "hablar", "reloj", "relojes"]
    src = lexicon.manifest["source"]
    assert src["kind"] == "system" and src["path"] == str(dic)
    expanded = src["expanded"]
    assert expanded["tool"] == "unmunch" and expanded["command"].endswith(f"unmunch {dic} {tmp_path / 'tiny.aff'}")
    assert expanded["inputs"] == {str(dic): hashlib.sha256(DIC.encode()).hexdigest(), str(tmp_path / "tiny.aff"): ANY}
    # sha256 is that of the tool's output: the same dictionary gives the same lexicon.
    again = build_lexicon(str(expand_recipe(tmp_path, dic)), store=tmp_path / "store2", download=False)
    assert (
        again.manifest["source"]["sha256"] == src["sha256"]
        and again.manifest["trie_sha256"] == lexicon.manifest["trie_sha256"]
    )


def test_expansion_without_its_affix_file_is_one_error(tmp_path: Path) -> None:
    require_tool("unmunch", "hunspell-tools")
    dic = tmp_path / "tiny.dic"
    dic.write_text(DIC, encoding="utf-8")
    with pytest.raises(SourceError, match=r"tiny\.aff not found"):
        build_lexicon(str(expand_recipe(tmp_path, dic)), store=tmp_path / "store", download=False)


def test_expansion_tool_missing_names_its_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dic = tmp_path / "tiny.dic"
    dic.write_text(DIC, encoding="utf-8")
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(SourceError, match=r"needs the unmunch tool \(apt-get install hunspell-tools\)"):
        build_lexicon(str(expand_recipe(tmp_path, dic)), store=tmp_path / "store", download=False)


def test_expansion_that_fails_quotes_the_tool(tmp_path: Path) -> None:
    """aspell asked for a dictionary it does not have: its own last message, no half-built lexicon."""
    require_tool("aspell", "aspell")
    rws = tmp_path / "xx.rws"
    rws.write_bytes(b"not a dictionary")
    recipe = expand_recipe(tmp_path, rws, expand="aspell")
    recipe.write_text(recipe.read_text(encoding="utf-8") + 'dictionary = "xx"\n', encoding="utf-8")
    with pytest.raises(SourceError, match=r"aspell .* failed \(exit \d+\): .+"):
        build_lexicon(str(recipe), store=tmp_path / "store", download=False)
    assert not (tmp_path / "store" / "expanded.marisa").exists()


@pytest.mark.parametrize(
    ("field", "message"),
    [('expand = "munch"', "must be one of unmunch, aspell"), ('expand = "aspell"', "needs `dictionary`")],
)
def test_bad_expand_fields(tmp_path: Path, field: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(
        'extends = "wordlist"\nname = "bad"\nlanguage = "es"\nlicence = "t"\n'
        f'[source]\nname = "x"\nsystem = ["/x.dic"]\n{field}\n',
        encoding="utf-8",
    )
    with pytest.raises(RecipeError, match=message):
        load_recipe(str(path))


FLAT_AFF = (
    "SET UTF-8\nFLAG num\nNEEDAFFIX 666\n\nSFX 10 Y 2\nSFX 10 0 s [aeiou] . is:plural\nSFX 10 0 es [^aeiou]\n\n"
    "SFX 20 Y 2\nSFX 20 r mos r\nSFX 20 r ndo/666,10 r\n\nPFX 30 Y 1\nPFX 30 0 re .\n"
)
FLAT_DIC = "4\ncasa/10 po:nome\nnación/10\nfalar/20,30 po:verbo\nfálar/666,20 st:falar\n"


def test_flatten_gives_unmunch_a_dictionary_it_reads(tmp_path: Path) -> None:
    """Numeric flags, a rule needing a further affix, a NEEDAFFIX stem, morphology: one level of real forms."""
    require_tool("unmunch", "hunspell-tools")
    dic = tmp_path / "gl.dic"
    dic.write_text(FLAT_DIC, encoding="utf-8")
    (tmp_path / "gl.aff").write_text(FLAT_AFF, encoding="utf-8")
    recipe = expand_recipe(tmp_path, dic)
    recipe.write_text(
        recipe.read_text(encoding="utf-8").replace(
            'name = "expanded"\n', 'name = "expanded"\nencoding = "iso-8859-1"\n'
        )
        + "flatten = true\n",
        encoding="utf-8",
    )
    lexicon = build_lexicon(str(recipe), store=tmp_path / "store", download=False)
    words = sorted(lexicon.words_with_prefix(""))
    # falando needs a further affix (666): left out; fálar (NEEDAFFIX) is no word; refalamos is the cross product.
    assert words == ["casa", "casas", "falamos", "falar", "nacion", "naciones", "refalamos", "refalar"]
    assert lexicon.manifest["source"]["expanded"]["flattened"] is True
