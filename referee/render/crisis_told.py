"""A Military Crisis! played is told in one line (9.8, 9.9): the engine records the card
played as a crisis, the card leaving play when that was its last crisis, then the crisis
declared; read one after the other they said "Entente plays German Military Crisis! as
crisis", the card's removal before anyone knew which crisis it was, and "Entente plays
Crisis in the Balkans" again. The line of the crisis declared names the card and its rule
(marked here), the card's own line is left out, and its removal follows the crisis. An event
alone (a crisis declared without its card's line, as an old or cut record may hold it) is
told as it stands.
"""

from __future__ import annotations

PLAYED = "_played"      # a crisis declared whose line names the card played for it


def crisis_told(events: list[dict]) -> list[dict]:
    """events with each Crisis! card played told by the crisis it declares (see the
    module): its CardPlayed left out, its CrisisDeclared marked, its CardRemoved after it."""
    declared = {ev.get("card") for ev in events if ev.get("type") == "CrisisDeclared"}
    played = {ev.get("card") for ev in events if ev.get("type") == "CardPlayed"
              and ev.get("as") == "crisis" and ev.get("card") in declared}
    if not played:
        return events
    removed = [ev for ev in events if ev.get("type") == "CardRemoved"
               and ev.get("card") in played]
    out = []
    for ev in events:
        kind, card = ev.get("type"), ev.get("card")
        if card in played and kind == "CrisisDeclared":
            out += [{**ev, PLAYED: True}, *(r for r in removed if r.get("card") == card)]
        elif not (card in played and (kind == "CardRemoved" or
                                      kind == "CardPlayed" and ev.get("as") == "crisis")):
            out.append(ev)
    return out
