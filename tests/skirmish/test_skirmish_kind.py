"""The skirmish plugs in through its GameKind: the commands every game answers take a
skirmish's journal as they take a campaign's, in text and in JSON (each document valid
against its schema), and a feature the skirmish lacks is one line and exit 2."""

from __future__ import annotations

import json

import jsonschema
import pytest
from skirmish_cases import said_done
from test_skirmish_mail import BRITISH, GERMAN, mail, mailed_patrol

from referee.contracts.schemas import schema


def valid(text: str, name: str) -> dict:
    doc = json.loads(text)
    jsonschema.Draft202012Validator(schema(name)).validate(doc)
    return doc


@pytest.fixture
def played(cli, tmp_path, secret_file):
    """A mailed patrol where the British moved B2 and said done: the game waits on the
    German in the movement phase."""
    j = tmp_path / "patrol.jsonl"
    keys = mailed_patrol(cli, j, secret_file)
    r = cli("order", j, "--as", "british", "move B2 mode=manoeuvre command=yes", "done",
            "--format", "json")
    assert r.exit_code == 0, r.stderr
    doc = valid(r.stdout, "skirmish-orders")
    assert [x["record"] for x in doc["records"]] == [1, 2]
    return j, keys


def records(j) -> list[dict]:
    return [json.loads(line) for line in j.read_bytes().splitlines()]


def test_order_takes_a_side_s_tests_all_or_none_in_text_too(cli, played):
    j, _ = played
    before = j.read_bytes()
    r = cli("order", j, "--as", "german", "move G2 mode=stealthy command=yes", "fire G1")
    assert r.exit_code == 1 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert j.read_bytes() == before                    # the first was not kept either
    r = cli("order", j, "--as", "german", "move G2 mode=stealthy command=yes")
    assert r.exit_code == 0, r.stderr
    test = records(j)[-1]["test"]
    assert r.stdout.splitlines()[0] == "#3 German: move G2 mode=stealthy command=yes"
    assert f"-> {test['result']} ({test['rule']})" in r.stdout.splitlines()[1]


def test_status_and_show_say_whom_the_skirmish_waits_on(cli, played):
    j, _ = played
    for reader in ("public", "german", "moderator"):
        doc = valid(cli("status", j, "--as", reader, "--format", "json").stdout,
                    "skirmish-status")
        assert doc["waiting_on"] == ["german"] and doc["phase"] == "movement"
        assert doc["seq"] == 2 and "move" in doc["tests"] and doc["tests"][-1] == "done"
    text = cli("status", j).stdout
    assert "Waiting on the German player: turn 1" in " ".join(text.split())
    shown = valid(cli("show", j, "--format", "json").stdout, "skirmish-report")
    assert [t["record"] for t in shown["tests"]] == [1]
    assert "B2" in cli("show", j, "--format", "markdown").stdout
    early = valid(cli("show", j, "--at", "0", "--format", "json").stdout, "skirmish-report")
    assert early["tests"] == [] and early["waiting"] == ["british"]   # a British unit moves first


def test_log_report_explain_and_dice_read_the_journal(cli, played):
    j, _ = played
    lines = cli("log", j, "--as", "moderator", "--format", "json").stdout.splitlines()
    assert [json.loads(x) for x in lines] == records(j)
    valid(lines[0], "skirmish-journal-header")
    for line in lines[1:]:
        valid(line, "skirmish-journal-record")
    assert cli("log", j).stdout.splitlines()[1] == \
        "#1 British: move B2 mode=manoeuvre command=yes"
    report = valid(cli("report", j, "--format", "json").stdout, "skirmish-report")
    assert report == valid(cli("skirmish", "report", j, "--format", "json").stdout,
                           "skirmish-report")
    assert cli("report", j).stdout == cli("skirmish", "report", j).stdout
    test = records(j)[1]["test"]
    shown = valid(cli("explain", j, "1", "--format", "json").stdout, "skirmish-explained")
    assert shown["test"]["dice"] == test["dice"] and shown["test"]["result"] == test["result"]
    assert test["result"] in cli("explain", j, "1").stdout
    counts = valid(cli("dice", j, "--format", "json").stdout, "skirmish-dice")
    (die,) = test["dice"]
    faces = [0] * die["die"]
    faces[die["value"] - 1] = 1
    assert counts["dice"] == [{"side": "british", "die": die["die"], "rolled": 1,
                               "faces": faces}]
    assert cli("dice", j).exit_code == 0


