"""Every fact a test depends on is stated or shown: a fact whose omission would favour the
side declaring it is recorded with the card's default (card.yaml defaults), shown in the
report, and may be disputed; an aimed shot beyond 18" must state the target's state."""

from __future__ import annotations

import json

import msgspec
from skirmish_cases import CARD, ONE_STEP, Table, done_until, figure

from referee.base.errors import OrderSyntaxError
from referee.table.skirmish import report
from referee.table.skirmish.order_text import parse_order


def test_cover_left_out_is_recorded_as_none_and_shown():
    """"-2 if target in hard cover": leaving cover out must not drop the -2 unseen."""
    t = Table(red=[figure("R1")], blue=[figure("B1")])
    got = t.test("red", "fire R1 at=B1 range=10 command=yes", [16])
    assert got["facts"]["cover"] == "none"
    line = report.test_lines({**got, "record": 1, "side": "red",
                       "order": "fire R1 at=B1 range=10 command=yes"})[0]
    assert line == "#1 Red: fire R1 at=B1 range=10 command=yes (not stated, taken as cover=none)"


def test_an_aimed_shot_beyond_18_inches_states_the_target_s_state():
    """"-1 if target stationary or moving 'stealthily' over 18" away"."""
    t = Table(red=[figure("R1"), figure("R2")], blue=[figure("B1")])
    rule, why = t.refusal("red", "fire R1 at=B1 range=30 command=yes")
    assert rule == "Aimed Fire (D20)" and why.startswith("declare state=")
    assert t.refusal("red", "fire R1 at=B1 range=18 command=yes") is None
    assert "state" not in t.test("red", "fire R2 at=B1 range=18 command=yes", [1])["facts"]


def test_advancing_is_recorded_only_where_it_counts():
    """"+1 if target is Ferocious and advancing": recorded (no) for a Ferocious target."""
    t = Table(red=[figure("R1"), figure("R2")], blue=[figure("B1", "ferocious"), figure("B2")])
    fierce = t.test("red", "unaimed R1 at=B1 range=10 command=yes", [1])
    assert fierce["facts"] == {"at": ["B1"], "range": 10, "command": True, "cover": "none",
                               "advancing": False}
    plain = t.test("red", "unaimed R2 at=B2 range=10 command=yes", [1])
    assert "advancing" not in plain["facts"]


def test_a_card_without_defaults_records_what_was_stated():
    old = msgspec.structs.replace(ONE_STEP, defaults={})
    t = Table(red=[figure("R1")], blue=[figure("B1")], card=old)
    assert "cover" not in t.test("red", "fire R1 at=B1 range=30 command=yes", [1])["facts"]


def test_a_default_is_disputed_and_settled_like_a_stated_fact(cli, tmp_path):
    """The German leaves cover out and pins B1 (D20 16: "15-17 Pinned"); the British
    dispute it as hard cover; the moderator agrees: 16 - 2 = 14, "14 or less: Miss"."""
    j = tmp_path / "m.jsonl"
    assert cli("new", j, "--game", "skirmish", "--scenario", "patrol", "--dice",
               "manual").exit_code == 0
    done_until(cli, j, "fire")
    r = cli("order", j, "--as", "german", "fire G5 at=B1 range=10 command=yes", "--dice", "16")
    assert r.exit_code == 0 and "(not stated, taken as cover=none)" in r.stdout, r.stdout
    assert "B1 pinned" in r.stdout
    assert cli("order", j, "--as", "british", "dispute record=3 fact=cover value=hard"
               ).exit_code == 0
    r = cli("order", j, "--as", "moderator", "settle record=3 fact=cover value=hard",
            "--format", "json")
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["records"][0]["body"]["settle"]["test"]["result"] == \
        "B1 miss (score 14; 15+ pinned, 18+ killed)"
    doc = json.loads(cli("skirmish", "report", j, "--format", "json").stdout)
    assert next(f for f in doc["figures"] if f["id"] == "B1")["pins"] == 0
    assert cli("verify", j).exit_code == 0



def test_a_mistyped_order_word_or_fact_is_refused_with_the_nearest():
    """A thumb's typo on a phone: the order's first word or a fact's name refused, the
    nearest the card knows named (as a campaign's unit, area or card names are); a fact
    the order does not read, or one given twice, names none."""
    def refused(text: str) -> str:
        try:
            parse_order(text, CARD)
        except OrderSyntaxError as exc:
            return str(exc)
        raise AssertionError(f"{text!r} was read")

    assert refused("mvoe B1 mode=stealthy").endswith("; did you mean move or morale?")
    assert refused("fire B1 at=G1 rnage=10").endswith("; did you mean range=?")
    assert "did you mean" not in refused("fire B1 at=G1 range=10 range=12")
    assert "did you mean" not in refused("xyzzy B1")
