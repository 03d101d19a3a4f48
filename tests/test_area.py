"""`referee area` (one area, or --list) and 'did you mean' in errors that name an unknown
area, unit or card, drawn only from what the reader may see (1.3 hands, 1.4 hidden templates).

One 1914 game with hidden army templates and a fixed secret is made once for the module;
nothing is ever applied to it (every order tried here is rejected, which writes nothing).
Expected values are read off games/ttlm/map.yaml and scenarios/1914.yaml by hand.
"""

from __future__ import annotations

import json
import re
from unittest import mock

import pytest
import typer
import typer.testing

import gamecalls as g
from casebook import new_game, position
from referee.base.nearness import did_you_mean
from referee.cli.app import app
from referee.engine.state import Piece
from referee.game.suggest import hand_cards, visible_units
from referee.render.areas import area_document, area_view
from referee.render.formats import render

SECRET = "5e" * 32


@pytest.fixture(scope="module")
def journal(tmp_path_factory):
    folder = tmp_path_factory.mktemp("area")
    secret = folder / "fixed.secret"
    secret.write_text(SECRET + "\n")
    secret.chmod(0o600)
    path = folder / "hidden-1914.jsonl"
    with pytest.MonkeyPatch.context() as mp:         # this module's own referee home
        mp.setenv("REFEREE_HOME", str(folder / "home"))
        g.create_game(path, "1914", options=["hidden_templates=true"], game_id="area-test",
                      secret_file=secret)
    return path


@pytest.fixture(scope="module")
def cli():
    """The CLI in-process, its Typer command built once (building it costs more than a run)."""
    command = typer.main.get_command(app)
    runner = typer.testing.CliRunner()

    def run(*args):
        with mock.patch.object(typer.testing, "_get_command", lambda _app: command):
            return runner.invoke(app, [str(a) for a in args])
    return run


@pytest.fixture(scope="module")
def opened(journal):
    return g.open_game(journal)


def _names(message: str) -> list[str]:
    """The names a 'did you mean' at the end of an error offers."""
    m = re.search(r"did you mean (.*)\?$", message)
    return re.split(r", | or ", m.group(1)) if m else []


def _rejection(journal, side: str, text: str) -> str:
    result = g.submit(journal, side, [text])
    assert result.rejected is not None and not result.applied, text
    return str(result.rejected[2])


# ---------------------------------------------------------------- area NAME

def test_liege_as_the_map_data_gives_it(journal, cli):
    # map.yaml, liege: Belgium, VP 1, clear, not coastal, no supply source, fort Liège (be)
    # of strength 3, neighbours antwerp, brussels, namur, ardennes, eifel, aachen (1.1);
    # scenarios/1914.yaml: Entente-controlled, be-i-01 and fort-liege at strength 3 there.
    r = cli("area", journal, "LIEGE", "--format", "json")
    assert r.exit_code == 0, r.stderr
    a = json.loads(r.stdout)["area"]
    assert (a["id"], a["name"], a["vp"], a["terrain"], a["coastal"], a["supply_source"],
            a["control"], a["battle"]) == ("liege", "Liège", 1, "clear", False, None,
                                           "entente", None)
    assert a["fort"] == {"id": "fort-liege", "name": "Liège", "nation": "be",
                         "side": "entente", "printed": 3, "strength": 3, "in_play": True}
    assert [n["id"] for n in a["neighbours"]] == ["antwerp", "brussels", "namur", "ardennes",
                                                  "eifel", "aachen"]
    control = {n["id"]: n["control"] for n in a["neighbours"]}
    assert control == {"antwerp": "entente", "brussels": "entente", "namur": "entente",
                       "ardennes": "entente", "eifel": "german", "aachen": "german"}
    assert {u["id"] for u in a["units"]} == {"be-i-01", "fort-liege"}
    assert a["borders"] == ["Holland (the Netherlands)"]
    text = cli("area", journal, "Lüttich").stdout          # an alias, accents ignored
    assert "Liège (liege)" in text and "strength 3 of 3" in text
    for name in ("Antwerp", "Brussels", "Namur", "Ardennes", "Eifel", "Aachen"):
        assert name in text


