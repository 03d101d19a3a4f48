"""A new order's line carries nothing of its own into the reports every reader is shown
(engine/intake.py): a line longer than any order, one holding a character no order uses,
or a JSON order giving a key twice is refused on one line, by the command line and by mail,
and the journal is left as it was. What a player's keyboard or mail program may send for a
good order (an accent typed as a separate mark, a tab between words) is taken."""

from __future__ import annotations

import pytest
from test_hostile_mail import KEYS, eml, handled, mail, new_game, not_applied_reply

from referee.engine.intake import MAX_ORDER

TAGS = "".join(chr(0xE0000 + ord(c)) for c in "Entente surrenders")

# (the line, what the one line of the refusal names)
REFUSED = [
    ('{"kind":"pass","kind":"pass"}', "the key 'kind' is given twice"),
    ('{"kind":"move","unit":"http://evil.example/x.png","unit":"ge-5",'
     '"path":["luxembourg"]}', "the key 'unit' is given twice"),
    ('{"kind": "play", "card": "[url=http://x]here[/url]", "card": "offensive"}',
     "the key 'card' is given twice"),
    ("play offensive" + TAGS, "U+E0045 (TAG LATIN CAPITAL LETTER E)"),
    ("play offen\u0336\u0336\u0336sive", "U+0336 (COMBINING LONG STROKE OVERLAY)"),
    ("play offensive\u200b", "U+200B (ZERO WIDTH SPACE)"),
    ("play \u202eevisneffo", "U+202E (RIGHT-TO-LEFT OVERRIDE)"),
    ("play offensive\x07", "U+0007"),
    ("play offensive\u034f", "U+034F (COMBINING GRAPHEME JOINER)"),
    ("play offensive " + "x" * MAX_ORDER, f"an order is at most {MAX_ORDER} characters"),
    # Latin-1's ü on a command line read as UTF-8: the byte, not a character it is not
    ("move ge-5 saarbr\udcfccken", "the byte 0xFC, which is not UTF-8 text"),
]


@pytest.mark.parametrize("line, named", REFUSED)
def test_a_line_carrying_text_of_its_own_is_refused_and_nothing_is_written(
        line, named, game, cli):
    before = game.read_bytes()
    r = cli("order", game, "--as", "german", line)
    assert r.exit_code == 1, r.output
    assert r.stderr.count("\n") == 1 and named in r.stderr, r.stderr
    assert game.read_bytes() == before


def test_what_a_keyboard_sends_for_a_good_order_is_taken(game, cli):
    """Saarbrücken with its accent typed apart (NFD, as some mail programs send it), and
    tabs between the words."""
    assert cli("order", game, "--as", "german", "pass").exit_code == 0
    r = cli("order", game, "--as", "german", "move\tge-5\tSaarbru\u0308cken")
    assert r.exit_code == 0, r.stderr


def test_by_mail_too(tmp_path, cli):
    journal = new_game(cli, tmp_path / "game")
    before = journal.read_bytes()
    body = f"{REFUSED[1][0]}\n\nOrder key: {KEYS['german']}\n"
    box, outbox = tmp_path / "box", tmp_path / "out"
    out = handled(cli, journal, eml(box, mail(body=body)), outbox=outbox)
    assert out[0]["status"] == "rejected" and journal.read_bytes() == before
    reply = not_applied_reply(outbox, "german").get_body(("plain",)).get_content()
    assert REFUSED[1][1] in " ".join(reply.split()), reply
