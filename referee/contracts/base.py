"""The bases every contract class derives from.

A contract is a msgspec Struct: the read paths decode journals and game data
into these very classes, in C and without building anything first. Pydantic
validates the same classes at the boundaries (validation.py builds its
schema from the class itself), and `schemas/*.json` are derived from them.
"""

from typing import Any, ClassVar, TypeVar

import msgspec
from msgspec.structs import StructMeta


class _Shape(StructMeta):
    """Every field of a contract is keyword-only, whatever class it is declared in, so that
    fields keep the order they are declared in, base classes' first, and so the order their
    JSON is written in."""

    def __new__(mcls, name: str, bases: tuple, namespace: dict, **options: Any):
        options.setdefault("kw_only", True)
        return super().__new__(mcls, name, bases, namespace, **options)


def _validated(cls: type, source: Any, handler: Any) -> Any:
    """How pydantic validates a contract class: by the schema validation.py derives from it.

    Each base below holds it itself rather than from a class of their own: a class between
    a contract and msgspec.Struct would be one more step of every class's lookups as it is
    made and as msgspec reads its fields, about a hundredth of a cold read's instructions
    for its two hundred classes."""
    from .validation import core_schema  # start-up: only validation builds schemas

    return core_schema(cls)


class Contract(msgspec.Struct, metaclass=_Shape, forbid_unknown_fields=True):
    """A shape at the boundary: unknown keys are errors and no value is coerced.

    JSON is read strictly, as msgspec reads it: an array is taken for a tuple and an integer
    for a float, nothing else changes type.
    """

    __get_pydantic_core_schema__ = classmethod(_validated)


class Frozen(Contract, frozen=True):
    """A shape whose values never change once read (a skirmish's card).

    The bases of the game data and of the orders, read by every cold read, are made the same
    way straight on Contract (modelbase.Model, orders.Ord): a class fewer in the lineage of
    each of their ninety classes (see _validated)."""


class Open(msgspec.Struct, metaclass=_Shape):
    """A shape that later versions may add keys to, so readers allow (and skip) them.

    A key a document may leave out is a field whose default is UNSET: it is printed only
    when it is given. Every other field is given every time.
    """

    __get_pydantic_core_schema__ = classmethod(_validated)


class Part(Open):
    """An object inside a document: like the document, a later version may add keys."""


class Document(Open):
    """A JSON document a command prints: later versions may add keys, so readers allow them.

    Every document carries `schema_version`, the version of its shape (VERSION); a change
    that removes or renames a key raises it.
    """

    VERSION: ClassVar[int] = 1

    @classmethod
    def of(cls: "type[D]", **fields: Any) -> "D":
        """The document of these fields at its version, each field's type checked; a key the
        class does not have is an error, not a key left out of what is printed."""
        unknown = fields.keys() - set(cls.__struct_encode_fields__)
        if unknown:
            raise TypeError(f"{cls.__name__} has no key {', '.join(sorted(unknown))}")
        return msgspec.convert({"schema_version": cls.VERSION, **fields}, cls)

    @classmethod
    def plain_anyway(cls, **fields: Any) -> dict[str, Any]:
        """`plain`, or when the fields do not fit the class, the fields as they are, at the
        class's version: an error must be printed whatever its details."""
        try:
            return cls.plain(**fields)
        except (TypeError, msgspec.ValidationError):
            return {"schema_version": cls.VERSION, **fields}

    @classmethod
    def plain(cls, **fields: Any) -> dict[str, Any]:
        """The document of these fields (`of`), as the plain data the renderers read."""
        return msgspec.to_builtins(cls.of(**fields))


# Bound to the class itself, not to its name: a name is compiled to be read (the first
# compile() of a process costs as much as a module), which nothing else in a read needs.
D = TypeVar("D", bound=Document)
