"""The bases every contract model derives from, and the bounded types they share."""

from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict


class Contract(BaseModel):
    """A shape at the boundary: unknown keys are errors and no value is coerced.

    Validation runs in JSON mode (`validate_json`), where strict still takes an
    array for a tuple and an integer for a float, as msgspec does.
    """

    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=False,
                              defer_build=True)

    # Read by the generator only: the msgspec struct written for this model.
    __fast__: ClassVar[dict[str, Any]] = {}


class Frozen(Contract):
    """A shape whose values never change once read (game data, orders)."""

    model_config = ConfigDict(frozen=True)


class Document(BaseModel):
    """A JSON document a command prints: later versions may add keys, so readers allow them.

    Every document carries `schema_version`; a change that removes or renames a key
    raises it.
    """

    model_config = ConfigDict(extra="allow", strict=True, defer_build=True)
