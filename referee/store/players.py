"""Players by email: each side's address and order key, kept from everyone but the moderator.

A From header is trivial to fake, so a message counts for a side only when
it comes from the side's address and carries its order key. The key is
derived from the game's dice secret (so the moderator can always print it
again and nobody without the secret can guess it); the journal keeps only
the address and a keyed digest of the key, in a part only the moderator
sees. A later roster record (`players --set`, `--new-key`) replaces the
earlier one.

Observers (`observer=ADDRESS`, as many as MAX_OBSERVERS) are kept in the same
part: addresses only, no key, since an observer never orders; none may be a
side's address.
"""

from __future__ import annotations

import hashlib
import hmac
import re

from ..base.addresses import address_key, reads_back
from ..base.errors import UsageError, quoted
from ..base.glyphs import compact, disguising
from .journal import now

REGISTER = "register players"
OBSERVER = "observer"
MAX_OBSERVERS = 50
# Crockford's base32 without I, L, O, U: nothing a reader can mistake for another sign.
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"     # Crockford's base 32: no I, L, O, U
_ADDRESS = re.compile(r"[^@\s<>\"',;]+@[^@\s<>\"',;]+\.[^@\s<>\"',;]+")


def order_key(secret: bytes, game_id: str, side: str, number: int) -> str:
    """Side's order key number `number`: 12 signs from the secret, as XXXX-XXXX-XXXX."""
    mac = hmac.new(secret, f"{game_id}/order-key/{side}/{number}".encode(),
                   hashlib.sha256).digest()
    value = int.from_bytes(mac[:8], "big") >> 4           # 60 bits
    signs = "".join(ALPHABET[(value >> (5 * i)) & 31] for i in range(12))
    return "-".join(signs[i:i + 4] for i in (0, 4, 8))


def key_digest(secret: bytes, game_id: str, key: str) -> str:
    """The keyed digest of a key that the journal keeps instead of the key."""
    return hmac.new(secret, f"{game_id}/order-key-digest/{compact(key)}".encode(),
                    hashlib.sha256).hexdigest()


def parse_players(items: list[str], sides, option: str = "--player") -> dict[str, str]:
    """SIDE=ADDRESS options (also moderator=ADDRESS) -> {side: address} (UsageError naming
    the option); the observer=ADDRESS ones are parse_observers'."""
    out: dict[str, str] = {}
    for item in items:
        side, sep, given = item.partition("=")
        side, address = side.strip().casefold(), given.strip()
        if side == OBSERVER:
            continue
        if not sep or side not in (*sides, "moderator"):
            raise UsageError(f"{option} {quoted(item)}: give SIDE=ADDRESS with SIDE one of "
                             f"{', '.join((*sides, 'moderator', OBSERVER))}")
        check_address(option, item, given)
        if side in out:
            raise UsageError(f"{option} {quoted(item)}: {side} is given twice")
        out[side] = address
    return out


def parse_observers(items: list[str], option: str = "--player") -> list[str]:
    """The observer=ADDRESS options among items -> their addresses, in order (UsageError
    naming the option: not an address, or one address twice)."""
    out: list[str] = []
    for item in items:
        who, _, given = item.partition("=")
        if who.strip().casefold() != OBSERVER:
            continue
        address = given.strip()
        check_address(option, item, given)
        if address_key(address) in {address_key(a) for a in out}:
            raise UsageError(f"{option} {quoted(item)}: {address} is given twice as an observer")
        out.append(address)
    return out


def check_address(option: str, item: str, given: str) -> str:
    """The address given (the text after '=', as typed), stripped; UsageError unless it is
    one plain address: no control, invisible or direction-changing character
    (base/glyphs.py), which would hide in every list and report that prints it, and an
    address's shape."""
    if not given.isascii():
        try:
            given.encode("utf-8")
        except UnicodeEncodeError:      # a byte of another encoding, kept as a surrogate
            raise UsageError(f"{option} {quoted(item)}: not an email address: it holds bytes "
                             f"that are not UTF-8") from None
    # A line end or a tab is text elsewhere (base/glyphs.py lets them pass), never in an address.
    end = next((ch for ch in given if ch in "\t\n\r"), None)
    hidden = f"U+{ord(end):04X} a control character" if end else disguising(given)
    if hidden is not None:
        raise UsageError(f"{option} {quoted(item)}: not an email address: the address holds a "
                         f"control or direction-changing character ({hidden})")
    address = given.strip()
    if not _ADDRESS.fullmatch(address) or len(address) > 254:
        raise UsageError(f"{option} {quoted(item)}: {quoted(address)} is not an email address")
    if not reads_back(address):
        raise UsageError(f"{option} {quoted(item)}: {quoted(address)} is not one plain email "
                         f"address: a mail program would read it as another (a comment, a "
                         f"group or an encoded word in it)")
    return address


def changed_observers(current: list[str], added: list[str], dropped: list[str]) -> list[str]:
    """The observers once `added` join and `dropped` leave (UsageError: one added is one
    already, one dropped is none)."""
    known = {address_key(a) for a in current}
    for address in dropped:
        if address_key(address) not in known:
            raise UsageError(f"--drop-observer {address!r}: not an observer of this game "
                             f"(`referee players` lists them)")
    gone = {address_key(a) for a in dropped}
    kept = [a for a in current if address_key(a) not in gone]
    for address in added:
        if address_key(address) in {address_key(a) for a in kept}:
            raise UsageError(f"observer={address}: already an observer of this game")
    return kept + added


