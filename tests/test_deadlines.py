"""Deadlines: set at each hand-off, shown in status and mails, reminded, extended, missed.

Time is injected (REFEREE_NOW for the commands, `now` for check_deadlines), never slept
on. The game starts on Monday 23 November 2026 at 18:00 UTC; with `--deadline 48h` the
German player, asked first (2.0 II.1: his card or a pass), owes his answer by Wednesday 25
November 18:00 UTC, worked out here by hand from those two numbers.
"""

from __future__ import annotations

import email
import email.policy
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from commandclock import START, at
from flowtext import written
from forging import game_key, resign
from mailboxes import write_maildir
from mailkinds import first_line
from test_inbox import ADDRESSES, GAME, KEYS, SECRET

import gamecalls as g
from referee.base.clock import NOW_VARIABLE, now
from referee.cli import commands
from referee.engine.core import DECISIONS
from referee.game.decisionwords import WORDS, owed_words
from referee.game.defaults import NOTHING, Answer
from referee.game.timeline import clock_words, settings_fact
from referee.mail.inbox import inbox as mail_inbox
from referee.mail.reminders import check_deadlines
from referee.store.dice import write_secret

DUE = datetime(2026, 11, 25, 18, 0, tzinfo=UTC)            # START + 48h: a Wednesday
DUE_WORDS = "Orders due by Wed 25 Nov 18:00 UTC"


def new_game(tmp_path: Path, cli, *options: str) -> Path:
    """A 1914 game with the players of test_inbox (so their keys), made at START: through
    `referee new` itself with `via_cli`, else through the function it calls with the settings
    it makes of the same options."""
    secret = tmp_path / "fixed.secret"
    write_secret(secret, SECRET)
    journal = tmp_path / "g.jsonl"
    players = [f"{side}={addr}" for side, addr in ADDRESSES.items()]
    if options[:1] == ("via_cli",):
        r = cli("new", journal, "--scenario", "1914", "--game-id", GAME, "--secret-file",
                secret, *[a for p in players for a in ("--player", p)], *options[1:])
        assert r.exit_code == 0, r.output
        return journal
    given = dict(zip(options[::2], options[1::2]))
    clock = settings_fact(given["--deadline"], given.get("--reminders", "24h,2h"),
                          given.get("--missed", "wait"), int(given.get("--extensions", 2)),
                          False) if given else None
    g.create_game(journal, "1914", game_id=GAME, secret_file=secret, players=players,
                  clock=clock)
    return journal


def records(journal: Path) -> list[dict]:
    return [json.loads(line) for line in journal.read_text().splitlines()]


def mails(folder: Path) -> list[email.message.EmailMessage]:
    return [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
            for p in sorted(folder.glob("*.eml"))]


def text_of(mail) -> str:
    return written(mail.get_body(("plain",)).get_content())


def status(cli, journal: Path) -> dict:
    """`status --format json` (its function: the command line's start costs more than it)."""
    return json.loads(commands.status(journal, None, "json"))


def verified(journal: Path) -> bool:
    """Whether `verify` passes (its function; JournalError names the record otherwise)."""
    return g.verify(journal).records > 0


def order(journal: Path, side: str, text: str) -> None:
    assert g.submit(journal, side, [text]).rejected is None


def player_mail(tmp_path: Path, side: str, lines: list[str], n: int) -> Path:
    """A Maildir holding one message of side's with these lines and his order key."""
    body = "\n".join(lines) + f"\n\nOrder key: {KEYS[side]}\n"
    raw = (f"From: {ADDRESSES[side]}\nTo: {ADDRESSES['moderator']}\nSubject: orders\n"
           f"Date: Tue, 24 Nov 2026 10:0{n}:00 +0000\nMessage-ID: <m{n}.{side}@example.org>\n"
           f"\n{body}").encode()
    return write_maildir(tmp_path / f"box{n}", [raw])


# ---------------------------------------------------------------- the clock

def test_referee_now_is_the_time_of_every_record_new_included(tmp_path, cli, clock):
    journal = new_game(tmp_path, cli, "via_cli", "--deadline", "48h")
    recs = records(journal)
    assert recs[0]["created_at"] == "2026-11-23T18:00:00Z"
    assert {r["at"] for r in recs[1:]} == {"2026-11-23T18:00:00Z"}
    clock(START + timedelta(hours=5))
    order(journal, "german", "pass")
    assert records(journal)[-1]["at"] == "2026-11-23T23:00:00Z"


def test_referee_now_with_an_offset_is_read_in_utc(monkeypatch):
    monkeypatch.setenv(NOW_VARIABLE, "2026-11-23T19:00:00+01:00")
    assert now() == START


@pytest.mark.parametrize("bad", ["yesterday", "2026-11-23T18:00:00"])
def test_a_bad_referee_now_is_one_line_and_no_journal(tmp_path, cli, monkeypatch, bad):
    monkeypatch.setenv(NOW_VARIABLE, bad)
    r = cli("new", tmp_path / "g.jsonl", "--scenario", "1914")
    assert r.exit_code == 2
    assert r.stderr.count("\n") == 1 and "REFEREE_NOW" in r.stderr, r.stderr
    assert not (tmp_path / "g.jsonl").exists()


# ---------------------------------------------------------------- deadlines set and shown

def test_no_deadline_unless_given(tmp_path, cli, clock):
    journal = new_game(tmp_path, cli)
    assert "deadlines" not in status(cli, journal)
    assert not any("clock" in r for r in records(journal))
    before = journal.read_bytes()
    assert check_deadlines(journal, tmp_path / "out", START + timedelta(days=30)) == []
    assert journal.read_bytes() == before and not (tmp_path / "out").exists()


def test_each_hand_off_has_its_deadline_in_status_text_and_json(tmp_path, cli, clock):
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    view = status(cli, journal)["deadlines"]
    assert view["due"] == [{"side": "german", "decision": "card_or_pass",
                            "due": "2026-11-25T18:00:00Z", "words": DUE_WORDS, "handoff": 1,
                            "extended": None}]
    assert view["policy"] == "wait" and not view["paused"]
    assert f"German: {DUE_WORDS}." in cli("status", journal).stdout
    # The German passes on Tuesday 10:00: his next decision (2.0 II.1, a pass's move) is a
    # new hand-off, due 48 hours after it.
    clock(datetime(2026, 11, 24, 10, 0, tzinfo=UTC))
    order(journal, "german", "pass")
    [due] = status(cli, journal)["deadlines"]["due"]
    assert (due["side"], due["due"]) == ("german", "2026-11-26T10:00:00Z")
    assert due["handoff"] == records(journal)[-1]["seq"]


