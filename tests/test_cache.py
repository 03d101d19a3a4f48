"""The snapshot cache: a shortcut that never changes a result."""

from __future__ import annotations

import contextlib
import io
import json

from referee import game as g
from referee.entry import fast


def _fast(*argv) -> str | None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        done = fast([str(a) for a in argv])
    return out.getvalue() if done else None


def _slow(cli, *argv) -> str:
    r = cli(*argv)
    assert r.exit_code == 0, r.stderr
    return r.stdout


def test_cached_views_equal_freshly_computed_ones(game, cli):
    cache = game.with_name(game.name + ".cache")
    cli("order", game, "--as", "german", "pass", "end turn")   # warms the cache
    forms = [("status",), ("status", "--as", "entente"), ("status", "--format", "json"),
             ("show", "--as", "german"), ("show", "--as", "entente", "--format", "json"),
             ("show", "--format", "markdown")]
    cached = {}
    for form in forms:
        text = _fast(form[0], game, *form[1:])
        if text is None:                                        # not warmed: the slow path
            text = _slow(cli, form[0], game, *form[1:])         # computes it and caches it
            assert _fast(form[0], game, *form[1:]) == text
        cached[form] = text
    for form in forms:
        cache.unlink(missing_ok=True)
        assert _fast(form[0], game, *form[1:]) is None          # no cache: no shortcut
        assert _slow(cli, form[0], game, *form[1:]) == cached[form]


def test_a_stale_or_damaged_cache_is_never_used(game, cli):
    cli("order", game, "--as", "german", "pass")
    cache = game.with_name(game.name + ".cache")
    assert _fast("status", game, "--format", "json") is not None
    cache.write_bytes(b"not a pickle")
    assert _fast("status", game, "--format", "json") is None
    view = json.loads(_slow(cli, "status", game, "--format", "json"))
    assert view["decision"] == "pass_move"
    # An edited journal: the cache no longer matches, the damage is reported.
    _slow(cli, "status", game)
    raw = game.read_bytes().replace(b'"german"', b'"entente"', 1)
    game.write_bytes(raw)
    assert _fast("status", game) is None
    r = cli("status", game)
    assert r.exit_code == 3


def test_the_cache_follows_new_records(game, cli):
    _slow(cli, "status", game)                   # cache for record 1
    g.submit(game, "german", ["pass", "end turn"])
    assert _fast("status", game) is None         # the views cached were for record 1
    st = g.open_game(game).state                 # replays only the new records
    assert st.pending.side == "entente" and st.seq == 3
    game.with_name(game.name + ".cache").unlink()
    again = g.open_game(game).state
    assert again == st
