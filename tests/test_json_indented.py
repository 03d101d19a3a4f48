"""JSON as the commands print it (commands.dump), indented by two: once msgspec is loaded,
its formatter indents the one-line text of json's C encoder; the characters must be those
json.dumps(indent=2, ensure_ascii=False) writes, for any document: every kind of key json
turns into a string, numbers of every size, floats json writes as NaN or Infinity (which
go the json module's way), and strings with controls, escapes, separators and lone
surrogates (the way a byte of the command line that is not UTF-8 comes)."""

from __future__ import annotations

import json
import sys

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.cli import commands

TEXT = st.text(st.characters(blacklist_categories=()), max_size=12) | st.sampled_from(
    ["", "\u202e", "\ud800", "\x7f\x1b", '"\\/', "\u2028", "é — ü", "{ [1, 2] : }", "\n\t"])
SCALARS = (st.none() | st.booleans() | st.integers(-2**80, 2**80) | st.floats() | TEXT)
KEYS = TEXT | st.integers() | st.booleans() | st.none() | st.floats(allow_nan=False)
DOCUMENTS = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) |
                         st.dictionaries(KEYS, inner, max_size=4), max_leaves=25)


def _as_json_writes(obj) -> str:
    return json.dumps(obj, indent=2, ensure_ascii=False)


@settings(max_examples=300, deadline=None)     # 3,000 found nothing more
@given(st.lists(DOCUMENTS, max_size=3) | st.dictionaries(TEXT, DOCUMENTS, max_size=3))
def test_the_formatter_indents_as_json_does(obj):
    assert "msgspec.json" in sys.modules
    assert commands.dump(obj) == _as_json_writes(obj)


def test_both_ways_are_taken():
    """The formatter writes a document of the usual kind; NaN and a lone surrogate, which it
    cannot read, go the json module's way (and say so alike)."""
    usual = {"seq": 3301, "areas": [{"id": "Liège", "units": []}, {}], "vp": -0.5}
    assert msgspec.json.format(json.dumps(usual, ensure_ascii=False), indent=2) == \
        _as_json_writes(usual)
    for unreadable in ({"x": float("nan")}, ["\udcff"]):
        try:
            msgspec.json.format(json.dumps(unreadable, ensure_ascii=False), indent=2)
        except (UnicodeError, ValueError):
            pass
        else:
            raise AssertionError(f"the formatter read {unreadable!r}")
        assert commands.dump(unreadable) == _as_json_writes(unreadable)
