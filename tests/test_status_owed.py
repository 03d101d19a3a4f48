"""A retreat a rule compels is told by `status` before the player's 'done' is refused for it
(8.1, 9.1.6): in every format and in his report's 'Your decision', in the words and with the
rule of the engine's own refusal of 'done' (legal_orders and its check decide; nothing here
weighs the retreat again)."""

from __future__ import annotations

import json

import gamecalls as g
from casebook import new_game, position

EMPTY = "army uk-2 is empty and must retreat from the battle in the defensive fire phase " \
        "(rule 8.1)"


def _empty_army_in_battle(tmp_path):
    """The Artois example of 8.1 (tests/rulebook/5.4.4-...): the empty uk-2 defends Artois."""
    sc = position("1916", player="german", hands={"german": ["off-01"], "entente": ["ers2-01"]},
                  remove_units=["uk-1", "uk-2", "ge-4"],
                  add_units=["uk-1 uk army artois 3I entrenched", "uk-2 uk army artois empty",
                             "ge-4 ge army artois 3I", "ge-i-30 ge infantry somme",
                             "uk-i-13 uk infantry somme"])
    j = new_game(tmp_path, sc, dice="manual")
    for side, order in (("german", "play offensive"), ("german", "end movement"),
                        ("german", "battle artois"), ("german", "done"), ("entente", "done")):
        assert g.submit(j, side, [order]).rejected is None, order
    refused = g.submit(j, "entente", ["done"]).rejected[2]
    assert str(refused).endswith(EMPTY), refused      # the words status must give first
    return j


def test_status_says_what_is_owed_before_done_in_every_format(tmp_path, cli):
    j = _empty_army_in_battle(tmp_path)
    view = json.loads(cli("status", j, "--as", "entente", "--format", "json").stdout)
    assert view["owed"] == EMPTY and "done" not in view["legal"], view
    for fmt in ("text", "markdown", "bbcode"):
        out = " ".join(cli("status", j, "--as", "entente", "--format", fmt).stdout.split())
        assert "Owed before 'done':" in out and EMPTY in out, (fmt, out)
    moderator = json.loads(cli("status", j, "--as", "moderator", "--format", "json").stdout)
    assert moderator["owed"] == EMPTY
    # The moderator owes nothing himself: the side that owes it is named.
    out = " ".join(cli("status", j, "--as", "moderator").stdout.split())
    assert f"Owed by the Entente player before 'done': {EMPTY}." in out, out
    # The side not asked, and the public, owe nothing now.
    for reader in ("german", "public"):
        assert "owed" not in json.loads(
            cli("status", j, "--as", reader, "--format", "json").stdout), reader


def test_the_report_s_decision_tells_what_is_owed(tmp_path, cli):
    j = _empty_army_in_battle(tmp_path)
    report = " ".join(cli("report", j, "--as", "entente").stdout.split())
    decision = report[report.index("Your decision:"):]
    assert f"Owed before 'done': {EMPTY}." in decision, decision


def test_nothing_is_owed_while_done_is_open(game, cli):
    """SUMMER 1914's opening: the German plays a card or passes; no 'done' asked, none owed."""
    view = json.loads(cli("status", game, "--as", "german", "--format", "json").stdout)
    assert "owed" not in view


def test_a_plan_that_closes_by_itself_owes_without_a_done():
    """2.0 I: a plan of placements closes by itself with its last arrival placed, and the mail
    says 'and no done'; what it owes is not 'owed before done' beside that."""
    from referee.render.documents import owed_blocks
    from referee.render.formats import render
    from referee.render.sections import Document, Section

    owed = "reinforcements must be placed while a legal place exists (rule 2.0 I)"

    def told(decision: str) -> str:
        blocks = owed_blocks({"owed": owed, "decision": decision})
        return " ".join(render(Document("", [Section("", blocks)]), "text", 72).split())

    for decision in ("reinforce", "discard_excess"):
        assert told(decision) == f"Owed in your plan: {owed}.", decision
    assert told("battle_losses") == f"Owed before 'done': {owed}."


def test_the_moderator_is_told_whose_plan_owes_it():
    """The moderator has no plan of his own: his status names the side whose plan owes it
    (the side's own status and report say 'your plan')."""
    from referee.render.documents import owed_blocks
    from referee.render.formats import render
    from referee.render.sections import Document, Section

    owed = "reinforcements must be placed while a legal place exists (rule 2.0 I)"

    def told(reader: str) -> str:
        blocks = owed_blocks({"owed": owed, "decision": "reinforce", "reader": reader,
                              "legal_for": "german"})
        return " ".join(render(Document("", [Section("", blocks)]), "text", 72).split())

    assert told("moderator") == f"Owed in the German player's plan: {owed}."
    assert told("german") == f"Owed in your plan: {owed}."
