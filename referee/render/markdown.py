"""Markdown for forum posts: the state as a table."""

from __future__ import annotations

from .text import hand_text, unit_text

# Imported for annotations only: the quick paths do without the typing module.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def show_markdown(view: dict[str, Any]) -> str:
    """`show` as markdown: a heading, the VP line, a table of areas, the reader's hand."""
    vp = view["vp"]
    lines = [
        f"## TO THE LAST MAN! — {view['label']} (turn {view['turn']} of 23)",
        "",
        f"*Game {view['game_id']}, scenario {view['scenario']}, record {view['seq']}, "
        f"seen by {view['reader']}.*",
        "",
    ]
    if view["game_over"]:
        r = view["result"] or {}
        lines.append(f"**Game over:** {r.get('reason')} — **{r.get('level_name')}**")
    else:
        lines.append(f"**Waiting on:** {view['waiting_on']} — {view['prompt']}")
    lines += ["", f"**VP {vp['total']}: {vp['level_name']}**", ""]
    lines += [f"- {b['label']}: {b['vp']:+d}" for b in vp["breakdown"]]
    lines += ["", "| Area | Control | Units |", "|---|---|---|"]
    for a in view["areas"].values():
        if a["units"] or a["control"] == "disputed":
            units = "<br>".join(unit_text(u) for u in a["units"]) or "—"
            lines.append(f"| {a['name']} | {a['control']} | {units} |")
    lines.append("")
    if view["reader"] == "moderator":
        for s, cards in view["hands"].items():
            lines.append(f"**Hand ({s}):** {hand_text(cards)}  ")
    else:
        lines.append(f"**Your hand:** {hand_text(view['hand'])}  ")
    hs = view["hand_sizes"]
    lines.append(f"Hand sizes: German {hs['german']}, Entente {hs['entente']}; draw pile "
                 f"{view['deck']['draw_pile']}.")
    return "\n".join(lines)
