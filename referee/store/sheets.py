"""Dice sheets: a hash chain a player makes himself, whose links put his entropy into the dice.

A sheet is a chain of lowercase hex SHA-256 values. The player picks a random seed
(64 hex digits) as the last link; each earlier link is the SHA-256 of the ASCII text of
the link after it; the first is the tip. The file lists the tip first, then the links in
the order they are used (link 1, link 2, ..., the seed last), one a line: the same
lines as the player's guide's recipe makes with `sha256sum`
(docs/player.md, Dice sheets).

The tip is registered with the game (`new --sheet SIDE=TIP`, a mail's `Sheet: TIP`
line, or `players --sheet`): a public record. Then each of the side's batches that
rolls dice or shuffles the deck reveals the next link (`order --link`, a mail's
`Link:` line). Nobody can compute link k from the links before it, and anybody can
check it: SHA-256 of link k is link k - 1 (the tip is link 0).

A later link than the one due is taken too (the links skipped are hashed down to the
last one revealed): a mail the referee refuses has shown its link to the moderator
without using it, so the player's next mail should carry the link after it. An earlier
link, or the last one again, never checks.

What a record's dice and draws mix in besides the secret, and what keys them (`dice_from`,
`own_source`, `mix_text`, dice.py): under rules 8 and later, a record mixes in its own
side's material alone, and the side's count of such records keys its dice in place of the
record's number, so that nothing but the side's own mail moves them:

- a record started by a side that holds a sheet must have a link his own batch revealed
  (the moderator has read every older one): without it the orders are refused, no die
  used; its dice mix in that link;
- a record started by a side without a sheet, when it came in a mail, mixes in the SHA-256
  of the mail's order lines as the player wrote them (`printf '%s\n' LINE... | sha256sum`;
  lines the opponent may not read -- a sealed plan, a move between hidden templates (1.4),
  standing orders -- are left out, since their digest would let him try guesses);
- either way its `stream` is "SIDE.K", K being one more than the side's records before it
  that mixed in material (of any rules): the key of its dice instead of the record's
  number. A record the moderator writes before he applies a mail (a registration, a roster
  change, the other side's mail applied first) leaves both the mail's material and its
  side's count as they were, so it changes none of the mail's dice; only records of the
  side itself move the count, and each of those shows in the side's own report;
- the referee's own answer for a side (a default at a missed deadline, a decision closed
  for it) has no material, but is keyed by the side's count all the same, so that no
  record of the moderator's written before the deadline passes moves its dice; orders by
  hand without a sheet, and the set-up, mix in nothing and keep the record's number:
  whoever holds the secret foresees those dice, as he does the orders;
- a tip is never mixed in (a registration changes no die); neither is the other side's
  link: it was public before the mail came, so it kept nobody from foreseeing, and the
  order in which two mails were applied would have chosen among dice;
- the automatic steps (the turn's end and its reshuffle, a decision nobody is asked, the
  other side's standing orders) are decided inside the record of the order that led to
  them, so they take that order's material and key. The set-up (record 1) comes before
  any sheet: its deck order is the secret's alone;
- where several sides give sealed plans at once (7.0, 2.0 I, 2.0 V.3), whichever plan is
  applied last closes the phase, and its record rolls for all (the turn's end, a
  reshuffle): so every such plan of a sheet holder carries his next link, rolling or not,
  and the records of the phase mix in the latest link of each side with a sheet (never a
  mail's digest: without sheets, nothing) and are keyed by the phase
  ("plans-production.5", plans_source), the same whatever the order of the mails; they
  count in no side's count.

Records of older rules keep the mix they name and their record's number: rules 7 mixed in
the latest revealed link of every side, rules 6 and before a side's tip until its first
link; verify replays each with its own.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from ..base.errors import SheetError, StorageError, UsageError, quoted
from . import home

SHEET = "register dice sheet"
# How many links a later link may skip (each costs one SHA-256 to check).
MAX_SKIP = 1000
DEFAULT_LINKS = 500
MAX_LINKS = 100_000
_HEX64 = re.compile(r"[0-9a-f]{64}")


def hashed(link: str) -> str:
    """The link before this one: the SHA-256 of its ASCII text, in lowercase hex."""
    return hashlib.sha256(link.encode("ascii")).hexdigest()


def make_sheet(links: int = DEFAULT_LINKS, seed: str | None = None) -> list[str]:
    """A new sheet: [tip, link 1, ..., link `links`], the last being the seed (random
    unless given)."""
    if not 1 <= links <= MAX_LINKS:
        raise UsageError(f"--links {links}: a sheet has 1 to {MAX_LINKS} links")
    import secrets  # start-up: random and base64 load only where a sheet is made

    chain = [seed if seed is not None else secrets.token_hex(32)]
    for _ in range(links):
        chain.append(hashed(chain[-1]))
    return chain[::-1]


def sheet_text(chain: list[str]) -> str:
    """A sheet as its file holds it: one value a line, the tip first."""
    return "".join(f"{v}\n" for v in chain)


def is_value(text: object) -> bool:
    """A tip or a link as written down: 64 lowercase hex digits."""
    return isinstance(text, str) and _HEX64.fullmatch(text) is not None


def steps_down(link: str, latest: str) -> int | None:
    """How many links on from `latest` the given link is (1 for the next one), hashing it
    down at most MAX_SKIP times; None if it is not a later link of the same sheet."""
    value = link
    for k in range(1, MAX_SKIP + 1):
        value = hashed(value)
        if value == latest:
            return k
    return None


def on_a_shown_chain(tip: str, pos: SheetPos | None) -> bool:
    """Whether a new tip for a side lies 1 to MAX_SKIP + 1 steps of SHA-256 below what its
    sheets have shown (pos: where its sheet stands; each value below a shown one is known to
    anyone): registered, a link shown before would check again as one of its own, and the
    moderator know its dice before the mail came. The side's latest revealed link (or its
    tip) is hashed down past its tip, and its latest link of an earlier sheet past that
    one's; so the work is bounded by the links the side has revealed, whatever a journal
    holds. A shown value itself is no danger as a tip (the links above it are as secret as
    ever); one further below takes none of the player's own links, whose refusal shows it."""
    if pos is None:
        return False
    starts = [(pos.value, pos.no + MAX_SKIP + 1)]
    if pos.shown is not None and pos.shown[1] != pos.value:
        starts.append((pos.shown[1], pos.shown[0] + MAX_SKIP + 1))
    for value, steps in starts:
        for _ in range(steps):
            value = hashed(value)
            if value == tip:
                return True
    return False


