"""Plain text of journal records and their events, as one reader may see them (log, reports).

Each event kind has its line in WORDING, one function per kind, kept by topic in the
words_*.py modules: a new kind of event is one entry there (tests/test_event_wording.py
holds the table to the engine's event kinds).
"""

from __future__ import annotations

import textwrap

from ..base.flowing import FLOWED
from ..game.planparts import heading_order, marked
from .areanames import with_names
from .asread import SENTENCE_END, as_read
from .dice_words import sheet_parts
from .layout import softened
from .told_once import told_once
from .unbroken import bound, unbound
from .words_combat import WORDING as _COMBAT
from .words_moves import WORDING as _MOVES
from .words_production import WORDING as _PRODUCTION
from .words_turn import WORDING as _TURN

# Imported for annotations only: the quick paths do without the typing module.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..data.gamedata import GameData
    from .phrases import Wording

# Every event kind's line, by the event's `type` tag (as engine/evolve.py HANDLERS is keyed).
WORDING: dict[str, Wording] = {**_TURN, **_MOVES, **_COMBAT, **_PRODUCTION}


def describe(ev: dict, data: GameData, reader: str) -> str | None:
    """One line for an event as reader may see it (None: nothing worth printing)."""
    wording = WORDING.get(ev["type"])
    if wording is None:         # a kind this referee does not know: its fields as they are
        return f"{ev['type']}: " + ", ".join(f"{k}={v}" for k, v in ev.items() if k != "type")
    return wording(ev, data, reader)


# The answers that say nothing of the decision they answer, so a heading names it.
BARE = ("done", "pass", "keep")


def bare(text: str | None) -> bool:
    """Whether an order as the player typed it is a bare answer: 'Done.', 'PASS' as much as
    'done' (the reading takes any case and a full stop, '!' or '…')."""
    return (text or "").strip().rstrip(SENTENCE_END).strip().lower() in BARE


def answered(rec: dict, pending: dict[str, str]) -> str:
    """' (declare battles)' for a bare answer such as 'done': the decision it answered."""
    kind = pending.get(rec.get("actor", ""))
    if kind and bare(rec.get("order")):
        return f" ({kind.replace('_', ' ')})"
    return ""


def note_pending(rec: dict, pending: dict[str, str]) -> None:
    """Remember, per side, the last decision a record left pending (for `answered`)."""
    for ev in rec.get("events", []):
        if ev.get("type") == "DecisionPending":
            pending[ev["side"]] = ev["kind"]


def record_lines(rec: dict, data: GameData, reader: str,
                 pending: dict[str, str] | None = None, manual: bool = False,
                 zone: str | None = None, news: list[str] | None = None,
                 came: str = "") -> list[str]:
    """A journal record as text: header line, then its events; with `pending` (kept
    across records), a bare 'done' names the decision it answered; `manual`: the dice were
    rolled by the players; `zone`: the game's time zone a deadline is told in (None: UTC);
    `news`: what a roster record changed, in words any reader may read (rosternews.py);
    `came`: how the order came, as the header line ends with it (came.py)."""
    if rec["seq"] == 0:
        rules = {k: spec.rule for k, spec in data.info.options.items()
                 if (rec.get("options") or {}).get(k)}
        from .documents import options_words  # start-up: record 0's line alone needs it

        said = options_words(rules)
        return [f"#0 {rec['created_at']} game {rec['game_id']} created: scenario "
                f"{rec['scenario']}, dice {rec['dice']['mode']} (commitment "
                f"{rec['dice']['commitment'][:16]}...)" + (f"; {said}" if said else "")]
    who = data.side_name(rec["actor"])
    order = rec["order"]
    private = rec.get("private_order")
    if isinstance(private, dict) and "data" in private:
        order = private["data"]["text"]
    note = answered(rec, pending) if pending is not None else ""
    order = with_names(as_read(order, data), data) if order == heading_order(order, rec) \
        else heading_order(order, rec)
    out = [f"#{rec['seq']} {rec['at']} {who}: {order.replace(chr(10), '; ')}{note}{came}"]
    if pending is not None:
        note_pending(rec, pending)
    if rec.get("dice"):
        who = " by the players (manual dice)" if manual else ""
        out.append(f"    dice rolled{who}: {', '.join(map(str, rec['dice']))}")
    out += sheet_lines(rec, data)
    if "clock" in rec:
        from ..game.timeline import clock_words  # start-up: only a record about time

        side = str(rec["clock"].get("side") or "") if isinstance(rec["clock"], dict) else ""
        asked = pending.get(side) if pending is not None else None
        out.append(f"    {clock_words(rec, zone, asked, reader)}")
    out += [f"    {line}" for line in news or []]
    # A revealed plan heads the events that carried it out, indented under it (told_once).
    for ev in told_once(marked(rec["events"]), reader):
        line = describe(ev, data, reader)
        if line:
            out.append(f"{'        ' if ev.get('under_reveal') else '    '}{line}")
    return out


