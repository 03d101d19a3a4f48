"""Games in progress survive a change of rules or game data (docs/moderator.md: Versions).

tests/fixtures/rules1-1914.jsonl was played by the command line before rules
versions were kept (so under rules 1), with the game data of that time; its
dice secret lies beside it. The game data it names is shipped in
games/history/ttlm/.
"""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pytest
from forging import resign

from doors import quick
from referee.base.errors import EXIT_OLDER_RULES
from referee.contracts.records import JournalHeader
from referee.data import datastore
from referee.data.dataload import load_game
from referee.data.paths import default_games_dir
from referee.engine.versions import RULES_VERSION
from referee.store import home, signing
from referee.store.authorship import ADOPT
from referee.store.journal import line_of

FIXTURE = Path(__file__).parent / "fixtures" / "rules1-1914.jsonl"
OLD_DIGEST = "56d33a8ba05bee8b59cbf8cfbf538059683626615a0806352e40193d4dfe4758"


@pytest.fixture
def old(tmp_path: Path) -> Path:
    """A copy of the rules-1 journal (and its secret), private like every journal."""
    path = tmp_path / "old.jsonl"
    shutil.copyfile(FIXTURE, path)
    shutil.copyfile(FIXTURE.with_name(FIXTURE.name + ".secret"), path.with_name(
        path.name + ".secret"))
    for p in (path, path.with_name(path.name + ".secret")):
        p.chmod(0o600)
    return path


@pytest.fixture
def edited_games(tmp_path: Path, monkeypatch) -> Path:
    """A copy of the game data whose content differs from every shipped version."""
    games = tmp_path / "games"
    shutil.copytree(default_games_dir() / "ttlm", games / "ttlm")
    info = games / "ttlm" / "game.yaml"
    text = info.read_text(encoding="utf-8")
    info.write_text(text.replace('name: "TO THE LAST MAN!"', 'name: "TO THE LAST MAN! (ed.)"'),
                    encoding="utf-8")
    monkeypatch.setenv("REFEREE_GAMES", str(games))
    return games / "ttlm"


def _records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_bytes().splitlines()]


def _rechain(records: list[dict], path: Path) -> None:
    """Write records with every hash and link made again (an honest-looking journal)."""
    prev, out = None, []
    for rec in records:
        rec = resign({**{k: v for k, v in rec.items() if k != "hash"}, "prev": prev})
        prev = rec["hash"]
        out.append(line_of(rec))
    path.write_bytes(b"".join(out))


def _legal(path: Path, side: str) -> str:
    """The first legal order of side that is neither an armistice nor a surrender."""
    from gamecalls import open_game
    from referee.engine import legal_orders
    from referee.engine.order_text import format_order

    game = open_game(path)
    return next(format_order(o) for o in legal_orders(game.state, game.data, side)
                if o.kind not in ("armistice", "surrender"))


# ---------------------------------------------------------------- the rules version

def test_a_new_journal_names_the_rules_it_is_played_under(game, cli):
    header = _records(game)[0]
    assert header["rules_version"] == RULES_VERSION >= 2
    r = cli("verify", game)
    assert r.exit_code == 0 and "verify: OK" in r.stdout


def test_the_current_game_data_is_shipped_by_its_digest():
    # Every released version of the data must stay resolvable: `make setup` files it.
    from gamecalls import game_data

    digest = game_data("ttlm").digest
    assert (datastore.shipped_dir() / "ttlm" / f"{digest}.json.gz").is_file(), \
        "run `make setup` and commit games/history/"
    assert (datastore.shipped_dir() / "ttlm" / f"{OLD_DIGEST}.json.gz").is_file()


# ---------------------------------------------------------------- an old journal

