"""A player's mails read by one pass are applied, and answered, in the order he sent them.

The AT ALL COSTS! 1914 game by mail (its German at hans@example.org, `--deadline 48h`,
a Maildir in, an `outbox:DIR` out), begun at START; `tick` runs with REFEREE_NOW. The
German sends a mail with an order that cannot be read, then a corrected one a minute later
(2.0 II.1: he may play an Offensive card or pass). The order of his mails is their Date
while it is sane (read, and not after the pass's clock), else the order they arrived in; the
mails answering them leave the outbox (oldest first, as the spool sends them) in that order,
and a refusal of a mail whose later one was applied says so above everything else.
"""

from __future__ import annotations

import email
import email.policy
import email.utils
import json
from datetime import timedelta
from pathlib import Path

import pytest
from commandclock import START, at
from mailkinds import first_line

from referee.base.clock import NOW_VARIABLE
from referee.mail.delivery import spool_files

GERMAN = "hans@example.org"
WRONG = "play defensive"            # no card is called so: refused, nothing applied


def _game(cli, root: Path, monkeypatch) -> tuple[Path, str]:
    """The game, begun at START, its Maildir and outbox under root: its journal and the
    German's key."""
    monkeypatch.setenv(NOW_VARIABLE, at(START))
    for sub in ("cur", "new", "tmp"):
        (root / "mail" / sub).mkdir(parents=True)
    journal = root / "aac.jsonl"
    r = cli("new", journal, "--game", "aac", "--scenario", "1914",
            "--player", f"german={GERMAN}", "--player", "entente=joffre@example.net",
            "--deadline", "48h", "--mail-in", root / "mail",
            "--mail-out", f"outbox:{root / 'outbox'}")
    assert r.exit_code == 0, r.output
    r = cli("players", journal, "--keys", "--format", "json")
    assert r.exit_code == 0, r.output
    [key] = [p["key"] for p in json.loads(r.stdout)["players"] if p["side"] == "german"]
    return journal, key


def _mail(root: Path, file: str, ident: str, body: str, key: str,
          date: str | None) -> None:
    dated = f"Date: {date}\n" if date is not None else ""
    (root / "mail" / "new" / file).write_text(
        f"From: Hans <{GERMAN}>\nTo: referee@example.com\nSubject: orders\n{dated}"
        f"Message-ID: <{ident}@example.org>\n\n{body}\n\nOrder key: {key}\n")


def _tick(cli, root: Path, monkeypatch) -> None:
    monkeypatch.setenv(NOW_VARIABLE, at(START + timedelta(minutes=5)))
    r = cli("tick", root / "aac.jsonl", "--no-map")
    assert r.exit_code == 0, r.output


def _to_him(root: Path) -> list:
    """The German's mails in the outbox, in the order they are sent (spool_files)."""
    mails = [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
             for p in spool_files(root / "outbox")]
    return [m for m in mails if str(m["To"]) == GERMAN]


def _text(m) -> str:
    return " ".join(m.get_body(("plain",)).get_content().split())


def _records(journal: Path) -> list[dict]:
    return [json.loads(line) for line in journal.read_text().splitlines()]


def _minute(n: int) -> str:
    return email.utils.format_datetime(START + timedelta(minutes=n))


@pytest.mark.parametrize("names", [("1700000001.a", "1700000002.b"),
                                   ("1700000002.b", "1700000001.a")],
                         ids=["names-as-dates", "names-against-dates"])
def test_the_corrected_mail_s_answer_goes_out_after_the_refusal(cli, tmp_path, monkeypatch,
                                                                names):
    """Both mails in one pass (the Maildir's names sorting with their Dates, or against
    them): the wrong one is refused and the corrected one applied; the refusal goes out
    first, and opens with the news that the later mail was applied; his report, answering
    the corrected mail, goes out last."""
    journal, key = _game(cli, tmp_path, monkeypatch)
    _mail(tmp_path, names[0], "first", WRONG, key, _minute(1))
    _mail(tmp_path, names[1], "second", "pass", key, _minute(2))
    _tick(cli, tmp_path, monkeypatch)
    assert [r.get("order") for r in _records(journal)[-1:]] == ["pass"]
    refusal, report = _to_him(tmp_path)
    assert [refusal["In-Reply-To"], report["In-Reply-To"]] == ["<first@example.org>",
                                                               "<second@example.org>"]
    assert first_line(refusal) == ("Your later mail of Mon 23 Nov 18:02 UTC was applied: "
                                   "see its answer.")
    assert "Applied: nothing." in _text(refusal)
    assert "report for the German player" in _text(report)


def _first_applied_then_second_refused(tmp_path) -> None:
    """His first mail's report went out first, then the refusal of his second, which says
    nothing of a later mail (there is none)."""
    report, refusal = _to_him(tmp_path)
    assert [report["In-Reply-To"], refusal["In-Reply-To"]] == ["<first@example.org>",
                                                               "<second@example.org>"]
    assert first_line(refusal) == "Your message was not applied: line 1 of your orders failed."


def test_a_refused_mail_after_the_applied_one_is_answered_after_it(cli, tmp_path,
                                                                   monkeypatch):
    """The corrected mail first, then a wrong one: the report goes out first, the refusal
    after it, as it always was (no word of a later mail: there is none)."""
    journal, key = _game(cli, tmp_path, monkeypatch)
    _mail(tmp_path, "1700000001.a", "first", "pass", key, _minute(1))
    _mail(tmp_path, "1700000002.b", "second", WRONG, key, _minute(2))
    _tick(cli, tmp_path, monkeypatch)
    _first_applied_then_second_refused(tmp_path)


