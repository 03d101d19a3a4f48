"""What `verify` does, without Typer: one implementation for two front doors (the Typer
command in audit.py, and the console script's quick path in entry.py, which spares a
verify the Typer application's start-up)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ..base.errors import EXIT_OLDER_RULES, ForeignGameError, RefereeError
from . import commands


def verify(journal: Path, secret: Path | None, export: str | None, receipt: list[str] | None,
           key: str | None, fmt: str, games_dir: Path | None,
           echo: Callable[[str], None]) -> tuple[list[str], int | None]:
    """Check the chain and every signature, decide every record again, and (with the
    secret) every die: (the lines that say what was checked, the exit code: None for 0).
    Receipts the journal no longer holds end it with ReceiptsFailed, once what was checked
    is printed (echo, in text)."""
    # start-up: only verify needs it
    from ..game.failedchecks import failed_kinds, verdict  # start-up: only verify needs it
    from ..game.receipts import ReceiptsFailed, check_receipts, read_key  # start-up: likewise

    pinned = read_key(key) if key is not None else None
    pins = [(pinned, None, "--key")] if pinned is not None else []
    commands.load_msgspec()
    table = commands.table_of(journal, games_dir)
    texts, boxes = _given(receipt or [], table)
    receipts, receipt_pins, failed = check_receipts(table.raw, table.name, texts, pinned)
    receipts[:0] = [box.line(_game_of(table)) for box in boxes]
    try:
        report = _verified(table, secret, export, pins + receipt_pins)
    except RefereeError as exc:
        checks = getattr(exc, "checks", None)
        if checks is None:      # no summary (a skirmish's): who signed what was read
            if failed and fmt != "json":
                for line in getattr(exc, "signed", []):
                    echo(line)
            if failed:
                raise _with(ReceiptsFailed(failed, exc.lines()), None, boxes) from None
            _with(exc, None, boxes)
            raise
        # Every check, passed or failed, then the verdict (failedchecks.py); the errors
        # themselves follow on stderr: every receipt that fails, then what else.
        checks = [*checks, *receipts]
        kinds = failed_kinds(checks) + (["receipts"] if failed else [])
        checks.append(verdict(kinds))
        if fmt != "json":
            for line in checks:
                echo(line)
        if failed:
            raise _with(ReceiptsFailed(failed, exc.lines()), checks, boxes) from None
        raise _with(exc, checks, boxes) from None
    report.lines.extend(receipts)
    if report.times is not None:        # a warning only: old journals may hold such records
        report.lines.append(report.times)
    if failed:      # what was checked, then the verdict, then every receipt that fails
        report.lines.append(verdict(["receipts"]))
        if fmt != "json":
            for line in report.lines:
                echo(line)
        raise _with(ReceiptsFailed(failed), report.lines, boxes)
    code = EXIT_OLDER_RULES if report.older else None
    if fmt == "json":
        return [_json(report, journal, export, len(texts), boxes)], code
    if report.older:
        # Not damage, and not fully verified either: a status of its own (docs/scripting.md:
        # exit codes).
        return [*report.lines, f"verify: OK UNDER OLDER RULES ({report.older} records made "
                               f"under older rules were replayed, not decided again)"], code
    return [*report.lines, "verify: OK" + (
        f" (chain only; not checked: {', '.join(report.unchecked)})" if export else "")], code


def _given(receipt: list[str], table) -> tuple[list[str], list]:
    """The receipts to check: each one pasted, and those of the game in each mailbox named
    (mail/receiptbox.py; not those of another game made under its id, mail/thisgame.py),
    in the order given; and what each mailbox gave."""
    from ..mail import receiptbox  # start-up: only verify --receipt needs it
    from ..mail.thisgame import ThisGame  # start-up: likewise

    texts, boxes, this = [], [], None
    for item in receipt:
        if receiptbox.is_mailbox(item):
            this = this or ThisGame(table.header_line(whole=True) or {}, table.raw)
            boxes.append(receiptbox.read_mailbox(item, _game_of(table), this))
            texts += boxes[-1].receipts
        else:
            texts.append(item)
    return texts, boxes


def _game_of(table) -> str:
    return " ".join(str((table.header_line() or {}).get("game_id", "")).split())


def _with(exc, checks: list[str] | None, boxes: list = ()):
    """The error verify ends with, carrying the lines of what it checked (in JSON, the error
    object's `checks`) and what each mailbox gave (its `mailboxes`)."""
    if checks is not None:
        exc.checks = checks
    if boxes:
        exc.mailboxes = [box.json() for box in boxes]
    return exc


def _verified(table, secret: Path | None, export: str | None, pins: list):
    """The table's verification with these pins; the journal itself (not an export) is held
    to what this referee last wrote to it too."""
    report = table.kind.verify(table, secret, export, pins)
    if export is None:
        from ..store.written import rewound  # start-up: only verify needs it

        rewind = rewound(table.raw)
        if rewind is not None:
            raise ForeignGameError(f"{table.name}: {rewind}")
    return report


def _json(report, journal: Path, export: str | None, receipts: int, boxes: list) -> str:
    """verify's JSON answer (VerifyResult): receipts, how many were checked; mailboxes, what
    each mailbox named gave (mail/receiptbox.py)."""
    from ..contracts.outputs import VerifyResult  # start-up: only verify --format json

    result = "older_rules" if report.older else "chain_only" if export else "ok"
    return commands.dump(VerifyResult.of(
        journal=str(journal), result=result, records=report.records, older=report.older,
        export=export, receipts=receipts, keys=report.keys,
        signed_from=report.signed_from, lines=report.lines,
        **({"mailboxes": [box.json() for box in boxes]} if boxes else {})))
