"""A mail whose orders run past a hand-off: the orders up to it are applied, the rest are not
(named in the reply), and nothing the sender could not see ahead decides which.

- A batch with handoff_ends (every mail's) that reaches an order handing the decision to
  the other side, with no die rolled and no card drawn, applies up to that order and ends
  there (Submission.left): the orders after it are not applied, and not refused.
- An order whose result needs dice or cards, followed by more orders, still has the batch
  refused whole, the journal unchanged: whether the decision passed would tell the roll.
- The other side's standing orders (which may roll dice in the record that ends the batch)
  change neither where the batch ends nor what it tells; those dice mix in the digest of
  the orders applied only, never of the orders left.
- Without handoff_ends (`order --atomic`), a batch past a hand-off is refused whole, as
  before.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from mailkinds import headline
from test_hostile_mail import KEYS, eml, handled, mail, new_game, records, replies_to
from test_standing import give, play

import gamecalls as g
from casebook import new_game as case_game
from casebook import position
from referee.store.sheets import lines_digest

MAIL = {"message_id": "<m@example.org>", "sha256": "a" * 64, "body_sha256": "b" * 64,
        "content_sha256": "c" * 64}


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def body_of(m) -> str:
    return m.get_body(preferencelist=("plain",)).get_content()


@pytest.fixture
def journal(tmp_path, cli) -> Path:
    return new_game(cli, tmp_path / "game")


# ---------------------------------------------------------------- by mail

def test_orders_past_a_hand_off_are_applied_up_to_it_and_the_rest_named(journal, cli,
                                                                       tmp_path):
    body = f"pass\nend turn\nplay offensive\ndone\n\nOrder key: {KEYS['german']}\n"
    before = len(records(journal))
    out = handled(cli, journal, eml(tmp_path / "in", mail(body=body)), outbox=tmp_path / "out")
    assert [(o["status"], o["side"]) for o in out] == [("applied", "german")], out
    written = records(journal)[before:]
    assert [r["order"] for r in written] == ["pass", "end turn"]
    assert out[0]["records"] == [r["seq"] for r in written]
    assert "not applied: line 3 'play offensive', line 4 'done'" in out[0]["reason"]
    (report,) = [m for m in replies_to(tmp_path / "out", "Kaiser@Example.org")
                 if "report for the German player" in headline(m)]
    # What of his mail was applied, then what was not, then what is asked of him now (he
    # waits: the turn passed to the Entente player, 2.0 II.1), then the report's title.
    applied, notes, lead, title = body_of(report).split("\n\n")[:4]
    assert flat(applied) == "Applied from your mail: 'pass' (#3), 'end turn' (#4).", applied
    assert flat(notes) == (
        "Not applied: line 3 'play offensive', line 4 'done': the decision had passed to "
        "the Entente player after line 2 ('end turn'); send them again when you are "
        "asked."), body_of(report)[:400]
    assert flat(lead).startswith("Waiting on the Entente player: "), lead
    assert title.startswith("TO THE LAST MAN! — report for the German player"), title
    # Read again, the mailbox changes nothing: the message was applied once.
    again = handled(cli, journal, eml(tmp_path / "in", mail(body=body)),
                    outbox=tmp_path / "out2")
    assert [o["status"] for o in again] == ["known"] and len(records(journal)) == \
        before + 2


def test_a_mail_past_a_hand_off_with_a_line_that_fails_before_it_applies_nothing(
        journal, cli, tmp_path):
    body = f"pass\nmove ge-1 paris\nend turn\nplay offensive\n\nOrder key: {KEYS['german']}\n"
    before = journal.read_bytes()
    out = handled(cli, journal, eml(tmp_path / "in", mail(body=body)), outbox=tmp_path / "out")
    assert [(o["status"], o["side"]) for o in out] == [("rejected", "german")], out
    assert journal.read_bytes() == before


# ---------------------------------------------------------------- the batch

def test_without_handoff_ends_a_batch_past_a_hand_off_is_refused_whole(journal):
    before = journal.read_bytes()
    r = g.submit(journal, "german", ["pass", "end turn", "play offensive"], atomic=True)
    assert r.rejected is not None and r.left is None and journal.read_bytes() == before
    r = g.submit(journal, "german", ["pass", "end turn", "play offensive"], atomic=True,
                 handoff_ends=True)
    assert r.rejected is None and [a.text for a in r.applied] == ["pass", "end turn"]
    assert r.left == (2, "entente") and r.not_applied == ["play offensive"]


def _artois(tmp: Path, *standing: str) -> Path:
    """1918, committed dice: the 6. Armee has moved into Artois against two British armies;
    the Entente holds a combat card (tests/test_standing.py's position)."""
    tmp.mkdir()
    sc = position("1918", player="german", hands={"german": ["off-01"], "entente": ["ers2-01"]},
                  control={"somme": "german", "amiens": "german", "calais": "entente",
                           "dunkirk": "german"},
                  forts={"fort-dunkirk": "out"},
                  units=["ge-6 ge army lille 3I+1S", "uk-1 uk army artois 3I",
                         "uk-3 uk army artois 3I"])
    j = case_game(tmp, sc, None, "committed")
    if standing:
        give(j, "entente", *standing)
    play(j, "german", "play offensive")
    play(j, "german", "move ge-6 artois")
    return j


def test_the_other_sides_standing_orders_change_neither_where_a_mail_ends_nor_its_digest(
        tmp_path):
    """'end movement' hands the decision to the Entente (his combat cards): the orders after
    it are left, whether or not his standing orders answer at once and the battle's fire is
    rolled in the same record; then its dice mix in the digest of 'end movement' alone."""
    told = {}
    for name, standing in (("none", ()), ("answers", ("no combat cards", "stand and fight"))):
        j = _artois(tmp_path / name, *standing)
        r = g.submit(j, "german", ["end movement", "done", "pass"], atomic=True,
                     handoff_ends=True, mail=MAIL)
        assert r.rejected is None, r.rejected and str(r.rejected[2])
        told[name] = ([a.text for a in r.applied], r.left, r.not_applied)
        (rec,) = [a.record for a in r.applied]
        if standing:
            assert "FireResolved" in [e["type"] for e in rec["events"]]
            assert rec["dice_from"]["mail"] == lines_digest(["end movement"])
        else:
            assert "dice_from" not in rec
        assert g.verify(j).records > 0
    assert told["none"] == told["answers"] == (["end movement"], (1, "entente"),
                                               ["done", "pass"])


@pytest.mark.parametrize("reader", ["german", "entente", "public"])
def test_a_report_tells_what_a_mail_s_digest_in_the_dice_lets_a_player_check(
        tmp_path, cli, reader):
    """A record whose dice mix in its mail's order lines (store/sheets.py) is told in a
    report, the player's mail, in one sentence of three lines at most (a phone's width):
    plain words first (the German's mail as he sent it fixed the dice; only the moderator
    could change them, by editing it, which its digest shows), then for an
    audit the digest's first digits, for the German's own SHA-256 of those lines, and the
    stream, his count. An audit finds the whole digest and each die in `explain`; `log`,
    read by those who audit, keeps the digest whole."""
    j = _artois(tmp_path / "artois", "no combat cards", "stand and fight")
    r = g.submit(j, "german", ["end movement", "done", "pass"], atomic=True,
                 handoff_ends=True, mail=MAIL)
    (rec,) = [a.record for a in r.applied]
    digest = lines_digest(["end movement"])
    assert rec["dice_from"]["mail"] == digest
    report = cli("report", j, "--as", reader, "--since", str(rec["seq"] - 1)).stdout
    said = f"- Dice fixed by German's mail as sent: only the moderator could change them, " \
        f"by editing it (for an audit: digest {digest[:8]}, keyed " \
        f"{rec['dice_from']['stream']}; explain {rec['seq']})."
    (at,) = [i for i, line in enumerate(report.splitlines()) if line.startswith("- Dice ")]
    told = report.splitlines()[at:at + 3]
    assert " ".join(x.strip() for x in told) == said, told
    assert digest not in report and "mix in the digest" not in report
    assert not re.search(r"[0-9a-f]{32}", report.rpartition("\n\n")[0])
    assert all(len(line) <= 72 for line in report.splitlines()[:-1])
    assert digest in cli("explain", j, str(rec["seq"])).stdout
    assert digest in cli("log", j).stdout


@pytest.mark.parametrize("hexbyte", ["5e", "11"])
def test_an_order_that_rolls_dice_still_ends_a_mail_refused_whole(tmp_path, hexbyte):
    """Whether the decision passes after a roll depends on the roll: a mail with orders
    after one is refused whole, the journal unchanged, whatever the dice (and the same
    words either way: tests/test_pbem_edges.py)."""
    from test_pbem_edges import _battle_game

    journal = _battle_game(tmp_path, hexbyte)
    before = journal.read_bytes()
    r = g.submit(journal, "german", ["done", "pass"], atomic=True, handoff_ends=True)
    assert r.rejected is not None and r.left is None and journal.read_bytes() == before
    assert "needs dice" in str(r.rejected[2])


def test_the_reply_to_an_applied_mail_says_what_of_it_was_not_applied():
    """A 'done' not needed, and the orders after a hand-off, are named in the report that
    answers the mail (its notes), before the prose not read, and after what of it was
    applied (so that its first line does not read as a refusal); the moderator reads what
    was not applied."""
    from referee.game.batch import Applied, Submission
    from referee.mail.handling import _applied
    from referee.mail.inbox import Outcome

    lines = [(2, "place ge infantry metz"), (3, "done"), (4, "play offensive")]
    result = Submission(applied=[Applied("place ge infantry metz", {"seq": 7})],
                        dropped=[(1, "done", "the order before it completed the decision it "
                                  "would have closed; it was not needed and was dropped")],
                        left=(2, "entente"), not_applied=["play offensive"])
    out = Outcome("", "<m@x>", "a@example.org", "known",
                  notes=["Not read as orders (neither applied nor refused): line 1 'Hi'."])
    _applied(out, result, lines)
    assert out.status == "applied" and out.records == [7]
    assert out.notes == [
        "Applied from your mail: 'place ge infantry metz' (#7).",
        "Line 3 ('done'): the order before it completed the decision it would have closed; "
        "it was not needed and was dropped.",
        "Not applied: line 4 'play offensive': the decision had passed to the Entente player "
        "after line 3 ('done'); send them again when you are asked.",
        "Not read as orders (neither applied nor refused): line 1 'Hi'."]
    assert out.reason.startswith("line 3 ('done'): the order before it")


def _crisis_at_declare_battles(tmp: Path) -> Path:
    """TTLM, SUMMER 1914: the German has moved the 1. Armee into Saint-Mihiel against the 3e
    Armée and is to declare his battles (2.0 II.3), holding the Entente Military Crisis!;
    the Entente has more than two units it could remove, so he is asked which (9.8)."""
    tmp.mkdir()
    sc = position("1914", turn=4, player="german",
                  hands={"german": ["off-01", "crisis-entente-01"], "entente": ["ers3-01"]},
                  remove_units=["ge-1", "ge-2", "fr-3"],
                  add_units=["ge-1 ge army metz 3I+2A", "fr-3 fr army st_mihiel 3I"])
    j = case_game(tmp, sc, None, "committed")
    for order in ("play offensive", "move ge-1 st_mihiel", "end movement"):
        assert g.submit(j, "german", [order]).rejected is None
    assert g.open_game(j).state.pending.kind == "declare_battles"
    return j


def test_a_crisis_played_at_a_decision_hands_it_over_and_the_done_after_it_is_kept(tmp_path):
    """9.8: a Military Crisis! played at his own decision hands the decision to the other
    side (the units it removes), then that decision is asked again. The 'done' after it in
    the same mail is still needed: it is left with the rest, as is what follows it, the
    decision having passed after the crisis, not after the 'done'. It read: "the order
    before it completed the decision it would have closed (declare_battles, ...); it was
    not needed and was dropped", the hand-off told after the 'done'."""
    j = _crisis_at_declare_battles(tmp_path / "crisis")
    r = g.submit(j, "german", ["play entente_military_crisis", "done", "fight st_mihiel"],
                 atomic=True, handoff_ends=True, mail=MAIL)
    assert r.rejected is None, r.rejected and str(r.rejected[2])
    assert [a.text for a in r.applied] == ["play entente_military_crisis"]
    assert r.dropped == []
    assert r.left == (1, "entente") and r.not_applied == ["done", "fight st_mihiel"]
    st = g.open_game(j).state
    assert (st.pending.kind, st.pending.side) == ("crisis", "entente")
    assert (st.crisis["resume"], st.crisis["resume_side"]) == ("declare_battles", "german")


def test_a_done_not_needed_is_told_with_the_decision_in_a_player_s_words(tmp_path):
    """The reason a 'done' is dropped names the decision it would have closed as a player
    reads it (game/decisionwords.py), never the engine's name of its kind."""
    from referee.engine.intake import parse_new_order
    from referee.game.batch import _trailing_done

    j = _crisis_at_declare_battles(tmp_path / "words")
    game = g.open_game(j)
    after = game.state.clone()
    after.pending = None                 # the decision is gone: nothing asks it again
    done, play = (parse_new_order(t, game.data) for t in ("done", "play offensive"))
    why = _trailing_done(done, play, ("declare_battles", "german"), after, "german")
    assert why == ("the order before it completed the decision it would have closed (the "
                   "battles declared (2.0 II.3)); it was not needed and was dropped")


def test_a_crisis_asks_for_its_units_without_more_and_says_which_way_the_vp_moves(
        tmp_path, cli):
    """The Entente asked by an Entente Military Crisis! (SPRING 1915: Crisis in Gallipoli,
    one UK infantry-type unit) reads 'choose 1 …', not '1 more' before he has chosen any;
    the record says which way the VP total moves when too few are on the map (3.1: +1 VP,
    the German's, for an Entente crisis not answered)."""
    from referee.engine import pending_prompt

    j = _crisis_at_declare_battles(tmp_path / "crisis")
    assert g.submit(j, "german", ["play entente_military_crisis"]).rejected is None
    game = g.open_game(j)
    asked = pending_prompt(game.state, game.data)
    assert "Crisis in Gallipoli: choose 1 UK infantry-type unit to remove" in asked, asked
    told = " ".join(cli("report", j, "--as", "entente", "--since", "0").stdout.split())
    assert "or, with too few on the map, the VP total rises by 1 (3.1)" in told, told
