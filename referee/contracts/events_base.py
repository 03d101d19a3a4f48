"""The base of every event, and the secret part an event may carry (journal.redact).

A secret part (a drawn card, a shuffled deck) sits in `secret` as {to, salt,
data}; other readers see only its digest. With hidden army templates (option
1.4) the details of what enters or leaves an army template outside a battle
are such a part, for the owner's eyes.
"""

from typing import Any

from .base import Contract


class Secret(Contract):
    """A payload only one reader (a side or the moderator) may see."""

    to: str
    salt: str | None = None
    data: dict[str, Any] | None = None
    digest: str | None = None


class Ev(Contract, tag_field="type", tag=True):
    """Base of every event; its JSON `type` is the class name."""

    @property
    def type(self) -> str:
        """The type tag: what the JSON `type` says."""
        return self.__struct_config__.tag