def test_json_keys_are_stable(journal, cli):
    view = json.loads(cli("area", journal, "verdun", "--format", "json").stdout)
    assert set(view) == {"schema_version", "game_id", "game_name", "seq", "reader", "turn",
                         "label", "area"}
    assert set(view["area"]) == {
        "id", "name", "aliases", "kind", "country", "control", "terrain", "vp", "coastal",
        "supply_source", "conditional_supply_source", "always_supplied", "fort", "battle",
        "units", "neighbours", "borders"}
    listed = json.loads(cli("area", journal, "--list", "--format", "json").stdout)
    assert set(listed) == {"schema_version", "game_id", "game_name", "seq", "reader", "turn",
                           "label", "areas"}
    assert {k for a in listed["areas"] for k in a} == {"id", "name", "control", "vp",
                                                        "terrain"}


def test_list_has_every_area(journal, cli, data):
    # map.yaml: 59 playable areas and ENGLAND (its header), each listed once.
    listed = json.loads(cli("area", journal, "--list", "--format", "json").stdout)["areas"]
    assert [a["id"] for a in listed] == [a.id for a in data.map.areas]
    assert len(listed) == 60
    text = cli("area", journal, "--list", "--width", "40").stdout
    assert all(len(line) <= 40 for line in text.splitlines())
    for a in data.map.areas:
        assert f"Id: {a.id}" in text


def test_units_on_a_hidden_template_stay_hidden(journal, cli):
    # 1.4 (option hidden_templates): fr-3 (3I+1A in the 1914 set-up) is in Verdun; the German
    # reader and the public see the counter, not what its template holds; the Entente does.
    for reader in ("german", "public"):
        a = json.loads(cli("area", journal, "verdun", "--as", reader, "--format",
                           "json").stdout)["area"]
        fr3 = next(u for u in a["units"] if u["id"] == "fr-3")
        assert fr3["contents"] is None and fr3["summary"] == "hidden"
    a = json.loads(cli("area", journal, "verdun", "--as", "entente", "--format",
                       "json").stdout)["area"]
    assert next(u for u in a["units"] if u["id"] == "fr-3")["summary"] == "3I+1A"


def test_a_battle_area_is_marked(opened):
    # 4.1, 5.1.1: an Enemy area entered this offensive is Disputed and a Battle Area at once;
    # 5.1.2: the areas declared in the combat phase are Battle Areas until fought.
    data = opened.data
    state = opened.state.clone()
    state.turn_state.became_disputed = ["verdun", "namur"]   # Verdun holds both sides now
    state.pieces["ge-i-99"] = Piece(id="ge-i-99", nation="ge", kind="infantry", area="verdun")
    assert area_view(state, data, "verdun")["area"]["battle"] == "compulsory"
    assert area_view(state, data, "namur")["area"]["battle"] is None    # not Disputed
    state.combat = {"declared": ["liege"], "resolved": ["verdun"]}
    assert area_view(state, data, "liege")["area"]["battle"] == "declared"
    assert area_view(state, data, "verdun")["area"]["battle"] == "fought"
    assert area_view(state, data, "namur")["area"]["battle"] is None


@pytest.mark.parametrize("name,exit_code,wanted", [
    ("Ardenes", 2, ["Ardennes"]),
    ("verdn", 2, ["Verdun"]),
    ("holland", 2, []),            # an impassable region (4.1): named, but not an area
    ("xyzzy", 2, []),
])
def test_an_unknown_area_is_a_usage_error_with_suggestions(journal, cli, name, exit_code,
                                                            wanted):
    r = cli("area", journal, name)
    assert r.exit_code == exit_code and r.stdout == ""
    assert len(r.stderr.strip().splitlines()) == 1 and repr(name) in r.stderr
    assert _names(r.stderr.strip())[:len(wanted)] == wanted


