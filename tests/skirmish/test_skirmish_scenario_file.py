"""`new --game skirmish --scenario FILE.yaml`: a group brings its own forces, checked as
the game's own scenarios are, every problem at its file, line and column; a file that
cannot be used makes no journal."""

from __future__ import annotations

import json

RAID = """\
id: raid
title: "A trench raid"
sides: [british, german]
first: german
forces:
  british:
    sections:
      - id: B
        quality: veteran
        figures:
          - {id: B1, role: squad_leader, weapon: rifle}
          - {id: B2, weapon: rifle}
  german:
    sections:
      - id: G
        quality: stubborn
        figures:
          - {id: G1, role: squad_leader, weapon: smg}
          - {id: G2, weapon: grenade, role: bomber}
"""


def test_a_group_s_own_forces_are_played(cli, tmp_path):
    (tmp_path / "raid.yaml").write_text(RAID, encoding="utf-8")
    j = tmp_path / "r.jsonl"
    r = cli("new", j, "--game", "skirmish", "--scenario", str(tmp_path / "raid.yaml"),
            "--format", "json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["scenario"] == "raid"
    figures = {f["id"]: f["quality"] for f in doc["status"]["figures"]}
    assert figures == {"B1": "veteran", "B2": "veteran", "G1": "stubborn", "G2": "stubborn"}
    # The forces travel in the journal: the file may go, the game goes on and verifies.
    (tmp_path / "raid.yaml").unlink()
    r = cli("order", j, "--as", "german", "move G1 mode=stealthy")
    assert r.exit_code == 0, r.output
    assert cli("verify", j).exit_code == 0


BROKEN = RAID.replace("first: german", "first: french").replace(
    "quality: veteran", "quality: heroic").replace("weapon: smg", "weapon: laser")


def test_every_problem_of_a_file_is_named_at_its_line_and_nothing_is_made(cli, tmp_path):
    (tmp_path / "bad.yaml").write_text(BROKEN, encoding="utf-8")
    j = tmp_path / "b.jsonl"
    r = cli("new", j, "--game", "skirmish", "--scenario", str(tmp_path / "bad.yaml"))
    assert r.exit_code == 3, r.output
    lines = r.stderr.splitlines()
    where = str(tmp_path / "bad.yaml")
    assert any(x.startswith(f"referee: {where}:4:8: 'french' is not one of the sides")
               for x in lines), lines
    assert any(f"{where}:9:18:" in x and "heroic" in x for x in lines), lines
    assert any(f"{where}:18:50:" in x and "unknown weapon 'laser'" in x for x in lines), lines
    assert not j.exists() and not (tmp_path / "b.jsonl.secret").exists()


def test_a_hostile_file_is_refused_in_one_line(cli, tmp_path):
    """An alias (a few lines that would become gigabytes) or a tag is refused before the
    YAML library builds anything."""
    bomb = "a: &a [x, x]\nb: &b [*a, *a]\nc: [*b, *b]\n"
    (tmp_path / "bomb.yaml").write_text(bomb, encoding="utf-8")
    r = cli("new", tmp_path / "x.jsonl", "--game", "skirmish", "--scenario",
            str(tmp_path / "bomb.yaml"))
    assert r.exit_code == 3 and "alias" in r.stderr, r.output
    r = cli("new", tmp_path / "y.jsonl", "--game", "skirmish", "--scenario", "nowhere.yaml")
    assert r.exit_code == 2 and "patrol" in r.stderr and "FILE.yaml" in r.stderr


def test_forces_too_large_for_a_journal_or_a_side_named_as_a_reader_are_refused(cli,
                                                                               tmp_path):
    """A file of 2,000 figures (five times what a skirmish takes: the journal's first line,
    which holds them, must stay short enough to read again) and a side called `moderator`
    (a name every command reads as the moderator) are refused with the problem's place; no
    journal is made."""
    many = RAID.replace("          - {id: B2, weapon: rifle}\n", "".join(
        f"          - {{id: B{i}, weapon: rifle}}\n" for i in range(2, 2000)))
    (tmp_path / "many.yaml").write_text(many, encoding="utf-8")
    r = cli("new", tmp_path / "m.jsonl", "--game", "skirmish", "--scenario",
            str(tmp_path / "many.yaml"))
    assert r.exit_code == 3 and "a skirmish takes 400 at most" in r.stderr, r.output
    assert not (tmp_path / "m.jsonl").exists()
    kept = RAID.replace("british", "moderator")
    (tmp_path / "kept.yaml").write_text(kept, encoding="utf-8")
    r = cli("new", tmp_path / "k.jsonl", "--game", "skirmish", "--scenario",
            str(tmp_path / "kept.yaml"))
    assert r.exit_code == 3 and "'moderator' is a name the referee keeps" in r.stderr
    assert f"{tmp_path / 'kept.yaml'}:3:" in r.stderr, r.stderr
    assert not (tmp_path / "k.jsonl").exists()


def test_an_id_with_a_line_end_is_named_on_one_line(cli, tmp_path):
    odd = RAID.replace("{id: B2, weapon: rifle}", '{id: "B\\n2", weapon: rifle}')
    (tmp_path / "odd.yaml").write_text(odd, encoding="utf-8")
    r = cli("new", tmp_path / "o.jsonl", "--game", "skirmish", "--scenario",
            str(tmp_path / "odd.yaml"))
    assert r.exit_code == 3, r.output
    lines = r.stderr.strip().splitlines()
    assert all(x.startswith("referee: ") for x in lines), lines
    assert any("(B\\n2)" in x for x in lines), lines
