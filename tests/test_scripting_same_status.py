"""docs/scripting.md: the `status` an `order --format json` result carries is a status-view,
the one `status --format json` prints for the same reader, key for key: its deadlines (a
passed one marked missed) and the side's own standing orders too, whether the batch was
applied or its first order rejected; a report's deadlines are its reader's status's."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

from referee.base.clock import NOW_VARIABLE

START = datetime(2026, 3, 2, 10, 0, tzinfo=UTC)


def _at(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def _json(r) -> dict:
    return json.loads(r.stdout)


def _timed_game(cli, tmp_path: Path, monkeypatch) -> Path:
    """A game begun at START with a 48-hour deadline and the German's standing order."""
    monkeypatch.setenv(NOW_VARIABLE, _at(START))
    game = tmp_path / "g.jsonl"
    assert cli("new", game, "--scenario", "1914", "--game-id", "same").exit_code == 0
    assert cli("standing", game, "--as", "german", "--add", "no combat cards").exit_code == 0
    assert cli("deadline", game, "--set", "48h").exit_code == 0
    return game


def test_an_applied_order_s_status_is_the_status_the_side_reads_next(cli, tmp_path, monkeypatch):
    game = _timed_game(cli, tmp_path, monkeypatch)
    r = cli("order", game, "--as", "german", "--format", "json", "pass")
    assert r.exit_code == 0, r.stderr
    after = _json(r)["status"]
    status = _json(cli("status", game, "--as", "german", "--format", "json"))
    assert after == status
    assert after["deadlines"]["due"][0]["handoff"] == after["seq"]
    assert after["standing"] == ["no combat cards"]


def test_a_rejected_order_s_status_tells_the_deadline_it_missed(cli, tmp_path, monkeypatch):
    game = _timed_game(cli, tmp_path, monkeypatch)
    monkeypatch.setenv(NOW_VARIABLE, _at(START + timedelta(days=3)))
    before = game.read_bytes()
    r = cli("order", game, "--as", "german", "--format", "json", "end turn")
    assert r.exit_code == 1, r.stderr
    assert game.read_bytes() == before
    after = _json(r)["status"]
    assert after == _json(cli("status", game, "--as", "german", "--format", "json"))
    assert [d["missed"] for d in after["deadlines"]["due"]] == ["wait"]
    assert after["standing"] == ["no combat cards"]


def test_a_report_tells_the_deadlines_its_reader_s_status_tells(cli, tmp_path, monkeypatch):
    """`report --format json` carries the deadlines as the reader's status-view has them, a
    passed one marked missed."""
    game = _timed_game(cli, tmp_path, monkeypatch)
    monkeypatch.setenv(NOW_VARIABLE, _at(START + timedelta(days=3)))
    for reader in ("public", "entente", "moderator"):
        report = _json(cli("report", game, "--as", reader, "--format", "json"))
        status = _json(cli("status", game, "--as", reader, "--format", "json"))
        assert report["deadlines"] == status["deadlines"]
        assert [d["missed"] for d in report["deadlines"]["due"]] == ["wait"]