def test_a_deadline_on_a_weekend_moves_to_monday_when_asked(tmp_path, cli, clock):
    journal = new_game(tmp_path, cli, "via_cli", "--deadline", "120h", "--skip-weekends")
    [due] = status(cli, journal)["deadlines"]["due"]
    assert due["due"] == "2026-11-30T18:00:00Z"     # Saturday 28th 18:00 -> Monday 30th


def test_the_moderator_changes_the_deadline_of_a_kind_of_decision(tmp_path, cli, clock):
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    r = cli("deadline", journal, "--set", "72h", "--kind", "card_or_pass")
    assert r.exit_code == 0, r.output
    [due] = status(cli, journal)["deadlines"]["due"]
    assert due["due"] == "2026-11-26T18:00:00Z"
    # The players read the kind in words; the command and JSON keep its name.
    assert "deadlines: orders due 72h after each hand-off, for a card to play or a pass " \
        "(2.0 II.1)" in \
        " ".join(cli("log", journal).stdout.split())
    assert "card_or_pass" not in cli("log", journal).stdout
    before = journal.read_bytes()
    r = cli("deadline", journal, "--set", "72h", "--kind", "nonsense")
    assert r.exit_code == 2 and "--kind 'nonsense'" in r.stderr
    assert journal.read_bytes() == before


# ---------------------------------------------------------------- reminders

def test_reminders_go_only_to_the_side_owing_orders_and_once(tmp_path, cli, clock):
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    out = tmp_path / "out"
    assert check_deadlines(journal, out, DUE - timedelta(hours=24, minutes=1)) == []
    for _ in range(2):                       # the second run at the same time does nothing
        log = check_deadlines(journal, out, DUE - timedelta(hours=24))
    assert len(mails(out)) == 1 and log == []
    assert check_deadlines(journal, out, DUE - timedelta(hours=3)) == []
    log = check_deadlines(journal, out, DUE - timedelta(hours=2))
    assert log == ["reminder: the German player, orders due by Wed 25 Nov 18:00 UTC (2h before)"]
    assert check_deadlines(journal, out, DUE - timedelta(hours=1)) == []
    sent = mails(out)
    assert [str(m["To"]) for m in sent] == [ADDRESSES["german"]] * 2
    # The time once, in the first line; no second 'Orders due by' below.
    assert all(first_line(m).startswith("A reminder: your orders are due by Wed 25 Nov 18:00 "
                                        "UTC") and DUE_WORDS not in text_of(m) for m in sent)
    # Read on a phone as the reports are: no line over 72 columns.
    assert all(len(line) <= 72 for m in sent for line in text_of(m).splitlines())
    # The game's default: two extensions a side, none asked yet.
    assert all("(2 extensions left of the 2 this game allows)" in " ".join(text_of(m).split())
               for m in sent)
    assert sum(r.get("clock", {}).get("kind") == "reminded" for r in records(journal)) == 2
    assert verified(journal)



def test_a_reminder_lists_the_orders_open_so_that_it_can_be_answered(tmp_path, cli, clock):
    """A reminder is answered by replying to it (it carries the order key): it lists what
    the player may reply, as the report that asked him did. The German's first decision is
    a card or a pass (2.0 II.1), an armistice or a surrender at any time (3.2, 3.3)."""
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    out = tmp_path / "out"
    check_deadlines(journal, out, DUE - timedelta(hours=2))
    [mail] = mails(out)
    text = text_of(mail)
    flat = " ".join(text.split())
    assert "Reply with one order per line, made from these:" in flat
    assert "Also: pass, propose armistice, surrender" in flat
    assert flat.index("made from these:") < flat.index("More time:") < flat.index("Order key:")
    assert all(len(line) <= 72 for line in text.splitlines())



def test_the_guides_trial_of_deadlines_is_a_game_apart(tmp_path, cli, clock, monkeypatch):
    """docs/moderator.md, Deadlines: deadlines are tried on a game made for the trial, its
    mail kept on this machine, at a time given by REFEREE_NOW; never on a copy of a real
    game, whose route would mail the real players and after which this referee takes the
    real journal for an older copy."""
    import re
    import shutil

    guide = " ".join((Path(__file__).parent.parent / "docs" / "moderator.md").read_text()
                     .split())
    words = re.search(r"`referee new (try\.jsonl [^`]*)`", guide)[1].split()
    assert "outbox:tryout" in words and "--deadline" in words
    monkeypatch.chdir(tmp_path)
    for sub in ("cur", "new", "tmp"):
        (tmp_path / "trymail" / sub).mkdir(parents=True)
    assert cli("new", *words).exit_code == 0
    assert cli("tick", "try.jsonl").exit_code == 0   # the first reports, at the hand-off
    clock(START + timedelta(hours=24))               # 24h before the 48h deadline
    r = cli("tick", "try.jsonl")
    assert r.exit_code == 0 and "reminder: the German player" in r.stdout, r.output
    assert [p.name for p in (tmp_path / "tryout").glob("deadline-*-remind-24h-*.eml")]
    # A copy of it, run later, mails the same players by the same route...
    (tmp_path / "copy").mkdir()
    for name in ("try.jsonl", "try.jsonl.secret"):
        shutil.copy(tmp_path / name, tmp_path / "copy" / name)
    clock(START + timedelta(hours=46))
    r = cli("tick", "copy/try.jsonl")
    assert r.exit_code == 0 and "reminder: the German player" in r.stdout, r.output
    assert [p.name for p in (tmp_path / "tryout").glob("deadline-*-remind-2h-*.eml")]
    # ... and the game itself is then refused as an older copy, nothing written.
    before = (tmp_path / "try.jsonl").read_bytes()
    r = cli("tick", "try.jsonl")
    assert r.exit_code == 3 and "cut back" in r.output
    assert (tmp_path / "try.jsonl").read_bytes() == before


# ---------------------------------------------------------------- extensions

