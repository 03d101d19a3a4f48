"""Ordinary mail is understood: the player's prose around his orders is passed over and named
in the reply, a mistyped order is never passed over, and prose between two orders still has
the mail refused.

- Lines before the first line that reads as an order and after the last one (a sentence, a
  bare name under the orders) are neither applied nor refused; the reply names them,
  clipped and with disguising characters shown as escapes.
- A line there whose first word is a slip of a verb ('pas', 'mvoe', 'edn') reads as an
  order, so it is refused, quoted, and nothing is applied.
- A line between two orders is refused, quoted, as before.

The game is tests/test_hostile_mail.py's: game id `mailtest`, a fixed secret, so the order
keys are known.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from flowtext import written
from mailkinds import headline
from test_hostile_mail import (
    ADDRESSES,
    KEYS,
    eml,
    handled,
    mail,
    new_game,
    not_applied_reply,
    records,
    replies_to,
)

from referee.mail.message import CAMPAIGN_VERBS, order_lines
from referee.mail.prose import prose_apart, slip_of
from referee.mail.refusal import MOST_NAMED, not_read

KEY_LINE = f"Order key: {KEYS['german']}"


@pytest.fixture
def journal(tmp_path, cli) -> Path:
    return new_game(cli, tmp_path / "game")


def body_of(m) -> str:
    return written(m.get_body(preferencelist=("plain",)).get_content())


def flat(text: str) -> str:
    """text with its line breaks and runs of blanks as one blank (the reply is wrapped)."""
    return re.sub(r"\s+", " ", text)


def report_to_german(outbox: Path):
    (found,) = [m for m in replies_to(outbox, ADDRESSES["german"])
                if "report for the German player" in headline(m)]
    return found


def split(body: str) -> tuple[list[str], list[str]]:
    orders, prose = prose_apart(order_lines(body), CAMPAIGN_VERBS)
    return [t for _, t in orders], [t for _, t in prose]


# ---------------------------------------------------------------- reading a body

def test_prose_before_the_first_order_and_after_the_last_is_set_apart():
    body = ("Sorry, my mistake. Here are my orders:\n\nplay offensive\nmove ge-1 liege\n\n"
            "Hans\n")
    assert prose_apart(order_lines(body), CAMPAIGN_VERBS) == (
        [(3, "play offensive"), (4, "move ge-1 liege")],
        [(1, "Sorry, my mistake. Here are my orders:"), (6, "Hans")])


def test_a_line_between_two_orders_stays_an_order_line():
    assert split("play offensive\nI think that is right\nmove ge-1 liege\nBye for now\n") == (
        ["play offensive", "I think that is right", "move ge-1 liege"], ["Bye for now"])


def test_a_mail_of_prose_alone_has_no_orders():
    assert split("Please pause the game, I am away this week.\n") == (
        [], ["Please pause the game, I am away this week."])


@pytest.mark.parametrize("slip", ["pas", "mvoe ge-2 koblenz", "edn movement", "Doen.",
                                  "fihgt liege", "batle liege", "playy offensive", "lsoe ge-1",
                                  "Paly offensive"])
def test_a_slip_of_a_verb_before_or_after_the_orders_reads_as_an_order(slip):
    assert split(f"{slip}\nplay offensive\nHans\n") == ([slip, "play offensive"], ["Hans"])
    assert split(f"Sorry for the delay.\nplay offensive\n{slip}\n") == (
        ["play offensive", slip], ["Sorry for the delay."])


@pytest.mark.parametrize("prose", ["Sorry, my mistake.", "Send me the map again", "Right, so",
                                   "One more thing", "Please confirm", "See you next turn",
                                   "Plan for this turn:", "Should I pass?", "Hans",
                                   "Great game so far"])
def test_prose_whose_first_word_is_no_slip_of_a_verb_is_prose(prose):
    assert split(f"{prose}\nplay offensive\n{prose}\n") == (["play offensive"],
                                                           [prose, prose])


def test_a_slip_is_near_a_verb_by_its_first_letter_or_by_two_letters_swapped():
    words = [*CAMPAIGN_VERBS, "standing", "extend"]
    assert {w: slip_of(w, words) for w in ("mvoe", "pas", "edn", "omve", "standng:", "extnd",
                                           "send", "one", "right", "x", "pass")} == {
        "mvoe": "move", "pas": "pass", "edn": "end", "omve": "move", "standng:": "standing",
        "extnd": "extend", "send": None, "one": None, "right": None, "x": None, "pass": "pass"}


def test_the_mails_own_lines_read_as_orders_not_prose():
    heads = (re.compile(r"(?i)^standing\s*:"),)
    lines = order_lines("Hi all,\nThoughts below.\nstanding: no combat cards\nCheers\nHans\n")
    assert prose_apart(lines, CAMPAIGN_VERBS, heads) == (
        [(3, "standing: no combat cards")], [(2, "Thoughts below.")])


def test_a_megabyte_of_prose_is_set_apart_in_bounded_time():
    """Each first word of prose is looked at once, and only so many of them: past that, a
    line is taken for an order (refused, never passed over)."""
    words = [f"{a}{b}{c}{d}x" for a in "prse" for b in "aeiou" for c in "lmnrst"
             for d in "aeioy"]
    body = "\n".join(words[i % len(words)] + f" {i}" for i in range(60_000)) + "\nHans\n"
    start = time.process_time()
    orders, prose = prose_apart(order_lines(body), CAMPAIGN_VERBS)
    assert time.process_time() - start < 5
    assert prose[-1][1] == "Hans" and orders


def test_the_note_names_each_line_clipped_and_counts_the_rest():
    prose = [(n, f"line of prose number {n} " + "x" * 100) for n in range(1, 16)]
    (note,) = not_read(prose)
    assert note.startswith("Not read as orders (neither applied nor refused): line 1 'line "
                           "of prose number 1 xxx")
    assert note.count("…") == MOST_NAMED and note.endswith(", and 5 more lines.")
    assert not_read([]) == []


# ---------------------------------------------------------------- by mail

def test_a_mail_with_prose_around_its_orders_is_applied_and_the_reply_names_the_prose(
        journal, cli, tmp_path):
    body = (f"Hello,\n\nSorry, my mistake. Here are my orders:\n\nplay offensive\n"
            f"move ge-1 liege\n\nHans\n\n{KEY_LINE}\n")
    before = len(records(journal))
    out = handled(cli, journal, eml(tmp_path / "in", mail(body=body)),
                  outbox=tmp_path / "out")
    assert [(o["status"], o["side"]) for o in out] == [("applied", "german")], out
    assert [r["order"] for r in records(journal)[before:]] == ["play offensive",
                                                                "move ge-1 liege"]
    # What of his mail was applied, the note on what was not read, then what he is asked now
    # (the movement his Offensive opened, 2.0 II.2), then the report's title.
    applied, note, lead, title, rest = body_of(report_to_german(tmp_path / "out")).split(
        "\n\n", 4)
    assert flat(applied) == "Applied from your mail: 'play offensive' (#3), 'move ge-1 liege' " \
        "(#4).", applied
    assert flat(note) == ("Not read as orders (neither applied nor refused): above your "
                          "orders 'Sorry, my mistake. Here are my orders:', line 3 'Hans'."), \
        note
    assert flat(lead).startswith("Your decision: movement phase"), lead
    assert title.startswith("TO THE LAST MAN! — report for the German player"), title
    assert "Hello" not in flat(rest)[:200]     # a greeting is no news to the player


def test_prose_named_in_a_reply_is_clipped_and_shows_what_would_disguise_it(
        journal, cli, tmp_path):
    sneaky = "Orders below \u202eredro eht" + " and so on" * 30
    body = f"{sneaky}\nplay offensive\n\n{KEY_LINE}\n"
    out = handled(cli, journal, eml(tmp_path / "in", mail(body=body)), outbox=tmp_path / "out")
    assert out[0]["status"] == "applied", out
    text = body_of(report_to_german(tmp_path / "out"))
    assert "\u202e" not in text and "\\u202e" in text
    assert "…" in text and sneaky[-40:] not in flat(text)


@pytest.mark.parametrize("slip", ["edn movement", "pas"])
def test_a_slip_after_the_orders_refuses_the_mail_quoting_it(journal, cli, tmp_path, slip):
    body = f"play offensive\nmove ge-1 liege\n{slip}\nHans\n\n{KEY_LINE}\n"
    before = journal.read_bytes()
    out = handled(cli, journal, eml(tmp_path / "in", mail(body=body)), outbox=tmp_path / "out")
    assert [(o["status"], o["side"]) for o in out] == [("rejected", "german")], out
    assert journal.read_bytes() == before
    assert f"line 3 ('{slip}')" in out[0]["reason"], out[0]["reason"]
    text = flat(body_of(not_applied_reply(tmp_path / "out", "german")))
    assert f"line 3 of your orders failed. The line: {slip}" in text, text[:400]
    assert "Not read as orders (neither applied nor refused): line 4 'Hans'." in text


def test_a_refused_line_is_numbered_among_the_orders_not_in_the_whole_mail(
        journal, cli, tmp_path):
    """A reply quoting the mail it answers above its orders: 'line 139 of it failed' counted
    the quoted mail, a number a phone shows nowhere. The reply counts the lines read as his
    orders, for the line refused and a later one that cannot be read alike, and so does
    the moderator's reason (one numbering: tests/test_mail_line_count.py)."""
    quoted = "\n".join(f"> report line {i}" for i in range(1, 40))
    body = (f"On Sat, the referee wrote:\n{quoted}\n\nplay offensive\nmove ge-1 liege\n"
            f"edn movement\nmvoe ge-1 liege\n\n{KEY_LINE}\n")
    out = handled(cli, journal, eml(tmp_path / "in", mail(body=body)), outbox=tmp_path / "out")
    assert out[0]["status"] == "rejected" and "line 3 ('edn movement')" in out[0]["reason"], out
    text = flat(body_of(not_applied_reply(tmp_path / "out", "german")))
    assert "not applied: line 3 of your orders failed. The line: edn movement" in text, \
        text[:400]
    assert "Line 4 ('mvoe ge-1 liege') cannot be read either" in text, text[:800]


