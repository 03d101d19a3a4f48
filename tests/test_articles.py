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
