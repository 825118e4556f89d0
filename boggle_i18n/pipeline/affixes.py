"""The project's own Hunspell affix expander: every word form a .dic/.aff pair accepts, streamed.

Hunspell's `unmunch` reads a flag as one byte and knows neither aliases, NEEDAFFIX nor
continuation classes, so it cannot read most dictionaries (FLAG long/num, AF, UTF-8
conditions) and mis-expands some it reads (forms hunspell's own checker rejects). This
module reads the .aff as Hunspell does and yields the forms of each stem, one stem at a
time (the .dic is read line by line: nothing grows with the list's size but the small set
of forbidden words):

- flags of any `FLAG` type (one character, `long` = two, `num` = comma-separated numbers,
  `UTF-8`), `AF` flag aliases (in the .dic and in affix continuation classes), `AM`
  morphological aliases and morphological fields (ignored);
- the `SET` encoding (ISO-8859-x, KOI8-R, UTF-8 ...), a byte-order mark, CRLF line ends;
- conditions over characters (`[^aeiou]y`, UTF-8 letters), strip and add (`0` = none);
- continuation classes: a suffix whose continuation holds another suffix's flag takes that
  suffix after it (two suffix levels, as Hunspell checks), a prefix's continuation may allow
  a suffix and a suffix's a prefix; prefix + suffix only when both classes say `Y`;
- NEEDAFFIX (also `PSEUDOROOT`) on a stem or an affix, CIRCUMFIX (a marked prefix and a
  marked suffix only together, as documented: Hunspell 1.7's checker also takes a marked
  prefix alone, a form this leaves out), ONLYINCOMPOUND (stem or affix: left out, no compounds are
  made), FORBIDDENWORD (the stem and every form of it left out, and a forbidden form is
  never given from another stem), FULLSTRIP, IGNORE, COMPLEXPREFIXES (two prefix levels).

How deep it goes is the recipe's choice (`Depth`): Hunspell accepts up to two suffixes and
one prefix (or two prefixes and one suffix with COMPLEXPREFIXES); a recipe may stop at one
suffix, no prefix, or the stems alone, may leave out named affix classes, and may leave out
every prefix (suffix) rule that adds more than N characters of the dictionary's own text
(`prefix_letters`, `suffix_letters`: Hebrew's one-letter particles, Korean's short verb
endings) or exactly a named text (`exclude_affixes`: Aragonese's stacking diminutives), when the
full expansion makes forms no player would type. Compounds are never made.

    python -m boggle_i18n.pipeline.affixes DIC [AFF] [--suffixes N] [--prefixes N]   # forms on stdout
    python -m boggle_i18n.pipeline.affixes an_ES.dic --exclude-affixes et,eta,ot,ota  # rules adding these: never
"""

from __future__ import annotations

import argparse
import io
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path

from ..errors import SourceError

_ENCODINGS = {"microsoft-cp1251": "cp1251", "microsoft-cp1250": "cp1250", "microsoft-cp1252": "cp1252"}
_NO_FLAGS: frozenset[str] = frozenset()  # one object: `frozenset()` is a new one each call (98k rules)
_SPECIAL = ("NEEDAFFIX", "PSEUDOROOT", "CIRCUMFIX", "ONLYINCOMPOUND", "FORBIDDENWORD")


@dataclass(frozen=True)
class Depth:
    """How many affixes a form may carry, and which classes are left out (a recipe's choice)."""

    suffixes: int = 2  # 0, 1 or 2 suffix levels
    prefixes: int = 1  # 0, 1 (or 2 with COMPLEXPREFIXES)
    exclude: frozenset[str] = frozenset()  # affix flags never applied
    prefix_letters: int | None = None  # a prefix rule adding more letters is never applied (Hebrew: 1, no stacks)
    suffix_letters: int | None = None  # a suffix rule adding more letters is never applied (Korean: 5, no long endings)
    # affix rules adding exactly this text are never applied, whatever their flag (Aragonese diminutives -et -ot:
    # hunspell-an stacks them on any noun, alzamientoetet)
    exclude_affixes: frozenset[str] = frozenset()


@dataclass(slots=True)
class Rule:
    """One affix rule: strip, add, its condition (a compiled regex) and continuation flags."""

    flag: str
    strip: str
    add: str
    condition: re.Pattern[str] | None
    cont: frozenset[str]
    cross: bool
    edge: frozenset[str] | None = None  # the characters the stem may end (start) with, when the rule says


