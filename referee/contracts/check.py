"""Validation by the contracts where a process must stay quick: records appended and audited.

Building the pydantic models costs more than the whole of `order`, so the
validators are compiled once, at `make setup`, from the models' own core
schemas (`write_compiled`) into `referee/_compiled/contracts.json`, and
pydantic-core (pydantic's validation engine) runs them. The copy is bound to
the text of the contract modules and to pydantic-core's version; when it does
not fit, the models are built here instead. Either way the verdict is the
models': a test holds the two to the same answers.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pydantic_core

from .words import words

HERE = Path(__file__).resolve().parent
COMPILED = HERE.parent / "_compiled" / "contracts.json"
# The contracts compiled for the quick paths (names as in schemas.SCHEMAS).
QUICK = ("journal-header", "journal-record", "orders")
_validators: dict[str, Any] = {}


def contracts_digest() -> str:
    """The digest of the contract modules' text and of the validation engine's version."""
    h = hashlib.sha256(pydantic_core.__version__.encode())
    for path in sorted(HERE.glob("*.py")):
        h.update(path.name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def problems(name: str, data: bytes, json_errors: bool = True) -> list[tuple[tuple, str]]:
    """Every way the JSON document `data` breaks the contract `name`: (where, what in plain
    words). With json_errors false, bytes that are not JSON at all are left to the caller
    (verify: the chain check says a torn line is torn, and how to mend it)."""
    try:
        validator(name).validate_json(data)
    except pydantic_core.ValidationError as exc:
        return [(tuple(e["loc"]), words(e)) for e in exc.errors(include_url=False)
                if json_errors or e["type"] != "json_invalid"]
    return []


def where(loc: tuple) -> str:
    """A location as a JSON path: $.events[0].BattleDeclared.area."""
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc)


def validator(name: str) -> Any:
    """The validator of one contract: compiled when a fitting copy exists, else built."""
    found = _validators.get(name)
    if found is None:
        found = _validators[name] = _compiled(name) or _built(name)
    return found


def _compiled(name: str) -> Any:
    try:
        copy = json.loads(COMPILED.read_bytes())
        if copy.get("digest") != contracts_digest():
            return None
        return pydantic_core.SchemaValidator(copy["schemas"][name])
    except (OSError, ValueError, KeyError, TypeError, pydantic_core.SchemaError):
        return None


def _built(name: str) -> Any:
    from pydantic import TypeAdapter  # start-up: the models only when no compiled copy fits

    from .schemas import SCHEMAS  # start-up: as above

    return TypeAdapter(SCHEMAS[name])          # it validates as a compiled one does


def write_compiled(path: Path = COMPILED) -> Path:
    """Compile the quick contracts' validators for `make setup`."""
    from .schemas import SCHEMAS  # start-up: only make setup compiles

    schemas = {}
    for name in QUICK:
        schemas[name] = plain(_core_schema(SCHEMAS[name]))
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps({"digest": contracts_digest(), "schemas": schemas}),
                    encoding="utf-8")
    return path


def _core_schema(shape: Any) -> Any:
    """The core schema of a model (whose build is deferred to first use) or of a union."""
    from pydantic import BaseModel, TypeAdapter  # start-up: only make setup compiles

    if isinstance(shape, type) and issubclass(shape, BaseModel):
        shape.model_rebuild(force=True)
        return shape.__pydantic_core_schema__
    return TypeAdapter(shape).core_schema


# Keys of a core schema that hold Python objects or only shape the output, not the verdict.
_DROPPED = ("serialization", "metadata", "cls", "config", "post_init", "root_model",
            "custom_init", "generic_origin", "ref_repr")


# Schemas whose strictness a model's config sets for them; a typed dict does not pass it on.
_STRICT = ("int", "float", "str", "bool", "list", "tuple", "dict", "set", "frozenset",
           "bytes")


def plain(node: Any) -> Any:
    """A core schema as plain JSON data: each model becomes a typed dict of the same fields,
    refusing unknown keys as the model does, and every value is read strictly, as every
    contract's config says."""
    if isinstance(node, list):
        return [plain(x) for x in node]
    if not isinstance(node, dict):
        return node
    if node.get("type") == "model":
        inner = _fields(node["schema"], node.get("config", {}))
        if "ref" in node:
            inner["ref"] = node["ref"]
        return inner
    out = {k: plain(v) for k, v in node.items() if k not in _DROPPED}
    if out.get("type") in _STRICT:
        out["strict"] = True
    return out


def _fields(schema: dict, config: dict) -> dict:
    fields = {}
    for name, field in schema["fields"].items():
        inner = plain(field["schema"])
        required = inner.get("type") != "default"
        if not required:
            inner = inner["schema"]
        out = {"type": "typed-dict-field", "schema": inner, "required": required}
        if field.get("validation_alias") is not None:
            out["validation_alias"] = field["validation_alias"]
        fields[name] = out
    extra = config.get("extra_fields_behavior", "ignore")
    return {"type": "typed-dict", "fields": fields, "extra_behavior": extra,
            "strict": bool(config.get("strict"))}
