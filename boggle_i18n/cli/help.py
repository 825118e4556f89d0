"""Help that says what to type: `NAME`, `[BOARD]...`, no type placeholders, brackets kept.

Typer's plain help writes a required argument as `{name}` in the usage line and
adds `<str>`-style type labels to arguments; rich help eats anything in square
brackets (`[qu]`, `[default: ...]`). The app uses plain help (no rich markup) and
this command class, which writes usage and arguments the classic Click way.
"""

from __future__ import annotations

from typing import Any

from typer.core import TyperCommand


def _argument_name(param: Any) -> str:
    """`BOARD` for an argument: its metavar, else its name in capitals."""
    return str(param.metavar or param.name.upper())


def _usage_piece(param: Any) -> str:
    """`NAME`, `[NAME]`, `NAME...` or `[NAME]...`, as Click writes them."""
    piece = _argument_name(param)
    if not param.required:
        piece = f"[{piece}]"
    return piece + ("..." if param.nargs != 1 else "")


class PlainHelpCommand(TyperCommand):
    """A command whose usage line and argument list read like classic Unix help."""

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        pieces += [_usage_piece(p) for p in self.get_params(ctx) if p.param_type_name == "argument"]
        return pieces

    def format_options(self, ctx: Any, formatter: Any) -> None:
        arguments = []
        options = []
        for param in self.get_params(ctx):
            if param.param_type_name == "argument":
                help_text = getattr(param, "help", None) or ""
                if param.required:
                    help_text = f"{help_text}  [required]".strip()
                arguments.append((_usage_piece(param), help_text))
            elif param.param_type_name == "option":
                record = param.get_help_record(ctx)
                if record is not None:
                    options.append(record)
        if arguments:
            with formatter.section("Arguments"):
                formatter.write_dl(arguments)
        if options:
            with formatter.section("Options"):
                formatter.write_dl(options)


def plain_help(info: Any) -> None:
    """Give a registered command (a Typer CommandInfo) plain help, before Typer turns it into a Click command."""
    if info.cls in (None, TyperCommand):  # Typer fills in its default class
        info.cls = PlainHelpCommand