def test_an_old_journal_opens_and_replays_with_its_own_data(old, edited_games, cli):
    # The data files changed since it was played: it replays with the shipped copy.
    # Its orders wait for the moderator's upgrade, as `order` says: none is listed (2.0).
    code, out, err = quick("status", old, "--as", "entente", "--format", "json")
    assert code == 0, err
    view = json.loads(out)
    assert view["outdated"]["rules"] == 1 and view["outdated"]["data_digest"] == OLD_DIGEST
    assert view["legal"] == [] and "referee upgrade" in view["prompt"], view
    code, out, err = quick("show", old, "--as", "moderator", "--format", "json")
    assert code == 0, err
    assert json.loads(out)["areas"]["liege"]["control"] == "disputed"
    for argv in (["log", old, "--as", "moderator"], ["report", old, "--as", "entente"]):
        r = cli(*argv)
        assert r.exit_code == 0, (argv, r.stderr)
        assert "TO THE LAST MAN! (ed.)" not in r.stdout      # its own data, not the edited


def test_an_old_journal_verifies_as_made_under_older_rules(old, cli):
    secret = old.with_name(old.name + ".secret")
    r = cli("verify", old, "--secret", secret)
    assert r.exit_code == EXIT_OLDER_RULES != 0, r.stderr
    assert "records 1-8 made under rules 1: not re-decided" in r.stdout
    assert "dice: every die and shuffle recomputed from the secret" in r.stdout
    assert "verify: OK\n" not in r.stdout and "OLDER RULES" in r.stdout
    # Damage is still damage: a die changed and the chain made again is found by the dice.
    records = _records(old)
    rec = next(r for r in records[1:] if r.get("dice"))
    rec["dice"][0] = rec["dice"][0] % 6 + 1
    _rechain(records, old)
    r = cli("verify", old, "--secret", secret)
    assert r.exit_code == 3 and f"record {rec['seq']}" in r.stderr
    assert "not the ones the committed secret gives" in r.stderr


def test_an_old_journal_takes_no_order_until_the_moderator_upgrades_it(old, cli, tmp_path):
    before = old.read_bytes()
    for run in (lambda: quick("order", old, "--as", "entente", "lose fort-liege"),
                lambda: _code(cli("order", old, "--as", "entente", "lose fort-liege")),
                lambda: _code(cli("inbox", old, _empty_mbox(tmp_path)))):
        code, out, err = run()
        lines = err.strip().splitlines()
        # Either refusal comes first (the quick form checks the rules before the journal's
        # signature): each names `referee upgrade`, which both adopts and upgrades it.
        assert code == 2 and len(lines) == 1, err
        assert ("rules 1" in lines[0] or "not signed" in lines[0]) and \
            "referee upgrade" in lines[0]
        assert old.read_bytes() == before


def test_after_the_upgrade_the_game_plays_on_and_verifies(old, cli):
    r = cli("upgrade", old, "--adopt")
    assert r.exit_code == 0, r.stderr
    adoption, rec = _records(old)[-2:]
    assert adoption["order"] == ADOPT and adoption["seq"] == 9 and "sig" in adoption
    assert rec["actor"] == "moderator" and rec["seq"] == 10 and "sig" in rec
    # The game moves to the data of this referee (games/ttlm as it is now).
    assert rec["events"] == [{"type": "RulesUpgraded", "rules": RULES_VERSION,
                              "data_digest": load_game(default_games_dir() / "ttlm").digest,
                              "from_rules": 1,
                              "from_data_digest": OLD_DIGEST}]
    assert cli("upgrade", old).exit_code == 2                 # nothing left to upgrade
    order = _legal(old, "entente")
    code, out, err = quick("order", old, "--as", "entente", order)
    assert code == 0, err
    r = cli("verify", old, "--secret", old.with_name(old.name + ".secret"))
    assert r.exit_code == EXIT_OLDER_RULES, r.stderr
    assert "records 1-8 made under rules 1: not re-decided" in r.stdout
    # The adoption, the upgrade and the order (counted as the roster and route records are).
    assert "3 records decided again" in r.stdout
    assert "signatures: records 0-8 before signing, covered by record 9" in r.stdout
    # log reads each record under the data in force then: the old data up to the upgrade,
    # this referee's after it.
    r = cli("log", old, "--as", "moderator")
    assert r.exit_code == 0, r.stderr
    assert "#9 " in r.stdout and "#10 " in r.stdout


