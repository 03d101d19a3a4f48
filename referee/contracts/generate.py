"""Write the fast msgspec twin of each contract module: `python -m referee.contracts.generate`.

The read paths decode journals and game data with msgspec, which imports in
milliseconds; pydantic does not. So the structures they use are generated
from the contracts, never written by hand: each contract module below has a
twin module in the layer that uses it, holding one msgspec struct per model
with the same fields, types, bounds, defaults, aliases and tags. A test
fails when a twin is stale (`make schemas` rewrites them).

A contract may say more about its twin in `__fast__`: `tag_field` (a base of
a tagged union: each subclass's Literal field of that name becomes its tag),
`dict` (the struct keeps a `__dict__`, for cached properties) and `mixin`
("module:Class", a hand-written class whose methods the twin inherits). A
contract module may list constants to copy in `__fast_constants__`.
"""

from __future__ import annotations

import importlib
import sys
import types
import typing
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from .base import Contract, Document, Frozen

# contract module -> the module its twin is written to (relative to referee/)
TWINS: dict[str, str] = {}
PACKAGE = Path(__file__).resolve().parent.parent
CONSTRAINTS = ("ge", "gt", "le", "lt", "min_length", "max_length", "pattern")
HEADER = ("# Generated from referee/contracts/{name}.py (make schemas): edit that, not this.\n"
          "# ruff: noqa: E501\n")


def register(contract: str, twin: str) -> None:
    """Name the module the twin of a contract module is written to."""
    TWINS[contract] = twin


class _Module:
    """What one twin module needs: its classes in order, its imports, its text."""

    def __init__(self, contract: str, twin: str):
        self.contract = importlib.import_module(f"referee.contracts.{contract}")
        self.name = contract
        self.twin = twin
        self.imports: dict[str, set[str]] = {}
        self.typing: set[str] = set()
        self.local = {c.__name__ for c in self.models()}

    def models(self) -> list[type[BaseModel]]:
        """The models defined in the contract module, in source order."""
        found = [v for v in vars(self.contract).values()
                 if isinstance(v, type) and issubclass(v, BaseModel)
                 and v.__module__ == self.contract.__name__]
        return sorted(found, key=_line)

    def unions(self) -> dict[str, Any]:
        """Module-level unions of models (tagged unions), by name."""
        return {k: v for k, v in vars(self.contract).items()
                if not k.startswith("_") and _is_model_union(v)
                and _named_union(_members(v)) == (self.name, k)}

    def need_name(self, contract: str, name: str) -> str:
        """A name defined in another twin module, imported."""
        if contract != self.name:
            self.imports.setdefault(_relative(self.twin, TWINS[contract]), set()).add(name)
        return name

    def need(self, cls: type) -> str:
        """The name of a class in the twin, importing its twin module when elsewhere."""
        name = cls.__name__
        if name in self.local:
            return name
        home = cls.__module__.rsplit(".", 1)[-1]
        self.imports.setdefault(_relative(self.twin, TWINS[home]), set()).add(name)
        return name


def _named_union(args: tuple) -> tuple[str, str] | None:
    """(contract module, name) of a module-level union with exactly these members, if any."""
    for contract in TWINS:
        module = importlib.import_module(f"referee.contracts.{contract}")
        for name, value in vars(module).items():
            if not name.startswith("_") and _is_model_union(value) and _members(value) == args:
                return contract, name
    return None


def _line(cls: type) -> int:
    import inspect  # start-up: only the generator reads source lines

    return inspect.getsourcelines(cls)[1]


def _is_model_union(value: Any) -> bool:
    if get_origin(value) is typing.Annotated:
        value = get_args(value)[0]
    return get_origin(value) in (Union, types.UnionType) and all(
        isinstance(a, type) and issubclass(a, BaseModel) for a in get_args(value))


def _relative(here: str, there: str) -> str:
    """The relative import of module `there` from module `here` (both under referee/)."""
    a, b = here.split("."), there.split(".")
    if a[:-1] == b[:-1]:
        return "." + b[-1]
    return ".." + ".".join(b)


def _bounds(metadata: list[Any]) -> dict[str, Any]:
    """The msgspec.Meta arguments of a field's constraints (FieldInfo or annotated-types)."""
    out: dict[str, Any] = {}
    for m in metadata:
        if isinstance(m, FieldInfo):
            out.update(_bounds(m.metadata))
            continue
        for key in CONSTRAINTS:
            value = getattr(m, key, None)
            if value is not None:
                out[key] = value
    return out


def _meta(bounds: dict[str, Any]) -> str:
    return "msgspec.Meta(" + ", ".join(f"{k}={v!r}" for k, v in bounds.items()) + ")"


