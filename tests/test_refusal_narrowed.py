"""A refused line that names a unit lists the orders open to that unit, not every move of
every unit: a typo in 'mvoe ge-2 liege' opened its reply with sixty lines of options before
the decision. The reply says the list is narrowed and where the rest is; a line that names
no unit keeps the whole list."""

from __future__ import annotations

from test_inbox import KEYS
from test_mailflow import SIDE_OF, Table, _game, text_of

from referee.render.narrowed import narrowed


def _reply(tmp_path, cli, orders: list[str]) -> list[str]:
    journal = _game(tmp_path, cli)
    table = Table(tmp_path, cli, journal, KEYS)
    table.inbox()
    table.send("german", orders)
    _, mails = table.inbox()
    (reply,) = [m for m in mails if SIDE_OF[str(m["To"]).casefold()] == "german"]
    lines = text_of(reply).split("\n")
    at = next(i for i, ln in enumerate(lines) if ln.startswith("At that line"))
    return lines[at:lines.index("Below: what you are asked now, then your report.")]


def test_a_typo_naming_a_unit_lists_that_unit_s_orders(tmp_path, cli):
    listed = _reply(tmp_path, cli, ["play offensive", "move ge-1 liege", "mvoe ge-2 liege"])
    said = " ".join(" ".join(listed).split())
    assert said.startswith("At that line, after the 2 orders before it, the orders open "
                           "were, for ge-2 (the line names it; the other units' orders are "
                           "not listed here, and the report below lists every order open "
                           "before your mail):"), said
    items = [ln for ln in listed if ln.startswith("- ")]
    assert items and all(ln.startswith(("- move ge-2", "- rail ge-2", "- Also:"))
                         for ln in items), items
    assert "end movement" in said and "ge-3" not in said.split("):")[1], said


def test_a_line_naming_no_unit_keeps_the_whole_list(tmp_path, cli):
    listed = _reply(tmp_path, cli, ["play offensive", "mvoe liege"])
    said = " ".join(listed)
    assert listed[0] == "At that line, after the 1 order before it, the orders open were:"
    assert "- move ge-1" in said and "- move ge-3" in said, said


def test_narrowing_keeps_an_army_s_template_units_and_the_orders_of_no_unit():
    legal = ["move ge-2 cologne", "move ge-2:cavalry eifel", "move ge-3 aachen",
             "rail ge-2 trier", "end movement", "surrender"]
    assert narrowed(legal, "mvoe ge-2 liege") == (
        ["move ge-2 cologne", "move ge-2:cavalry eifel", "rail ge-2 trier", "end movement",
         "surrender"], ["ge-2"])
    assert narrowed(legal, "move ge-2:cavalry liege") == (
        ["move ge-2:cavalry eifel", "end movement", "surrender"], ["ge-2:cavalry"])
    assert narrowed(legal, "mvoe liege") is None
    assert narrowed(legal, "move ge-9 liege") is None
