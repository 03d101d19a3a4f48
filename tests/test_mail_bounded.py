"""No line of a report mail runs past 72 columns, a record's order longer than a line
included (render/reports.ORDER_MOST): a past order is read, not copied, and is wrapped as
the event lines under it are."""

from __future__ import annotations

import gamecalls as g
from casebook import new_game as case_game
from casebook import position


def test_a_record_whose_order_is_longer_than_a_mail_line_is_wrapped(tmp_path, cli):
    """Passing, the German discards his hand of six cards (2.0 II.1, the 1914 card limit:
    7.1): an order of 111 characters. Its record's heading must not run past 72 columns in
    any reader's report."""
    hand = ["aab-01", "loff-01", "loff-02", "toutlemonde-01", "gas-01", "reserves-01"]
    j = case_game(tmp_path, position("1914", player="german",
                                     hands={"german": hand, "entente": ["off-11"]}))
    order = ("discard advanced_artillery_barrage limited_offensive limited_offensive "
             "tout_le_monde poison_gas strategic_reserves")
    assert len(order) > 72
    assert g.submit(j, "german", ["pass", order]).rejected is None
    for reader in ("german", "entente", "public"):
        said = cli("report", j, "--as", reader, "--since", "0").stdout
        assert max(map(len, said.splitlines())) <= 72, \
            [ln for ln in said.splitlines() if len(ln) > 72]
        assert "German: discard advanced_artillery_barrage" in said, said
