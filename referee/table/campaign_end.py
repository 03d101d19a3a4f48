"""How a campaign ended, as the moderator's one mail at the end tells him (mail/ended.py):
the record that ended it, and the one thing left to him, its dice secret published
(`reveal`), which lets every player check every die (moderator.md, When the game is over)."""

from __future__ import annotations

from ..render.documents import result_words
from ..render.gameresult import winner_sentence
from ..render.record_text import prose


def ended(table, journal: str, sides: tuple[str, ...]) -> tuple[dict, str] | None:
    """The record that ended the game and the moderator's mail (journal: as he types it);
    None unless it is over (over: a journal without its set-up record is not) and its
    secret unpublished."""
    state = table.game().state
    if not over(state) or state.revealed:
        return None
    return ending_record(table.records), ended_mail(journal, state.result or {}, sides)


def end_line(table) -> str | None:
    """How the game ended, in one line, as the answer to a mail sent after it says it (no
    order is taken once it is over, nor once its secret is published): at which record,
    and its result; None while it goes on, and for a journal without its set-up record
    (over: nothing ended it, and what it lacks is the moderator's to put back)."""
    state = table.game().state
    if over(state):
        how, level = result_words({**(state.result or {}),
                                   "reason": (state.result or {}).get("reason") or "it ended"})
        return f"the game ended at record #{ending_record(table.records)['seq']}: {how}" + \
            (f"; result: {level}" if level else "")
    if state.revealed:
        return f"the game was closed at record #{table.records[-1]['seq']}, its dice secret " \
            f"published before its end"
    return None


def over(state) -> bool:
    """Whether the game ended (3.0): the engine's game_over (no decision left), but for a
    journal holding no set-up record, which asks no decision though nothing ended it
    (game/timeline.py unset)."""
    from ..engine import game_over  # start-up: the rules, for a mail pass
    from ..game.timeline import unset

    return game_over(state) and not unset(state)


def ending_record(records: list[dict]) -> dict:
    """The record whose events ended the game (the last one when none says so)."""
    return next((r for r in reversed(records)
                 if any(isinstance(e, dict) and e.get("type") == "GameEnded"
                        for e in r.get("events") or ())), records[-1])


def ended_mail(journal: str, result: dict, sides: tuple[str, ...]) -> str:
    """What the moderator is told: how the game ended and who wins, the one thing left to
    him, the commands to copy (never split but where the shell continues a line), and how
    each player checks the game then."""
    how, level = result_words({**result, "reason": result.get("reason") or "the game ended"})
    head = prose(f"The game is over: {how}" + (f"; result: {level}" if level else "") +
                  f". {winner_sentence(result)} The players are asked nothing more. "
                  "It waits on you for one thing: "
                  "publish the dice secret, so that every die can be checked:")
    then = prose(f"Then give each player his side's export, and the public theirs (SIDE: "
                  f"{', '.join(sides)} or public):")
    check = prose("which each checks with `referee verify SIDE.jsonl --export SIDE` "
                   "(moderator.md, When the game is over).")
    export = f"  referee log {journal} --as SIDE --format json > SIDE.jsonl"
    if len(export) > 72:        # the shell's continuation: one command still, copied whole
        export = f"  referee log {journal} \\\n      --as SIDE --format json > SIDE.jsonl"
    return f"{head}\n\n  referee reveal {journal}\n\n{then}\n\n{export}\n\n{check}"