def test_prose_after_orders_below_a_quoted_mail_is_numbered_as_the_orders_are(
        journal, cli, tmp_path):
    """A reply under the mail it quotes: 'line 44 'Hans'' counted the quoted mail, where a
    refusal counts the lines read as his orders; the prose after them goes on from there."""
    quoted = "\n".join(f"> report line {i}" for i in range(1, 40))
    body = (f"On Sat, the referee wrote:\n{quoted}\n\nplay offensive\n\nmove ge-1 liege\n\n"
            f"Hans\n\n{KEY_LINE}\n")
    out = handled(cli, journal, eml(tmp_path / "in", mail(body=body)), outbox=tmp_path / "out")
    assert out[0]["status"] == "applied", out
    text = flat(body_of(report_to_german(tmp_path / "out")))
    assert "Not read as orders (neither applied nor refused): line 3 'Hans'." in text, \
        text[:600]


def test_orders_ended_as_sentences_by_a_phone_are_applied_and_prose_stays_prose(
        journal, cli, tmp_path):
    """'Pass.' and 'End turn.' (the full stop a phone adds) are the orders; 'Good luck.'
    after them is still prose, named in the reply."""
    body = f"Pass.\nEnd turn.\n\nGood luck.\n\n{KEY_LINE}\n"
    before = len(records(journal))
    out = handled(cli, journal, eml(tmp_path / "in", mail(body=body)), outbox=tmp_path / "out")
    assert [(o["status"], o["side"]) for o in out] == [("applied", "german")], out
    assert [r["order"] for r in records(journal)[before:]] == ["Pass.", "End turn."]
    text = flat(body_of(report_to_german(tmp_path / "out")))
    assert "Not read as orders (neither applied nor refused): line 3 'Good luck.'." in text


