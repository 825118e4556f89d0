"""`build-lexicon`, `lexicons` and `dice`: making and listing the data the solver uses."""

from __future__ import annotations

import sys
from contextlib import nullcontext
from pathlib import Path
from typing import Any

from ..board.dice import dice_sets
from ..housekeeping import cache_bytes, sweep_store
from ..language.records import get_language, languages
from ..lexicon.ensure import lexicon_state
from ..lexicon.store import NAME_RULE, StoreEntry, lexicon_name, lexicon_paths, scan_store
from ..pipeline.recipe import load_recipe, recipe_names
from ..storage import store_dir
from . import app
from .common import StoreOption, emit, note, to_json
from .framework import Argument, Option
from .render import counted


def _params(params: dict[str, Any]) -> str:
    text = " ".join(f"{k}={v!r}" if isinstance(v, str) else f"{k}={v}" for k, v in params.items())
    return text if len(text) <= 40 else text[:37] + "..."


def stage_table(manifest: dict[str, Any]) -> str:
    """The per-stage report: what each stage kept, dropped and changed, with examples."""
    rows = [("#", "stage", "params", "in", "kept", "dropped", "changed", "examples")]
    for i, st in enumerate(manifest["stages"], 1):
        rows.append(
            (
                str(i),
                st["stage"],
                _params(st["params"]),
                f"{st['in']:,}",
                f"{st['kept']:,}",
                f"{st['dropped']:,}",
                f"{st['changed']:,}",
                ", ".join(st["examples"]) + (f"; allowed: {', '.join(st['allowed'])}" if st.get("allowed") else ""),
            )
        )
    widths = [max(len(r[i]) for r in rows) for i in range(7)]
    numeric = {3, 4, 5, 6}
    lines = []
    for r in rows:
        cells = [c.rjust(w) if i in numeric else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths, strict=False))]
        lines.append("  ".join([*cells, r[7]]).rstrip())
    return "\n".join(lines)


def build_summary(manifest: dict[str, Any], trie_path: Path) -> str:
    """What `build-lexicon` prints when it is done."""
    src = manifest["source"]
    version = f" {src['version']}" if src.get("version") else ""
    return "\n".join(
        [
            f"lexicon {manifest['name']} ({manifest['language']}): {counted(manifest['word_count'], 'word')} "
            f"from {manifest['raw_entries']:,} raw entries",
            f"source: {src['name']}{version} [{src['kind']}] {src['path']} sha256 {src['sha256'][:16]}...",
            f"licence: {manifest['licence']}",
            "",
            stage_table(manifest),
            "",
            f"alphabet: {manifest['alphabet']}   longest word: {manifest['longest_word']} "
            f"({counted(len(manifest['longest_word']), 'letter')})",
            f"trie: {trie_path} ({manifest['trie_bytes']:,} bytes, sha256 {manifest['trie_sha256'][:16]}...) "
            f"built in {manifest['build_seconds']:.2f} s",
        ]
    )


def _progress():  # type: ignore[no-untyped-def]
    """A live status line on stderr when it is a terminal (how far through the source, which step); else silence."""
    if not sys.stderr.isatty():
        return nullcontext(), None, None
    from rich.console import Console

    status = Console(stderr=True).status("building...")
    state = {"note": "building"}

    def on_note(msg: str) -> None:
        state["note"] = msg
        status.update(msg)

    def on_bytes(done: int, total: int) -> None:
        share = f"{100 * done / total:.0f}%" if total else f"{done:,} bytes"
        status.update(f"{state['note']}: read {share} ({done / 2**20:.0f} of {total / 2**20:.0f} MiB)")

    return status, on_note, on_bytes


@app.command("build-lexicon")
def build_lexicon_cmd(
    name: str = Argument(
        ...,
        metavar="RECIPE",
        help="Recipe name (see `boggle-i18n lexicons`) or path to a recipe .toml.",
        show_default=False,
    ),
    source: Path | None = Option(
        None,
        "--source",
        metavar="FILE",
        help="Raw word list to use instead of the cache, system list or download.",
        show_default=False,
    ),
    store: Path | None = StoreOption,
    save_as: str | None = Option(
        None,
        "--as",
        metavar="NAME",
        help=f"Store the result under another name (e.g. for your own list); a name is {NAME_RULE}.",
        show_default=False,
    ),
    encoding: str | None = Option(
        None, "--encoding", metavar="CODEC", help="Override the recipe's source encoding.", show_default=False
    ),
    no_download: bool = Option(
        False, "--no-download", help="Never download; use --source, the cache or a system list."
    ),
    licence: str | None = Option(
        None,
        "--licence",
        metavar="TEXT",
        help="The licence of your --source list, recorded in the manifest [default: unknown for your own list, "
        "the recipe's for its own].",
        show_default=False,
    ),
    json_out: bool = Option(False, "--json", help="Print the manifest as JSON."),
) -> None:
    """Build a lexicon: raw list -> the recipe's stages -> MARISA trie + manifest in the store."""
    context, progress, on_bytes = _progress()
    with context:
        from ..lexicon.build import build_lexicon  # the pipeline: only when the command runs

        lexicon = build_lexicon(
            name,
            source=source,
            store=store,
            save_as=save_as,
            encoding=encoding,
            download=not no_download,
            progress=progress,
            on_bytes=on_bytes,
            licence=licence,
        )
    trie_path, _ = lexicon_paths(lexicon.name, store)
    emit(to_json(lexicon.manifest) if json_out else build_summary(lexicon.manifest, trie_path))


