"""Every rule number the referee prints is a section of its game's rulebook, and docs/rules.md
says what the referee takes from each (tests/citations.py reads them from the code and data).
"""

from __future__ import annotations

import re

import pytest
import yaml
from citations import (
    GAMES,
    ROOT,
    RULES,
    Citation,
    cited,
    code_citations,
    docs_rows,
    in_book,
    numbers,
    section_index,
)


@pytest.fixture(scope="module")
def table() -> dict[str, dict[str, list[str]]]:
    return cited()


@pytest.mark.parametrize("game", GAMES)
def test_every_printed_rule_is_a_section_of_the_games_rulebook(table, game):
    index = section_index(game)
    unknown = {n: where[:3] for n, where in table[game].items() if n not in index}
    assert not unknown, f"{game}: cited but not in games/{game}/sections.yaml: {unknown}"


@pytest.mark.parametrize("game", GAMES)
def test_every_printed_rule_is_in_the_docs_table(table, game):
    rows = docs_rows().get(game, {})
    missing = {n: where[:3] for n, where in table[game].items() if n not in rows}
    assert not missing, f"{game}: printed but not in docs/rules.md's citation table: {missing}"
    extra = sorted(set(rows) - set(table[game]))
    assert not extra, f"{game}: in the docs table but printed nowhere: {extra}"


@pytest.mark.parametrize("game", GAMES)
def test_the_docs_table_gives_the_index_titles_and_its_count(table, game):
    index, rows = section_index(game), docs_rows()[game]
    wrong = {n: (t, index[n]["title"]) for n, (t, _) in rows.items()
             if n in index and t != index[n]["title"].replace("|", "/")}
    assert not wrong, wrong
    assert all(p for _, p in rows.values()), "every row says what the rule is used for"
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    stated = re.search(rf"\(`{game}`\): (\d+) rules cited", text)
    assert stated and int(stated.group(1)) == len(table[game]) == len(rows)


@pytest.mark.parametrize("game", GAMES)
def test_the_section_index_is_read_from_the_rulebook(game):
    """Each section without a `source` (the theatre rules, TTLM's manifest in AT ALL COSTS!)
    is its number and title as the rulebook prints them."""
    if not (RULES / "README.md").exists():
        pytest.skip("the rulebooks are not beside this checkout")
    index = section_index(game)
    wrong = [n for n, s in index.items() if "source" not in s and not in_book(game, n, s["title"])]
    assert not wrong, f"{game}: not headings of the rulebook: {wrong}"


@pytest.mark.parametrize("game", ["ttlm", "aac", "skirmish"])
def test_the_section_index_is_not_game_data(game):
    """sections.yaml is documentation: listed in no game.yaml, it changes no data digest."""
    info = yaml.safe_load((ROOT / "games" / game / "game.yaml").read_text(encoding="utf-8"))
    assert "sections.yaml" not in str(info)


def test_a_bogus_citation_in_the_code_is_caught(tmp_path, monkeypatch):
    """The reader finds a rule in a refusal, a prompt's words and an f-string's part, and a
    number not in the index fails the check above."""
    import citations

    mod = tmp_path / "referee" / "engine" / "bogus.py"
    mod.parent.mkdir(parents=True)
    mod.write_text('"""docstring 4.9.9 is not printed."""\n'
                   'def f(x):\n'
                   '    """Neither is 4.8.8."""\n'
                   '    return Violation("4.7.7", f"{x} may not (rule 4.6.6; AAC 1.2.9)")\n'
                   'SIZE = "1.5"\n', encoding="utf-8")
    monkeypatch.setattr(citations, "ROOT", tmp_path)
    got = {(c.book, c.number) for c in code_citations()}
    assert got == {("ttlm", "4.7.7"), ("aac", "4.7.7"), ("ttlm", "4.6.6"), ("aac", "4.6.6"),
                   ("aac", "1.2.9")}, got


def test_numbers_read_prefixes_lists_and_the_steps_of_2_0():
    got = list(numbers("(AAC 1.4, 7.6; 2.0 II.3b, 5.4.2 and 8.1; TTLM 8.2.2)", None))
    assert got == [("aac", "1.4"), ("aac", "7.6"), ("ttlm", "2.0 II.3b"), ("aac", "2.0 II.3b"),
                   ("ttlm", "5.4.2"), ("aac", "5.4.2"), ("ttlm", "8.1"), ("aac", "8.1"),
                   ("ttlm", "8.2.2")]
    assert list(numbers("9.1.3-9.1.6", "aac")) == [("aac", "9.1.3"), ("aac", "9.1.6")]
    assert Citation("ttlm", "1.2", "x").number == "1.2"
