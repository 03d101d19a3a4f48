"""The audit tools: `explain` one record, `dice` counted by face and purpose, and `--at` kept
to the records a journal holds.

The battle record is record 11 of `referee demo` (a fixed secret and a scripted German
opening, as in test_report_golden.py): the German pays the hit of the Entente's defensive
fire, then fires in the Offensive Player's Fire Phase at Liège. The golden file was read
against the rules by hand: it is the last fire phase of 5.2.1 (d, after the artillery of
record 8 and the defensive fire of record 10); 1. Armee has 3 infantry left (4 in the 1914
set-up, one lost to pay the hit, 5.3.1: the strongest unit, the most numerous type), each
rolling at F1 (5.2.2: a hit on a 1), its artillery at F1, its Siege Gun at F3 against the
fort (8.3.3), its cavalry not at all (no offensive firepower with enemy infantry present,
8.3.1); [1 3 1] [5] [1] is 2 + 0 + 1 = 3 hits, the Siege Gun's on the fort (8.3.3); the
Entente pays them in records 12-14 (5.3.1: a fort step, Belgian infantry, the last fort step
that removes the fort). Each die's HMAC derivation is recomputed here with the standard
library from the published demo secret.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import shutil
from collections import Counter
from pathlib import Path

import pytest
from forging import write_resigned

GOLDEN = Path(__file__).parent / "golden"
DEMO_SECRET = bytes.fromhex("0b" * 32)     # cli.DEMO_SECRET: published, fixed


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    """The demo journal, a copy of it with the secret revealed, and a 1914 game with hidden
    army templates whose record 3 is a German order between templates (1.4)."""
    from typer.testing import CliRunner

    from referee.cli.app import app

    folder = tmp_path_factory.mktemp("audit")
    run = CliRunner()
    with pytest.MonkeyPatch.context() as mp:        # this module's own referee home
        mp.setenv("REFEREE_HOME", str(folder / "home"))
        from referee.store import home as homemod

        homemod._KEY.clear()
        assert run.invoke(app, ["demo", "--keep", str(folder)]).exit_code == 0
        demo = folder / "demo-1914.jsonl"
        revealed = folder / "revealed.jsonl"
        shutil.copy(demo, revealed)
        r = run.invoke(app, ["reveal", str(revealed), "--force"])
        assert r.exit_code == 0, r.stderr
        hidden = folder / "hidden.jsonl"
        secret = folder / "hidden.secret"
        secret.write_text("5e" * 32 + "\n")
        secret.chmod(0o600)
        r = run.invoke(app, ["new", str(hidden), "--scenario", "1914", "--game-id", "hid",
                             "--secret-file", str(secret), "--option", "hidden_templates=true"])
        assert r.exit_code == 0, r.stderr
        r = run.invoke(app, ["order", str(hidden), "--as", "german", "play offensive",
                             "move ge-4:cavalry ardennes"])
        assert r.exit_code == 0, r.stderr
        homemod._KEY.clear()
    return {"demo": demo, "revealed": revealed, "hidden": hidden}


def _records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


# ---------------------------------------------------------------- explain

def test_the_explanation_of_a_liege_fire_record(games, cli):
    """5.2.1 d, 5.2.2, 5.3.1, 8.3.3: record 11 explained for the public (golden, hand-read)."""
    r = cli("explain", games["revealed"], "11")
    assert r.exit_code == 0, r.stderr
    assert r.stdout == (GOLDEN / "explain-liege-11-public.txt").read_text(encoding="utf-8")
    assert all(len(line) <= 72 for line in r.stdout.splitlines())


def test_each_die_is_derived_from_the_revealed_secret(games, cli):
    """DESIGN 'Dice': die i of record n is the first HMAC byte below 252, mod 6, plus 1;
    recomputed here independently for every die of the record."""
    r = cli("explain", games["revealed"], "11", "--format", "json")
    doc = json.loads(r.stdout)
    rolls = doc["dice"]["rolls"]
    assert [x["value"] for x in rolls] == _records(games["revealed"])[11]["dice"]
    for i, roll in enumerate(rolls):
        msg = f"demo-1914/11/{i}"
        digest = hmac.new(DEMO_SECRET, msg.encode(), hashlib.sha256).digest()
        byte = next(b for b in digest if b < 252)
        assert roll["hmac_input"] == msg and roll["derived"]["byte"] == byte
        assert roll["value"] == byte % 6 + 1 and roll["derived"]["matches"]
    assert [x["purpose"].split(", ", 1)[1] for x in rolls] == \
        ["ge-1:infantry F1 (8.2.1)"] * 3 + [
            "ge-1:artillery F1 (8.3.2)",
            "ge-1:siege_gun F3 (at the fort, 8.3.3)"]


def test_each_die_names_the_rule_that_gave_its_firepower(games, cli):
    """5.2.2: a player reading a battle's dice learns why each fired at its F: the unit
    type's rule, and the circumstance or card that changed it (a fort's dice, one a step of
    its strength, 8.4; a Siege Gun against the fort, 8.3.3)."""
    said = {}
    for seq in (8, 10, 11):
        doc = json.loads(cli("explain", games["demo"], str(seq), "--format", "json").stdout)
        said[seq] = [x["purpose"].split(", ", 1)[1] for x in doc["dice"]["rolls"]]
    assert said[8] == ["ge-1:artillery F1 (8.3.2)",
                       "ge-1:siege_gun F3 (at the fort, 8.3.3)"]
    assert said[10] == ["be-i-01 infantry F1 (8.2.1)"] + [
        "fort-liege fort F2 (a die for each step of its strength, 8.4)"] * 2
    text = " ".join(cli("explain", games["demo"], "10").stdout.split())
    assert "fort-liege fort F2 (a die for each step of its strength, 8.4)" in text


def test_the_guides_shell_check_of_a_die_gives_the_commitment_and_the_die(games):
    """The player's guide checks a die without the referee: the key is the secret's bytes,
    not its hex digits as text; run as written, it gives the demo's commitment and the
    digest whose first byte makes die 1 of record 11."""
    import re
    import subprocess

    text = (Path(__file__).parent.parent / "docs" / "player.md").read_text(encoding="utf-8")
    found = [b for b in re.findall(r"```sh\n(.*?)```", text, re.S)
             if "hexkey" in b and "demo-1914" in b]
    assert len(found) == 1, found
    if not (shutil.which("openssl") and shutil.which("xxd")):
        pytest.skip("openssl or xxd is not on PATH")
    out = subprocess.run(["bash", "-c", found[0]], capture_output=True, text=True, timeout=60,
                         check=True).stdout
    header = _records(games["demo"])[0]
    digest = hmac.new(DEMO_SECRET, b"demo-1914/11/0", hashlib.sha256).hexdigest()
    assert header["dice"]["commitment"] in out and digest in out
    assert int(digest[:2], 16) % 6 + 1 == _records(games["demo"])[11]["dice"][0]


def test_before_the_reveal_no_derivation_is_shown(games, cli):
    """The secret stays secret until `reveal`: the HMAC input is shown, no digest."""
    doc = json.loads(cli("explain", games["demo"], "11", "--as", "moderator", "--format",
                         "json").stdout)
    assert not doc["dice"]["revealed"]
    assert all("derived" not in x and x["hmac_input"] for x in doc["dice"]["rolls"])
    text = " ".join(cli("explain", games["demo"], "11").stdout.split())
    assert "shown once the dice secret is revealed" in text and "byte 0 is" not in text


def test_the_side_sees_how_many_orders_were_legal(games, cli):
    """legal_orders is the single source of legality: the owner sees their count at that
    decision (5.3: 'lose ge-1:infantry' among them); the other side and the public do not."""
    import gamecalls as g
    from referee.engine import legal_orders
    from referee.engine.order_text import format_order

    before = g.open_game(games["demo"], upto=10)
    legal = [format_order(o) for o in legal_orders(before.state, before.data, "german")]
    assert "lose ge-1:infantry" in legal
    doc = json.loads(cli("explain", games["demo"], "11", "--as", "german", "--format",
                         "json").stdout)
    assert doc["decision"]["rule"] == "5.3" and doc["decision"]["kind"] == "losses"
    assert f"legal at that decision: {len(legal)} orders for the german player, this one " \
           f"among them" in doc["checks"]
    other = cli("explain", games["demo"], "11", "--as", "entente").stdout
    assert "legal at that decision" not in other and "passes on it again" in other


def test_a_sealed_order_stays_sealed(games, cli):
    """1.4: an order between army templates is the owner's; the other side and the public see
    the placeholder and nothing of the template, its owner and the moderator see it all."""
    for reader in ("entente", "public"):
        for fmt in ("text", "json"):
            r = cli("explain", games["hidden"], "3", "--as", reader, "--format", fmt)
            assert r.exit_code == 0, r.stderr
            assert "ge-4:cavalry" not in r.stdout and "cavalry" not in r.stdout.lower()
            assert "hidden (1.4)" in r.stdout and "legal at that decision" not in r.stdout
    for reader in ("german", "moderator"):
        r = cli("explain", games["hidden"], "3", "--as", reader)
        assert "move ge-4:cavalry ardennes" in r.stdout
        assert "legal at that decision" in r.stdout and "exactly the recorded" in r.stdout


@pytest.mark.parametrize("seq", [["16"], ["--", "-1"], ["x"], ["1e3"], [""], ["-1"]])
def test_a_record_number_out_of_range_is_a_usage_error(games, cli, seq):
    r = cli("explain", games["demo"], *seq)
    assert r.exit_code == 2 and r.stdout == ""
    assert len(r.stderr.strip().splitlines()) == 1
    # (a bare -1 reads as an option to the command line parser: still one line, exit 2)
    assert "records 0 to 15" in r.stderr or "No such option: -1" in r.stderr


# ---------------------------------------------------------------- dice

def test_dice_are_counted_by_side_face_and_purpose(games, cli):
    """Every die of every fire event (5.2), counted here from the journal by the side that
    fired, matches `dice`; the dice of the records are all accounted for."""
    faces: dict[str, Counter] = {"german": Counter(), "entente": Counter()}
    purposes: Counter = Counter()
    for rec in _records(games["demo"])[1:]:
        mine = []
        for ev in rec.get("events", []):
            if ev["type"] == "FireResolved":
                values = [v for grp in ev["groups"] for v in grp["dice"] + grp["rerolled"]]
                faces[ev["side"]].update(values)
                purposes[ev["side"], ev["phase"]] += len(values)
                mine += values
        assert sorted(mine) == sorted(rec.get("dice", []))
    doc = json.loads(cli("dice", games["demo"], "--format", "json").stdout)
    for side, counted in faces.items():
        got = doc["sides"][side]
        assert got["faces"] == [counted[f] for f in range(1, 7)]
        assert got["dice"] == sum(counted.values()) and got["expected"] == round(
            sum(counted.values()) / 6, 4)
        assert {p.split(" fire")[0]: sum(f) for p, f in got["by_purpose"].items()} == \
            {phase: n for (s, phase), n in purposes.items() if s == side}
    assert doc["all"]["faces"] == [faces["german"][f] + faces["entente"][f] for f in range(1, 7)]
    assert doc["unattributed"] == 0
    # German: 3 0 2 1 1 0 in 7 dice (records 8 and 11): chi-square by hand 5.857
    assert doc["sides"]["german"]["faces"] == [3, 0, 2, 1, 1, 0]
    assert doc["sides"]["german"]["chi_square"]["statistic"] == pytest.approx(5.857, abs=1e-3)
    text = cli("dice", games["demo"], "--as", "entente").stdout
    assert "chi-square 5.86 with 5 degrees of freedom" in text


def test_a_side_s_one_die_is_counted_as_a_die():
    """A side that rolled one die is told '1 die', as every count is (base/plurals.py)."""
    from referee.game.audit import chi_square
    from referee.render.audit import dice_document
    from referee.render.formats import render

    def tally(faces: list[int]) -> dict:
        return {"dice": sum(faces), "faces": faces, "by_purpose": {"pursuit fire": faces},
                "expected": round(sum(faces) / 6, 4), "chi_square": chi_square(faces)}

    doc = {"game_id": "g", "seq": 3, "reader": "public", "mode": "committed",
           "sides": {"german": tally([0, 0, 1, 0, 1, 0]), "entente": tally([0, 0, 0, 0, 0, 1])},
           "all": tally([0, 0, 1, 0, 1, 1]), "unattributed": 1}
    titles = [line for line in render(dice_document(doc), "text").splitlines()
              if line.startswith(("German", "Entente", "Both", "1 "))]
    assert titles == ["German: 2 dice", "Entente: 1 die", "Both sides: 3 dice",
                      "1 die not tied to a dice event"], titles


def test_the_chi_square_figure():
    """A known table: faces 5 8 9 8 10 20 of 60 dice, expected 10 each: (25 + 4 + 1 + 4 + 0 +
    100) / 10 = 13.4; the tables give p = 0.05 at 11.07 and 0.01 at 15.09 for 5 d.o.f."""
    from referee.game.audit import chi2_sf, chi_square

    c = chi_square([5, 8, 9, 8, 10, 20])
    assert c["statistic"] == pytest.approx(13.4) and c["df"] == 5 and not c["rough"]
    assert 0.01 < c["p_value"] < 0.05
    assert chi2_sf(11.0705, 5) == pytest.approx(0.05, abs=1e-4)
    assert chi2_sf(15.0863, 5) == pytest.approx(0.01, abs=1e-4)
    assert chi2_sf(1.1455, 5) == pytest.approx(0.95, abs=1e-4)
    assert chi2_sf(5.9915, 2) == pytest.approx(0.05, abs=1e-4)
    assert chi2_sf(3.8415, 1) == pytest.approx(0.05, abs=1e-4)
    assert chi_square([10] * 6)["p_value"] == 1.0 and chi_square([0] * 6) is None


@pytest.mark.parametrize("value", [0, 7, -2, 10 ** 30])
def test_a_forged_die_that_is_no_face_is_named_not_counted(games, cli, tmp_path, value):
    """A die of a fire event is 1 to 6 (5.2.1): a journal resealed with any other value is
    refused with exit 3 naming the record (not counted as another face, not an internal
    error)."""
    out = _records(games["demo"])
    forged = next(rec["seq"] for rec in out
                  if any(e["type"] == "FireResolved" for e in rec.get("events", [])))
    fire = next(e for e in out[forged]["events"] if e["type"] == "FireResolved")
    fire["groups"][0]["dice"][0] = value
    journal = tmp_path / "forged.jsonl"
    write_resigned(journal, out)
    r = cli("dice", journal, "--format", "json")
    assert r.exit_code == 3 and r.stdout == "", (r.exit_code, r.stderr)
    assert f"record {forged}" in r.stderr and "1 to 6" in r.stderr


# ---------------------------------------------------------------- --at

@pytest.mark.parametrize("at", ["-1", "16", "99999"])
def test_show_at_out_of_range_names_the_range(games, cli, at):
    r = cli("show", games["demo"], "--at", at)
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr.strip().splitlines() == [
        f"referee: --at {at}: out of range; the journal has records 0 to 15"]


def test_at_below_zero_on_a_journal_with_a_torn_tail_is_not_told_a_wrong_range(games, cli,
                                                                                tmp_path):
    """A torn last line hides the last record number: --at -1 is still no record (records
    count from 0), and the error does not claim the journal holds records 0 to 0."""
    torn = tmp_path / "torn.jsonl"
    torn.write_bytes(games["demo"].read_bytes() + b'{"seq": 16, "tor')
    torn.chmod(0o600)
    for command in (["show", torn], ["map", torn, "-o", tmp_path / "m.svg"]):
        r = cli(*command, "--at", "-1")
        assert r.exit_code == 2 and r.stdout == "", r.stderr
        assert "-1" in r.stderr and "0 to 0" not in r.stderr, r.stderr


# ---------------------------------------------------------------- --since and --expect-seq

@pytest.mark.parametrize("command", ["log", "report"])
@pytest.mark.parametrize("since", ["17", "99", "-1"])
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_since_past_the_journal_is_a_usage_error_naming_its_records(games, cli, command,
                                                                     since, fmt):
    """`log` and `report` agree: a --since the journal does not reach is a mistake a script
    must hear of (one line, exit 2, the journal's records named), not an empty answer; with
    --format json the error is the documented object of kind usage."""
    r = cli(command, games["demo"], "--since", since, "--format", fmt)
    assert r.exit_code == 2 and r.stdout == "", (r.exit_code, r.stdout, r.stderr)
    line = f"--since {since}: the journal has records 0 to 15"
    if fmt == "json":
        obj = json.loads(r.stderr)
        assert (obj["kind"], obj["exit"], obj["error"]) == ("usage", 2, line)
    else:
        assert r.stderr.splitlines() == [f"referee: {line}"]


def test_log_since_one_past_the_last_record_is_nothing_new(games, cli):
    """`log --since N` prints from record N: one past the last is what a script that has
    read every record asks next, and the answer is nothing yet, exit 0, as
    `report --since LAST` answers it; the last record itself is printed."""
    for fmt in ("text", "json"):
        r = cli("log", games["demo"], "--since", "16", "--format", fmt)
        assert (r.exit_code, r.stdout, r.stderr) == (0, "", "")
        r = cli("log", games["demo"], "--since", "15", "--format", fmt)
        assert r.exit_code == 0 and r.stdout.count("\n") >= 1
        assert (r.stdout.startswith("#15 ") if fmt == "text"
                else json.loads(r.stdout)["seq"] == 15)
    r = cli("report", games["demo"], "--since", "15", "--format", "json")
    assert r.exit_code == 0
    assert (json.loads(r.stdout)["since"], json.loads(r.stdout)["upto"]) == (15, 15)


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_expect_seq_past_the_journal_is_a_usage_error_not_a_stale_view(games, cli, tmp_path,
                                                                        fmt):
    """--expect-seq names the record the orders were written against: one the journal does
    not hold yet is no view anyone read, so not 'the journal has moved on' (exit 1) but a
    usage error naming its records, and nothing is written."""
    journal = tmp_path / "hidden.jsonl"
    shutil.copy(games["hidden"], journal)
    shutil.copy(games["hidden"].with_suffix(".secret"), tmp_path / "hidden.secret")
    before = journal.read_bytes()
    r = cli("order", journal, "--as", "entente", "pass", "--expect-seq", "9", "--format", fmt)
    assert r.exit_code == 2, (r.exit_code, r.stdout, r.stderr)
    line = "--expect-seq 9: the journal has records 0 to 3"
    if fmt == "json":
        obj = json.loads(r.stderr)
        assert (obj["kind"], obj["exit"], obj["error"]) == ("usage", 2, line)
    else:
        assert r.stderr.splitlines() == [f"referee: {line}"]
    assert journal.read_bytes() == before
