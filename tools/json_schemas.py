"""Write docs/json/<command>.schema.json: a JSON Schema per command's --json, inferred from real runs.

    python tools/json_schemas.py          # runs every command on a small store, writes the schemas

Each command runs in several variants (dice and letters, free and dice optimizing, a
broken lexicon in the store ...), so optional and nullable fields are seen both ways;
the schema lists every key seen, requires the keys present in every run, and refuses
any other key (`additionalProperties: false`). tests/test_json_schemas.py checks fresh
output of every command against these files, so a renamed or new key fails a test
until the schema (and docs/json.md) say so.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

from json_samples import command_outputs  # noqa: E402

TYPES = {bool: "boolean", int: "integer", float: "number", str: "string", type(None): "null", list: "array"}


def _type(value: Any) -> str:
    return "object" if isinstance(value, dict) else TYPES[type(value)]


def infer(values: list[Any]) -> dict[str, Any]:
    """The schema every value in `values` satisfies (merged over all of them)."""
    types = sorted({_type(v) for v in values})
    if "number" in types and "integer" in types:
        types.remove("integer")
    schema: dict[str, Any] = {"type": types[0] if len(types) == 1 else types}
    objects = [v for v in values if isinstance(v, dict)]
    if objects:
        keys = sorted({k for o in objects for k in o})
        if _is_map(objects):  # a table keyed by data (letter counts, scoring lengths): values share one schema
            schema["additionalProperties"] = infer([x for o in objects for x in o.values()])
        else:
            schema["properties"] = {k: infer([o[k] for o in objects if k in o]) for k in keys}
            schema["required"] = [k for k in keys if all(k in o for o in objects)]
            schema["additionalProperties"] = False
    lists = [v for v in values if isinstance(v, list)]
    items = [x for v in lists for x in v]
    if items:
        schema["items"] = infer(items)
    return schema


def _is_map(objects: list[dict[str, Any]]) -> bool:
    """Objects whose keys are data, not field names: lengths (`"3"`), single letters, file names."""
    keys = {k for o in objects for k in o}
    return bool(keys) and all(k.isdigit() or len(k) == 1 or "." in k for k in keys)


# Parts whose keys depend on data the samples cannot all show (each recipe's own stages and fields):
# any object is accepted there, and docs/json.md says what they hold.
FREE = {
    "build-lexicon": [("properties", "recipe"), ("properties", "stages", "items", "properties", "params")],
    "lexicons": [("properties", "built", "items", "properties", "source")],
}


def _loosen(schema: dict[str, Any], path: tuple[str, ...]) -> None:
    node = schema
    for key in path[:-1]:
        node = node.get(key, {})
    if path[-1] in node:
        node[path[-1]] = {"type": "object"}


def main() -> None:
    out = REPO / "docs" / "json"
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        samples = command_outputs(Path(tmp))
    for command, values in sorted(samples.items()):
        schema = {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": f"boggle-i18n {command} --json",
            **infer(values),
        }
        for path in FREE.get(command, []):
            _loosen(schema, path)
        path = out / f"{command}.schema.json"
        path.write_text(json.dumps(schema, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {path.relative_to(REPO)} from {len(values)} outputs")


if __name__ == "__main__":
    main()
