"""An annihilation's count told where a record is read: the fort of
tests/rulebook/5.3.4-a-fort-annihilated-pays-its-steps.yaml, Verdun at 2 removed against 4
hits, pays 2 of them with its steps and leaves 2 unpaid (5.3.1, 5.3.4, 8.4). `log` (whose
lines reports, mails and forum posts share) and `explain` say so, and `explain` counts the
bill paid, not 2 hits still owed."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from casebook import play_case

CASE = Path(__file__).parent / "rulebook" / "5.3.4-a-fort-annihilated-pays-its-steps.yaml"


@pytest.fixture
def annihilated(tmp_path: Path) -> Path:
    """The journal of the case, played to the annihilation (record 6; the bill in 5)."""
    play_case(yaml.safe_load(CASE.read_text(encoding="utf-8")), tmp_path)
    return tmp_path / "case.jsonl"


def test_log_tells_the_hits_the_fort_paid_and_those_left_unpaid(annihilated, cli):
    r = cli("log", annihilated)
    assert r.exit_code == 0, r.stderr
    text = " ".join(r.stdout.split())
    assert ("Entente annihilation pays 2 of 4 hits, one for each step of strength removed; "
            "2 hits go unpaid (5.3.4)") in text, text
    assert "4 hits on the Entente side go unpaid" not in text


def test_explain_counts_the_hits_the_annihilation_paid(annihilated, cli):
    r = cli("explain", annihilated, "5")
    assert r.exit_code == 0, r.stderr
    text = " ".join(r.stdout.split())
    assert "Entente must pay 4 hits: record 6: Entente annihilation pays 2 of 4 hits" in text, text
    assert "not paid (yet)" not in text
