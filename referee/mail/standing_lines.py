"""The 'standing:' lines of a player's message: his standing orders, changed by mail (the
orders themselves are the game layer's, game/standing.py)."""

from __future__ import annotations

import re

from ..base.errors import OrderError, UsageError, quoted
from ..engine.standing import parse_standing
from ..game import standing
from ..game.timeline import CLOSED, NoOrdersTaken, taking_standing_orders
from ..store.revealed import GameClosed
from ..table import Table
from .refusal import NAMED_LENGTH, unquoted

STANDING_LINE = re.compile(r"(?i)^standing\s*:")


def standing_change(table: Table, side: str, lines: list[tuple[int, str]]
                    ) -> tuple[list[str], list[str]]:
    """A message's 'standing: PHRASE' and 'standing: withdraw PHRASE' lines as (add, withdraw),
    each phrase checked (OrderError naming the line); nothing is kept here."""
    game = table.game()
    add, withdraw = [], []
    for n, text in lines:
        phrase = STANDING_LINE.sub("", text, count=1).strip()
        words = phrase.split(None, 1)
        target = withdraw if words and words[0].casefold() == "withdraw" else add
        phrase = words[1] if target is withdraw and len(words) > 1 else phrase
        try:
            parse_standing(phrase, game.data, game.state.turn)
        except OrderError as exc:
            raise OrderError(f"line {n} ({quoted(text, NAMED_LENGTH)}): "
                             f"{unquoted(exc, 'it cannot be read')}") from None
        target.append(phrase)
    # A standing file this referee did not write stops the run (UsageError), as for any
    # message: the moderator's to mend, and the message is read again afterwards.
    sets = standing.load(table.path, table.records[0]["hash"], table.raw)
    try:                      # told now; kept later, with the records, under the lock
        standing.changed(sets, side, game.data, game.state.turn, add, withdraw)
    except UsageError as exc:
        raise OrderError(str(exc)) from None
    return add, withdraw


def keep_standing_only(table: Table, side: str, lines: list[tuple[int, str]], mail: str
                       ) -> list[dict]:
    """Keep the standing-order change of a message (whose digest is `mail`) that holds no
    order (under the journal's lock); returns the side's set now. A message that made the
    last change to his set already (a run stopped before noting it handled) is not applied
    again: a withdrawal would be refused, and he told that nothing was applied."""
    game = table.game()
    if standing.made_by(table.path, side, mail, table.records[0]["hash"]):
        return standing.current(standing.load(table.path, table.records[0]["hash"], table.raw),
                                side, game.state.turn)
    taking_standing_orders(game.state)
    change = standing_change(table, side, lines)
    try:
        return standing.change(table.path, side, game.data, game.state.turn, *change,
                               mail={"sha256": mail})
    except GameClosed:          # revealed since it was read: the player's words, no file
        raise NoOrdersTaken("closed", CLOSED) from None
    except standing.NotWritten:
        raise                   # the moderator's to mend: the message is read again later
    except UsageError as exc:
        raise OrderError(str(exc)) from None
