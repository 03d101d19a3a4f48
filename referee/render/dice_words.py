"""Where a record's dice came from, in one sentence for a report read on a phone.

The kinds of source the referee writes (store/sheets.py, store/dice.py, game/dicesource.py)
and what is true of each (docs/player.md, Who can foresee a die):

- a link of the side's dice sheet, keyed by the side's count ("german.4"): fixed by his
  tip and unknown before his mail, so neither the moderator nor a player chose the dice
  alone;
- the digest of the order lines of the side's mail, keyed the same way: nothing the
  moderator writes moves them, but he reads the mail first and could re-word it, trying
  the dice of each wording; the digest, which the sender can compute from what he sent,
  shows it;
- a phase of sealed plans given at once, keyed by the phase ("plans-production.5"): with a
  sheet holder's plan link revealed by the record itself, the same; with none, or only
  links shown before it (the other plan's), the moderator could foresee the dice, but not
  choose them, since which plan closed the phase moves none;
- the referee's own answer for a side (a default at a missed deadline, a decision closed
  for it), keyed by the side's count: nothing of the player's that the moderator had not
  read (at most his latest link, already shown), so the moderator could foresee the dice,
  but not choose them;
- no mix at all (orders typed by hand without a sheet, the set-up), keyed by the record's
  number: the moderator could foresee them and choose among them by writing other records
  first; so could he a shuffle of the deck (1.3) by such orders, when it is their only
  draw (a record with a mix names it whether it rolled or shuffled);
- manual dice: the players rolled them and the moderator entered them;
- an older record (rules 7 and before: no stream), keyed by its number: the links it names
  were mixed in, and the moderator could choose among the dice by writing other records
  first.

Each sentence leads with plain words a player reads on a phone without the guide, three
lines of 40 columns at most: what fixed the dice (a side's dice sheet, a side's mail as he sent
it, the sealed secret alone: drawn at `new`, only its digest in the journal, revealed at
the end) and who could have foreseen or chosen them; then, "for an audit", what they mix
in by its first digits, the stream that keys them and where an audit checks it (`explain
N`; in a player's mail, the line `explain N` he mails, which the referee answers:
mail/queries.py). The whole takes three lines at 72 columns; `log` keeps the mix whole.
"""

from __future__ import annotations

from ..base.readers import MODERATOR
from ..store.sheets import in_side_count

# Imported for annotations only: the quick paths do without the typing module.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..data.gamedata import GameData

HEX = 8             # a link's or a digest's first digits: enough to know one's own
NEITHER = "nobody alone could foresee or choose them"
FORESEE = "the moderator could foresee, not choose them"
# A mail's digest alone: the moderator, who reads the mail first, could re-word it (its
# digest, in the audit part, shows it to the sender).
REWORDED = "only the moderator could change them, by editing it"
# What fixed a record's dice, in a player's words ("Dice fixed by ..."): the game's secret,
# drawn at `new` and sealed (its digest in record 0), with what it mixes in; said alone
# where it mixes in nothing.
SECRET = "fixed by the sealed secret"
SECRET_ALONE = f"{SECRET} alone"


def asking(seq: object, mailed: bool = False) -> str:
    """How the reader asks for record seq explained: the command, or in a player's mail
    the line to mail (mail/queries.py); seq "N" for any record."""
    return f"mail 'explain {seq}'" if mailed else f"explain {seq}"


def audit(key: str, seq: object, mailed: bool = False, mix: str = "") -> str:
    """The part of a dice sentence an auditor needs, after the plain words: what the dice
    mix in by its first digits, the stream that keys them and where `explain` tells them."""
    return f"(for an audit: {mix + ', ' if mix else ''}{key}; {asking(seq, mailed)})"


def dice_words(rec: dict, data: GameData, manual: bool = False,
               mailed: bool = False) -> str | None:
    """One sentence on where a record's dice came from: first in plain words what chose them
    and who could have chosen them, then for an audit what they mix in, the stream that keys
    them inside it and where an audit checks them (mailed: in a player's mail, the line he
    mails for it); a side's record without a mix that rolled no die but shuffled the deck,
    the same of its shuffle; None for a record that rolled no die, drew nothing and names no
    mix."""
    source = rec.get("dice_from") if isinstance(rec.get("dice_from"), dict) else None
    seq = rec.get("seq")
    if manual and rec.get("dice"):
        return f"Dice rolled by the players and entered by the moderator " \
               f"{audit('manual dice', seq, mailed)}."
    by_number = audit(f"keyed by record {seq}", seq, mailed)
    if source is None and not rec.get("dice"):
        return f"Shuffle {SECRET_ALONE}: the moderator could foresee and choose among " \
               f"its outcomes {by_number}." if _shuffles(rec) else None
    if source is None:
        return f"Dice {SECRET_ALONE}: the moderator could foresee and choose among them " \
               f"{by_number}."
    stream = source.get("stream")
    if not isinstance(stream, str):
        return f"Dice {_chose(source, rec, data, latest=True)}: the moderator could choose " \
               f"among them {audit(f'older rules, keyed by record {seq}', seq, mailed)}."
    if rec.get("by") in ("deadline", "referee") or (
            not in_side_count(source) and rec.get("link") not in source.get("links", [])):
        # The referee's own answer, or no link of this record's: every one it mixes in was
        # shown before it was written.
        return f"Dice {_chose(source, rec, data, shown=True)}: {FORESEE} " \
               f"{_audit(source, rec, data, stream, mailed, shown=True)}."
    if not source.get("links") and not source.get("mail"):
        return f"Dice {SECRET_ALONE}: {FORESEE} {audit(f'keyed {stream}', seq, mailed)}."
    said = NEITHER if source.get("links") else REWORDED
    return f"Dice {_chose(source, rec, data)}: {said} " \
           f"{_audit(source, rec, data, stream, mailed)}."


