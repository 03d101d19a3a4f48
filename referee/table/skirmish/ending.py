"""How a skirmish ended, and what is left once it has, as its last mails say it: who won and
how (the card names no end: the referee's reading is that a side with no figure left
fighting has lost, rules.md "End of the game and the dice secret"); what each reader may
still do (a player dispute a test within his challenge window, the only use left of his
order key; the moderator verify the journal and publish the dice secret, moderator.md "When
the game is over: reveal"); and, once the secret is published, how the dice are checked."""

from __future__ import annotations

from ...base.readers import MODERATOR, PUBLIC
from ...render.documents import side_name
from ...render.record_text import wrap_lines
from .endresult import beaten_words
from .life import states
from .report import test_head
from .state import SkState
from .window import own_since

READING = ("The card names no way to win: a skirmish ends when a side has no figure left "
           "fighting (the referee's reading, rules.md: End of the game and the dice secret).")
SETTLE = "settle record=N fact=KEY value=VALUE, or settle record=N uphold=yes"


def end_words(card, state: SkState) -> str:
    """The game is over, who won, how the beaten side left the table (by the card's lines),
    the test that ended it, and where the rule of the end is read; or, its secret revealed
    before (`reveal --force`), that it is closed."""
    left = state.fighting()
    if len(left) > 1:
        at = f" (record {state.revealed['record']})" if state.revealed else ""
        return (f"The game is closed: the moderator published the dice secret{at} before a "
                f"side was beaten; no order is taken.")
    won = f"the {side_name(left[0])} side won" if left else "no side won"
    last = _last_test(state)
    ended = f" It ended with {test_head(last)[:-1]}: {last['result']} ({last['rule']})." \
        if last else ""
    return f"The game is over: {won}. {beaten_words(card, state)}." + ended + " " + READING


def end_line(game, records: list[dict]) -> str:
    """How the game ended, in one line, as the answer to a mail sent after it says it: at
    which record, and who won (or that the secret published before closed it)."""
    state = game.state
    if len(state.fighting()) > 1:
        at = state.revealed["record"] if state.revealed else records[-1]["seq"]
        return f"the game was closed at record #{at}, its dice secret published before a " \
            f"side was beaten"
    left = state.fighting()
    won = f"the {side_name(left[0])} side won" if left else "no side won"
    return f"the game ended at record #{ending_record(records)['seq']}: {won}"


def _last_test(state: SkState) -> dict | None:
    """The test that ended the game: the last one taken (no test is taken once a side has
    none left fighting), with a ruling's result if one corrected it."""
    if not state.tests:
        return None
    t = state.tests[-1]
    shown = t.get("settled") or t
    return {**t, "result": shown["result"], "rule": shown["rule"]}


def disputable(records: list[dict], state: SkState, reader: str) -> list[int]:
    """The tests of the other side that reader may still dispute: each with declared facts,
    within his challenge window (fewer of his own records after it than the window counts,
    as life.dispute counts them)."""
    if reader not in state.sides or state.revealed is not None:
        return []
    window = records[0]["challenge_window"]
    return [r["seq"] for r in records[1:] if r.get("actor") not in (reader, MODERATOR) and
            (r.get("test") or {}).get("facts") and own_since(records, r["seq"], reader) < window]


def open_after_the_end(records: list[dict], state: SkState, reader: str) -> list[str]:
    """The orders a reader's status lists once the game is over (its `tests`): `dispute`
    while a test of the other side's is within his challenge window (as his report and
    `order` take it), else none."""
    return ["dispute"] if state.over() and disputable(records, state, reader) else []


DISPUTE_LEFT = ("You may still dispute a fact the other side declared, within your challenge "
                "window: dispute record=N fact=KEY value=VALUE.")


def after_the_end(records: list[dict], state: SkState, reader: str, keep: str) -> list[str]:
    """What a reader is told after how the game ended: what comes now, and what his order
    key still serves for (a dispute within his challenge window; nothing, and it is not
    shown, once none can be raised)."""
    if state.revealed is not None:
        if reader == MODERATOR:
            return ["What now: nothing is left to do: the dice secret is published and the "
                    "game closed; `referee verify` recomputes every die with it."]
        return ["What now: the dice secret is published (in the report above), so every die "
                "can be checked: `referee verify` on the game's journal recomputes each (ask "
                "the moderator for it), or check a die by hand as player.md shows (A skirmish)."]
    if reader == MODERATOR:
        return [f"What now: check the journal (`referee verify`), then publish the dice "
                f"secret (`referee reveal`), so that each player can check every die. Until "
                f"you do, a player may dispute a test within his challenge window, and you "
                f"are mailed to settle it ({SETTLE}); the reveal closes the game."]
    now = ["What now: the moderator publishes the dice secret (`referee reveal`), so that "
           "every die can be checked; your next mail gives it."]
    if reader == PUBLIC or reader not in state.sides:
        return now
    open_ = disputable(records, state, reader)
    if not open_:
        return [*now, f"No dispute can be raised any more: no fact the "
                      f"{side_name(state.opponent(reader))} side declared is within your "
                      f"challenge window."]
    names = [f"#{n}" for n in open_]
    tests = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"
    return [*now, f"Your order key serves for one thing now: a dispute of a fact the "
                  f"{side_name(state.opponent(reader))} side declared in {tests}, within "
                  f"your challenge window (dispute record=N fact=KEY value=VALUE, {keep}). "
                  f"The moderator settles it: his ruling may undo the end."]


def moderator_end_mail(card, state: SkState, journal: str) -> str:
    """The moderator's one mail at the end: how it ended, and the commands left to him, to
    copy (never split)."""
    def prose(text: str) -> str:
        return "\n".join(wrap_lines([text], 72, hang=0))

    return "\n\n".join([
        prose(end_words(card, state)),
        prose("The players are asked nothing more. Check the journal, then publish the dice "
              "secret, so that each player can check every die (moderator.md, When the game "
              "is over: reveal):"),
        f"  referee verify {journal}\n  referee reveal {journal}",
        prose(f"Until you reveal it, a player may still dispute a test within his challenge "
              f"window: you are mailed to settle it ({SETTLE}). The reveal closes the game: "
              f"no dispute or ruling after it."),
    ]) + "\n"


def ending_record(records: list[dict]) -> dict:
    """The record that ended the game: the first of the last run of records after which it
    is over (those after it are disputes and rulings that left it so). One replay, noting
    after each record whether the game stood over then, as the game replayed to it does."""
    first = min(1, len(records) - 1)
    for rec, _, state in states(records[:-1] or records):
        if rec is not records[0] and not state.over():
            first = rec["seq"] + 1
    return records[first]


def undone_ends(records: list[dict], after: int) -> list[tuple[int, int]]:
    """The rulings after record `after` that undid the game's end (it stood over before the
    ruling and not after it: the test that ended it decided again), as (the ruling's
    record, the test it settled). One replay."""
    out, over = [], False
    for rec, _, state in states(records):
        settled = rec.get("settle")
        if rec["seq"] > after and isinstance(settled, dict) and over and not state.over():
            out.append((rec["seq"], settled["record"]))
        over = state.over()
    return out


def undone_words(records: list[dict], state: SkState, after: int, told=()) -> list[str]:
    """What a reader is told first of the last ruling after record `after` that undid the
    game's end (but one in told: said already), while it goes on (a game ended again says
    its new end instead)."""
    if state.over() or state.revealed is not None:
        return []
    return [f"The end is undone: the moderator's ruling #{seq} on #{n} decided again the "
            f"test that ended the game, and the game goes on." for seq, n in
            [u for u in undone_ends(records, after) if u[0] not in told][-1:]]
