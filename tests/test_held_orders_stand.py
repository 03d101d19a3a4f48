"""Mailed orders held for the moderator's dice in a manual-dice game stand while the
decision they answered is still their side's (mail/holds.py): a record that leaves it (a
pause, a deadline set, a roster changed) leaves them held, listed in his status and named
at every pass of `tick`, he being mailed once; his entering them ends the hold. A side whose
orders are held answered in time: he is neither reminded nor ruled to have missed his
deadline, whatever the game's policy; the game waits on the moderator."""

from __future__ import annotations

import email
import email.policy
import json
import shlex
from datetime import timedelta

import pytest
from commandclock import START
from forging import forget_mark
from test_waits_on_moderator import held_for_dice
from ticklines import problem_text

ROLLED = ",".join(["6"] * 21)       # enough dice for the two 'done' (3 to 21)


def records(j) -> list[dict]:
    return [json.loads(x) for x in j.read_text().splitlines()]


def held_view(cli, j) -> list[dict]:
    view = json.loads(cli("status", j, "--as", "moderator", "--format", "json").stdout)
    return view.get("held", [])


def held_mails(out) -> list[str]:
    return [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
            .get_body(("plain",)).get_content() for p in sorted(out.glob("held-*.eml"))]


def enter_as_mailed(cli, text: str):
    """The moderator enters the held orders with the command his mail gives."""
    command = text[text.index("  referee order"):].replace(" \\\n", " ")
    return cli(*shlex.split(command.replace("DICE", ROLLED))[1:])


@pytest.mark.parametrize("record", [
    ("deadline", "--pause"),
    ("deadline", "--set", "72h"),
    ("players", "--set", "observer=club@example.org"),
])
def test_a_record_that_leaves_the_decision_leaves_the_orders_held(tmp_path, cli, record):
    j, box, out = held_for_dice(tmp_path, cli)
    assert cli("tick", j, "--no-map").exit_code != 0            # held; he is told
    at = records(j)[-1]["seq"]
    assert [h["record"] for h in held_view(cli, j)] == [at]
    r = cli(record[0], j, *record[1:])
    assert r.exit_code == 0, r.output
    assert records(j)[-1]["seq"] == at + 1
    # Still held, from the record they were held at: his status lists them ...
    assert [(h["side"], h["record"], h["lines"]) for h in held_view(cli, j)] == [
        ("entente", at, ["done", "done"])]
    text = cli("status", j, "--as", "moderator").stdout
    assert "Orders held for your dice" in text and f"held since record {at}" in \
        " ".join(text.split()), text
    if record[1] == "--pause":          # no orders are taken: none can be entered yet
        # His own pause is his own act: the pass names it, and counts no problem for it.
        r = cli("tick", j, "--no-map")
        assert r.exit_code == 0 and "the game is paused: you paused it" in r.output, r.output
        assert cli("deadline", j, "--resume").exit_code == 0
        assert [h["record"] for h in held_view(cli, j)] == [at]
    # ... and every pass of tick says the game waits on him, but mails him once.
    for _ in range(2):
        r = cli("tick", j, "--no-map")
        assert r.exit_code != 0 and \
            "the Entente player's orders ('done', 'done') need 3 to 21 dice" in \
            problem_text(r), r.output
    [told] = held_mails(out)
    # He enters them as his mail says: the hold ends, and the game waits on him no more.
    r = enter_as_mailed(cli, told)
    assert r.exit_code == 0, r.output
    assert held_view(cli, j) == []
    r = cli("tick", j, "--no-map")
    assert "waits on the moderator" not in r.output, r.output
    assert len(held_mails(out)) == 1
    assert not list(out.glob("dropped-*")), "entered: his report tells what they did"


def test_a_hold_made_at_a_record_the_journal_no_longer_holds_is_gone(tmp_path, cli):
    """A journal cut back (a backup put back) holds no record the orders were held at; one
    cut back and written again holds another record of that number: either way his orders
    are no longer held, for the decision they answered may not be the one asked now."""
    j, box, out = held_for_dice(tmp_path, cli)
    assert cli("tick", j, "--no-map").exit_code != 0
    lines = j.read_bytes().splitlines(keepends=True)
    at = json.loads(lines[-1])["seq"]
    assert [h["record"] for h in held_view(cli, j)] == [at]
    j.write_bytes(b"".join(lines[:-1]))             # cut back: record `at` is gone
    forget_mark(j)                                  # the moderator put it back on purpose
    assert held_view(cli, j) == []
    assert cli("deadline", j, "--pause").exit_code == 0       # another record `at`
    assert records(j)[-1]["seq"] == at
    assert held_view(cli, j) == []


