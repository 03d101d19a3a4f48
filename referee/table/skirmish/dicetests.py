"""The dice tests of the card, each from declared facts and dice from the committed secret:
the dice rolled, every modifier applied with the line of the card it comes from, the result,
and its effects on the forces (deltas, so that a settled dispute can take them back)."""

from __future__ import annotations

from dataclasses import dataclass, field

import msgspec.structs

from ...base.plurals import counted
from ...contracts.skirmish import Modifier, SkirmishCard
from .state import FigureState, SectionState


@dataclass
class Outcome:
    rule: str
    result: str
    dice: list[dict] = field(default_factory=list)
    modifiers: list[dict] = field(default_factory=list)
    effects: list[dict] = field(default_factory=list)


def _roll(dice, out: Outcome, sides: int, count: int, purpose: str) -> list[int]:
    values = dice.roll(sides, count, purpose)
    out.dice += [{"die": sides, "value": v, "for": purpose} for v in values]
    return values


def _mod(m: Modifier, rule: str, who: str = "") -> dict:
    return {"id": m.id, "value": m.value, "why": m.text, "rule": rule,
            **({"who": who} if who else {})}


def _mods(mods: list[Modifier], rule: str, ids: set[str], who: str = "") -> list[dict]:
    return [_mod(m, rule, who) for m in mods if m.id in ids]


def move(card: SkirmishCard, fig: FigureState, facts: dict, dice) -> Outcome:
    """Movement: the distance the mode allows, a base plus D6s (Movement)."""
    mode = card.movement.modes[facts["mode"]]
    out = Outcome(card.movement.rule, "")
    rolled = _roll(dice, out, 6, mode.dice, f"{fig.id} {facts['mode']} move")
    inches = mode.base + sum(rolled)
    out.result = f"{fig.id} may move up to {inches}\" ({facts['mode']})"
    return out


def automatic_range(card: SkirmishCard, facts: dict) -> int | None:
    """The automatic spotting range: the smallest of the card's rows that apply, None when
    none does (seen at any range in line of sight)."""
    got = {k: facts.get(k) for k in ("light", "state", "cover")}
    fits = [row.range for row in card.spotting.automatic
            if all(not allowed or got[k] in allowed
                   for k, allowed in msgspec.structs.asdict(row.when).items())]
    return min(fits) if fits else None


def spot(card: SkirmishCard, spotter: FigureState, target: FigureState, facts: dict,
         dice) -> Outcome:
    """Spotting (Visibility): a target that fires is seen; within the automatic range it is
    seen; beyond it a D6 by the spotter's quality (6 through a gas mask). A sniper is never
    seen by range alone: spotting him always takes a 6 (unless he fires)."""
    sp = card.spotting
    out = Outcome(sp.rule, "")
    if facts.get("state") == "firing":
        out.result = f"{target.id} spotted: it fires in line of sight"
        return out
    auto = automatic_range(card, facts)
    if target.role != "sniper" and (auto is None or facts["range"] <= auto):
        limit = "any range" if auto is None else f'{auto}"'
        out.result = f"{target.id} spotted automatically (within {limit})"
        return out
    need, why = sp.roll[spotter.quality], spotter.quality
    if spotter.gas_mask:
        need, why = max(need, sp.gas_mask), "spotter in a gas mask"
    if target.role == "sniper":
        need, why = max(need, sp.sniper), "target is a sniper"
    (v,) = _roll(dice, out, 6, 1, f"{spotter.id} spots {target.id}")
    seen = "spotted" if v >= need else "not spotted"
    within = "never automatic for a sniper" if target.role == "sniper" else \
        f"automatic only within {auto}\""
    out.result = f"{target.id} {seen} (D6 {v}, {need}+ needed: {why}; {within})"
    return out


