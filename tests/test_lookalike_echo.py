"""A word echoed in a refusal (an unknown verb, a name no area has) shows a letter outside
ASCII as its escape unless it is an ASCII letter with marks: 'pаss' with a Cyrillic 'а' is
answered as 'p\\u0430ss', not as a word that reads 'pass' (docs/player.md). By hand and by
mail (tests/test_hostile_mail.py's game)."""

from __future__ import annotations

from test_hostile_mail import KEYS, eml, handled, journal, mail, not_applied_reply

__all__ = ["journal"]       # the fixture, used by name


def test_an_unknown_verb_with_a_cyrillic_letter_is_shown_escaped(game, cli):
    r = cli("order", game, "--as", "german", "p\u0430ss")
    assert r.exit_code != 0 and r.stderr.count("\n") == 1, r.output
    assert "unknown verb 'p\\u0430ss'" in r.stderr, r.stderr


def test_an_area_name_with_a_greek_letter_is_shown_escaped_and_accents_stay(game, cli):
    r = cli("order", game, "--as", "german", "move ge-1 C\u03bflogne")
    assert "'C\\u03bflogne'" in r.stderr, r.stderr
    r = cli("order", game, "--as", "german", "move ge-1 Li\u00e8gex")
    assert "'Li\u00e8gex'" in r.stderr, r.stderr


def test_a_mailed_lookalike_verb_is_answered_escaped(journal, cli, tmp_path):
    raw = mail(body=f"p\u0430ss\n\nOrder key: {KEYS['german']}\n")
    out = handled(cli, journal, eml(tmp_path / "in", raw), outbox=tmp_path / "out")
    assert [o["status"] for o in out] == ["rejected"], out
    said = " ".join(not_applied_reply(tmp_path / "out", "german").get_content().split())
    assert "unknown verb 'p\\u0430ss'" in said, said
