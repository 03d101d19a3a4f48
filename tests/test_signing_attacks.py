"""Attacks on signed journals, each refused: the intruder can write the game folder (the
journal and what lies beside it) but not the moderator's referee home, or he is another
local user with a referee home of his own. Each docstring says the attack and what stops it.
"""

from __future__ import annotations

import json
from pathlib import Path

from forging import as_user, old_game, records, refuses_to_write, shown, write_signed

from referee.store import signing
from referee.store.authorship import REKEY
from referee.store.journal import line_of, seal


def test_a_key_only_named_by_a_last_key_change_signed_nothing_and_pins_nothing(
        cli, game, tmp_path, monkeypatch, referee_home):
    """The intruder rewrites the whole journal under a key of his own and appends a key
    change, signed by his key, naming the moderator's public key (which the header gave
    away). No record is signed by the moderator's key, so `verify --key MODERATOR` fails: a
    pinned key must have signed a record, not only been named."""
    cli("order", game, "--as", "german", "pass")
    recs = records(game)
    moderator = recs[0]["signing"]
    assert cli("verify", game, "--key", shown(moderator["fingerprint"])).exit_code == 0
    as_user(monkeypatch, tmp_path / "intruder-home")
    mine = signing.new_key()
    recs[0]["signing"] = mine.header_field()
    recs.append({"at": recs[-1]["at"], "actor": "moderator", "order": REKEY, "events": [],
                 "signing": dict(moderator), "seq": len(recs)})
    write_signed(game, recs, mine)
    as_user(monkeypatch, referee_home)
    r = cli("verify", game, "--key", shown(moderator["fingerprint"]))
    assert r.exit_code == 3 and "has signed no record of this journal yet" in r.stderr, \
        r.output


def mailed_game(cli, folder: Path, game_id: str = "signed") -> Path:
    """A signed game with players, read from a Maildir and written to an outbox."""
    from mailboxes import write_maildir

    folder.mkdir(parents=True, exist_ok=True)
    box = write_maildir(folder.parent / f"{game_id}-box", [])
    journal = folder / f"{game_id}.jsonl"
    r = cli("new", journal, "--scenario", "1914", "--game-id", game_id,
            "--player", "german=kaiser@example.org", "--player", "entente=joffre@example.net",
            "--mail-in", str(box), "--mail-out", f"outbox:{folder.parent / 'out'}")
    assert r.exit_code == 0, r.output
    return journal


def rechain_unsigned(journal: Path, recs: list[dict]) -> None:
    """recs chained again without any signature, as anyone can."""
    prev, out = None, []
    for rec in recs:
        rec = seal({**{k: v for k, v in rec.items() if k not in ("hash", "sig")},
                    "prev": prev})
        prev = rec["hash"]
        out.append(line_of(rec))
    journal.write_bytes(b"".join(out))


def test_upgrade_does_not_adopt_a_signed_game_whose_signatures_were_stripped(cli, tmp_path):
    """The intruder strips the header's key and every `sig` from the moderator's signed game,
    slips in a mail route of his own and chains it all again: the game now looks begun before
    signing, and tick tells the moderator to run `referee upgrade`. upgrade refuses: this
    referee signs that game already (and its records say how their orders came, which only
    a referee that signs writes)."""
    folder = tmp_path / "games"
    journal = mailed_game(cli, folder)
    assert cli("order", journal, "--as", "german", "pass").exit_code == 0
    recs = records(journal)
    assert any("by" in rec for rec in recs)
    del recs[0]["signing"]
    spy = tmp_path / "spy"
    recs.append({"at": recs[-1]["at"], "actor": "moderator", "order": "set mail route",
                 "events": [], "seq": len(recs),
                 "mail_route": {"to": "moderator", "salt": "00" * 16,
                                "data": {"source": None, "target": f"outbox:{spy}"}}})
    rechain_unsigned(journal, recs)
    before = journal.read_bytes()
    r = cli("tick", folder, "--no-map")
    assert "referee upgrade" in r.stdout, r.output      # the moderator is told to adopt it
    r = cli("upgrade", journal, "--adopt")
    assert r.exit_code != 0, r.output
    assert journal.read_bytes() == before


