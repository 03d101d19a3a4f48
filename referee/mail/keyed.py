"""Whose mail a message is: the side whose registered address sent it and whose order key
it carries anywhere (a header, its text, the quoted copy of the referee's mail), as a
campaign's mail (inbox.py) and a skirmish's (direct.py) are both matched. The key its
sender typed (outside the quoted copy: message.typed_text) decides over a quoted one: where
two sides share an address, and in a pass over a folder, where he typed his key of another
of his games (otherkeys.py)."""

from __future__ import annotations

from collections.abc import Callable

from ..base.addresses import address_key
from ..base.readers import MODERATOR
from ..store.players import compact
from .message import typed_text
from .otherkeys import typed_elsewhere
from .senders import body_or_empty, key_shaped


def keyed_side(sender: str | None, raw: bytes, body: str, addresses: dict[str, str],
               keys: dict[str, str],
               elsewhere: Callable[[str], bool] | None = None) -> str | None:
    """The side (of addresses: each side's registered address) whose address is sender and
    whose key the message carries, compacted as a key is read (store/players.py); None for
    none. A key of another side in the mail, quoted or typed, makes it no mail of that side:
    its address must have sent it too. The key typed tells apart an address two sides share
    over one quoted (a Reply to one side's mail quotes that side's key), and a mail typing
    both is neither side's. elsewhere(typed): whether the text typed (compacted) carries the
    sender's key of another game; a mail typing that is none of his sides', whatever key of
    his here it quotes or types too (player.md: it counts as meant for that game)."""
    if not sender:
        return None
    text = compact(raw.decode("utf-8", "replace") + body)
    sides = [s for s, a in addresses.items() if address_key(a) == sender and
             compact(keys.get(s) or "") and compact(keys[s]) in text]
    if not sides:
        return None
    words = typed_text(body)
    typed = compact(words)
    if elsewhere is not None and key_shaped(words) and elsewhere(typed):
        return None             # typed for another game, this one's key beside it or not
    mine = [s for s in sides if compact(keys[s]) in typed]
    if len(sides) > 1:
        sides = mine
    return sides[0] if len(sides) == 1 else None


def mail_side(m, people: dict, keys: dict, game_id: str) -> str | None:
    """The side of a campaign's game (game_id, its roster people) whose mail m is
    (keyed_side); in a pass over a folder, a mail typing its sender's key of another of
    his games is none of his here (otherkeys.typed_elsewhere)."""
    return keyed_side(m.sender, m.raw, body_or_empty(m), {
        s: p["address"] for s, p in people.items() if s != MODERATOR}, keys,
        lambda typed: typed_elsewhere(game_id, m.sender, typed))