def test_an_upgrade_record_that_lies_about_the_rules_in_force_is_damage(old, cli):
    assert cli("upgrade", old, "--adopt").exit_code == 0
    records = _records(old)
    records[-1]["events"][0]["from_rules"] = 2
    _rechain(records, old)
    r = cli("verify", old)
    assert r.exit_code == 3 and "record 10" in r.stderr and "upgrade" in r.stderr


R9 = Path(__file__).parent / "fixtures" / "rules9-gas-after-weather-1916"


def _rules9_game(tmp_path: Path, fixture: Path = R9, name: str = "war16") -> tuple[Path, Path]:
    """The rules-9 fixture (or another signed one) in tmp_path (journal, secret), its signing
    key in the test's referee home, as the moderator who made the game has it in his."""
    path = tmp_path / f"{name}.jsonl"
    secret = path.with_name(path.name + ".secret")
    shutil.copyfile(fixture.with_suffix(".jsonl"), path)
    shutil.copyfile(fixture.with_suffix(".jsonl.secret"), secret)
    key = signing.key_file(_records(path)[0]["signing"]["fingerprint"].replace("-", ""))
    key.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(fixture.with_suffix(".key"), key)
    for p in (path, secret, key):
        p.chmod(0o600)
    return path, secret


def test_a_poison_gas_played_after_bad_weather_under_rules_9_replays_then_upgrades(tmp_path,
                                                                                 cli):
    """tests/fixtures/rules9-gas-after-weather-1916.jsonl was played under rules 9 (the code
    before rules 10): the German's Limited Offensive into Verdun and his Poison Gas! there,
    the Entente's Bad Weather, which made it a pass, then the Entente's Poison Gas! in
    Verdun, which rules 10 refuses (no battle is left, 9.5; Bad Weather neutralizes it,
    9.3). verify replays that record as made under older rules, never deciding it again to
    a refusal; upgrade moves the game to rules 10, under which no card is offered and the
    defender's 'done' is decided again by verify."""
    path, secret = _rules9_game(tmp_path)
    recs = _records(path)
    assert recs[0]["rules_version"] == 9 and len(recs) == 12
    assert [e["type"] for e in recs[10]["events"]] == ["CombatCardPlayed", "OffensiveDowngraded"]
    assert recs[11]["order"] == "play poison_gas verdun" and recs[11]["actor"] == "entente"
    r = cli("verify", path, "--secret", secret)
    assert r.exit_code == EXIT_OLDER_RULES, r.stderr + r.stdout
    assert "records 1-11 made under rules 9: not re-decided" in r.stdout
    assert "dice: every die and shuffle recomputed from the secret" in r.stdout
    r = cli("upgrade", path)
    assert r.exit_code == 0, r.stderr + r.stdout
    assert _records(path)[-1]["events"][0]["from_rules"] == 9
    from gamecalls import open_game
    from referee.engine import legal_orders
    from referee.engine.order_text import format_order

    game = open_game(path)
    assert sorted(format_order(o) for o in legal_orders(game.state, game.data, "entente")
                  if o.kind not in ("armistice", "surrender")) == ["done"]
    code, out, err = quick("order", path, "--as", "entente", "done")
    assert code == 0, err
    r = cli("verify", path, "--secret", secret)
    assert r.exit_code == EXIT_OLDER_RULES, r.stderr + r.stdout
    assert "2 records decided again" in r.stdout and "records 1-11 made under rules 9" in r.stdout


R10 = Path(__file__).parent / "fixtures" / "rules10-fort-annihilated-1914"