def record_keyed(rec: dict, manual: bool = False) -> str | None:
    """The kind of a record whose dice sentence says the same of every such record but its
    number: "manual" (the players' dice), "dice" or "shuffle" (the secret alone, keyed by
    the record's number); None for any other, whose sentence is its own (dice_once.py)."""
    source = rec.get("dice_from") if isinstance(rec.get("dice_from"), dict) else None
    if manual and rec.get("dice"):
        return "manual"
    if source is not None:
        return None
    return "dice" if rec.get("dice") else "shuffle" if _shuffles(rec) else None


def _shuffles(rec: dict) -> bool:
    """Whether a side's record shuffles the deck by draws from the stream (1.3): a shuffle of
    one card or none draws nothing; the set-up's deal (the moderator's) is told by its
    events alone."""
    return rec.get("actor") != MODERATOR and any(
        ev.get("type") == "DeckShuffled" and ev.get("draws") for ev in rec.get("events", []))


def _chose(source: dict, rec: dict, data: GameData, shown: bool = False,
           latest: bool = False) -> str:
    """What fixed the dice, in a player's words: the side's dice sheet (its next link;
    `shown`: a link shown before this record; `latest`: older rules, the side's latest),
    both sides' sheets, or the side's mail as he sent it; the sealed secret alone when
    none."""
    links = source.get("links", [])
    parts = [f"{data.side_name(x['side'])}'s dice sheet" + (
        " tip" if not x.get("no") else ", its link shown before" if shown
        else ", its latest link" if latest else "")
        for x in links]
    if len(links) > 1:
        parts = ["both sides' dice sheets"]
    if source.get("mail"):
        actor = rec.get("actor")
        parts.append(f"{data.side_name(actor)}'s mail as sent" if isinstance(actor, str)
                     and actor in data.sides else "the mail as sent")
    return "fixed by " + " and ".join(parts) if parts else SECRET_ALONE


def _audit(source: dict, rec: dict, data: GameData, stream: str, mailed: bool,
           shown: bool = False) -> str:
    """The audit part of a record whose dice mix in links or a digest: a link by its number
    and first digits (`shown` before this record: public, by number; two, a phase of sealed
    plans: neither, `explain` gives both), the mail's digest by its first digits."""
    links = source.get("links", [])
    parts = [] if len(links) > 1 else [
        (f"link {x['no']}" if x.get("no") else "tip") + ("" if shown else
                                                         f" {str(x.get('value'))[:HEX]}")
        for x in links]
    if source.get("mail"):
        parts.append(f"digest {str(source['mail'])[:HEX]}")
    return audit(f"keyed {stream}", rec.get("seq"), mailed, ", ".join(parts))


def report_lines(rec: dict, data: GameData, manual: bool = False,
                 mailed: bool = False) -> list[str]:
    """A record's dice sheet lines in a report: a tip registered, a link revealed (in full,
    unless its dice mix in that link alone, which their sentence names), then where its
    dice came from (mailed: in a player's mail)."""
    source = rec.get("dice_from") if isinstance(rec.get("dice_from"), dict) else {}
    out = sheet_parts(rec, data, named=source.get("links"))
    said = dice_words(rec, data, manual, mailed)
    return out + ([said] if said else [])


def sheet_parts(rec: dict, data: GameData, named: object = None) -> list[str]:
    """A dice sheet a record registers (its tip) and the link it reveals, each in full; the
    link left out when it is the one link `named` (the record's mix, said elsewhere)."""
    out = []
    tip, link = rec.get("sheet"), rec.get("link")
    if isinstance(tip, dict):
        out.append(f"dice sheet of {data.side_name(tip['side'])} registered, tip {tip['tip']}")
    if isinstance(link, dict) and named != [link]:
        out.append(f"link {link['no']} of {data.side_name(link['side'])}'s dice sheet: "
                   f"{link['value']}")
    return out