# The first rules version whose records may not register a tip on a chain already shown.
SHOWN_TIPS_REFUSED_FROM = 7


def check_tip(text: str, pos: SheetPos | None, what: str) -> str:
    """A new sheet's tip as given (SheetError otherwise): 64 hex digits, on no chain the
    side's sheet (pos) has shown (on_a_shown_chain)."""
    tip = text.strip().lower()
    if not is_value(tip):
        raise SheetError(f"{what} {quoted(text, 20)} is not a dice sheet's tip (64 hex digits, "
                         f"the first line of the sheet)")
    if on_a_shown_chain(tip, pos):
        raise SheetError(f"{what}: this tip lies on a chain this game has shown already (a tip "
                         f"or a link, or a value below one), so links of it are known: make a "
                         f"new sheet (referee sheet new) and give its tip")
    return tip


def shown_tip(tip: str, pos: SheetPos | None, rules: int) -> bool:
    """Whether a record made under `rules` registers a tip on a chain already shown, which
    rules 7 and later refuse (on_a_shown_chain)."""
    return rules >= SHOWN_TIPS_REFUSED_FROM and on_a_shown_chain(tip, pos)


def steps_back(link: str, latest: str, no: int) -> int | None:
    """Which link already revealed (0 the tip) the given one is, when it is one of them,
    going back from `latest` (link `no`); else None."""
    value = latest
    for k in range(no, -1, -1):
        if value == link:
            return k
        value = hashed(value)
    return None


class SheetPos:
    """Where one side's sheet stands: its tip, the number and value of the last link
    revealed (0 and the tip before any), and the record that revealed it; `shown`, the
    side's latest revealed link of any sheet it has had, (no, value), None before its
    first: what the dice mix in for the side."""

    __slots__ = ("tip", "no", "value", "seq", "shown")

    def __init__(self, tip: str, no: int = 0, value: str | None = None, seq: int = 0,
                 shown: tuple[int, str] | None = None):
        self.tip, self.no, self.value, self.seq = tip, no, value or tip, seq
        self.shown = (no, value) if isinstance(no, int) and no > 0 and value else shown

    def due(self) -> int:
        """The number of the link its side reveals next."""
        return self.no + 1


LINK_HOW = "a line 'Link: LINK' in a mail; by command, order --link LINK"
# Where the players read what a dice sheet asks of them: the refusal of a mail's line cites it,
# as a game's refusal cites its rule.
SHEET_RULE = "player.md, Dice sheets"
NONE_GIVES = "which none of these orders gives"


def in_mail_terms(reason: str) -> str:
    """A dice sheet's refusal as a mail's reply gives it: its line 'Link: LINK', no command."""
    return reason.replace(f" ({LINK_HOW})", ", on a line 'Link: LINK' of the mail")


