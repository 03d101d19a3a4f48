"""Random play says nothing itself about what is legal (randomplay.py): the moderator's
ruling on an open dispute, a correction or the test upheld, is one the dry run takes, as
`order --dry-run` would; when it takes neither, none is drawn (the run stops there with
its failure), never one sent on trust."""

from __future__ import annotations

import random

import pytest

from referee.base.readers import MODERATOR
from referee.table import Table
from referee.table.skirmish import randomplay

OPENED = [("british", "move B2 mode=stealthy command=yes"), ("british", "done"),
          ("german", "done"), ("british", "done"), ("german", "done"),
          ("british", "fire B1 at=G2 range=70 state=halted cover=none command=yes"),
          ("german", "dispute record=6 fact=range value=85")]


@pytest.fixture
def disputed(cli, patrol):
    """The patrol with record 6's range disputed (85 claimed), the moderator to rule."""
    for side, text in OPENED:
        r = cli("order", patrol, "--as", side, text)
        assert r.exit_code == 0, (text, r.output)
    return Table.writing(patrol)


def _rulings(table, monkeypatch, refused: str) -> list:
    """The moderator's rulings drawn by 40 seeds, the dry run refusing those holding
    `refused` (and counting what it was asked)."""
    asked = []
    real = randomplay.dry_run

    def dry_run(records, side, texts, given):
        asked.append(texts[0])
        if refused in texts[0]:
            return real(records, side, ["settle record=1 uphold=yes"], given)
        return real(records, side, texts, given)
    monkeypatch.setattr(randomplay, "dry_run", dry_run)
    drawn = [randomplay.next_order(table, random.Random(n), randomplay.Played())
             for n in range(40)]
    assert {side for side, _ in drawn} == {MODERATOR}
    return [text for _, text in drawn], asked


def test_a_ruling_the_dry_run_refuses_is_never_drawn(disputed, monkeypatch):
    """The dry run refusing the test upheld (a ruling on record 1, which holds no test,
    stands for any refusal): every ruling drawn is the correction, which it takes."""
    rulings, asked = _rulings(disputed, monkeypatch, "uphold=yes")
    assert set(rulings) == {"settle record=6 fact=range value=85"}
    assert "settle record=6 uphold=yes" in asked


def test_no_ruling_is_drawn_when_the_dry_run_takes_none(disputed, monkeypatch):
    rulings, _ = _rulings(disputed, monkeypatch, "settle")
    assert set(rulings) == {None}


def test_both_rulings_are_drawn_when_the_dry_run_takes_both(disputed, monkeypatch):
    rulings, _ = _rulings(disputed, monkeypatch, "nothing refused")
    assert set(rulings) == {"settle record=6 fact=range value=85",
                            "settle record=6 uphold=yes"}
