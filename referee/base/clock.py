"""The game's clock: the wall clock, or the time REFEREE_NOW names (tests and dry runs).

Every place that reads the time for the game goes through now(): the time a
record is made, deadlines, reminders. Replaying and verifying a journal
never read it: time enters the journal only as the records' `at`.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime, timedelta, tzinfo
from functools import lru_cache

from .errors import UsageError, quoted
from .lazyre import LazyPattern
from .plurals import counted

NOW_VARIABLE = "REFEREE_NOW"
_DURATION = LazyPattern(r"(?:(\d{1,3})d)?(?:(\d{1,4})h)?(?:(\d{1,5})m)?")
LONGEST = timedelta(days=365)
_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
# A game's time zone as a record names it (zones.py checks it; contracts/records.py too).
ZONE_MOST = 64
ZONE_PATTERN = r"^[A-Za-z][A-Za-z0-9_+-]{0,31}(?:/[A-Za-z][A-Za-z0-9_+-]{0,31}){0,2}\Z"
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


_HELD: ContextVar[datetime | None] = ContextVar("held_time", default=None)


@contextmanager
def held(moment: datetime) -> Iterator[None]:
    """Inside, now() is `moment`: a pass that acts at a time it was given (the deadline
    checks) records that time."""
    token = _HELD.set(moment.astimezone(UTC))
    try:
        yield
    finally:
        _HELD.reset(token)


def now() -> datetime:
    """The current time, aware and in UTC: the time held (held()), else REFEREE_NOW when it
    is set (ISO 8601, `Z` or an offset; UsageError naming it when it is not a time), else
    the wall clock."""
    moment = _HELD.get()
    if moment is not None:
        return moment
    text = os.environ.get(NOW_VARIABLE)
    if text is None or not text.strip():
        return datetime.now(UTC)
    try:
        moment = datetime.fromisoformat(text.strip().replace("z", "Z"))
    except ValueError:
        raise UsageError(f"{NOW_VARIABLE}={text!r}: not an ISO 8601 time (like "
                         f"2026-11-25T18:00:00Z)") from None
    if moment.tzinfo is None:
        raise UsageError(f"{NOW_VARIABLE}={text!r}: give the time zone (Z for UTC, or an "
                         f"offset like +01:00)")
    return moment.astimezone(UTC)


def stamp(moment: datetime) -> str:
    """A time as records keep it: ISO 8601 in UTC to the second, with Z."""
    return moment.astimezone(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def now_stamp() -> str:
    """The current time as records keep it."""
    return stamp(now())


def parse_stamp(text: str) -> datetime | None:
    """A record's time read back (None when it is not one)."""
    try:
        moment = datetime.fromisoformat(text)
        # A time in a zone ahead of UTC on the first day there is (or behind it on the last)
        # is no time in UTC: astimezone raises OverflowError.
        return moment.astimezone(UTC) if moment.tzinfo is not None else None
    except (TypeError, ValueError, OverflowError):
        return None


def parse_duration(text: str, what: str = "duration") -> timedelta:
    """A duration written like 48h, 2d, 90m or 1d12h (UsageError saying why not)."""
    cleaned = text.strip().casefold().replace(" ", "")
    match = _DURATION.fullmatch(cleaned)
    if not cleaned or match is None or not any(match.groups()):
        raise UsageError(f"{what} {quoted(text)}: not a duration; write it like 48h, 2d, 90m or "
                         f"1d12h")
    days, hours, minutes = (int(g or 0) for g in match.groups())
    span = timedelta(days=days, hours=hours, minutes=minutes)
    if span <= timedelta(0) or span > LONGEST:
        raise UsageError(f"{what} {quoted(text)}: must be more than nothing and at most 365 "
                         f"days")
    return span


def duration_text(span: timedelta) -> str:
    """A duration the way parse_duration reads it, shortest form (48h, 1d12h stays 36h)."""
    minutes = int(span.total_seconds()) // 60
    hours, rest = divmod(minutes, 60)
    return (f"{hours}h" if hours else "") + (f"{rest}m" if rest else "") or "0m"


def left_label(before: timedelta, due: datetime | None, at: datetime | None) -> str:
    """A reminder's time before its deadline as its words give it (duration_text): the time
    before due it was set for, or, sent late (at: when it went), the time then left, to the
    minute below: never more than was left."""
    if due is not None and at is not None and due - at < before:
        return duration_text(max(due - at, timedelta(0)))
    return duration_text(before)


def span_words(span: timedelta) -> str:
    """A time still to run as a reader counts it, to the minute below ('in 2 hours', 'in 1
    hour and 30 minutes'): a reminder says how long is left, not only the time it ends."""
    hours, minutes = divmod(max(int(span.total_seconds()) // 60, 0), 60)
    parts = [counted(n, unit) for n, unit in ((hours, "hour"), (minutes, "minute")) if n]
    return f"in {' and '.join(parts)}" if parts else "in under a minute"


def is_utc(zone: str | None) -> bool:
    """Whether a game's time zone reads as UTC: none given, or UTC given again."""
    return zone is None or zone == "UTC"


@lru_cache(maxsize=16)
def zone_rules(zone: str) -> tzinfo:
    """The rules of a time zone whose name zones.zone_problem passed (zoneinfo's errors
    otherwise)."""
    import zoneinfo  # start-up: only a game with a time zone reads the database

    return zoneinfo.ZoneInfo(zone)


def for_players(moment: datetime, zone: str | None = None) -> str:
    """A time as a player reads it: Tue 25 Nov 18:00 UTC; in a game's zone (zones.py), its
    time there with the zone's abbreviation and the time in UTC beside it, with the UTC day
    when it is another: Sat 28 Nov 19:00 CET (18:00 UTC), Mon 30 Nov 07:00 NZDT (Sun 29
    Nov 18:00 UTC); in UTC alone when the zone's day would be beyond the last date
    (year 9999)."""
    moment = moment.astimezone(UTC)
    utc = f"{moment:%H:%M} UTC"
    if is_utc(zone):
        return f"{_day(moment)} {utc}"
    try:
        local = moment.astimezone(zone_rules(zone))
    except OverflowError:       # beyond the last date there is in the zone: UTC alone
        return f"{_day(moment)} {utc}"
    mark = local.tzname() or zone
    if mark == "UTC" and not local.utcoffset():
        return f"{_day(moment)} {utc}"
    beside = utc if local.date() == moment.date() else f"{_day(moment)} {utc}"
    return f"{_day(local)} {local:%H:%M} {mark} ({beside})"


def _day(moment: datetime) -> str:
    return f"{_DAYS[moment.weekday()]} {moment.day} {_MONTHS[moment.month - 1]}"


def past_weekend(moment: datetime, zone: str | None = None) -> datetime:
    """A moment falling on a Saturday or Sunday in the game's zone (UTC without one) moved
    to the Monday after it at the same time there: counted on the wall clock of the zone, so
    a change to or from summer time over the weekend keeps the hour players read; in UTC.
    OverflowError beyond the last day there is."""
    if is_utc(zone):
        local = moment.astimezone(UTC)
    else:
        local = moment.astimezone(zone_rules(zone))
    if local.weekday() >= 5:
        # Aware arithmetic in one zone is on its wall clock; astimezone then finds the
        # offset of the new day.
        local += timedelta(days=7 - local.weekday())
    return local.astimezone(UTC)