def test_a_slip_of_a_verb_in_a_mail_is_answered_with_the_verb_meant(journal, cli, tmp_path):
    """After a pass a unit may move (2.0 II.1): the slip of that line's verb is answered
    with move; the line after it, which cannot be read either, is named too."""
    body = f"pass\nmvoe ge-1 liege\nend trun\n\n{KEY_LINE}\n"
    out = handled(cli, journal, eml(tmp_path / "in", mail(body=body)), outbox=tmp_path / "out")
    assert [(o["status"], o["side"]) for o in out] == [("rejected", "german")], out
    text = flat(body_of(not_applied_reply(tmp_path / "out", "german")))
    assert "unknown verb 'mvoe'; did you mean move? Applied: nothing," in text, text[:600]
    assert "Line 3 ('end trun') cannot be read either at column 5: 'trun' is neither " \
        "'movement' nor 'turn'; did you mean end turn?" in text
    assert "start with one of" not in text


def test_prose_between_two_orders_still_refuses_the_mail_quoting_it(journal, cli, tmp_path):
    body = f"play offensive\nI think that is right\nmove ge-1 liege\n\n{KEY_LINE}\n"
    before = journal.read_bytes()
    out = handled(cli, journal, eml(tmp_path / "in", mail(body=body)), outbox=tmp_path / "out")
    assert [(o["status"], o["side"]) for o in out] == [("rejected", "german")], out
    assert journal.read_bytes() == before
    assert "line 2 ('I think that is right')" in out[0]["reason"]


