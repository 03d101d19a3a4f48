"""What `referee games check` says about a game beside its problems: the ruleset named in
game.yaml and each scenario's title, provenance, notes and the status of the countries at
its start (game.yaml `ruleset`; scenarios `provenance`, `status`, `notes`)."""

from __future__ import annotations

from .gamedata import GameData


def _line(text: object) -> str:
    """Data text on one terminal line: control characters (untrusted data) become '?'."""
    return "".join(c if c.isprintable() else "?" for c in " ".join(str(text).split()))


def describe(data: GameData) -> list[str]:
    """The ruleset and every scenario's descriptive text, as lines (game.yaml, scenarios)."""
    out = [f"ruleset: {_line(data.info.ruleset)}"] if data.info.ruleset else []
    for sid, sc in data.scenarios.items():
        out.append(f"scenario {_line(sid)}: {_line(sc.title)} ({_line(sc.provenance)})")
        if sc.status:
            out.append("  status: " + "; ".join(f"{_line(k)} {_line(v)}"
                                                 for k, v in sc.status.items()))
        out.extend(f"  note: {_line(n)}" for n in sc.notes)
    return out