def sheet_why(reason: str) -> str:
    """A dice sheet's refusal of an order as the reply to a mail gives it, below the line it
    quotes: in the mail's terms (its line 'Link: LINK'), citing the dice sheets' rule."""
    return in_mail_terms(reason).replace(NONE_GIVES, "which this mail does not give") + \
        f" ({SHEET_RULE})"


def check_link(known: dict[str, SheetPos], side: str, text: str, owner: str) -> dict:
    """The link a batch gives, as its record keeps it ({side, no, value}): a later link of the
    side's dice sheet than the last revealed (SheetError naming the link due otherwise).
    `owner` names the side's player as the refusal reads ('the German player': the game's
    data names the side, a layer above this one)."""
    pos = known.get(side)
    if pos is None:
        raise SheetError(f"{owner} has no dice sheet registered, so a link means nothing here "
                         f"(register its tip: new --sheet, players --sheet, or a line 'Sheet: "
                         f"TIP' in a mail)")
    value = text.strip().lower()
    due = f"link {pos.due()} of {owner}'s dice sheet is due ({LINK_HOW})"
    if not is_value(value):
        raise SheetError(f"the link {quoted(text, 20)} is not one (64 hex digits, a line of "
                         f"the sheet); {due}")
    back = steps_back(value, pos.value, pos.no)
    if back is not None:
        what = "the tip" if back == 0 else f"link {back}"
        raise SheetError(f"the link given is {what} of {owner}'s dice sheet, public "
                         f"already; {due}")
    ahead = steps_down(value, pos.value)
    if ahead is None:
        raise SheetError(f"the link given is not a link of {owner}'s dice sheet (no SHA-256 "
                         f"chain leads from it to link {pos.no}); {due}")
    return {"side": side, "no": pos.no + ahead, "value": value}


def register(sheets: dict[str, SheetPos], side: str, tip: str, seq: int) -> None:
    """A new tip for the side, registered by record `seq`: its links count from 1 again,
    and the side's latest revealed link of an earlier sheet stays what its dice mix in
    until the first link of this one (a tip mixes in nothing)."""
    before = sheets.get(side)
    sheets[side] = SheetPos(tip, 0, None, seq, before.shown if before else None)


OWN_LINKS_FROM = 8      # the rules from which a record mixes in its own side's link alone


def own_source(sheets: dict[str, SheetPos], side: str, mail: str | None,
               before: int, referees: bool = False) -> dict:
    """What a record of `side` mixes in under rules 8 and later (its `dice_from`): its
    latest revealed link when it holds a sheet (its own batch's: a batch without one is
    refused), else `mail`, the digest of the order lines of the mail it came in; with
    either, or for the referee's own answer for the side (`referees`: a default at a
    missed deadline, a decision closed for it), its `stream` "SIDE.K", K being one more
    than `before`, the side's records with a `dice_from` earlier (rolls_before). {} for
    none: orders by hand, keyed by the record's number."""
    pos = sheets.get(side)
    if pos is not None and pos.shown is not None:
        source: dict = {"links": [{"side": side, "no": pos.shown[0], "value": pos.shown[1]}]}
    elif pos is None and mail:
        source = {"mail": mail}
    elif referees:
        source = {}
    else:
        return {}
    source["stream"] = f"{side}.{before + 1}"
    return source


def plans_source(sheets: dict[str, SheetPos], sides: list[str], stream: str) -> dict:
    """What a record of sealed plans given at once mixes in (7.0, 2.0 I, 2.0 V.3): the
    latest link of each of those sides that holds a sheet (revealed with its plan: a plan
    without one is refused), keyed by the phase (`stream`, "plans-KIND.TURN"), so that
    whichever plan the moderator applies last, the record closing the phase rolls the
    same dice."""
    links = [{"side": s, "no": sheets[s].shown[0], "value": sheets[s].shown[1]}
             for s in sorted(sides) if s in sheets and sheets[s].shown is not None]
    return {**({"links": links} if links else {}), "stream": stream}


PLANS = "plans-"        # how the stream of a phase of sealed plans begins


def in_side_count(source: object) -> bool:
    """Whether a record's `dice_from` moves its side's count on (rolls_before counts the
    same in a journal's bytes): one keyed by a phase of sealed plans does not."""
    return isinstance(source, dict) and not str(source.get("stream", "")).startswith(PLANS)


