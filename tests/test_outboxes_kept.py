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


def _written(folder) -> list[str]:
    return sorted(p.name for p in folder.glob("*.eml"))


def _planted(tmp_path, monkeypatch, plant) -> list[str]:
    """A folder the ledger keeps holds, under the name of the mail about to be written,
    what plant(path) put there; the mails the run writes into its own folder."""
    monkeypatch.setattr(elsewhere, "save_ledger", lambda ledger: None)
    ledger = _ledger()
    _write(ledger, tmp_path / "first", "other-mail")     # the folder kept, a mail of its own
    plant(tmp_path / "first" / "mail-1.eml")
    _write(ledger, tmp_path / "next", "mail-1")
    return _written(tmp_path / "next")


def test_a_file_no_referee_wrote_under_a_mail_s_name_keeps_it_from_no_other_folder(
        tmp_path, monkeypatch):
    """Whoever can write a folder the ledger keeps, and knows a mail's name, plants a file of
    his own under it: the mail is written into the run's folder all the same."""
    def plant(path):
        path.write_bytes(b"From: x@example.org\nMessage-ID: <mail-1.aaaa@referee.invalid>\n\nhi\n")

    assert _planted(tmp_path, monkeypatch, plant) == ["mail-1.eml"]


def test_another_mail_of_the_referee_s_copied_under_a_mail_s_name_keeps_it_from_nowhere(
        tmp_path, monkeypatch):
    """A real mail of the referee's, to the same player but another one (its Message-ID
    names another mail), or this one written for another address: neither stands for it."""
    def copied(path):
        path.write_bytes((path.parent / "other-mail.eml").read_bytes())

    assert _planted(tmp_path, monkeypatch, copied) == ["mail-1.eml"]

    def for_another(path):
        elsewhere.write_eml(path.parent, "referee@example.org", "q@example.org", "s", "b\n",
                            None, name="mail-1")

    other = tmp_path / "again"
    other.mkdir()
    assert _planted(other, monkeypatch, for_another) == ["mail-1.eml"]


def test_a_link_or_a_fifo_under_a_mail_s_name_is_no_mail(tmp_path, monkeypatch):
    """A symbolic link to the real mail is not followed, and a FIFO is never read."""
    def linked(path):
        real = path.parent / "real"
        real.mkdir()
        elsewhere.write_eml(real, "referee@example.org", "p@example.org", "s", "b\n", None,
                            name="mail-1")
        path.symlink_to(real / "mail-1.eml")

    assert _planted(tmp_path, monkeypatch, linked) == ["mail-1.eml"]
    other = tmp_path / "fifo"
    other.mkdir()
    assert _planted(other, monkeypatch, os.mkfifo) == ["mail-1.eml"]


def test_the_mail_itself_found_in_a_folder_kept_is_not_written_again(tmp_path, monkeypatch):
    """The mail as the referee wrote it, moved to the kept folder's sent/ by the mail
    program: it stands."""
    def written(path):
        elsewhere.write_eml(path.parent, "referee@example.org", "p@example.org", "s", "b\n",
                            None, name="mail-1")
        (path.parent / "sent").mkdir()
        path.rename(path.parent / "sent" / path.name)

    assert _planted(tmp_path, monkeypatch, written) == []


def test_a_truncated_mail_or_a_huge_file_under_a_mail_s_name_is_no_mail(tmp_path,
                                                                       monkeypatch):
    """The real mail cut before its Message-ID, and a sparse file of a gigabyte (of which
    MOST_HEAD bytes are read): neither stands for the mail, and nothing fails."""
    def cut(path):
        elsewhere.write_eml(path.parent, "referee@example.org", "p@example.org", "s", "b\n",
                            None, name="mail-1")
        whole = path.read_bytes()
        path.write_bytes(whole[:whole.index(b"Message-ID")])

    assert _planted(tmp_path, monkeypatch, cut) == ["mail-1.eml"]

    def huge(path):
        with open(path, "wb") as f:
            f.truncate(1 << 30)

    other = tmp_path / "huge"
    other.mkdir()
    assert _planted(other, monkeypatch, huge) == ["mail-1.eml"]