def sheet_lines(rec: dict, data: GameData) -> list[str]:
    """A dice sheet registered, a link revealed, and what the record's dice mix in besides
    the secret and the stream that keys them (store/sheets.py): each value in full, for a
    player to hold against his own and to check a die by hand (a report says it in a
    sentence: dice_words.py)."""
    out = [f"    {line}" for line in sheet_parts(rec, data)]
    mix = rec.get("dice_from")
    if isinstance(mix, dict):
        parts = [f"{data.side_name(x['side'])}'s link {x['no']}" if x["no"] else
                 f"{data.side_name(x['side'])}'s tip" for x in mix.get("links", [])]
        if mix.get("mail"):
            parts.append(f"the digest of the mail's order lines {mix['mail']}")
        keyed = f"keyed {mix['stream']}" if mix.get("stream") else ""
        if parts:
            out.append(f"    its dice mix in {' and '.join(parts)}" +
                       (f", {keyed}" if keyed else ""))
        elif keyed:
            out.append(f"    its dice are {keyed}")
    return out


def wrap_lines(lines: list[str], width: int = 72, hang: int = 4) -> list[str]:
    """Lines wrapped at width, continuations indented `hang` more than their first line (a
    paragraph of prose: 0); no word split, nor a group unbroken.py keeps whole (a rule
    cited, a time and its zone) that fits a line; each line broken ends in a soft break
    (layout.softened), which a mail program that reads format=flowed may join again."""
    out: list[str] = []
    for line in (part for whole in lines for part in whole.split("\n")):
        if len(line) <= width:
            out.append(line)
            continue
        indent = " " * (len(line) - len(line.lstrip()) + hang)
        out.extend(softened(_wrapped(line, width, indent) or [line]))
    return out


def _wrapped(line: str, width: int, indent: str) -> list[str]:
    """line wrapped at width, its continuations indented by indent; in a mail
    (base/flowing.py) a line that begins with a space is space-stuffed (mail/flowed.py), so
    it is wrapped a column shorter."""
    if not FLOWED.get():
        return [unbound(part) for part in textwrap.wrap(
            bound(line, width - len(indent)), width, subsequent_indent=indent,
            break_long_words=False, break_on_hyphens=False, drop_whitespace=True)]

    def wrap(text: str, room: int, first: str) -> list[str]:
        return [unbound(part) for part in textwrap.wrap(
            bound(text, room - len(indent)), room, initial_indent=first,
            subsequent_indent=indent, break_long_words=False, break_on_hyphens=False,
            drop_whitespace=True)]
    lead = line[:len(line) - len(line.lstrip())]
    parts = wrap(line.lstrip(), width - bool(lead), lead)
    if len(parts) < 2 or not indent:
        return parts
    rest = " ".join(part.strip() for part in parts[1:])
    return parts[:1] + wrap(rest, width - 1, indent)


def prose(text: str) -> str:
    """Text as a mail gives it: each line wrapped at 72 columns, as the reports are."""
    return "\n".join(wrap_lines(text.split("\n"), 72, hang=0))
