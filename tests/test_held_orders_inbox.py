"""`inbox` run by hand keeps and tells orders held for the moderator's dice as a pass of
`tick` does (mail/holdsteps.py): the moderator's mail about a hold and the player's about
orders not entered go into the outbox `inbox` writes its replies into, once: a later pass
of `tick` writes neither again, into its own outbox."""

from __future__ import annotations

import email
import email.policy
import json
from datetime import timedelta

from commandclock import START
from mailkinds import first_line
from test_held_orders_stand import held_view, records
from test_waits_on_moderator import MODERATOR, held_for_dice

ENTENTE = "e@example.org"


def _mails(folder) -> list[tuple[str, str, str]]:
    """Each mail of a folder: to whom, what it answers, what it is (its first line)."""
    found = [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
             for p in folder.glob("*.eml")]
    return sorted((str(m["To"]), str(m.get("In-Reply-To", "")), first_line(m))
                  for m in found)


def _inbox(cli, j, box, mine) -> list[str]:
    """The moderator's `inbox` run: the mails it says it wrote."""
    r = cli("inbox", j, box, "--outbox", mine, "--no-map")
    assert r.exit_code == 0, r.output
    return [line.split(None, 1)[1] for line in r.stdout.splitlines()
            if line.startswith("outbox ")]


def test_inbox_by_hand_tells_the_moderator_of_a_hold_once(tmp_path, cli):
    """The Entente's two 'done' held by the moderator's own `inbox` run: he is mailed the
    command that enters them, beside the Entente's answer, and the run says so; the passes
    of `tick` after it mail him no second time, nor answer the Entente again."""
    j, box, out = held_for_dice(tmp_path, cli)
    before = _mails(out)
    mine = tmp_path / "mine"
    written = _inbox(cli, j, box, mine)
    assert [m[:2] + (m[2].split(", and")[0],) for m in _mails(mine)] == [
        (ENTENTE, "<m1@example.org>", "Your message was not applied yet: your orders need dice"),
        (MODERATOR, "", "The Entente player's mailed orders need dice")]
    [told] = mine.glob("held-*-moderator.eml")
    assert str(told) in written, written
    assert [h["lines"] for h in held_view(cli, j)] == [["done", "done"]]
    for _ in range(2):
        r = cli("tick", j, "--no-map")
        assert "waits on the moderator" in r.output, r.output
    assert _mails(out) == before
    assert len(_inbox(cli, j, box, mine)) == 0


def test_inbox_by_hand_tells_a_player_his_held_orders_were_not_entered_once(tmp_path, cli,
                                                                            clock):
    """24h deadline; the Entente's orders held by the moderator's `inbox`; two days later he
    enters other orders for the Entente and runs `inbox` again, into another folder: the
    Entente's mail saying his orders were not entered goes there, his deadline given the
    game's 24h from then; the passes of `tick` an hour later mail him nothing of it again,
    nor give that time again."""
    j, box, out = held_for_dice(tmp_path, cli)
    assert cli("deadline", j, "--set", "24h").exit_code == 0
    _inbox(cli, j, box, tmp_path / "mine")
    clock(START + timedelta(hours=48))
    assert cli("order", j, "--as", "entente", "retreat fr-c-01 bar_le_duc").exit_code == 0
    later = tmp_path / "later"
    written = _inbox(cli, j, box, later)
    assert [m[:2] for m in _mails(later)
            if m[2].startswith("The orders of your mail")] == [(ENTENTE, "")]
    [told] = later.glob("dropped-*.eml")
    assert str(told) in written, written
    assert held_view(cli, j) == []
    clock(START + timedelta(hours=49))
    before = _mails(out)
    for _ in range(2):
        cli("tick", j, "--no-map")
    assert not [m for m in _mails(out) if m not in before and m[0] == ENTENTE and
                m[2].startswith("The orders of your mail")], _mails(out)
    assert [x["clock"]["by"] for x in records(j)
            if (x.get("clock") or {}).get("kind") == "extend"] == ["48h"]
    view = json.loads(cli("status", j, "--as", "entente", "--format", "json").stdout)
    assert [d["due"] for d in view["deadlines"]["due"]] == ["2026-11-26T18:00:00Z"]
