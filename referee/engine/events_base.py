"""The base of every event, and the secret part an event may carry (journal.redact).

The fast msgspec twin of referee/contracts/events_base.py."""

# Generated from referee/contracts/events_base.py (make schemas): edit that, not this.
# ruff: noqa: E501

from typing import Any

import msgspec

__all__ = ['Secret', 'Ev']


class Secret(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A payload only one reader (a side or the moderator) may see."""

    to: str
    salt: str | None = None
    data: dict[str, Any] | None = None
    digest: str | None = None


class Ev(msgspec.Struct, tag_field='type', forbid_unknown_fields=True, kw_only=True):
    """Base of every event; its JSON `type` is the class name."""

    @property
    def type(self) -> str:
        """The type tag: what the JSON `type` says."""
        return self.__struct_config__.tag