@pytest.mark.parametrize("dates", [(1, None), (1, "Mon, 23 Nov 2026 18:60:99 +0000"),
                                   ("Tue, 23 Nov 2027 18:01:00 +0000", 2)],
                         ids=["later-undated", "later-unreadable", "earlier-in-the-future"])
def test_a_mail_without_a_sane_date_keeps_its_place_of_arrival(cli, tmp_path, monkeypatch,
                                                               dates):
    """Two mails of his, each legal alone: 'pass', then an Offensive card, which after a
    pass is not his to play (2.0 II.1). One of them has no Date, one that cannot be read, or
    one after the pass's clock: it keeps the place it arrived at, so 'pass' is applied and
    the card refused, and they are answered in that order."""
    journal, key = _game(cli, tmp_path, monkeypatch)
    first, second = (_minute(d) if isinstance(d, int) else d for d in dates)
    _mail(tmp_path, "1700000001.a", "first", "pass", key, first)
    _mail(tmp_path, "1700000002.b", "second", "play offensive", key, second)
    _tick(cli, tmp_path, monkeypatch)
    applied = [r for r in _records(journal) if r.get("actor") == "german"]
    assert [r["mail"]["data"]["message_id"] for r in applied] == ["<first@example.org>"]
    assert [m["In-Reply-To"] for m in _to_him(tmp_path)] == ["<first@example.org>",
                                                             "<second@example.org>"]


def test_a_refusal_before_an_undated_applied_mail_names_no_time(cli, tmp_path, monkeypatch):
    """The wrong mail dated, then the corrected one with no Date (it arrived later): the
    refusal first, saying his later mail was applied, with no time to name."""
    _, key = _game(cli, tmp_path, monkeypatch)
    _mail(tmp_path, "1700000001.a", "first", WRONG, key, _minute(1))
    _mail(tmp_path, "1700000002.b", "second", "pass", key, None)
    _tick(cli, tmp_path, monkeypatch)
    refusal, report = _to_him(tmp_path)
    assert refusal["In-Reply-To"] == "<first@example.org>"
    assert first_line(refusal) == "Your later mail was applied: see its answer."


def test_mails_in_the_order_sent_stay_in_it():
    """A pass's own copy of a game's mails is written in the order sent and read again:
    that order sorted again is itself. A mail without a sane Date goes after every mail that
    arrived before it."""
    from types import SimpleNamespace

    from referee.mail.sentorder import in_sent_order

    moment = START + timedelta(hours=1)
    t = START.timestamp()
    dates = [t + 600, 0.0, t + 60, t + 10 ** 8, t + 600, t - 60, 0.0]
    mails = [SimpleNamespace(date=d, order=i, name=i, sender="a") for i, d in enumerate(dates)]
    sent = [m.name for m in in_sent_order(mails, moment)]
    assert sent == [5, 2, 0, 1, 3, 4, 6]
    again = [SimpleNamespace(date=dates[n], order=i, name=n, sender="a")
             for i, n in enumerate(sent)]
    assert [m.name for m in in_sent_order(again, moment)] == sent


def test_an_undated_mail_is_placed_by_its_own_senders_mails_alone():
    """A stranger's mail (x) arrived first, dated after both of a player's: his undated mail
    (p1) still goes before his later, dated one (p2), as it came; between senders, Date then
    arrival. Sorted again, the order stays."""
    from types import SimpleNamespace

    from referee.mail.sentorder import in_sent_order

    moment = START + timedelta(hours=1)
    t = START.timestamp()
    came = [("x", "x@example.com", t + 120), ("p1", GERMAN, 0.0), ("p2", GERMAN, t + 60),
            ("y", "y@example.com", 0.0), ("p3", GERMAN, 0.0)]
    mails = [SimpleNamespace(name=n, sender=s, date=d, order=i)
             for i, (n, s, d) in enumerate(came)]
    sent = [m.name for m in in_sent_order(mails, moment)]
    assert sent == ["p1", "y", "p2", "p3", "x"]
    by_name = {m.name: m for m in mails}
    again = [SimpleNamespace(**{**vars(by_name[n]), "order": i}) for i, n in enumerate(sent)]
    assert [m.name for m in in_sent_order(again, moment)] == sent


def test_a_strangers_mail_that_came_first_does_not_turn_a_players_two_mails_about(
        cli, tmp_path, monkeypatch):
    """A stranger's mail, dated after both of the German's, arrives first; then his 'pass'
    with no Date, then the wrong order dated: 'pass' is applied and the wrong one refused
    after it, in the order he sent them."""
    journal, key = _game(cli, tmp_path, monkeypatch)
    (tmp_path / "mail" / "new" / "1700000000.x").write_text(
        f"From: someone@example.com\nTo: referee@example.com\nSubject: hello\n"
        f"Date: {_minute(3)}\nMessage-ID: <x@example.com>\n\nhello\n")
    _mail(tmp_path, "1700000001.a", "first", "pass", key, None)
    _mail(tmp_path, "1700000002.b", "second", WRONG, key, _minute(1))
    _tick(cli, tmp_path, monkeypatch)
    _first_applied_then_second_refused(tmp_path)
