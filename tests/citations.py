"""Every rule number the referee prints, per rulebook, read from its code and its game data.

Where a number is taken from:

- the code of the layers that print to players and moderators (engine, game, render, mail,
  and data, whose checks `referee games check` prints): every string constant and every
  literal part of an f-string, docstrings aside (comments are not in the syntax tree). A
  string that is only a number ("9.0") counts where it stands as a rule: an argument of
  `Violation`, `Outcome` or `IllegalOrderError`, a `rule=` keyword, a name or key `rule`;
  elsewhere such a string is a drawing's measure. In prose a number counts as printed
  ("(5.2.2)", "rule 8.1", "AAC 5.4.2", "2.0 II.1");
- the data of games/ttlm, games/aac and games/skirmish: every `rule:` field (a list of
  rules, "2.0 V.4, 3.1", is each of them) and every number in a text field.

Which rulebook a number is of:

- "AAC 5.4.2" is AT ALL COSTS!'s, "TTLM 8.2.2" TO THE LAST MAN!'s; a prefix holds for the
  numbers listed after it ("AAC 1.4, 7.6", "AAC 3.2/3.3");
- a number without a prefix in games/aac is AT ALL COSTS!'s, in games/ttlm TO THE LAST
  MAN!'s, and the skirmish's `rule` fields name the tables of its quick reference card;
- a number without a prefix in the code is printed for both campaign games (TTLM and
  AT ALL COSTS! share the engine and every word it prints), so it is cited in each; the
  skirmish's own modules print no rule number but those of its card. AT ALL COSTS! numbers
  its core rules as TTLM does (1.0-7.6, a few words changed), and refers to a unit and card
  manifest (8.0, 9.0) and theatre rules (10.0 and up) that are not available: its section
  index (games/aac/sections.yaml) gives those as TTLM's sections as AT ALL COSTS! keeps them.
"""

from __future__ import annotations

import ast
import re
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import yaml

from sourcetrees import tree as source_tree

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)   # LibYAML, as the referee reads data

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("ttlm", "aac", "skirmish")
BOOK_OF_PREFIX = {"AAC": "aac", "TTLM": "ttlm"}
CODE_LAYERS = ("engine", "game", "render", "table", "mail", "data")
SKIRMISH_CODE = ("table/skirmish/",)
RULE_CALLS = {"Violation": 0, "Outcome": 0, "IllegalOrderError": 1}

_ROMAN = r"(?:VI|IV|V|III|II|I)\b(?:\.\d+[a-z]?\b)?"
_NUM = rf"\b(?:2\.0 {_ROMAN}|\d{{1,2}}\.\d+(?:\.\d+)*\b)"
_SEP = r"(?:, |/| and |-|–)"
RUN = re.compile(rf"(?:\b(AAC|TTLM) )?({_NUM}(?:{_SEP}{_NUM})*)")
NUM = re.compile(_NUM)
ONLY_NUMBER = re.compile(rf"(?:(?:AAC|TTLM) )?{_NUM}")


@dataclass(frozen=True)
class Citation:
    """One rule number printed: the rulebook it is of, the number, and where it is written."""

    book: str
    number: str
    where: str


def numbers(text: str, book: str | None) -> Iterator[tuple[str, str]]:
    """(book, number) for every rule number in text; book None: the prefix's, else both
    campaign games."""
    for m in RUN.finditer(text):
        books = ((BOOK_OF_PREFIX[m.group(1)],) if m.group(1) else
                 (book,) if book else ("ttlm", "aac"))
        for n in NUM.findall(m.group(2)):
            for b in books:
                yield b, n


# ---------------------------------------------------------------- code

