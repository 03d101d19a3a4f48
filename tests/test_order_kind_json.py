"""An order-result's `rejected` names the kind of the error that refused the order, as the
error object on stderr does (docs/scripting.md): a script tells a stale view from an illegal
order, or a misspelt one, without reading stderr or the sentence."""

from __future__ import annotations

import json

from test_inbox import new_mail_game

from referee.base import errors
from referee.contracts.codes import ORDER_KINDS


def test_a_rejected_order_names_its_error_s_kind(tmp_path, cli):
    """The kinds an order-result names are the error object's (base/errors.py), each one a
    refusal of an order: a stale view, an illegal order and a misspelt one each its own."""
    refusals = [c for c in vars(errors).values()
                if isinstance(c, type) and issubclass(c, errors.OrderError)]
    assert {c.kind for c in refusals} == set(ORDER_KINDS)
    j = new_mail_game(tmp_path, cli)
    seq = json.loads(cli("status", j, "--as", "german", "--format", "json").stdout)["seq"]
    kinds = {}
    for name, args in {"stale": ["--expect-seq", str(seq - 1), "pass"],
                       "illegal": ["end turn"], "syntax": ["fly to the moon"]}.items():
        r = cli("order", j, "--as", "german", "--format", "json", *args)
        assert r.exit_code == 1, r.output
        rejected = json.loads(r.stdout)["rejected"]
        assert rejected["kind"] == json.loads(r.stderr)["kind"], (rejected, r.stderr)
        kinds[name] = rejected["kind"]
    assert kinds == {"stale": "stale_view", "illegal": "illegal_order",
                     "syntax": "order_syntax"}, kinds