def test_a_fort_annihilated_under_rules_10_replays_as_made_then_upgrades(tmp_path, cli):
    """tests/fixtures/rules10-fort-annihilated-1914.jsonl was played under rules 10 (the code
    before rules 11), manual dice: Verdun, down to 2, alone against the German 1st Army's 4
    hits, annihilated by the French; its record says all 4 hits went unpaid, where rules 11
    has the fort's 2 steps pay 2 of them (5.3.4). verify replays it as made under older
    rules, never deciding it again to the other count; upgrade moves the game to rules 11
    and play goes on, the old record keeping its count."""
    path, secret = _rules9_game(tmp_path, R10, "war14")
    recs = _records(path)
    assert recs[0]["rules_version"] == 10 and len(recs) == 7
    assert recs[6]["order"] == "annihilate" and recs[6]["actor"] == "entente"
    lost = [e for e in recs[6]["events"] if e["type"] == "HitsLost"]
    assert [(e["hits"], e.get("paid")) for e in lost] == [(4, None)]
    r = cli("verify", path, "--secret", secret)
    assert r.exit_code == EXIT_OLDER_RULES, r.stderr + r.stdout
    assert "records 1-6 made under rules 10: not re-decided" in r.stdout
    r = cli("upgrade", path)
    assert r.exit_code == 0, r.stderr + r.stdout
    assert _records(path)[-1]["events"][0]["from_rules"] == 10
    code, out, err = quick("order", path, "--as", "german", "done")
    assert code == 0, err
    assert _records(path)[6] == recs[6]
    r = cli("verify", path, "--secret", secret)
    assert r.exit_code == EXIT_OLDER_RULES, r.stderr + r.stdout
    assert "2 records decided again" in r.stdout and "records 1-6 made under rules 10" in r.stdout


R11 = Path(__file__).parent / "fixtures" / "rules11-army-takes-in-at-the-limit-1914"


def test_an_army_taking_units_in_at_the_limit_under_rules_11_replays_as_made_then_upgrades(
        tmp_path, cli):
    """tests/fixtures/rules11-army-takes-in-at-the-limit-1914.jsonl was played under rules 11
    (the code before rules 12), manual dice, from a 1914 position with three German infantry
    units in Metz: the 5th Army moved in taking one of them in, which rules 12 refuses (the
    army makes four as it enters, 1.2.2, 8.1). verify replays that record as made under
    older rules, never deciding it again to a refusal; after the upgrade the same move by
    the 6th Army is refused and left out of the legal orders, the old record unchanged."""
    path, secret = _rules9_game(tmp_path, R11, "war14")
    recs = _records(path)
    assert recs[0]["rules_version"] == 11 and len(recs) == 4
    assert recs[3]["order"] == "move ge-5 metz taking ge-i-01" and recs[3]["actor"] == "german"
    r = cli("verify", path, "--secret", secret)
    assert r.exit_code == EXIT_OLDER_RULES, r.stderr + r.stdout
    assert "records 1-3 made under rules 11: not re-decided" in r.stdout
    r = cli("upgrade", path)
    assert r.exit_code == 0, r.stderr + r.stdout
    assert _records(path)[-1]["events"][0]["from_rules"] == 11
    from gamecalls import open_game
    from referee.engine import legal_orders
    from referee.engine.order_text import format_order

    game = open_game(path)
    listed = [format_order(o) for o in legal_orders(game.state, game.data, "german")]
    assert not [o for o in listed if o.startswith("move ge-6 metz")], listed
    code, out, err = quick("order", path, "--as", "german", "move ge-6 metz taking ge-i-02")
    assert code == 1 and "Metz would hold 4 German units as ge-6 enters" in err, err
    assert "(rules 1.2.2, 8.1)" in err and "Traceback" not in err
    code, out, err = quick("order", path, "--as", "german", "end movement")
    assert code == 0, err
    assert _records(path)[3] == recs[3]
    r = cli("verify", path, "--secret", secret)
    assert r.exit_code == EXIT_OLDER_RULES, r.stderr + r.stdout
    assert "2 records decided again" in r.stdout and "records 1-3 made under rules 11" in r.stdout


