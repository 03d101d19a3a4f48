"""A sealed plan sent in several mails (7.0, 2.0 I), as the player and his opponent read it:
the player what he has sealed so far, what is left and how to add to it or end it; the
opponent and the public that part of a plan was given and not ended, and only the record
that ends it as the plan sealed; each reader's first line his own task. The mails are those
of the real mail path (inbox with an outbox)."""

from __future__ import annotations

import json

import pytest
from sharedgames import played_apart
from test_deadlines import new_game, player_mail, records
from test_production_mail import _pass

import gamecalls as g


def _flat(text: str) -> str:
    return " ".join(text.split())


def _first(text: str) -> str:
    """The mail's first paragraph (what is asked of him now), on one line."""
    return _flat(text.split("\n\n")[0])


@pytest.fixture(scope="module")
def parts(tmp_path_factory) -> tuple:
    """The journal and the mails, by name, of a game whose German sends his production plan
    in two mails and the Entente his reinforcements in two: played once for the module, in
    a referee home of its own, and only read by its tests."""
    from conftest import Cli

    tmp_path = tmp_path_factory.mktemp("parts")
    with played_apart(tmp_path):
        return _played(tmp_path, Cli())


def _played(tmp_path, cli) -> tuple:
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    _pass(tmp_path, journal, "opening")
    for side, line in (("german", "pass"), ("german", "end turn"), ("entente", "pass"),
                       ("entente", "end turn")):
        assert g.submit(journal, side, [line]).rejected is None, (side, line)
    _pass(tmp_path, journal, "start")
    got = {}
    for n, (name, side, lines) in enumerate((
            ("ge-part", "german", ["buy 1", "build ge infantry cologne"]),
            ("ge-done", "german", ["entrench ge-1", "done"]),
            ("en-done", "entente", ["build fr infantry paris", "done"]),
            ("en-part", "entente", ["place fr-6 paris", "place fr infantry paris into fr-6"]),
            ("en-rest", "entente", ["place fr-9 verdun", "place fr infantry verdun into fr-9",
                                    "place uk infantry england into uk-1", "done"])), 1):
        got[name] = _pass(tmp_path, journal, name, player_mail(tmp_path, side, lines, n))
    return journal, got


def test_a_production_plan_begun_says_what_is_sealed_what_is_left_and_how_to_end_it(parts):
    _, got = parts
    own = got["ge-part"]["german"]
    first = _first(own)
    assert first.startswith("Your decision: production: your sealed orders"), first
    assert "your Build Points this turn: 10 (Entente 8) (7.0)" in first, first
    assert "upgrade" not in first, first          # none is open to him (7.5)
    flat = _flat(own)
    assert "give them all in one mail" not in flat, own
    assert "You have begun your sealed plan (7.0): your plan so far and the BP left are " \
           "under Build Points. Add the rest of it in one mail or more, one order per line, " \
           "and end it with done" in flat, own
    assert "Your plan so far: buy 1 # 1 BP build ge infantry Cologne # 1 BP" in flat, own
    assert "Spent: 2 of your 10 BP; left: 8." in flat, own
    other = _first(got["ge-part"]["entente"])
    assert other.startswith("Your decision: production: your sealed orders"), other
    assert "your Build Points this turn: 8 (German 10) (7.0)" in other, other


def test_the_opponent_reads_a_part_of_a_plan_as_a_part_and_the_last_part_as_sealed(parts):
    _, got = parts
    part = _flat(got["ge-part"]["entente"])
    assert "German: part of a sealed production plan (7.0) - German seals " \
           "part of a production plan (7.0)" in part, part
    assert "German seals a production plan" not in part, part
    done = _flat(got["ge-done"]["entente"])
    # The heading alone says the plan was sealed whole: not again as sealed, then all in.
    assert "German: a sealed production plan (7.0)" in done, done
    assert "seals a production plan" not in done and "orders are all in" not in done, done
    assert "part of" not in done, done
    placed = _flat(got["en-part"]["german"])
    assert "Entente: part of a sealed plan: reinforcements placed (2.0 I) - " \
           "Entente seals part of a plan" in placed, placed
    own = _flat(got["en-part"]["entente"])
    # His own part: the heading gives his orders as typed, the line under it says they are
    # sealed, and does not give them again.
    assert "Entente: place fr-6 paris; place fr infantry paris into fr-6 - Entente seals " \
           "part of a plan" in own, own
    assert "seals part of a plan:" not in own, own