def test_a_player_extends_by_mail_as_often_as_the_game_allows(tmp_path, cli, clock):
    journal = new_game(tmp_path, cli, "--deadline", "48h", "--extensions", "1")
    clock(datetime(2026, 11, 24, 10, 0, tzinfo=UTC))
    box = player_mail(tmp_path, "german", ["extend 24h"], 1)
    outcomes, written = mail_inbox(journal, [box], tmp_path / "out1", with_map=False)
    assert [(o.status, o.side) for o in outcomes] == [("applied", "german")], outcomes
    [due] = status(cli, journal)["deadlines"]["due"]
    assert (due["due"], due["extended"]) == ("2026-11-26T18:00:00Z", "24h")
    german = next(m for m in mails(tmp_path / "out1") if m["To"] == ADDRESSES["german"])
    assert "Orders due by Thu 26 Nov 18:00 UTC." in text_of(german)
    # His mail opens with what his own mail asked: the extension granted, the new time.
    opening = " ".join(text_of(german).split("\n\n")[0].split())
    assert opening == ("Your extension was granted: your orders are now due by Thu 26 Nov "
                       "18:00 UTC (no extension left of the 1 this game allows)."), opening
    # ... and gives that time once above the report: not again in the line under the
    # decision asked (the report's own deadline line, at its end, gives it again).
    above = " ".join(text_of(german).split("TO THE LAST MAN!")[0].split())
    assert above.count("Thu 26 Nov 18:00 UTC") == 1 and "Orders due by" not in above, above
    entente = next(m for m in mails(tmp_path / "out1") if m["To"] == ADDRESSES["entente"])
    assert "extension was granted" not in text_of(entente), text_of(entente)
    # Each mail says what more time he may still ask for: none left of the one allowed.
    assert "You have asked for the 1 extension this game allows" in \
        " ".join(text_of(german).split())
    # Both reports tell the extension among what happened, as `log` does: what it was for
    # in words (the player turn's card or pass, 2.0 II.1), the record that handed it and
    # the time it set; the German reads of his own deadline, the Entente of the German
    # player's, never of a bare 'German's'.
    told = {ADDRESSES["german"]: "Your deadline for your orders for a card to play or a "
                                 "pass (2.0 II.1), handed to you at #1, is 24h later: your "
                                 "orders are now due by Thu 26 Nov 18:00 UTC",
            ADDRESSES["entente"]: "The German player's deadline for his orders for a card "
                                  "to play or a pass (2.0 II.1), handed to him at #1, is "
                                  "24h later: his orders are now due by Thu 26 Nov 18:00 UTC"}
    for m in mails(tmp_path / "out1"):
        assert told[m["To"]] in " ".join(text_of(m).split()), (m["To"], text_of(m))
        assert "German's" not in text_of(m), text_of(m)
        assert all(len(line) <= 72 for line in text_of(m).splitlines())
    logged = " ".join(cli("log", journal).stdout.split())
    assert ("The German player's deadline for his orders for a card to play or a pass "
            "(2.0 II.1), handed to him at #1, is 24h later") in logged, logged
    own = " ".join(cli("log", journal, "--as", "german").stdout.split())
    assert ("Your deadline for your orders for a card to play or a pass (2.0 II.1), handed "
            "to you at #1, is 24h later") in own, own
    # The same mailbox again: nothing twice.
    again, _ = mail_inbox(journal, [box], tmp_path / "out1b", with_map=False)
    assert [o.status for o in again] == ["known"]
    before = journal.read_bytes()
    box = player_mail(tmp_path, "german", ["extend 24h"], 2)
    outcomes, _ = mail_inbox(journal, [box], tmp_path / "out2", with_map=False)
    assert outcomes[0].status == "rejected"
    assert "German has used the 1 extension this game allows" in outcomes[0].reason
    assert journal.read_bytes() == before
    assert verified(journal)


def test_the_moderator_extends_any_deadline(tmp_path, cli, clock):
    journal = new_game(tmp_path, cli, "--deadline", "48h", "--extensions", "0")
    r = cli("extend", journal, "german", "1d12h")
    assert r.exit_code == 0, r.output
    assert "German: Orders due by Fri 27 Nov 06:00 UTC (extended by 36h)" in r.stdout
    before = journal.read_bytes()
    r = cli("extend", journal, "german", "soon")
    assert r.exit_code == 2 and r.stderr.count("\n") == 1 and "not a duration" in r.stderr
    r = cli("extend", journal, "entente", "24h")
    assert r.exit_code == 1 and "Entente owes no orders" in r.stderr
    assert journal.read_bytes() == before
    assert verified(journal)


def test_an_extension_is_told_as_granted_and_in_all(tmp_path, cli, clock):
    """A deadline extended twice, by 36h then by 24h: `extend`, `deadline` and `status` tell
    the extension just granted (24h), and all the time added (60h) as that, in all; they
    said 'extended by 60h', where the reader expects the extension he was just given."""
    journal = new_game(tmp_path, cli, "--deadline", "48h", "--extensions", "0")
    r = cli("extend", journal, "german", "36h")
    assert r.exit_code == 0, r.output
    assert r.stdout.endswith("(extended by 36h)\n"), r.stdout
    r = cli("extend", journal, "german", "24h")
    assert r.exit_code == 0, r.output
    assert r.stdout.endswith("Orders due by Sat 28 Nov 06:00 UTC (extended by 24h, 60h in "
                             "all)\n"), r.stdout
    assert "(extended by 24h, 60h in all)" in cli("deadline", journal).stdout
    status = cli("status", journal, "--as", "german")
    assert "German: Orders due by Sat 28 Nov 06:00 UTC (extended by 24h, 60h in all)." in \
        " ".join(status.stdout.split())
    due = json.loads(cli("status", journal, "--format", "json").stdout)["deadlines"]["due"][0]
    assert (due["extended"], due["last_extension"]) == ("60h", "24h")


# ---------------------------------------------------------------- missed deadlines

