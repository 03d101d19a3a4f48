"""What a map picture costs is not paid twice: a counter's size is measured once for what it
writes (a layout asks it at every try of every level)."""

from __future__ import annotations

from referee.render import counters as cnt
from referee.render.svgparts import WHOLE


def _counter(unit: str) -> cnt.Counter:
    return cnt.Counter(unit, "metz", "german", "ge", "#8aa37b", "#111111", "GE 7 once-only",
                       "6", "3 inf, 1 art, 1 cav", ("E", "OoS"), f"{unit} army", 6)


def test_a_counter_is_measured_once_for_what_it_writes(monkeypatch):
    measured = []
    real = cnt.text_width
    monkeypatch.setattr(cnt, "text_width",
                        lambda text, *a, **k: measured.append(text) or real(text, *a, **k))
    first = cnt.size(_counter("ge-97"), WHOLE)
    once = len(measured)
    assert once and cnt.size(_counter("ge-98"), WHOLE) == first   # another unit, same writing
    assert len(measured) == once
