"""Snapshots and signed views: shortcuts that never change an answer, whatever is planted."""

from __future__ import annotations

import json
import shutil

import gamecalls as g
from doors import quick
from referee.store import home, snapshot

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


def _counting_sha256(monkeypatch) -> list[int]:
    """Count the SHA-256s the snapshots work out, by the length of what each hashes."""
    import hashlib

    hashed: list[int] = []

    class Counting:
        @staticmethod
        def sha256(data=b""):
            hashed.append(len(data))
            return hashlib.sha256(data)

    monkeypatch.setattr(snapshot, "hashlib", Counting)
    return hashed


def test_a_state_and_a_view_of_the_same_bytes_hash_them_once(game, monkeypatch):
    """A cold read keeps its state and its view of one journal's bytes: one SHA-256 of the
    whole journal between them, and both stamps carry it."""
    import hashlib

    raw = game.read_bytes()
    hashed = _counting_sha256(monkeypatch)
    snapshot.save_state(game, raw, "data", 0, "h", {}, {})
    snapshot.save_view(game, raw, "data", "status:public", {"x": 1})
    assert hashed.count(len(raw)) == 1
    assert snapshot.load_view(game, raw, "data", "status:public") == {"x": 1}
    assert snapshot.load_state(game, raw, "data").size == len(raw)
    assert hashed.count(len(raw)) == 1, "the reads found the same bytes too"
    other = raw[:-2] + b"x\n"           # another object, of the same length, other bytes
    assert len(other) == len(raw) and other != raw
    snapshot.save_view(game, other, "data", "status:public", {"x": 2})
    assert hashed.count(len(raw)) == 2
    assert snapshot.load_view(game, raw, "data", "status:public") is None
    assert snapshot.load_view(game, other, "data", "status:public") == {"x": 2}
    assert snapshot._digest(other) == hashlib.sha256(other).hexdigest()


def test_the_bytes_an_order_leaves_are_hashed_on_from_those_it_found(game, monkeypatch):
    """An order finds the journal's bytes (their state's stamp is checked against their
    SHA-256), then keeps the state and views of those bytes with its records after them:
    only the records are hashed, on from the hash of the bytes before them, and every stamp
    still carries the SHA-256 of the whole journal. Bytes that only look longer (another
    journal, or the same one rewritten) are hashed whole."""
    import hashlib

    raw = game.read_bytes()
    hashed = _counting_sha256(monkeypatch)
    assert snapshot._digest(raw) == hashlib.sha256(raw).hexdigest()
    grown = raw + b'{"seq":1}\n'
    snapshot.save_state(game, grown, "data", 1, "h", {}, {})
    snapshot.save_view(game, grown, "data", "status:german", {"x": 1})
    # (the snapshots' file names are hashes of the journal's path: far shorter)
    assert [n for n in hashed if n >= len(raw)] == [len(raw)]   # never the whole again
    assert snapshot.load_state(game, grown, "data").size == len(grown)
    assert snapshot.load_view(game, grown, "data", "status:german") == {"x": 1}
    assert snapshot._digest(grown) == hashlib.sha256(grown).hexdigest()
    rewritten = b"x" + grown[1:] + b"\n"   # longer, but the bytes before are not the same
    assert snapshot._digest(rewritten) == hashlib.sha256(rewritten).hexdigest()
    assert [n for n in hashed if n >= len(raw)] == [len(raw), len(rewritten)]


def test_a_snapshot_folder_this_user_cannot_search_is_no_snapshot(unprivileged, cli, game):
    """A read asks whether a state is kept of its journal before it loads the rules (a cold
    read begins its check beside then): a snapshot folder this user may not search holds
    none he can read, so the read answers from the journal alone, as with no folder (it
    once ended on an internal error, PermissionError)."""
    expected = {args: cli(*args).stdout for args in (("status", game),
                                                      ("show", game, "--format", "json"))}
    folder = home.cache_dir("snapshots")
    shutil.rmtree(folder)
    folder.mkdir()
    folder.chmod(0)
    try:
        for args, out in expected.items():
            r = unprivileged(*args)
            assert r.exit_code == 0 and r.stdout == out, (args, r.stderr)
    finally:
        folder.chmod(0o700)


def test_a_view_kept_under_the_format_before_is_not_served(game):
    """A view is served only under the format it was kept under: when the same bytes would
    now be answered otherwise (format 2: a sealed plan's one deadline for both sides; 3:
    each force pool's nation named; 4: a paused game's status with no deadline; 6: the
    state keeps whether an armistice proposal was heard; 7: a result says how the game ended
    and who won), a view an older referee kept is made again."""
    raw = game.read_bytes()
    snapshot.save_view(game, raw, "data", "status:public", {"x": 1})
    path = snapshot._path(game, snapshot._view_suffix("status:public"))
    kept = home.read_signed(path)
    assert kept["format"] == snapshot.FORMAT == 7
    for before in (1, 2, 3, 4, 5, 6):
        home.write_signed(path, {**kept, "format": before})
        assert snapshot.load_view(game, raw, "data", "status:public") is None
