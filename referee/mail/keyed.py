"""Whose mail a message is: the side whose registered address sent it and whose order key
it carries anywhere (a header, its text, the quoted copy of the referee's mail), as a
campaign's mail (inbox.py) and a skirmish's (direct.py) are both matched."""

from __future__ import annotations

from ..base.addresses import address_key
from ..store.players import compact


def keyed_side(sender: str | None, raw: bytes, body: str, addresses: dict[str, str],
               keys: dict[str, str]) -> str | None:
    """The side (of addresses: each side's registered address) whose address is sender and
    whose key the message carries, compacted as a key is read (store/players.py); None for
    none. A key of another side in the mail, quoted or typed, makes it no mail of that side:
    its address must have sent it too. An address two sides share: the key typed tells them
    apart over one quoted (a Reply to one side's mail quotes that side's key), and a mail
    typing both is neither side's."""
    if not sender:
        return None
    text = compact(raw.decode("utf-8", "replace") + body)
    sides = [s for s, a in addresses.items() if address_key(a) == sender and
             compact(keys.get(s) or "") and compact(keys[s]) in text]
    if len(sides) > 1:
        typed = compact("\n".join(line for line in body.splitlines()
                                  if not line.lstrip().startswith(">")))
        sides = [s for s in sides if compact(keys[s]) in typed]
    return sides[0] if len(sides) == 1 else None
