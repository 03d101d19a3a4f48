"""The pictures a player's mail carries: a mail that asks him a decision carries first the
close-up of the areas the decision concerns (render/closeup.py), when it concerns any, then
the whole map; a mail that asks him nothing carries the map only when the board he may see
has changed since the last map he was sent, and a reply to a message not applied carries
none unless the board changed. A mail without pictures says which record's mail holds his
last map (and so does a reminder, reminders.py), so that forty mails of a game do not carry
forty copies of the same picture.

The ledger (ledger.py, part `maps`) keeps, for each side, the record of his last mail with
a map and a digest of the board drawn in it.
"""

from __future__ import annotations

from ..base.errors import GameDataError
from ..engine import waiting_on

Pictures = list[tuple[str, bytes]]


class MailPictures:
    """The pictures of one outbox run, each drawn once for each side; the sides shown the
    very same whole map (an open game) share one picture that names them all
    (svgmap.SharedMaps)."""

    def __init__(self, table, ledger: dict, with_map: bool):
        self.game, self.ledger, self.with_map = table.game(), ledger, with_map
        self.drawn: dict[str, Pictures] = {}
        self.boards: dict[str, str] = {}
        self.maps = None

    def board(self, side: str) -> str:
        """The digest of the board as side may see it now."""
        if side not in self.boards:
            from ..render.svgmap import board_digest  # start-up: the map is drawn only for mail

            self.boards[side] = board_digest(self.game.state, self.game.data, side)
        return self.boards[side]

    def _draw(self, side: str) -> Pictures:
        if side not in self.drawn:
            from ..render.closeup import closeup_png  # start-up: drawn only for mail
            from ..render.svgmap import SharedMaps  # start-up: drawn only for mail

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

    def for_mail(self, side: str, refusal: bool = False) -> tuple[Pictures, str]:
        """The pictures of a mail to side and, when it has none, the line that says where his
        last map is ('' when there is nothing to say)."""
        if not self.with_map:
            return [], ""
        kept = self.ledger["maps"].get(side)
        last = kept if isinstance(kept, list) and len(kept) == 2 else None
        changed = last is None or last[1] != self.board(side)
        asked = side in waiting_on(self.game.state)
        if changed or (asked and not refusal):
            drawn = self._draw(side)
            if drawn:           # none when the data leaves the map no room (svgmap.layout)
                self.ledger["maps"][side] = [self.game.state.seq, self.board(side)]
            return drawn, ""
        return [], last_map_line(last)


def last_map_line(last) -> str:
    """The line that says which mail holds a side's last map ('' when none was sent)."""
    if not (isinstance(last, list) and len(last) == 2 and isinstance(last[0], int)):
        return ""
    return f"The board is as the map of the mail of record #{last[0]} shows it (map.png there)."