# ---------------------------------------------------------------- data versions

def test_data_edited_after_creation_no_longer_breaks_an_existing_game(tmp_path, monkeypatch,
                                                                        cli, secret_file):
    games = tmp_path / "games"
    shutil.copytree(default_games_dir() / "ttlm", games / "ttlm")
    monkeypatch.setenv("REFEREE_GAMES", str(games))
    info = games / "ttlm" / "game.yaml"
    info.write_text(info.read_text(encoding="utf-8").replace(
        'name: "TO THE LAST MAN!"', 'name: "Mine"'), encoding="utf-8")
    journal = tmp_path / "g.jsonl"
    assert cli("new", journal, "--scenario", "1914", "--secret-file", secret_file).exit_code == 0
    kept = list(datastore.user_dir().rglob("*.json.gz"))
    assert len(kept) == 1                        # not a shipped version: kept at `new`
    info.write_text(info.read_text(encoding="utf-8").replace(
        'name: "Mine"', 'name: "Mine, corrected"'), encoding="utf-8")
    code, out, err = quick("status", journal, "--as", "german")
    assert code == 0 and "Mine —" in out, err
    code, _, err = quick("order", journal, "--as", "german", "pass")
    assert code == 2 and "referee upgrade" in err
    r = cli("upgrade", journal)
    assert r.exit_code == 0, r.stderr
    assert len(list(datastore.user_dir().rglob("*.json.gz"))) == 2
    code, out, err = quick("order", journal, "--as", "german", "pass")
    assert code == 0 and "Mine, corrected" in out, err


def test_an_upgrade_is_refused_when_the_game_does_not_fit_the_new_data(old, edited_games,
                                                                         cli):
    units = edited_games / "units.yaml"
    units.write_text(units.read_text(encoding="utf-8").replace(
        "ge: {army: 11, infantry: 35,", "ge: {army: 11, infantry: 36,"), encoding="utf-8")
    before = old.read_bytes()
    r = cli("upgrade", old, "--adopt")
    assert r.exit_code == 2 and "does not fit" in r.stderr and "ge infantry" in r.stderr
    assert old.read_bytes() == before


def test_a_journal_naming_unknown_game_data_says_so(old, cli):
    records = _records(old)
    records[0]["data_digest"] = "ab" * 32
    _rechain(records, old)
    code, out, err = quick("status", old)
    assert code == 3 and out == ""
    assert "record 0 was made with game data abababababab, which this referee does not have" \
        in err
    assert cli("verify", old).exit_code == 3


def test_a_planted_data_snapshot_that_does_not_match_its_digest_is_refused(old, cli):
    # The shipped data filed under another digest in this user's folder: refused, not used.
    fake = "cd" * 32
    target = datastore.user_dir() / "ttlm" / f"{fake}.json.gz"
    home.ensure_dir(target.parent)
    shutil.copyfile(datastore.shipped_dir() / "ttlm" / f"{OLD_DIGEST}.json.gz", target)
    records = _records(old)
    records[0]["data_digest"] = fake
    _rechain(records, old)
    code, out, err = quick("status", old)
    assert code == 3 and "does not match the digest it is filed under" in err, err


def test_a_data_snapshot_is_read_within_bounds():
    bomb = gzip.compress(b"[" + b" " * (datastore.MAX_DOCUMENT + 10) + b"]")
    with pytest.raises(datastore.GameDataError, match="inflates to more than"):
        datastore.unpack(bomb, "bomb")
    with pytest.raises(datastore.GameDataError, match="not a game data snapshot"):
        datastore.unpack(b"\x80\x03cos\nsystem\n", "pickle")


def _code(result) -> tuple[int, str, str]:
    return result.exit_code, result.stdout, result.stderr


def _empty_mbox(tmp_path: Path) -> Path:
    box = tmp_path / "in.mbox"
    box.write_bytes(b"")
    return box


