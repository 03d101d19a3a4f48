"""Card, If Pinned: a pinned figure "may not ... move closer to enemy until pin removed".
With the card's melee.contact_unpinned its move away (away=yes) is refused when it declares
contact=yes, citing If Pinned, bold or not (a Gallant, Ferocious or Stubborn attacker ignores
a pin that halts it short of its defender, not one that bars the move). A journal made
before (its record 0's card has no contact_unpinned) took that move, as it was played."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
from pydantic import TypeAdapter
from skirmish_cases import ONE_STEP, Table, figure

from referee.contracts.skirmish import SkirmishCard

AWAY = "move R1 mode=assault away=yes contact=yes at=B1 command=yes"
BEFORE = Path(__file__).parent.parent / "fixtures" / "skirmish-before-turns" / "journal.jsonl"


def _pinned(card=ONE_STEP, quality="regular") -> Table:
    t = Table(red=[figure("R1", quality=quality)], blue=[figure("B1")], phase="movement",
              card=card)
    t.fig("R1").pins = 1
    return t


def test_a_pinned_figure_moving_away_is_refused_contact_bold_or_not():
    for quality in ("regular", "gallant"):
        t = _pinned(quality=quality)
        rule, why = t.refusal("red", AWAY)
        assert rule == "If Pinned" and "R1 is pinned" in why and "closer" in why, why
        assert t.refusal("red", "move R1 mode=assault away=yes command=yes") is None


def test_a_journal_made_before_took_the_pinned_figure_s_move_into_contact():
    header = json.loads(BEFORE.read_text(encoding="utf-8").splitlines()[0])
    card = TypeAdapter(SkirmishCard).validate_python(header["card_data"])
    assert card.melee.contact_unpinned is False
    old = msgspec.structs.replace(ONE_STEP, melee=msgspec.structs.replace(
        ONE_STEP.melee, contact_unpinned=False))
    t = _pinned(card=old)
    assert t.refusal("red", AWAY) is None
    t.test("red", AWAY, [3])
    assert t.fig("R1").contact_at == "B1"