def _aimed_ids(card, firer, target, facts, weapon) -> set[str]:
    m = {x.id: x for x in card.aimed.modifiers}
    ids = set()
    if weapon.area and facts.get("confined"):
        ids.add("confined")
    if weapon.thrown and firer.role == "bomber" and facts["range"] <= weapon.range:
        ids.add("bomber")
    if firer.role == "marksman":
        ids.add("marksman")
    far = m["far_still"]
    if facts.get("state") in far.states and facts["range"] > (far.beyond or 0):
        ids.add("far_still")
    # "-2 if firer is Raw", and Irregular counted as Raw where the card has that line
    ids |= {x.id for x in card.aimed.modifiers if firer.quality in x.qualities}
    if firer.gas_mask:
        ids.add("gas_mask")
    if facts.get("cover") == "hard" or target.body_armour:
        ids.add("protected")
    return ids


def fire_dice(card: SkirmishCard, firer: FigureState, targets: list, facts: dict) -> int:
    """How many fire dice the weapon throws (Weapon Ranges)."""
    w = card.weapons.kinds[firer.weapon]
    if w.per_figure:
        return w.per_figure * len(targets)
    return facts.get("dice", w.dice[0])


def _aimed_result(card: SkirmishCard, score: int) -> str:
    """The row of the Aimed Fire table a modified score falls in (below the lowest row: the
    lowest row's result)."""
    return next((r.result for r in card.aimed.results if score >= r.from_),
                card.aimed.results[-1].result)


def aimed(card: SkirmishCard, firer: FigureState, targets: list[FigureState], facts: dict,
          dice) -> Outcome:
    """Aimed fire (D20): each die at a target in turn, modified; 18+ killed, 15+ pinned."""
    a, w = card.aimed, card.weapons.kinds[firer.weapon]
    out = Outcome(a.rule, "")
    rolled = _roll(dice, out, a.die, fire_dice(card, firer, targets, facts),
                   f"{firer.id} aimed fire ({w.name})")
    best: dict[str, str] = {}
    scores: dict[str, list[int]] = {}
    rank = ["miss", "pinned", "killed"]
    for i, v in enumerate(rolled):
        t = targets[i % len(targets)]
        mods = _mods(a.modifiers, a.rule, _aimed_ids(card, firer, t, facts, w), t.id)
        out.modifiers += mods if t.id not in best else []
        score = v + sum(m["value"] for m in mods)
        scores.setdefault(t.id, []).append(score)
        got = _aimed_result(card, score)
        if rank.index(got) >= rank.index(best.get(t.id, "miss")):
            best[t.id] = got
    out.effects = [_fire_effect(t, r) for t, r in best.items() if r != "miss"]
    out.result = "; ".join(f"{t} {r}" + (aimed_scores(card, scores[t]) if card.aimed_scores
                                         else "") for t, r in best.items())
    return out


def aimed_scores(card: SkirmishCard, scores: list[int]) -> str:
    """An aimed shot's modified scores at one target and the scores its table needs:
    ' (score 6; 15+ pinned, 18+ killed)' (card aimed_scores)."""
    rows = sorted((r for r in card.aimed.results if r.result != "miss"), key=lambda r: r.from_)
    needs = ", ".join(f"{r.from_}+ {r.result}" for r in rows)
    return f" ({'scores' if len(scores) > 1 else 'score'} {', '.join(map(str, scores))}; " \
           f"{needs})"


def _fire_effect(target: str, result: str) -> dict:
    return {"figure": target, "killed": 1} if result == "killed" else \
        {"figure": target, "pins": 1}


def unaimed(card: SkirmishCard, firer: FigureState, target: FigureState, facts: dict,
            dice) -> Outcome:
    """Unaimed fire to pin (D20): the score needed by the target's quality, moved by the
    card's modifiers; any die reaching it pins the target."""
    u, w = card.unaimed, card.weapons.kinds[firer.weapon]
    fierce = next(m for m in u.modifiers if m.id == "ferocious_advancing")
    ids = set()
    if facts.get("cover") == "hard":
        ids.add("hard_cover")
    if target.quality in fierce.qualities and facts.get("advancing"):
        ids.add("ferocious_advancing")
    if w.area:
        ids.add("area_weapon")
    if facts.get("rapid"):
        ids.add("rapid_fire")
    if w.automatic:
        ids.add("automatic")
    out = Outcome(u.rule, "", modifiers=_mods(u.modifiers, u.rule, ids, target.id))
    need = u.needed[target.quality] + sum(m["value"] for m in out.modifiers)
    rolled = _roll(dice, out, u.die, fire_dice(card, firer, [target], facts),
                   f"{firer.id} unaimed fire ({w.name}) at {target.id}")
    pinned = any(v >= need for v in rolled)
    told = needed_words(card, target, out.modifiers, need) if card.unaimed_needs \
        else f"{need}+ needed"
    out.result = f"{target.id} {'pinned' if pinned else 'not pinned'} ({told})"
    out.effects = [{"figure": target.id, "pins": 1}] if pinned else []
    return out


