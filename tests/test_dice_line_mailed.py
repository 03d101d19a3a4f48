"""The line a player's report mail gives under a record his mail made that rolled dice
(render/dice_words.py), read in the mail as he gets it: what fixed the dice in plain words
(his mail as he sent it; only the moderator, editing it, could change them), short enough
for a phone, then what an audit needs. It stays true: the line it tells him to mail, `explain
N`, is answered, and gives whole the digest whose first digits the line shows, the SHA-256
of the order lines he sent (docs/player.md, Dice sheets: Check)."""

from __future__ import annotations

import hashlib
import re
import textwrap

from test_news_mail import GERMAN, game  # noqa: F401 - game: a fixture

from referee.cli.demo import DEMO_OPENING

SENT = [*DEMO_OPENING, "done", "done", "done"]
PLAIN = "Dice fixed by German's mail as sent: only the moderator could change them, by " \
        "editing it"


def _dice_line(text: str) -> str:
    """The report's one item on where dice came from, its lines joined."""
    items = re.findall(r"^- Dice .*?(?=\n\n|\n- |\Z)", text, re.M | re.S)
    assert len(items) == 1, text
    return " ".join(items[0].split())[2:]


def test_a_mailed_roll_says_in_plain_words_what_fixed_its_dice(game):  # noqa: F811
    game.send("german", SENT, "<roll@example.org>")
    (text, _), = game.tick()[GERMAN]
    said = _dice_line(text)
    # As `printf '%s\n' LINE... | sha256sum` gives it from the lines he sent.
    digest = hashlib.sha256("".join(f"{line}\n" for line in SENT).encode()).hexdigest()
    match = re.fullmatch(re.escape(PLAIN) + r" \(for an audit: digest ([0-9a-f]{8}), keyed "
                         r"german\.1; mail 'explain (\d+)'\)\.", said)
    assert match is not None and match[1] == digest[:8], said
    # The plain words fit three lines of a phone's 40 columns, the whole item four more.
    assert len(textwrap.wrap(PLAIN, 40, initial_indent="- ", subsequent_indent="  ")) <= 3
    # What it points to is there: the line mailed is answered with the digest whole.
    game.send("german", [f"explain {match[2]}"], "<explain@example.org>")
    (answer, _), = game.tick()[GERMAN]
    assert digest in "".join(answer.split()), answer