def test_verify_reveal_and_players(cli, played, secret_file):
    j, keys = played
    done = valid(cli("verify", j, "--secret", secret_file, "--format", "json").stdout,
                 "verify-result")
    assert done["result"] == "ok" and done["records"] == 3 and len(done["keys"]) == 1
    listed = valid(cli("players", j, "--keys", "--format", "json").stdout, "players")
    assert {p["side"]: (p["address"], p["key"]) for p in listed["players"]} == {
        "british": (BRITISH, keys["british"]), "german": (GERMAN, keys["german"])}
    assert BRITISH in cli("players", j).stdout
    r = cli("reveal", j, "--force", "--format", "json")
    assert valid(r.stdout, "reveal-result")["seq"] == 3
    assert cli("verify", j).exit_code == 0


def test_inbox_and_tick(cli, played, tmp_path):
    j, keys = played
    box = tmp_path / "mail"
    box.mkdir()
    sent = mail(box, 1, GERMAN, keys["german"], "move G2 mode=stealthy command=yes")
    r = cli("inbox", j, sent, "--outbox", tmp_path / "out", "--format", "json")
    doc = valid(r.stdout, "inbox-result")
    assert [(m["side"], m["status"], m["records"]) for m in doc["messages"]] == \
        [("german", "applied", [3])]
    again = cli("inbox", j, sent, "--outbox", tmp_path / "out")
    assert again.exit_code == 0 and "1 older message already handled" in again.stdout, \
        again.stderr
    r = cli("tick", j, "--format", "json")            # run by hand: no route for tick
    assert r.exit_code == 3 and "no mail target" in r.stdout


@pytest.mark.parametrize("args", [
    ["map", "{j}", "-o", "{tmp}/m.png"], ["area", "{j}", "B2"], ["standing", "{j}", "--as",
    "british"], ["deadline", "{j}"], ["extend", "{j}", "british", "24h"],
    ["upgrade", "{j}"], ["rekey", "{j}"],
    ["players", "{j}", "--set", "british=x@example.org"], ["verify", "{j}", "--export", "public"]])
def test_what_a_skirmish_lacks_is_one_line_and_exit_2(cli, played, tmp_path, args):
    j, _ = played
    before = j.read_bytes()
    r = cli(*[a.format(j=j, tmp=tmp_path) for a in args])
    assert r.exit_code == 2, (args, r.stderr)
    (line,) = r.stderr.strip().splitlines()
    assert "a game of kind skirmish has no" in line
    assert j.read_bytes() == before and not (tmp_path / "m.png").exists()


@pytest.mark.parametrize("args", [
    ["status", "{j}"], ["show", "{j}"], ["log", "{j}"], ["report", "{j}"],
    ["report", "{j}", "--format", "bbcode"], ["explain", "{j}", "2"], ["dice", "{j}"],
    ["verify", "{j}"], ["players", "{j}"], ["mail", "{j}"], ["reveal", "{j}", "--force"]])
def test_every_command_answers_a_skirmish_in_text(cli, played, args):
    j, _ = played
    r = cli(*[a.format(j=j) for a in args])
    assert r.exit_code == 0 and r.stdout.strip() and not r.stderr, (args, r.stderr)


def test_a_reader_who_is_nobody_in_the_skirmish_is_refused(cli, played):
    j, _ = played
    for command in ("status", "show", "log", "report", "dice"):
        r = cli(command, j, "--as", "french")
        assert r.exit_code == 2 and "french" in r.stderr, (command, r.stderr)


def test_each_kind_answers_every_question_of_a_game_kind():
    """GameKind's methods are what a command may ask of a game: each kind answers them all
    (none is left to the base, which has no answer)."""
    from referee.table import kind_named
    from referee.table.kinds import GameKind

    asked = {name for name, v in vars(GameKind).items()
             if callable(v) and not name.startswith("_") and name != "needs"}
    assert {"open", "load", "shapes", "setup", "sides", "verbs", "parse", "format", "decide",
            "evolve", "legal_orders", "waiting_on", "prompt", "default_order", "status_view",
            "show_view", "report", "explain"} <= asked
    for name in ("campaign", "skirmish"):
        kind = type(kind_named(name))
        left = sorted(m for m in asked if getattr(kind, m) is getattr(GameKind, m))
        assert not left, f"the {name} kind does not answer {left}"


