"""The contracts: one class for every shape that crosses the referee's boundary.

Journal headers and records, orders, events, game data files, scenarios,
player rosters and every JSON document a command prints are defined here,
once, as msgspec Structs with their docstrings and rule comments. From each
class come:

- the fast decoding of the read paths: msgspec decodes JSON into the class;
- pydantic's validation where input enters (validation.py derives its schema
  from the class): a record before it is appended and when `verify` audits a
  journal, an order given as JSON, game data and scenarios when they are
  loaded or compiled;
- `schemas/*.json` (`make schemas`), each with `$schema` and a stable `$id`.

This layer stands just above `base`: it imports msgspec (pydantic-core and
pydantic only to validate and to write schemas) and nothing of the referee's
but `base`, and every layer above may use it.
"""