def check_observers(observers: list[str], addresses: dict[str, str]) -> None:
    """UsageError unless the observers fit the roster: none a side's address (an observer
    never orders, a player does), at most MAX_OBSERVERS."""
    problem = observers_problem(observers, addresses)
    if problem:
        raise UsageError(problem)


def observers_problem(observers, addresses: dict[str, str]) -> str | None:
    """What is wrong with a roster's observers (None if nothing)."""
    if not isinstance(observers, list):
        return "observers: not a list of addresses"
    if len(observers) > MAX_OBSERVERS:
        return f"{len(observers)} observers: at most {MAX_OBSERVERS} may be registered"
    sides = {address_key(a): s for s, a in addresses.items()
             if s != "moderator" and isinstance(a, str)}
    seen: set[str] = set()
    for address in observers:
        if not isinstance(address, str) or not _ADDRESS.fullmatch(address) or \
                len(address) > 254:
            return f"observer {address!r}: not an email address"
        if address_key(address) in sides:
            # Said the same whichever was set last: the observer or the side's address.
            return (f"observer {address} is the {sides[address_key(address)]} player's address "
                    f"too: a player cannot also be an observer (observers never order)")
        if address_key(address) in seen:
            return f"observer {address}: registered twice"
        seen.add(address_key(address))
    return None


def roster_body(secret: bytes, game_id: str, addresses: dict[str, str],
                previous: dict[str, dict] | None, new_keys: tuple[str, ...], dice,
                observers: list[str] | None = None) -> dict:
    """The record that registers (or re-registers) the players and the observers: a
    moderator-only part (no observers: no `observers` key, as before there were any). A side
    gets a new order key when asked (new_keys), and when its registered address changes: the
    old key went in every mail to the old address, and whoever reads it must not keep the
    side's orders in his hands (its letters' case aside: one mailbox)."""
    previous = previous or {}
    entries = []
    for side in sorted(set(addresses) | set(previous)):
        old = previous.get(side, {})
        renewed = side in new_keys or ("address" in old and side in addresses and
                                       address_key(addresses[side]) != address_key(old["address"]))
        number = (old.get("key_no") or 0) + renewed
        address = addresses.get(side, old.get("address"))
        entry = {"side": side, "address": address}
        if side != "moderator":
            key = order_key(secret, game_id, side, number)
            entry.update(key_no=number, key_digest=key_digest(secret, game_id, key))
        entries.append(entry)
    data: dict = {"players": entries, "mail_entropy": True}
    if observers:
        data["observers"] = list(observers)
    return {"at": now(), "actor": "moderator", "order": REGISTER, "events": [],
            "players": {"to": "moderator", "salt": dice.salt(), "data": data}}


def roster_problem(players: list, sides, observers=None) -> str | None:
    """What is wrong with a roster record's players and observers (None if nothing): each
    player a side of the game or the moderator, once, with a plain address and, for a side,
    a key number; the observers as observers_problem wants them."""
    seen = set()
    for p in players:
        side = p.get("side")
        if side not in (*sides, "moderator") or side in seen:
            return f"it names {side!r} {'twice' if side in seen else 'as a side'}"
        seen.add(side)
        address = p.get("address")
        if not isinstance(address, str) or not _ADDRESS.fullmatch(address):
            return f"the address of {side} is not an email address"
        if side != "moderator" and not (isinstance(p.get("key_no"), int) and p["key_no"] >= 0):
            return f"{side} has no key number"
    problem = observers_problem([] if observers is None else observers,
                                {p["side"]: p["address"] for p in players})
    return problem


def roster(records) -> dict[str, dict]:
    """The players as the last roster record in records registers them ({} if none)."""
    found: dict[str, dict] = {}
    for rec in records:
        players = _registered(rec)
        if players is not None:
            found = {p["side"]: dict(p) for p in players}
    return found


def former_addresses(records) -> set[str]:
    """Every address (address_key) a roster record of records gave a side, the present
    ones too: whose mail may come from someone who played a side."""
    return {address_key(str(p.get("address", ""))) for rec in records
            for p in _registered(rec) or () if p.get("side") != "moderator"}


def _registered(rec: dict) -> list | None:
    """The players a roster record registers (None for any other record)."""
    part = rec.get("players") if rec.get("order") == REGISTER else None
    data = part.get("data") if isinstance(part, dict) else None
    if not isinstance(data, dict):
        return None
    found = data.get("players", [])
    return [p for p in found if isinstance(p, dict)] if isinstance(found, list) else []


def same_roster(records, players: dict[str, dict], observers: list[str], name: str) -> None:
    """Refuse (UsageError) to register players over a roster other than the one read and
    checked: the records under an append's lock (a roster record written meanwhile, or
    another copy of the journal read before) register other players or observers."""
    if roster(records) != players or observer_addresses(records) != observers:
        raise UsageError(f"{name}: the players changed while this command ran (another "
                         f"roster record); nothing was written: run it again")


def observer_addresses(records) -> list[str]:
    """The observers' addresses as the last roster record in records registers them."""
    found: list[str] = []
    for rec in records:
        part = rec.get("players") if rec.get("order") == REGISTER else None
        if isinstance(part, dict) and isinstance(part.get("data"), dict):
            found = list(part["data"].get("observers") or [])
    return found
