"""Pydantic's validation of the contract classes, derived from the classes themselves.

A contract is a msgspec Struct: msgspec.structs.fields lists its fields (type
with bounds and pattern, default, JSON name) and its config names its tag.
From them this module builds the schema pydantic-core validates with: a typed
dict of the same fields, read strictly, whose result is the contract's own
class. So pydantic validates the very classes the read paths decode into,
`TypeAdapter(JournalRecord)` works, and the JSON Schema is pydantic's.
"""

from __future__ import annotations

import types
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import msgspec
import msgspec.structs
from pydantic_core import SchemaValidator
from pydantic_core import core_schema as cs

_validators: dict[tuple[Any, bool], SchemaValidator] = {}
# Patterns are matched as msgspec matches them, by Python's re (search, where `$` also
# matches before a last newline): both readers give one verdict on every text.
_AS_MSGSPEC = cs.CoreConfig(regex_engine="python-re")
# msgspec.Meta's bounds, under the names core schemas give them.
_BOUNDS = ("ge", "gt", "le", "lt", "multiple_of", "pattern", "min_length", "max_length")
# An empty collection as a default: msgspec keeps its type as a factory; the schema says [].
_EMPTY = (list, dict, set)


def validator(shape: Any, objects: bool = True) -> SchemaValidator:
    """The pydantic-core validator of a contract class, or of a union of them (kept). With
    objects false it gives the same verdict but makes no objects: the plain values only."""
    found = _validators.get((shape, objects))
    if found is None:
        found = _validators[shape, objects] = SchemaValidator(core_schema(shape, objects))
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
        return cs.definitions_schema(inner, list(self.defs.values()))

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
            return cs.nullable_schema(inner)
        tagged = [a for a in rest if isinstance(a, type) and issubclass(a, msgspec.Struct)]
        field = tagged[0].__struct_config__.tag_field if tagged else None
        if field and len(tagged) == len(rest):
            choices = {a.__struct_config__.tag: self.node(a) for a in tagged}
            return cs.tagged_union_schema(choices, discriminator=field)
        return cs.union_schema([self.node(a) for a in rest])

    def struct(self, cls: type) -> Any:
        """A contract class: a reference to its definition, built once."""
        ref = f"{cls.__module__}.{cls.__qualname__}:{id(cls)}"
        if ref not in self.defs:
            self.defs[ref] = None                  # a class that holds itself refers back
            self.defs[ref] = self.definition(cls, ref)
        return cs.definition_reference_schema(ref)

    def definition(self, cls: type, ref: str) -> Any:
        config = cls.__struct_config__
        fields = {}
        if config.tag_field is not None:
            fields[config.tag_field] = cs.typed_dict_field(cs.literal_schema([config.tag]))
        found = msgspec.structs.fields(cls)
        for f in found:
            fields[f.name] = self.field(f)
        extra = "forbid" if config.forbid_unknown_fields else "allow"
        shape = cs.typed_dict_schema(fields, cls=cls, extra_behavior=extra, strict=True,
                                     ref=None if self.objects else ref, config=_AS_MSGSPEC)
        if not self.objects:
            return shape
        return cs.no_info_after_validator_function(_maker(cls, found), shape, ref=ref)

    def field(self, f: msgspec.structs.FieldInfo) -> Any:
        schema = self.node(f.type)
        if f.default_factory in _EMPTY or _is_value(f.default_factory):
            schema = cs.with_default_schema(schema, default=f.default_factory())
        elif f.default_factory is not msgspec.NODEFAULT:
            schema = cs.with_default_schema(schema, default_factory=f.default_factory)
        elif f.default is not msgspec.NODEFAULT and f.default is not msgspec.UNSET:
            schema = cs.with_default_schema(schema, default=f.default)
        alias = f.encode_name if f.encode_name != f.name else None
        return cs.typed_dict_field(schema, required=f.required, validation_alias=alias,
                                   serialization_alias=alias)


def _literal(values: tuple) -> Any:
    """A Literal: of whole numbers only, an integer first (msgspec takes neither false nor 0.0
    for a Literal[0]); else the values themselves."""
    if all(type(v) is int for v in values):
        shown = {"const": values[0]} if len(values) == 1 else {"enum": list(values)}
        return cs.chain_schema([cs.int_schema(strict=True), cs.literal_schema(list(values))],
                               metadata={"pydantic_js_updates": shown})   # as the Literal
    return cs.literal_schema(list(values))


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
    return cs.list_schema(builder.node(args[0]), strict=True)


def _tuple(builder: _Builder, args: tuple) -> Any:
    if len(args) == 2 and args[1] is Ellipsis:
        return cs.tuple_schema([builder.node(args[0])], variadic_item_index=0, strict=True)
    return cs.tuple_schema([builder.node(a) for a in args], strict=True)


def _mapping(builder: _Builder, args: tuple) -> Any:
    return cs.dict_schema(builder.node(args[0]), builder.node(args[1]), strict=True)


def _set(builder: _Builder, args: tuple) -> Any:
    return cs.set_schema(builder.node(args[0]), strict=True)


_COLLECTIONS = {list: _items, tuple: _tuple, dict: _mapping, set: _set}
_SCALARS = {
    str: lambda: cs.str_schema(strict=True), int: lambda: cs.int_schema(strict=True),
    float: lambda: cs.float_schema(strict=True), bool: lambda: cs.bool_schema(strict=True),
    type(None): cs.none_schema, None: cs.none_schema, Any: cs.any_schema,
}
