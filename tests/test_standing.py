"""Standing orders: sealed answers given ahead, applied when their decision comes up and they
are legal then, kept secret from the opponent until used, re-decided by verify."""

from __future__ import annotations

import errno
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import gamecalls as g
from casebook import new_game, position
from referee.base.errors import UsageError
from referee.cli import commands
from referee.cli.app import app
from referee.game import standing as st
from referee.store import home as homemod
from referee.store.journal import redact
from referee.table import Table, showing


def artois(tmp, calais: str = "german", cavalry: bool = False):
    """1918: the 6. Armee attacks two British armies in Artois (the 5.4 case: forced dice;
    with Calais Entente, Artois' defenders have somewhere to go)."""
    uk1 = "uk-1 uk army artois 2I+1C" if cavalry else "uk-1 uk army artois 3I"
    sc = position("1918", player="german", dice="manual",
                  hands={"german": ["off-01"], "entente": ["ers2-01"]},
                  control={"somme": "german", "amiens": "german", "calais": calais,
                           "dunkirk": "german"},
                  forts={"fort-dunkirk": "out"},
                  units=["ge-6 ge army lille 3I+1S", uk1, "uk-3 uk army artois 3I"])
    return new_game(tmp, sc, None, "manual")


def give(journal, side, *add, withdraw=()):
    game = g.open_game(journal)
    return st.change(journal, side, game.data, game.state.turn, list(add), list(withdraw))


def play(journal, side, text, dice=None):
    r = g.submit(journal, side, [text], dice)
    assert r.rejected is None, r.rejected and str(r.rejected[2])
    return r.applied[-1].record


def attack(journal, dice="6,6,6,6,6,6,6,6,6,1"):
    """Offensive into Artois: defence 3 + 3 infantry all miss, the Stoßtruppen hit forces
    one retreat (8.2.2)."""
    play(journal, "german", "play offensive")
    play(journal, "german", "move ge-6 artois")
    return play(journal, "german", "end movement", dice)


def kinds(rec):
    return [e["type"] for e in rec["events"]]


def pending(journal):
    p = g.open_game(journal).state.pending
    return f"{p.kind} {p.side}"


def test_no_combat_cards_answers_the_defender_cards_decision(tmp_path):
    """2.0 II.3: 'no combat cards' answers the defender's combat-card decision with 'done';
    without it the defender (who holds a card) is asked."""
    j = artois(tmp_path)
    give(j, "entente", "no combat cards")
    rec = attack(j)
    applied = [e for e in rec["events"] if e["type"] == "StandingApplied"]
    assert [(e["side"], e["kind"], e["standing"]) for e in applied] == [
        ("entente", "defender_cards", "no combat cards")]
    assert pending(j) == "losses entente"
    assert g.verify(j).records > 0

    (tmp_path / "x").mkdir()
    j2 = artois(tmp_path / "x")
    attack_upto_cards(j2)
    assert pending(j2) == "defender_cards entente"


def attack_upto_cards(journal):
    play(journal, "german", "play offensive")
    play(journal, "german", "move ge-6 artois")
    play(journal, "german", "end movement")


def test_eliminate_answers_a_forced_retreat_nobody_can_make(tmp_path):
    """5.4: 'eliminate ARMY' names the army a forced retreat no army can make eliminates;
    'no retreat after combat' answers the attacker's retreat after combat (5.4.2)."""
    j = artois(tmp_path)
    give(j, "entente", "no combat cards", "eliminate uk-3")
    give(j, "german", "no retreat after combat")
    attack(j)
    play(j, "entente", "ersatz ersatz_2")
    game = g.open_game(j)
    last = game.records[-1]
    assert [e["kind"] for e in last["events"] if e["type"] == "StandingApplied"] == [
        "retreat_after", "forced_elimination"]
    assert any(e["type"] == "ArmyEliminated" and e["army"] == "uk-3" for e in last["events"])
    assert pending(j) == "card_or_pass entente"
    assert g.verify(j).records > 0


def test_a_standing_answer_not_legal_then_is_not_applied(tmp_path):
    """5.4: 'eliminate uk-2' names no army of the defender's in the battle: the decision is
    asked as usual; so is a retreat after combat the defender owes (8.2.2)."""
    j = artois(tmp_path)
    give(j, "entente", "no combat cards", "eliminate uk-2", "no retreat after combat")
    attack(j)
    play(j, "entente", "ersatz ersatz_2")
    play(j, "german", "done")
    assert pending(j) == "forced_elimination entente"
    last = g.open_game(j).records[-1]
    assert "StandingApplied" not in kinds(last)


