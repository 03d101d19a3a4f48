"""The contracts: pydantic models of every shape that crosses the referee's boundary.

Journal headers and records, orders, events, game data files, scenarios,
player rosters and every JSON document a command prints are defined here,
once, as pydantic (v2) models. From them come:

- `schemas/*.json` (`make schemas`), each with `$schema` and a stable `$id`;
- validation where input enters: a record before it is appended and when
  `verify` audits a journal, game data and scenarios when they are loaded or
  compiled;
- the fast msgspec structures the read paths decode with, written by
  `referee.contracts.generate` into the layers that use them, so the quick
  paths never import pydantic and never hold a second definition.

This layer stands just above `base`: it imports pydantic and nothing of the
referee's but `base`, and every layer above may use it.
"""