def _edge(strip: str, condition: str, suffix: bool) -> frozenset[str] | None:
    """The set of characters a stem's last (a prefix: first) character must be in, or None (any).

    Used only to index rules: a verb class of 1,141 Spanish rules is then tried on the
    few rules whose condition can match, not all of them.
    """
    if strip:
        return frozenset(strip[-1] if suffix else strip[0])
    pieces = _CLASS.findall(condition) if condition not in (".", "") else []
    if not pieces:
        return None
    piece = pieces[-1] if suffix else pieces[0]
    if piece == "." or piece.startswith("[^"):
        return None
    return frozenset(piece[1:-1]) if piece.startswith("[") else frozenset(piece)


@dataclass
class AffixFile:
    """What the .aff says, parsed once."""

    encoding: str = "iso-8859-1"
    flag_type: str = "char"
    aliases: list[str] = field(default_factory=list)
    suffixes: dict[str, list[Rule]] = field(default_factory=dict)
    prefixes: dict[str, list[Rule]] = field(default_factory=dict)
    needaffix: frozenset[str] = frozenset()
    circumfix: frozenset[str] = frozenset()
    onlyincompound: frozenset[str] = frozenset()
    forbidden: frozenset[str] = frozenset()
    fullstrip: bool = False
    complexprefixes: bool = False
    ignore: str = ""
    skipped: list[str] = field(default_factory=list)  # malformed rule lines, left out
    _flag_cache: dict[str, frozenset[str]] = field(default_factory=dict, repr=False)

    def flags(self, text: str) -> frozenset[str]:
        """The flags of a .dic entry or a continuation class (an alias number is resolved)."""
        if not text:
            return _NO_FLAGS
        known = self._flag_cache.get(text)
        if known is None:
            known = self._flag_cache[text] = self._parse_flags(text)
        return known

    def _parse_flags(self, text: str) -> frozenset[str]:
        if self.aliases and text.isdigit():
            index = int(text)
            if not 0 < index <= len(self.aliases):
                return frozenset()
            text = self.aliases[index - 1]
        return frozenset(split_flags(text, self.flag_type))

    def strip_ignored(self, text: str) -> str:
        """`text` without the characters IGNORE names (Hunspell removes them from words and affixes)."""
        return text.translate({ord(c): None for c in self.ignore}) if self.ignore else text


def split_flags(text: str, flag_type: str) -> list[str]:
    """A flag string cut into flags by the `FLAG` type."""
    if flag_type == "num":
        return [f.strip() for f in text.split(",") if f.strip()]
    if flag_type == "long":
        return [text[i : i + 2] for i in range(0, len(text), 2)]
    return list(text)


def aff_encoding(aff: Path) -> str:
    """The Python codec of the .aff's `SET` line (Hunspell's default: ISO-8859-1)."""
    try:
        with aff.open("rb") as handle:
            for raw in handle:
                parts = raw.lstrip(b"\xef\xbb\xbf").split()
                if len(parts) >= 2 and parts[0] == b"SET":
                    name = parts[1].decode("ascii", "replace").lower()
                    name = _ENCODINGS.get(name, name.replace("microsoft-", ""))
                    try:
                        return __import__("codecs").lookup(name).name
                    except LookupError:
                        raise SourceError(f"{aff}: unknown SET encoding {name!r}") from None
    except OSError as exc:
        raise SourceError(f"cannot read {aff}: {exc.strerror}") from None
    return "iso-8859-1"


def _lines(path: Path, encoding: str) -> Iterator[str]:
    """A file's lines decoded, without BOM or CR; a byte the encoding cannot read is one clear error."""
    try:
        with path.open("rb") as handle:
            for number, raw in enumerate(handle, 1):
                if number == 1:
                    raw = raw.removeprefix(b"\xef\xbb\xbf")
                try:
                    yield raw.decode(encoding).rstrip("\r\n")
                except UnicodeDecodeError:
                    # a stray byte in one entry: Hunspell skips what it cannot read, so does this
                    yield raw.decode(encoding, "replace").rstrip("\r\n")
    except OSError as exc:
        raise SourceError(f"cannot read {path}: {exc.strerror}") from None


_CLASS = re.compile(r"\[[^\]]*\]|.")


def compile_condition(condition: str, suffix: bool) -> re.Pattern[str] | None:
    """A Hunspell condition (`.`, letters, `[abc]`, `[^abc]`) as a regex anchored at the stem's end or start."""
    if condition in (".", ""):
        return None
    parts = []
    for piece in _CLASS.findall(condition):
        if piece == ".":
            parts.append(".")
        elif piece.startswith("["):
            body = piece[1:-1]
            neg = body.startswith("^")
            chars = body[1:] if neg else body
            parts.append(("[^" if neg else "[") + "".join(re.escape(c) for c in chars) + "]" if chars else ".")
        else:
            parts.append(re.escape(piece))
    text = "".join(parts)
    return re.compile(f"(?:{text})$" if suffix else f"^(?:{text})", re.DOTALL)


