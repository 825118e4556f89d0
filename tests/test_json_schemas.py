"""One vocabulary: every command's --json matches its schema (docs/json/), one key per concept, one placeholder
per option in every help text."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from json_samples import VARIANTS, command_outputs

from boggle_i18n.cli import COMMANDS, app, load_command

REPO = Path(__file__).resolve().parent.parent
SCHEMAS = REPO / "docs" / "json"
# Synonyms retired for one key per concept (docs/json.md): language/code -> lang, size -> rows + cols,
# min_word_length -> min_length, id -> dice, lexicon_words -> word_count. build-lexicon --json prints the
# stored manifest, a file format with its own version, so it keeps `language` (documented there).
RETIRED = {"language", "code", "min_word_length", "id", "size", "lexicon_words"}
MANIFEST_COMMANDS = {"build-lexicon"}


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Any]]:
    return command_outputs(tmp_path_factory.mktemp("json-samples"))


def test_every_command_with_json_has_a_schema() -> None:
    assert sorted(p.name.removesuffix(".schema.json") for p in SCHEMAS.glob("*.schema.json")) == sorted(VARIANTS)


@pytest.mark.parametrize("command", sorted(VARIANTS))
def test_real_output_matches_the_schema(command: str, outputs: dict[str, list[Any]]) -> None:
    schema = json.loads((SCHEMAS / f"{command}.schema.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    for value in outputs[command]:
        errors = sorted(validator.iter_errors(value), key=lambda e: list(e.path))
        assert not errors, f"{command}: {errors[0].message} at {list(errors[0].path)}"


def _keys(schema: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(schema, dict):
        for key, value in schema.get("properties", {}).items():
            found.add(key)
            found |= _keys(value)
        for part in ("items", "additionalProperties"):
            found |= _keys(schema.get(part))
    return found


@pytest.mark.parametrize("command", sorted(set(VARIANTS) - MANIFEST_COMMANDS))
def test_one_key_per_concept(command: str) -> None:
    schema = json.loads((SCHEMAS / f"{command}.schema.json").read_text(encoding="utf-8"))
    assert not _keys(schema) & RETIRED, f"{command} uses retired keys {sorted(_keys(schema) & RETIRED)}"


def test_a_schema_refuses_a_renamed_key(outputs: dict[str, list[Any]]) -> None:
    """The schemas can fail: the old `language` key instead of `lang` is refused."""
    schema = json.loads((SCHEMAS / "random.schema.json").read_text(encoding="utf-8"))
    value = dict(outputs["random"][0])
    value["language"] = value.pop("lang")
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(value))


# One placeholder per option, the same in every command: `--lang CODE` everywhere, never Click's `<str>`.
PLACEHOLDERS = {
    "--lang": "CODE",
    "--lexicon": "NAME",
    "--dice": "SET",
    "--size": "RxC",
    "--min-length": "N",
    "--scoring": "TABLE",
    "--engine": "NAME",
    "--strategy": "NAME",
    "--bare-q": "qu|q",
    "--workers": "N",
    "--seed": "N",
    "--boards": "N",
    "--count": "N",
    "--restarts": "N",
    "--iterations": "N",
    "--target": "N",
    "--top": "N",
    "--pool": "N",
    "--max-length": "N",
    "--time-limit": "SECONDS",
    "--optimize-time": "SECONDS",
    "--cluster": "ADDRESS",
    "--output": "FILE",
    "--plot": "FILE",
    "--source": "FILE",
    "--file": "FILE",
    "--store": "DIR",
    "--as": "NAME",
    "--encoding": "CODEC",
    "--letters": "uniform|lexicon",
    "--threshold": "N",
    "--buckets": "K|C/E/I",
    "--tasks": "N",
    "--open": "N",
    "--sample": "N",
    "--checkpoint": "FILE",
    "--host": "HOST",
    "--allow-host": "HOST",
    "--port": "PORT",
    "--results": "DIR",
    "--roll": "letters|dice|own",
    "--tier": "full|common",
    "--licence": "TEXT",
}


def test_every_option_has_its_one_placeholder() -> None:
    seen = []
    for name in COMMANDS:
        for spec in load_command(name).specs:
            if spec.kind != "option" or spec.flag:
                continue
            seen.append((name, max(spec.names, key=len), spec.param.metavar))
    wrong = [s for s in seen if PLACEHOLDERS.get(s[1]) != s[2]]
    assert not wrong, wrong


@pytest.mark.parametrize("command", ["solve", "score", "optimize", "compare", "random", "paths", "results"])
def test_help_shows_no_click_type_labels(command: str) -> None:
    from boggle_i18n.cli.testing import CliRunner

    text = CliRunner().invoke(app, [command, "--help"]).stdout
    assert "<str>" not in text and "<int" not in text and "<float" not in text and "<path>" not in text, text