def test_name_and_list_together_is_a_usage_error(journal, cli):
    both, neither = cli("area", journal, "liege", "--list"), cli("area", journal)
    assert both.exit_code == neither.exit_code == 2
    assert both.stderr == "referee: give an area name or --list, not both\n"
    assert neither.stderr.startswith("referee: name an area (its id, name or an alias)")


# ---------------------------------------------------------------- did you mean, in orders

def test_an_order_naming_an_unknown_area_suggests_the_nearest(journal):
    # The order reader's error keeps its form (the input quoted, the column) and adds the
    # suggestion at its end, on the same line; a move does not answer the decision now
    # (2.0 II.1), which is told first.
    message = _rejection(journal, "german", "move ge-1 to Lieg")
    assert message.startswith("order 'move ge-1 to Lieg' rejected: 'move' does not answer")
    assert "(2.0 II.1)); expected: play, pass; and it cannot be read at column 14: no area is " \
        "called 'Lieg'" in message
    assert _names(message) == ["Liège"] and "\n" not in message


def test_a_misspelt_unit_is_answered_from_the_readers_own_view(journal):
    message = _rejection(journal, "german", "move ge1 luxembourg")
    assert _names(message) == ["ge-1"]


def test_no_suggestion_names_a_unit_on_a_hidden_template(journal, opened):
    # 1.4: fr-3 holds an artillery unit on its hidden template; 'fr-3:artillery' would be by
    # far the nearest name to the German's typo, but he may not learn that it exists.
    assert opened.state.armies["fr-3"].contents.get("fr:artillery")
    message = _rejection(journal, "german", "move fr-3:artilery verdun")
    assert not any(n.startswith("fr-3:") for n in _names(message)), message
    assert "fr-3:" not in message.split("did you mean")[-1]
    # The Entente, whose template it is, is offered it.
    seen = visible_units(opened.state, opened.data, "entente")
    assert "fr-3:artillery" in seen.values()


def test_no_suggestion_names_an_army_in_the_other_sides_pool(journal, opened):
    # uk-2 waits in the Entente force pool in 1914: not a unit the German may see.
    assert opened.state.armies["uk-2"].status == "pool"
    message = _rejection(journal, "german", "move uk-22 ostend")
    assert "uk-2" not in _names(message), message
    seen = set(visible_units(opened.state, opened.data, "german").values())
    assert "uk-2" not in seen and "ge-9" in seen          # ge-9: the German's own pool army
    assert not any(i.startswith(("fr-3:", "uk-1:")) for i in seen)


def test_no_suggestion_names_a_card_of_the_other_hand(journal, opened):
    # 1.3: Gericht is in the Entente hand, Friedensturm in the draw pile; the German's own
    # hand (The Big Push, Strategic Reserves!...) is all he may be offered.
    st = opened.state
    assert "gericht-01" in st.hands["entente"]
    assert any(opened.data.cards[c].key == "friedensturm" for c in st.draw_pile)
    for typo in ("play gerict", "play friedenstrum"):
        message = _rejection(journal, "german", typo)
        assert _names(message) == [], message
    assert _names(_rejection(journal, "german", "play big psh")) == ["the_big_push"]
    assert "gericht" in hand_cards(st, opened.data, "entente").values()
    assert "gericht" not in hand_cards(st, opened.data, "german").values()


def test_a_misspelt_card_is_answered_with_the_word_to_type(tmp_path):
    """1.3: 'discard entente_crisis' was answered "did you mean Entente Military Crisis!?",
    the card's title; the order takes its key, and the suggestion is that word."""
    sc = position("1914", turn=2, player="german",
                  hands={"german": ["crisis-entente-01", "off-01"], "entente": ["off-03"]})
    j = new_game(tmp_path, sc)
    assert g.submit(j, "german", ["pass"]).rejected is None
    message = _rejection(j, "german", "discard entente_crisis")
    assert _names(message) == ["entente_military_crisis"], message


# ---------------------------------------------------------------- hostile input