def parse_aff(aff: Path) -> AffixFile:
    """Read a .aff file (any `SET` encoding, any `FLAG` type)."""
    out = AffixFile(encoding=aff_encoding(aff))
    lines = [line.split() for line in _lines(aff, out.encoding)]
    special: dict[str, set[str]] = {}
    raw_rules: list[tuple[str, list[str]]] = []
    # one set per distinct (strip, condition): hunspell-ko's 98,577 rules share 55 conditions, and a set
    # per rule held 95 MiB
    edges: dict[tuple[str, str, bool], frozenset[str] | None] = {}
    headers: dict[tuple[str, str], tuple[bool, int]] = {}
    af_count_read = False  # the first AF line gives the number of aliases, the next ones the aliases
    for parts in lines:
        if not parts or parts[0].startswith("#"):
            continue
        key = parts[0]
        if key == "FLAG" and len(parts) >= 2:
            out.flag_type = {"num": "num", "long": "long", "utf-8": "utf8"}.get(parts[1].lower(), "char")
        elif key == "AF" and len(parts) >= 2:
            if af_count_read:
                out.aliases.append(parts[1])
            af_count_read = True
        elif key in _SPECIAL and len(parts) >= 2:
            special.setdefault("NEEDAFFIX" if key == "PSEUDOROOT" else key, set()).add(parts[1])
        elif key == "FULLSTRIP":
            out.fullstrip = True
        elif key == "COMPLEXPREFIXES":
            out.complexprefixes = True
        elif key == "IGNORE" and len(parts) >= 2:
            out.ignore = parts[1]
        elif key in ("PFX", "SFX") and len(parts) >= 4:
            if (key, parts[1]) not in headers and parts[2] in ("Y", "N") and parts[3].isdigit():
                headers[(key, parts[1])] = (parts[2] == "Y", int(parts[3]))
            else:
                raw_rules.append((key, parts))
    one = {k: frozenset(v2 for v in vals for v2 in split_flags(v, out.flag_type)) for k, vals in special.items()}
    out.needaffix = one.get("NEEDAFFIX", frozenset())
    out.circumfix = one.get("CIRCUMFIX", frozenset())
    out.onlyincompound = one.get("ONLYINCOMPOUND", frozenset())
    out.forbidden = one.get("FORBIDDENWORD", frozenset())
    for key, parts in raw_rules:
        flag = sys.intern(parts[1])
        if (key, flag) not in headers:
            out.skipped.append(" ".join(parts))  # a rule with no class header: Hunspell ignores it too
            continue
        cross = headers[(key, flag)][0]
        strip = "" if parts[2] == "0" else out.strip_ignored(parts[2])
        add, _, cont = parts[3].partition("/")
        add = "" if add == "0" else out.strip_ignored(add)
        if "[" in add or "]" in add:
            # a condition written where the affix belongs (hunspell-kk: `SFX x у [аоуұыэ]ву`, no affix field):
            # every form it makes holds brackets, no word does
            out.skipped.append(" ".join(parts))
            continue
        # a rule without a condition field matches any stem, as in Hunspell (hunspell-id writes `SFX a0 0 anlah`)
        condition = parts[4] if len(parts) > 4 and not parts[4].startswith("#") else "."
        suffix = key == "SFX"
        edge_key = (strip[-1:] if suffix else strip[:1], condition if not strip else "", suffix)
        if edge_key not in edges:
            edges[edge_key] = _edge(strip, condition, suffix)
        edge = edges[edge_key]
        rule = Rule(flag, strip, add, compile_condition(condition, suffix), out.flags(cont), cross, edge)
        (out.suffixes if key == "SFX" else out.prefixes).setdefault(flag, []).append(rule)
    return out


def _dic_entry(line: str, aff: AffixFile) -> tuple[str, frozenset[str]] | None:
    """(word, flags) of one .dic line; None for a blank or comment line.

    The entry ends at a tab or space (morphological fields, an `AM` alias number follow);
    a '/' escaped as '\\/' belongs to the word, the first plain '/' starts the flags.
    """
    token = line.split(None, 1)[0] if line and not line[0].isspace() else ""
    if not token or token[0] == "#":
        return None
    if "\\" in token:
        cut = re.search(r"(?<!\\)/", token)
        word, flagtext = (token[: cut.start()], token[cut.end() :]) if cut else (token, "")
        word = word.replace("\\/", "/")
    else:
        word, _, flagtext = token.partition("/")
    word = aff.strip_ignored(word)
    return (word, aff.flags(flagtext)) if word else None