def rolls_before(raw: bytes, side: str) -> int:
    """How many records of the journal's bytes, made by `side`, carry a `dice_from` keyed
    by no phase of sealed plans. Only the lines naming that key are looked at: no other line
    names it, which the canonical form writes unescaped, and a record's first key is its
    actor."""
    mark, head = b'"dice_from":{', b'{"actor":' + json.dumps(side).encode() + b","
    phase = b'"stream":"' + PLANS.encode()
    count, at = 0, raw.find(mark)
    while at >= 0:
        begin = raw.rfind(b"\n", 0, at) + 1
        end = raw.find(b"\n", at)
        count += raw.startswith(head, begin) and raw.find(phase, at, end) < 0
        if end < 0:
            break
        at = raw.find(mark, end)
    return count


def follow(sheets: dict[str, SheetPos], rec: dict) -> None:
    """Move the sheets on by one record: a tip registered, or a link revealed (as written:
    verify checks each one)."""
    tip = rec.get("sheet")
    if isinstance(tip, dict) and isinstance(tip.get("side"), str):
        register(sheets, tip["side"], tip.get("tip"), rec.get("seq", 0))
    link = rec.get("link")
    if isinstance(link, dict) and link.get("side") in sheets:
        sheets[link["side"]] = SheetPos(sheets[link["side"]].tip, link.get("no"),
                                        link.get("value"), rec.get("seq", 0))


def sheets_in(raw: bytes) -> dict[str, SheetPos]:
    """Every side's sheet as the journal's bytes leave it ({} without one). Only the lines
    that can hold a tip or a link are read: no other line names those keys, which the
    canonical form writes unescaped."""
    sheets: dict[str, SheetPos] = {}
    for rec in _sheet_lines(raw):
        follow(sheets, rec)
    return sheets


def _sheet_lines(raw: bytes):
    """The records of the journal's bytes that can hold a tip or a link (dicts)."""
    if b'"sheet":{' not in raw:
        return
    start = 0
    while True:
        at = min((i for i in (raw.find(b'"sheet":{', start), raw.find(b'"link":{', start))
                  if i >= 0), default=-1)
        if at < 0:
            return
        begin = raw.rfind(b"\n", 0, at) + 1
        end = raw.find(b"\n", at)
        end = len(raw) if end < 0 else end
        try:
            rec = json.loads(raw[begin:end])
        except ValueError:
            rec = None
        if isinstance(rec, dict):
            yield rec
        start = end + 1


def mix_text(source: dict | None) -> str:
    """What a record's dice mix in, as the HMAC message carries it after the die's index:
    'side=link' for each link in side order, then 'mail=digest' ('' for none)."""
    if not source:
        return ""
    parts = [f"{x['side']}={x['value']}" for x in sorted(source.get("links", []),
                                                         key=lambda x: x["side"])]
    if source.get("mail"):
        parts.append(f"mail={source['mail']}")
    return ";".join(parts)


def lines_digest(lines: list[str]) -> str:
    """The SHA-256 of order lines as `printf '%s\\n' LINE... | sha256sum` gives it."""
    return hashlib.sha256("".join(f"{t}\n" for t in lines).encode("utf-8")).hexdigest()


def parse_tip(text: str, what: str) -> str:
    """A tip (or link) as given: 64 hex digits, lower case kept (UsageError otherwise)."""
    value = text.strip().lower()
    if not is_value(value):
        raise UsageError(f"{what}: a dice sheet's tip is 64 hex digits (the first line of the "
                         f"sheet file)")
    return value


def parse_tips(items: list[str], sides) -> dict[str, str]:
    """SIDE=TIP options -> {side: tip} (UsageError)."""
    out: dict[str, str] = {}
    for item in items:
        side, sep, tip = item.partition("=")
        side = side.strip().casefold()
        if not sep or side not in sides:
            raise UsageError(f"--sheet {item[:80]!r}: give SIDE=TIP with SIDE one of "
                             f"{', '.join(sides)}")
        if side in out:
            raise UsageError(f"--sheet {item[:80]!r}: {side} is given twice")
        out[side] = parse_tip(tip, f"--sheet {side}")
    return out


def sheet_body(actor: str, side: str, tip: str, at: str) -> dict:
    """The record that registers a side's dice sheet (public: the tip tells nothing)."""
    return {"at": at, "actor": actor, "order": SHEET, "events": [],
            "sheet": {"side": side, "tip": tip}}


def write_sheet(path: Path, chain: list[str]) -> None:
    """Write a sheet readable by its owner only (0600), never over another file nor through a
    symlink (UsageError / StorageError say why not)."""
    try:
        home.write_new(path, sheet_text(chain).encode("ascii"))
    except FileExistsError:
        raise UsageError(f"{path}: a file of that name already exists; a sheet is never "
                         f"written over one (its links may be in use)") from None
    except OSError as exc:
        raise StorageError(f"{path}: the sheet could not be written ({exc.strerror}); "
                           f"nothing was created") from None
