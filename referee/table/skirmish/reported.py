"""A skirmish's report as a reader reads it (`report`, `skirmish report`): every test and the
forces, what his mail asks of him now, and what a script reads of any report, a campaign's
too: the records it covers (since, upto), the receipt of the last (as its mails end with it),
the dice mode and whom the game waits on."""

from __future__ import annotations

from ...game import signedreceipt
from ...game.receipts import receipt_key
from . import decider as sk
from .asking import asked_now
from .listed import waits_turn
from .report import report_document


def waited(game) -> list[str]:
    """Whom every view (status, a report, `new`) says the game waits on: the sides still to
    say done, but one whose unit moves after the other's with none of his own legal now."""
    return [s for s in sk.waiting(game.state) if not waits_turn(game.card, game.state, s)]


def reader_report(kind, table, reader: str, turn: int | None = None, key: str | None = None,
                  since: int = 0) -> dict:
    """The report as reader reads it: every test after record `since` (turn: that turn's)
    and the forces, then what his mail asks of him now (asked_now), and his order key when
    given (`skirmish report --as`: a player's own); with the records it covers, the
    receipt of the last, the dice mode and whom it waits on (covered)."""
    game = table.game()
    doc = report_document(game.header, game.card, game.state, turn, waited(game))
    doc = report_document(game.header, game.card, game.state, turn, waited(game),
                          reader=reader,
                          asked=asked_now(kind, table, doc, reader, key_below=bool(key)),
                          **({"order_key": key} if key else {}), **covered(table, since))
    return {**doc, "tests": [t for t in doc["tests"] if t["record"] > since]} if since else doc


def covered(table, since: int) -> dict:
    """What a script reads of any report: the records it covers (those after `since`, up to
    the journal's last: a skirmish keeps no reader's place, so 0 unless asked), the receipt
    of the last (its whole hash; the fingerprint of the key that signed it, the key's
    signature of the receipt and the Signed lines a mail carries, when this referee wrote
    the journal and holds the key, else null), the dice mode, and whom the game waits on
    (waiting_on, as its status; waiting_on_all, every side that owes an answer, as every
    report and status names them)."""
    header, last = table.records[0], table.records[-1]
    vouched = table.vouched()
    blob = signedreceipt.signed(header, last) if vouched else None
    waiting = kind_waiting(table)
    return {"since": since, "upto": last["seq"],
            "receipt": {"seq": last["seq"], "hash": last["hash"],
                        "fingerprint": receipt_key(header, last) if vouched else None,
                        "signature": signedreceipt.signature_of(blob) if blob else None,
                        "signed": blob},
            "dice": header["dice"]["mode"], "waiting_on": waiting, "waiting_on_all": waiting}


def kind_waiting(table) -> list[str]:
    """The sides the game waits on now, as its status names them: none once it is over or
    closed."""
    state = table.game().state
    return [] if state.revealed is not None or state.over() else waited(table.game())
