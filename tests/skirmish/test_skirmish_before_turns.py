"""A patrol journal played before units' turns ended (card unit_turns), before a contacted
figure was held (melee contact_holds) and before an empty melee phase was passed over
(card melee_passed_over) replays as it was played.

tests/fixtures/skirmish-before-turns/ holds it, played by the command line with manual
dice: turn 1 with no shot and an empty melee phase both sides said done to; in turn 2 B5
and B2 move into contact, G4 and G3 move, then B1 of section B again, and G6 (contacted)
rushes away. With it, what `status`, `skirmish report`, `log` and `verify` said of it then,
byte for byte; and played on, its game keeps the rulings of then."""

from __future__ import annotations

import shutil
from pathlib import Path

from forging import fixed_key

from referee.store import signing

FIXTURE = Path(__file__).parent.parent / "fixtures" / "skirmish-before-turns"
SAID = {"status.txt": ("status",), "status.json": ("status", "--format", "json"),
        "report.txt": ("skirmish", "report"),
        "report.json": ("skirmish", "report", "--format", "json"),
        "report-british.txt": ("skirmish", "report", "--as", "british"),
        "report-german.txt": ("skirmish", "report", "--as", "german"),
        "verify.txt": ("verify",), "log.txt": ("log",)}


def _copy(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    j = Path("journal.jsonl")
    for name in ("journal.jsonl", "journal.jsonl.secret"):
        shutil.copyfile(FIXTURE / name, name)
        Path(name).chmod(0o600)
    return j


def test_a_journal_made_before_reads_byte_for_byte_as_then(cli, tmp_path, monkeypatch):
    j = _copy(tmp_path, monkeypatch)
    for name, args in SAID.items():
        r = cli(*args[:2], j, *args[2:]) if args[0] == "skirmish" else \
            cli(args[0], j, *args[1:])
        assert r.exit_code == 0, (name, r.output)
        assert r.stdout == (FIXTURE / name).read_text(encoding="utf-8"), name


def test_a_journal_made_before_plays_on_as_then(cli, tmp_path, monkeypatch):
    """Its turn 2 goes on with the rulings of then: an empty melee phase waits on both
    sides' done."""
    j = _copy(tmp_path, monkeypatch)
    signing.new_key(fixed_key(tmp_path / "keys"))
    for side in ("british", "german", "british", "german", "british"):
        r = cli("order", j, "--as", side, "done")
        assert r.exit_code == 0, r.output
    status = cli("status", j).stdout
    assert "turn 2, melee phase" in status, status
    assert cli("verify", j).exit_code == 0
