"""One numbering for a mail's lines, the one its reply gives ('line 2 of your orders'): the
moderator's reason (the tick's and inbox's log) named the same refused line by the mail's
own numbering ('line 4', counting a greeting and a blank line above the orders), so that
the player and the moderator spoke of one line by two numbers. A standing order's line is
one of his orders and counts, as he sees it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_hostile_mail import KEYS, eml, handled, mail, new_game, not_applied_reply

KEY_LINE = f"Order key: {KEYS['german']}"


@pytest.fixture
def journal(tmp_path, cli) -> Path:
    return new_game(cli, tmp_path / "game")


def _reply(outbox: Path) -> str:
    m = not_applied_reply(outbox, "german")
    return re.sub(r"\s+", " ", m.get_body(preferencelist=("plain",)).get_content())


@pytest.mark.parametrize("body, n", [
    (f"Hi\n\nplay offensive\nmvoe ge-1 liege\nend movement\n\nHans\n\n{KEY_LINE}\n", 2),
    (f"standing: no combat cards\nplay offensive\nmvoe ge-1 liege\n\n{KEY_LINE}\n", 3),
])
def test_the_log_and_the_reply_number_a_refused_line_alike(journal, cli, tmp_path, body, n):
    out = handled(cli, journal, eml(tmp_path / "in", mail(body=body)), outbox=tmp_path / "out")
    assert out[0]["status"] == "rejected", out
    assert out[0]["reason"].startswith(f"line {n} ('mvoe ge-1 liege')"), out[0]["reason"]
    text = _reply(tmp_path / "out")
    assert f"line {n} of your orders failed. The line: mvoe ge-1 liege" in text, text[:400]
