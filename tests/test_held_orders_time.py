"""A player whose mailed orders were held answered in time: no deadline of his runs while
they wait (test_held_orders_stand.py). When the hold ends without them, the time it took
from his deadline is given back (mail/holdtime.py): the pass that ends it told him to send
his orders again yet ruled, in the same breath, the deadline that passed while they waited
missed, the game stopped on him before the mail reached him."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from commandclock import START
from test_held_orders_dropped import dropped, held_before_the_battle
from test_held_orders_stand import records
from test_waits_on_moderator import held_for_dice

from referee.mail.holdtime import give_back_time, hold_mark
from referee.mail.ledger import load_ledger
from referee.table import Table


@pytest.mark.parametrize("policy", ["wait", "pause"])
def test_a_deadline_that_passed_while_orders_were_held_runs_anew_when_they_are_dropped(
        tmp_path, cli, clock, policy):
    """24h deadline from START; the Entente's two 'done' held in time; two days later the
    moderator enters another order for the Entente (a cavalry retreat, 5.4.3), which leaves
    him the same decision. The next pass tells the Entente and gives him the game's 24h for
    it from then: no deadline ruled missed, his mail gives a deadline to come."""
    j, box, out = held_for_dice(tmp_path, cli)
    assert cli("deadline", j, "--set", "24h", "--missed", policy).exit_code == 0
    assert cli("tick", j, "--no-map").exit_code != 0            # held, in time
    clock(START + timedelta(hours=48))
    assert cli("tick", j, "--no-map").exit_code != 0            # still held: nothing missed
    assert cli("order", j, "--as", "entente", "retreat fr-c-01 bar_le_duc").exit_code == 0
    r = cli("tick", j, "--no-map")
    assert "missed" not in r.output, r.output
    assert not any((x.get("clock") or {}).get("kind") == "missed" for x in records(j))
    [text] = dropped(out)
    flat = " ".join(text.split())
    assert "Orders due by Thu 26 Nov 18:00 UTC" in flat, text       # 24h from the pass
    assert "has passed" not in flat, text
    # An extension of the moderator's: none of the Entente's own is spent.
    assert "2 extensions left of the 2" in flat, text
    view = json.loads(cli("status", j, "--as", "entente", "--format", "json").stdout)
    [due] = view["deadlines"]["due"]
    assert due["side"] == "entente" and due["due"] == "2026-11-26T18:00:00Z", due
    # It runs from then as any other: a day later it is missed.
    clock(START + timedelta(hours=73))
    r = cli("tick", j, "--no-map")
    assert "missed: the Entente player" in r.output, r.output


def test_a_deadline_that_began_after_the_orders_were_held_is_left_as_it_is(tmp_path, cli,
                                                                          clock):
    """A hold kept at a record before the decision the Entente owes now was asked (the
    German's move, before the battle): that deadline began after the hold, which took
    nothing from it, and it is not extended."""
    j, box, out = held_for_dice(tmp_path, cli)
    assert cli("deadline", j, "--set", "24h").exit_code == 0
    assert cli("tick", j, "--no-map").exit_code != 0
    held_before_the_battle(j)
    clock(START + timedelta(hours=2))
    cli("tick", j, "--no-map")
    [text] = dropped(out)
    assert "The decision they answered is over" in " ".join(text.split()), text
    assert not any((x.get("clock") or {}).get("kind") == "extend" for x in records(j))


def test_the_time_of_a_hold_is_given_back_once_and_that_of_another_hold_again(
        tmp_path, cli, clock):
    """The time of the Entente's first hold given back (24h from the pass that ended it),
    the extension naming that hold (holdtime.hold_mark). Asked again for that hold a day
    later (a pass that ended it again, cut off before the ledger forgot it), nothing is
    written. Another hold of his since (another mail, held at the cavalry's retreat) whose
    deadline ran meanwhile gets its time back in its turn."""
    j, box, out = held_for_dice(tmp_path, cli)
    assert cli("deadline", j, "--set", "24h").exit_code == 0
    assert cli("tick", j, "--no-map").exit_code != 0
    head = records(j)[0]
    [first] = load_ledger(head["game_id"], head["hash"])["held"].values()
    assert isinstance(first.get("mail"), str), first        # the held mail's raw digest
    clock(START + timedelta(hours=48))
    assert cli("order", j, "--as", "entente", "retreat fr-c-01 bar_le_duc").exit_code == 0
    cli("tick", j, "--no-map")
    assert _extensions(j) == [("48h", hold_mark("entente", first))]
    retreat = next(r for r in records(j) if r.get("order") == "retreat fr-c-01 bar_le_duc")
    later = {"seq": retreat["seq"], "hash": retreat["hash"], "lines": ["done", "done"],
             "mail": "0" * 64}
    due = START + timedelta(hours=96)                   # a day past the deadline given back
    give_back_time(Table(j).whole(), "entente", first, due)
    assert len(_extensions(j)) == 1
    give_back_time(Table(j).whole(), "entente", later, due)
    assert _extensions(j)[1:] == [("48h", hold_mark("entente", later))]
    give_back_time(Table(j).whole(), "entente", later, due + timedelta(hours=1))
    assert len(_extensions(j)) == 2
    assert cli("verify", j).exit_code == 0


def _extensions(j) -> list[tuple[str, str | None]]:
    """The extensions of the journal: by how much, and the hold each gives back for."""
    return [(x["clock"]["by"], x["clock"].get("hold")) for x in records(j)
            if (x.get("clock") or {}).get("kind") == "extend"]


def test_a_hold_is_named_by_its_mail_s_digest_never_by_its_lines():
    """The extension giving back a hold's time is in the journal every reader has: its mark
    must tell nothing of the orders held (a player guessing the lines his opponent held
    could confirm them against a digest of them). A hold is named by its side, its record
    and its mail's raw digest; one an older ledger kept, with no digest, by its side and
    record alone."""
    base = {"seq": 57, "hash": "ab" * 32}
    old_a = hold_mark("entente", {**base, "lines": ["retreat fr-1 verdun"]})
    old_b = hold_mark("entente", {**base, "lines": ["done"]})
    assert old_a == old_b
    new_a = hold_mark("entente", {**base, "lines": ["done"], "mail": "1" * 64})
    new_b = hold_mark("entente", {**base, "lines": ["done"], "mail": "2" * 64})
    assert len({old_a, new_a, new_b}) == 3
    assert hold_mark("german", {**base, "mail": "1" * 64}) != new_a
