"""The folders the ledger keeps for writing each mail once across outboxes (elsewhere.py):
saved once a run that writes into a folder not the last used, never once a mail, and
bounded, the folders used longest ago forgotten first."""

from __future__ import annotations

import os

from referee.mail import elsewhere


def _ledger() -> dict:
    return {"outboxes": []}


def _write(ledger, folder, name) -> None:
    folder.mkdir(exist_ok=True)
    elsewhere.write_kept(ledger, folder, "referee@example.org", "p@example.org", "subject",
                         "body\n", None, name=name)


def test_a_run_writing_many_mails_into_one_folder_saves_the_ledger_once(tmp_path,
                                                                          monkeypatch):
    saves = []
    monkeypatch.setattr(elsewhere, "save_ledger", lambda ledger: saves.append(
        list(ledger["outboxes"])))
    ledger = _ledger()
    for n in range(5):
        _write(ledger, tmp_path / "out", f"mail-{n}")
    assert saves == [[os.path.realpath(tmp_path / "out")]]
    assert len(list((tmp_path / "out").glob("*.eml"))) == 5


def test_a_mail_in_a_folder_used_before_is_not_written_into_the_next(tmp_path, monkeypatch):
    monkeypatch.setattr(elsewhere, "save_ledger", lambda ledger: None)
    ledger = _ledger()
    _write(ledger, tmp_path / "first", "mail-1")
    _write(ledger, tmp_path / "next", "mail-1")
    _write(ledger, tmp_path / "next", "mail-2")
    assert [p.name for p in (tmp_path / "next").glob("*.eml")] == ["mail-2.eml"]


def test_the_folders_kept_are_bounded_the_one_used_last_at_the_end(tmp_path, monkeypatch):
    monkeypatch.setattr(elsewhere, "save_ledger", lambda ledger: None)
    ledger = _ledger()
    folders = [tmp_path / f"f{n}" for n in range(elsewhere.MOST_FOLDERS + 3)]
    for n, folder in enumerate(folders):
        _write(ledger, folder, f"mail-{n}")
    _write(ledger, folders[5], "mail-again")               # used again: moved to the end
    kept = elsewhere.kept_folders(ledger)
    assert len(kept) == elsewhere.MOST_FOLDERS and kept[-1] == os.path.realpath(folders[5])
    assert os.path.realpath(folders[0]) not in kept


def test_a_kept_entry_that_is_no_absolute_folder_name_is_ignored(tmp_path, monkeypatch):
    monkeypatch.setattr(elsewhere, "save_ledger", lambda ledger: None)
    (tmp_path / "rel").mkdir()
    (tmp_path / "rel" / "mail-1.eml").write_text("x")
    ledger = {"outboxes": ["rel", 7, None, str(tmp_path / "nowhere")]}
    _write(ledger, tmp_path / "out", "mail-1")
    assert [p.name for p in (tmp_path / "out").glob("*.eml")] == ["mail-1.eml"]
