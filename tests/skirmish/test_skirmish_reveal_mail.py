"""The mail that tells the players the dice secret: its tests heading said "none" above the
line of the reveal it lists ("Tests since your last report (#6): none", then "#7 moderator:
dice secret revealed ..."); the reveal is the record since, so the heading lists it."""

from __future__ import annotations

from test_skirmish_end_mails import Duel
from test_skirmish_mail import BRITISH


def test_the_reveal_mail_lists_the_reveal_under_its_heading_not_none(cli, tmp_path):
    duel = Duel(cli, tmp_path)
    duel.kill()
    last = len(duel.j.read_text().splitlines()) - 1
    r = cli("reveal", duel.j)
    assert r.exit_code == 0, r.output
    (text,) = duel.tick()[BRITISH]
    assert f"\n\nTests since your last report (#{last}):\n#{last + 1} moderator: dice " \
        "secret revealed\n" in text, text
    assert " none\n" not in text, text
