"""A pass of `tick` killed while it holds a player's mailed orders for the moderator's dice,
at each step between reading the mail and recording the hold and the answers (REFEREE_FAULT,
a real process ended there), then two passes: the orders are held once, the player answered
once and the moderator told once, as after a pass never killed."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from commandclock import START
from killedpasses import KILLED, killed_tick, outbox_mails
from test_held_orders_stand import held_view, records
from test_waits_on_moderator import MODERATOR, held_for_dice
from ticklines import problems


def _held(cli, j) -> list[tuple]:
    return [(h["side"], h["record"], h["lines"]) for h in held_view(cli, j)]


def _passes_after(cli, j, out) -> tuple:
    """Two passes: what the second leaves (the mails, the holds, its problem line)."""
    for _ in range(2):
        r = cli("tick", j, "--no-map")
        assert r.exit_code != 0, r.output
    [line] = [x for x in problems(r) if "waits on the moderator" in x]
    return outbox_mails(out), _held(cli, j), line


@pytest.fixture
def baseline(tmp_path_factory, cli):
    """What passes never killed leave: the Entente's reply (held), the moderator's mail."""
    root = tmp_path_factory.mktemp("unkilled")
    j, _, out = held_for_dice(root, cli)
    mails, held, line = _passes_after(cli, j, out)
    assert [m for m in mails if m[1] == "<m1@example.org>"] == [
        ("e@example.org", "<m1@example.org>", "Your message was not applied yet")]
    assert [m for m in mails if m[0] == MODERATOR] == [
        (MODERATOR, "", "The Entente player's mailed orders need dice")]
    assert [(side, lines) for side, _, lines in held] == [("entente", ["done", "done"])]
    return mails, held, line.replace(str(j), "JOURNAL")


@pytest.mark.parametrize("step", ["applied", "ledger", "reply", "written"])
def test_a_pass_killed_while_it_holds_orders_holds_them_once_and_answers_once(
        tmp_path, cli, baseline, step):
    """applied: the mail handled, the ledger not saved; ledger: saved, the message handled
    and the reply owed (the hold was kept only after it, and lost: the mail known, the
    player told his orders are held, the moderator never); reply: killed halfway through
    writing the first mail; written: a mail written, the ledger not told. The journal is
    as it was (a hold writes no record), so the folder's index still says the game has
    nothing to do: a pass that read the mail again, known, left it alone, the moderator
    never told and every pass quiet."""
    j, _, out = held_for_dice(tmp_path, cli)
    killed = killed_tick(j, step)
    assert killed.returncode == KILLED, killed.stderr
    mails, held, line = _passes_after(cli, j, out)
    assert (mails, held, line.replace(str(j), "JOURNAL")) == baseline, step


def test_a_pass_killed_between_telling_a_player_his_hold_ended_and_forgetting_it_tells_once(
        tmp_path, cli):
    """The moderator enters other orders for the Entente; the pass that tells the Entente
    his held orders were not entered is killed before the ledger forgets the hold: the next
    passes find the mail written and write none again."""
    j, _, out = held_for_dice(tmp_path, cli)
    assert cli("tick", j, "--no-map").exit_code != 0
    assert cli("order", j, "--as", "entente", "retreat fr-c-01 bar_le_duc").exit_code == 0
    killed = killed_tick(j, "dropped")
    assert killed.returncode == KILLED, killed.stderr
    assert len(list(out.glob("dropped-*.eml"))) == 1
    for _ in range(2):
        cli("tick", j, "--no-map")
    dropped = [m for m in outbox_mails(out) if m[2].startswith("The orders of your mail")]
    assert [(to, answers) for to, answers, _ in dropped] == [("e@example.org", "")], dropped
    assert _held(cli, j) == []


def _dropped_at_48h(root, cli, clock, step: str | None) -> tuple:
    """A 24h deadline; the Entente's two 'done' held in time; two days later the moderator
    enters other orders for him; the pass that ends the hold (killed at step, or not), then
    two passes an hour later: the Entente's deadline, the extensions written, the mails
    telling him."""
    j, _, out = held_for_dice(root, cli)
    assert cli("deadline", j, "--set", "24h").exit_code == 0
    assert cli("tick", j, "--no-map").exit_code != 0
    clock(START + timedelta(hours=48))
    assert cli("order", j, "--as", "entente", "retreat fr-c-01 bar_le_duc").exit_code == 0
    if step is None:
        cli("tick", j, "--no-map")
    else:
        killed = killed_tick(j, step)
        assert killed.returncode == KILLED, killed.stderr
    clock(START + timedelta(hours=49))
    for _ in range(2):
        cli("tick", j, "--no-map")
    view = json.loads(cli("status", j, "--as", "entente", "--format", "json").stdout)
    extended = [(x["actor"], x["clock"]["by"]) for x in records(j)
                if (x.get("clock") or {}).get("kind") == "extend"]
    told = [m[:2] for m in outbox_mails(out) if m[2].startswith("The orders of your mail")]
    return view["deadlines"]["due"], extended, told


@pytest.mark.parametrize("step", ["given back", "dropped"])
def test_a_pass_killed_after_giving_back_the_time_of_a_hold_gives_it_back_once(
        tmp_path, cli, clock, step):
    """given back: killed once the extension is written, before the mail and the ledger;
    dropped: the mail written too, the ledger not saved. The next pass, an hour later, finds
    the hold ended and not yet forgotten: it gave the deadline that hour once more (the
    game's full time from then), though the time was given back already. Deadlines, the
    extensions and the mails are those of passes never killed: one extension, to the game's
    24h from the pass that ended the hold (holdtime.py): 48h past the deadline it had, which
    passed a day before; one mail."""
    for folder in ("unkilled", "killed"):
        (tmp_path / folder).mkdir()
    baseline = _dropped_at_48h(tmp_path / "unkilled", cli, clock, None)
    clock(START)
    assert _dropped_at_48h(tmp_path / "killed", cli, clock, step) == baseline
    [due], extended, told = baseline
    assert due["side"] == "entente" and due["due"] == "2026-11-26T18:00:00Z", due
    assert extended == [("moderator", "48h")], extended
    assert told == [("e@example.org", "")]
