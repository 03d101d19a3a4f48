"""The battle area named for a special offensive's extra dice is told with the card whose
dice they are and its own rule (9.1.3-9.1.6), as the prompt that asks for it names them:
"Gericht's extra die goes to Verdun (9.1.4)", never "The special offensive's extra dice go
to Verdun (9.1)". Every reader reads it so, in the log, the report and explain."""

from __future__ import annotations

import json

import pytest

import gamecalls as g
from casebook import new_game, position

CASES = {
    "gericht": ("1916", ["gericht-01"], ["play gericht", "move ge-5 verdun", "end movement",
                                         "bonus verdun"],
                "Gericht's extra die goes to Verdun (9.1.4)"),
    "friedensturm": ("1918", ["friedensturm-01"], ["play friedensturm", "move ge-6 artois",
                                                   "end movement", "bonus artois"],
                     "Friedensturm's extra dice go to Artois (9.1.6)"),
}


@pytest.fixture(scope="module", params=sorted(CASES))
def case(request, tmp_path_factory):
    base, hand, orders, told = CASES[request.param]
    sc = position(base, player="german", hands={"german": hand, "entente": ["ers2-01"]})
    journal = new_game(tmp_path_factory.mktemp(request.param), sc)
    for order in orders:
        assert g.submit(journal, "german", [order]).rejected is None, order
    return journal, told


def _words(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("reader", ["german", "entente", "moderator", "public"])
def test_the_area_named_for_extra_dice_names_the_card_and_its_rule(case, cli, reader):
    journal, told = case
    log = cli("log", journal, "--as", reader).stdout
    seq = log[:log.index(": bonus ")].rsplit("#", 1)[1].split()[0]
    texts = [log, cli("report", journal, "--as", reader, "--since", "0").stdout,
             cli("report", journal, "--as", reader, "--since", "0", "--format",
                 "markdown").stdout,
             cli("explain", journal, seq, "--as", reader).stdout,
             "\n".join(json.loads(cli("explain", journal, seq, "--as", reader, "--format",
                                      "json").stdout)["changes"])]
    for text in texts:
        assert told in _words(text), text
        assert "special offensive's extra dice" not in text, text
