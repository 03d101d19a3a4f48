"""The base of the game data models and the bounded names and numbers they share.

The fast msgspec twin of referee/contracts/modelbase.py."""

# Generated from referee/contracts/modelbase.py (make schemas): edit that, not this.
# ruff: noqa: E501

import msgspec

__all__ = ['Model']


class Model(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Base of every data model: frozen, unknown keys rejected."""
