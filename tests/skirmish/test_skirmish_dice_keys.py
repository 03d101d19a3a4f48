"""A skirmish's dice keyed by the side's own count of rolls (table/skirmish/dicekeys.py):
keyed by their record's number, a side's dice moved with every record the moderator wrote
before its order (a mail route, a ruling, the other side's orders applied first), so he,
holding the secret, could choose among them. Now a game says so in record 0 and each
rolling record names its stream ("british.1") and, for a mailed order, the digest of the
mail's order lines; a game begun before keeps its record numbers and verifies as it did;
a forged key or count is caught by verify in one line."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from forging import fixed_key, forget_mark, records, resign

from referee.store import signing
from referee.store.dice import below
from referee.store.journal import line_of
from referee.store.sheets import lines_digest
from referee.table.skirmish import life

SECRET = bytes.fromhex("5e" * 32)
RUSH = "move B2 mode=rush command=yes"      # two D6 (Movement)
G1 = "move G1 mode=rush command=yes"
B0 = "move B0 mode=rush command=yes"      # the platoon commander moves with any unit
OLD = Path(__file__).parent.parent / "fixtures" / "skirmish-before-artillery"


def _new(cli, folder: Path, secret_file: Path) -> Path:
    folder.mkdir()
    j = folder / "patrol.jsonl"
    r = cli("new", j, "--game", "skirmish", "--scenario", "patrol", "--game-id", "patrol",
            "--secret-file", secret_file)
    assert r.exit_code == 0, r.stderr
    return j


def _order(cli, j: Path, side: str, text: str) -> None:
    r = cli("skirmish", "order", j, "--as", side, text)
    assert r.exit_code == 0, r.output


def _dice(rec: dict) -> list[int]:
    return [d["value"] for d in rec["test"]["dice"]]


def _committed(stream: int | str, count: int, mix: str = "") -> list[int]:
    return [1 + below(SECRET, "patrol", stream, i, 6, mix) for i in range(count)]


def test_no_record_the_moderator_writes_before_an_order_moves_its_dice(cli, tmp_path,
                                                                       secret_file):
    alone = _new(cli, tmp_path / "a", secret_file)
    for side, text in (("british", RUSH), ("german", G1), ("british", B0)):
        _order(cli, alone, side, text)
    after = _new(cli, tmp_path / "b", secret_file)
    _order(cli, after, "british", RUSH)
    (tmp_path / "mb").write_bytes(b"")
    r = cli("mail", after, "--in", str(tmp_path / "mb"), "--out", f"outbox:{tmp_path / 'ob'}")
    assert r.exit_code == 0, r.output                           # record 2: a mail route
    _order(cli, after, "german", G1)
    _order(cli, after, "german", "done")                        # the other side's, first
    _order(cli, after, "british", "dispute record=3 fact=mode value=stealthy")
    _order(cli, after, "moderator", "settle record=3 uphold=yes")   # a ruling
    _order(cli, after, "british", B0)
    first, last = records(alone)[-1], records(after)[-1]
    assert (first["seq"], last["seq"]) == (3, 7)
    assert first["dice_from"] == last["dice_from"] == {"stream": "british.2"}
    assert _dice(first) == _dice(last) == _committed("british.2", 2)
    # Keyed by its record's number, as before, the same order would have rolled otherwise.
    assert _committed(3, 2) != _committed(7, 2)
    assert records(after)[3]["dice_from"] == {"stream": "german.1"}
    assert "dice_from" not in records(after)[6]             # a ruling is nobody's roll
    for j in (alone, after):
        r = cli("verify", j, "--secret", secret_file)
        assert r.exit_code == 0, r.output
        assert "every roll is keyed by its side's own count of rolls" in r.stdout


def test_a_mailed_order_s_dice_mix_in_the_digest_of_its_lines(cli, tmp_path, secret_file):
    got = {}
    for name, lines in (("a", [RUSH]), ("b", [RUSH, "done"])):
        j = _new(cli, tmp_path / name, secret_file)
        life.submit_many(j, "british", lines, mail=f"<{name}@example.org>")
        rec = records(j)[1]
        digest = lines_digest(lines)
        assert rec["dice_from"] == {"mail": digest, "stream": "british.1"}
        assert _dice(rec) == _committed("british.1", 2, f"mail={digest}")
        got[name] = _dice(rec)
        assert cli("verify", j, "--secret", secret_file).exit_code == 0
    by_hand = _new(cli, tmp_path / "c", secret_file)
    _order(cli, by_hand, "british", RUSH)
    assert len({tuple(v) for v in (*got.values(), _dice(records(by_hand)[1]))}) == 3


def _old_game(tmp_path: Path) -> Path:
    j = tmp_path / "before.jsonl"
    shutil.copyfile(OLD / "journal.jsonl", j)
    shutil.copyfile(OLD / "journal.jsonl.secret", tmp_path / "before.jsonl.secret")
    for p in (j, tmp_path / "before.jsonl.secret"):
        p.chmod(0o600)
    return j


def test_a_game_begun_before_keeps_its_record_numbers_and_verifies(cli, tmp_path):
    j = _old_game(tmp_path)
    secret = tmp_path / "before.jsonl.secret"
    assert "keyed" not in records(j)[0]["dice"]
    for args in ((), ("--secret", secret)):
        r = cli("verify", j, *args)
        assert r.exit_code == 0 and "keyed" not in r.stdout, r.output
    said = (OLD / "verify.txt").read_text(encoding="utf-8").replace("before-artillery", "before")
    assert cli("verify", j).stdout == said
    signing.new_key(fixed_key(tmp_path / "keys"))     # played on by the holder of its key
    _order(cli, j, "british", "done")
    _order(cli, j, "british", "fire B3 at=G5 range=10 state=halted cover=none command=yes")
    rec = records(j)[-1]
    assert "dice_from" not in rec
    key = bytes.fromhex(secret.read_text().strip())
    values = [1 + below(key, records(j)[0]["game_id"], rec["seq"], i, d["die"])
              for i, d in enumerate(rec["test"]["dice"])]
    assert _dice(rec) == values
    assert cli("verify", j, "--secret", secret).exit_code == 0


def _forge(j: Path, n: int, change) -> None:
    """Record n changed, and it and every record after it chained and signed again, as the
    holder of the game's key can."""
    recs = records(j)
    change(recs[n])
    for k in range(n, len(recs)):
        recs[k]["prev"] = recs[k - 1]["hash"] if k else None
        recs[k] = resign(recs[k])
    j.write_bytes(b"".join(line_of(r) for r in recs))
    forget_mark(j)      # its mark names the last record as written, which is gone now


