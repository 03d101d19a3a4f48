"""The facts of a fire order whose reading hangs on the firer's weapon or its target
(card.yaml facts_read): confined= is read for an area weapon's aimed fire alone, dice= for
a weapon that fires several dice (the LMG's 3 or 5 the firer chooses), advancing= for
unaimed fire at a Ferocious target. Any other such fact would be recorded and shown as
declared though nothing reads it: it is refused, and a form does not offer it."""

from __future__ import annotations

from ...contracts.skirmish import SkirmishCard, Weapon
from .state import FigureState

Refusal = tuple[str, str]
HANGING = ("confined", "dice", "advancing")
AIMED_MODIFIERS = "Aimed Fire Modifiers"        # the card's sections of the modifiers
UNAIMED_MODIFIERS = "Unaimed Fire Modifiers"


def several_dice(w: Weapon) -> bool:
    """A weapon whose fire dice the firer may state (Weapon Ranges: SMG 3, LMG 3/5...), not
    one that fires a die (a rifle) or dice by the figures in its blast (a grenade)."""
    return not w.per_figure and max(w.dice, default=1) > 1


def ferocious(card: SkirmishCard) -> list[str]:
    """The qualities "target is Ferocious and advancing" is for."""
    return next((m.qualities for m in card.unaimed.modifiers
                 if m.id == "ferocious_advancing"), [])


def reads(card: SkirmishCard, kind: str, w: Weapon, targets: list[FigureState]) -> set[str]:
    """Of the HANGING facts, those the test of kind (fire, unaimed) reads for weapon w at
    targets."""
    out = {"dice"} if several_dice(w) else set()
    if kind == "fire" and w.area:
        out.add("confined")
    if kind == "unaimed" and any(t.quality in ferocious(card) for t in targets):
        out.add("advancing")
    return out


def unread(card: SkirmishCard, kind: str, facts: dict, w: Weapon,
           targets: list[FigureState]) -> Refusal | None:
    """The first fact declared that the test cannot read, and why (None: each is read, or
    the card is of a journal made before facts_read)."""
    if not card.facts_read:
        return None
    read = reads(card, kind, w, targets)
    key = next((k for k in HANGING if k in facts and k not in read), None)
    if key is None:
        return None
    said = f"{key}={facts[key]}" if key == "dice" else \
        f"{key}={'yes' if facts[key] else 'no'}"
    if key == "confined":
        return AIMED_MODIFIERS, f"{said}: only an area weapon's fire reads it, not a {w.name}'s"
    if key == "dice":
        some = ", ".join(f"{v.name} {'/'.join(map(str, v.dice))}"
                         for v in card.weapons.kinds.values() if several_dice(v))
        return card.weapons.rule, (f"{said}: only a weapon firing several dice reads it "
                                   f"({some}), not a {w.name}")
    t = targets[0]
    return UNAIMED_MODIFIERS, (f"{said}: only fire at a Ferocious target reads it, and "
                               f"{t.id} is {t.quality}")


def kept(card: SkirmishCard, kind: str, facts: dict, w: Weapon,
         targets: list[FigureState]) -> dict:
    """facts less those the test cannot read (a settle's correction: advancing= recorded at
    a Ferocious target, the target corrected to another)."""
    if not card.facts_read or kind not in ("fire", "unaimed"):
        return facts
    read = reads(card, kind, w, targets)
    return {k: v for k, v in facts.items() if k not in HANGING or k in read}


def morale_unread(card: SkirmishCard, section_id: str, quality: str, facts: dict
                  ) -> Refusal | None:
    """A morale order's fact its section's line of the table does not read (card
    morale.facts_read): advancing= where the section's quality is not rated by advancing
    (Ferocious), defending= where it is not rated by defending (Stubborn)."""
    mo = card.morale
    if not mo.facts_read:
        return None
    rated = mo.counts_as.get(quality)
    for key in ("advancing", "defending"):
        if key in facts and not (rated is not None and getattr(rated, key)):
            who = [f"{q.capitalize()} counts as {getattr(r, key).capitalize()} if {key}"
                   for q, r in mo.counts_as.items() if getattr(r, key)]
            return mo.rule, (f"{key}={'yes' if facts[key] else 'no'}: only a section the "
                             f"morale table rates by it reads it ({'; '.join(who)}), and "
                             f"section {section_id} is {quality}")
    return None
