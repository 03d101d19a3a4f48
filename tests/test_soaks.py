"""The split of the suite into `make test` and its soaks (tests/soaks.py)."""

from __future__ import annotations

from types import SimpleNamespace

from soaks import SOAKS, is_soak, stale_lines

M = "tests/test_x.py"
SPLIT = {f"{M}::test_kill": ("reply",), f"{M}::test_flood": "test_flood_briefly"}


def _items(*ids):
    return [SimpleNamespace(nodeid=f"{M}::{i}") for i in ids]


def test_the_cases_not_kept_and_a_whole_test_with_its_quick_form_are_soaks():
    assert not is_soak(f"{M}::test_kill[reply]", SPLIT)
    assert is_soak(f"{M}::test_kill[written]", SPLIT)
    assert is_soak(f"{M}::test_flood", SPLIT)
    assert not is_soak(f"{M}::test_flood_briefly", SPLIT)
    assert not is_soak(f"{M}::test_other[reply]", SPLIT)


def test_a_line_that_names_what_is_not_there_stops_the_collection():
    whole = _items("test_kill[reply]", "test_kill[written]", "test_flood", "test_flood_briefly")
    assert stale_lines(whole, SPLIT) == []
    assert any("no such test" in p for p in stale_lines(whole[:2] + whole[3:], SPLIT))
    assert any("quick form" in p for p in stale_lines(whole[:3], SPLIT))
    assert any("no case" in p for p in stale_lines(whole[1:], SPLIT))
    assert any("no case" in p for p in stale_lines(whole, {f"{M}::test_kill": ()}))
    assert any("quick form" in p for p in stale_lines(
        whole, {**SPLIT, f"{M}::test_flood_briefly": "test_flood"}))


def test_a_module_not_collected_whole_is_not_judged():
    some = _items("test_kill[reply]")
    assert stale_lines(some, SPLIT, {M}) == []
    assert stale_lines(some, SPLIT) != []
    assert stale_lines(_items("test_y"), {"tests/test_z.py::test_q": ("a",)}) == []


def test_every_soak_keeps_a_case_or_names_a_quick_form():
    for name, kept in SOAKS.items():
        assert kept, name
        if isinstance(kept, str):
            assert kept.startswith("test_") and kept != name.partition("::")[2], name