def test_records_of_older_rules_pass_through_the_upcasters_and_their_own_evolve(old, cli,
                                                                               monkeypatch):
    # The hooks a later change of an event's shape or meaning plugs into (engine/versions.py):
    # an upcaster sees each rules-1 event before it is validated, EVOLVE_AS applies it.
    from gamecalls import open_game
    from referee.engine import versions
    from referee.engine.apply import HANDLERS

    seen: list[tuple[str, str]] = []

    def upcast(event: dict) -> dict:
        seen.append(("upcast", event["type"]))
        return event

    def evolve_as(state, event, data) -> None:
        seen.append(("evolve", event.type))
        HANDLERS[event.type](state, event, data)

    monkeypatch.setitem(versions.EVENT_UPCASTERS, 1, {"CardPlayed": upcast})
    monkeypatch.setitem(versions.EVOLVE_AS, 1, {"CardPlayed": evolve_as})
    open_game(old)
    assert seen == [("upcast", "CardPlayed"), ("evolve", "CardPlayed")]   # record 2's card
    assert cli("upgrade", old, "--adopt").exit_code == 0
    seen.clear()
    assert quick("order", old, "--as", "entente", _legal(old, "entente"))[0] == 0
    seen.clear()
    open_game(old, upto=10)                  # nothing of rules 2 goes through them
    assert seen == [("upcast", "CardPlayed"), ("evolve", "CardPlayed")]


def test_an_older_data_version_is_built_once_then_read_from_its_signed_compiled_copy(
        monkeypatch):
    # Building an older version from its snapshot (inflate, validate, cross-check, upcast)
    # costs about a quarter of a second; this user's referee keeps the result, signed, and
    # every later process reads that instead (docs/design.md: Game data).
    import msgspec

    from referee.data import compiled

    root = default_games_dir() / "ttlm"
    datastore._LOADED.clear()
    built = datastore.find("ttlm", OLD_DIGEST, root)
    kept = compiled._stored_path("ttlm", OLD_DIGEST)
    assert built is not None and kept.is_file()

    def never(*args):
        raise AssertionError("the snapshot was built again")

    datastore._LOADED.clear()
    monkeypatch.setattr(datastore, "_read", never)
    again = datastore.find("ttlm", OLD_DIGEST, root)
    assert again is not built and datastore.is_stored(again)
    assert again.digest == OLD_DIGEST and again.source == f"digest:{OLD_DIGEST}"
    assert msgspec.to_builtins(compiled._form(again, again.source)) == \
        msgspec.to_builtins(compiled._form(built, built.source))

    # An edited copy, or this user's signed copy of other data filed under the digest, is a
    # miss: the snapshot is built again from the shipped file.
    calls = []
    monkeypatch.setattr(datastore, "_read", lambda *a: calls.append(a) or built)
    edited = kept.read_bytes().replace(b'"version":1', b'"version":2', 1)
    assert edited != kept.read_bytes()
    for planted in (edited, None):
        if planted is None:
            compiled.save_user(load_game(root), "a" * 64)
            planted = compiled._user_path("a" * 64).read_bytes()
        kept.write_bytes(planted)
        datastore._LOADED.clear()
        assert datastore.find("ttlm", OLD_DIGEST, root) is built
    assert len(calls) == 2


# ---------------------------------------------------------------- no downgrade

def _forge_a_ruling(records: list[dict]) -> None:
    """Drop the last record's Passed event: a ruling the referee never made."""
    records[-1]["events"] = [e for e in records[-1]["events"] if e["type"] != "Passed"]