FORGED = [
    ("count", 2, lambda r: r["dice_from"].update(stream="german.2"),
     "record 2 has its dice keyed 'german.2', not 'german.1', its side's count of rolling "
     "records"),
    ("record number", 1, lambda r: r.pop("dice_from"), "record 1 has its dice keyed None, "
                                                       "not 'british.1'"),
    ("a ruling's roll", 3, lambda r: r.update(dice_from={"stream": "british.2"}),
     "record 3 names a dice stream but rolls no die"),
    ("a mail's digest", 1, lambda r: r["dice_from"].update(mail="ab" * 32),
     "record 1 mixes a mail's digest into its dice but came in no mail"),
    ("header", 0, lambda r: r["dice"].pop("keyed"), "record 1 keys its dice by a stream, "
                                                    "but record 0 keys this game's dice by "
                                                    "record number"),
    ("bad key", 1, lambda r: r["dice_from"].update(stream="british.0"), "record 1 breaks "
                                                                        "the journal's"),
    ("bad scheme", 0, lambda r: r["dice"].update(keyed="record"), "record 0 breaks the "
                                                                  "journal's contract"),
]


@pytest.mark.parametrize("what, n, change, said", FORGED, ids=[f[0] for f in FORGED])
def test_a_forged_key_or_count_fails_verify_in_one_line(cli, tmp_path, secret_file, what, n,
                                                        change, said):
    j = _new(cli, tmp_path / "g", secret_file)
    _order(cli, j, "british", RUSH)
    _order(cli, j, "german", G1)
    _order(cli, j, "british", "dispute record=2 fact=mode value=stealthy")
    assert cli("verify", j, "--secret", secret_file).exit_code == 0
    _forge(j, n, change)
    for args in ((), ("--secret", secret_file)):
        r = cli("verify", j, *args)
        assert r.exit_code == 3, (what, r.output)
        assert said in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
        assert "Traceback" not in r.output


LMG = "fire B4 at=G1 range=20 state=halted cover=none dice=3 command=yes"


