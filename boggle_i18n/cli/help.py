"""Help that says what to type: classic Unix usage lines (`NAME`, `[NAME]...`), every option with the word
its value is, brackets such as `[qu]` and `[default: ...]` kept as written.

Laid out as Click laid it out, so the help reads as it did: at most 78 columns, paragraphs rewrapped,
two-column lists of arguments and options.
"""

from __future__ import annotations

import os
import textwrap

from .framework import Command, Spec

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

HELP_OPTION = ("--help", "Show this message and exit.")


def width() -> int:
    """The text width: the terminal's ($COLUMNS), at most 78 and at least 50, as Click's."""
    try:
        columns = int(os.environ.get("COLUMNS", ""))
    except ValueError:
        import shutil

        columns = shutil.get_terminal_size().columns
    return max(min(columns, 80) - 2, 50)


def usage_piece(spec: Spec) -> str:
    """`NAME`, `[NAME]`, `NAME...` or `[NAME]...`, as Click writes them."""
    piece = spec.metavar if spec.required else f"[{spec.metavar}]"
    return piece + ("..." if spec.many else "")


def option_record(spec: Spec) -> tuple[str, str]:
    """`-f, --file FILE` and its help with `[default: ...]` and the range, if any."""
    names = ", ".join(sorted(spec.names, key=lambda n: (n.startswith("--"), n)))
    if not spec.flag:
        names += f" {spec.metavar}"
    extra = []
    default = spec.param.default
    if spec.param.show_default and default not in (None, False, ..., [], ()):
        extra.append(f"default: {default}")
    if spec.param.min is not None or spec.param.max is not None:
        low, high = spec.param.min, spec.param.max
        extra.append(
            f"{low}<=x<={high}"
            if low is not None and high is not None
            else f"x>={low}"
            if low is not None
            else f"x<={high}"
        )
    if spec.required:
        extra.append("required")
    text = spec.param.help + (f"  [{'; '.join(extra)}]" if extra else "")
    return names, text.strip()


def definitions(rows: Sequence[tuple[str, str]], total: int) -> list[str]:
    """Two columns, the second wrapped beside the first (or below it when the first is long), as Click's."""
    first = min(max((len(term) for term, _ in rows), default=0), 30)
    lines = []
    for term, text in rows:
        room = max(total - first - 4, 10)
        wrapped = textwrap.wrap(text, room) or [""]
        if len(term) <= first:
            lines.append(f"  {term.ljust(first)}  {wrapped[0]}".rstrip())
        else:
            lines.append(f"  {term}")
            lines.append(f"  {' ' * first}  {wrapped[0]}".rstrip())
        lines += [f"  {' ' * first}  {line}" for line in wrapped[1:]]
    return lines


def paragraphs(text: str, total: int) -> list[str]:
    """The help text, each paragraph rewrapped and indented by two."""
    lines: list[str] = []
    for paragraph in text.split("\n\n"):
        if lines:
            lines.append("")
        lines += textwrap.wrap(" ".join(paragraph.split()), total - 2, initial_indent="  ", subsequent_indent="  ")
    return lines


def command_help(prog: str, command: Command) -> str:
    """The whole help of one command."""
    total = width()
    arguments = [spec for spec in command.specs if spec.kind == "argument"]
    usage = " ".join([f"Usage: {prog} {command.name} [OPTIONS]", *(usage_piece(s) for s in arguments)])
    lines = [usage, ""]
    if command.help:
        lines += [*paragraphs(command.help, total), ""]
    if arguments:
        rows = [(usage_piece(s), (s.param.help + ("  [required]" if s.required else "")).strip()) for s in arguments]
        lines += ["Arguments:", *definitions(rows, total), ""]
    options = [option_record(s) for s in command.specs if s.kind == "option"]
    lines += ["Options:", *definitions([*options, HELP_OPTION], total)]
    return "\n".join(lines)


def group_help(prog: str, about: str, options: Sequence[tuple[str, str]], commands: Sequence[Command]) -> str:
    """The top-level help: usage, what the program is, its options and each command's first line."""
    total = width()
    lines = [f"Usage: {prog} [OPTIONS] COMMAND [ARGS]...", "", *paragraphs(about, total), ""]
    lines += ["Options:", *definitions([*options, HELP_OPTION], total), "", "Commands:"]
    longest = max((len(c.name) for c in commands), default=0)
    limit = max(total - 6 - longest, 20)
    lines += definitions([(c.name, short_help(c.help, limit)) for c in commands], total)
    return "\n".join(lines)


def short_help(text: str, limit: int) -> str:
    """The first sentence of a help text, cut at a word to fit `limit` characters (with `...`), as Click's."""
    first = " ".join(text.split("\n\n")[0].split())
    end = first.find(". ")
    if end >= 0:
        first = first[: end + 1]
    if len(first) <= limit:
        return first
    cut = first[: limit - 3].rsplit(" ", 1)[0]
    return cut.rstrip(" ,;:") + "..."