def _entry_json(entry: StoreEntry, store: Path | None = None) -> dict[str, Any]:
    """A built lexicon (or a broken manifest, with its problem) as `lexicons --json` shows it."""
    m = entry.manifest
    if m is None:
        return {"name": entry.name, "path": str(entry.path), "problem": entry.problem}
    return {
        "name": entry.name,
        "lang": m["language"],
        "word_count": m["word_count"],
        "source": m["source"],
        "built_at": m["built_at"],
        "recipe_sha256": m["recipe_sha256"],
        "trie_bytes": m.get("trie_bytes"),
        "compiled_bytes": cache_bytes(m.get("trie_sha256"), store),
    }


def _entry_line(entry: StoreEntry, width: int, store: Path | None = None) -> str:
    """One line of `lexicons`: a built lexicon, or a manifest that cannot be used and why."""
    m = entry.manifest
    if m is None:
        label = "BROKEN" if entry.damaged else "UNCHECKED"
        return f"  {entry.name.ljust(width)}  {label}  {entry.path.name}: {entry.problem}"
    src = m["source"]
    version = f" {src['version']}" if src.get("version") else ""
    cached = cache_bytes(m.get("trie_sha256"), store)
    return (
        f"  {entry.name.ljust(width)}  {m['language']}  {counted(m['word_count'], 'word').rjust(15)}  "
        f"{src['name']}{version} [{src['kind']}]  built {m['built_at']}"
        + (f"  compiled cache {size_text(cached)}" if cached else "")
    )


def size_text(n: int) -> str:
    """`512 KB`, `6.1 MB`, `1.2 GB`: a file size as people read it."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return counted(n, "byte")


@app.command("lexicons")
def lexicons_cmd(
    store: Path | None = StoreOption,
    json_out: bool = Option(False, "--json", help="Print recipes and built lexicons as JSON."),
) -> None:
    """List the shipped recipes and the lexicons built in the store (broken manifests too, with why)."""
    recipes = [load_recipe(n) for n in recipe_names()]
    sweep_store(store)  # housekeeping: temp files a killed build or cache write left
    entries = scan_store(store)
    built = {e.name for e in entries if e.manifest is not None}
    states = {r.name: lexicon_state(r, store, r.name in built) for r in recipes}
    if json_out:
        emit(
            to_json(
                {
                    "store": str(store_dir(store)),
                    "recipes": [
                        {
                            "name": r.name,
                            "lang": r.language,
                            "description": r.description,
                            "licence": r.licence,
                            "source": r.source.name,
                            "built": r.name in built,
                            "state": states[r.name],
                        }
                        for r in recipes
                    ],
                    "built": [_entry_json(e, store) for e in entries if e.manifest is not None],
                    "broken": [_entry_json(e, store) for e in entries if e.manifest is None],
                }
            )
        )
        return
    width = max([len(r.name) for r in recipes] + [len(e.name) for e in entries])
    lines = ["Recipes (boggle-i18n build-lexicon NAME):"]
    for r in recipes:
        mark = states[r.name].split(" (")[0].ljust(5) if r.name in built else "     "
        lines.append(f"  {r.name.ljust(width)}  {r.language}  {mark}  {r.description}")
    lines.append("")
    lines.append(f"Built lexicons in {store_dir(store)}:")
    if not entries:
        lines.append("  (none yet)")
    lines += [_entry_line(e, width, store) for e in entries]
    emit("\n".join(lines))


@app.command("remove-lexicon")
def remove_lexicon_cmd(
    names: list[str] | None = Argument(
        None, metavar="NAME", help="Lexicons to remove [none: only prune orphaned caches].", show_default=False
    ),
    store: Path | None = StoreOption,
) -> None:
    """Remove lexicons (trie, manifest and compiled caches), then prune compiled caches no lexicon uses."""
    from ..housekeeping import prune_caches, remove_lexicon

    checked = [lexicon_name(n) for n in names or []]  # every name checked before anything is removed
    freed = 0
    for name in checked:
        removed = remove_lexicon(name, store)
        freed += removed.bytes
        note(f"removed {name}: {', '.join(p.name for p in removed.files)}")
    if not checked:
        removed = prune_caches(store)
        freed += removed.bytes
        note(f"pruned {counted(len(removed.files), 'orphaned cache')}" if removed.files else "no orphaned caches")
    emit(f"freed {size_text(freed)}")


@app.command("dice")
def dice_cmd(
    lang: str | None = Option(
        None, "--lang", metavar="CODE", help="Only the dice sets of this language.", show_default=False
    ),
    json_out: bool = Option(False, "--json", help="Print the dice sets as JSON."),
) -> None:
    """List the dice sets (editions) and languages that ship with boggle-i18n."""
    code = get_language(lang).code if lang is not None else None  # an unknown code is an error, not an empty list
    sets = [d for d in dice_sets().values() if code is None or d.language == code]
    if json_out:
        emit(
            to_json(
                [
                    {
                        "dice": d.id,
                        "name": d.name,
                        "lang": d.language,
                        "rows": d.rows,
                        "cols": d.cols,
                        "min_length": d.min_word_length,
                        "scoring": d.scoring,
                        "status": d.status,
                        "faces": [list(die) for die in d.dice],
                    }
                    for d in sets
                ]
            )
        )
        return
    width = max((len(d.id) for d in sets), default=0)
    lines = []
    for d in sets:
        lines.append(
            f"{d.id.ljust(width)}  {d.rows}x{d.cols}  min {d.min_word_length}  {d.scoring:<13} {d.status:<28} {d.name}"
        )
    lines.append("")
    lines.append("languages: " + ", ".join(f"{c} ({lg.name})" for c, lg in languages().items()))
    emit("\n".join(lines))