class Expander:
    """Expand stems by one parsed .aff to a `Depth`."""

    def __init__(self, aff: AffixFile, depth: Depth) -> None:
        self.aff, self.depth = aff, depth
        skip = aff.onlyincompound | depth.exclude
        left_out = depth.exclude_affixes
        longest = depth.suffix_letters
        self.sfx = {
            f: [
                r
                for r in rules
                if not r.cont & aff.onlyincompound
                and (longest is None or len(r.add) <= longest)
                and r.add not in left_out
            ]
            for f, rules in aff.suffixes.items()
        }
        most = depth.prefix_letters
        self.pfx = {
            f: [
                r
                for r in rules
                if not r.cont & aff.onlyincompound and (most is None or len(r.add) <= most) and r.add not in left_out
            ]
            for f, rules in aff.prefixes.items()
        }
        for table in (self.sfx, self.pfx):
            for f in list(table):
                if f in skip or not table[f]:
                    del table[f]
        # per flag: rules by the stem's last (first) character, and the rules any stem may take
        self.index: dict[bool, dict[str, tuple[dict[str, list[Rule]], list[Rule]]]] = {True: {}, False: {}}
        for suffix, table in ((True, self.sfx), (False, self.pfx)):
            for f, rules in table.items():
                by_char: dict[str, list[Rule]] = {}
                anywhere: list[Rule] = []
                for rule in rules:
                    if rule.edge is None:
                        anywhere.append(rule)
                    else:
                        for c in rule.edge:
                            by_char.setdefault(c, []).append(rule)
                self.index[suffix][f] = (by_char, anywhere)

    def _one(self, word: str, rule: Rule, suffix: bool) -> str | None:
        """`rule` applied to `word`, or None when its strip or condition does not fit."""
        strip = rule.strip
        if strip:
            if not (word.endswith(strip) if suffix else word.startswith(strip)):
                return None
            if len(strip) >= len(word) and not self.aff.fullstrip:
                return None
        if rule.condition is not None and not rule.condition.search(word):
            return None
        if suffix:
            stem = word[: len(word) - len(strip)] if strip else word
            return stem + rule.add if stem or rule.add else None
        rest = word[len(strip) :]
        return rule.add + rest if rest or rule.add else None

    def _apply(self, word: str, flags: Iterable[str], suffix: bool) -> Iterator[tuple[str, Rule]]:
        if not word:
            return
        index = self.index[suffix]
        edge = word[-1] if suffix else word[0]
        for flag in flags:
            found = index.get(flag)
            if found is None:
                continue
            by_char, anywhere = found
            for rules in (by_char.get(edge, ()), anywhere):
                for rule in rules:
                    form = self._one(word, rule, suffix)
                    if form is not None:
                        yield form, rule

    def forms(self, word: str, flags: frozenset[str]) -> Iterator[str]:
        """Every form of one stem (duplicates possible), or nothing for a forbidden/compound-only stem."""
        aff, depth = self.aff, self.depth
        if flags & aff.forbidden or flags & aff.onlyincompound:
            return
        need, circ = aff.needaffix, aff.circumfix
        if not flags & need:
            yield word
        # suffixed forms: (form, outer rule, inner rule or None)
        suffixed: list[tuple[str, Rule, Rule | None]] = []
        if depth.suffixes >= 1:
            for form1, s1 in self._apply(word, flags, True):
                suffixed.append((form1, s1, None))
                if depth.suffixes >= 2 and s1.cont:
                    for form2, s2 in self._apply(form1, s1.cont, True):
                        suffixed.append((form2, s2, s1))
        for form, outer, inner in suffixed:
            if outer.cont & need or outer.cont & circ or (inner is not None and inner.cont & circ):
                continue  # needs a further affix, or a prefix (circumfix)
            yield form
        if depth.prefixes < 1 or not self.pfx:
            return
        # a prefix on the stem (two with COMPLEXPREFIXES, the outer one named by the inner's continuation)
        for pform, p in self._apply(word, flags, False):
            if not (p.cont & need or p.cont & circ):
                yield pform
            if depth.prefixes >= 2 and aff.complexprefixes and p.cont:
                for pform2, p2 in self._apply(pform, p.cont, False):
                    if not (p2.cont & need or p2.cont & circ):
                        yield pform2
        # a prefix on a suffixed form: both classes cross (`Y`); the prefix's flag on the stem or in a
        # suffix's continuation; a circumfix prefix only with a circumfix suffix and back
        for form, outer, inner in suffixed:
            if not outer.cross or (inner is not None and not inner.cross):
                continue
            allowed = flags | outer.cont | (inner.cont if inner is not None else frozenset())
            s_circ = bool(outer.cont & circ or (inner is not None and inner.cont & circ))
            for pform, p in self._apply(form, allowed, False):
                if not p.cross or bool(p.cont & circ) != s_circ:
                    continue
                if outer.cont & need and (p.cont & need or inner is not None):
                    continue
                yield pform
        # a suffix the prefix's continuation allows (the stem lacks its flag): prefix + that suffix
        if depth.suffixes >= 1:
            for pflag in flags & frozenset(self.pfx):
                for p in self.pfx[pflag]:
                    extra = (p.cont - flags) & frozenset(self.sfx)
                    if not extra or not p.cross:
                        continue
                    for form1, s1 in self._apply(word, extra, True):
                        if not s1.cross or s1.cont & need or bool(p.cont & circ) != bool(s1.cont & circ):
                            continue
                        prefixed = self._one(form1, p, False)
                        if prefixed is not None:
                            yield prefixed


