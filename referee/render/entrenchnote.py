"""What a report adds to an army's entrenchment when the army holds nothing that benefits:
an army may be entrenched whatever it holds (7.4; 6.4: armies and infantry units in supply
may entrench), but Stoßtruppen never entrench nor benefit from an entrenched army (8.2.2),
nor do auxiliaries (8.1); infantry that join it later are entrenched with it (4.3). The
event names the army alone, so the note is worked out from the position after the record,
and told only to a reader who may see the army's template (hidden_templates, 1.4).
"""

from __future__ import annotations

from ..base.plurals import joined
from ..base.readers import may_see

# Imported for annotations only: the quick paths do without the typing module.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..data.gamedata import GameData

NOTE = "_note"          # the key of the note in the event copy words_production reads


def with_note(ev: dict, state, data: GameData, reader: str) -> dict:
    """An UnitEntrenched event as a report tells it: for an army holding units of which
    none entrenches, what the entrenchment gives them (nothing) and whom it serves."""
    if ev.get("type") != "UnitEntrenched" or state is None:
        return ev
    army = state.armies.get(ev["unit"])
    if army is None or not army.contents:
        return ev
    side = data.nation_side[army.nation]
    if state.options.get("hidden_templates", False) and not may_see(reader, side):
        return ev
    kinds = sorted({key.split(":")[1] for key in army.contents})
    entrenching = data.units.entrenching
    if any(k in entrenching for k in kinds):
        return ev
    types = data.units.unit_types
    held = joined([f"{k.replace('_', ' ')} ({types[k].rule})" if k in types else k
                   for k in kinds])
    return {**ev, NOTE: f"it holds only {held}, which get nothing of it; infantry that "
                        f"join it later are entrenched with it (4.3)"}