def test_a_ruling_takes_the_test_s_own_dice_then_the_next_of_its_stream(cli, tmp_path,
                                                                         secret_file):
    """A correction to five dice from three keeps the test's three and takes dice 3 and 4
    of the test's own stream, whichever record the ruling is; verify checks those too."""
    j = _new(cli, tmp_path / "g", secret_file)
    for side, text in (("british", "done"), ("german", "done"), ("british", "done"),
                       ("german", "done"), ("british", LMG),
                       ("german", "dispute record=5 fact=dice value=5"),
                       ("moderator", "settle record=5 fact=dice value=5")):
        _order(cli, j, side, text)
    test, ruling = records(j)[5], records(j)[7]
    assert test["dice_from"] == {"stream": "british.1"} and "dice_from" not in ruling
    stream = [1 + below(SECRET, "patrol", "british.1", i, 20) for i in range(5)]
    assert _dice(test) == stream[:3]
    assert [d["value"] for d in ruling["settle"]["test"]["dice"]] == stream
    assert cli("verify", j, "--secret", secret_file).exit_code == 0

    def forged(rec: dict) -> None:
        rec["settle"]["test"]["dice"][4]["value"] = 1 + below(SECRET, "patrol", 7, 1, 20)
    _forge(j, 7, forged)
    assert cli("verify", j).exit_code == 0           # no die is known without the secret
    r = cli("verify", j, "--secret", secret_file)
    assert r.exit_code == 3 and "record 7 die 4 of its ruling is not the committed die" in \
        r.stderr, r.output


def test_the_players_guide_checks_a_skirmish_die_as_the_referee_draws_it(cli, tmp_path):
    """player.md (A skirmish) shows a die checked by hand: its HMAC input, the digest's first
    8 bytes and the die. They are those of a real game made with that secret, and the
    game's last mail points there, not to the campaign's D6 (Receipts)."""
    import hashlib
    import hmac
    import re

    from referee.table.skirmish.ending import after_the_end

    docs = (Path(__file__).parents[2] / "docs" / "player.md").read_text(encoding="utf-8")
    block = docs[docs.index("## A skirmish"):docs.index("### Every skirmish order")]
    s, m = re.search(r"s=([0-9a-f]{64}); m=(\S+)", block).groups()
    shown = re.search(r"# ([0-9a-f]{16})…", block).group(1)
    face = int(re.search(r"# (\d) \(it is below", block).group(1))
    digest = hmac.new(bytes.fromhex(s), m.encode(), hashlib.sha256).hexdigest()
    assert digest.startswith(shown) and int(shown, 16) % 6 + 1 == face
    assert int(shown, 16) < (2**64 // 6) * 6 == 2**64 - 4      # the first 8 bytes serve
    sh = re.search(r"```sh\n(s=[0-9a-f]{64}; m=patrol.*?)```", block, re.S).group(1)
    if shutil.which("openssl"):         # run as written, the block prints the digest, the die
        import subprocess

        out = subprocess.run(["bash", "-c", sh], capture_output=True, text=True, timeout=60,
                             check=True).stdout.split()
        assert digest in out and out[-1] == str(face), out
    (tmp_path / "secret").write_text(s)
    j = _new(cli, tmp_path / "g", tmp_path / "secret")
    _order(cli, j, "british", "move B2 mode=manoeuvre command=yes")
    rec = records(j)[-1]
    assert m == f"patrol/{rec['dice_from']['stream']}/0" and _dice(rec) == [face]
    told = " ".join(after_the_end([], type("S", (), {"revealed": "x"})(), "british", ""))
    assert "(A skirmish)" in told and "Receipts" not in told


def test_explain_gives_each_die_s_hmac_input_and_the_mail_s_digest(cli, tmp_path, secret_file):
    """`explain N` of a rolling test gives the HMAC input of each die: its stream and, for a
    mailed order, the digest of the mail's order lines, which the player checks against his
    own lines at once; each input, HMAC'd with the secret, draws the die recorded (store/
    dice.py below). A game of an earlier version gives its record's number."""
    import hashlib
    import hmac
    import json

    j = _new(cli, tmp_path / "m", secret_file)
    life.submit_many(j, "british", [RUSH, "done"], mail="<m@example.org>")
    digest = lines_digest([RUSH, "done"])
    doc = json.loads(cli("explain", j, "1", "--format", "json").stdout)
    assert doc["hmac_inputs"] == [f"patrol/british.1/{i}/mail={digest}" for i in (0, 1)]
    for text, d in zip(doc["hmac_inputs"], records(j)[1]["test"]["dice"]):
        first = hmac.new(SECRET, text.encode(), hashlib.sha256).digest()
        u = int.from_bytes(first[:8], "big")
        assert u < (2**64 // 6) * 6 and u % 6 + 1 == d["value"]   # the doc's draw, by hand
    said = " ".join(cli("explain", j, "1").stdout.split())
    assert f"HMAC input of die i: patrol/british.1/i/mail={digest[:8]}…" in said, said
    assert "player.md, A skirmish" in said
    assert json.loads(cli("explain", j, "2", "--format", "json").stdout)["hmac_inputs"] is None
    old = _old_game(tmp_path)
    seq = next(r["seq"] for r in records(old) if (r.get("test") or {}).get("dice"))
    inputs = json.loads(cli("explain", old, str(seq), "--format", "json").stdout)["hmac_inputs"]
    assert inputs[0] == f"{records(old)[0]['game_id']}/{seq}/0"