def _read(tree: ast.AST) -> tuple[list[ast.Constant], dict[int, ast.AST]]:
    """The tree's strings but its docstrings, in ast.walk's order, and each node's parent:
    one walk (each of a tree's walks visits its many thousand nodes again)."""
    kinds = (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    docs: set[int] = set()
    strings: list[ast.Constant] = []
    parents: dict[int, ast.AST] = {}
    todo = deque([tree])
    while todo:
        node = todo.popleft()
        if isinstance(node, kinds) and node.body and isinstance(node.body[0], ast.Expr) \
                and isinstance(node.body[0].value, ast.Constant):
            docs.add(id(node.body[0].value))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            strings.append(node)
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
            todo.append(child)
    return [n for n in strings if id(n) not in docs], parents


def _name(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else ""


def _in_rule_place(node: ast.AST, parents: dict[int, ast.AST]) -> bool:
    """Whether a string that is only a number stands where a rule is given."""
    child, up = node, parents.get(id(node))
    while isinstance(up, (ast.IfExp, ast.BoolOp)):      # "x.rule if x else '7.5'"
        child, up = up, parents.get(id(up))
    if isinstance(up, ast.Call) and _name(up.func) in RULE_CALLS:
        at = RULE_CALLS[_name(up.func)]
        return len(up.args) > at and up.args[at] is child
    if isinstance(up, ast.keyword):
        return up.arg == "rule"
    if isinstance(up, (ast.Assign, ast.AnnAssign)):
        targets = up.targets if isinstance(up, ast.Assign) else [up.target]
        return any("rule" in _name(t) for t in targets)
    if isinstance(up, ast.Dict):
        keys = [k.value for k, v in zip(up.keys, up.values)
                if v is child and isinstance(k, ast.Constant)]
        return keys == ["rule"]
    return False


def code_files() -> list[Path]:
    """The modules whose strings reach a reader."""
    return sorted(p for layer in CODE_LAYERS for p in (ROOT / "referee" / layer).rglob("*.py"))


def code_citations() -> list[Citation]:
    """Every rule number printed by the code (the module docstring says how it is read)."""
    out: list[Citation] = []
    for path in code_files():
        rel = path.relative_to(ROOT / "referee").as_posix()
        if rel.startswith(SKIRMISH_CODE):
            continue                           # the skirmish cites its card's tables, by data
        strings, parents = _read(source_tree(path))
        for n in strings:
            if n.value.startswith("<") or (ONLY_NUMBER.fullmatch(n.value.strip())
                                           and not _in_rule_place(n, parents)):
                continue
            for book, number in numbers(n.value, None):
                out.append(Citation(book, number, f"referee/{rel}:{n.lineno}"))
    return out


# ---------------------------------------------------------------- data

def _strings(x: object, path: str) -> Iterator[tuple[str, str]]:
    if isinstance(x, dict):
        for k, v in x.items():
            yield from _strings(v, f"{path}.{k}" if path else str(k))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from _strings(v, f"{path}[{i}]")
    elif isinstance(x, str):
        yield path, x


def data_citations() -> list[Citation]:
    """Every `rule:` field and every rule number in a text field of the games' data."""
    out: list[Citation] = []
    for game in GAMES:
        for path in sorted((ROOT / "games" / game).rglob("*.yaml")):
            if path.name == "sections.yaml":
                continue
            rel = path.relative_to(ROOT).as_posix()
            doc = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)
            for key, text in _strings(doc, ""):
                where = f"{rel}:{key}"
                if key.endswith(".rule") or key == "rule":
                    out += _rule_field(game, text, where)
                elif game != "skirmish":
                    out += [Citation(b, n, where) for b, n in numbers(text, game)]
    return out


def _rule_field(game: str, text: str, where: str) -> list[Citation]:
    """A `rule:` field: rule numbers, or a name (a skirmish table, a theatre chart)."""
    if game == "skirmish" or not RUN.search(text):
        return [Citation(game, text.strip(), where)]
    return [Citation(b, n, where) for b, n in numbers(text, game)]


# ---------------------------------------------------------------- per game

def cited() -> dict[str, dict[str, list[str]]]:
    """Every rule each rulebook is cited for, with where each is printed."""
    table: dict[str, dict[str, list[str]]] = {g: {} for g in GAMES}
    for c in code_citations() + data_citations():
        table[c.book].setdefault(c.number, []).append(c.where)
    return table


def section_index(game: str) -> dict[str, dict]:
    """A game's section index, games/<game>/sections.yaml: number -> title and source."""
    raw = yaml.safe_load((ROOT / "games" / game / "sections.yaml").read_text(encoding="utf-8"))
    return {str(s["number"]): s for s in raw["sections"]}


def sort_key(number: str) -> tuple:
    """Rule numbers in rulebook order (2.0 before 2.0 I before 3.0); names after numbers."""
    head, _, step = number.partition(" ")
    if not re.fullmatch(r"\d+(\.\d+)*", head):
        return (1, number)
    roman = ["I", "II", "III", "IV", "V", "VI"]
    main, _, sub = step.partition(".")
    return (0, tuple(int(x) for x in head.split(".")),
            roman.index(main) + 1 if main in roman else 0, sub)


def docs_rows(path: Path | None = None) -> dict[str, dict[str, tuple[str, str]]]:
    """The citation table of docs/rules.md: per game, number -> (title, paraphrase)."""
    text = (path or ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    part = text.split("\n## Rule numbers the referee cites\n", 1)[1].split("\n## ", 1)[0]
    rows: dict[str, dict[str, tuple[str, str]]] = {}
    game = None
    for line in part.splitlines():
        m = re.match(r"### .*\(`(\w+)`\)", line)
        if m:
            game = m.group(1)
            rows[game] = {}
        elif game and line.startswith("| ") and not line.startswith(("| number", "|---")):
            cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
            rows[game][cells[0].strip("`")] = (cells[1], cells[2])
    return rows


# ---------------------------------------------------------------- the rulebooks' sections

RULES = ROOT.parent / "shared" / "rules"
BOOK_FILES = {"ttlm": "ttlm-core-rulebook-en.md", "aac": "aac-core-rulebook-v2-en.txt",
              "skirmish": "ttlm-skirmish-quick-reference.txt"}


def flat(text: str) -> str:
    """A rulebook's words on one line, upper case, marks of markdown and spacing gone, so a
    heading broken across lines still reads as one."""
    text = re.sub(r"[*#]", "", text)
    for odd, plain in (("ʼ", "'"), ("’", "'"), ("–", "-"), ("—", "-"), ("“", '"'), ("”", '"')):
        text = text.replace(odd, plain)
    return re.sub(r"\s+", " ", text).upper()


def in_book(book: str, number: str, title: str) -> bool:
    """Whether the rulebook's text gives this section: its number followed by its title (the
    steps of 2.0 and the skirmish card's tables by their title alone)."""
    text = flat((RULES / BOOK_FILES[book]).read_text(encoding="utf-8"))
    if book == "skirmish" or number.startswith("2.0 "):
        return flat(title) in text
    return flat(f"{number} {title}") in text
