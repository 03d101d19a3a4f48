"""Pydantic's validation of the contract classes, derived from the classes themselves.

A contract is a msgspec Struct: msgspec.structs.fields lists its fields (type
with bounds and pattern, default, JSON name) and its config names its tag.
From them this module builds the schema pydantic-core validates with: a typed
dict of the same fields, read strictly, whose result is the contract's own
class. So pydantic validates the very classes the read paths decode into,
`TypeAdapter(JournalRecord)` works, and the JSON Schema is pydantic's.
"""

from __future__ import annotations

import os
import sys
import types
from importlib.machinery import EXTENSION_SUFFIXES, ExtensionFileLoader
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import msgspec
import msgspec.structs

_validators: dict[tuple[Any, bool], Any] = {}
# Patterns are matched as msgspec matches them, by Python's re (search, where `$` also
# matches before a last newline): both readers give one verdict on every text.
_AS_MSGSPEC = {"regex_engine": "python-re"}
# msgspec.Meta's bounds, under the names core schemas give them.
_BOUNDS = ("ge", "gt", "le", "lt", "multiple_of", "pattern", "min_length", "max_length")
# An empty collection as a default: msgspec keeps its type as a factory; the schema says [].
_EMPTY = (list, dict, set)
_ENGINE = "pydantic_core._pydantic_core"


def engine() -> types.ModuleType:
    """pydantic-core's compiled validator: SchemaValidator and ValidationError.

    The package's Python half (core_schema, its typed dictionaries and the
    typing_extensions they import) only describes the schemas, as plain dicts,
    and costs a third of the import floor; an `order` needs none of it. So the
    compiled module is loaded alone, under its own name, where it can be found
    beside the package; the package imported later (by pydantic, or by the
    module itself for an error's details) takes that same module, so the process
    holds one ValidationError class (the package is then left without the attribute
    `_pydantic_core`, which neither the referee nor pydantic reads: they import the
    name). Where the module cannot be had alone, the package is imported as it is.
    """
    found = sys.modules.get(_ENGINE)
    if found is None and "pydantic_core" not in sys.modules:
        try:
            found = _load_compiled()
        except (ImportError, OSError):       # a build that will not load alone
            found = None
    if found is None:
        import pydantic_core  # noqa: F401 - the package as it is, when alone it cannot be had

        found = sys.modules[_ENGINE]
    return found


def _load_compiled() -> types.ModuleType | None:
    """The compiled module, from beside the package where the import system finds it, loaded
    without running the package; None where there is none."""
    from importlib.util import find_spec, module_from_spec, spec_from_file_location

    package = find_spec("pydantic_core")
    places = list(package.submodule_search_locations or ()) if package is not None else []
    for suffix in EXTENSION_SUFFIXES if places else ():
        path = os.path.join(places[0], "_pydantic_core" + suffix)
        if os.path.isfile(path):
            loader = ExtensionFileLoader(_ENGINE, path)
            module = module_from_spec(spec_from_file_location(_ENGINE, path, loader=loader))
            loader.exec_module(module)
            sys.modules[_ENGINE] = module
            return module
    return None


def _schema(kind: str, **fields: Any) -> dict:
    """A core schema of one kind: the fields given, those left at None omitted (as
    pydantic_core.core_schema's builders write them)."""
    return {"type": kind, **{k: v for k, v in fields.items() if v is not None}}


def validator(shape: Any, objects: bool = True) -> Any:
    """The pydantic-core validator of a contract class, or of a union of them (kept). With
    objects false it gives the same verdict but makes no objects: the plain values only."""
    found = _validators.get((shape, objects))
    if found is None:
        found = _validators[shape, objects] = engine().SchemaValidator(
            core_schema(shape, objects))
    return found


def core_schema(shape: Any, objects: bool = True) -> Any:
    """The core schema of a contract class or of any annotation made of them."""
    return _Builder(objects).root(shape)


