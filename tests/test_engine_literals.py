"""No engine string names a TTLM date or card title: those come from the game's data.

Every number and name of a game lives in games/<game>/ (DESIGN.md); a season label such as
"SPRING 1915" (charts.yaml turn_track) or a card title such as "Poison Gas!" (deck.yaml) written
into an engine message would be wrong for AT ALL COSTS! or an owner's edited data. This walks
the string constants of referee/engine/*.py, f-string parts included (docstrings are the rules'
own wording and comments are not code: both are left out), and names file and line of each.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import referee.engine
from gamecalls import game_data
from sourcetrees import tree as source_tree

ENGINE = Path(referee.engine.__file__).parent
SEASON = re.compile(r"\b(SPRING|SUMMER|AUTUMN|WINTER) 19\d\d")

# Titles that are the rules' own words for a kind of card or play, not one card's name:
# "Offensive" is also the Offensive Player and offensive fire (2.0 II, 5.2.1).
GENERIC_TITLES = {"Offensive"}

# Literals that must stay, as (file name, the literal's text); keep this short, say why.
ALLOWED: set[tuple[str, str]] = set()


def _distinctive(title: str) -> str:
    """'The Big Push' -> 'Big Push', 'Poison Gas!' -> 'Poison Gas'."""
    return title.removeprefix("The ").rstrip("!").strip()


def _docstrings(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def _literals():
    """(file name, line, text) of every string constant in the engine, docstrings left out."""
    for path in sorted(ENGINE.glob("*.py")):
        tree = source_tree(path)
        docs = _docstrings(tree)
        found = [(node.lineno, node.value) for node in ast.walk(tree)
                 if isinstance(node, ast.Constant) and isinstance(node.value, str)
                 and id(node) not in docs]
        for line, text in sorted(found):
            yield path.name, line, text


def _offences(texts, titles: list[str]) -> list[str]:
    out = []
    for name, line, text in texts:
        if (name, text) in ALLOWED:
            continue
        found = [m.group(0) for m in SEASON.finditer(text)]
        found += [t for t in titles if t in text]
        if found:
            out.append(f"{name}:{line}: {', '.join(found)} in {text!r}")
    return out


def _titles() -> list[str]:
    deck = game_data("ttlm").deck
    return [_distinctive(c.title) for c in deck.cards if c.title not in GENERIC_TITLES]


def test_the_engine_names_no_season_label_or_card_title():
    """Issue 12 point 1 (DESIGN.md): season labels (2.0 VI turn track) and card titles (9.0)
    are read from the data (d.label, d.card_title, deck.yaml), never written in the engine."""
    bad = _offences(_literals(), _titles())
    assert not bad, "engine literals that belong in the game's data:\n" + "\n".join(bad)


def test_the_scan_sees_f_string_parts_and_skips_docstrings():
    """The scan itself: an f-string part naming a title or a date is found, a docstring not."""
    src = ('def f(d):\n    """Poison Gas! from SPRING 1915 (9.3)."""\n'
           '    return f"{d} Bad Weather" + "from AUTUMN 1915"\n')
    tree = ast.parse(src)
    docs = _docstrings(tree)
    texts = [("x.py", n.lineno, n.value) for n in ast.walk(tree)
             if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs]
    assert sorted(_offences(texts, _titles())) == ["x.py:3: AUTUMN 1915 in 'from AUTUMN 1915'",
                                                   "x.py:3: Bad Weather in ' Bad Weather'"]
