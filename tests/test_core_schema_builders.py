"""The core schemas validation.py writes as plain dicts are those pydantic-core's own
builders (pydantic_core.core_schema) write: the order's process loads only the compiled
validator, and pydantic's JSON Schema generator reads the same dicts."""

from __future__ import annotations

import re

import pytest
from pydantic_core import core_schema as cs

from referee.contracts import validation as v
from referee.contracts.schemas import SCHEMAS


def _made():
    return object


# (what validation.py writes, what core_schema's builder writes for the same)
PAIRS = [
    (v._schema("str", strict=True), cs.str_schema(strict=True)),
    (v._schema("int", strict=True), cs.int_schema(strict=True)),
    (v._schema("float", strict=True), cs.float_schema(strict=True)),
    (v._schema("bool", strict=True), cs.bool_schema(strict=True)),
    (v._schema("none"), cs.none_schema()),
    (v._schema("any"), cs.any_schema()),
    (v._schema("nullable", schema=cs.str_schema()), cs.nullable_schema(cs.str_schema())),
    (v._schema("union", choices=[cs.str_schema(), cs.int_schema()]),
     cs.union_schema([cs.str_schema(), cs.int_schema()])),
    (v._schema("tagged-union", choices={"a": cs.str_schema()}, discriminator="type"),
     cs.tagged_union_schema({"a": cs.str_schema()}, discriminator="type")),
    (v._schema("definition-ref", schema_ref="r"), cs.definition_reference_schema("r")),
    (v._schema("literal", expected=["a", None]), cs.literal_schema(["a", None])),
    (v._schema("typed-dict-field", schema=cs.str_schema(), required=False,
               validation_alias=None, serialization_alias=None),
     cs.typed_dict_field(cs.str_schema(), required=False)),
    (v._schema("typed-dict-field", schema=cs.str_schema(), required=True,
               validation_alias="from", serialization_alias="from"),
     cs.typed_dict_field(cs.str_schema(), required=True, validation_alias="from",
                         serialization_alias="from")),
    (v._schema("typed-dict", fields={}, cls=dict, strict=True, extra_behavior="forbid",
               ref="r", config=v._AS_MSGSPEC),
     cs.typed_dict_schema({}, cls=dict, strict=True, extra_behavior="forbid", ref="r",
                          config=cs.CoreConfig(regex_engine="python-re"))),
    (v._schema("function-after", function={"type": "no-info", "function": _made},
               schema=cs.str_schema(), ref="r"),
     cs.no_info_after_validator_function(_made, cs.str_schema(), ref="r")),
    (v._with_default(cs.str_schema(), None), cs.with_default_schema(cs.str_schema(),
                                                                    default=None)),
    (v._with_default(cs.str_schema(), []), cs.with_default_schema(cs.str_schema(), default=[])),
    (v._schema("default", schema=cs.str_schema(), default_factory=_made),
     cs.with_default_schema(cs.str_schema(), default_factory=_made)),
    (v._schema("chain", steps=[cs.int_schema()], metadata={"m": 1}),
     cs.chain_schema([cs.int_schema()], metadata={"m": 1})),
    (v._schema("list", items_schema=cs.int_schema(), strict=True),
     cs.list_schema(cs.int_schema(), strict=True)),
    (v._schema("tuple", items_schema=[cs.int_schema()], variadic_item_index=0, strict=True),
     cs.tuple_schema([cs.int_schema()], variadic_item_index=0, strict=True)),
    (v._schema("dict", keys_schema=cs.str_schema(), values_schema=cs.int_schema(),
               strict=True), cs.dict_schema(cs.str_schema(), cs.int_schema(), strict=True)),
    (v._schema("definitions", schema=cs.definition_reference_schema("r"),
               definitions=[cs.int_schema(ref="r")]),
     cs.definitions_schema(cs.definition_reference_schema("r"), [cs.int_schema(ref="r")])),
    (v._schema("set", items_schema=cs.int_schema(), strict=True),
     cs.set_schema(cs.int_schema(), strict=True)),
]


@pytest.mark.parametrize(("ours", "theirs"), PAIRS, ids=[p[1]["type"] for p in PAIRS])
def test_a_core_schema_written_as_a_dict_is_the_builders_own(ours, theirs):
    assert ours == theirs
    assert list(ours) == list(theirs)           # the same keys in the same order



def _kinds() -> dict[str, set[str]]:
    """Every kind of core schema core_schema describes, with the keys its typed dict has."""
    kinds: dict[str, set[str]] = {}
    for shape in vars(cs).values():
        notes = getattr(shape, "__annotations__", None)
        if isinstance(shape, type) and notes and "type" in notes and \
                hasattr(shape, "__required_keys__"):
            kind = re.search(r"Literal\[['\"]([a-z-]+)['\"]\]", str(notes["type"]))
            if kind:
                kinds.setdefault(kind.group(1), set()).update(
                    shape.__required_keys__ | shape.__optional_keys__)
    return kinds


def _unknown_keys(node, kinds: dict[str, set[str]], where: str = "$") -> list[str]:
    """Where a schema dict has a key its kind does not (pydantic-core takes it silently)."""
    found = []
    if isinstance(node, dict):
        kind = node.get("type")
        if isinstance(kind, str) and kind in kinds:
            found += [f"{where}.{k} ({kind})" for k in node if k not in kinds[kind]]
        for k, v in node.items():
            found += _unknown_keys(v, kinds, f"{where}.{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            found += _unknown_keys(v, kinds, f"{where}[{i}]")
    return found


@pytest.mark.parametrize("objects", [True, False])
def test_every_contracts_schema_uses_only_keys_its_kind_has(objects):
    """pydantic-core builds a schema with a misspelt key and ignores it (a `strictt` or an
    `extra_behaviour` would drop strictness or the refusal of unknown keys without a word):
    every key of every schema the contracts give is one core_schema names for its kind."""
    kinds = _kinds()
    assert {"typed-dict", "typed-dict-field", "str", "default", "tagged-union"} <= set(kinds)
    for name, shape in SCHEMAS.items():
        schema = v.core_schema(shape, objects)
        assert not _unknown_keys(schema, kinds), name
    assert _unknown_keys({"type": "str", "strictt": True}, kinds) == ["$.strictt (str)"]
