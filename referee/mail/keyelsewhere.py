"""A mail matched to no player that carries a side's order key from an address that is not
the side's: its sender is answered as any stranger is (notmatched.py: nothing in the answer
says the key was right), the run's line says whose key it carried, and the moderator is
mailed once for that side's key: either the player writes from a new address, which the
moderator registers once he has checked it with him, or someone else holds the key, and the
side needs a new one (`players --new-key`). No output holds the key itself: the ledger
keeps the key's number in the roster (`key_no`), to tell the moderator once for each key.
A game whose kind reads its mail directly (direct.py, the skirmish's) is checked the same
way (direct_key_told); a kind that fixes its addresses and keys when the game is made (no
"roster" feature) has its moderator told that neither can be changed, with the kind's
commands that pass the side's mail on by hand (GameKind.by_hand) instead.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from ..base.addresses import address_key
from ..base.errors import StorageError
from ..base.plurals import a_or_an
from ..base.readers import MODERATOR
from ..render.documents import reader_words
from ..store.mailroute import referee_address
from ..store.players import compact
from .elsewhere import write_kept
from .formerkeys import former_key_why
from .ledger import fault, mail_name, save_ledger
from .mailcodes import unmatched_code
from .otherkeys import other_game
from .refusal import prose
from .senders import NOT_THE_KEY, body_or_empty, typed_journal, unmatched
from .subjects import table_subject

# The ledger's part: for each side, the number of the key whose mail from another address
# the moderator was told of.
KEYS_ELSEWHERE = "keys_elsewhere"


def refuse_unmatched(out, m, people: dict, keys: dict, records: list[dict],
                     table=None) -> None:
    """out (outcome.Outcome) for a message m matched to no player: refused, why in words its
    sender may read (out.why: from a side's address with its former key, which record
    replaced it, with table; with his key of another game of the pass, which game:
    otherkeys.py), and in the run's line (out.reason) whose order key it carries when it
    carries a side's from an address not that side's (out.keyed)."""
    out.status = "rejected"
    out.why = unmatched(m, people, records)
    out.code = unmatched_code(out.why)
    other = None
    if table is not None and out.why == NOT_THE_KEY:
        owners = [s for s, p in people.items() if s != MODERATOR and
                  address_key(str(p.get("address", ""))) == m.sender]
        text = m.raw.decode("utf-8", "replace") + body_or_empty(m)
        out.why = former_key_why(table, owners, text) or out.why
        if out.why == NOT_THE_KEY:      # his key of his other game: said so, plainly
            other = other_game(table.records[0]["game_id"], m.sender, text)
    out.why, out.reason = other or \
        (out.why, f"not from a registered player with his order key: {out.why}")
    out.keyed = keyed_elsewhere(m, people, keys)
    for side in out.keyed:
        out.reason += (f"; it carries {reader_words(side)}'s order key, from an address not "
                       f"registered for that side")


def keyed_elsewhere(m, people: dict, keys: dict, moderator: bool = False) -> list[str]:
    """The sides whose order key m carries (anywhere, as keyed.py reads it) though its
    sender is not the side's registered address; with moderator, the moderator's own key
    too (a game whose moderator gives his rulings by mail with a key of his)."""
    if not m.sender:
        return []
    text = compact(m.raw.decode("utf-8", "replace") + body_or_empty(m))
    return [s for s, key in keys.items() if s in people and (s != MODERATOR or moderator)
            and compact(key or "") and compact(key) in text and
            address_key(str(people[s].get("address", ""))) != m.sender]


def direct_key_told(table, h, m, players: dict[str, str], keys: dict, ledger: dict,
                    outbox: Path | None) -> list[Path]:
    """For a stranger's mail m of a game whose kind reads its mail directly (h: direct.py's
    Handled, players: each side's address), what refuse_unmatched and key_told do for a
    campaign's: the run's line says whose order key it carries, and the moderator is mailed
    once for that key; the mails written. Its sender's answer is the stranger's as ever."""
    people = {s: {"address": a} for s, a in players.items()}
    out = _Told(h.reason, keyed_elsewhere(m, people, keys, moderator=True))
    for side in out.keyed:
        out.reason += (f"; it carries {reader_words(side)}'s order key, from an address not "
                       f"registered for that side")
    written = key_told(table, out, m, people, keys, ledger, outbox)
    h.reason = out.reason
    return written


class _Told:
    """What key_told reads and says of a mail: its run's line, and the sides whose key it
    carried from an address not theirs."""

    def __init__(self, reason: str, keyed: list[str]):
        self.reason, self.keyed = reason, keyed


def key_told(table, out, m, people: dict, keys: dict, ledger: dict,
             outbox: Path | None) -> list[Path]:
    """The moderator mailed, once for each side's key, that a mail from another address
    carried it (out.keyed), and the run's line says whether he is told: the mails
    written."""
    written: list[Path] = []
    if not getattr(out, "keyed", None):
        return written              # the ledger as it was: no part added
    told = ledger.get(KEYS_ELSEWHERE)
    if not isinstance(told, dict):
        told = ledger[KEYS_ELSEWHERE] = {}
    moderator = str(people.get(MODERATOR, {}).get("address") or "")
    for side in getattr(out, "keyed", ()):
        digest = f"key-{people[side].get('key_no')}"     # the roster numbers each key
        if told.get(side) == digest:
            out.reason += " (the moderator was told of a mail with this key before)"
            continue
        if not moderator or outbox is None:
            out.reason += " (no mail to the moderator: " + \
                ("he has no address)" if not moderator else "no outbox)")
            continue
        written.append(_mail_moderator(table, side, m.sender, moderator, digest, ledger,
                                       outbox))
        fault("key told")           # written, not yet marked: the next run finds it written
        told[side] = digest
        save_ledger(ledger)
        out.reason += " (the moderator is told)"
    return written


def _mail_moderator(table, side: str, sender: str, moderator: str, digest: str,
                    ledger: dict, outbox: Path) -> Path:
    """The moderator's mail (key_notice) written into outbox."""
    records = table.records
    try:
        return write_kept(ledger, outbox, referee_address(records), moderator,
                          table_subject(table, MODERATOR),
                          key_notice(table.path, side, sender, _fixed(table)), None,
                          name=mail_name("key-elsewhere", records[0]["game_id"], side,
                                         digest, sender))
    except OSError as exc:      # not marked told: the next such mail tells him
        raise StorageError(f"--outbox {outbox}: a mail could not be written ({exc}); the "
                           f"next run writes it") from None


