"""A reply to an older mail whose orders its writer's own later mail had applied already: a
phone sending the same orders again, under another Date and Message-ID (so no copy of it,
copies.py), after the first was taken. Such a reply is stale, but its writer's decision
need not have changed (he may have none now): he is told that the same lines were applied
already, and as which record, rather than that his decision changed since."""

from __future__ import annotations

from collections.abc import Callable

from .answered import mail_of
from .msgids import Answered


def applied_again(records: list[dict], answered: Answered | None, side: str,
                  texts: list[str], step_at: Callable[[int], str]) -> str | None:
    """Why a stale reply of side answering the mail of record answered is not applied when
    one later mail of his applied exactly its order lines (texts), or None: its words, read
    after 'Your message was not applied: ' as a stale reply's are (that mail named by the
    turn and step it named: step_at, answered.mail_of)."""
    if not texts or not answers_earlier(records, answered):
        return None
    seqs = applied_as(records, answered.seq, side, texts)
    if seqs is None:
        return None
    first, last = seqs
    which = f"record {first}" if first == last else f"records {first}–{last}"
    return (f"it answers {mail_of(step_at, answered.seq)}, and these same orders were "
            f"already applied as {which}: nothing more was done; reply to the latest mail")


def answers_earlier(records: list[dict], answered: Answered | None) -> bool:
    """Whether a reply answers the mail of a record before the journal's last, as that
    record is (answered.is_of)."""
    return answered is not None and 0 <= answered.seq < len(records) - 1 and \
        answered.is_of(records[answered.seq])


def _campaign_mail(record: dict) -> str | None:
    """The Message-ID of the mail a campaign's record was made from (by mail), or None."""
    mail = record.get("mail")
    data = (mail or {}).get("data") if isinstance(mail, dict) else None
    ident = data.get("message_id") if isinstance(data, dict) else None
    return ident if record.get("by") == "mail" else None


def applied_as(records: list[dict], after: int, side: str, texts: list[str],
               mail_of_record: Callable[[dict], str | None] = _campaign_mail,
               orders: Callable[[dict], list[str]] | None = None) -> tuple[int, int] | None:
    """The first and last record that one mail of side applied after record `after`, when
    that mail's order lines are texts, the same lines (their spaces and case aside); None
    when no such mail is in the journal. mail_of_record names the mail a record came from
    and orders its lines (a campaign's, by default: _orders)."""
    want = [_plain(t) for t in texts]
    made: dict[str, list[int]] = {}
    lines: dict[str, list[str]] = {}
    for r in records[after + 1:]:
        ident = mail_of_record(r) if r.get("actor") == side else None
        if not isinstance(ident, str):
            continue
        made.setdefault(ident, []).append(r["seq"])
        lines.setdefault(ident, []).extend(_plain(t) for t in (orders or _orders)(r))
    for ident, seqs in made.items():
        if lines[ident] == want:
            return seqs[0], seqs[-1]
    return None


def _orders(record: dict) -> list[str]:
    """The order lines a record applied as its writer sent them: a sealed plan's every line
    (its private text), else its order."""
    private = record.get("private_order")
    text = (private.get("data") or {}).get("text") if isinstance(private, dict) else None
    if isinstance(text, str):
        return text.split("\n")
    order = record.get("order")
    return [order] if isinstance(order, str) else []


def _plain(line: str) -> str:
    """A line as compared: its words, case aside."""
    return " ".join(line.split()).casefold()