def test_the_kinds_answer_for_their_games(played, game):
    """What a kind says of its game agrees with what its commands print: whom it waits on,
    the orders open, an order read and written back, the answer for a missed deadline."""
    from referee.table import Table

    j, _ = played
    skirmish = Table(j)
    kind = skirmish.kind
    assert kind.name == "skirmish" and kind.waiting_on(skirmish) == ["german"]
    assert kind.legal_orders(skirmish, "british") == []            # he said done
    assert kind.legal_orders(skirmish, "german")[-1] == "done"
    order = kind.parse(skirmish, "move G2 mode=stealthy command=yes")
    assert kind.format(order) == "move G2 mode=stealthy command=yes"
    assert kind.default_order(skirmish, "german") == ("done", "Sequence of Play")
    assert kind.setup(skirmish).tests == [] and kind.shapes()[0].__name__ == "SkirmishHeader"
    campaign = Table(game)
    kind = campaign.kind
    assert kind.name == "campaign" and kind.waiting_on(campaign) == ["german"]
    legal = kind.legal_orders(campaign, "german")
    assert "play offensive" in legal
    assert kind.format(kind.parse(campaign, "play offensive")) == "play offensive"
    assert kind.default_order(campaign, "german")[0] in legal
    assert kind.setup(campaign).seq == 0


# ---------------------------------------------------------------- hostile journals

def rechained(src, dst, edit) -> None:
    """src's records edited by edit(records), chained again without signatures: what anyone
    who can write the folder can make with the referee's own code."""
    from referee.store.chain import line_of, seal

    recs = records(src)
    edit(recs)
    out, prev = [], None
    for rec in recs:
        rec.pop("sig", None)
        if prev is not None:
            rec["prev"] = prev
        rec = seal(rec)
        prev = rec["hash"]
        out.append(line_of(rec))
    dst.write_bytes(b"".join(out))
    dst.chmod(0o600)


READS = [["status", "{j}"], ["show", "{j}", "--format", "json"], ["log", "{j}"],
         ["report", "{j}"], ["explain", "{j}", "1"], ["dice", "{j}", "--format", "json"],
         ["players", "{j}"]]


def _one_line(r, code: int) -> str:
    assert r.exit_code == code, (r.exit_code, r.stderr)
    (line,) = r.stderr.strip().splitlines()
    return line


def _as_a_player(cli, bad, tmp_path, monkeypatch) -> None:
    """The moderator's referee refuses a journal of its game chained again without its
    signatures before reading further; the checks below are a player's referee's, reading
    a copy (it holds nothing of the game)."""
    from forging import as_user

    assert "carries no signature" in _one_line(cli("status", bad), 3)
    player = tmp_path / "player-home"
    player.mkdir(mode=0o700)
    as_user(monkeypatch, player)


@pytest.mark.parametrize("edit,says", [
    (lambda rs: rs[0].__setitem__("game_kind", "chess"), "record 0 names the kind of game"),
    (lambda rs: rs[0].__setitem__("game_kind", 7), "record 0 names the kind of game 7"),
    (lambda rs: rs[1].__setitem__("test", [1, 2]), "record 1 breaks the journal's contract"),
    (lambda rs: rs[1].__setitem__("turn", "one"), "record 1 breaks the journal's contract"),
    (lambda rs: rs[0].__setitem__("players", ["a"]), "record 0 breaks the journal's contract"),
    (lambda rs: rs[0]["scenario_data"].__setitem__("sides", "british"),
     "record 0's card or scenario is malformed"),
])
def test_a_hostile_skirmish_journal_is_one_line_and_exit_3(cli, played, tmp_path, edit, says,
                                                           monkeypatch):
    j, _ = played
    bad = tmp_path / "bad.jsonl"
    rechained(j, bad, edit)
    _as_a_player(cli, bad, tmp_path, monkeypatch)
    for args in READS:
        line = _one_line(cli(*[a.format(j=bad) for a in args]), 3)
        assert says in line, (args, line)


