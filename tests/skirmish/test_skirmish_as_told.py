"""What a duel's mails, reports and status tell as the game goes: the orders open to a side
(those that can be legal), the forces, a ruling and what it changed, an order the moderator
entered for a side, and the game's end (and its end undone by a ruling)."""

from __future__ import annotations

import json
import re

from mailboxes import write_maildir
from skirmish_cases import DUEL, done_until, new_mails
from test_skirmish_mail import BRITISH, GERMAN, UMPIRE, mail

FIRE = "fire G1 at=B1 range=10 state=halted cover=none command=yes"


def duel(cli, tmp_path, dice: tuple = ("--dice", "manual")) -> tuple:
    """A new duel played by mail (manual dice, unless told), in its first fire phase: its
    journal, the outbox and the order keys."""
    (tmp_path / "duel.yaml").write_text(DUEL, encoding="utf-8")
    j, out = tmp_path / "d.jsonl", tmp_path / "out"
    r = cli("new", j, "--game", "skirmish", "--scenario", tmp_path / "duel.yaml", *dice,
            "--player", f"british={BRITISH}", "--player", f"german={GERMAN}",
            "--player", f"moderator={UMPIRE}")
    assert r.exit_code == 0, r.output
    keys = json.loads(cli("skirmish", "keys", j, "--format", "json").stdout)["keys"]
    done_until(cli, j, "fire")
    return j, out, keys


def mails_of_pass(cli, j, out, *sent) -> dict[str, str]:
    """The mails one `inbox` pass writes (of the mails sent, none: an empty folder), by
    their reader's address."""
    before = set(out.glob("*.eml")) if out.exists() else set()
    box = write_maildir(out.parent / f"box{len(before)}", []) if not sent else sent[0]
    r = cli("inbox", j, box, "--outbox", out)
    assert r.exit_code == 0, r.output
    return new_mails(out, before)


def test_a_side_whose_figure_fired_is_offered_no_fire(cli, tmp_path):
    j, out, _ = duel(cli, tmp_path)
    r = cli("order", j, "--as", "german", "fire G1 at=B1 range=10 state=halted cover=none",
            "--dice", "1")
    assert r.exit_code == 0, r.output
    told = mails_of_pass(cli, j, out)
    german, british = told[GERMAN], told[BRITISH]
    assert german.startswith("Your decision: turn 1, fire phase"), german
    assert "\n  fire FIGURE" not in german and "\n  unaimed FIGURE" not in german, german
    assert "\n  spot FIGURE" in german and "\n  done" in german, german
    # The British figure has not fired: both are open to him.
    assert "\n  fire FIGURE" in british and "\n  unaimed FIGURE" in british, british
    # And refused as the mail says: G1 may not fire again.
    r = cli("order", j, "--as", "german", "unaimed G1 at=B1 range=10 cover=none",
            "--dice", "1")
    assert r.exit_code != 0 and "G1 has fired this turn" in r.output, r.output


def test_a_killed_figure_is_shown_without_its_pins(cli, tmp_path):
    j, out, _ = duel(cli, tmp_path)
    r = cli("order", j, "--as", "german", "fire G1 at=B1 range=10 state=halted cover=none",
            "--dice", "16")
    assert r.exit_code == 0 and "B1 pinned" in r.stdout, r.output
    assert "B1 regular rifle, squad leader: active, 1 pin" in \
        cli("skirmish", "report", j).stdout
    done_until(cli, j, "fire", turn=2)
    r = cli("order", j, "--as", "german", FIRE, "--dice", "18")
    assert r.exit_code == 0 and "B1 killed" in r.stdout, r.output
    report = cli("skirmish", "report", j).stdout
    assert "B1 regular rifle, squad leader: killed\n" in report, report
    assert "B1 regular rifle, squad leader: killed\n" in mails_of_pass(cli, j, out)[GERMAN]


def test_status_of_an_ended_duel_says_who_won(cli, tmp_path):
    j, _, _ = duel(cli, tmp_path)
    r = cli("order", j, "--as", "german", FIRE, "--dice", "18")
    assert r.exit_code == 0 and "B1 killed" in r.stdout, r.output
    text = cli("status", j).stdout
    assert "The game is over: the German side won." in text, text
    assert "Waiting on" not in text and "fire phase" not in text, text
    doc = json.loads(cli("status", j, "--format", "json").stdout)
    assert doc["game_over"] and doc["prompt"].startswith("The game is over: the German side won")