def test_reinforcements_begun_list_the_plan_so_far_and_the_units_still_to_place(parts):
    _, got = parts
    start = _first(got["en-done"]["entente"])
    assert start.startswith("Your decision: reinforcements: place fr-6, fr-9, 2 fr infantry, "
                            "uk infantry in supplied"), start
    assert "; German places 3 ge infantry" in start, start
    assert _first(got["en-done"]["german"]).startswith(
        "Your decision: reinforcements: place 3 ge infantry in supplied"), got["en-done"]
    own = got["en-part"]["entente"]
    first = _first(own)
    assert first.startswith("Your decision: reinforcements: still to place in your plan: "
                            "fr-9, fr infantry, uk infantry in supplied"), first
    flat = _flat(own)
    assert "give them all in one mail" not in flat, own
    assert "You have begun your sealed plan (2.0 I): add the rest of it in one mail or " \
           "more, one order per line, and no done: it closes by itself with its last " \
           "arrival placed" in flat, own
    assert "Your plan so far: place fr-6 paris place fr infantry paris into fr-6" in flat, own
    assert "For example, the rest of it: place fr-9 " in flat, own
    # The opponent's first line is his own task; he is told nothing of the plan begun.
    theirs = _first(got["en-part"]["german"])
    assert theirs.startswith("Your decision: reinforcements: place 3 ge infantry"), theirs
    assert "fr-6, fr-9, 2 fr infantry, uk infantry" in theirs, theirs


def test_an_applied_plan_of_several_orders_is_quoted_one_order_at_a_time(parts):
    _, got = parts
    reply = got["en-rest"]["entente"]
    first = _flat(reply.split("\n\n")[0])
    assert "\\n" not in reply, reply
    assert first.startswith("Applied from your mail: 'place fr-9 verdun'; 'place fr infantry "
                            "verdun into fr-9'; 'place uk infantry england into uk-1' (#"), first


def test_log_tells_a_part_of_a_plan_and_the_journal_keeps_its_placeholder(parts, cli):
    journal, _ = parts
    public = _flat(cli("log", journal).stdout)
    assert "German: part of a sealed production plan (7.0) German seals part " \
           "of a production plan (7.0) #" in public, public
    assert "German: a sealed production plan (7.0) German seals a production plan (7.0) " \
           "German production orders are all in" in public, public
    assert "Entente: part of a sealed plan: reinforcements placed (2.0 I) " \
           "Entente seals part of a plan #" in public, public
    recs = [r for r in records(journal) if r.get("actor") == "german"]
    assert "a sealed production plan (7.0)" in [r["order"] for r in recs]


def test_explain_tells_a_part_of_a_plan_as_the_report_does(parts, cli):
    """`explain` on the German's first part (7.0) says it is a part, in the report's words,
    to each reader: the opponent and the public nothing of its orders, its owner his."""
    journal, _ = parts
    part = next(r["seq"] for r in records(journal) if r.get("actor") == "german" and
                r.get("order") == "a sealed production plan (7.0)")
    for reader in ("entente", "public"):
        report = _flat(cli("report", journal, "--as", reader, "--since", str(part - 1)).stdout)
        text = _flat(cli("explain", journal, str(part), "--as", reader).stdout)
        for words in ("part of a sealed production plan (7.0)",
                      "German seals part of a production plan (7.0)"):
            assert words in report and words in text, (words, text)
        assert "German seals a production plan" not in text, text
        assert "cologne" not in text.lower() and "buy 1" not in text, text
        doc = json.loads(cli("explain", journal, str(part), "--as", reader,
                             "--format", "json").stdout)
        assert doc["order"] == {"text": "part of a sealed production plan (7.0)",
                                "sealed": True, "part": True, "by": "mail"}, doc
        assert doc["changes"] == ["German seals part of a production plan (7.0)"], doc
    own = json.loads(cli("explain", journal, str(part), "--as", "german", "--format",
                         "json").stdout)
    assert own["order"] == {"text": "buy 1\nbuild ge infantry cologne", "sealed": False,
                            "part": True, "by": "mail"}, own
    assert own["changes"] == ["German seals part of a production plan (7.0): buy 1; build "
                              "ge infantry Cologne"], own
    ended = json.loads(cli("explain", journal, str(part + 1), "--as", "public", "--format",
                           "json").stdout)
    assert ended["order"] == {"text": "a sealed production plan (7.0)", "sealed": True,
                              "by": "mail"}, ended
