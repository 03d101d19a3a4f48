"""A deadline mail tells another reader an answer the referee gave for a hidden army's
attrition loss (6.5, 1.4) by the heading every other view gives it (game/hiddenloss.py), not
by replay's placeholder for an order between army templates, which reads as a move."""

from __future__ import annotations

from referee.game.hiddenloss import ATTRITION_HIDDEN
from referee.game.replay import PRIVATE
from referee.mail.reminders import _shown


def _answered(events: list[dict]) -> dict:
    return {"seq": 12, "actor": "german", "order": PRIVATE, "events": events,
            "clock": {"rule": "6.5"}}


def test_another_reader_reads_a_hidden_attrition_answer_as_one():
    rec = _answered([{"type": "AttritionTaken", "side": "german"}])
    assert _shown(None, rec, None, mine=False) == (ATTRITION_HIDDEN, "")


def test_another_hidden_answer_keeps_its_placeholder():
    rec = _answered([{"type": "TemplateChanged", "side": "german"}])
    assert _shown(None, rec, None, mine=False) == (PRIVATE, "")
