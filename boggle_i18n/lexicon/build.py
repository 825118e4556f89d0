"""Build a lexicon: resolve the source, run the recipe's stages, swap in trie + manifest together."""

from __future__ import annotations

import hashlib
import json
import os
import platform
import time
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, datetime
from typing import Any

import marisa_trie

from ..errors import BoggleI18nError, RecipeError, SourceError
from ..language.records import Language, get_language
from ..pipeline.recipe import Recipe, load_recipe
from ..pipeline.runner import StageReport, StageRun
from ..pipeline.sources import ResolvedSource, resolve_source
from ..pipeline.stages import StageContext
from ..resources import data_dir
from ..spelling import PLAIN, Spelling
from ..storage import check_writable_dir, replace_together, store_dir
from .store import FORMAT, FORMAT_VERSION, Lexicon, check_lexicon_name, lexicon_name, lexicon_paths
from .trust import remember, trie_keys_digest

Progress = Callable[[str], None]


def _version(dist: str) -> str:
    from importlib.metadata import PackageNotFoundError, version  # 25 ms of import: only when a build records it

    try:
        return version(dist)
    except PackageNotFoundError:
        return "unknown"


class WordStats:
    """What the manifest says about the words, gathered while they stream into the trie."""

    def __init__(self, spelling: Spelling = PLAIN) -> None:
        self.count = 0
        self.letters: Counter[str] = Counter()
        self.min_length = 0
        self.longest = ""
        self._split = spelling.split if spelling else None

    def add(self, word: str) -> str:
        self.count += 1
        if self._split is None:
            self.letters.update(word)
        else:  # a multi-letter letter (Welsh ll) is counted as itself, its characters only elsewhere
            self.letters.update(self._split(word))
        n = len(word)
        if self.count == 1 or n < self.min_length:
            self.min_length = n
        if (n, word) > (len(self.longest), self.longest):
            self.longest = word
        return word


class BlankCheck:
    """Passes entries through, noting whether any of them had text (an empty list is an error)."""

    def __init__(self, entries: Iterable[str]) -> None:
        self._entries = entries
        self.text_seen = False

    def __iter__(self) -> Iterator[str]:
        for entry in self._entries:
            if not self.text_seen and entry.strip():
                self.text_seen = True
            yield entry


def _manifest(
    recipe: Recipe,
    language: Language,
    source: ResolvedSource,
    stats: WordStats,
    reports: list[StageReport],
    trie_bytes: bytes,
    seconds: float,
    licence: str | None = None,
) -> dict[str, Any]:
    own = source.own_list(recipe.source)  # before `source.to_dict`: a copy of the recipe's list takes its name
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "name": recipe.name,
        "language": recipe.language,
        "description": recipe.description,
        "status": language.status,
        "source": source.to_dict(),
        **_terms(recipe, source, own, licence),
        "recipe": recipe.raw,
        "recipe_sha256": recipe.sha256,
        "letter_policy_sha256": language.policy_sha256,
        "stages": [r.to_dict() for r in reports],
        "raw_entries": reports[0].entries_in if reports else stats.count,
        "word_count": stats.count,
        "alphabet": "".join(sorted({ch for letter in stats.letters for ch in letter})),
        **({"spelling": language.spelling.to_dict()} if language.spelling else {}),
        "letter_counts": dict(sorted(stats.letters.items())),
        "min_length": stats.min_length,
        "longest_word": stats.longest,
        "trie_sha256": hashlib.sha256(trie_bytes).hexdigest(),
        "trie_bytes": len(trie_bytes),
        "built_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "build_seconds": round(seconds, 3),
        "built_with": {
            "boggle_i18n": _version("boggle-i18n"),
            "marisa_trie": _version("marisa-trie"),
            "python": platform.python_version(),
        },
    }


MAX_LICENCE = 200  # characters of a licence the user gives: a name or a short line, not a licence text
USER_LICENCE = "unknown"  # a user's own list: nobody said under what terms it may be used


def _terms(recipe: Recipe, source: ResolvedSource, own: bool, licence: str | None) -> dict[str, str]:
    """The licence and attribution a manifest records: the recipe's for its own list, the user's for theirs.

    A list given with `--source` is not the list the recipe's licence speaks of (`en --source my-words.txt` is not
    ENABLE) unless it has that list's sha256: its licence is what the user said (`licence`), else unknown, and it
    is attributed to its file.
    """
    if not own:
        return {"licence": licence or recipe.licence, "attribution": recipe.attribution}
    return {"licence": licence or USER_LICENCE, "attribution": f"{source.name}, a word list supplied by the user"}


def stage_context(recipe: Recipe, language: Language) -> StageContext:
    """The stages' defaults: the language record's letter policy."""
    context: StageContext = language.stage_context(recipe.path.parent if recipe.path else data_dir("pipelines"))
    return context


