"""Who holds a battle area is told once, where its control changed (4.1), with the rule that
made it change while an enemy fort still stands: a fort of strength 1 alone holds no area
(8.4). The demo's Liège was told twice: 'German-Friendly (4.1)' when its last Belgian
infantry fell, and 'now held by the German side' when the battle ended two records later,
as if it changed again."""

from __future__ import annotations

import pytest
import test_report_golden as golden

demo = golden.demo          # the demo game, made once a module


@pytest.mark.parametrize("reader", ["german", "entente", "public"])
def test_liege_s_new_holder_is_told_once_with_the_fort_s_rule(demo, cli, reader):
    r = cli("report", demo, "--as", reader, "--since", "0", "--width", "400")
    assert r.exit_code == 0, r.stderr
    told = [ln for ln in r.stdout.splitlines() if ln.startswith("- Liège is now") and
            "Disputed" not in ln]
    assert told == ["- Liège is now German-Friendly (4.1): the enemy fort of strength 1 left "
                    "there holds no area alone (8.4)"], told
    assert "=== end of the battle in Liège ===" in r.stdout
