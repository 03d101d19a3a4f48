"""Whom `order` prints for: the records it made are told as the acting side reads them, his
own cards named (a production's draw: "Entente draws 4 cards ...: Strategic Reserves!,
..."), and the line saying so came only after them, at the head of his status, so that a
moderator entering a side's orders could paste his hand as "the result". The first line
now says for whom the output is; the JSON names its reader."""

from __future__ import annotations

import json

HEAD = "For the German player only: his orders and his status, his own cards shown"


def test_the_first_line_says_for_whom_the_output_is(game, cli):
    r = cli("order", game, "--as", "german", "pass")
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[0] == HEAD, r.stdout
    assert lines[1].startswith("#2 ") and "German: pass" in lines[1], r.stdout
    assert lines.count(HEAD) == 1


def test_the_json_names_its_reader(game, cli):
    r = cli("order", game, "--as", "german", "pass", "--format", "json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["reader"] == "german"


def test_a_batch_refused_whole_prints_no_heading(game, cli):
    r = cli("order", game, "--as", "german", "move nowhere")
    assert r.exit_code == 1 and r.stdout == "", r.output
