"""What `referee games check` says about a game beside its problems, for the owners who
correct its data: the ruleset named in game.yaml; each chart's reasoning, anchors and notes
and what each VP modifier counts (charts.yaml); how units reach each off-map box (map.yaml
`access_note`); what each Commonwealth swap replaces and the neutrals' notes (events.yaml);
each scenario's title, provenance, notes and the status of the countries at its start."""

from __future__ import annotations

from .gamedata import GameData


def _line(text: object) -> str:
    """Data text on one terminal line: control characters (untrusted data) become '?'."""
    return "".join(c if c.isprintable() else "?" for c in " ".join(str(text).split()))


def _flat(doc: object, path: str = "") -> list[tuple[str, str]]:
    """A nested mapping of notes as (dotted path, one line of text) pairs."""
    if isinstance(doc, dict):
        return [x for k, v in doc.items() for x in _flat(v, f"{path}.{k}" if path else str(k))]
    if isinstance(doc, list):
        return [x for i, v in enumerate(doc) for x in _flat(v, f"{path}[{i}]")]
    return [(_line(path), _line(doc))]


def describe(data: GameData) -> list[str]:
    """The ruleset and every scenario's descriptive text, as lines (game.yaml, scenarios)."""
    out = [f"ruleset: {_line(data.info.ruleset)}"] if data.info.ruleset else []
    for name in ("build_points", "card_limit", "victory", "total_blockade",
                 "artillery_per_army", "army_templates"):
        chart = getattr(data.charts, name)
        for key in ("reasoning", "anchors"):
            if getattr(chart, key, ""):
                out.append(f"chart {name} {key}: {_line(getattr(chart, key))}")
        out.extend(f"chart {name} note: {_line(n)}" for n in getattr(chart, "notes", ()))
    mods = data.charts.victory.modifiers
    for m in mods.items:
        vp = "" if m.vp is None else f"{m.vp:+d} per "
        out.append(f"VP modifier {_line(m.id)}: {vp}{_line(m.per)}")
    out.extend(f"VP modifier note: {_line(n)}" for n in mods.notes)
    for b in data.map.boxes:
        if b.access_note:
            out.append(f"box {_line(b.name)}: {_line(b.access_note)}")
    for t in data.events.turns:
        out.extend(f"turn {t.turn} swap: {_line(sw.name)} replaces {_line(sw.replaces)}"
                   for sw in t.swaps)
    out.extend(f"neutrals {path}: {text}" for path, text in _flat(data.events.neutrals))
    for sid, sc in data.scenarios.items():
        out.append(f"scenario {_line(sid)}: {_line(sc.title)} ({_line(sc.provenance)})")
        if sc.status:
            out.append("  status: " + "; ".join(f"{_line(k)} {_line(v)}"
                                                 for k, v in sc.status.items()))
        out.extend(f"  note: {_line(n)}" for n in sc.notes)
    return out
