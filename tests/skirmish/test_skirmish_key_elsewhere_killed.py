"""A skirmish's pass killed while it tells the moderator that a stranger's mail carried a
side's order key (mail/keyelsewhere.py, through direct.py), at each step from the first
mail written to the stranger's mail noted handled, then two passes: the moderator is mailed
once, the stranger answered once, the journal untouched, as after passes never killed."""

from __future__ import annotations

import pytest
from killedpasses import KILLED, killed_tick, outbox_mails
from skirmish_cases import tick_done
from test_skirmish_end_mails import Duel
from test_skirmish_mail import UMPIRE, mail

STRANGER = "fritz@evil.example.net"


def _duel_with_a_stranger(root, cli) -> Duel:
    """A duel by mail, its reports out; a stranger's mail carrying the German's key."""
    duel = Duel(cli, root)
    duel.n += 1
    mail(duel.box / "new", duel.n, STRANGER, duel.keys["german"], "done")
    return duel


def _passes_after(cli, duel: Duel) -> list:
    for _ in range(2):
        r = cli("tick", duel.j, "--no-map")
        assert tick_done(r), r.output
    return outbox_mails(duel.out)


@pytest.fixture
def baseline(tmp_path_factory, cli):
    """What passes never killed leave: one mail to the moderator, one answer to the
    stranger (besides the duel's reports)."""
    duel = _duel_with_a_stranger(tmp_path_factory.mktemp("unkilled"), cli)
    mails = _passes_after(cli, duel)
    assert [m[:2] for m in mails if m[0] == STRANGER] == [
        (STRANGER, f"<m{duel.n}@example.org>")]
    assert [m[:2] for m in mails if m[2].startswith(f"A mail from {STRANGER} carried")] == [
        (UMPIRE, "")], mails
    return mails


@pytest.mark.parametrize("step", ["reply", "written", "key told", "direct applied"])
def test_a_skirmish_pass_killed_while_it_tells_of_a_key_from_a_stranger_tells_once(
        tmp_path, cli, baseline, step):
    """reply: killed halfway through writing the moderator's mail; written: it written,
    the ledger not told of the file; key told: not marked told; direct applied: marked,
    the stranger's mail not yet noted handled nor his answer owed. Each time the next
    passes write neither mail again."""
    duel = _duel_with_a_stranger(tmp_path, cli)
    before = duel.j.read_bytes()
    killed = killed_tick(duel.j, step)
    assert killed.returncode == KILLED, (step, killed.stdout, killed.stderr)
    assert _passes_after(cli, duel) == baseline, step
    assert duel.j.read_bytes() == before