class _Builder:
    """One schema: every class met becomes a definition, referred to by its reference."""

    def __init__(self, objects: bool) -> None:
        self.defs: dict[str, Any] = {}
        self.objects = objects

    def root(self, shape: Any) -> Any:
        inner = self.node(shape)
        if not self.defs:
            return inner
        return _schema("definitions", schema=inner, definitions=list(self.defs.values()))

    def node(self, tp: Any) -> Any:
        """The core schema of one annotation."""
        origin, args = get_origin(tp), get_args(tp)
        if origin is Annotated:
            return _bounded(self.node(args[0]), args[1:])
        if origin in (Union, types.UnionType):
            return self.union(args)
        if origin is Literal:
            return _literal(args)
        if origin in _COLLECTIONS:
            return _COLLECTIONS[origin](self, args)
        if isinstance(tp, type) and issubclass(tp, msgspec.Struct):
            return self.struct(tp)
        if tp in _SCALARS:
            return _SCALARS[tp]()
        raise TypeError(f"no validation for {tp!r}")

    def union(self, args: tuple) -> Any:
        """A union: None makes it nullable; contract classes are told apart by their tag."""
        args = tuple(a for a in args if a is not msgspec.UnsetType)   # UNSET: a key left out
        if len(args) == 1:
            return self.node(args[0])
        rest = [a for a in args if a not in (None, type(None))]
        if len(rest) < len(args):
            inner = self.union(tuple(rest)) if len(rest) > 1 else self.node(rest[0])
            return _schema("nullable", schema=inner)
        tagged = [a for a in rest if isinstance(a, type) and issubclass(a, msgspec.Struct)]
        field = tagged[0].__struct_config__.tag_field if tagged else None
        if field and len(tagged) == len(rest):
            choices = {a.__struct_config__.tag: self.node(a) for a in tagged}
            return _schema("tagged-union", choices=choices, discriminator=field)
        return _schema("union", choices=[self.node(a) for a in rest])

    def struct(self, cls: type) -> Any:
        """A contract class: a reference to its definition, built once."""
        ref = f"{cls.__module__}.{cls.__qualname__}:{id(cls)}"
        if ref not in self.defs:
            self.defs[ref] = None                  # a class that holds itself refers back
            self.defs[ref] = self.definition(cls, ref)
        return _schema("definition-ref", schema_ref=ref)

    def definition(self, cls: type, ref: str) -> Any:
        config = cls.__struct_config__
        fields = {}
        if config.tag_field is not None:
            fields[config.tag_field] = _schema("typed-dict-field",
                                               schema=_schema("literal", expected=[config.tag]))
        found = msgspec.structs.fields(cls)
        for f in found:
            fields[f.name] = self.field(f)
        extra = "forbid" if config.forbid_unknown_fields else "allow"
        shape = _schema("typed-dict", fields=fields, cls=cls, strict=True, extra_behavior=extra,
                        ref=None if self.objects else ref, config=_AS_MSGSPEC)
        if not self.objects:
            return shape
        return _schema("function-after",
                       function={"type": "no-info", "function": _maker(cls, found)},
                       schema=shape, ref=ref)

    def field(self, f: msgspec.structs.FieldInfo) -> Any:
        schema = self.node(f.type)
        if f.default_factory in _EMPTY or _is_value(f.default_factory):
            schema = _with_default(schema, f.default_factory())
        elif f.default_factory is not msgspec.NODEFAULT:
            schema = _schema("default", schema=schema, default_factory=f.default_factory)
        elif f.default is not msgspec.NODEFAULT and f.default is not msgspec.UNSET:
            schema = _with_default(schema, f.default)
        alias = f.encode_name if f.encode_name != f.name else None
        return _schema("typed-dict-field", schema=schema, required=f.required,
                       validation_alias=alias, serialization_alias=alias)


def _with_default(schema: Any, value: Any) -> dict:
    """A field's schema with its default value, which may itself be None."""
    return {"type": "default", "schema": schema, "default": value}


def _literal(values: tuple) -> Any:
    """A Literal: of whole numbers only, an integer first (msgspec takes neither false nor 0.0
    for a Literal[0]); else the values themselves."""
    if all(type(v) is int for v in values):
        shown = {"const": values[0]} if len(values) == 1 else {"enum": list(values)}
        return _schema("chain", steps=[_schema("int", strict=True),
                                         _schema("literal", expected=list(values))],
                       metadata={"pydantic_js_updates": shown})   # as the Literal
    return _schema("literal", expected=list(values))


def _is_value(factory: Any) -> bool:
    """Whether a default factory stands for a plain value (a function such as `lambda:
    list(PORTS)`, not a class): the schema gives the value, and pydantic copies it for each
    document as msgspec calls the factory."""
    return isinstance(factory, types.FunctionType)


def _maker(cls: type, found: tuple) -> Any:
    """The function that makes the class of its validated fields, known keys only."""
    names = tuple(f.name for f in found)

    def make(values: dict) -> Any:
        return cls(**{k: values[k] for k in names if k in values})

    return make


def _bounded(schema: Any, metadata: tuple) -> Any:
    """A schema with the bounds and pattern of msgspec.Meta annotations set on it."""
    for meta in metadata:
        for key in _BOUNDS:
            value = getattr(meta, key, None)
            if value is not None:
                schema[key] = value
    return schema


def _items(builder: _Builder, args: tuple) -> Any:
    return _schema("list", items_schema=builder.node(args[0]), strict=True)


def _tuple(builder: _Builder, args: tuple) -> Any:
    if len(args) == 2 and args[1] is Ellipsis:
        return _schema("tuple", items_schema=[builder.node(args[0])], variadic_item_index=0,
                       strict=True)
    return _schema("tuple", items_schema=[builder.node(a) for a in args], strict=True)


def _mapping(builder: _Builder, args: tuple) -> Any:
    return _schema("dict", keys_schema=builder.node(args[0]),
                   values_schema=builder.node(args[1]), strict=True)


def _set(builder: _Builder, args: tuple) -> Any:
    return _schema("set", items_schema=builder.node(args[0]), strict=True)


_COLLECTIONS = {list: _items, tuple: _tuple, dict: _mapping, set: _set}
_SCALARS = {
    str: lambda: _schema("str", strict=True), int: lambda: _schema("int", strict=True),
    float: lambda: _schema("float", strict=True), bool: lambda: _schema("bool", strict=True),
    type(None): lambda: _schema("none"), None: lambda: _schema("none"),
    Any: lambda: _schema("any"),
}
