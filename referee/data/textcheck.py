"""Names that are what they say: no text of the game data or a scenario may hold a character
that makes it display as another (base/glyphs.py), and no id or key may mix scripts ('е',
Cyrillic, for 'e'). Each problem names its file and place, placed at its line."""

from __future__ import annotations

from typing import Any

from ..base.glyphs import disguising, mixed_scripts
from .problems import At

ID_FIELDS = frozenset({"id", "ids", "key", "keys", "nation", "side", "kind", "type"})


def text_problems(raw: Any, label: str) -> list:
    """Every disguised text and mixed-script id of one file's data, where it is."""
    out: list = []
    _walk(raw, At(label), False, out)
    return out


def _walk(node: Any, at: At, is_id: bool, out: list) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            if isinstance(key, str):
                _check(key, at.at(key), True, out, at_key=True)
            _walk(value, at.at(key), is_id or key in ID_FIELDS, out)
    elif isinstance(node, list):
        for i, item in enumerate(node):
            _walk(item, at.at(i), is_id, out)
    elif isinstance(node, str):
        _check(node, at, is_id, out)


def _check(text: str, at: At, is_id: bool, out: list, at_key: bool = False) -> None:
    what = disguising(text)
    if what:
        message = (f"{what} can make this text display as another; write it without "
                   f"that character")
        out.append(at.key(message) if at_key else at.says(message))
        return
    scripts = mixed_scripts(text) if is_id else None
    if scripts:
        message = (f"this id mixes {scripts} letters, so it can look like another id; "
                   f"write it in one script")
        out.append(at.key(message) if at_key else at.says(message))