def _fixed(table) -> tuple | None:
    """For a game whose kind fixes its addresses and keys when it is made (no "roster"
    feature): the kind's name and its by_hand; None for a game whose roster changes."""
    kind = table.kind
    return None if "roster" in kind.features else (kind.name, kind.by_hand)


def key_notice(journal: Path, side: str, sender: str, fixed: tuple | None = None) -> str:
    """The moderator's mail when a mail from sender carried side's order key: what came, that
    nothing of it was applied and its sender was not told the key was right, and the two
    ways out, each with its command (fixed: a game whose roster no command changes, its
    kind's name and by_hand, whose ways out fixed_notice says)."""
    who, j = reader_words(side), typed_journal(journal)
    if side == MODERATOR:
        return own_key_notice(sender)
    register = shlex.quote(f"{side}={sender}")
    head = prose(f"A mail from {sender} carried the order key of {who}, but that address is "
                 f"not the one registered for the side, so nothing of it was applied. Its "
                 f"sender was answered as anyone whose mail matches no player is: nothing "
                 f"told him the key was right.") + "\n\n"
    if fixed is not None:
        return head + fixed_notice(j, side, *fixed)
    return (head +
            prose("If the player now writes from that address, check it with him yourself, "
                  "by phone or another way you know reaches him, not at an address a mail "
                  "gives you; then register it (the side gets a new key, mailed to the new "
                  "address):") + f"\n\n  referee players {j} --set {register}\n\n" +
            prose("If he did not write it, someone else holds the side's key: give the side "
                  "a new one (the old one stops working at once; the player's next report "
                  "carries the new one):") + f"\n\n  referee players {j} --new-key {side}\n\n" +
            prose("This mail is sent once for this key.") + "\n")


def own_key_notice(sender: str) -> str:
    """The moderator's mail when a mail from sender carried his own order key, the one his
    mailed rulings carry."""
    return (prose(f"A mail from {sender} carried your own order key, the one your mailed "
                  f"rulings carry, but that address is not yours, so nothing of it was "
                  f"applied. Its sender was answered as anyone whose mail matches no player "
                  f"is: nothing told him the key was right.") + "\n\n" +
            prose("If you did not write it, someone else holds your key. It counts only in a "
                  "mail from your registered address, so check that every ruling of the "
                  "journal is yours (`referee log`), and keep your mail account's password "
                  "to yourself.") + "\n\n" +
            prose("This mail is sent once for this key.") + "\n")


def fixed_notice(journal: str, side: str, kind: str, by_hand) -> str:
    """The ways out of a game whose addresses and keys are fixed when it is made: neither
    changes, so a player who now writes from another address has his mail passed on by the
    moderator (the kind's commands), and a key someone else holds still counts only in a
    mail from the side's registered address."""
    commands = by_hand(journal, side)
    return (prose(f"{a_or_an(kind, capital=True)} keeps the addresses and order keys it was "
                  f"made with: no command registers another address or gives the side a new "
                  f"key.") + "\n\n" +
            prose("If the player now writes from that address, check it with him yourself, "
                  "by phone or another way you know reaches him, not at an address a mail "
                  "gives you; then send him his report yourself and enter the orders he "
                  "sends you" + (":" if commands else ".")) + "\n\n" +
            "".join(f"  {c}\n" for c in commands) + ("\n" if commands else "") +
            prose("If he did not write it, someone else holds the side's key: tell him. The "
                  "key counts only in a mail from the side's registered address, so ask him "
                  "about any record of his side he did not make.") + "\n\n" +
            prose("This mail is sent once for this key.") + "\n")
