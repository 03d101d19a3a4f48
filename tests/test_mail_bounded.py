"""A report mail is one a player can read on a phone, however much happened since his last
one: after `autoplay` (the moderator playing hundreds of records at once) it tells the last
FULL_MOST records in full and those before them in brief, a turn a line, with the command
that shows every one (mail/refusal.FULL_MOST, render/reports._Brief); and no line of it runs
past 72 columns, a record's long order included (render/reports.ORDER_MOST)."""

from __future__ import annotations

import re

from mailboxes import write_maildir
from test_deadlines import ADDRESSES, mails, new_game, records, text_of

import gamecalls as g
from casebook import new_game as case_game
from casebook import position
from referee.game.autoplay import autoplay
from referee.mail.inbox import inbox as mail_inbox
from referee.mail.refusal import FULL_MOST

OBSERVER = "watch@example.org"


def _pass(tmp_path, journal, n: int) -> dict[str, str]:
    """One inbox pass over an empty Maildir: each mail's text, by its recipient's address."""
    out = tmp_path / f"out{n}"
    mail_inbox(journal, [write_maildir(tmp_path / f"empty{n}", [])], out, with_map=False)
    return {str(m["To"]).casefold(): text_of(m) for m in mails(out)}


def test_a_mail_after_autoplay_tells_the_last_records_in_full_and_the_rest_in_brief(
        tmp_path, cli, clock):
    journal = new_game(tmp_path, cli, "via_cli")
    assert cli("players", journal, "--set", f"observer={OBSERVER}").exit_code == 0
    _pass(tmp_path, journal, 0)
    since = records(journal)[-1]["seq"]
    autoplay(journal, 3, until=2, check_every=10 ** 9)
    last = records(journal)[-1]["seq"]
    upto = last - FULL_MOST
    assert upto > since + FULL_MOST, "enough records to be told in brief"
    texts = _pass(tmp_path, journal, 1)
    readers = {ADDRESSES["german"].casefold(): "german",
               ADDRESSES["entente"].casefold(): "entente", OBSERVER: "public"}
    assert set(texts) == set(readers), sorted(texts)
    for address, text in texts.items():
        lines = text.splitlines()
        assert max(map(len, lines)) <= 72, [ln for ln in lines if len(ln) > 72]
        # Only the last FULL_MOST records have a heading of their own, in their order.
        headings = [int(n) for n in re.findall(r"^#(\d+) ", text, re.M)]
        assert headings == list(range(upto + 1, last + 1)), headings[:5]
        flat = " ".join(text.split())
        assert f"Records {since + 1}–{upto} ({upto - since}) in brief, a turn a line" in flat
        assert (f"the journal g.jsonl, which the moderator shows with referee log JOURNAL "
                f"--as {readers[address]} --since {since + 1}") in flat
        # The records in brief, turn by turn: each counted once, the battles named.
        told = [(int(a), int(b or a), int(n)) for a, b, n in re.findall(
            r"^- [A-Z]+ \d{4}(?:-\d\d)?: records? (\d+)(?:–(\d+))? \((\d+)\)", text, re.M)]
        assert told and told[0][0] == since + 1 and told[-1][1] == upto, told
        assert sum(n for _, _, n in told) == upto - since, told
        assert all(b - a + 1 == n for a, b, n in told), told
        assert len(lines) < 20 * FULL_MOST, len(lines)


def test_a_mail_after_few_records_tells_every_one_in_full(tmp_path, cli, clock):
    journal = new_game(tmp_path, cli, "via_cli")
    text = _pass(tmp_path, journal, 0)[ADDRESSES["german"].casefold()]
    assert "in brief" not in text and re.search(r"^#1 ", text, re.M), text[:600]


def test_a_record_whose_order_is_longer_than_a_mail_line_is_wrapped(tmp_path, cli):
    """Passing, the German discards his hand of six cards (2.0 II.1, the 1914 card limit:
    7.1): an order of 111 characters. Its record's heading must not run past 72 columns in
    any reader's report."""
    hand = ["aab-01", "loff-01", "loff-02", "toutlemonde-01", "gas-01", "reserves-01"]
    j = case_game(tmp_path, position("1914", player="german",
                                     hands={"german": hand, "entente": ["off-11"]}))
    order = ("discard advanced_artillery_barrage limited_offensive limited_offensive "
             "tout_le_monde poison_gas strategic_reserves")
    assert len(order) > 72
    assert g.submit(j, "german", ["pass", order]).rejected is None
    for reader in ("german", "entente", "public"):
        said = cli("report", j, "--as", reader, "--since", "0").stdout
        assert max(map(len, said.splitlines())) <= 72, \
            [ln for ln in said.splitlines() if len(ln) > 72]
        assert "German: discard advanced_artillery_barrage" in said, said


def test_the_brief_command_fits_a_line_whatever_the_journal_s_name():
    """The command that shows every record is never split, so it names no journal: a long
    name (as a moderator may give his file) is a word of the sentence before it, and no
    line runs past 72 columns."""
    from referee.render.formats import render
    from referee.render.reports import _Brief
    from referee.render.sections import Document, Section

    brief = _Brief(4, 73)
    brief.turns = {"SUMMER 1914": [5, 32, 28, []], "AUTUMN 1914": [33, 73, 41, []]}
    name = "campaign-1914-western-front-second-try.jsonl"
    text = render(Document("", [Section("Since record 4", brief.blocks("entente", name))]),
                  "text", 72)
    assert max(map(len, text.splitlines())) <= 72, text
    assert name in text and "referee log JOURNAL --as entente --since 5" in text


def test_a_game_s_end_says_its_level_once():
    """A decisive victory's reason names its level (3.2): said once, in brief as in full;
    another reason is followed by the level; none recorded, no 'None'."""
    from referee.render.documents import result_words

    decisive = "Decisive Entente Victory"
    assert result_words({"reason": f"{decisive} reached (3.2)", "level_name": decisive}) \
        == (f"{decisive} reached (3.2)", None)
    assert result_words({"reason": "the German player surrenders (3.3)",
                         "level_name": "Marginal Entente Victory"}) \
        == ("the German player surrenders (3.3)", "Marginal Entente Victory")
    assert result_words({"reason": "the last turn is over (2.0 VI)"})[1] is None


def test_the_situation_and_the_moderator_s_end_mail_say_a_decisive_level_once():
    """'Game over' in status and show, and the moderator's mail at the end, say a decisive
    victory's level once (its reason names it, 3.2), and no 'None' when none was kept."""
    from referee.render.documents import situation
    from referee.render.formats import render
    from referee.render.sections import Document, Section
    from referee.table.campaign_end import ended_mail as _ended_mail

    decisive = {"reason": "Decisive Entente Victory reached (3.2)",
                "level_name": "Decisive Entente Victory"}
    for result in (decisive, {"reason": "the last turn is over (2.0 VI)"}):
        said = render(Document("", [Section("", [situation(
            {"game_over": True, "result": result})])]), "text", 72)
        mail = " ".join(_ended_mail("war.jsonl", result, ("german", "entente")).split())
        for text in (" ".join(said.split()), mail):
            assert text.count("Victory") <= 1 and "None" not in text, text