@pytest.mark.parametrize("policy", ["default", "wait", "pause"])
def test_a_side_whose_orders_are_held_never_misses_his_deadline(tmp_path, cli, clock,
                                                                 policy):
    """The Entente mailed his orders in time; they need dice and are held. The deadline (24h
    after the German's last order, START) passes before the moderator enters them: the
    Entente gets no reminder, no deadline of his is ruled missed, nothing is answered for
    him and the game is not paused; every pass says the game waits on the moderator."""
    j, box, out = held_for_dice(tmp_path, cli)
    assert cli("deadline", j, "--set", "24h", "--missed", policy).exit_code == 0
    assert cli("tick", j, "--no-map").exit_code != 0            # held, in time
    before = records(j)
    for hours in (23, 25, 48):          # past the 2h reminder, the deadline and its grace
        clock(START + timedelta(hours=hours))
        r = cli("tick", j, "--no-map")
        assert r.exit_code != 0 and \
            "the Entente player's orders ('done', 'done') need 3 to 21 dice" in \
            problem_text(r), r.output
        assert "reminder" not in r.stdout and "missed" not in r.stdout, r.stdout
    assert records(j) == before, [r.get("order") for r in records(j)[len(before):]]
    assert not list(out.glob("deadline-*")), sorted(p.name for p in out.glob("*"))
    [told] = held_mails(out)
    assert enter_as_mailed(cli, told).exit_code == 0
    assert held_view(cli, j) == []


def mails_to(out, address: str) -> list[str]:
    """The mails to address, oldest first, each as one line of words."""
    found = [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
             for p in sorted(out.glob("*.eml"), key=lambda p: p.stat().st_mtime_ns)]
    return [" ".join(m.get_body(("plain",)).get_content().split()) for m in found
            if str(m["To"]) == address]


def test_a_player_whose_orders_are_held_is_told_so_not_asked_for_them_by_a_deadline(
        tmp_path, cli):
    """The reply to his mail and his next report (after a pause the moderator makes) tell
    the Entente his orders are held, in place of a deadline he would otherwise read as one
    still running for them; the German reads nothing of it."""
    j, box, out = held_for_dice(tmp_path, cli)
    assert cli("deadline", j, "--set", "24h").exit_code == 0
    assert cli("tick", j, "--no-map").exit_code != 0
    held = "Your mailed orders for this decision are held"
    [reply] = mails_to(out, "e@example.org")[-1:]
    assert "the moderator holds your message" in reply and held in reply, reply
    assert "Orders due by" not in reply, reply
    assert cli("deadline", j, "--pause").exit_code == 0
    assert cli("deadline", j, "--resume").exit_code == 0
    cli("tick", j, "--no-map")
    report = mails_to(out, "e@example.org")[-1]
    assert "resumed" in report and held in report and "Orders due by" not in report, report
    assert not any(held in m for m in mails_to(out, "g@example.org"))
    for mail in (reply, report):        # his decision told, no orders asked of him again
        flat = " ".join(mail.split())
        assert "Your decision:" in flat, mail
        assert "Reply with one order per line" not in flat, mail
        assert "You may answer several decisions" not in flat, mail


def test_an_order_the_moderator_gives_for_the_side_ends_the_hold(tmp_path, cli):
    """The moderator gives the Entente another order than those held (a cavalry retreat,
    5.4.3, which leaves him the same decision): the held orders were written for the
    position before it, so they are held no more, and the game waits on the Entente."""
    j, box, out = held_for_dice(tmp_path, cli)
    assert cli("tick", j, "--no-map").exit_code != 0
    r = cli("order", j, "--as", "entente", "retreat fr-c-01 bar_le_duc")
    assert r.exit_code == 0, r.output
    assert held_view(cli, j) == []
    r = cli("tick", j, "--no-map")
    assert "waits on the moderator" not in r.output, r.output


def test_the_moderator_is_told_of_a_hold_once_though_his_mail_program_took_the_mail(
        tmp_path, cli):
    """Under `outbox:DIR` the moderator's own mail program takes the mails out of the
    folder: the mail telling him of held orders was written again at every pass, since
    only its name in the folder said it was written. The ledger keeps that he was told."""
    j, box, out = held_for_dice(tmp_path, cli)
    assert cli("tick", j, "--no-map").exit_code != 0
    [told] = out.glob("held-*moderator.eml")
    told.unlink()                               # taken by his mail program
    for _ in range(2):
        r = cli("tick", j, "--no-map")
        assert r.exit_code != 0 and "by the command mailed to you" in problem_text(r), \
            r.output
    assert list(out.glob("held-*moderator.eml")) == []
    assert [h["side"] for h in held_view(cli, j)] == ["entente"]