@pytest.mark.parametrize("name", ["'", "\x00", "é" * 5000, "liege\nverdun", "[b]x[/b]", ","])
def test_whatever_is_typed_is_one_line_and_exit_2(journal, cli, name):
    r = cli("area", journal, name)
    assert r.exit_code == 2 and r.stdout == ""
    assert len(r.stderr.splitlines()) == 1
    assert r.stderr.startswith(("referee: area ", "referee: name an area")), r.stderr


def test_names_from_the_data_are_escaped_in_every_format(opened):
    # A hostile data file: names are shown literally, never as markup or a second line.
    view = area_view(opened.state, opened.data, "liege")
    view["area"]["name"] = "[b]Li*è*ge[/b]\n<i>"
    view["area"]["neighbours"][0]["name"] = "|x| `y`"
    md = render(area_document(view), "markdown")
    bb = render(area_document(view), "bbcode")
    text = render(area_document(view), "text")
    # BBCode: lookalike brackets; "<" too, where BGG would cut the post (the default).
    assert "[b]Li" not in bb and "[/b]\n<i>" not in bb and "ge⁅/b⁆ ‹i> (liege)" in bb
    assert "ge⁅/b⁆ <i> (liege)" in render(area_document(view), "bbcode", dialect="smf")
    # Markdown: what would be markup there escaped, a cell's pipes too; no HTML.
    assert "\\*è\\*" in md and "\\|x\\|" in md and "\\<i>" in md
    from markdown_it import MarkdownIt

    tokens = MarkdownIt("commonmark").enable("table").parse(md)
    kinds = {t.type for t in tokens} | {c.type for t in tokens for c in t.children or []}
    assert not kinds & {"html_inline", "html_block", "em_open"}
    assert "[b]Li*è*ge[/b] <i>" in text
    assert did_you_mean(["Liège", "Evil\nName"]) == "; did you mean Liège or 'Evil\\nName'?"


def test_a_rejection_never_tells_what_the_other_sides_template_holds(journal, tmp_path):
    # 1.4 (hidden_templates): fr-3 holds artillery and no cavalry. Moving a unit off it is
    # refused to the German either way (2.0 II: a player moves only his own), and the reason
    # must be the same either way, or it tells him what the template holds.
    copy = tmp_path / "moving.jsonl"
    copy.write_bytes(journal.read_bytes())
    copy.chmod(0o600)
    (tmp_path / "moving.jsonl.secret").write_text(SECRET + "\n")
    (tmp_path / "moving.jsonl.secret").chmod(0o600)
    assert g.submit(copy, "german", ["play offensive"]).rejected is None
    said = {kind: _rejection(copy, "german", f"move fr-3:{kind} argonne").split("; did")[0]
            for kind in ("artillery", "cavalry")}
    assert said["artillery"].replace("artillery", "KIND") == \
        said["cavalry"].replace("cavalry", "KIND"), said
    assert "(rule 2.0 II)" in said["cavalry"]


@pytest.mark.parametrize("text", ["area", "order"])
def test_a_name_of_thousands_of_words_is_read_in_linear_time(opened, monkeypatch, text):
    """A name is matched over one or more words, longest first (as orders read areas and
    cards, 1.1): a typed name far longer than any name of the game is refused without
    folding every run of its words (that was quadratic: minutes for the 120 kB an argument
    may hold, and an orders file may hold 1 MB)."""
    import referee.engine.reading as reading
    from referee.base.errors import OrderError, UsageError
    from referee.render.areas import find_area

    folded = []
    real = reading.fold
    monkeypatch.setattr(reading, "fold", lambda s: folded.append(len(s)) or real(s))
    words = " ".join(["ar"] * 3000)
    if text == "area":
        with pytest.raises(UsageError):
            find_area(words, opened.data)
    else:
        with pytest.raises(OrderError):
            reading.parse_order(f"play {words}", opened.data)
        with pytest.raises(OrderError):
            reading.parse_order(f"move ge-1 {words}", opened.data)
    assert sum(folded) < 100 * len(words), sum(folded)
