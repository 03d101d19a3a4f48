"""The line a player's mail adds when it asks him a step a standing order could answer for
him: combat cards while his hand holds none he may play (2.0 II.3b), and cavalry retreat
before combat (5.4.3). He is asked all the same, as the rules have it: skipping the step
would tell the other side what he holds, or what he chose. But each such question costs a
round trip of mail, and a standing order (engine/standing.py, player.md) answers it 'done'
for him, sealed: the other side learns only the answer, as from his mail.

Told in a mail's report (the mail is where he would write the line), each time the step is
asked of him, and never once he holds a standing order for it. Each time rather than once a
game: a report is made from the journal alone, so nothing would remember that the line was
read (a mail may be lost, or read by another reader of the address); and it is one line, in
the mails that ask the step alone, never in others."""

from __future__ import annotations

from ..engine.combat import allowed_in_hand
from ..engine.standing import PHRASES, in_force, meaning

# The decisions told of, each with the standing order that answers it.
TOLD = {"attacker_cards": "no combat cards", "defender_cards": "no combat cards",
        "cavalry_retreat": "no cavalry retreat"}


def standing_tip(state, data, reader: str, mine: dict) -> list[str]:
    """The line for reader's mail when he is asked now a step TOLD holds (combat cards only
    while his hand holds none he may play), and none of his standing orders in force answers
    it (mine: the sides' standing orders); else none."""
    pending = state.pending
    if pending is None or pending.side != reader or pending.kind not in TOLD:
        return []
    if pending.kind in ("attacker_cards", "defender_cards") and \
            allowed_in_hand(state, data, reader) != []:
        return []
    if any(pending.kind in meaning(e)[0] for e in in_force(mine.get(reader, []), state.turn)):
        return []
    phrase = TOLD[pending.kind]
    return [f"A line 'standing: {phrase}' in a mail answers this step 'done' for you each "
            f"time ({PHRASES[phrase][2]}; player.md, Standing orders); the other side sees "
            f"only the answer."]
