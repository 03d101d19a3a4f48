"""Snapshots and signed views: shortcuts that never change an answer, whatever is planted."""

from __future__ import annotations

import json

import gamecalls as g
from doors import quick
from referee.store import snapshot

FORMS = [("status",), ("status", "--as", "entente"), ("status", "--format", "json"),
         ("show", "--as", "german"), ("show", "--as", "entente", "--format", "json"),
         ("show", "--format", "markdown")]


def test_the_quick_path_and_the_typer_app_print_the_same(game, cli):
    cli("order", game, "--as", "german", "pass", "end turn")
    for form in FORMS:
        for _ in range(2):                      # computed, then from the signed view
            code, out, err = quick(form[0], game, *form[1:])
            r = cli(form[0], game, *form[1:])
            assert (code, out) == (r.exit_code, r.stdout), form


def test_views_equal_fresh_ones_after_the_snapshots_are_deleted(game, cli):
    cli("order", game, "--as", "german", "pass", "end turn")
    cached = {form: quick(form[0], game, *form[1:]) for form in FORMS}
    for form in FORMS:
        snapshot.forget(game)
        assert quick(form[0], game, *form[1:]) == cached[form]


def test_an_edited_journal_is_reported_not_answered_from_a_view(game, cli):
    cli("order", game, "--as", "german", "pass")
    assert quick("status", game, "--format", "json")[0] == 0
    raw = game.read_bytes().replace(b'"german"', b'"entente"', 1)
    game.write_bytes(raw)
    code, out, err = quick("status", game)
    assert code == 3 and out == "" and "record" in err


def test_the_snapshot_follows_new_records(game):
    g.open_game(game)                            # snapshot at record 1
    g.submit(game, "german", ["pass", "end turn"])
    st = g.open_game(game).state                 # replays only the new records
    assert st.pending.side == "entente" and st.seq == 3
    snapshot.forget(game)
    assert g.open_game(game).state == st


def test_status_json_from_a_view_is_the_computed_one(game):
    first = quick("status", game, "--format", "json")
    again = quick("status", game, "--format", "json")
    assert first == again and json.loads(first[1])["decision"] == "card_or_pass"
