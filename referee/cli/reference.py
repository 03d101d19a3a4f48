"""`make docs`: docs/commands.md, the command reference, written from the application itself.

Every command and subcommand with its usage line, its help, its arguments,
its options (name, type or choices, default, help) and its example, in plain Markdown:
no terminal width, colour or box enters it, so the same code writes the
same file anywhere. A test fails while the committed file differs from it.

    python -m referee.cli.reference [FILE]      (default: docs/commands.md)
"""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import Any, get_args, get_origin

import typer

from .app import app
from .helptext import EXAMPLE, example_of

DEFAULT_FILE = Path("docs") / "commands.md"
TYPE_NAMES = {str: "text", int: "integer", float: "number", Path: "path", bool: "flag"}


def render() -> str:
    """The whole reference: a contents list, then one section per command."""
    root = typer.main.get_command(app)
    ctx = root.make_context("referee", [], resilient_parsing=True)
    commands = list(_walk(root, ctx))
    lines = ["# referee commands", "",
             "Written by `python -m referee.cli.reference` (`make docs`) from the command "
             "line itself; do not edit it by hand. Every command also takes `--help` (or `-h`).",
             ""]
    lines += [f"- [`{ctx.command_path}`](#{_anchor(ctx.command_path)}): {_summary(cmd)}"
              for cmd, ctx in commands]
    for cmd, ctx in commands:
        lines += [""] + _section(cmd, ctx)
    return "\n".join(lines) + "\n"


def _walk(cmd, ctx):
    """(command, context) of cmd and of every command under it, in the order --help lists."""
    yield cmd, ctx
    for name in getattr(cmd, "list_commands", lambda ctx: [])(ctx):
        sub = cmd.get_command(ctx, name)
        if sub is not None and not sub.hidden:
            yield from _walk(sub, sub.make_context(name, [], parent=ctx,
                                                    resilient_parsing=True))


def _anchor(title: str) -> str:
    return title.lower().replace(" ", "-")


def _paragraphs(text: str | None) -> list[str]:
    """A help text as paragraphs of one line each (the source wraps them for reading)."""
    return [" ".join(p.split()) for p in (text or "").split("\n\n") if p.strip()]


def _summary(cmd) -> str:
    return next(iter(_paragraphs(cmd.help)), "")


def _section(cmd, ctx) -> list[str]:
    """One command: heading, usage, help, arguments and options."""
    usage = " ".join([ctx.command_path, *cmd.collect_usage_pieces(ctx)])
    lines = [f"## {ctx.command_path}", "", "```", usage, "```"]
    for paragraph in _paragraphs(cmd.help):
        lines += ["", paragraph]
    params = [p for p in cmd.params if not getattr(p, "hidden", False)]
    for title, kind in (("Arguments", "argument"), ("Options", "option")):
        listed = [_param_line(p, ctx) for p in params if p.param_type_name == kind]
        if listed:
            lines += ["", f"{title}:", ""] + listed
    example = example_of(cmd.epilog)
    if example:
        lines += ["", EXAMPLE, "", "```", example, "```"]
    return lines


def _param_line(param, ctx) -> str:
    """One argument or option: its names, what it takes, its default, and its help."""
    if param.param_type_name == "argument":
        names = " ".join(f"`{piece}`" for piece in param.get_usage_pieces(ctx))
    else:
        names = " / ".join(", ".join(f"`{o}`" for o in opts)
                           for opts in (param.opts, param.secondary_opts) if opts)
    facts = [_kind(param)]
    default = _default(param)
    if default is not None:
        facts.append(f"default `{default}`")
    if param.required:
        facts.append("required")
    help_text = " ".join(_paragraphs(getattr(param, "help", None)))
    return f"- {names} ({'; '.join(facts)})" + (f": {help_text}" if help_text else "")


def _kind(param) -> str:
    """What the parameter takes: a type, the choices, a range; repeatable or not."""
    annotation = _annotation(param)
    many = get_origin(annotation) is list
    if many:
        annotation = get_args(annotation)[0]
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        kind = "one of " + ", ".join(f"`{m.value}`" for m in annotation)
    else:
        kind = TYPE_NAMES.get(annotation, getattr(annotation, "__name__", str(annotation)))
    low, high = getattr(param, "min", None), getattr(param, "max", None)
    if low is not None or high is not None:
        kind += f", {'' if low is None else low} to {'' if high is None else high}".rstrip()
    if many:
        kind += ", any number" if param.param_type_name == "argument" else ", repeatable"
    return kind


def _annotation(param) -> Any:
    """The Python type the parameter's value has (Typer keeps it in a type descriptor)."""
    descriptor = getattr(param, "type_descriptor", None)
    if descriptor is not None:
        return descriptor.annotation
    return bool if getattr(param, "is_flag", False) else str


def _default(param) -> str | None:
    """The default as it is typed on the command line; None when there is none to show."""
    value = param.default
    if value is None or value == "" or (getattr(param, "is_flag", False) and value is False):
        return None
    if isinstance(value, Enum):
        value = value.value
    if isinstance(value, bool):
        return param.opts[0] if value else None
    return str(value)


def write(path: Path = DEFAULT_FILE) -> Path:
    """Write the reference to path (its folder is made if missing)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render(), encoding="utf-8")
    return path


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    print(f"wrote {write(Path(args[0]) if args else DEFAULT_FILE)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
