"""Entrenching an army that holds only Stoßtruppen is allowed (7.4; docs/rules.md,
Readings), and gives them nothing (8.2.2): a report tells a reader who may see the army's
template so, and no one else when templates are hidden (1.4)."""

from types import SimpleNamespace

import gamecalls as g
from referee.render.entrenchnote import with_note
from referee.render.record_text import describe

EV = {"type": "UnitEntrenched", "side": "german", "unit": "ge-17"}


def _state(contents: dict, hidden: bool) -> SimpleNamespace:
    army = SimpleNamespace(id="ge-17", nation="ge", contents=contents)
    return SimpleNamespace(armies={"ge-17": army}, options={"hidden_templates": hidden})


def test_an_army_of_stosstruppen_entrenched_is_told_they_get_nothing_of_it():
    data = g.game_data("ttlm")
    only = _state({"ge:stosstruppen": 2}, hidden=True)
    for reader in ("german", "moderator"):
        assert describe(with_note(EV, only, data, reader), data, reader) == (
            "German ge-17 entrenches (7.4): it holds only stosstruppen (8.2.2), which get "
            "nothing of it; infantry that join it later are entrenched with it (4.3)")
    # Its template hidden, the Entente and the public learn nothing of what it holds.
    for reader in ("entente", "public"):
        assert describe(with_note(EV, only, data, reader), data, reader) == \
            "German ge-17 entrenches (7.4)"
    # Templates shown, anyone may be told; an army with infantry in it is told nothing more.
    shown = _state({"ge:stosstruppen": 2}, hidden=False)
    assert "get nothing of it" in describe(with_note(EV, shown, data, "public"), data,
                                           "public")
    mixed = _state({"ge:stosstruppen": 1, "ge:infantry": 1}, hidden=False)
    assert describe(with_note(EV, mixed, data, "public"), data, "public") == \
        "German ge-17 entrenches (7.4)"


def test_the_entrenchment_is_allowed_and_the_german_report_says_what_it_gives(tmp_path, cli):
    """In play: the army of Stoßtruppen alone is entrenched (7.4), and the German's report
    says it gives them nothing; the Entente's, its template hidden, does not."""
    from casebook import new_game, position

    sc = position("1914", turn=14, player="entente", passes=1,
                  hands={"german": ["off-01"], "entente": ["off-03"]},
                  remove_units=["ge-7"], add_units=["ge-7 ge army aachen 2S"])
    j = new_game(tmp_path, sc, {"hidden_templates": True})
    assert g.submit(j, "entente", ["pass", "end turn"]).rejected is None
    assert g.submit(j, "german", ["entrench ge-7", "done"]).rejected is None
    assert g.submit(j, "entente", ["done"]).rejected is None
    assert g.open_game(j).state.armies["ge-7"].entrenched
    said = "it holds only stosstruppen (8.2.2), which get nothing of it"
    german = " ".join(cli("report", j, "--as", "german", "--since", "0").stdout.split())
    assert f"German ge-7 entrenches (7.4): {said}" in german, german
    entente = " ".join(cli("report", j, "--as", "entente", "--since", "0").stdout.split())
    # The revealed plan heads the line of the entrenchment, told once, in words.
    assert "German's production plan revealed" in entente and "ge-7 entrenches" in entente
    assert "entrench ge-7" not in entente
    assert said not in entente