def test_default_policy_answers_with_a_pass_and_verify_agrees(tmp_path, cli, clock):
    journal = new_game(tmp_path, cli, "--deadline", "48h", "--missed", "default")
    out = tmp_path / "out"
    # A minute before: the 2h reminder (record 4), late, nothing missed yet.
    assert check_deadlines(journal, out, DUE - timedelta(minutes=1)) == [
        "reminder: the German player, orders due by Wed 25 Nov 18:00 UTC (1m before)"]
    log = check_deadlines(journal, out, DUE)
    assert log == ["missed: the German player's orders were due by Wed 25 Nov 18:00 UTC; "
                   "the referee answered 'pass' for him (rule 2.0 II.1, record 5)"]
    assert check_deadlines(journal, out, DUE) == []
    rec = records(journal)[-1]
    assert (rec["actor"], rec["order"], rec["at"]) == ("german", "pass", at(DUE))
    assert rec["clock"] == {"kind": "missed", "side": "german", "handoff": 1,
                            "due": "2026-11-25T18:00:00Z", "missed": "default",
                            "rule": "2.0 II.1"}
    assert verified(journal)
    logged = " ".join(cli("log", journal).stdout.split())
    assert ("#5 2026-11-25T18:00:00Z German: pass (card or pass) The German player's orders "
            "were due by Wed 25 Nov 18:00 UTC and none came: the referee answered for the "
            "German player with the answer that does nothing (rule 2.0 II.1)") in logged, logged
    own = " ".join(cli("log", journal, "--as", "german").stdout.split())
    assert ("Your orders were due by Wed 25 Nov 18:00 UTC and none came: the referee "
            "answered for you with the answer that does nothing (rule 2.0 II.1)") in own, own
    assert "none came" in " ".join(cli("explain", journal, "5").stdout.split())
    result = {str(m["To"]): text_of(m) for m in mails(out)
              if "orders were due by" in first_line(m)}
    # The players are told; the moderator is not: the game goes on without him.
    assert set(result) == {ADDRESSES["german"], ADDRESSES["entente"]}
    # Each reader's own view: no German card in anybody else's mail.
    game_hand = json.loads(cli("show", journal, "--as", "german", "--format",
                               "json").stdout)["hand"]
    for address, body in result.items():
        if address != ADDRESSES["german"]:
            assert not any(card["id"] in body for card in game_hand)


def test_an_edited_missed_deadline_record_fails_verify(tmp_path, cli, clock):
    journal = new_game(tmp_path, cli, "--deadline", "48h", "--missed", "default")
    check_deadlines(journal, tmp_path / "out", DUE)
    from referee.store.journal import line_of

    recs = records(journal)
    recs[-1]["clock"]["side"] = "entente"        # no longer the actor's own missed deadline
    journal.write_bytes(b"".join(line_of(resign(r)) for r in recs))
    r = cli("verify", journal)
    assert r.exit_code == 3 and "record 4" in r.output, r.output


def test_a_forged_fact_about_time_is_refused_with_its_record(tmp_path, cli, clock):
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    from referee.store.journal import line_of

    recs = records(journal)
    recs.append(resign({"seq": len(recs), "prev": recs[-1]["hash"], "at": at(START),
                      "actor": "moderator", "order": "extend 24h", "events": [],
                      "clock": {"kind": "extend", "by": "24h"}}, game_key(recs[0])))
    journal.write_bytes(b"".join(line_of(r) for r in recs))
    for command in (["verify", journal], ["status", journal], ["extend", journal, "24h"]):
        r = cli(*command)
        assert r.exit_code == 3 and r.stderr.count("\n") == 1, (command, r.output)
        assert "record 4" in r.stderr and "without side, handoff" in r.stderr, r.stderr


@pytest.mark.parametrize("actor,fact,ok", [
    ("moderator", {"kind": "extend", "side": "german", "handoff": 1, "by": "24h"}, True),
    ("german", {"kind": "extend", "side": "german", "handoff": 1, "by": "24h"}, False),
    ("moderator", {"kind": "pause"}, False)])
def test_a_hold_is_named_by_the_moderator_s_extension_alone(tmp_path, cli, clock, actor,
                                                             fact, ok):
    """The hold an extension gives back the time of (ClockFact `hold`, mail/holdtime.py) is
    named by the moderator's extension alone: a side's own extension naming one, or another
    fact naming one, is no record the referee writes."""
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    from referee.store.journal import line_of

    recs = records(journal)
    order = "extend 24h" if fact["kind"] == "extend" else "pause the game"
    recs.append(resign({"seq": len(recs), "prev": recs[-1]["hash"], "at": at(START),
                        "actor": actor, "order": order, "events": [],
                        "clock": {**fact, "hold": "0123456789abcdef"}}, game_key(recs[0])))
    journal.write_bytes(b"".join(line_of(r) for r in recs))
    r = cli("verify", journal)
    if ok:
        assert r.exit_code == 0, r.output
        return
    assert r.exit_code == 3 and r.stderr.count("\n") == 1, r.output
    assert "record 4" in r.stderr and "fact about the game's time" in r.stderr, r.stderr


def test_wait_policy_tells_the_moderator_and_nothing_moves(tmp_path, cli, clock):
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    out = tmp_path / "out"
    log = check_deadlines(journal, out, DUE + timedelta(hours=1))
    assert log == ["missed: the German player's orders were due by Wed 25 Nov 18:00 UTC; "
                   "waiting (the moderator is told)"]
    assert check_deadlines(journal, out, DUE + timedelta(hours=2)) == []
    told = {str(m["To"]): m for m in mails(out) if "orders were due by" in first_line(m)}
    assert sorted(told) == sorted(ADDRESSES.values()), sorted(told)     # each once
    # The players are told the game waits: the German asked for his orders again, with
    # his order key; the Entente told whom it waits on, and no key but his own.
    german, entente = (" ".join(text_of(told[ADDRESSES[s]]).split())
                       for s in ("german", "entente"))
    assert german.startswith("Your orders were due by Wed 25 Nov 18:00 UTC and none came: "
                             "the game waits for them. Send them now: play an "
                             "Offensive-type card or pass"), german
    assert "The moderator is told; he may extend the deadline or give an order for you." \
        in german and f"Order key: {KEYS['german']}" in german, german
    assert entente.startswith("The German player's orders were due by Wed 25 Nov 18:00 UTC "
                              "and none came: the game waits for them. The moderator is told")
    assert KEYS["german"] not in entente and "Send them" not in entente
    mail = told[ADDRESSES["moderator"]]
    # What he may do, each with its command: give the orders, extend, pause. Each command
    # is alone on its line, whole, to be copied (the journal's path of a test is long
    # enough that, wrapped as prose, each was cut in two).
    lines = text_of(mail).split("\n")
    for command in (f"referee order {journal} --as german ...",
                    f"referee extend {journal} german 24h --from-now",
                    f"referee deadline {journal} --pause"):
        assert f"  {command}" in lines, lines
    assert all(len(line) <= 72 for line in lines if not line.startswith("  referee "))
    told = " ".join(lines)
    # The decision in words, as the engine asks it (2.0 II.1), not its kind's name.
    assert "card_or_pass" not in told, told
    assert "none came (the decision: play an Offensive-type card or pass in this player " \
        "turn, SUMMER 1914 (2.0 II.1))." in told, told
    rec = records(journal)[-1]
    assert rec["events"] == [] and rec["clock"]["missed"] == "wait"
    assert status(cli, journal)["waiting_on"] == "german"
    assert verified(journal)
    # His next mail says the time has passed and the game waits, not a due time gone by.
    clock(DUE + timedelta(hours=2))
    mail_inbox(journal, [write_maildir(tmp_path / "none", [])], tmp_path / "mails",
               with_map=False)
    german = " ".join(next(text_of(m) for m in mails(tmp_path / "mails")
                           if m["To"] == ADDRESSES["german"]).split())
    assert "Your orders were due by Wed 25 Nov 18:00 UTC; that time has passed and the game " \
        "waits for them" in german and "Orders due by" not in german