def test_no_cavalry_retreat(tmp_path):
    """5.4.3: 'no cavalry retreat' answers the cavalry retreat before combat with 'done'."""
    j = artois(tmp_path, calais="entente", cavalry=True)
    give(j, "entente", "no combat cards")
    attack_upto_cards(j)
    assert pending(j) == "cavalry_retreat entente"
    (tmp_path / "b").mkdir()
    j2 = artois(tmp_path / "b", calais="entente", cavalry=True)
    give(j2, "entente", "no combat cards", "no cavalry retreat")
    attack_upto_cards(j2)
    rec = g.open_game(j2).records[-1]
    assert [e["kind"] for e in rec["events"] if e["type"] == "StandingApplied"] == [
        "defender_cards", "cavalry_retreat"]
    assert pending(j2) != "cavalry_retreat entente"


def test_stand_and_fight_answers_the_defence_before_the_fire(tmp_path):
    """5.4.1, 8.3.4: 'stand and fight' answers the defender's choice before the fire (no
    retreat instead of firing, no Biplane reaction) with 'done'; without it he is asked."""
    j = artois(tmp_path, calais="entente")
    give(j, "entente", "no combat cards")
    attack_upto_cards(j)
    assert pending(j) == "defence entente"
    (tmp_path / "b").mkdir()
    j2 = artois(tmp_path / "b", calais="entente")
    give(j2, "entente", "no combat cards", "stand and fight")
    rec = attack(j2)          # so the fire follows in the same record: its dice are given
    assert [(e["kind"], e["standing"]) for e in rec["events"]
            if e["type"] == "StandingApplied"] == [("defender_cards", "no combat cards"),
                                                   ("defence", "stand and fight")]
    assert "FireResolved" in kinds(rec)
    assert g.verify(j2).records > 0


def test_a_standing_answer_reads_as_the_answer_alone_to_all_but_its_owner(tmp_path):
    """player.md (Standing orders): the opponent learns a standing order only when it is
    used, as he would have learned the answer. Naming it as a standing order would tell him
    it answers every such decision to come, so the opponent and the public read the answer
    alone ('done') in the report, log and explain, text and JSON; its owner and the
    moderator read the order."""
    j = artois(tmp_path, calais="entente")
    give(j, "entente", "no combat cards", "stand and fight")
    rec = attack(j)
    runner = CliRunner()

    def read(reader):
        outs = []
        for cmd in (["log"], ["report"], ["explain", str(rec["seq"])]):
            for fmt in ("text", "json"):
                args = [cmd[0], str(j), *cmd[1:], "--as", reader, "--format", fmt]
                r = runner.invoke(app, args)
                assert r.exit_code == 0, r.output
                outs.append(r.output if cmd[0] != "log" or fmt == "text" else "")
        return "\n".join(outs)

    for reader in ("german", "public"):
        out = read(reader)
        assert "Entente answers (defence): done" in out
        assert "standing order" not in out and "stand and fight" not in out, reader
    for reader in ("entente", "moderator"):
        assert "Entente answers (defence) with his standing order 'stand and fight'" in \
            read(reader)


def test_withdrawn_and_this_turn(tmp_path):
    """A withdrawn standing order is no longer applied; one limited to this turn lapses."""
    j = artois(tmp_path)
    give(j, "entente", "no combat cards this turn")
    give(j, "entente", withdraw=["no combat cards"])
    attack_upto_cards(j)
    assert pending(j) == "defender_cards entente"
    assert give(j, "entente") == []
    with pytest.raises(UsageError, match="'no cavalry retreat' is not one of the Entente "
                                         "player's standing orders"):
        give(j, "entente", withdraw=["no cavalry retreat"])


def test_the_opponent_learns_nothing_before_use(tmp_path):
    """Every record of a side carries one sealed part of the same shape, with or without
    standing orders; the opponent's views, exports, log and report never name them."""
    j = artois(tmp_path)
    give(j, "entente", "eliminate uk-3")            # never used before the checks below
    attack_upto_cards(j)
    play(j, "entente", "done", "6,6,6,6,6,6,6,6,6,1")
    records = g.open_game(j).records
    side_recs = [r for r in records if r.get("actor") in ("german", "entente")]
    assert side_recs and all(set(r["standing"]) == {"to", "salt", "data"} for r in side_recs)
    for rec in side_recs:
        if rec["actor"] == "entente":
            seen = redact(rec, "german")["standing"]
            assert set(seen) == {"to", "digest"}
    runner = CliRunner()
    export = runner.invoke(app, ["log", str(j), "--as", "german", "--format", "json"]).output
    (tmp_path / "german.jsonl").write_text(export)
    r = runner.invoke(app, ["verify", str(tmp_path / "german.jsonl"), "--export", "german"])
    assert r.exit_code == 0, r.output
    outs = [export, r.output]
    for cmd in (["status"], ["show"], ["log"], ["report"]):
        for fmt in ("text", "json"):
            r = runner.invoke(app, cmd + [str(j), "--as", "german", "--format", fmt])
            outs.append(r.output)
    for out in outs:
        assert out and "eliminate uk-3" not in out.lower() and "standing order" not in out
    status = json.loads(commands.status(j, "german", "json"))
    assert status["standing"] == []
    mine = json.loads(commands.status(j, "entente", "json"))
    assert mine["standing"] == ["eliminate uk-3"]