def test_a_new_skirmish_says_its_mail_route(cli, tmp_path):
    (tmp_path / "duel.yaml").write_text(DUEL, encoding="utf-8")
    (tmp_path / "box").write_text("", encoding="utf-8")      # an mbox with no mail yet
    route = ("--mail-in", str(tmp_path / "box"), "--mail-out", f"outbox:{tmp_path / 'out'}",
             "--from", "referee@example.com")
    r = cli("new", tmp_path / "d.jsonl", "--game", "skirmish", "--scenario",
            tmp_path / "duel.yaml", *route)
    assert r.exit_code == 0, r.output
    assert f"; mail out: outbox:{tmp_path / 'out'}; mail from: " \
           f"referee@example.com" in r.stdout, r.stdout
    r = cli("new", tmp_path / "e.jsonl", "--game", "skirmish", "--scenario",
            tmp_path / "duel.yaml", "--format", "json", *route)
    doc = json.loads(r.stdout)
    assert doc["mail_in"].endswith("box") and doc["mail_from"] == "referee@example.com", doc
    r = cli("new", tmp_path / "f.jsonl", "--game", "skirmish", "--scenario",
            tmp_path / "duel.yaml")
    assert "mail in:" not in r.stdout, r.stdout


def killed_and_disputed(cli, tmp_path) -> tuple:
    """A duel whose German shot (record 5) killed the British figure, then disputed by the
    British by mail (its range 90, past a rifle's 80"): its journal, outbox, maildir and keys."""
    j, out, keys = duel(cli, tmp_path)
    r = cli("order", j, "--as", "german", FIRE, "--dice", "18")
    assert r.exit_code == 0 and "#5 German" in r.stdout and "B1 killed" in r.stdout, r.output
    assert "The game is over" in mails_of_pass(cli, j, out)[UMPIRE]
    box = tmp_path / "box"
    box.mkdir()
    told = mails_of_pass(cli, j, out, mail(box, 1, BRITISH, keys["british"],
                                           "dispute record=5 fact=range value=90"))
    assert told[UMPIRE].startswith("Disputes for you to settle: record 5's range."), told
    return j, out, box, keys


def settled_by_mail(cli, tmp_path) -> tuple:
    """killed_and_disputed, then the moderator's ruling by mail (range 90: the shot is void
    and B1 lives): its journal, outbox, maildir, keys and the mails of that pass."""
    j, out, box, keys = killed_and_disputed(cli, tmp_path)
    told = mails_of_pass(cli, j, out, mail(box, 2, UMPIRE, keys["moderator"],
                                           "settle record=5 fact=range value=90"))
    return j, out, box, keys, told


def test_a_settled_test_shows_its_facts_as_ruled_and_what_the_ruling_changed(cli, tmp_path):
    j, _, _, _, told = settled_by_mail(cli, tmp_path)
    line = "#5 German: fire G1 at=B1 range=90 state=halted cover=none command=yes " \
        "[settled: range 10 → 90 by the moderator's ruling, #7]"
    for text in (*told.values(), cli("skirmish", "report", j).stdout):
        assert line in " ".join(text.split()) and "range=10" not in text, text
    test = json.loads(cli("skirmish", "report", j, "--format", "json").stdout)["tests"][0]
    assert test["ruling"] == {"records": [7], "changed": {"range": [10, 90]}}, test
    assert test["order"] == FIRE and test["facts"]["range"] == 90, test


def test_an_order_the_moderator_entered_for_a_side_is_flagged(cli, tmp_path):
    j, out, keys = duel(cli, tmp_path, ())         # dice from the secret: a mail rolls
    spot = "spot G1 at=B1 range=10 light=day state=halted cover=none"   # seen: no die
    r = cli("order", j, "--as", "german", spot)
    assert r.exit_code == 0, r.output
    box = tmp_path / "box"
    box.mkdir()
    told = mails_of_pass(cli, j, out, mail(box, 1, BRITISH, keys["british"],
                                           "fire B1 at=G1 range=10 state=halted cover=none"))
    # Every reader is shown the same: the German's test typed at the referee, flagged; the
    # British one, from his mail, not.
    hand = f"#5 German: {spot} — ⚑ entered by hand at the referee"
    for text in (*told.values(), cli("skirmish", "report", j).stdout):
        assert hand in " ".join(text.split()), text
    assert "#6 British" in told[BRITISH] and told[BRITISH].count("⚑") == 1, told[BRITISH]
    tests = json.loads(cli("skirmish", "report", j, "--format", "json").stdout)["tests"]
    assert [t.get("by_hand") for t in tests] == [True, None], tests