def test_a_mail_of_prose_alone_is_refused_and_the_reply_names_it(journal, cli, tmp_path):
    body = f"Please pause the game, I am away this week.\n\n{KEY_LINE}\n"
    before = journal.read_bytes()
    out = handled(cli, journal, eml(tmp_path / "in", mail(body=body)), outbox=tmp_path / "out")
    assert [(o["status"], o["reason"]) for o in out] == [
        ("rejected", "no orders found in the message")], out
    assert journal.read_bytes() == before
    text = flat(body_of(not_applied_reply(tmp_path / "out", "german")))
    assert ("Not read as orders (neither applied nor refused): line 1 'Please pause the game, "
            "I am away this week.'.") in text, text[:400]
    assert len(replies_to(tmp_path / "out", ADDRESSES["german"])) == 1


def test_an_order_under_the_signature_is_not_read_and_the_reply_says_so(
        journal, cli, tmp_path):
    """Nothing below '-- ' is read (a signature, a phone's footer); a line there that reads
    as an order is named in the reply, so that an order written under the signature does not
    vanish unsaid. The signature's name and address lines are not named."""
    body = (f"play offensive\n\n{KEY_LINE}\n-- \nHans Kaiser\nBerlin\nmove ge-1 liege\n")
    before = len(records(journal))
    out = handled(cli, journal, eml(tmp_path / "in", mail(body=body)),
                  outbox=tmp_path / "out")
    assert [(o["status"], o["side"]) for o in out] == [("applied", "german")], out
    assert [r["order"] for r in records(journal)[before:]] == ["play offensive"]
    text = flat(body_of(report_to_german(tmp_path / "out")))
    assert "Below your signature ('-- '), not read: line 7 'move ge-1 liege'" in text, text
    assert "Berlin" not in text[:300]


@pytest.mark.parametrize("mangled", ["d0ne", "pl4y offensive", "end_turn", "p@ss",
                                     "pl\u0430y offensive", "\uff50\uff4c\uff41\uff59 offensive"])
def test_a_mangled_first_word_reads_as_an_order_never_as_prose(mangled):
    """A first word no prose has (letters mixed with digits or signs, a Latin word with a
    Cyrillic look-alike letter, full-width letters) stands for a mistyped order: it is
    refused, quoted, never passed over. Accented prose is still prose."""
    assert split(f"{mangled}\nmove ge-1 liege\n") == ([mangled, "move ge-1 liege"], [])
    assert split("move ge-1 liege\nÜber alles, Grüße\n") == (["move ge-1 liege"],
                                                             ["Über alles, Grüße"])


def test_an_order_typed_behind_a_quote_mark_is_named_when_nothing_was_read(
        journal, cli, tmp_path):
    """'> pass' is a quoted line, never read; a mail whose only order stands so is refused
    as having none, and the reply names the line and says to send it without the '>' (not
    the orders of the old mail quoted under an attribution line)."""
    body = (f"> pass\n\n{KEY_LINE}\n\nOn Mon, 23 Nov 2026, referee wrote:\n"
            f"> Reply with one order per line:\n>   end turn\n")
    before = len(records(journal))
    out = handled(cli, journal, eml(tmp_path / "in", mail(body=body)), outbox=tmp_path / "out")
    assert [(o["status"], o["side"]) for o in out] == [("rejected", "german")], out
    assert len(records(journal)) == before
    text = flat(body_of(not_applied_reply(tmp_path / "out", "german")))
    assert "Quoted with '>', so not read: line 1 '> pass'; send your orders without " \
        "the '>'." in text, text[:600]
    assert "end turn'" not in text.split("Your decision")[0]