def stems(dic: Path, aff: AffixFile) -> Iterator[tuple[str, frozenset[str]]]:
    """The .dic entries (word, flags), read one line at a time (the count line is skipped)."""
    lines = _lines(dic, aff.encoding)
    first = next(lines, "")
    if not first.strip().isdigit():
        entry = _dic_entry(first, aff)
        if entry:
            yield entry
    for line in lines:
        entry = _dic_entry(line, aff)
        if entry:
            yield entry


def expand(dic: Path, aff: Path | None = None, depth: Depth | None = None) -> Iterator[str]:
    """Every form of every stem of `dic` (its .aff beside it unless given), in stem order.

    A stem's forms come once each; two stems may still make the same form (the lexicon's
    `dedupe` stage removes those).

    Words the .dic marks FORBIDDENWORD are never given, whichever stem makes them.
    """
    aff_path = aff if aff is not None else dic.with_suffix(".aff")
    parsed = parse_aff(aff_path)
    expander = Expander(parsed, depth or Depth())
    forbidden: set[str] = set()
    if parsed.forbidden:
        forbidden = {w for w, f in stems(dic, parsed) if f & parsed.forbidden}
    for word, flags in stems(dic, parsed):
        # one stem's forms once each (a verb's 1,141 rules repeat many): fewer lines for the stages to read
        for form in dict.fromkeys(expander.forms(word, flags)):
            if form not in forbidden:
                yield form


class FormReader(io.RawIOBase):
    """The forms of `expand` as a binary stream, one UTF-8 line each (how sources.py reads a tool's output)."""

    def __init__(self, forms: Iterator[str]) -> None:
        super().__init__()
        self._forms = forms
        self._buffer = b""

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        """Up to `size` bytes (all that is left when `size` < 0); b"" at the end."""
        want = size if size >= 0 else 1 << 62
        parts = [self._buffer]
        have = len(self._buffer)
        while have < want:
            chunk = [f + "\n" for f in islice(self._forms, 4096)]
            if not chunk:
                break
            data = "".join(chunk).encode("utf-8")
            parts.append(data)
            have += len(data)
        data = b"".join(parts)
        self._buffer = data[want:] if have > want else b""
        return data[:want]


def main(argv: list[str] | None = None) -> int:
    """Print the forms, one per line in UTF-8 (for measuring and for checking against hunspell)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dic", type=Path)
    parser.add_argument("aff", type=Path, nargs="?")
    parser.add_argument("--suffixes", type=int, default=2, choices=(0, 1, 2))
    parser.add_argument("--prefixes", type=int, default=1, choices=(0, 1, 2))
    parser.add_argument("--exclude", default="", help="affix flags to leave out, comma-separated")
    parser.add_argument("--prefix-letters", type=int, default=None, help="apply no prefix adding more letters")
    parser.add_argument("--suffix-letters", type=int, default=None, help="apply no suffix adding more letters")
    parser.add_argument("--exclude-affixes", default="", help="affix texts never added, comma-separated (et,ot)")
    args = parser.parse_args(argv)
    exclude = frozenset(f for f in args.exclude.split(",") if f)
    affixes = frozenset(a for a in args.exclude_affixes.split(",") if a)
    depth = Depth(args.suffixes, args.prefixes, exclude, args.prefix_letters, args.suffix_letters, affixes)
    out = sys.stdout.buffer
    try:
        for form in expand(args.dic, args.aff, depth):
            out.write(form.encode("utf-8") + b"\n")
    except SourceError as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