def test_a_skirmish_played_at_the_referee_flags_nothing(cli, tmp_path):
    (tmp_path / "duel.yaml").write_text(DUEL, encoding="utf-8")
    j = tmp_path / "d.jsonl"
    assert cli("new", j, "--game", "skirmish", "--scenario", tmp_path / "duel.yaml",
               "--dice", "manual").exit_code == 0
    done_until(cli, j, "fire")
    assert cli("order", j, "--as", "german", FIRE, "--dice", "1").exit_code == 0
    assert "⚑" not in cli("skirmish", "report", j).stdout


def _answer(told: dict, address: str) -> str:
    return told[address].split("\n\nReport for ")[0]


def test_the_moderator_s_answer_says_what_his_ruling_did(cli, tmp_path):
    j, _, _, _, told = settled_by_mail(cli, tmp_path)
    answer = " ".join(_answer(told, UMPIRE).split())
    assert answer.startswith("Your mail was recorded: #7"), answer
    assert "#7 moderator: settle record=5 fact=range value=90: #5 decided again, its new " \
        "result: #5 German: fire G1 at=B1 range=90" in answer, answer
    # A void shot leads with void and keeps no modifier: it never counted (card voids_told).
    assert re.search(r"\] void: out of range: a Rifle reaches 80\", the target is at 90\"; "
                     r"D20=\d+ counted for nothing \(Aimed Fire \(D20\)\)",
                     answer.replace("— ⚑ entered by hand at the referee ", "")), answer
    assert "-> void" not in answer and "modifiers" not in answer, answer
    # The report after it does not list the test again.
    report = told[UMPIRE].split("\n\nReport for ")[1]
    assert "#5 German" not in report and "dispute of #5" in report, report


def test_the_moderator_s_answer_says_an_uphold(cli, tmp_path):
    j, out, box, keys = killed_and_disputed(cli, tmp_path)
    told = mails_of_pass(cli, j, out, mail(box, 2, UMPIRE, keys["moderator"],
                                           "settle record=5 uphold=yes"))
    answer = " ".join(_answer(told, UMPIRE).split())
    assert "#7 moderator: settle record=5 uphold=yes: #5's facts upheld; its result " \
        "stands: B1 killed" in answer, answer



UNDONE = "The end is undone: the moderator's ruling #7 on #5 decided again the test that " \
    "ended the game, and the game goes on."


def test_every_mail_of_a_ruling_that_undid_the_end_says_so_first(cli, tmp_path):
    j, _, _, _, told = settled_by_mail(cli, tmp_path)
    assert set(told) == {BRITISH, GERMAN, UMPIRE}, told.keys()
    for address in (BRITISH, GERMAN):
        assert " ".join(told[address].split()).startswith(UNDONE), told[address]
    answer = " ".join(told[UMPIRE].split())
    assert answer.startswith(f"Your mail was recorded: #7 {UNDONE} #7 moderator: settle"), \
        answer
    assert answer.count("The end is undone") == 1, answer      # not again in his report


def test_the_settle_typed_at_the_referee_says_the_end_is_undone(cli, tmp_path):
    j, _, _, _ = killed_and_disputed(cli, tmp_path)
    r = cli("skirmish", "order", j, "--as", "moderator", "settle record=5 fact=range value=90")
    assert r.exit_code == 0, r.output
    assert " ".join(r.stdout.split()).startswith(
        f"{UNDONE} #7 moderator: settle record=5 fact=range value=90: #5 decided again"), \
        r.stdout


def test_a_game_ended_again_after_its_end_was_undone_is_told_again(cli, tmp_path):
    j, out, box, keys, _ = settled_by_mail(cli, tmp_path)
    done_until(cli, j, "fire", turn=2)
    r = cli("order", j, "--as", "german", FIRE, "--dice", "18")
    assert r.exit_code == 0 and "B1 killed" in r.stdout, r.output
    assert not list(out.glob("ended-*.eml"))   # the first end: told in his report
    killing = json.loads(cli("status", j, "--format", "json").stdout)["seq"]
    told = mails_of_pass(cli, j, out)
    # The new end is another record (the ledger's end mark is the ending record's): the
    # moderator is mailed it.
    (ended,) = out.glob("ended-*.eml")
    assert ended.name.startswith(f"ended-{killing:06d}-"), ended.name
    assert " ".join(told[UMPIRE].split()).startswith(
        "The game is over: the German side won."), told[UMPIRE]
    for address in (BRITISH, GERMAN):
        assert "The game is over" in told[address] and "undone" not in told[address]
    assert "The game is over: the German side won." in cli("status", j).stdout

