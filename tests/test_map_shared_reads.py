"""What sharedmaps.Reads notes of a view: a second reader's map is not drawn when his scene
holds what the first drawing read of the first's, so every way a drawing can look at the view
counts as a read or fails loudly (its text, an equality, setdefault, pop, msgspec's encoder,
which reads a dict without its methods), and what is compared is what the drawing saw when
it read it, not the view as the drawing left it.
"""

from __future__ import annotations

import msgspec
import pytest

from referee.render import sharedmaps, svgmap


def _scene(view: dict) -> svgmap.Scene:
    return svgmap.Scene(view, None, svgmap.WHOLE, set(), set(), [])


def _first_and_other() -> tuple[svgmap.Scene, svgmap.Scene]:
    first = {"turn": 3, "prompt": "German: your orders", "areas": {"metz": {"units": ["g1"]}}}
    other = {"turn": 3, "prompt": "Entente: wait", "areas": {"metz": {"units": []}}}
    return _scene(first), _scene(other)


LOOKS = {
    "its text": lambda v: f"{v}",
    "an equality": lambda v: v == {},
    "setdefault": lambda v: v.setdefault("prompt", ""),
    "pop": lambda v: v.pop("prompt", None) and None,
    "msgspec's encoder": msgspec.json.encode,
}


@pytest.mark.parametrize("look", list(LOOKS), ids=list(LOOKS))
def test_every_look_at_the_view_counts_as_a_read_or_fails(look):
    first, other = _first_and_other()
    first.view = read = sharedmaps.Reads(first.view)
    try:
        LOOKS[look](read)                 # a drawing that shows the prompt, or all of it
    except (AttributeError, TypeError):
        return                            # refused loudly: no picture is drawn so
    assert not read.same_in(other, first)


def test_a_value_changed_by_the_drawing_is_compared_as_it_was_read():
    first, other = _first_and_other()
    first.view = read = sharedmaps.Reads(first.view)
    units = read["areas"]["metz"]["units"]
    drawn = [units.pop() for _ in list(units)]     # drawn one by one, taken off the list
    assert drawn == ["g1"]
    assert not read.same_in(other, first)


def test_a_view_read_by_key_alike_is_the_same_and_one_read_otherwise_is_not():
    first, other = _first_and_other()
    first.view = read = sharedmaps.Reads(first.view)
    assert read["turn"] == 3 and read.get("vp") is None and "game_over" not in read
    assert read.same_in(other, first)            # the prompt and areas were never read
    assert read["areas"]["metz"]["units"] == ["g1"]
    assert not read.same_in(other, first)
