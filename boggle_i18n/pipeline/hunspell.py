"""A Hunspell dictionary rewritten into the one form `unmunch` expands correctly.

`unmunch` (hunspell-tools) reads a flag as one byte and knows neither NEEDAFFIX
nor continuation classes: on a dictionary with numeric flags (Galician
hunspell-gl, `FLAG num`) it reads `666,315` as the flags `6`, `,`, `3` ... and
wrote 28 GB of nonsense in 10 minutes here. `flatten` rewrites the .aff/.dic
pair so that:

- every affix class a stem uses, whatever the `FLAG` syntax (single, `long`,
  `num`, `UTF-8`, or an `AF` alias), becomes one byte of an ISO-8859-1 file
  (the expanded words come out in ISO-8859-1: a word outside it is left out);
- affixes are applied one level deep: a rule's continuation classes are cut off,
  and a rule whose result itself needs an affix (NEEDAFFIX among its classes) is
  left out, since its bare result is no word;
- a stem flagged NEEDAFFIX, ONLYINCOMPOUND or FORBIDDENWORD is left out (its
  bare form is no word; unmunch cannot leave out the root alone);
- morphological fields (`po:nome`) and everything but SET, FLAG, PFX and SFX go.

What is lost is stated, not hidden: forms made by two affixes in a row (verb +
enclitic pronoun) and the forms of NEEDAFFIX stems.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import SourceError

# unmunch reads a flag as one byte, so the rewritten pair is in ISO-8859-1 and every byte that is
# not white space, '/' or a control character is a flag: 221 classes at most (hunspell-gl uses 216).
OUTPUT_ENCODING = "iso-8859-1"
_CODES = [chr(b) for b in range(0x21, 0x100) if chr(b) != "/" and not 0x7F <= b <= 0xA0]


def _fits(text: str) -> bool:
    """Whether `text` can be written in the output encoding (a word outside it is left out)."""
    try:
        text.encode(OUTPUT_ENCODING)
    except UnicodeEncodeError:
        return False
    return True


_SKIP_STEM = ("NEEDAFFIX", "ONLYINCOMPOUND", "FORBIDDENWORD")


def _split_flags(text: str, syntax: str) -> list[str]:
    if syntax == "num":
        return [f for f in text.split(",") if f]
    if syntax == "long":
        return [text[i : i + 2] for i in range(0, len(text), 2)]
    return list(text)


def _read(path: Path, encoding: str) -> list[str]:
    try:
        return path.read_text(encoding=encoding, errors="strict").split("\n")
    except OSError as exc:
        raise SourceError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise SourceError(f"{path} is not valid {encoding} (its SET line)") from None


def _encoding(aff: Path) -> str:
    with aff.open("rb") as handle:
        for raw in handle:
            parts = raw.split()
            if len(parts) >= 2 and parts[0] == b"SET":
                return parts[1].decode("ascii", "replace").lower().replace("microsoft-", "")
    return "iso-8859-1"  # Hunspell's default


def flatten(dic: Path, aff: Path, folder: Path) -> tuple[Path, Path]:
    """Write the flattened pair into `folder` (ISO-8859-1, one-byte flags); return (dic, aff)."""
    encoding = _encoding(aff)
    lines = _read(aff, encoding)
    syntax, aliases, special = "char", list[str](), dict[str, set[str]]()
    for line in lines:
        parts = line.split()
        if len(parts) >= 2 and parts[0] == "FLAG":
            syntax = {"num": "num", "long": "long"}.get(parts[1], "char")
        elif len(parts) >= 2 and parts[0] == "AF" and not parts[1].isdigit():
            aliases.append(parts[1])
        elif len(parts) >= 2 and parts[0] in _SKIP_STEM:
            special.setdefault(parts[0], set()).add(parts[1])

    def flags_of(text: str) -> list[str]:
        if aliases and text.isdigit():
            index = int(text)
            return _split_flags(aliases[index - 1], syntax) if 0 < index <= len(aliases) else []
        return _split_flags(text, syntax)

    needaffix = special.get("NEEDAFFIX", set())
    skip_stem = set().union(*special.values()) if special else set()
    classes: dict[tuple[str, str], tuple[str, list[tuple[str, str, str]]]] = {}  # (kind, flag) -> (cross, rules)
    for line in lines:
        parts = line.split()
        if len(parts) < 4 or parts[0] not in ("PFX", "SFX"):
            continue
        kind, flag = parts[0], parts[1]
        if (kind, flag) not in classes:  # the header: kind flag cross count
            classes[(kind, flag)] = (parts[2], [])
            continue
        strip, add = parts[2], parts[3]
        condition = parts[4] if len(parts) > 4 else "."
        if "/" in add:
            add, cont = add.split("/", 1)
            if needaffix & set(flags_of(cont)):
                continue  # its result needs a further affix: not a word on its own
        classes[(kind, flag)][1].append((strip, add or "0", condition))
    with_rules = {flag for (_, flag), (_, rules) in classes.items() if rules}
    stems: list[tuple[str, list[str]]] = []
    for line in _read(dic, encoding)[1:]:
        token = line.split("\t")[0].split(" ")[0].strip()
        word, _, flagtext = token.partition("/")
        flags = flags_of(flagtext) if flagtext else []
        if not word or skip_stem & set(flags) or not _fits(word):
            continue
        stems.append((word, [f for f in flags if f in with_rules]))
    used = sorted({f for _, flags in stems for f in flags})
    if len(used) > len(_CODES):
        raise SourceError(f"{dic}: {len(used)} affix classes in use; unmunch can tell only {len(_CODES)} apart")
    code = dict(zip(used, _CODES, strict=False))
    out = ["SET ISO8859-1", ""]
    for (kind, flag), (cross, rules) in classes.items():
        fitting = [r for r in rules if all(map(_fits, r))]
        if flag in code and fitting:
            out += [f"{kind} {code[flag]} {cross} {len(fitting)}"]
            out += [f"{kind} {code[flag]} {strip} {add} {cond}" for strip, add, cond in fitting] + [""]
    entries = [f"{w}/{''.join(code[f] for f in flags)}" if flags else w for w, flags in stems]
    folder.mkdir(parents=True, exist_ok=True)
    out_dic, out_aff = folder / "flat.dic", folder / "flat.aff"
    out_aff.write_text("\n".join(out) + "\n", encoding=OUTPUT_ENCODING)
    out_dic.write_text(f"{len(entries)}\n" + "\n".join(entries) + "\n", encoding=OUTPUT_ENCODING)
    return out_dic, out_aff
