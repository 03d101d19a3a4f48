"""An armistice told first in the Now section of a report (3.2): a proposal open, to the
side it waits on (before his decision, so that a mail opens with it) and to anyone else
(after it); a proposal withdrawn or lapsed since the reader's last report, to the side it
was made to and, lapsed, to the proposer, near the same place (2.0 VI): a mail's lead is
the Now section's first paragraph (reports.report_lead), which is the decision a reader
owes when he owes one (it is what he must act on), the proposal's end just after it."""

from __future__ import annotations

from .documents import armistice_para, side_name
from .sections import Para, Section, Span, para

# The events that end a proposal without an answer (3.2, 2.0 VI).
ENDS = ("ArmisticeWithdrawn", "ArmisticeLapsed")


def tell_armistice(now: Section, state, data, reader: str, stat: dict, level: str,
                   news: list[dict]) -> None:
    """An armistice proposed and not yet answered (3.2), told in the Now section: first to
    the side that may answer it (it is asked of him, whatever else is), after the decision
    now to anyone else; while the game is paused, as an answer he may give once it resumes.
    With none open, one the records of news ended (withdrawn or lapsed): after the decision
    the reader owes (what his mail opens with), first to a reader who owes none. Nothing
    once the game is over or closed."""
    proposer = state.armistice
    if stat["game_over"] or state.revealed:
        return
    if proposer is None:
        ended = ended_para(state, data, reader, news)
        if ended is not None:       # after the decision he owes (a mail's lead), else first
            owes = reader in (stat.get("waiting_on_all") or [stat.get("waiting_on")])
            now.blocks.insert(1 if owes and now.blocks else 0, ended)
        return
    other = next((s for s in data.sides if s != proposer), None)
    # Paused, no orders are taken (the refusal above his report says so): not "now".
    paused = bool((stat.get("deadlines") or {}).get("paused"))
    now.blocks.insert(0 if reader == other else 1,
                      armistice_para(proposer, other, reader, paused, level,
                                     data.label(state.turn) if state.armistice_heard else None))


def ended_para(state, data, reader: str, news: list[dict]) -> Para | None:
    """How the last proposal ended, when the records of news ended it and none has been
    made since: withdrawn, told the side it was made to; lapsed, told him and the proposer.
    None for any other reader, or when nothing in news ended it."""
    e = state.armistice_ended
    if e is None or not any(ev.get("type") in ENDS and ev.get("side") == e["side"]
                            for rec in news for ev in rec.get("events", [])):
        return None
    proposer = e["side"]
    if reader == proposer:
        if e["how"] != "lapsed":
            return None
        return para(Span(f"Your armistice proposal lapsed with the end of {e['season']} "
                         f"(3.2, 2.0 VI).", "bold"))
    if reader not in data.sides:
        return None
    who = f"The {side_name(proposer)} player"
    if e["how"] == "lapsed":
        return para(Span(f"{who}'s armistice proposal lapsed with the end of "
                         f"{e['season']} (3.2, 2.0 VI): ", "bold"),
                    "there is no proposal to answer now.")
    return para(Span(f"{who} withdrew his armistice proposal in {e['season']} (3.2): ",
                     "bold"), "there is no proposal to answer now.")