def render(mod: _Module, tp: Any) -> str:
    """The msgspec annotation of a pydantic one."""
    origin, args = get_origin(tp), get_args(tp)
    if origin is typing.Annotated:
        bounds = _bounds(list(args[1:]))
        inner = render(mod, args[0])
        if not bounds:
            return inner
        mod.typing.add("Annotated")
        return f"Annotated[{inner}, {_meta(bounds)}]"
    if origin in (Union, types.UnionType):
        named = _named_union(args)
        if named is not None:
            return mod.need_name(*named)
        return " | ".join(render(mod, a) for a in args)
    if origin is Literal:
        mod.typing.add("Literal")
        return f"Literal[{', '.join(repr(a) for a in args)}]"
    if origin in (list, tuple, dict, set, frozenset):
        inner = ", ".join("..." if a is Ellipsis else render(mod, a) for a in args)
        return f"{origin.__name__}[{inner}]"
    if tp is type(None):
        return "None"
    if tp is Any:
        mod.typing.add("Any")
        return "Any"
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return mod.need(tp)
    if tp in (str, int, float, bool):
        return tp.__name__
    raise TypeError(f"{mod.name}: no msgspec form for {tp!r}")


def _default(mod: _Module, info: FieldInfo) -> str | None:
    """The right-hand side of a field with a default or an alias, or None."""
    args = []
    if info.default_factory is not None:
        factory = info.default_factory
        if isinstance(factory, type) and issubclass(factory, BaseModel):
            args.append(f"default_factory={mod.need(factory)}")
        else:
            args.append(f"default_factory=lambda: {factory()!r}")
    elif info.default is not PydanticUndefined:
        value = info.default
        if isinstance(value, (list, dict, set)) and value:
            args.append(f"default_factory=lambda: {value!r}")
        elif info.alias is None:
            return repr(value)
        else:
            args.append(f"default={value!r}")
    if info.alias is not None:
        args.append(f"name={info.alias!r}")
    return f"msgspec.field({', '.join(args)})" if args else None


def _tag_field(cls: type[BaseModel]) -> str | None:
    for base in cls.__mro__:
        field = vars(base).get("__fast__", {}).get("tag_field")
        if field:
            return field
    return None


def _options(cls: type[BaseModel], tag: str | None) -> list[str]:
    own = vars(cls).get("__fast__", {})
    opts = []
    if own.get("tag_field"):
        opts.append(f"tag_field={own['tag_field']!r}")
    if tag is not None:
        opts.append(f"tag={tag!r}")
    if issubclass(cls, Frozen):
        opts.append("frozen=True")
    if not issubclass(cls, Document):
        opts.append("forbid_unknown_fields=True")
    if own.get("dict"):
        opts.append("dict=True")
    opts.append("kw_only=True")
    return opts


def _bases(mod: _Module, cls: type[BaseModel]) -> list[str]:
    own = vars(cls).get("__fast__", {})
    bases = []
    if own.get("mixin"):
        where, name = own["mixin"].split(":")
        mod.imports.setdefault(where, set()).add(name)
        bases.append(name)
    parent = cls.__bases__[0]
    if parent in (Contract, Frozen, Document, BaseModel):
        bases.append("msgspec.Struct")
    else:
        bases.append(mod.need(parent))
    return bases


def render_class(mod: _Module, cls: type[BaseModel]) -> str:
    """The source of one twin struct."""
    field = _tag_field(cls)
    own = set(cls.__annotations__) if "__annotations__" in vars(cls) else set()
    tag = None
    lines = []
    for name, info in cls.model_fields.items():
        if name not in own:
            continue
        if name == field:
            (tag,) = get_args(info.annotation)
            continue
        text = render(mod, info.annotation)
        bounds = _bounds(info.metadata)
        if bounds:
            mod.typing.add("Annotated")
            text = f"Annotated[{text}, {_meta(bounds)}]"
        default = _default(mod, info)
        lines.append(f"    {name}: {text}" + (f" = {default}" if default else ""))
    if vars(cls).get("__fast__", {}).get("tag_field"):
        lines += _tag_property(vars(cls)["__fast__"]["tag_field"])
    head = _wrapped(f"class {cls.__name__}(", _bases(mod, cls) + _options(cls, tag), "):")
    doc = [f'    """{cls.__doc__.strip()}"""', ""] if cls.__doc__ and "\n" not in \
        cls.__doc__.strip() else _long_doc(cls.__doc__)
    if lines and lines[0] == "":
        lines = lines[1:]
    body = doc + lines if lines else doc[:-1] or ["    pass"]
    return "\n".join([head, *body])


def _wrapped(start: str, items: list[str], end: str, width: int = 100) -> str:
    """start + items joined by commas + end, one item per line when too long for one."""
    line = start + ", ".join(items) + end
    if len(line) <= width:
        return line
    return start + "\n" + "".join(f"    {item},\n" for item in items) + end.lstrip(",")


