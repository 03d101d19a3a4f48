"""A skirmish's orders given together, by mail or at the command line, once a die is rolled:
a line refused after a line before it rolled ends them there, and the lines before it stand
with their dice. Refusing them all would tell the player what his dice gave (the refusal
of a second shot says the first one's target fell) and leave him the same dice for his
next try, since a die is the committed secret's for its record: a free look at the dice
nobody may foresee. Before any die is rolled, the lines are still taken all or none."""

from __future__ import annotations

import email
import json
import os
import subprocess
import sys
from email.policy import default

import pytest
from test_skirmish_mail import BRITISH, mail, mailed_patrol

# The British movement: B2 rolls its manoeuvre (a D6, Movement), then B2 again, which has
# moved this turn: refused whatever the die gave.
ROLLS = "move B2 mode=manoeuvre command=yes"
AGAIN = "move B2 mode=stealthy command=yes"


def _lines(journal) -> list[dict]:
    return [json.loads(x) for x in journal.read_text().splitlines()]


def _answer(out, to: str):
    found = [email.message_from_bytes(p.read_bytes(), policy=default)
             for p in sorted(out.glob("*.eml"))]
    answers = [m for m in found if m["To"] == to and m["In-Reply-To"]]
    assert len(answers) == 1, [m["Subject"] for m in found]
    return answers[0].get_body(("plain",)).get_content()


def test_a_mailed_line_refused_after_a_roll_leaves_the_lines_before_it_recorded(
        cli, tmp_path, secret_file):
    j = tmp_path / "patrol.jsonl"
    keys = mailed_patrol(cli, j, secret_file)
    box = tmp_path / "mail"
    box.mkdir()
    m = mail(box, 1, BRITISH, keys["british"], ROLLS, AGAIN, "done")
    before = len(_lines(j))
    out = tmp_path / "out"
    r = cli("inbox", j, m, "--outbox", out, "--format", "json")
    assert r.exit_code == 0, r.stderr
    records = _lines(j)[before:]
    assert [rec["order"] for rec in records] == [ROLLS], records
    assert records[0]["test"]["dice"], records[0]           # the die it rolled stands
    text = _answer(out, BRITISH)
    head = " ".join(text.split("\n\n", 1)[0].split())
    assert head.startswith(f"Your mail was recorded up to a line that was refused: "
                           f"#{records[0]['seq']}."), head
    assert "were not taken" in head, head
    assert AGAIN in text and "B2 has moved this turn" in text, text
    # The mail's line 5 (after its key and a blank line), named as the mail numbers it.
    assert "Not taken: line 5 'done'.\n\n#" in text, text


@pytest.mark.parametrize("lines", [
    ("done", ROLLS),                        # 'done' rolls nothing; the move after it is refused
    (ROLLS, "mvoe B3 mode=stealthy"),       # every line is read before any die is rolled
])
def test_a_mail_refused_before_any_die_is_rolled_records_nothing(cli, tmp_path, secret_file,
                                                                 lines):
    j = tmp_path / "patrol.jsonl"
    keys = mailed_patrol(cli, j, secret_file)
    box = tmp_path / "mail"
    box.mkdir()
    m = mail(box, 1, BRITISH, keys["british"], *lines)
    raw = j.read_bytes()
    out = tmp_path / "out"
    assert cli("inbox", j, m, "--outbox", out).exit_code == 0
    assert j.read_bytes() == raw
    assert _answer(out, BRITISH).startswith("Nothing of your mail was recorded")


def test_orders_at_the_command_line_stop_at_the_refused_one_once_a_die_is_rolled(
        cli, patrol):
    before = len(_lines(patrol))
    r = cli("order", patrol, "--as", "british", ROLLS, AGAIN, "done")
    assert r.exit_code == 1, r.output
    assert [rec["order"] for rec in _lines(patrol)[before:]] == [ROLLS]
    assert "B2 may move up to" in r.stdout                  # its test, printed
    line = r.stderr.strip()
    assert "\n" not in line and "B2 has moved this turn" in line, line
    assert "order 1 stands, recorded once dice were rolled" in line, line
    assert f"order 2 ('{AGAIN}') was refused; not taken: 'done'" in line, line
    # In JSON: the record taken on standard output, the refusal as the error line.
    r = cli("order", patrol, "--as", "british", "move B3 mode=manoeuvre command=yes",
            "move B3 mode=stealthy", "--format", "json")
    assert r.exit_code == 1
    assert [x["record"] for x in json.loads(r.stdout)["records"]] == [before + 1]
    err = json.loads(r.stderr)
    assert err["kind"] == "illegal_order" and err["exit"] == 1, err
    assert "order 1 stands" in err["error"], err


def test_a_mail_applied_in_part_before_a_stopped_run_is_answered_with_its_refused_line(
        cli, tmp_path, secret_file):
    """A run stopped once the mail's first line stood: the next run's answer names the line
    refused and those not taken, as the stopped run's would have, not 'recorded' alone (the
    player would believe his 'done' was taken)."""
    j = tmp_path / "patrol.jsonl"
    keys = mailed_patrol(cli, j, secret_file)
    box = tmp_path / "mail"
    box.mkdir()
    m = mail(box, 1, BRITISH, keys["british"], ROLLS, AGAIN, "done")
    out = tmp_path / "out"
    killed = subprocess.run([sys.executable, "-m", "referee", "inbox", str(j), str(m),
                             "--outbox", str(out)],
                            env={**os.environ, "REFEREE_FAULT": "direct applied"},
                            capture_output=True, timeout=120)
    assert killed.returncode == 70, killed.stderr
    assert [rec["order"] for rec in _lines(j)[1:]] == [ROLLS]
    r = cli("inbox", j, m, "--outbox", out, "--format", "json")
    assert r.exit_code == 0, r.stderr
    told = json.loads(r.stdout)["messages"][0]
    assert told["status"] == "applied" and told["reason"].startswith("line 4 refused"), told
    text = _answer(out, BRITISH)
    assert text.startswith("Your mail was recorded up to a line that was refused: #1"), text
    assert AGAIN in text and "B2 has moved this turn" in text, text
    assert "Not taken: line 5 'done'." in text, text
    assert [rec["order"] for rec in _lines(j)[1:]] == [ROLLS]      # nothing decided again


@pytest.mark.parametrize("lines, at, records, not_applied", [
    # refused before any die rolled: nothing recorded, the other lines not applied either
    (("done", '{"bad": 1}'), 1, 0, ["done"]),
    (("done", ROLLS, "done"), 1, 0, ["done", "done"]),
    # refused once a die rolled: the line before it stands, those after it are not applied
    ((ROLLS, AGAIN, "done"), 1, 1, ["done"]),
])
def test_a_batch_s_json_says_what_became_of_each_order(cli, patrol, lines, at, records,
                                                       not_applied):
    """docs/scripting.md: a skirmish's orders result names, as a campaign's order-result
    does, the order rejected and in `not_applied` every other order that made no record."""
    before = len(_lines(patrol))
    r = cli("order", patrol, "--as", "british", "--format", "json", "--file", "-",
            input="\n".join(lines) + "\n")
    assert r.exit_code == 1, r.output
    result = json.loads(r.stdout)
    assert result["rejected"]["index"] == at, result
    assert len(result["records"]) == records == len(_lines(patrol)) - before
    assert result["not_applied"] == not_applied