def stranger_mail(tmp_path: Path, n: int) -> Path:
    """A Maildir holding a message from no player, with the game's tag in its Subject."""
    raw = (f"From: spam@elsewhere.example\nTo: {ADDRESSES['moderator']}\n"
           f"Subject: Re: [referee {GAME} #2] offer\nDate: Wed, 25 Nov 2026 19:59:00 +0000\n"
           f"Message-ID: <s{n}@elsewhere.example>\n\nbuy now\n").encode()
    return write_maildir(tmp_path / f"stranger{n}", [raw])


def test_facts_about_time_told_apart_owe_no_report_of_their_own(tmp_path, cli, clock):
    """A reminder goes to the side owing orders, a deadline missed under 'wait' to the
    moderator (reminders.py): the next pass that runs for the game (here for a stranger's
    message) writes no player a report whose only news they are; the next report that
    the game moving owes lists them."""
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    club = "club@example.com"                   # an observer: the public's report, by mail
    assert cli("players", journal, "--set", f"observer={club}").exit_code == 0
    mail_inbox(journal, [write_maildir(tmp_path / "none", [])], tmp_path / "open",
               with_map=False)                                   # the opening reports
    assert {str(m["To"]) for m in mails(tmp_path / "open")} == {ADDRESSES["german"],
                                                                ADDRESSES["entente"], club}
    out = tmp_path / "clock"
    check_deadlines(journal, out, DUE - timedelta(hours=1))           # the 2h reminder
    check_deadlines(journal, out, DUE + timedelta(hours=1))           # missed: waiting
    told = [r["clock"]["kind"] for r in records(journal) if "clock" in r][1:]
    assert told == ["reminded", "missed"], told
    clock(DUE + timedelta(hours=2))
    outcomes, _ = mail_inbox(journal, [stranger_mail(tmp_path, 1)], tmp_path / "spam",
                             with_map=False)
    assert [o.status for o in outcomes] == ["rejected"]
    assert [str(m["To"]) for m in mails(tmp_path / "spam")] == ["spam@elsewhere.example"]
    # The German's orders come: both reports list the facts about time since the last one.
    clock(DUE + timedelta(hours=3))
    box = player_mail(tmp_path, "german", ["pass"], 3)
    outcomes, _ = mail_inbox(journal, [box], tmp_path / "moved", with_map=False)
    assert [o.status for o in outcomes] == ["applied"], outcomes[0].reason
    by = {str(m["To"]): " ".join(text_of(m).split()) for m in mails(tmp_path / "moved")}
    for address in (ADDRESSES["german"], ADDRESSES["entente"], club):
        assert "deadline missed" in by[address].lower(), by[address]


def test_pause_policy_stops_orders_until_the_moderator_resumes(tmp_path, cli, clock):
    journal = new_game(tmp_path, cli, "--deadline", "48h", "--missed", "pause")
    out = tmp_path / "out"
    log = check_deadlines(journal, out, DUE)
    assert log == ["missed: the German player's orders were due by Wed 25 Nov 18:00 UTC; "
                   "the game is paused"]
    assert {str(m["To"]) for m in mails(out)} == set(ADDRESSES.values())
    assert status(cli, journal)["deadlines"]["paused"]
    before = journal.read_bytes()
    clock(DUE)
    r = cli("order", journal, "--as", "german", "pass")
    assert r.exit_code == 1 and "the game is paused" in r.stderr
    assert journal.read_bytes() == before
    assert check_deadlines(journal, out, DUE + timedelta(days=9)) == []    # no deadline runs
    clock(DUE + timedelta(days=1))
    assert cli("deadline", journal, "--resume").exit_code == 0
    [due] = status(cli, journal)["deadlines"]["due"]
    assert due["due"] == "2026-11-28T18:00:00Z"             # 48h from the resume
    order(journal, "german", "pass")
    assert verified(journal)


def test_a_paused_game_shows_no_deadline_running_or_missed(tmp_path, cli, clock):
    """The moderator pauses the game before the German's deadline: no deadline runs until
    he resumes it, which runs them again from then. status (JSON and text) and `deadline`
    say the game is paused and show no due time: not the one the walk had, before it nor
    after it, when they said it was missed and the game waited for the German."""
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    clock(datetime(2026, 11, 24, 10, 0, tzinfo=UTC))
    assert cli("deadline", journal, "--pause").exit_code == 0
    for when in (DUE - timedelta(hours=1), DUE + timedelta(days=2)):
        clock(when)
        view = status(cli, journal)["deadlines"]
        assert view["paused"] and view["due"] == [], view
        r = cli("deadline", journal, "--format", "json")
        assert r.exit_code == 0 and json.loads(r.stdout)["due"] == [], r.output
        for args in (("status", journal), ("deadline", journal)):
            r = cli(*args)
            said = " ".join(r.stdout.split())
            assert r.exit_code == 0 and "paused" in said, r.output
            assert "Orders due" not in said and "missed" not in said, said


# ---------------------------------------------------------------- mails

