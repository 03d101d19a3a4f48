"""The answer to a message matched to no player (not from a registered address with its
order key: a stranger's, or a player's without his key or with one that is not his),
which says only which check it failed and that nothing was done.

It goes to the address the message came from. A stranger's answer names no game: no tag in
its subject, no thread, no record in its Message-ID. When that address is one registered
for a side, the answer reaches the side's player whoever wrote the From (one who forged it
sees nothing), so it is his game's mail: its subject is his reports' (`[referee GAME]`),
it refers to his thread, and its Message-ID names the record his last report ended at.
His reply to it is then claimed by his game (claims.py), read and answered as any of his
mails (his key in it: applied, as if he answered that report; without it: answered again,
within his address's daily quota, ledger.may_answer). Nothing else of the game is in it:
neither his key nor his report, which a forged From would have mailed to him at will. A
message from his address too large to read (toolarge.py) is answered so too: no key was
read in it.
A new mail from an address registered in several games (strays.py) is answered with their
tags alone: no game's subject, thread nor record (several_games).
"""

from __future__ import annotations

from ..base.addresses import address_key
from ..base.readers import MODERATOR
from ..store.players import OBSERVER
from .afterend import ended_reason
from .formerkeys import FORMER_KEY, LATEST_HELP
from .mailboxes import NONE_READ
from .observers import resume_from
from .otherkeys import OTHER_GAME, other_help
from .refusal import prose
from .senders import FORMER, MODERATOR_MAIL, MOVED, moderator_command
from .subjects import table_subject
from .threads import thread_of

SUBJECT = "referee: message not accepted"
DEFAULT_WHY = "the sender's address and the order key must both match"
# What a player whose mail lacked his order key does next, and what he reads if he did
# not write it (the answer goes to his registered address, whoever wrote the From).
KEY_HELP = ("Your order key is at the end of each report the referee sends you, after the "
            "words 'Order key'. Send your orders again with that line: reply to this mail, "
            "or to your last report.")
NOT_YOURS = ("If you did not write that message, someone else wrote your address as its "
             "sender: nothing of it was applied, and this answer went to you alone.")


def as_owed_now(entry: dict, people: dict) -> dict:
    """An owed reply (to a side's message not applied) as the roster now has it answered:
    the side's, with its report and order key, while the address it goes to is still the
    side's; else (`players --set` gave the side another since the message was handled,
    and with it a new key) as a former player's, with neither: the key goes to the side's
    new address alone."""
    side = entry.get("side")
    if not side or side == OBSERVER or address_key(str(
            people.get(side, {}).get("address", ""))) == address_key(entry["to"]):
        return entry
    other = any(address_key(str(p.get("address", ""))) == address_key(entry["to"])
                for s, p in people.items() if s != MODERATOR)       # it plays another side
    return {**entry, "side": "", "why": MOVED if other else FORMER}


def not_matched(table, people: dict, ledger: dict, entry: dict) -> dict:
    """What write_eml takes for the answer to the message entry (an owed reply of no side)
    names: to, subject, body, and, to a side's registered address, the thread and the
    record its Message-ID names."""
    if entry.get("games"):         # from his address in several games: their tags alone
        return several_games(entry)
    why = entry.get("why") or DEFAULT_WHY
    sides = [s for s, p in people.items() if s != MODERATOR and
             address_key(str(p.get("address", ""))) == address_key(entry["to"])]
    if not sides or why in (FORMER, MOVED):     # sent for a side it plays no more
        # The moderator's own mail: its command alone on a line, to be copied whole.
        command = f"\n{moderator_command(table.path)}\n" if why.startswith(MODERATOR_MAIL) \
            else ""
        why = f"{MODERATOR_MAIL}: give them with the command below" if command else why
        return {"to": entry["to"], "subject": SUBJECT, "body": prose(
            f"This message could not be matched to a player of this game: {why}"
            f"{':' if command else '.'}") + f"\n{command}\n" + prose("Nothing was done.") +
            "\n"}
    records, game_id = table.records, table.records[0]["game_id"]
    to = str(people[sides[0]]["address"])
    one = len(sides) == 1           # an address two sides share: the game's tag alone
    ended = ended_reason(table, sides[0])        # his key or none: nothing is taken
    said = (f"Your message was not accepted: {ended}.",) if ended else \
        _why_and_help(why, game_id)
    body = "\n\n".join(prose(x) for x in (*said, NOT_YOURS)) + "\n"
    since = records[resume_from(ledger["sent"].get(sides[0]), records)]
    return {"to": to, "body": body, "thread": thread_of(game_id, to),
            "subject": table_subject(table, sides[0]) if one else
            f"[referee {game_id}] message not accepted",
            **({"record": (game_id, since)} if one else {})}


def _why_and_help(why: str, game_id: str) -> tuple[str, ...]:
    """A side's answer's first paragraphs: why nothing was done, and where his key is (a
    message too large to read: why alone, which says how to send orders)."""
    if why.endswith(NONE_READ):
        return (f"Your message was not accepted: {why}. Nothing was done.",)
    if why.startswith(OTHER_GAME):      # his key of another of his games: neither took it
        return f"Your message was not accepted: {why}. Nothing was done, in either " \
            f"game.", other_help(game_id)
    return f"Your message was not accepted: {why}. Nothing was done.", \
        LATEST_HELP if why.startswith(FORMER_KEY) else KEY_HELP


SEVERAL = "it carries no game's tag and no order key, and your address plays in several " \
    "games"


def several_games(entry: dict) -> dict:
    """What write_eml takes for the answer to a mail from a side's address in several games
    (strays.py): to that address as registered, no game's subject, thread nor record; its
    games' tags and nothing else of them."""
    tags = "\n".join(f"  [referee {g}]" for g in entry["games"])
    body = "\n\n".join((
        prose(f"Your message was not accepted: {SEVERAL} of this referee, so it could not "
              f"be matched to one of them. Nothing was done. Your games are:"), tags,
        prose("Send your orders again as a reply to your last report of the game they "
              "are for (its subject begins with that game's tag), with the 'Order key' "
              "line at the end of that report."),
        prose("If you did not write that message, someone else wrote your address as its "
              "sender: nothing of it was applied, and this answer went to you alone."))) + "\n"
    return {"to": entry["to"], "subject": "referee: message not matched to one game",
            "body": body}
