"""What a roster record (`register players`, the moderator's) changed, in words every
reader of the journal may read: which side's address or order key the moderator changed,
how many observers joined or left; and what a mail route record (`set mail route`) changed:
whether the referee reads or sends the game's mail another way, or its mails come from
another address. Never an address, a mailbox or a server: they are private to their owner
and the moderator (the record's part holding them is sealed to the moderator)."""

from __future__ import annotations

from ..base.addresses import address_key
from ..base.readers import MODERATOR
from .authorship import REKEY
from .players import REGISTER
from .signing import shown

# Each part of a mail route record (store/mailroute.py) as a reader is told it changed.
_ROUTE_WORDS = {"source": "reads", "target": "sends"}


class RosterNews:
    """The roster as the records read so far register it, and the news of each roster
    record read after them (read: every record, in order, the full one, not redacted)."""

    def __init__(self) -> None:
        self.players: dict[str, dict] = {}
        self.observers: list[str] = []
        self.route: dict | None = None
        self.key: str | None = None         # the signing key in force (its fingerprint)

    def read(self, rec: dict, name=lambda side: side) -> list[str]:
        """The news of rec, a roster or mail route record, in words ([] for any other
        record; name(side) gives a side's name); the roster is then as rec registers it."""
        if "mail_route" in rec:             # a mail route record's part (store/mailroute.py)
            return self._route_news(rec)
        if isinstance(rec.get("signing"), dict):    # the header, an adoption, a key change
            return self._key_news(rec)
        part = rec.get("players") if rec.get("order") == REGISTER else None
        data = part.get("data") if isinstance(part, dict) else None
        if not isinstance(data, dict):
            return []
        players = {p["side"]: p for p in data.get("players", [])
                   if isinstance(p, dict) and isinstance(p.get("side"), str)}
        observers = [a for a in data.get("observers") or [] if isinstance(a, str)]
        news = _players_news(self.players, players, name) + \
            _observers_news(self.observers, observers) if self.players else \
            [_first_words(observers)]
        self.players, self.observers = players, observers
        return news or ["the moderator registered the players again, as they were"]

    def _route_news(self, rec: dict) -> list[str]:
        """What a mail route record changed: how the referee reads or sends the game's mail,
        the address its mails come from (a player answers to it); never where or which."""
        # start-up: the addresses' reader only where the journal holds a route record
        from .mailroute import ROUTE, ROUTE_PARTS

        part = rec.get("mail_route") if rec.get("order") == ROUTE else None
        data = part.get("data") if isinstance(part, dict) else None
        if not isinstance(data, dict):
            return []
        route = {k: data.get(k) for k in ROUTE_PARTS}
        before, self.route = self.route, route
        if before is None:
            return ["the moderator set how the referee reads and sends the game's mail"] + \
                (["the referee's mails come from an address of its own"]
                 if route["sender"] else [])
        how = [w for k, w in _ROUTE_WORDS.items() if before[k] != route[k]]
        news = [f"the moderator changed how the referee {' and '.join(how)} the game's "
                f"mail"] if how else []
        if before["sender"] != route["sender"]:
            news.append("the moderator changed the address the referee's mails come from")
        return news or ["the moderator set the game's mail route again, as it was"]


    def _key_news(self, rec: dict) -> list[str]:
        """What a key change (`rekey`) did: the fingerprints before and after it, each of
        which `verify --key` takes (the new one once it has signed a record after it)."""
        before, fpr = self.key, rec["signing"].get("fingerprint")
        self.key = fpr if isinstance(fpr, str) else None
        if rec.get("order") != REKEY or before is None or self.key is None:
            return []
        return [f"the moderator changed the game's signing key from {shown(before)} to "
                f"{shown(self.key)}, the Fingerprint of the mails after it; `referee verify --key` "
                f"takes either (the new one once it has signed a record after this one)"]


def _first_words(observers: list[str]) -> str:
    """The news of the game's first roster: who it registers, by how many."""
    n = len(observers)
    return "the moderator registered the players" + \
        ("" if not n else " and an observer" if n == 1 else f" and {n} observers")


def _players_news(before: dict[str, dict], after: dict[str, dict], name) -> list[str]:
    out = []
    for side in sorted(set(before) | set(after)):
        old, new = before.get(side), after.get(side)
        if new is None:
            out.append(f"{_whose(side, name)} address is no longer registered")
        elif old is None:
            out.append(f"the moderator registered {_whose(side, name, own=True)} address")
        elif old.get("address") != new.get("address"):
            out.append(f"the moderator changed {_whose(side, name, own=True)} address")
        if old is not None and new is not None and side != MODERATOR and \
                old.get("key_no") != new.get("key_no"):
            out.append(f"the {name(side)} player has a new order key (the old one no "
                       f"longer counts)")
    return out


def _whose(side: str, name, own: bool = False) -> str:
    """Whose address a sentence names: a side's player's, or the moderator's (his own, in
    a sentence whose subject is the moderator)."""
    if side == MODERATOR:
        return "his own" if own else "the moderator's"
    return f"the {name(side)} player's"


def _observers_news(before: list[str], after: list[str]) -> list[str]:
    old, new = {address_key(a) for a in before}, {address_key(a) for a in after}
    out = []
    for n, what in ((len(new - old), "joined"), (len(old - new), "left")):
        if n:
            out.append(f"{'an observer' if n == 1 else f'{n} observers'} {what} the game")
    return out
