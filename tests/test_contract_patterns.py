"""A contract's pattern holds for the whole text in every form of it: msgspec's decoding and
pydantic's validation (Python's re, where `$` also matches before a last newline) and the
published JSON Schema (ECMA-262, where `$` is the end of the text) give one verdict, and
none takes an id, a digest or a time with a newline after it."""

import importlib
import pkgutil
import re
from typing import Annotated, Any, get_args, get_origin

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import TypeAdapter

import referee.contracts
from referee.contracts import mailsettings, modelbase, records, skirmish, unitmodels
from referee.contracts.base import Frozen
from referee.contracts.names import portable_pattern

# Each shape with a pattern, and a text it takes.
TAKEN = [
    (modelbase.Ident, "liege"),
    (records.Hex64, "0f" * 32),
    (records.Fingerprint, "HE0WGRK83DRJPDA1"),
    (records.Duration, "24h"),
    (records.Duration, "30m"),
    (records.Stamp, "2026-11-26T18:00:00Z"),
    (mailsettings.HostName, "mail.example.org"),
    (mailsettings.RouteName, "club"),
    (skirmish.FigureId, "G1"),
    (unitmodels.Colour, "#a0b0c0"),
]


def _patterns(tp: Any) -> list[str]:
    """The patterns of msgspec.Meta annotations anywhere in a type."""
    if get_origin(tp) is Annotated:
        inner, *metadata = get_args(tp)
        return _patterns(inner) + [m.pattern for m in metadata
                                   if isinstance(m, msgspec.Meta) and m.pattern]
    return [p for arg in get_args(tp) for p in _patterns(arg)]


def _contract_patterns() -> list[tuple[str, str]]:
    found = []
    for info in pkgutil.iter_modules(referee.contracts.__path__):
        module = importlib.import_module(f"referee.contracts.{info.name}")
        for cls in vars(module).values():
            if isinstance(cls, type) and issubclass(cls, msgspec.Struct) and \
                    cls.__module__ == module.__name__:
                found += [(f"{cls.__name__}.{f.name}", p)
                          for f in msgspec.structs.fields(cls) for p in _patterns(f.type)]
    return found


def test_every_pattern_of_a_contract_ends_at_the_end_of_the_text():
    found = _contract_patterns()
    assert len(found) >= 20                     # the walk finds the classes' fields
    assert [(where, p) for where, p in found
            if "$" in p or not p.endswith("\\Z")] == []


@pytest.mark.parametrize(("shape", "text"), TAKEN)
def test_a_text_with_a_newline_after_it_is_refused_in_every_form(shape, text):
    class Holder(Frozen):
        value: shape

    pydantic = TypeAdapter(Holder)
    published = portable_pattern(next(p for p in _patterns(shape)))
    assert "\\Z" not in published
    # as ECMA-262 reads it (no multiline flag): `$` only at the end of the text, as Python's
    # \Z (Python's jsonschema package matches with Python's re, and so does not tell)
    ecma = re.compile(published.replace("$", "\\Z"))
    assert msgspec.convert({"value": text}, Holder).value == text
    assert pydantic.validate_python({"value": text}).value == text
    assert ecma.search(text)
    for bad in (text + "\n", text + "\r\n", "\n" + text):
        with pytest.raises(msgspec.ValidationError):
            msgspec.convert({"value": bad}, Holder)
        with pytest.raises(ValueError):
            pydantic.validate_python({"value": bad})
        assert not ecma.search(bad)


STAMP = "2026-11-26T18:00:00Z"
# Texts near a stamp: each of its characters put otherwise, left out or doubled.
NEAR = sorted({STAMP[:i] + c + STAMP[i + 1:] for i in range(len(STAMP))
               for c in "0 9-:TZtz\n\r\x00\u0660\uff10"} |
              {STAMP[:i] + STAMP[i + 1:] for i in range(len(STAMP))} |
              {STAMP[:i] + STAMP[i] + STAMP[i:] for i in range(len(STAMP))})


def _a_stamp(text: str) -> bool:
    """Whether the contract takes text as a Stamp."""
    try:
        msgspec.convert(text, records.Stamp)
    except msgspec.ValidationError:
        return False
    return True


def test_the_stamps_near_a_stamp_are_judged_as_the_contract_judges_each():
    assert sum(map(_a_stamp, NEAR)) > 20 and not all(map(_a_stamp, NEAR))
    for text in NEAR:
        assert records.stamps_in_form([text]) is _a_stamp(text), repr(text)
        assert records.stamps_in_form([STAMP, text, STAMP]) is _a_stamp(text), repr(text)


@given(st.lists(st.sampled_from(NEAR) | st.text(alphabet="0123456789-:TZ\n\u0661", max_size=42),
                max_size=5))
def test_stamps_in_form_judges_a_list_as_the_contract_judges_each(stamps):
    """All at once, as a cold read checks a batch of records' times: a stamp with an end of
    line in it cannot pass for two."""
    assert records.stamps_in_form(stamps) is all(map(_a_stamp, stamps))