def test_the_deadline_is_in_the_mail_of_the_side_owing_orders_only(tmp_path, cli, clock):
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    clock(datetime(2026, 11, 24, 10, 0, tzinfo=UTC))
    box = player_mail(tmp_path, "german", ["play offensive"], 1)
    outcomes, _ = mail_inbox(journal, [box], tmp_path / "out", with_map=False)
    assert outcomes[0].status == "applied", outcomes[0].reason
    by = {str(m["To"]): text_of(m) for m in mails(tmp_path / "out")}
    # The German still moves (2.0 II.2): a new hand-off, due 48h after his mail was applied.
    assert "Orders due by Thu 26 Nov 10:00 UTC." in by[ADDRESSES["german"]]
    # The Entente owes nothing: no time of his own, the German's as the side waited on.
    assert not any(line.startswith("Orders due") for line in
                   by[ADDRESSES["entente"]].splitlines())
    assert "German: Orders due by Thu 26 Nov 10:00 UTC." in by[ADDRESSES["entente"]]
    assert "2 extensions left" in " ".join(by[ADDRESSES["german"]].split())
    assert all(len(line) <= 72 for line in by[ADDRESSES["german"]].splitlines())
    assert "left of the 2 this game allows" not in " ".join(by[ADDRESSES["entente"]].split())
    # Both are told the game's clock, once, in the report of the record that set it.
    for text in by.values():
        assert "a missed deadline: wait; 2 extensions a side" in " ".join(text.split())


def test_a_sealed_answer_given_for_a_silent_side_stays_sealed_from_the_others(tmp_path, cli,
                                                                           clock):
    # Both sides silent: the referee passes for each in turn (2.0 II.1) up to production,
    # where each side's plan is sealed (7.0) and the German's empty plan is his secret.
    journal = new_game(tmp_path, cli, "--deadline", "48h", "--missed", "default")
    out, moment = tmp_path / "out", DUE
    while not any(r.get("private_order") for r in records(journal)):
        assert check_deadlines(journal, out, moment), "the referee stopped answering"
        moment += timedelta(hours=49)
    rec = next(r for r in records(journal) if r.get("private_order"))
    assert (rec["actor"], rec["order"]) == ("german", "a sealed production plan (7.0)")
    assert rec["private_order"]["data"] == {"text": "done"}
    # The pass that answered the German's plan answered the Entente's too (one deadline for
    # both): each mail of it is told as of its last record; the German's missed plan is the
    # last "german missed" mail of each reader.
    by = {str(m["To"]): text_of(m) for m in mails(out)
          if first_line(m).startswith("The German player's orders were due") or (
              str(m["To"]) == ADDRESSES["german"] and
              first_line(m).startswith("Your orders were due"))}
    assert "'done', the answer that does nothing" in by[ADDRESSES["german"]]
    assert "'done'" not in by[ADDRESSES["entente"]]
    assert "does nothing" not in by[ADDRESSES["entente"]]
    assert "a sealed production plan (7.0)" in by[ADDRESSES["entente"]]
    public_log = cli("log", journal).stdout
    assert "does nothing" not in public_log.split(f"#{rec['seq']} ")[1].split("\n#")[0]
    assert verified(journal)


def to_production(journal: Path) -> None:
    """Both sides pass and end the turn's movement at START: production follows, where both
    sides plan at once, each plan sealed until both are in (2.0 I, 7.0)."""
    for side in ("german", "entente"):
        order(journal, side, "pass")
        order(journal, side, "end turn")


def test_a_sealed_plan_runs_one_deadline_for_both_sides(tmp_path, cli, clock):
    journal = new_game(tmp_path, cli, "--deadline", "48h", "--missed", "default")
    to_production(journal)
    asked = records(journal)[-1]["seq"]
    both = {(d["side"], d["due"], d["handoff"]) for d in status(cli, journal)["deadlines"]["due"]}
    assert both == {("german", at(DUE), asked), ("entente", at(DUE), asked)}
    # The German's plan goes in on Tuesday: the Entente is asked nothing new, and his plan
    # stays due when it was (the other side's plan closing changes what he is told, not
    # what he owes).
    clock(datetime(2026, 11, 24, 10, 0, tzinfo=UTC))
    order(journal, "german", "done")
    [due] = status(cli, journal)["deadlines"]["due"]
    assert (due["side"], due["due"], due["handoff"]) == ("entente", at(DUE), asked)


def test_both_sides_missing_a_sealed_plan_are_answered_for_together(tmp_path, cli, clock):
    journal = new_game(tmp_path, cli, "--deadline", "48h", "--missed", "default")
    to_production(journal)
    log = check_deadlines(journal, tmp_path / "out", DUE + timedelta(minutes=20))
    missed = [line for line in log if line.startswith("missed: ")]
    assert [line.split("'s orders")[0] for line in missed] == ["missed: the German player",
                                                       "missed: the Entente player"]
    assert all("orders were due by Wed 25 Nov 18:00 UTC" in line for line in missed), log
    assert verified(journal)


def test_a_sealed_plans_deadline_an_older_referee_extended_stays_extended(tmp_path, cli,
                                                                         clock):
    """Before a sealed plan ran one deadline for both sides, the German's plan going in was a
    new hand-off for the Entente, and the referee wrote its facts about time against that
    record: here the moderator's extension of it. A journal holding such a fact keeps that
    hand-off, so the time granted is not taken back: the Entente stays due when the old
    referee told him (Thursday 10:00 plus 24h), not on Wednesday, his plan ruled missed."""
    from referee.store.journal import line_of

    journal = new_game(tmp_path, cli, "--deadline", "48h")
    to_production(journal)
    clock(datetime(2026, 11, 24, 10, 0, tzinfo=UTC))
    order(journal, "german", "done")
    plan = records(journal)[-1]["seq"]
    recs = records(journal)
    recs.append(resign({"seq": len(recs), "prev": recs[-1]["hash"],
                        "at": "2026-11-24T11:00:00Z", "actor": "moderator",
                        "order": "extend 24h", "events": [],
                        "clock": {"kind": "extend", "side": "entente", "handoff": plan,
                                  "by": "24h"}}, game_key(recs[0])))
    journal.write_bytes(b"".join(line_of(r) for r in recs))
    friday = datetime(2026, 11, 27, 10, 0, tzinfo=UTC)
    for _ in range(2):                                  # read whole, then from the snapshot
        [due] = status(cli, journal)["deadlines"]["due"]
        assert (due["side"], due["due"], due["handoff"]) == ("entente", at(friday), plan), due
    assert "missed" not in " ".join(check_deadlines(journal, tmp_path / "out",
                                                    DUE + timedelta(hours=2)))
    assert verified(journal)