@pytest.mark.parametrize("edit", [
    lambda rs: rs[0]["card_data"].__setitem__("aimed_scores", 7),
    lambda rs: rs[0]["card_data"].pop("weapons"),
    lambda rs: rs[0]["card_data"].__setitem__("zz", 1),
    lambda rs: rs[0]["scenario_data"].__setitem__("off_table_artillery", ["nobody"]),
    lambda rs: rs[0]["scenario_data"].__setitem__("forces", {}),
])
def test_an_order_to_a_skirmish_whose_card_is_damaged_is_one_line_and_exit_3(
        cli, played, tmp_path, edit):
    """`skirmish order` reads the card and forces of record 0 as `order` and `reveal` do: one
    that is not a card, or names a side the game does not have, is the journal's fault (exit
    3, one line), never the referee's, and nothing is written. The journal is the moderator's own,
    rewritten and signed again with the game's key (forging.py), so that the order gets as
    far as the card."""
    from forging import forget_mark, write_resigned

    j, _ = played
    recs = records(j)
    edit(recs)
    bad = tmp_path / "bad.jsonl"
    write_resigned(bad, recs)
    forget_mark(bad)
    before = bad.read_bytes()
    for args in (["skirmish", "order", bad, "done", "--as", "german"],
                 ["order", bad, "done", "--as", "german"], ["reveal", bad, "--force"]):
        line = _one_line(cli(*args), 3)
        assert line.startswith("referee: bad.jsonl: "), (args, line)
    assert bad.read_bytes() == before


def test_skirmish_report_shows_the_game_only_as_this_referee_wrote_it(cli, played, tmp_path,
                                                                      monkeypatch):
    """`skirmish report` shows a game as `status` does: a journal of this referee's game
    whose test was edited and chained again without the key is refused on one line, exit 3,
    nothing printed and nothing changed; a player's referee, holding nothing of the game,
    reads the same copy as it says."""
    j, _ = played
    rechained(j, j, lambda rs: rs[1]["test"]["dice"][0].__setitem__("value", 6))
    before = j.read_bytes()
    r = cli("skirmish", "report", j)
    assert "carries no signature" in _one_line(r, 3) and r.stdout == ""
    assert j.read_bytes() == before
    _as_a_player(cli, j, tmp_path, monkeypatch)
    assert cli("skirmish", "report", j).exit_code == 0


def test_a_campaign_header_that_says_skirmish_is_one_line_and_exit_3(cli, game, tmp_path,
                                                                    monkeypatch):
    bad = tmp_path / "bad.jsonl"
    rechained(game, bad, lambda rs: rs[0].__setitem__("game_kind", "skirmish"))
    _as_a_player(cli, bad, tmp_path, monkeypatch)
    for args in READS:
        assert "record 0 breaks the journal's contract" in \
            _one_line(cli(*[a.format(j=bad) for a in args]), 3), args


def test_a_skirmish_order_needs_an_order_a_side_and_takes_the_moderator_s_ruling(cli, played):
    j, _ = played
    before = j.read_bytes()
    assert "no orders given" in _one_line(cli("order", j, "--as", "german"), 2)
    assert "--as french" in _one_line(cli("order", j, "--as", "french", "done"), 2)
    assert "e.g. british" in _one_line(cli("order", j, "done"), 2)
    assert "--since 99" in _one_line(cli("report", j, "--since", "99"), 2)
    assert j.read_bytes() == before
    r = cli("order", j, "--as", "german", "dispute record=1 fact=mode value=rush")
    assert r.exit_code == 0, r.stderr
    r = cli("order", j, "--as", "moderator", "settle record=1 uphold=yes", "--format", "json")
    assert r.exit_code == 0, r.stderr
    (made,) = valid(r.stdout, "skirmish-orders")["records"]
    assert made["body"]["settle"] == {"record": 1, "upheld": True}
    assert "upheld" in cli("report", j).stdout
    assert "#4" not in cli("report", j, "--since", "1").stdout.split("Tests:")[0]


