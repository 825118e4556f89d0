"""JSON read and written by the C scanner and encoder that `json` itself runs, without importing `json`.

`import json` loads `re` for its decoder's and encoder's patterns, and `re` loads `enum` and
`functools`: about a fifth of a cold `solve` beyond the bare interpreter (docs/performance.md, "Cold
start"). The library's start-up path reads small JSON files (dice sets, manifests, cache entries) and
writes a solve's JSON, so it uses this module; the text in and out is the same as `json.loads` and
`json.dumps` give, because it is the same C code (`_json`): tests/test_jsontext.py compares them. Where
`_json` is missing (another Python), `json` does the work.
"""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time: mypy reads this name as True
if TYPE_CHECKING:
    from typing import Any

_c: Any
try:
    import _json as _c
except ImportError:  # pragma: no cover - CPython always has _json
    _c = None

_WHITESPACE = " \t\n\r"  # JSON's four whitespace characters (json.decoder's WHITESPACE pattern)
_CONSTANTS = {"NaN": float("nan"), "Infinity": float("inf"), "-Infinity": float("-inf")}


class JSONError(ValueError):
    """Text that is not one JSON value. A ValueError, as `json.JSONDecodeError` is, so callers catch either."""


class _Context:
    """The settings the C scanner reads from its context object: `json.JSONDecoder()`'s defaults."""

    def __init__(self) -> None:
        self.strict = True
        self.object_hook = None
        self.object_pairs_hook = None
        self.parse_float = float
        self.parse_int = int
        self.parse_constant = _CONSTANTS.__getitem__
        self.memo: dict[str, str] = {}


_scan: Any = _c.make_scanner(_Context()) if _c is not None else None


def loads(text: str | bytes | bytearray) -> Any:
    """`json.loads(text)`: one JSON value, whitespace around it allowed; bytes are UTF-8 (a BOM dropped)."""
    if isinstance(text, (bytes, bytearray)):
        data = bytes(text)
        text = (data[3:] if data.startswith(b"\xef\xbb\xbf") else data).decode("utf-8")  # a ValueError if not UTF-8
    if _scan is None:  # pragma: no cover
        import json

        return json.loads(text)
    if text.startswith("\ufeff"):
        raise JSONError("Unexpected UTF-8 BOM (decode using utf-8-sig)")
    start = len(text) - len(text.lstrip(_WHITESPACE))
    try:
        value, end = _scan(text, start)
    except StopIteration as stop:
        raise JSONError(f"Expecting value: char {stop.value}") from None
    if end != len(text) and text[end:].strip(_WHITESPACE):
        raise JSONError(f"Extra data: char {end}")
    return value


def _unserializable(value: object) -> Any:
    raise TypeError(f"Object of type {value.__class__.__name__} is not JSON serializable")


def dumps(
    value: Any,
    *,
    ensure_ascii: bool = False,
    sort_keys: bool = False,
    separators: tuple[str, str] = (", ", ": "),
    check_circular: bool = True,
) -> str:
    """`json.dumps(value, ...)` with these options, on one line (no indent). `ensure_ascii` is off by default:
    the library writes UTF-8 everywhere."""
    if _c is None:  # pragma: no cover
        import json

        return json.dumps(
            value, ensure_ascii=ensure_ascii, sort_keys=sort_keys, separators=separators, check_circular=check_circular
        )
    item_separator, key_separator = separators
    encode = _c.make_encoder(
        {} if check_circular else None,
        _unserializable,
        _c.encode_basestring_ascii if ensure_ascii else _c.encode_basestring,
        None,
        key_separator,
        item_separator,
        sort_keys,
        False,
        True,
    )
    return "".join(encode(value, 0))