def test_a_header_stripped_of_its_rules_version_is_tampering_not_older_rules(game, cli,
                                                                           monkeypatch):
    """The attack: remove record 0's rules version, forge a ruling, hash the chain again. The
    records would be replayed as rules 1, never decided again ('OK UNDER OLDER RULES');
    the data the game names was filed under a later rules version (2 or more), so record 0
    cannot be that old."""
    assert cli("order", game, "--as", "german", "pass").exit_code == 0
    records = _records(game)
    filed = datastore.filed_rules("ttlm", records[0]["data_digest"])
    assert filed >= 2
    del records[0]["rules_version"]
    _forge_a_ruling(records)
    _rechain(records, game)
    # The moderator's referee refuses it before any of that (its mark names a record the
    # journal no longer holds); read as a player reads a copy, the rules give it away.
    r = cli("status", game)
    assert r.exit_code == 3 and "cut back" in r.stderr, r.stderr
    player = game.parent / "player-home"
    player.mkdir(mode=0o700)
    monkeypatch.setenv("REFEREE_HOME", str(player))
    home._KEY.clear()
    for command in ("verify", "status", "log"):
        r = cli(command, game)
        assert r.exit_code == 3, (command, r.stdout, r.stderr)
        assert "record 0 names rules 1" in r.stderr and f"filed under rules {filed}" in r.stderr
        assert "OK" not in r.stdout


def test_the_real_rules_1_journal_is_still_older_rules(old, cli):
    """Negative control: the journal truly played under rules 1 (its data filed then)."""
    r = cli("verify", old)
    assert r.exit_code == EXIT_OLDER_RULES, r.stderr


# Every field but the chain's own (hash, prev) and the signature, which hashing the chain
# and signing again write anew.
HEADER_FIELDS = sorted(set(JournalHeader.__struct_encode_fields__) - {"hash", "prev", "sig"})


@pytest.mark.parametrize("field", HEADER_FIELDS)
def test_a_header_without_any_one_field_fails_verify_with_exit_3(field, game, cli):
    records = _records(game)
    assert field in records[0]
    del records[0][field]
    _rechain(records, game)
    r = cli("verify", game)
    assert r.exit_code == 3, (field, r.stdout, r.stderr)
    assert "record 0" in r.stderr and "OK" not in r.stdout


def test_every_field_of_the_header_is_tried_above():
    """The list comes from the contract: a field added to the header is tried too."""
    assert {"rules_version", "engine_version", "data_digest", "dice", "game"} <= \
        set(HEADER_FIELDS)


def test_an_upgrade_lowered_below_its_data_is_tampering(old, cli):
    """An upgrade to today's data that names rules 1 (so the records after it would be
    replayed, not decided again) is refused: that data was filed under rules 2."""
    assert cli("upgrade", old, "--adopt").exit_code == 0
    records = _records(old)
    records[-1]["events"][0]["rules"] = 1
    _rechain(records, old)
    r = cli("verify", old)
    assert r.exit_code == 3 and "record 10 (an upgrade) names rules 1" in r.stderr, r.stderr


@pytest.mark.parametrize("version, why", [("9.0.0", "newer than this one"),
                                          ("0.1.0-evil", "not a referee release"),
                                          ("", "not a referee release")])
def test_a_header_naming_another_engine_fails_verify(version, why, game, cli):
    records = _records(game)
    records[0]["engine_version"] = version
    _rechain(records, game)
    r = cli("verify", game)
    assert r.exit_code == 3 and why in r.stderr, r.stderr


def test_every_shipped_data_version_is_filed_under_a_rules_version():
    """make setup files each new data version under the rules in force; only the version
    of the rules-1 journal above was filed before rules versions were kept."""
    filed = json.loads((datastore.shipped_dir() / datastore.FILED).read_text())["games"]
    for game_dir in sorted(p for p in datastore.shipped_dir().iterdir() if p.is_dir()):
        for snap in game_dir.glob("*.json.gz"):
            digest = snap.name.split(".")[0]
            assert digest in filed[game_dir.name], f"{snap} is not in {datastore.FILED}"
            rules = datastore.filed_rules(game_dir.name, digest)
            if digest == OLD_DIGEST:
                assert rules == 1, snap
            else:                   # filed under the rules in force then: 2 or later
                assert 2 <= rules <= RULES_VERSION, snap
    current = load_game(default_games_dir() / "ttlm").digest
    assert datastore.filed_rules("ttlm", current) <= RULES_VERSION
