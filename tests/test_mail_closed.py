"""Decisions the referee closes by mail: after a mail is applied, a decision of the side waited
on whose one open order closes it ('done', 'end movement', 'end turn', 'pass'), whatever
cards his hand holds, is closed by the referee in a record of its own (`by: referee`), which
every report shows with the rule and `verify` decides again after checking it was so.

- 1914: the German's mail ends with 'end movement' into Liège; declaring battles (2.0 II.3)
  has only 'done' open (the battle there is compulsory, no other area is Disputed, and no
  card of any hand opens another order): closed, and he is asked his combat cards.
- A decision with one order open only because of the hand (the Entente holds no combat
  card, 2.0 II.3b) is never closed: closing it would tell the German so.
- Never under hidden templates (1.4), in a game of dice rolled by hand, or for a side
  with a dice sheet; never in a game played with `order`: its journal is as before.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from forging import write_resigned
from mailkinds import headline
from test_hostile_mail import ADDRESSES, KEYS, eml, handled, mail, new_game, records
from test_mail_handoff import _artois
from test_standing import pending

import gamecalls as g
from casebook import new_game as case_game
from casebook import position
from referee.engine import legal_orders
from referee.engine.order_text import format_order
from referee.game.forced import closer

LIEGE = ["play offensive", "move ge-1 liege", "end movement"]
CLOSED = "German: done (declare battles) — ⚑ closed by the referee: the only order open (2.0 II.3)"


def body_of(m) -> str:
    return " ".join(m.get_body(preferencelist=("plain",)).get_content().split())


def reports(outbox: Path) -> dict[str, str]:
    from test_hostile_mail import mails

    sides = {a.casefold(): s for s, a in ADDRESSES.items()}
    return {sides[str(m["To"]).casefold()]: body_of(m) for m in mails(outbox)
            if "report for the" in headline(m)}


@pytest.fixture
def journal(tmp_path, cli) -> Path:
    return new_game(cli, tmp_path / "game")


def test_a_mail_that_leaves_a_decision_with_one_closer_has_it_closed(journal, cli, tmp_path):
    before = len(records(journal))
    body = "\n".join(LIEGE) + f"\n\nOrder key: {KEYS['german']}\n"
    out = handled(cli, journal, eml(tmp_path / "in", mail(body=body)), outbox=tmp_path / "out")
    assert [(o["status"], o["side"]) for o in out] == [("applied", "german")], out
    written = records(journal)[before:]
    assert [(r["order"], r["by"]) for r in written] == [
        ("play offensive", "mail"), ("move ge-1 liege", "mail"), ("end movement", "mail"),
        ("done", "referee")]
    assert "mail" not in written[-1] and out[0]["records"] == [r["seq"] for r in written]
    assert "closed for german: done (2.0 II.3), the only order open" in out[0]["reason"]
    assert pending(journal) == "attacker_cards german"
    seen = reports(tmp_path / "out")
    assert CLOSED in seen["german"] and CLOSED in seen["entente"]
    assert g.verify(journal).records == len(records(journal))


def test_a_game_played_with_order_closes_nothing(tmp_path, cli):
    j = new_game(cli, tmp_path / "game")
    before = len(records(j))
    r = cli("order", j, "--as", "german", *LIEGE)
    assert r.exit_code == 0, r.output
    assert len(records(j)) == before + 3 and pending(j) == "declare_battles german"
    assert all(rec.get("by") != "referee" for rec in records(j))


def test_a_decision_with_one_order_open_only_for_the_hand_is_not_closed(tmp_path):
    """The Entente holds an Ersatz card, no combat card: 'done' is the one order open to him
    at his combat cards (2.0 II.3b), but a hand the German cannot see into might open
    more."""
    j = _artois(tmp_path / "a")
    assert g.submit(j, "german", ["end movement"]).rejected is None
    game = g.open_game(j)
    assert pending(j) == "defender_cards entente"
    assert [format_order(o) for o in legal_orders(game.state, game.data, "entente")
            if o.kind != "armistice"] == ["done"]
    assert closer(game.state, game.data, "entente") is None


def test_nothing_is_closed_under_hidden_templates(tmp_path):
    sc = position("1914", player="german")
    j = case_game(tmp_path, sc, {"hidden_templates": True})
    assert g.submit(j, "german", LIEGE).rejected is None
    game = g.open_game(j)
    assert pending(j) == "declare_battles german"
    assert [format_order(o) for o in legal_orders(game.state, game.data, "german")
            if o.kind != "armistice"] == ["done"]
    assert closer(game.state, game.data, "german") is None


def test_a_game_of_dice_rolled_by_hand_closes_nothing_by_mail(tmp_path, cli):
    from forging import fixed_key
    from test_hostile_mail import GAME, SECRET

    from referee.store.dice import write_secret

    folder = tmp_path / "game"
    folder.mkdir()
    write_secret(folder / "fixed.secret", SECRET)
    j = folder / "g.jsonl"
    r = cli("new", j, "--scenario", "1914", "--game-id", GAME, "--dice", "manual",
            "--secret-file", folder / "fixed.secret",
            "--signing-key", fixed_key(tmp_path / "keys"),
            *[a for side, addr in ADDRESSES.items() for a in ("--player", f"{side}={addr}")])
    assert r.exit_code == 0, r.output
    body = "\n".join(LIEGE) + f"\n\nOrder key: {KEYS['german']}\n"
    out = handled(cli, j, eml(tmp_path / "in", mail(body=body)), outbox=tmp_path / "out")
    assert [o["status"] for o in out] == ["applied"], out
    assert pending(j) == "declare_battles german"


def test_verify_refuses_a_record_the_referee_could_not_have_closed(journal, cli, tmp_path):
    """The holder of the game's key marks an order given by hand as closed by the referee:
    'end movement' was not the only order open, so verify names the record."""
    r = cli("order", journal, "--as", "german", *LIEGE[:2])
    assert r.exit_code == 0, r.output
    out = records(journal)
    out[-1]["by"] = "referee"
    forged = tmp_path / "forged.jsonl"
    out = write_resigned(forged, out)
    r = cli("verify", forged, "--format", "json")
    assert r.exit_code == 3, (r.exit_code, r.stdout, r.stderr)
    said = r.stderr + r.stdout
    assert f"record {out[-1]['seq']}" in said and "closed the German player's decision" in said
    assert json.loads(r.stdout or "{}").get("ok") is not True


def test_a_report_lists_the_orders_after_a_decision_with_one_order_open(tmp_path, cli):
    """The Entente's one order at his combat cards is 'done' (his hand holds none, so the
    referee asks him: 2.0 II.3b); his report lists the orders of his defence after it
    (5.4.1), so that one mail answers both."""
    j = _artois(tmp_path / "a")
    assert g.submit(j, "german", ["end movement"]).rejected is None
    r = cli("report", j, "--as", "entente")
    assert r.exit_code == 0, r.stderr
    text = " ".join(r.stdout.split())
    assert ("Your one order now is done; after it you decide defence (5.4.1), with these "
            "orders open (give them in the same mail, after it):") in text
    assert "- retreat uk-3, uk-3:infantry, uk-1, uk-1:infantry → Calais" in text
    german = " ".join(cli("report", j, "--as", "german").stdout.split())
    assert "Your one order now" not in german and "retreat uk-3" not in german
