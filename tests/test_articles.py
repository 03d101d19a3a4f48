"""Names the game data gives (sides, levels of victory) take the article their first sound
takes wherever a sentence puts one before them: 'an Entente army', never 'a Entente army'."""

from __future__ import annotations

from referee.base.plurals import a_or_an
from referee.render.documents import armistice_para
from referee.render.formats import render
from referee.render.sections import Document, Section


def test_a_name_takes_the_article_of_its_first_sound():
    assert a_or_an("Entente army") == "an Entente army"
    assert a_or_an("German army") == "a German army"
    assert a_or_an("impulse") == "an impulse"


def test_an_armistice_offered_names_a_level_with_its_article():
    para = armistice_para("german", "entente", "entente", False, "Entente Marginal Victory")
    text = " ".join(render(Document("", [Section("", [para])]), "text", 200).split())
    assert "as an Entente Marginal Victory;" in text, text


def test_a_word_said_with_a_consonant_first_takes_a_and_letters_take_their_names():
    assert a_or_an("infantry hit") == "an infantry hit"
    assert a_or_an("unit") == "a unit"
    assert a_or_an("UK army") == "a UK army"
    assert a_or_an("FR army") == "an FR army"
    assert a_or_an("Enemy area") == "an Enemy area"
    assert a_or_an("extend fact") == "an extend fact"
    assert a_or_an("mailing list", capital=True) == "A mailing list"
    assert a_or_an("Entente army", capital=True) == "An Entente army"


def test_a_biplane_reacting_names_the_hit_it_rerolls_first_with_its_article(data):
    from referee.render.record_text import describe

    ev = {"type": "BiplaneReacts", "side": "entente", "unit": "fr-b-01", "on": "infantry"}
    assert ", an infantry hit first" in describe(ev, data, "public")


def test_no_article_is_written_before_a_word_the_code_does_not_know():
    """An article before a word put in at run time (a unit type, a fact's kind, a name from
    the game's data) is a_or_an's: "a {kind}" wrote "a infantry hit first"."""
    import re
    from pathlib import Path

    root = Path(__file__).parent.parent / "referee"
    built = re.compile(r"""(?:^|[\s"'(])an? \{|["']An? \{""")  # not "via A {ARROW} B"
    found = [f"{path.relative_to(root)}:{n}" for layer in ("render", "game", "mail", "engine")
             for path in sorted((root / layer).rglob("*.py"))
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if built.search(line) and "engine/crisis.py" not in str(path)]
    assert not found, found