def test_after_a_key_change_a_journal_cut_back_and_signed_by_the_old_key_is_refused(
        cli, game, tmp_path, monkeypatch, referee_home):
    """`rekey` hands the game to a new key (say the old one leaked). Whoever has the old key
    cuts the journal back to before the key change and appends what he likes signed by the
    old key (verify, unpinned, says OK). The moderator's referee refuses to write to it: its
    mark of what it last wrote names a record the journal no longer holds."""
    old = records(game)[0]["signing"]["fingerprint"]
    r = cli("rekey", game, "--format", "json")
    assert r.exit_code == 0, r.output
    assert cli("order", game, "--as", "german", "pass").exit_code == 0
    recs = records(game)
    change = next(i for i, rec in enumerate(recs) if rec.get("order") == REKEY)
    leaked = (referee_home / "keys" / f"{old}.key").read_bytes()
    # The intruder holds the old key (the reason for the change) and cuts the journal back.
    as_user(monkeypatch, tmp_path / "intruder-home")
    (tmp_path / "intruder-home" / "keys").mkdir(parents=True)
    (tmp_path / "intruder-home" / "keys" / f"{old}.key").write_bytes(leaked)
    (tmp_path / "intruder-home" / "keys" / f"{old}.key").chmod(0o600)
    game.write_bytes(b"".join(line_of(rec) for rec in recs[:change]))
    r = cli("deadline", game, "--set", "1h")
    assert r.exit_code == 0, r.output
    assert records(game)[-1]["sig"].startswith(old + ".")
    refuses_to_write(cli, game, monkeypatch, referee_home)


def test_reports_after_a_key_change_name_the_key_in_force(cli, game):
    """Every report and mail shows the game's key above the receipt, for the players to pin
    (`verify --receipt` with that line). After `rekey` it names the key that signs the game
    now, not the header's, which was handed over (perhaps because it leaked)."""
    r = cli("rekey", game, "--format", "json")
    assert r.exit_code == 0, r.output
    new = json.loads(r.stdout)["fingerprint"]
    assert cli("order", game, "--as", "german", "pass").exit_code == 0
    report = cli("report", game, "--as", "german").stdout.splitlines()
    assert report[-2] == f"Fingerprint: {new} (the game's signing key)", report[-2:]


def test_an_adopted_game_shows_players_its_key(cli, tmp_path):
    """A game adopted by `upgrade` is signed from the adoption on, though its header names no
    key: its reports and mails name the adoption's key, so its players have one to pin."""
    old = old_game(tmp_path / "games")
    r = cli("upgrade", old, "--adopt", "--format", "json")
    assert r.exit_code == 0, r.output
    fpr = json.loads(r.stdout)["adopted"]["fingerprint"]
    assert cli("order", old, "--as", "entente", "lose fort-liege").exit_code == 0
    report = cli("report", old, "--as", "german").stdout.splitlines()
    assert f"Fingerprint: {fpr} (the game's signing key)" in report, report[-3:]


def test_repair_leaves_a_journal_of_another_referee_alone(cli, tmp_path, monkeypatch,
                                                              referee_home):
    """Like every command that writes, `repair` refuses a journal this user's referee did not
    sign: it writes no backup beside a planted journal and cuts nothing."""
    folder = tmp_path / "games"
    as_user(monkeypatch, tmp_path / "intruder-home")
    planted = mailed_game(cli, folder, "planted")
    as_user(monkeypatch, referee_home)
    with open(planted, "ab") as fh:
        fh.write(b'{"torn":')
    before = sorted(p.name for p in folder.iterdir())
    r = cli("repair", planted)
    assert r.exit_code == 3, r.output
    assert sorted(p.name for p in folder.iterdir()) == before
    assert planted.read_bytes().endswith(b'{"torn":')


def test_new_refuses_a_signing_key_file_planted_by_another_user(cli, tmp_path):
    """The intruder plants a key of his own in a subfolder of the shared game folder (another
    user's file, readable by all) for `new --signing-key FILE` (or upgrade, rekey) to take:
    the game would be signed by a key he holds. A key file must be the user's own and
    private to him."""
    import os

    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    folder = tmp_path / "games"
    (folder / "keys").mkdir(parents=True)
    seed = "42" * 32
    theirs = signing.GameKey(Ed25519PrivateKey.from_private_bytes(bytes.fromhex(seed)))
    planted = folder / "keys" / "war.key"
    planted.write_text(f"referee ed25519 {theirs.fpr} {seed}\n")
    planted.chmod(0o644)
    if os.geteuid() == 0:
        os.chown(planted, 65534, 65534)          # another user's file
    r = cli("new", folder / "war.jsonl", "--scenario", "1914", "--signing-key", planted)
    assert r.exit_code == 2, r.output
    assert not (folder / "war.jsonl").exists()
