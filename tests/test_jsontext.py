"""jsontext reads and writes exactly what json does (same C code), and fails where json fails."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boggle_i18n import jsontext

SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text()
VALUES = st.recursive(
    SCALARS, lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(), inner, max_size=5), max_leaves=30
)


@settings(max_examples=300, deadline=None)
@given(VALUES)
def test_dumps_and_loads_match_json(value: object) -> None:
    for options in (
        {},
        {"ensure_ascii": True},
        {"sort_keys": True, "separators": (",", ":")},
        {"check_circular": False},
    ):
        text = jsontext.dumps(value, **options)  # type: ignore[arg-type]
        assert text == json.dumps(
            value,
            ensure_ascii=options.get("ensure_ascii", False),
            **{k: v for k, v in options.items() if k != "ensure_ascii"},
        )
        assert jsontext.loads(text) == json.loads(text)
        assert jsontext.loads(text.encode("utf-8")) == json.loads(text.encode("utf-8"))


def test_real_files_read_the_same() -> None:
    from pathlib import Path

    from boggle_i18n.folders import data_folder

    files = sorted(Path(data_folder("lexicons"), "dice").glob("*.json"))
    assert files
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert jsontext.loads(text) == json.loads(text), path


def test_special_values() -> None:
    assert jsontext.dumps({1: "é", None: False, 2.5: [math.inf]}) == json.dumps(
        {1: "é", None: False, 2.5: [math.inf]}, ensure_ascii=False
    )
    assert math.isnan(jsontext.loads("NaN")) and jsontext.loads(" -Infinity\n") == -math.inf
    assert jsontext.loads(b"\xef\xbb\xbf[1]") == [1]


@pytest.mark.parametrize(
    "text", ["", "  ", "[1,", "{'a': 1}", "[1] x", "\ufeff[1]", "nul", '"\x01"', "[1]]", b"\xff", "01"]
)
def test_bad_text_is_a_value_error_like_json(text: str | bytes) -> None:
    with pytest.raises(ValueError):
        json.loads(text)
    with pytest.raises(ValueError):
        jsontext.loads(text)


def test_unserializable_and_circular_are_refused_like_json() -> None:
    with pytest.raises(TypeError, match="Object of type set is not JSON serializable"):
        jsontext.dumps({"a": {1}})
    loop: list[object] = []
    loop.append(loop)
    with pytest.raises(ValueError):
        jsontext.dumps(loop)


def test_import_loads_neither_json_nor_re() -> None:
    # An editable install's finder may load `re` at start-up: what counts is what this import adds.
    code = (
        "import sys; before = set(sys.modules); import boggle_i18n.jsontext as j; j.dumps(j.loads('[1]')); "
        "print(sorted({'json', 're', 'enum', 'functools'} & (set(sys.modules) - before)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