def test_a_run_cut_off_after_the_answer_writes_its_mails_on_the_next_run_once(
        tmp_path, cli, clock, monkeypatch):
    from referee.mail import reminders

    journal = new_game(tmp_path, cli, "--deadline", "48h", "--missed", "default",
                       "--reminders", "")
    out = tmp_path / "out"
    real = reminders._tell_answered

    def cut_off(*args, **kwargs):
        raise KeyboardInterrupt             # the run dies between the record and its mails

    monkeypatch.setattr(reminders, "_tell_answered", cut_off)
    with pytest.raises(KeyboardInterrupt):
        check_deadlines(journal, out, DUE)
    assert records(journal)[-1]["clock"]["missed"] == "default" and not list(out.glob("*"))
    monkeypatch.setattr(reminders, "_tell_answered", real)
    assert check_deadlines(journal, out, DUE + timedelta(minutes=5)) == []
    written = sorted(p.name for p in out.glob("*.eml"))
    assert written == [f"deadline-000004-german-answered-{r}.eml"
                       for r in ("entente", "german")]
    for p in out.glob("*.eml"):          # the moderator's mail program takes them away
        p.unlink()
    assert check_deadlines(journal, out, DUE + timedelta(minutes=10)) == []
    assert not list(out.glob("*.eml"))


@pytest.mark.parametrize("options, says", [
    (["--deadline", "48h", "--missed", "never"], "--missed 'never': choose default, wait or "
                                                 "pause"),
    (["--deadline", "0h"], "--deadline '0h': must be more than nothing"),
    (["--deadline", "48h", "--reminders", "24h,soon"], "--reminders 'soon': not a duration"),
    (["--missed", "default"], "go with --deadline"),
])
def test_bad_deadline_options_at_new_are_one_line_and_no_journal(tmp_path, cli, clock,
                                                                 options, says):
    r = cli("new", tmp_path / "g.jsonl", "--scenario", "1914", *options)
    assert r.exit_code == 2 and r.stderr.count("\n") == 1 and says in r.stderr, r.stderr
    assert not list(tmp_path.iterdir())


def test_an_answer_the_referee_cannot_give_leaves_the_game_waiting_once(
        tmp_path, cli, clock, monkeypatch):
    from referee.mail import reminders

    journal = new_game(tmp_path, cli, "--deadline", "48h", "--missed", "default",
                       "--reminders", "")
    # An answer the rules refuse where the German is asked for his card (2.0 II.1).
    monkeypatch.setattr(reminders, "default_answer",
                        lambda *a: Answer("end movement", "2.0 II.1", NOTHING))
    out = tmp_path / "out"
    [line] = check_deadlines(journal, out, DUE)
    assert line.startswith("missed: the German player's orders were due by Wed 25 Nov 18:00 "
                           "UTC; waiting")
    assert check_deadlines(journal, out, DUE + timedelta(hours=1)) == []
    rec = records(journal)[-1]
    assert rec["clock"]["missed"] == "wait" and rec["events"] == []
    told = {str(m["To"]): m for m in mails(out)}
    assert sorted(told) == sorted(ADDRESSES.values())             # each once
    mail = told[ADDRESSES["moderator"]]
    assert "the referee could not answer for German" in " ".join(text_of(mail).split())
    assert "the game waits for them" in " ".join(text_of(told[ADDRESSES["german"]]).split())
    assert status(cli, journal)["waiting_on"] == "german"


def test_a_reply_quoting_a_reminder_is_the_side_s_mail(tmp_path, cli, clock):
    """A reminder ends with the side's order key, as a report does (it goes to his own
    address only), so a player who answers it by quoting it is known by his address and key
    without typing the key: here he asks for more time."""
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    out = tmp_path / "out"
    check_deadlines(journal, out, DUE - timedelta(hours=2))
    (reminder,) = mails(out)
    body = text_of(reminder)
    assert f"Order key: {KEYS['german']}" in body and KEYS["entente"] not in body
    quoted = "\n".join(f"> {line}" for line in body.splitlines())
    raw = (f"From: {ADDRESSES['german']}\nTo: {ADDRESSES['moderator']}\n"
           f"Subject: Re: {reminder['Subject']}\nDate: Wed, 25 Nov 2026 16:30:00 +0000\n"
           f"Message-ID: <re-reminder@example.org>\n\nextend 24h\n\nOn Wed, the referee "
           f"wrote:\n{quoted}\n").encode()
    box = write_maildir(tmp_path / "reply", [raw])
    clock(DUE - timedelta(hours=1))
    outcomes, _ = mail_inbox(journal, [box], tmp_path / "out2", with_map=False)
    assert [(o.status, o.side) for o in outcomes] == [("applied", "german")], outcomes
    [due] = status(cli, journal)["deadlines"]["due"]
    assert due["extended"] == "24h"


def test_a_side_named_like_an_observer_is_never_taken_for_one():
    """A deadline's mails go to every reader: the sides by name, the observers by their
    addresses. A side the game data calls `observer0` is that side, and an observer is
    never a side: so a side's mail (which ends with its order key) never goes to an
    observer."""
    from types import SimpleNamespace

    from referee.mail.deadlinepost import address_of, everyone

    post = SimpleNamespace(observers=["watcher@example.org"],
                           address={"observer0": "side@example.org"}.get)
    tl = SimpleNamespace(data=SimpleNamespace(sides=("observer0", "central")))
    readers = everyone(tl, post)
    assert readers[:2] == ["observer0", "central"] and len(readers) == 4
    assert address_of(post, "observer0") == "side@example.org"
    assert address_of(post, readers[-1]) == "watcher@example.org"


def test_an_observer_is_the_same_reader_of_a_deadline_s_mails_when_one_before_him_goes():
    """The name of a deadline's mail holds its reader: an observer named by his place in
    the list became the one before him once that one was removed, found that mail written
    already and was never told. He is named by his address (its case aside)."""
    from types import SimpleNamespace

    from referee.mail.deadlinepost import address_of, everyone

    tl = SimpleNamespace(data=SimpleNamespace(sides=("german", "entente")))
    both = SimpleNamespace(observers=["club@example.org", "press@example.net"],
                           address=lambda side: None)
    later = SimpleNamespace(observers=["Press@Example.net"], address=lambda side: None)
    before, after = everyone(tl, both)[-1], everyone(tl, later)[-1]
    assert before == after and everyone(tl, both)[-2] != after
    assert address_of(later, after) == "Press@Example.net"
    assert address_of(later, everyone(tl, both)[-2]) is None


