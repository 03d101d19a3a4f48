"""What a verify that failed checked, each check on its own line whether it passed or
failed: a failure in one check stops verify's reading, so the chain and the signatures are
read again here over the whole journal (a record whose ruling or dice fail is still signed,
and the records after it too), then the check that failed, and how many records were dated
back. Without this, a reader of the output sees only the signatures of the records read
before the failure, and takes the rest for unsigned.

Only on the way out of a failed verify: a journal that passes is read once."""

from __future__ import annotations

from ..base.errors import JournalError
from ..store.authorship import Authorship
from ..store.journal import scan
from ..store.timesback import TimesBack


def failed_checks(raw: bytes, name: str, header: dict, exc: JournalError,
                  export: str | None, pins=()) -> list[str]:
    """The lines of what verify checked of journal raw (whose record 0 is header), which
    failed with exc: chain, signatures (with the pins: fingerprint, up to record, what
    pinned it), the check that failed unless it is one of those, and the times warning."""
    said = _message(exc, name)
    lines, records, broken = [], [], None
    try:
        for rec in scan(raw, name):
            records.append(rec)
    except JournalError as fault:
        broken = fault
    if broken is None:
        lines.append(f"chain: {len(records)} records, every hash and link checks")
    else:
        held = "" if not records else " (record 0 checks)" if len(records) == 1 else \
            f" (records 0-{len(records) - 1} check)"
        lines.append(f"chain: FAILED: {_message(broken, name)}{held}")
    signed = _signatures(name, header, records, pins)
    lines += signed
    told = any(said in line for line in lines)
    if not told:
        what = "dice" if getattr(exc, "check", None) == "dice" else \
            "rulings" if export is None else "export"
        after = ("the records after it were not decided again" if what == "rulings" else
                 "the records after it were not checked")
        where = f" ({after})" if exc.record is not None and records and \
            exc.record < records[-1]["seq"] else ""
        lines.append(f"{what}: FAILED: {said}{where}")
    times = TimesBack(header)
    for rec in records[1:]:
        times.see(rec.get("seq"), rec.get("at"), rec.get("events"))
    if times.warning() is not None:
        lines.append(times.warning())
    return lines


def verdict(failed: list[str]) -> str:
    """verify's last line when a check failed: which ones did."""
    return f"verify: FAILED ({'; '.join(failed)})"


def failed_kinds(lines: list[str]) -> list[str]:
    """Of the lines failed_checks gives, the checks that failed."""
    return [line.split(":", 1)[0] for line in lines if ": FAILED: " in line]


def _signatures(name: str, header: dict, records: list[dict], pins) -> list[str]:
    """Who signed the records the chain holds, read to the end of the chain (or to the first
    that fails, said after who signed the ones before it); then each pin."""
    try:
        authors = Authorship(name, header)
    except JournalError as fault:
        return [f"signatures: FAILED: {_message(fault, name)}"]
    for rec in records[1:]:
        try:
            authors.check(rec)
        except JournalError as fault:
            authors.last = rec["seq"] - 1
            before = authors.lines() if authors.keys else []
            return [*before, f"signatures: FAILED: {_message(fault, name)}"]
    lines = authors.lines()
    for fpr, upto, what in pins:
        try:
            authors.pin(fpr, upto, what)
        except JournalError as fault:
            lines.append(f"signatures: FAILED: {_message(fault, name)}")
    return lines


def _message(exc: JournalError, name: str) -> str:
    """The error's message without the journal's name before it."""
    text = str(exc)
    return text[len(name) + 2:] if text.startswith(f"{name}: ") else text