def needed_words(card: SkirmishCard, target: FigureState, mods: list[dict], need: int) -> str:
    """What unaimed fire's dice (shown before it) were compared with (card unaimed_needs):
    '18 or more needed: Stubborn 17, +1 target in hard cover raising it'. Its modifiers move
    the score needed, not the die: each is marked so (on: needed), and the report lists
    none of them as added to the die."""
    for m in mods:
        m["on"] = "needed"
    base = card.unaimed.needed[target.quality]
    moved = "".join(f", {m['value']:+d} {m['why']} {'raising' if m['value'] > 0 else 'lowering'}"
                    f" it" for m in mods)
    return f"{need} or more needed: {target.quality.capitalize()} {base}{moved}"


def _melee_mods(card: SkirmishCard, f: FigureState, second: bool) -> list[dict]:
    m = card.melee
    ids = {x.id for x in m.modifiers if f.quality in x.qualities}
    if second:
        ids.add("second")
    if f.body_armour:
        ids.add("armour")
    if f.pins:
        ids.add("pinned")
    return _mods(m.modifiers, m.rule, ids, f.id)


def melee(card: SkirmishCard, defender: FigureState, attackers: list[FigureState],
          dice) -> Outcome:
    """Hand-to-hand: a D6 per figure, modified; each attacker against the defender, the one
    2 or more below killed, 1 below pinned."""
    m = card.melee
    out = Outcome(m.rule, "")
    figs = [defender] + attackers
    rolled = _roll(dice, out, m.die, len(figs), "melee " + ", ".join(f.id for f in figs))
    score = {}
    for i, (f, v) in enumerate(zip(figs, rolled)):
        mods = _melee_mods(card, f, second=i == 2)
        out.modifiers += mods
        score[f.id] = v + sum(x["value"] for x in mods)
    lines, killed = [], set()
    for a in attackers:
        gap = score[a.id] - score[defender.id]
        loser = defender.id if gap > 0 else a.id
        if abs(gap) >= m.killed_by:
            if loser not in killed:             # a figure dies once, whoever beat it
                out.effects.append({"figure": loser, "killed": 1})
            killed.add(loser)
            lines.append(f"{a.id} {score[a.id]} v {defender.id} {score[defender.id]}: "
                         f"{loser} killed")
        elif abs(gap) >= m.pinned_by:
            out.effects.append({"figure": loser, "pins": 1})
            lines.append(f"{a.id} {score[a.id]} v {defender.id} {score[defender.id]}: "
                         f"{loser} pinned")
        else:
            lines.append(f"{a.id} {score[a.id]} v {defender.id} {score[defender.id]}: "
                         f"no result")
    out.result = "; ".join(_once(lines) if card.said_once else lines)
    return out


def _once(lines: list[str]) -> list[str]:
    """A melee's results with the attackers that reach the same outcome said together
    (card said_once): 'B5 3 v G6 1, B2 8 v G6 1: G6 killed', not 'G6 killed' twice."""
    out: list[str] = []
    for line in lines:
        scores, _, what = line.rpartition(": ")
        if out and out[-1].endswith(f": {what}"):
            out[-1] = f"{out[-1].rpartition(': ')[0]}, {scores}: {what}"
        else:
            out.append(line)
    return out


def morale_quality(card: SkirmishCard, quality: str, facts: dict) -> str:
    """The quality a section tests as: Ferocious and Stubborn by circumstance (Morale)."""
    rated = card.morale.counts_as.get(quality)
    if rated is None:
        return quality
    if rated.advancing and facts.get("advancing"):
        return rated.advancing
    if rated.defending and facts.get("defending"):
        return rated.defending
    return rated.otherwise