@pytest.mark.parametrize("line", ["play offensive", "extend 24h"])
def test_a_paused_game_s_mails_ask_for_no_orders_and_name_no_command(tmp_path, cli, clock,
                                                                     line):
    """While the game is paused no orders are taken (the moderator's pause): a player's mail,
    orders or more time, is refused saying so in words he can act on (he runs no command:
    the moderator resumes it), and no report offers him orders to reply with."""
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    clock(datetime(2026, 11, 24, 10, 0, tzinfo=UTC))
    assert cli("deadline", journal, "--pause").exit_code == 0
    box = player_mail(tmp_path, "german", [line], 1)
    before = journal.read_bytes()
    outcomes, _ = mail_inbox(journal, [box], tmp_path / "out", with_map=False)
    assert [(o.status, o.side) for o in outcomes] == [("rejected", "german")], outcomes
    assert journal.read_bytes() == before
    by = {str(m["To"]): text_of(m) for m in mails(tmp_path / "out")}
    for text in by.values():
        flat = " ".join(text.split())
        assert "JOURNAL" not in text and "--resume" not in text, text
        assert "Reply with one order per line" not in flat, text
        assert "Orders you may give at any time" not in flat, text
        assert "orders open to you" not in flat, text
    refusal = " ".join(by[ADDRESSES["german"]].split())
    assert "paused" in refusal and "until the moderator resumes it" in refusal, refusal
    assert ("Your decision once the game resumes: play an Offensive-type card or pass in "
            "this player turn, SUMMER 1914 (2.0 II.1)") in refusal, refusal
    assert refusal.count("The game is paused: no orders are taken until") == 1, refusal
    # The moderator at his command line is told how to resume it.
    r = cli("order", journal, "--as", "german", "pass")
    assert r.exit_code == 1 and f"`referee deadline {journal} --resume`" in r.stderr, r.stderr


# ---------------------------------------------------------------- a game closed by its reveal

def test_a_game_closed_by_a_forced_reveal_keeps_no_deadline_and_takes_no_record(
        tmp_path, cli, clock):
    """`reveal --force` closes the game (docs/moderator.md): no record may follow the reveal,
    or `verify` fails the journal (its dice were predictable). So no reminder or missed
    deadline is written after it, whatever the time, a player's mail is answered without a
    record, no moderator's command writes one, and the players' report says the game is
    closed rather than asking orders with a deadline."""
    maildir = write_maildir(tmp_path / "box", [])
    journal = new_game(tmp_path, cli, "via_cli", "--deadline", "48h", "--mail-in", maildir,
                       "--mail-out", f"outbox:{tmp_path / 'out'}")
    assert cli("reveal", journal, "--force").exit_code == 0
    closed = journal.read_bytes()
    for hours in (24, 47, 49, 72):                  # reminders, then the deadline missed
        clock(START + timedelta(hours=hours))
        r = cli("tick", journal)
        assert r.exit_code == 0, r.output
        assert journal.read_bytes() == closed
    sent = set((tmp_path / "out").glob("*.eml"))
    for mail in (player_mail(tmp_path, "german", ["pass"], 1) / "new").iterdir():
        (maildir / "new" / mail.name).write_bytes(mail.read_bytes())
    assert cli("tick", journal).exit_code == 0
    assert journal.read_bytes() == closed
    answer = [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
              for p in set((tmp_path / "out").glob("*.eml")) - sent]
    assert [str(m["To"]) for m in answer] == [ADDRESSES["german"]]
    for command in (("players", journal, "--set", "observer=press@example.org"),
                    ("players", journal, "--new-key", "german"),
                    ("mail", journal, "--from", "referee@example.org"), ("rekey", journal)):
        r = cli(*command)
        assert r.exit_code == 2 and "revealed the dice secret" in r.stderr, r.output
        assert journal.read_bytes() == closed
    assert verified(journal)
    report = " ".join(cli("report", journal, "--as", "german").stdout.split())
    assert "no orders are taken any more" in report
    assert "Orders due by" not in report and "Reply with one order" not in report


def test_a_message_applied_as_one_record_is_told_as_one(tmp_path, cli, clock):
    """`inbox` (and each pass of `tick`) names the records a message was applied as: 'record
    4' for one (an extension asked by mail), 'records 4, 5' for several."""
    journal = new_game(tmp_path, cli, "via_cli", "--deadline", "48h")
    clock(datetime(2026, 11, 24, 10, 0, tzinfo=UTC))
    box = player_mail(tmp_path, "german", ["extend 24h"], 1)
    r = cli("inbox", journal, box, "--outbox", tmp_path / "out")
    assert r.exit_code == 0, r.output
    seq = records(journal)[-1]["seq"]
    assert f"(german): record {seq}\n" in r.stdout, r.stdout
    box = player_mail(tmp_path, "german", ["pass", "end turn"], 2)
    r = cli("inbox", journal, box, "--outbox", tmp_path / "out")
    assert f"(german): records {seq + 1}, {seq + 2}\n" in r.stdout, r.stdout


@pytest.mark.parametrize("kind", sorted(DECISIONS))
def test_every_kind_of_decision_is_told_in_words_with_its_rule(kind):
    """An extension, a deadline set for a kind and the moderator's missed-deadline mail
    named a decision by the engine's name with its underscores read as spaces: 'its eft
    losses orders', 'a discard excess decision', 'retreat after'. Each kind says what is
    decided, in words, and the rule that asks it (the engine's, as its prompt cites it)."""
    extended = clock_words({"clock": {"kind": "extend", "side": "german", "handoff": 7,
                                      "by": "24h"}}, asked=kind)
    settings = clock_words({"clock": {"kind": "settings", "deadline": "48h",
                                      "decision": kind}})
    words = WORDS[kind]         # each kind has its words: a new kind fails here
    for said in (extended, settings, owed_words(None, None, "german", kind)):
        assert "_" not in said and f"{words} ({DECISIONS[kind].rule})" in said, said