def test_the_tests_a_skirmish_offers_are_orders_it_reads(cli, played):
    """The card's aimed fire is ordered as `fire`: every first word status offers is one an
    order may start with; none once the secret is revealed."""
    from referee.table.skirmish.order_text import KINDS

    j, _ = played
    for side in ("german", "british", "german"):      # to the fire phases
        assert cli("order", j, "--as", side, "done").exit_code == 0
    offered = valid(cli("status", j, "--format", "json").stdout, "skirmish-status")
    assert "fire" in offered["tests"] and "aimed" not in offered["tests"]
    assert set(offered["tests"]) <= set(KINDS)
    assert cli("reveal", j, "--force").exit_code == 0
    closed = valid(cli("status", j, "--format", "json").stdout, "skirmish-status")
    assert closed["tests"] == [] and closed["revealed"]


def test_a_torn_skirmish_journal_is_named_torn_with_its_mend(cli, played, tmp_path):
    """A journal cut inside its last line (a crash, a copy cut short): every command says
    the record is torn and that `repair` removes only that tail, as for a campaign."""
    j, _ = played
    torn = tmp_path / "torn.jsonl"
    torn.write_bytes(j.read_bytes()[:-40])
    torn.chmod(0o600)
    for args in READS:
        line = _one_line(cli(*[a.format(j=torn) for a in args]), 3)
        assert "record 2 is torn" in line and "referee repair" in line, (args, line)


def test_the_forces_name_each_figure_s_role_and_gear_as_the_scenario_gives_them(cli, played):
    """What the orders and modifiers read of a figure (games/skirmish/scenarios/patrol.yaml):
    who may give command=, the sniper a spotter needs a 6 for, the marksman, the bombers,
    body armour and a gas mask. A player reads them in his report and in show."""
    j, _ = played
    report = cli("skirmish", "report", j, "--as", "german").stdout
    shown = cli("show", j).stdout
    for line in ("B0 gallant pistol, platoon commander: active",
                 "B1 regular rifle, squad leader: active",
                 "B3 veteran rifle, marksman: active", "B5 regular grenade, bomber: active",
                 "G1 stubborn smg, squad leader, body armour: active",
                 "G3 stubborn rifle, gas mask: active", "G5 veteran rifle, sniper: active",
                 "G2 stubborn rifle: active"):
        assert f"   {line}\n" in report and f"- {line}\n" in shown, (line, report, shown)


def _melee(cli, patrol) -> int:
    """B1 assaults into contact with G1, every other step is closed with done (the patrol
    has no off-table artillery: its phase is passed over), and B1 and G1 fight in the
    melee phase: the melee's record number."""
    assert cli("order", patrol, "--as", "british", "move B1 mode=assault contact=yes "
               "at=G1 command=yes", "done").exit_code == 0
    for side in ["german"] + ["british", "german"] * 3:
        r = said_done(cli, patrol, side)
        assert r.exit_code == 0, r.stderr
    r = cli("order", patrol, "--as", "british", "melee G1 attackers=B1")
    assert r.exit_code == 0, r.stderr
    return records(patrol)[-1]["seq"]


def test_explain_tells_a_melee_s_dice_by_figure_and_its_facts_as_typed(cli, patrol):
    """explain on a test with modifiers (G1's body armour) ends in no internal error; a
    melee's dice are each named by the figure rolled for (the defender's first, as the
    card's test rolls them: dicetests.melee), since its result names the attacker first;
    the facts read as an order types them."""
    seq = _melee(cli, patrol)
    rec = records(patrol)[seq]["test"]
    first, second = (d["value"] for d in rec["dice"])
    for text in (cli("explain", patrol, str(seq)).stdout,
                 cli("skirmish", "report", patrol).stdout):
        flat = " ".join(text.split())
        assert f"D6={first} (G1) D6={second} (B1); modifiers" in flat, flat
        assert "+1 wearing body armour (G1)" in flat, flat
    explained = cli("explain", patrol, str(seq))
    assert explained.exit_code == 0 and "facts declared: attackers=B1" in explained.stdout
    moved = cli("explain", patrol, "1")
    assert moved.exit_code == 0, moved.stderr
    assert "facts declared: at=G1, command=yes, contact=yes, mode=assault" in moved.stdout
    doc = valid(cli("explain", patrol, str(seq), "--format", "json").stdout,
                "skirmish-explained")
    assert doc["test"]["subject"] == "G1" and doc["test"]["kind"] == "melee"