def morale(card: SkirmishCard, section: SectionState, figures: list[FigureState],
           facts: dict, dice) -> Outcome:
    """A section's morale test (D6 by quality); a failure adds a marker: the second pins
    every figure, the third disperses the section."""
    mo = card.morale
    q = morale_quality(card, section.quality, facts)
    need = mo.needed[q]
    out = Outcome(mo.rule, "")
    (v,) = _roll(dice, out, mo.die, 1, f"section {section.id} morale ({facts['trigger']})")
    if q != section.quality:
        out.modifiers.append({"id": "counts_as", "value": 0, "rule": mo.rule,
                              "why": f"{section.quality} counts as {q}"})
    if v >= need:
        out.result = f"section {section.id} passes (D6 {v}, {need}+ as {q})"
        return out
    n = section.failures + 1
    out.effects = [{"section": section.id, "failures": 1}]
    if n == 2:
        out.effects += [{"figure": f.id, "pins": 1} for f in figures if f.active]
    if n >= 3:
        out.effects.append({"section": section.id, "dispersed": 1})
    what = mo.failures.get(str(min(n, 3)), "")
    out.result = f"section {section.id} fails (D6 {v}, {need}+ as {q}): failure {n}, {what}"
    return out


def rally(card: SkirmishCard, section: SectionState, dice) -> Outcome:
    """Rallying: a stationary section with a morale marker removes one on its score."""
    r = card.rally
    need = r.needed[section.quality]
    out = Outcome(r.rule, "")
    (v,) = _roll(dice, out, r.die, 1, f"section {section.id} rallies")
    ok = v >= need
    out.effects = [{"section": section.id, "failures": -1}] if ok else []
    out.result = f"section {section.id} {'rallies' if ok else 'does not rally'} " \
                 f"(D6 {v}, {need}+ as {section.quality})"
    return out


def unpin(card: SkirmishCard, fig: FigureState, dice) -> Outcome:
    """Removing pins: D6s by quality, each 5-6 removes one pin."""
    u = card.unpin
    out = Outcome(u.rule, "")
    rolled = _roll(dice, out, u.die, u.dice[fig.quality], f"{fig.id} removes pins")
    gone = min(fig.pins, sum(1 for v in rolled if v >= u.success))
    out.effects = [{"figure": fig.id, "pins": -gone}] if gone else []
    out.result = f"{fig.id} removes {gone} pin(s), {fig.pins - gone} left"
    if u.told:      # the dice, the score and the pins before (card unpin.told)
        top = f"{u.success}-{u.die}" if u.success < u.die else str(u.die)
        out.result = f"{fig.id} removes {gone} of {counted(fig.pins, 'pin')}, " \
                     f"{fig.pins - gone} left ({fig.quality.capitalize()}: " \
                     f"{u.dice[fig.quality]}D{u.die}, each {top} removes one pin)"
    return out


def surrender(card: SkirmishCard, figs: list[FigureState], facts: dict) -> Outcome:
    """Surrendering: never Gallant; routing troops with enemy between them and their edge
    within 6"; a figure in melee with four or more enemies near, closer than friends."""
    s = card.surrender
    out = Outcome(s.rule, "")
    why = ""
    if facts["reason"] == "routing":
        due = facts.get("between", False) and facts.get("within", 999) <= s.routing_within
    else:
        n, closer = facts.get("enemies", 0), facts.get("closer", False)
        due = n >= s.melee_enemies and closer
        if not due and s.melee_checked:     # the number the card asks (surrender.melee_checked)
            why = f" ({counted(n, 'enemy', 'enemies')} near, {'' if closer else 'not '}closer " \
                  f"than its friends: the card asks {s.melee_enemies} or more, closer)"
    gone = [f for f in figs if f.active and f.quality not in s.never] if due else []
    kept = [f.id for f in figs if f.active and f.quality in s.never]
    out.effects = [{"figure": f.id, "surrendered": 1} for f in gone]
    out.result = (f"{', '.join(f.id for f in gone)} surrender" if gone else
                  f"no surrender{why}") \
        + (f" ({', '.join(kept)} never surrender: {', '.join(s.never)})" if due and kept
           else "")
    return out