def build_lexicon(
    name: str,
    *,
    source: str | os.PathLike[str] | None = None,
    store: str | os.PathLike[str] | None = None,
    save_as: str | None = None,
    encoding: str | None = None,
    download: bool = True,
    progress: Progress | None = None,
    on_bytes: Callable[[int, int], None] | None = None,
    licence: str | None = None,
) -> Lexicon:
    """Build lexicon `name` (a recipe name or `.toml` path) and save it into the store.

    The source is read, hashed and filtered in one streaming pass, so memory
    grows with the words kept (inside MARISA), not with the file. `progress`
    gets one-line notes; `on_bytes(read, total)` is called once per 1 MiB read. `licence` is recorded
    instead of the recipe's (for a `source` of the user's own, whose licence is otherwise "unknown").
    """
    started = time.perf_counter()
    say = progress or (lambda _msg: None)
    if licence is not None and (not licence.strip() or len(licence) > MAX_LICENCE or not licence.isprintable()):
        raise BoggleI18nError(f"--licence must be a line of 1 to {MAX_LICENCE} printable characters")
    recipe = load_recipe(name)
    if save_as is not None:
        recipe = recipe.renamed(lexicon_name(save_as))
    check_lexicon_name(recipe.name, f"lexicon name in recipe {name}")
    # Before any download or stage: a store that cannot take the result is reported first.
    check_writable_dir(store_dir(store), "lexicon store")
    language = get_language(recipe.language)
    run = StageRun(recipe.stages, stage_context(recipe, language))  # a bad recipe fails here, before any reading
    resolved = resolve_source(recipe, source, download=download)
    say(f"source: {resolved.kind} {resolved.path}")
    stats = WordStats(language.spelling)
    blank = BlankCheck(resolved.lines(encoding or recipe.encoding, on_bytes))
    # The words stream straight into MARISA's key set: no list of the words is ever held.
    # An entry the stages emptied is no word: it never becomes an empty key.
    entries = (
        with_particles(blank, recipe.source.particles, attested(language, recipe.source.particles_min_zipf))
        if recipe.source.particles
        else blank
    )
    trie = marisa_trie.Trie(stats.add(w) for w in run.words(entries) if w)
    reports = run.reports()
    if not blank.text_seen:
        raise SourceError(f"source {resolved.path} is empty")
    if not stats.count:
        raise BoggleI18nError(f"recipe {recipe.name!r} kept no words from {resolved.path}; is it the right list?")
    trie_bytes = trie.tobytes()
    # what a check of a copied store compares the trie's words with (streamed: no list of every word)
    keys_sha = trie_keys_digest(trie, {ch for letter in stats.letters for ch in letter})
    del trie
    manifest = _manifest(recipe, language, resolved, stats, reports, trie_bytes, time.perf_counter() - started, licence)
    manifest["keys_sha256"] = keys_sha
    if recipe.source.particles:
        manifest["source"]["particles"] = list(recipe.source.particles)
        if recipe.source.particles_min_zipf is not None:
            manifest["source"]["particles_min_zipf"] = recipe.source.particles_min_zipf
    manifest["build_command"] = _build_command(name, save_as, source, encoding, licence)
    trie_path, manifest_path = lexicon_paths(recipe.name, store)
    manifest_text = json.dumps(manifest, ensure_ascii=False, indent=2) + "\n"
    # Both files are written whole beside the old pair, then swapped under the store's lock (trie first,
    # manifest last): a full disk or a refused write leaves the old pair as it was, loadable and scoring the same.
    replace_together(store_dir(store), [(trie_path, trie_bytes), (manifest_path, manifest_text.encode("utf-8"))])
    remember(manifest["trie_sha256"], stats.count, keys_sha)  # MARISA made these bytes: no check process needed
    lexicon = Lexicon(
        marisa_trie.Trie().frombytes(trie_bytes), manifest, hashlib.sha256(manifest_text.encode("utf-8")).hexdigest()
    )
    say(f"built {recipe.name}: {stats.count:,} words -> {trie_path}")
    return lexicon


def with_particles(
    entries: Iterable[str], particles: tuple[str, ...], keep: Callable[[str], bool] | None = None
) -> Iterator[str]:
    """Each entry, then the entry with each particle joined before it (one particle, never a stack).

    Some scripts write a particle as part of the next word (Arabic و "and", ف "so": وهذا is one
    written word); a dictionary that lists stems alone misses those forms, which the language's
    readers see in every sentence. The stages then judge every form alike. With `keep`, a joined
    form is given only when `keep` says so (`attested`: running text uses it).
    """
    for entry in entries:
        yield entry
        if entry.strip():
            for particle in particles:
                form = particle + entry.strip()
                if keep is None or keep(form):
                    yield form


def attested(language: Language, min_zipf: float | None) -> Callable[[str], bool] | None:
    """Whether wordfreq's list of `language` has a form at least `min_zipf` frequent (None: no test).

    A particle joins every entry in grammar, but a reader meets only some of the stacks (Hebrew
    כפנימכם "like your inside" is grammatical and unheard of); where no dictionary says which, the
    frequency of the written form in running text is the evidence. Combining marks (niqqud, harakat)
    are ignored, as wordfreq ignores them.
    """
    if min_zipf is None:
        return None
    code = language.wordfreq
    if not code:
        raise RecipeError(f"particles_min_zipf: language {language.code!r} has no frequency source (`wordfreq`)")
    try:
        import wordfreq
    except ImportError:
        raise RecipeError("particles_min_zipf: needs wordfreq (pip install 'boggle-i18n[frequency]')") from None
    floor = 10 ** (min_zipf - 9)  # Zipf = log10(frequency per billion words)
    known = {w for w, freq in wordfreq.get_frequency_dict(code).items() if freq >= floor}

    def keep(form: str) -> bool:
        bare = "".join(c for c in unicodedata.normalize("NFC", form) if not unicodedata.combining(c))
        return bare in known

    return keep


def _build_command(
    name: str,
    save_as: str | None,
    source: str | os.PathLike[str] | None,
    encoding: str | None,
    licence: str | None = None,
) -> list[str]:
    """The arguments of `boggle-i18n` that build this lexicon again (paths absolute): the manifest's rebuild hint."""
    args = ["build-lexicon", os.path.abspath(name) if name.endswith(".toml") else name]
    if save_as is not None:
        args += ["--as", lexicon_name(save_as)]
    if source is not None:
        args += ["--source", os.path.abspath(source)]
    if encoding is not None:
        args += ["--encoding", encoding]
    if licence is not None:
        args += ["--licence", licence]
    return args
