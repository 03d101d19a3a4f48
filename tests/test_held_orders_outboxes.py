"""A run killed after it wrote a mail into its outbox and before its ledger said so, then a
pass that writes into another outbox: `inbox` run by hand into the moderator's folder,
`tick` into the game's route. A mail is written once under its name in one folder (the name
found there, or in its sent/, is not written again), and once across folders: before a mail
is written into a folder, the ledger keeps that folder, and a pass into another folder looks
for the name in the folders kept (and in their sent/) first (elsewhere.py). A kept folder
gone, or no folder, holds nothing: the mail is written into the pass's own. A mail program
that takes a mail out of the folder (`outbox:DIR`) and keeps no sent/ leaves nothing to
find."""

from __future__ import annotations

import os

import forkedruns
import pytest
from sharedgames import kept
from test_held_orders_inbox import _inbox, _mails
from test_held_orders_stand import records
from test_waits_on_moderator import held_for_dice

from referee.mail import ledger as ledgermod

ENTENTE = "e@example.org"


@pytest.fixture
def held(tmp_path_factory):
    """held_for_dice's journal, mailbox and outbox, each test's own: played once for the
    process, in a folder and a home of its own; the journal's route and the ledger name the
    folder's own paths, so each test plays on in that same folder, put back as it was made,
    its home holding what that home held (key, ledger, views)."""
    from conftest import Cli

    made = kept(tmp_path_factory.getbasetemp(), "held-orders-outboxes",
                lambda place, mp: held_for_dice(place, Cli()))
    folder = made.back()
    return folder / "case.jsonl", folder / "box", folder / "out"


def _killed(*args: str, step: str) -> None:
    """The command run in a process of its own, forked from this one (the imports done),
    and killed at step: nothing it held in memory is left to the runs after it."""
    from conftest import Cli

    assert forkedruns.run(forkedruns.command, Cli(), *args,
                          env={ledgermod.FAULT_VARIABLE: step}) == 70


def test_a_killed_inbox_s_dropped_mail_is_not_written_again_by_tick(tmp_path, cli, held):
    """The moderator's `inbox` ends the Entente's hold (other orders entered) and is killed
    once the mail telling him is written into its folder, before the ledger forgets the
    hold: the passes of `tick` do not tell him again, into the game's outbox."""
    j, box, out = held
    _inbox(cli, j, box, tmp_path / "mine")
    assert cli("order", j, "--as", "entente", "retreat fr-c-01 bar_le_duc").exit_code == 0
    later = tmp_path / "later"
    _killed("inbox", str(j), str(box), "--outbox", str(later), "--no-map", step="dropped")
    for _ in range(2):
        cli("tick", j, "--no-map")
    told = [m[:2] for m in _mails(later) + _mails(out)
            if m[2].startswith("The orders of your mail")]
    assert told[:1] == [(ENTENTE, "")], told         # told once at least
    assert len(told) == 1, told


def test_a_killed_inbox_s_reply_is_not_written_again_by_tick(tmp_path, cli, held):
    """The moderator's `inbox` holds the Entente's orders and is killed once it wrote his
    answer, before the ledger says it is written: the passes of `tick` do not answer him
    again."""
    j, box, out = held
    mine = tmp_path / "mine"
    _killed("inbox", str(j), str(box), "--outbox", str(mine), "--no-map", step="written")
    for _ in range(2):
        cli("tick", j, "--no-map")
    answers = [m[:2] for m in _mails(mine) + _mails(out) if m[1] == "<m1@example.org>"]
    assert answers[:1] == [(ENTENTE, "<m1@example.org>")], answers     # answered at least
    assert len(answers) == 1, answers


def _answers(*folders) -> list[tuple[str, str]]:
    """The mails of the folders (and of their sent/) answering the Entente's mail."""
    return [m[:2] for f in folders for m in _mails(f) + _mails(f / "sent")
            if m[1] == "<m1@example.org>"]


def _folders(j) -> list[str]:
    """The folders the game's ledger keeps, the one used last at the end."""
    head = records(j)[0]
    return ledgermod.load_ledger(head["game_id"], head["hash"])["outboxes"]


def test_a_killed_inbox_s_reply_sent_from_its_folder_is_not_written_again(tmp_path, cli, held):
    """The moderator's mail program sent the answer the killed `inbox` wrote, moving it into
    the folder's sent/: the passes of `tick` find it there and write none into the game's
    outbox."""
    j, box, out = held
    mine = tmp_path / "mine"
    _killed("inbox", str(j), str(box), "--outbox", str(mine), "--no-map", step="written")
    [written] = mine.glob("*.eml")
    # The game's outbox (held_for_dice's reports went there), then the moderator's folder.
    assert _folders(j) == [os.path.realpath(out), os.path.realpath(mine)]
    (mine / "sent").mkdir()
    written.rename(mine / "sent" / written.name)
    for _ in range(2):
        cli("tick", j, "--no-map")
    assert _answers(mine, out) == [(ENTENTE, "<m1@example.org>")], _answers(mine, out)
    assert not _answers(out)
    # The game's outbox used last: the moderator's mail about the hold went there.
    assert _folders(j) == [os.path.realpath(mine), os.path.realpath(out)]


@pytest.mark.parametrize("then", ["gone", "fifo", "loop"])
def test_a_mail_whose_first_folder_is_gone_is_written_once_into_the_next(tmp_path, cli,
                                                                         held, then):
    """The folder a killed `inbox` wrote the answer into is deleted (or made a FIFO, or a
    link to itself): the next `inbox`, into another folder, writes it there, and is killed
    too; the passes of `tick` then find it in that one, and neither hang nor fail on the
    first."""
    j, box, out = held
    mine, later = tmp_path / "mine", tmp_path / "later"
    _killed("inbox", str(j), str(box), "--outbox", str(mine), "--no-map", step="written")
    for p in mine.glob("*.eml"):
        p.unlink()
    mine.rmdir()
    if then == "fifo":
        os.mkfifo(mine)
    elif then == "loop":
        mine.symlink_to(mine)
    _killed("inbox", str(j), str(box), "--outbox", str(later), "--no-map", step="written")
    assert _answers(later) == [(ENTENTE, "<m1@example.org>")]
    for _ in range(2):
        r = cli("tick", j, "--no-map")
        assert "Traceback" not in r.output, r.output
    assert _answers(later, out) == [(ENTENTE, "<m1@example.org>")], _answers(later, out)


def test_a_killed_inbox_s_mail_to_the_moderator_is_not_written_again_by_tick(tmp_path, cli, held):
    """The moderator's `inbox` holds the Entente's orders, mails the moderator the command
    that enters them, and is killed before the ledger says he was told: the passes of `tick`
    do not tell him again, into the game's outbox."""
    j, box, out = held
    mine = tmp_path / "mine"
    _killed("inbox", str(j), str(box), "--outbox", str(mine), "--no-map", step="held")
    for _ in range(2):
        cli("tick", j, "--no-map")
    held = [p for f in (mine, out) for p in f.glob("held-*-moderator.eml")]
    assert len(held) == 1, held
    assert held[0].parent == mine, held
