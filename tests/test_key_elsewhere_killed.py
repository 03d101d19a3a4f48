"""A pass of `tick` killed while it tells the moderator that a stranger's mail carried a
side's order key (mail/keyelsewhere.py), at each step from the moderator's mail written to
the stranger answered, then two passes: the moderator is mailed once, the stranger answered
once, the journal untouched, as after passes never killed."""

from __future__ import annotations

import json

import pytest
from killedpasses import KILLED, killed_tick, outbox_mails
from mailboxes import write_maildir
from test_waits_on_moderator import MODERATOR, routed

from casebook import new_game, position

STRANGER = "hindenburg@gmail.com"


def _stranger_with_the_entente_key(root, cli):
    """A game by mail whose reports went out; a stranger's mail carrying the Entente's key,
    not yet read: its journal, its bytes, the outbox."""
    j = new_game(root, position("1916", player="german"))
    assert cli("players", j, "--set", "german=g@example.org", "--set",
               "entente=e@example.org", "--set", f"moderator={MODERATOR}").exit_code == 0
    key = {p["side"]: p["key"] for p in json.loads(
        cli("players", j, "--keys", "--format", "json").stdout)["players"] if "key" in p}
    box, out = routed(cli, j, root)
    assert cli("tick", j, "--no-map").exit_code == 0
    write_maildir(box, [(f"From: {STRANGER}\nSubject: orders\nMessage-ID: <s1@example.org>"
                         f"\n\npass\n\nOrder key: {key['entente']}\n").encode()])
    return j, j.read_bytes(), out


def _passes_after(cli, j, out) -> list:
    for _ in range(2):
        assert cli("tick", j, "--no-map").exit_code == 0
    return outbox_mails(out)


@pytest.fixture
def baseline(tmp_path_factory, cli):
    """What passes never killed leave: one mail to the moderator, one answer to the
    stranger (besides the game's reports)."""
    j, _, out = _stranger_with_the_entente_key(tmp_path_factory.mktemp("unkilled"), cli)
    mails = _passes_after(cli, j, out)
    assert [m for m in mails if m[0] in (MODERATOR, STRANGER)] == [
        (STRANGER, "<s1@example.org>", "This message could not be matched to a player of "
                                       "this game"),
        (MODERATOR, "", "A mail from hindenburg@gmail.com carried the order key of "
                        "the")], mails          # its first line
    return mails


@pytest.mark.parametrize("step", ["key told", "applied", "ledger", "reply", "written"])
def test_a_pass_killed_while_it_tells_of_a_key_from_a_stranger_tells_once(
        tmp_path, cli, baseline, step):
    """key told: the moderator's mail written, the ledger not marked; applied: marked and
    saved, the stranger's mail not yet noted handled; ledger: noted, his answer owed and
    saved; reply: killed halfway through writing that answer; written: it written, the
    ledger not told. Each time the next passes write neither mail again."""
    j, before, out = _stranger_with_the_entente_key(tmp_path, cli)
    killed = killed_tick(j, step)
    assert killed.returncode == KILLED, (step, killed.stdout, killed.stderr)
    assert _passes_after(cli, j, out) == baseline, step
    assert j.read_bytes() == before
