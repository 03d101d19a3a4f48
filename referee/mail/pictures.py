"""The pictures a reader's mail carries, one rule for the players and the observers: a
picture goes when it shows him something he has not been sent yet. The same picture is not
the same bytes (its top names the record it is drawn at), but what it shows him: for the
whole map, the board as he may see it (svgmap.board_digest, 1.4: the public's map and each
player's differ); for the close-up of a decision (render/closeup.py), that board, the kind of
the decision and the areas it concerns and shows.

So a mail carries the map only when the board its reader may see has changed since the last
map he was sent; a mail that asks a player a decision concerning areas carries first its
close-up, then the whole map (the close-up says it follows), when he has not been sent that
close-up yet; a reply to a message not applied carries pictures only when the board
changed. A mail without pictures says which record's mail holds them (and so does a
reminder, reminders.py), so that forty mails of a game, or an extension granted, do not
carry forty copies of the same picture.

But a mail whose subject is not the one of the mail that carried his last map carries the
pictures again: its subject names the season (subjects.py), and a mail program that groups
a conversation by its subject (most do, beside References: threads.py) shows the first
mail of a new season as a new conversation, where a line pointing to the map of a mail of
the season before sends him looking through another one.

The ledger (ledger.py) keeps, for each side, and for each observer under his mark
(observers.py), the record of his last mail with a map, a digest of the board drawn in it
and that mail's subject (part `maps`; a mark an earlier version kept has no subject, and is
taken for this thread's), and for each side the record of his last mail with a close-up
and a digest of it (part `closeups`); a side whose address changed since is sent them
afresh.
"""

from __future__ import annotations

import hashlib
import json

from ..base.errors import GameDataError
from ..engine import waiting_on
from .refusal import newcomer

Pictures = list[tuple[str, bytes]]


class MailPictures:
    """The pictures of one outbox run, each drawn once for each side; the sides shown the
    very same whole map (an open game) share one picture that names them all
    (sharedmaps.py)."""

    def __init__(self, table, ledger: dict, with_map: bool):
        self.game, self.ledger, self.with_map = table.game(), ledger, with_map
        self.records = table.records
        self.drawn: dict[str, Pictures] = {}
        self.boards: dict[str, str] = {}
        self.closes: dict[str, str | None] = {}
        self.maps = None

    def board(self, side: str) -> str:
        """The digest of the board as side may see it now."""
        if side not in self.boards:
            from ..render.svgmap import board_digest  # start-up: the map is drawn only for mail

            self.boards[side] = board_digest(self.game.state, self.game.data, side)
        return self.boards[side]

    def decision(self, side: str) -> str | None:
        """A digest of the close-up side is asked with now: the decision's kind, the areas
        it concerns and shows, the battles ringed and the board as he may see it; None when
        he is asked nothing, or nothing that concerns an area."""
        if side not in self.closes:
            from ..render.closeup import closeup_areas  # start-up: drawn only for mail
            from ..render.focus import battle_areas, decision_areas

            g = self.game
            shown = closeup_areas(g.state, g.data) if side in waiting_on(g.state) else ()
            self.closes[side] = None if not shown else hashlib.sha256(json.dumps(
                [g.state.pending.kind, list(shown), decision_areas(g.state, g.data),
                 sorted(battle_areas(g.state, g.data)), self.board(side)]).encode()
            ).hexdigest()[:24]
        return self.closes[side]

    def _draw(self, side: str) -> Pictures:
        if side not in self.drawn:
            from ..render.closeup import closeup_png  # start-up: drawn only for mail
            from ..render.sharedmaps import SharedMaps  # start-up: drawn only for mail

            g = self.game
            if self.maps is None:
                self.maps = SharedMaps(g.state, g.data, tuple(g.data.sides), g.game_id)
            out = []
            try:
                if side in waiting_on(g.state):
                    close = closeup_png(g.state, g.data, side, g.game_id)
                    if close is not None:
                        out.append(("closeup.png", close))
                out.append(("map.png", self.maps.png(side)))
            except GameDataError:   # a picture the data leaves no room for: the mail goes
                out = []
            self.drawn[side] = out
        return self.drawn[side]

    def for_mail(self, side: str, subject: str | None = None, refusal: bool = False,
                 reader: str | None = None) -> tuple[Pictures, str]:
        """The pictures of a mail to side under subject (None: not known, taken for the
        last map's) (kept in the ledger under side; drawn for reader, side unless told)
        and, when it has none, the line that says where his last ones are ('' when there
        is nothing to say). refusal: the reply to a message not applied, which carries
        pictures only when the board changed or its subject opens a new conversation."""
        if not self.with_map:
            return [], ""
        reader = reader or side
        maps, closes = self.ledger["maps"], self.ledger.setdefault("closeups", {})
        last, close = kept(maps.get(side)), kept(closes.get(side))
        if last is not None and newcomer(self.records, side, last[0]) is not None:
            last = close = None     # they went to the address the side had then
        now = self.decision(reader)
        opens = last is not None and subject is not None and \
            thread_kept(maps.get(side)) not in (None, subject)
        changed = last is None or last[1] != self.board(reader) or opens
        new = now is not None and not refusal and (close is None or close[1] != now)
        if changed or new:
            drawn = self._draw(reader)
            if drawn:           # none when the data leaves the map no room (svgmap.layout)
                seq = self.game.state.seq
                maps[side] = [seq, self.board(reader)] + ([subject] if subject else [])
                if drawn[0][0] == "closeup.png":
                    closes[side] = [seq, now]
            return drawn, ""
        return [], last_map_line(last, now is not None and close == [last[0], now])


def kept(mark) -> list | None:
    """A record and digest as the ledger keeps them ([seq, digest], a map's with the
    subject of its mail after them), or None."""
    return mark[:2] if isinstance(mark, list) and len(mark) in (2, 3) and \
        isinstance(mark[0], int) else None


def thread_kept(mark) -> str | None:
    """The subject of the mail a map's mark says carried it (None: a mark of an earlier
    version, which kept none)."""
    return mark[2] if kept(mark) is not None and len(mark) == 3 and \
        isinstance(mark[2], str) else None


def last_map_line(last, closeup: bool = False) -> str:
    """The line that says which mail holds a reader's last map ('' when none was sent);
    closeup: that mail holds the close-up of the decision asked now too."""
    if kept(last) is None:
        return ""
    if closeup:
        return (f"The board and your decision are as the pictures of the mail of record "
                f"#{last[0]} show them (closeup.png and map.png there).")
    return f"The board is as the map of the mail of record #{last[0]} shows it (map.png there)."