def test_cli_standing_lists_adds_withdraws(tmp_path):
    j = artois(tmp_path)
    runner = CliRunner()
    r = runner.invoke(app, ["standing", str(j), "--as", "german", "--add",
                            "no retreat after combat", "--format", "json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["standing"] == ["no retreat after combat"]
    r = runner.invoke(app, ["standing", str(j), "--as", "german", "--withdraw",
                            "no retreat after combat"])
    assert r.exit_code == 0 and r.output == "German: no standing orders\n"
    r = runner.invoke(app, ["standing", str(j), "--as", "german", "--add", "no combat cards"])
    assert r.exit_code == 0 and r.output.startswith("German: standing orders (applied "), \
        r.output
    r = runner.invoke(app, ["standing", str(j), "--as", "german", "--add", "retreat please"])
    assert r.exit_code != 0 and "not a standing order" in r.output + (r.stderr or "")


def test_mail_standing_lines(tmp_path, cli):
    """A message may carry 'standing:' lines: alone they change the sender's standing orders
    (once, however often the mailbox is read); with orders they go with them, all or
    nothing."""
    from test_inbox import ADDRESSES, GAME, KEYS, SECRET, write_mbox

    from referee.store.dice import write_secret

    secret = tmp_path / "fixed.secret"
    write_secret(secret, SECRET)
    journal = tmp_path / "g.jsonl"
    assert cli("new", journal, "--scenario", "1914", "--game-id", GAME, "--secret-file", secret,
               *[a for side, addr in ADDRESSES.items()
                 for a in ("--player", f"{side}={addr}")]).exit_code == 0

    def mail(body: str, n: int) -> bytes:
        return (f"From: joffre@example.net\nTo: umpire@example.com\n"
                f"Subject: standing {n}\nMessage-ID: <s{n}@example.net>\n"
                f"Date: Sat, 01 Aug 1914 11:00:00 +0100\n\n{body}\n\n"
                f"Order key: {KEYS['entente']}\n").encode()

    box = write_mbox(tmp_path / "a.mbox", [mail("standing: no combat cards\n"
                                                 "standing: no cavalry retreat", 1)])
    for _run in range(2):
        r = cli("inbox", journal, box, "--format", "json")
        assert r.exit_code == 0, r.output
    assert [e["text"] for e in st.load(journal)["entente"]] == [
        "no combat cards", "no cavalry retreat"]
    before = journal.read_bytes()
    box = write_mbox(tmp_path / "b.mbox", [mail("standing: withdraw no combat cards\n"
                                                 "play offensive", 2)])
    r = cli("inbox", journal, box, "--format", "json")
    assert json.loads(r.stdout)["messages"][0]["status"] == "rejected"     # not his turn
    assert journal.read_bytes() == before
    assert len(st.load(journal)["entente"]) == 2                           # nothing applied
    box = write_mbox(tmp_path / "c.mbox", [mail("standing: retreat please", 3)])
    r = cli("inbox", journal, box, "--format", "json")
    out = json.loads(r.stdout)["messages"][0]
    assert out["status"] == "rejected" and "not a standing order" in out["reason"]


@pytest.mark.parametrize("planted", [
    b'{"entente": [{"text": "no combat cards", "turn": null}]}',     # plain JSON, unsigned
    b'{"german": [1]}',
    b"\xff\xfe not even text",
])
def test_a_standing_file_this_referee_did_not_write_is_refused(tmp_path, planted, cli):
    """Files in a game folder are hostile: standing orders planted beside the journal would
    answer a side's decisions for him. The file is signed; one that is not (or was edited) is
    refused with one clear line, the journal unchanged, and nothing is applied."""
    j = artois(tmp_path)
    st.store_path(j).write_bytes(planted)
    before = j.read_bytes()
    r = cli("order", j, "--as", "german", "play offensive")
    assert r.exit_code == 2, r.stderr
    assert "not written by this user's referee" in r.stderr and "Traceback" not in r.stderr
    assert j.read_bytes() == before
    with pytest.raises(UsageError):
        st.load(j)


def test_an_older_copy_of_the_standing_file_put_back_is_refused(tmp_path, cli):
    """Someone who can write the folder keeps a copy of the file while the Entente holds 'no
    combat cards', and puts it back once he has withdrawn it. Signed by this referee and
    bound to this game, it is still not the copy written last (the mark in the referee's
    home says which is): refused with one line, the journal unchanged, never applied for
    him. The copy written last reads again, and the attack then finds him asked."""
    j = artois(tmp_path)
    give(j, "entente", "no combat cards")
    old = st.store_path(j).read_bytes()
    give(j, "entente", withdraw=["no combat cards"])
    latest = st.store_path(j).read_bytes()
    st.store_path(j).write_bytes(old)
    with pytest.raises(UsageError, match="an older one was put back"):
        st.load(j)
    before = j.read_bytes()
    r = cli("order", j, "--as", "german", "play offensive")
    assert r.exit_code == 2 and "an older one was put back" in r.stderr, r.stderr
    assert j.read_bytes() == before
    st.store_path(j).write_bytes(latest)
    assert st.load(j)["entente"] == []
    attack_upto_cards(j)
    assert pending(j) == "defender_cards entente"


def test_a_standing_write_that_fails_leaves_the_copy_in_force_readable(tmp_path, cli,
                                                                      monkeypatch):
    """The game folder's disk is full while a side changes his standing orders: the change
    fails with one line, and the file in force (genuine, unchanged) is still read once the
    disk is freed, and the game plays on."""
    j = artois(tmp_path)
    give(j, "entente", "no combat cards")
    real = homemod.write_new
    path = st.store_path(j)

    def full(p, data, sync=True):
        if Path(p).parent == path.parent and Path(p).name.startswith(path.name):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(p, data, sync)

    monkeypatch.setattr(homemod, "write_new", full)
    with pytest.raises(UsageError, match="cannot write the standing orders"):
        give(j, "german", "no retreat after combat")
    monkeypatch.setattr(homemod, "write_new", real)
    # The disk is freed: the Entente's standing order, never withdrawn, is still his.
    assert [e["text"] for e in st.load(j)["entente"]] == ["no combat cards"]
    r = cli("order", j, "--as", "german", "play offensive")
    assert r.exit_code == 0, r.stderr


def test_a_mark_that_cannot_be_written_does_not_refuse_the_file_written(tmp_path, cli,
                                                                       referee_home,
                                                                       monkeypatch):
    """The referee home's disk is full (or its folder not writable) when a side changes his
    standing orders: the file is written, its mark is not (kept at best, as every mark);
    the copy just written, newer than the mark, is read, and the next order goes in."""
    j = artois(tmp_path)
    give(j, "entente", "no combat cards")
    real = homemod.write_new

    def full(p, data, sync=True):
        if Path(p).is_relative_to(referee_home / "written") and ".standing" in Path(p).name:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(p, data, sync)

    monkeypatch.setattr(homemod, "write_new", full)
    give(j, "german", "no retreat after combat")          # no error: it was kept
    monkeypatch.setattr(homemod, "write_new", real)
    assert [e["text"] for e in st.load(j)["german"]] == ["no retreat after combat"]
    r = cli("order", j, "--as", "german", "play offensive")
    assert r.exit_code == 0, r.stderr


def test_a_side_reading_while_the_other_changes_his_standing_orders_sees_his_own(tmp_path,
                                                                                 monkeypatch):
    """The German adds a standing order while the Entente's report is made (inbox, tick,
    report, status, show read the standing file without the journal's lock). A reader just
    before the new copy takes its place reads the copy in force, and the Entente's own
    standing order is in what he is sent."""
    j = artois(tmp_path)
    give(j, "entente", "no combat cards")
    reader = Table(j)
    assert reader.records                   # the journal read, before the German's change
    seen = {}
    real = homemod.replace_atomically

    def read_then_replace(path, data):
        if Path(path) == st.store_path(j):      # just before the new copy takes its place
            seen["sets"] = showing.standing_of(reader, "entente")
        return real(path, data)

    monkeypatch.setattr(homemod, "replace_atomically", read_then_replace)
    give(j, "german", "no retreat after combat")
    assert [e["text"] for e in seen["sets"].get("entente", [])] == ["no combat cards"], seen


def test_a_standing_file_deleted_by_someone_who_can_write_the_folder_is_not_read_as_none(
        tmp_path):
    """The mark says copy 1 was written; someone who can write the folder deletes the file:
    refused as an older copy put back is (the Entente's standing order is not silently
    dropped), saying what the moderator does."""
    j = artois(tmp_path)
    give(j, "entente", "no combat cards")
    st.store_path(j).unlink()                     # by someone who can write the folder
    with pytest.raises(UsageError, match="is gone, but this referee wrote copy 1") as told:
        st.load(j)
    assert "this referee's mark of it" in str(told.value)


def test_a_standing_file_deleted_before_the_other_side_changes_his_is_not_lost_for_good(
        tmp_path):
    """Deleted just before the German adds a standing order: his change is refused, rather
    than written numbered past the mark without the Entente's."""
    j = artois(tmp_path)
    give(j, "entente", "no combat cards")
    st.store_path(j).unlink()
    try:
        give(j, "german", "no cavalry retreat")
    except UsageError:
        return                                    # refused: nothing was lost
    assert [e["text"] for e in st.load(j).get("entente", [])] == ["no combat cards"]
    attack_upto_cards(j)
    assert pending(j) != "defender_cards entente"


def test_a_standing_change_whose_journal_write_and_undo_both_fail_is_not_kept(
        tmp_path, monkeypatch):
    """The disk fills between the standing file and the records (the same folder): the
    records' write fails part-way, then undo's write of the old standing orders fails too.
    The journal is cut back all the same, and the change is not kept without its records:
    the file is taken away, and the next reader is told what to do."""
    j = artois(tmp_path)
    give(j, "german", "no combat cards")
    before = j.read_bytes()
    path = st.store_path(j)
    real_all, real_new = homemod.write_all, homemod.write_new
    full = {"on": False}

    def write_all(fd, data):                      # the records: half written, then ENOSPC
        if b'"prev":' in bytes(data):
            real_all(fd, bytes(data)[: len(data) // 2])
            full["on"] = True
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_all(fd, data)

    def write_new(p, data, sync=True):            # from then on the disk is full
        if full["on"] and Path(p).name.startswith(path.name):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_new(p, data, sync)

    monkeypatch.setattr(homemod, "write_all", write_all)
    monkeypatch.setattr(homemod, "write_new", write_new)
    with pytest.raises(Exception) as caught:
        g.submit(j, "german", ["play offensive"], atomic=True,
                 standing_change=(["no cavalry retreat"], []))
    monkeypatch.setattr(homemod, "write_all", real_all)
    monkeypatch.setattr(homemod, "write_new", real_new)
    assert j.read_bytes() == before, (str(caught.value), len(before), len(j.read_bytes()))
    assert "cannot write the standing orders" not in str(caught.value)
    with pytest.raises(UsageError, match="is gone"):
        st.load(j)


def test_a_standing_file_removed_on_purpose_is_given_again_from_nothing(tmp_path):
    """The refusal says to remove the file and the referee's mark of it, and give the
    standing orders again: that works, and the copy then written is the one read."""
    j = artois(tmp_path)
    give(j, "entente", "no combat cards")
    old = st.store_path(j).read_bytes()
    give(j, "entente", withdraw=["no combat cards"])
    st.store_path(j).write_bytes(old)
    with pytest.raises(UsageError) as told:
        st.load(j)
    mark = Path(str(told.value).split("this referee's mark of it (")[1].split(")")[0])
    st.store_path(j).unlink()
    mark.unlink()
    assert st.load(j) == {}
    give(j, "german", "no retreat after combat")
    assert [e["text"] for e in st.load(j)["german"]] == ["no retreat after combat"]


def test_a_copy_from_before_the_standing_orders_were_begun_again_is_refused(tmp_path):
    """Someone who can write the folder renames the file away (copy 2: the Entente holds 'no
    combat cards'); the moderator does what the refusal says (the file and the mark removed)
    and the German gives his standing orders again: copy 1 of a new start. The copy renamed
    away, put back, numbers higher than the new one, yet it is from before the new start:
    refused, never applied for the Entente."""
    j = artois(tmp_path)
    give(j, "entente", "no combat cards")
    give(j, "entente", "no cavalry retreat")
    kept = tmp_path / "kept"
    st.store_path(j).rename(kept)                 # no need to read it: it is only moved
    with pytest.raises(UsageError, match="is gone") as told:
        st.load(j)
    Path(str(told.value).split("this referee's mark of it (")[1].split(")")[0]).unlink()
    give(j, "german", "no retreat after combat")
    latest = st.store_path(j).read_bytes()
    kept.rename(st.store_path(j))
    with pytest.raises(UsageError, match="put back"):
        st.load(j)
    st.store_path(j).write_bytes(latest)
    assert st.load(j) == {"german": [{"text": "no retreat after combat", "turn": None}]}


@pytest.mark.parametrize("command", ["status", "show"])
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_standing_file_not_this_referees_hides_nothing_else_from_a_side(tmp_path, cli,
                                                                          command, fmt):
    """A junk file planted beside the journal, or the moderator's own read by a player's
    referee: a side's `status` and `show` still show him the game, without standing orders,
    and say why on stderr; the public's are the same as without the file."""
    j = artois(tmp_path)
    public = cli(command, j, "--as", "public", "--format", fmt).stdout
    st.store_path(j).write_bytes(b"junk\n")
    r = cli(command, j, "--as", "german", "--format", fmt)
    assert r.exit_code == 0, r.stderr
    if fmt == "json":       # carried in the JSON: stderr holds no text line
        assert r.stderr == "" and "not written by this user's referee" in \
            json.loads(r.stdout)["warnings"][0]
    else:
        assert "warning:" in r.stderr and "not written by this user's referee" in r.stderr
    assert r.stdout and "standing" not in (json.loads(r.stdout) if fmt == "json" else {})
    assert cli(command, j, "--as", "public", "--format", fmt).stdout == public


@pytest.mark.parametrize("spoil", ["truncated", "huge"])
def test_a_truncated_or_huge_standing_file_is_refused(tmp_path, spoil):
    """The genuine file cut short, or grown past a megabyte behind its signed first lines:
    refused on one line, never read as none or as part of the orders."""
    j = artois(tmp_path)
    give(j, "entente", "no combat cards")
    path = st.store_path(j)
    blob = path.read_bytes()
    path.write_bytes(blob[:len(blob) // 2] if spoil == "truncated" else
                     blob + b" " * (2 << 20))
    with pytest.raises(UsageError, match="not written by this user's referee"):
        st.load(j)


def test_an_edited_standing_file_is_refused(tmp_path):
    """Signed by this referee, then one answer added by hand: refused, not applied."""
    j = artois(tmp_path)
    give(j, "german", "no retreat after combat")
    path = st.store_path(j)
    blob = path.read_bytes()
    path.write_bytes(blob.replace(b'"german"', b'"entente"'))
    with pytest.raises(UsageError, match="not written by this user's referee"):
        st.load(j)
    path.write_bytes(blob)
    assert [e["text"] for e in st.load(j)["german"]] == ["no retreat after combat"]


def test_a_dry_run_or_a_batch_cannot_probe_the_other_sides_standing_orders(tmp_path, cli):
    """A dry run and an all-or-nothing batch write nothing, so what they print may not depend
    on the other side's sealed standing orders: the German learns the same whether or not the
    Entente holds 'no combat cards' (2.0 II.3), and nothing is written either way."""
    said = {}
    for holds in (True, False):
        folder = tmp_path / str(holds)
        folder.mkdir()
        sc = position("1918", player="german",
                      hands={"german": ["off-01"], "entente": ["ers2-01"]},
                      control={"somme": "german", "amiens": "german", "calais": "german",
                               "dunkirk": "german"},
                      forts={"fort-dunkirk": "out"},
                      units=["ge-6 ge army lille 3I+1S", "uk-1 uk army artois 3I",
                             "uk-3 uk army artois 3I"])
        j = new_game(folder, sc, None, "committed")
        if holds:
            give(j, "entente", "no combat cards")
        play(j, "german", "play offensive")
        play(j, "german", "move ge-6 artois")
        before = j.read_bytes()
        out = []
        for args in (["--dry-run", "end movement"], ["--atomic", "end movement", "done"],
                     ["--dry-run", "--format", "json", "end movement"]):
            r = cli("order", j, "--as", "german", *args)
            out.append((r.exit_code, (r.stdout + r.stderr).replace(str(folder), "DIR")))
        assert j.read_bytes() == before
        said[holds] = out
    assert said[True] == said[False]
    # Committed for real, the standing order answers the Entente's question at once.
    rec = play(j.parent.parent / "True" / j.name, "german", "end movement")
    assert "StandingApplied" in kinds(rec)


@pytest.mark.parametrize("phrase", ["eliminate ge-6", "eliminate uk-1:infantry",
                                    "eliminate be-i-01", "eliminate fr-i-03"])
def test_eliminate_names_one_of_the_sides_own_armies(tmp_path, phrase):
    """5.4: the army a forced retreat eliminates is one of the owner's; a standing order for
    an enemy army, a unit on a template or a unit standing alone (be-i-01, a Belgian
    infantry division of the 1914 scenario) could never apply and is refused when given."""
    j = artois(tmp_path)
    with pytest.raises(UsageError, match="not one of the Entente player's armies"):
        give(j, "entente", phrase)
    assert st.load(j) == {}


def test_standing_orders_copied_from_another_game_are_refused(tmp_path):
    """The signed file is bound to its game (record 0): a copy of another game's standing
    orders beside this journal is refused, never applied for a side."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a, b = artois(tmp_path / "a"), artois(tmp_path / "b", calais="entente")
    give(a, "entente", "no combat cards")
    st.store_path(b).write_bytes(st.store_path(a).read_bytes())
    with pytest.raises(UsageError, match="another game"):
        st.load(b)
    assert [e["text"] for e in st.load(a)["entente"]] == ["no combat cards"]


def test_pay_hits_with_units_loses_the_only_unit_5_3_1_allows(tmp_path):
    """5.3, 5.3.1: 'pay hits with units' pays a hit with the one unit 5.3.1 leaves (the
    strongest army's most numerous type), never with the Ersatz card in hand; where 5.3.1
    leaves the owner a choice of units (two armies of equal strength) he is asked."""
    def game(sub, uk3, dice):
        (tmp_path / sub).mkdir()
        sc = position("1918", player="german", dice="manual",
                      hands={"german": ["off-01"], "entente": ["ers2-01"]},
                      control={"somme": "german", "amiens": "german", "calais": "german",
                               "dunkirk": "german"},
                      forts={"fort-dunkirk": "out"},
                      units=["ge-6 ge army lille 4I", "uk-1 uk army artois 3I",
                             f"uk-3 uk army artois {uk3}"])
        j = new_game(tmp_path / sub, sc, None, "manual")
        give(j, "entente", "no combat cards", "pay hits with units before cards")
        play(j, "german", "play offensive")
        play(j, "german", "move ge-6 artois")
        return j, play(j, "german", "end movement", dice)

    # the Entente's defensive dice all miss; the first German die hits (5.2.1 c, d);
    # uk-1 (3) is the strongest: no choice of unit
    j, rec = game("one", "2I", "6,6,6,6,6,1,6,6,6")
    assert [(e["kind"], e["standing"]) for e in rec["events"]
            if e["type"] == "StandingApplied"][-1] == ("losses", "pay hits with units")
    lost = [e for e in rec["events"] if e["type"] == "LossTaken"]
    assert [(e["side"], e["unit"], e["how"]) for e in lost] == [
        ("entente", "uk-1:infantry", "unit")]
    assert g.open_game(j).state.armies["uk-1"].strength == 2
    assert g.verify(j).records > 0
    # uk-1 and uk-3 both 3: the owner chooses
    j, rec = game("tie", "3I", "6,6,6,6,6,6,1,6,6,6")
    assert "LossTaken" not in kinds(rec)
    assert pending(j) == "losses entente"


def _lock_is_held(journal) -> bool:
    """Whether someone holds the journal's append lock now (a non-blocking try fails)."""
    import fcntl

    with open(journal, "rb") as f:
        try:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(f.fileno(), fcntl.LOCK_UN)
        return False


def test_standing_orders_are_written_under_the_journals_lock(tmp_path, monkeypatch):
    # A change kept beside the journal while another process appends would be lost or
    # applied to the wrong record: both ways of changing them hold the append lock.
    j = artois(tmp_path)
    seen = []
    real = st.save
    monkeypatch.setattr(st, "save", lambda journal, sets, *how: seen.append(_lock_is_held(j))
                        or real(journal, sets, *how))
    give(j, "entente", "no combat cards")
    r = g.submit(j, "german", ["play offensive"], atomic=True,
                 standing_change=(["no cavalry retreat"], []))
    assert r.rejected is None and seen == [True, True]
    assert [e["text"] for e in st.load(j)["german"]] == ["no cavalry retreat"]


def test_a_standing_change_goes_with_its_records_or_not_at_all(tmp_path, monkeypatch):
    j = artois(tmp_path)
    before = st.store_path(j).read_bytes() if st.store_path(j).exists() else None
    r = g.submit(j, "german", ["move ge-6 artois"], atomic=True,
                 standing_change=(["no cavalry retreat"], []))
    assert r.rejected is not None                      # not legal before the offensive card
    after = st.store_path(j).read_bytes() if st.store_path(j).exists() else None
    assert after == before
    # The journal cannot be written: the standing orders are put back as they were.
    give(j, "german", "no combat cards")
    records = len(g.open_game(j).records)
    from referee.store import home

    real = home.write_all

    def full(fd, data):                                # only the journal's records fail
        if b'"prev":' in bytes(data):
            raise OSError(28, "No space left on device")
        return real(fd, data)
    monkeypatch.setattr(home, "write_all", full)
    with pytest.raises(Exception, match="could not be written"):
        g.submit(j, "german", ["play offensive"], atomic=True,
                 standing_change=(["no cavalry retreat"], []))
    monkeypatch.setattr(home, "write_all", real)
    assert [e["text"] for e in st.load(j)["german"]] == ["no combat cards"]
    assert len(g.open_game(j).records) == records


def test_a_planted_standing_file_stops_the_inbox_and_loses_no_message(tmp_path, cli):
    # The moderator's to mend: the message is not answered as rejected, and once the file is
    # gone it is applied like any other.
    from test_inbox import ADDRESSES, GAME, KEYS, SECRET, write_mbox

    from referee.store.dice import write_secret

    secret = tmp_path / "fixed.secret"
    write_secret(secret, SECRET)
    journal = tmp_path / "g.jsonl"
    assert cli("new", journal, "--scenario", "1914", "--game-id", GAME, "--secret-file", secret,
               *[a for side, addr in ADDRESSES.items()
                 for a in ("--player", f"{side}={addr}")]).exit_code == 0
    st.store_path(journal).write_bytes(b'{"entente": [{"text": "no combat cards"}]}')
    box = write_mbox(tmp_path / "a.mbox", [(
        f"From: joffre@example.net\nTo: umpire@example.com\nSubject: standing\n"
        f"Message-ID: <p1@example.net>\nDate: Sat, 01 Aug 1914 11:00:00 +0100\n\n"
        f"standing: no cavalry retreat\n\nOrder key: {KEYS['entente']}\n").encode()])
    r = cli("inbox", journal, box, "--format", "json")
    assert r.exit_code == 2 and "not written by this user's referee" in r.stderr
    st.store_path(journal).unlink()
    r = cli("inbox", journal, box, "--format", "json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["messages"][0]["status"] == "applied"
    assert [e["text"] for e in st.load(journal)["entente"]] == ["no cavalry retreat"]


def test_a_run_killed_between_the_standing_file_and_the_records_applies_the_message_once(
        tmp_path, cli, monkeypatch):
    # The standing orders are kept just before the records, under the lock: a run that dies
    # between the two leaves a message the journal does not hold, which the next run applies
    # whole, standing line included, once.
    from test_inbox import ADDRESSES, GAME, KEYS, SECRET, write_mbox

    from referee.store.dice import write_secret

    secret = tmp_path / "fixed.secret"
    write_secret(secret, SECRET)
    journal = tmp_path / "g.jsonl"
    assert cli("new", journal, "--scenario", "1914", "--game-id", GAME, "--secret-file", secret,
               *[a for side, addr in ADDRESSES.items()
                 for a in ("--player", f"{side}={addr}")]).exit_code == 0
    box = write_mbox(tmp_path / "a.mbox", [(
        f"From: {ADDRESSES['german']}\nTo: umpire@example.com\nSubject: orders\n"
        f"Message-ID: <k1@example.org>\nDate: Sat, 01 Aug 1914 11:00:00 +0100\n\n"
        f"standing: no combat cards\npass\n\nOrder key: {KEYS['german']}\n").encode()])
    before = journal.read_bytes()
    _killed_run(cli, journal, box, monkeypatch, "records")   # the process dies at the records
    assert journal.read_bytes() == before
    r = cli("inbox", journal, box, "--format", "json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["messages"][0]["status"] == "applied"
    assert [e["text"] for e in st.load(journal)["german"]] == ["no combat cards"]
    with_mail = [rec for rec in g.open_game(journal).records if rec.get("mail")]
    assert len(with_mail) == 1
    r = cli("inbox", journal, box, "--format", "json")
    assert json.loads(r.stdout)["messages"] == [] or \
        json.loads(r.stdout)["messages"][0]["status"] != "applied"
    assert len([rec for rec in g.open_game(journal).records if rec.get("mail")]) == 1


def _killed_run(cli, journal, box, monkeypatch, at: str) -> None:
    """One inbox run that dies: between the standing file and the records ('records': the
    journal's write never returns), or once the message is handled and before the ledger
    says so ('applied': a real process, ended at that step)."""
    import os
    import subprocess
    import sys

    from referee.mail import ledger as ledgermod
    from referee.store import home

    if at == "applied":
        env = {**os.environ, ledgermod.FAULT_VARIABLE: at}
        r = subprocess.run([sys.executable, "-m", "referee", "inbox", str(journal), str(box),
                            "--format", "json"], capture_output=True, env=env, timeout=120)
        assert r.returncode == 70, r.stderr
        return
    real = home.write_all

    def killed(fd, data):
        if b'"prev":' in bytes(data):
            raise SystemExit(137)
        return real(fd, data)
    monkeypatch.setattr(home, "write_all", killed)
    cli("inbox", journal, box, "--format", "json")
    monkeypatch.setattr(home, "write_all", real)


@pytest.mark.parametrize("body, at", [
    ("standing: withdraw no combat cards\npass", "records"),
    ("standing: withdraw no combat cards\nstanding: no cavalry retreat", "applied"),
])
def test_a_run_killed_after_a_standing_withdrawal_applies_the_message_once(
        tmp_path, cli, monkeypatch, body, at):
    """A mail withdraws a standing order, and the run dies before the journal (or, for a
    mail of standing lines only, the ledger) holds it. The change never counts without the
    records it goes with, and the next run applies the whole message once, as sent: never
    refused for a withdrawal already kept, with its orders left unapplied and the sender
    told that nothing was."""
    from test_inbox import ADDRESSES, GAME, KEYS, SECRET, write_mbox

    from referee.store.dice import write_secret

    secret = tmp_path / "fixed.secret"
    write_secret(secret, SECRET)
    journal = tmp_path / "g.jsonl"
    assert cli("new", journal, "--scenario", "1914", "--game-id", GAME, "--secret-file", secret,
               *[a for side, addr in ADDRESSES.items()
                 for a in ("--player", f"{side}={addr}")]).exit_code == 0
    give(journal, "german", "no combat cards")
    box = write_mbox(tmp_path / "a.mbox", [(
        f"From: {ADDRESSES['german']}\nTo: umpire@example.com\nSubject: orders\n"
        f"Message-ID: <w1@example.org>\nDate: Sat, 01 Aug 1914 11:00:00 +0100\n\n"
        f"{body}\n\nOrder key: {KEYS['german']}\n").encode()])
    before = journal.read_bytes()
    _killed_run(cli, journal, box, monkeypatch, at)
    assert journal.read_bytes() == before
    if at == "records":                 # no record: the withdrawal is not in force either
        assert [e["text"] for e in st.load(journal)["german"]] == ["no combat cards"]
    r = cli("inbox", journal, box, "--format", "json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)["messages"][0]
    assert out["status"] == "applied", out
    kept = [e["text"] for e in st.load(journal)["german"]]
    assert kept == ([] if at == "records" else ["no cavalry retreat"])
    with_mail = [rec for rec in g.open_game(journal).records if rec.get("mail")]
    assert len(with_mail) == (at == "records")
