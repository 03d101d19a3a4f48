"""`make docs`: referee/cli/forms.json, the parameters of `status`, `show`, `order`, `tick`
and `verify` as the Typer application declares them.

The console script answers the plain forms of these five commands without
importing Typer (entry.py). It reads what each command takes from this file,
written from the application's own commands, so that every option is declared
once, in the command's signature. A test fails while the committed file differs.

    python -m referee.cli.forms [FILE]      (default: referee/cli/forms.json)
"""

from __future__ import annotations

import json
import sys
from enum import Enum
from pathlib import Path
from typing import Any

import typer

from .app import app

FORMS_FILE = Path(__file__).with_name("forms.json")
# The commands the console script may answer.
QUICK = ("status", "show", "order", "tick", "verify")


def table() -> dict[str, dict[str, list[dict[str, Any]]]]:
    """Each quick command's arguments and options, in the order the command declares them."""
    root = typer.main.get_command(app)
    return {name: {"arguments": [_argument(p) for p in root.commands[name].params
                                 if p.param_type_name == "argument"],
                   "options": [_option(p) for p in root.commands[name].params
                               if p.param_type_name == "option"]}
            for name in QUICK}


def _argument(param) -> dict[str, Any]:
    return {"name": param.name, **_value_of(param), "nargs": param.nargs,
            "required": bool(param.required), "default": _plain(param.default),
            **_beyond(param)}


def _option(param) -> dict[str, Any]:
    """An option: its names (secondary: a flag's off switch), whether it takes a value, what
    value, whether it may be repeated, its default."""
    flag = bool(getattr(param, "is_flag", False))
    return {"name": param.name, "opts": list(param.opts),
            "secondary_opts": list(param.secondary_opts), "flag": flag,
            **({"type": "flag" if _annotation(param) is bool and not param.count else "other",
                "choices": None, "min": None, "max": None} if flag else _value_of(param)),
            "multiple": bool(param.multiple or param.count), "required": bool(param.required),
            "default": _plain(param.default), **_beyond(param)}


def _value_of(param) -> dict[str, Any]:
    """What a value must be: type (text, integer, path, choice; other: whatever the console
    script leaves to Typer), the choices, the range."""
    info = _info(param)
    annotation = _annotation(param)
    choices = [_plain(c) for c in _choices(param)] or None
    low, high = getattr(param, "min", None), getattr(param, "max", None)
    if param.nargs == -1:
        annotation = (getattr(annotation, "__args__", None) or (None,))[0]
    if choices:
        kind = "choice"
    elif annotation is int and not getattr(info, "clamp", False):
        kind = "integer"
    elif annotation is str:
        kind = "text"
    elif annotation is Path and _plain_path(info):
        kind = "path"
    else:
        kind = "other"
    out = {"type": kind, "choices": choices, "min": low, "max": high}
    if kind == "path":
        out["readable"] = bool(getattr(info, "readable", True))
        out["allow_dash"] = bool(getattr(info, "allow_dash", False))
    return out


def _beyond(param) -> dict[str, bool]:
    """What sets a value besides the command line: a callback, an environment variable, a
    prompt, a default computed when needed. The console script runs none of them."""
    info = _info(param)
    return {"callback": param.callback is not None or callable(param.default)
            or getattr(info, "parser", None) is not None,
            "envvar": bool(getattr(param, "envvar", None)),
            "prompt": bool(getattr(param, "prompt", None))}


def _plain_path(info) -> bool:
    """A path the parser only checks for reading: no existence, kind, writing or resolving."""
    return info is None or (not info.exists and info.file_okay and info.dir_okay
                            and not info.writable and not info.resolve_path
                            and info.path_type is None)


def _info(param) -> Any:
    descriptor = getattr(param, "type_descriptor", None)
    return None if descriptor is None else descriptor.parameter_info


def _annotation(param) -> Any:
    """The Python type of the value (Typer keeps it in a type descriptor)."""
    descriptor = getattr(param, "type_descriptor", None)
    if descriptor is not None:
        return descriptor.annotation
    click_type = getattr(param, "type", None)            # Typer on Click
    return {"integer": int, "text": str, "boolean": bool, "path": Path}.get(
        getattr(click_type, "name", ""), click_type)


def _choices(param) -> tuple:
    descriptor = getattr(param, "type_descriptor", None)
    if descriptor is not None:
        return tuple(descriptor.choices or ())
    return tuple(getattr(getattr(param, "type", None), "choices", None) or ())


def _plain(value: Any) -> Any:
    """A default or a choice as JSON holds it (an enumeration by its value, a path as text)."""
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value if value is None or isinstance(value, (str, int, float, bool)) else repr(value)


def render() -> str:
    """The file's text: the table as JSON, one parameter a line."""
    commands = []
    for name, declared in table().items():
        kinds = [f'  "{kind}": [\n' + ",\n".join(f"   {json.dumps(p, ensure_ascii=False)}"
                                                  for p in params) + "\n  ]"
                 for kind, params in declared.items()]
        commands.append(f' "{name}": {{\n' + ",\n".join(kinds) + "\n }")
    return "{\n" + ",\n".join(commands) + "\n}\n"


def write(path: Path = FORMS_FILE) -> Path:
    path.write_text(render(), encoding="utf-8")
    return path


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    print(f"wrote {write(Path(args[0]) if args else FORMS_FILE)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