def _import_line(where: str, names: list[str]) -> str:
    line = f"from {where} import {', '.join(names)}"
    return line if len(line) <= 100 else _wrapped(f"from {where} import (", names, ")")


def _long_doc(doc: str | None) -> list[str]:
    if not doc:
        return []
    import inspect  # start-up: only the generator cleans docstrings

    text = inspect.cleandoc(doc).replace("\n", "\n    ").replace("\n    \n", "\n\n")
    return [f'    """{text}\n    """', ""]


def _tag_property(field: str) -> list[str]:
    return ["", "    @property", f"    def {field}(self) -> str:",
            f'        """The {field} tag: what the JSON `{field}` says."""',
            "        return self.__struct_config__.tag"]


def module_text(contract: str) -> str:
    """The source of the twin of one contract module."""
    mod = _Module(contract, TWINS[contract])
    classes = [render_class(mod, cls) for cls in mod.models()]
    unions = [_wrapped(f"{name} = Union[", [mod.need(a) for a in _members(u)], "]")
              for name, u in mod.unions().items()]
    if unions:
        mod.typing.add("Union")
    values = {n: getattr(mod.contract, n) for n in getattr(mod.contract, "__fast_constants__", ())}
    plain = [f"{n} = {v!r}" for n, v in values.items() if not _names_models(v)]
    after = [f"{n} = {_constant(mod, v)}" for n, v in values.items() if _names_models(v)]
    doc = (mod.contract.__doc__ or "").strip().split("\n")[0]
    head = [f'"""{doc}\n\nThe fast msgspec twin of referee/contracts/{contract}.py."""', ""]
    head.append(HEADER.format(name=contract).rstrip("\n"))
    head.append("")
    if mod.typing:
        head.append(f"from typing import {', '.join(sorted(mod.typing))}")
    if mod.typing and "msgspec." in "".join(classes):
        head.append("")
    if "msgspec." in "".join(classes):
        head.append("import msgspec")
    if mod.imports:
        head.append("")
    for where in sorted(mod.imports, key=lambda w: (w.count(".") == 1, w)):
        head.append(_import_line(where, sorted(mod.imports[where], key=str.lower)))
    names = [c.__name__ for c in mod.models()] + list(mod.unions()) + list(
        getattr(mod.contract, "__fast_constants__", ()))
    allnames = _wrapped("__all__ = [", [repr(n) for n in names], "]")
    body = "\n\n\n".join(classes + ["\n".join(unions)] * bool(unions))
    parts = ["\n".join(head), allnames] + (["\n".join(plain)] if plain else [])
    return "\n\n".join(parts) + "\n\n\n" + "\n\n\n".join([body] + after) + "\n"


def _names_models(value: Any) -> bool:
    return isinstance(value, dict) and any(isinstance(v, type) for v in value.values())


def _constant(mod: _Module, value: Any) -> str:
    """The source of a mapping to models: their twins' names (written after the structs)."""
    return _wrapped("{", [f"{k!r}: {mod.need(v)}" for k, v in value.items()], "}")


def _members(union: Any) -> tuple[type, ...]:
    if get_origin(union) is typing.Annotated:
        union = get_args(union)[0]
    return get_args(union)


def twin_path(contract: str) -> Path:
    """Where the twin of a contract module is written."""
    return PACKAGE / (TWINS[contract].replace(".", "/") + ".py")


def stale() -> list[str]:
    """The contract modules whose twin differs from what would be written now."""
    return [c for c in TWINS if not twin_path(c).exists()
            or twin_path(c).read_text(encoding="utf-8") != module_text(c)]


def write_all() -> list[str]:
    """Rewrite every twin module; returns the contract modules written."""
    for contract in TWINS:
        twin_path(contract).write_text(module_text(contract), encoding="utf-8")
    return list(TWINS)


for _contract, _twin in (
    ("events_base", "engine.events_base"), ("events_turn", "engine.events_turn"),
    ("events_map", "engine.events_map"), ("events_combat", "engine.events_combat"),
    ("events_production", "engine.events_production"), ("events", "engine.event_union"),
    ("orders", "engine.order_shapes"),
    ("modelbase", "data.modelbase"), ("gamemodels", "data.gamemodels"),
    ("mapmodels", "data.mapmodels"), ("unitmodels", "data.unitmodels"),
    ("deckmodels", "data.deckmodels"), ("chartmodels", "data.chartmodels"),
    ("eventmodels", "data.eventmodels"), ("scenariomodels", "data.scenariomodels"),
    ("records", "game.record_shapes"),
):
    register(_contract, _twin)


if __name__ == "__main__":
    sys.stdout.write("".join(f"wrote the twin of referee/contracts/{c}.py\n"
                             for c in write_all()))
