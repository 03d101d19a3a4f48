"""Who can choose a die: forged records that name a stream or a mix the referee never writes
for their rules, and the count of a side's records with material as the referee and verify
each keep it (store/sheets.py rolls_before, game/verification.py count_roll)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from forging import forget_mark
from test_sheets import (
    GAME,
    OPENING_MAIL,
    SECRET,
    SHEETS,
    _inbox,
    _mail,
    _mail_game,
    new_game,
    play_opening,
    records,
    rewrite,
    rolled,
    rules7_game,
)

import casebook
import gamecalls as g
from referee.base.clock import NOW_VARIABLE
from referee.base.errors import EXIT_OLDER_RULES, SheetError
from referee.cli.demo import DEMO_OPENING, _demo_choice
from referee.engine import legal_orders
from referee.engine.order_text import format_order
from referee.game.timeline import settings_fact
from referee.mail.reminders import check_deadlines
from referee.store import dice as dm
from referee.store import home, sheets
from referee.store.players import order_key

START = datetime(2026, 11, 23, 18, 0, tzinfo=UTC)          # a Monday


def _rules7(tmp_path):
    """The rules-7 fixture in tmp_path, its key in the test's home (test_sheets)."""
    return rules7_game(tmp_path)


def test_a_record_of_older_rules_naming_a_stream_is_refused(tmp_path, cli):
    """Rules 7 keyed a record's dice by its number: a forger holding the game's key and its
    secret who writes a stream into a rules-7 record could try stream after stream
    ("german.1", "german.2", ...) until its dice suit him. verify refuses any stream there."""
    path, secret, recs = _rules7(tmp_path)
    rec = recs[12]
    rec["dice_from"]["stream"] = "entente.7"
    mix = sheets.mix_text(rec["dice_from"])
    rec["dice"] = [dm.die(SECRET, GAME, "entente.7", i, mix) for i in range(len(rec["dice"]))]
    rewrite(path, recs)
    r = cli("verify", path, "--secret", secret)
    assert r.exit_code == 3, r.stdout + r.stderr
    assert "record 12" in r.stderr and "stream" in r.stderr


# The TTLM data in force under rules 8 (games/history/filed.json files it under rules 4);
# the 1914 opening reads the same in it as in today's.
RULES_8_DATA = "215411cf4468d256832d51a44df33259255d07cb898c5d63af902aac0d735cdb"


def test_a_rules_8_journal_whose_records_name_streams_verifies(tmp_path, cli):
    """Rules 8 keyed a record's dice by its side's count ("german.1"): verify replays a
    journal of rules 8, made before this referee's rules, with the stream each record
    names. It refused any stream in a record of older rules, which only rules 7 and
    before could not name, so every game of rules 8 that had rolled with a mail's digest
    or a sheet's link failed verify. (A game made here, its journal said to be of rules
    8: what its records hold is what rules 8 wrote.)"""
    path, secret, keys = _mail_game(tmp_path)
    out, _ = _inbox(cli, path, tmp_path, [_mail("german", OPENING_MAIL, keys["german"], 1)],
                    "box1")
    assert out[0]["status"] == "applied", out
    recs = records(path)
    assert rolled(recs)[-1]["dice_from"]["stream"] == "german.1"
    recs[0]["rules_version"] = 8
    recs[0]["data_digest"] = RULES_8_DATA   # data of those days: today's was filed later
    rewrite(path, recs)
    forget_mark(path)       # rewritten with the key: the record the mark names is gone
    r = cli("verify", path, "--secret", secret)
    assert r.exit_code == EXIT_OLDER_RULES, r.stderr + r.stdout
    assert "every die and shuffle recomputed" in r.stdout


def test_a_null_dice_from_in_an_older_record_leaves_the_counts_alike(tmp_path, cli):
    """verify counted a rules-7 record whose `dice_from` is null as one with material, the
    referee (rolls_before, on the journal's bytes) not: after an upgrade the two counts
    parted, and the side's next roll, made by the referee, failed verify."""
    path, secret, recs = _rules7(tmp_path)
    rec = next(r for r in recs[1:] if r["actor"] == "german" and "dice_from" not in r
               and r["order"] != sheets.SHEET and "link" not in r)
    rec["dice_from"] = None
    rewrite(path, recs)
    assert cli("upgrade", path).exit_code == 0
    data = g.game_data("ttlm")
    nxt = {s: 1 + max(r["link"]["no"] for r in recs if r.get("link", {}).get("side") == s)
           for s in SHEETS}
    while not any(r.get("actor") == "german" and "stream" in (r.get("dice_from") or {})
                  for r in records(path)[1:]):
        st = g.open_game(path).state
        side = st.pending.side
        g.submit(path, side, [_demo_choice([format_order(o) for o in legal_orders(
            st, data, side)])], link=SHEETS[side][nxt[side]])
        nxt[side] += 1
    r = cli("verify", path, "--secret", secret)
    assert r.exit_code == EXIT_OLDER_RULES, r.stderr


def test_rolls_before_reads_only_a_side_s_own_lines(tmp_path):
    lines = [{"actor": "ger", "dice_from": {"mail": "ab" * 32, "stream": "ger.1"}},
             {"actor": "german", "dice_from": {"mail": "ab" * 32, "stream": "german.1"}},
             {"actor": "german", "order": 'x "dice_from":{'},
             {"actor": "german"}]
    raw = b"".join(json.dumps(x, separators=(",", ":")).encode() + b"\n" for x in lines)
    assert sheets.rolls_before(raw, "german") == 1
    assert sheets.rolls_before(raw, "ger") == 1


def _silent_german(tmp_path: Path, monkeypatch) -> tuple[Path, Path]:
    """A 1914 game of 48h deadlines, --missed default, made at START; the German's opening
    entered by hand, up to his artillery's fire (5.2.1), which he then leaves unanswered."""
    monkeypatch.setenv(NOW_VARIABLE, START.strftime("%Y-%m-%dT%H:%M:%SZ"))
    secret = tmp_path / "s.secret"
    dm.write_secret(secret, SECRET)
    path = tmp_path / "g.jsonl"
    settings = settings_fact("48h", "24h,2h", "default", 2, False)
    g.create_game(path, "1914", game_id=GAME, secret_file=secret, clock=settings,
                  players=["german=kaiser@example.org", "entente=joffre@example.net"])
    g.submit(path, "german", DEMO_OPENING + ["done", "done"])
    return path, secret


@pytest.mark.parametrize("between", ["nothing", "a sheet for the other side",
                                     "the deadlines set anew"])
def test_a_default_at_a_missed_deadline_rolls_dice_no_record_of_the_moderators_moves(
        tmp_path, monkeypatch, cli, between):
    """The referee answers for a German silent past his deadline, and the answer rolls (his
    artillery's fire, 5.2.1). It has no material of his, so whoever holds the secret
    foresees its dice; but they are keyed by the German's own count ("german.1": his
    orders by hand mixed in nothing), so a record the moderator writes before the deadline
    passes (a registration, new deadline settings) leaves them as they were."""
    path, secret = _silent_german(tmp_path, monkeypatch)
    seq = g.open_game(path).state.seq
    if between == "a sheet for the other side":
        g.register_sheets(path, [f"entente={SHEETS['entente'][0]}"])
    elif between == "the deadlines set anew":
        r = cli("deadline", path, "--set", "48h", "--missed", "default")
        assert r.exit_code == 0, r.output
    check_deadlines(path, tmp_path / "out", START + timedelta(hours=49))
    recs = records(path)
    answer = next(r for r in recs[seq + 1:] if r.get("by") == "deadline" and r.get("dice"))
    assert answer["actor"] == "german" and answer["dice_from"] == {"stream": "german.1"}
    assert answer["dice"] == [dm.die(SECRET, GAME, "german.1", i)
                              for i in range(len(answer["dice"]))]
    assert g.verify(path, secret).lines


def test_verify_of_an_export_refuses_a_stream_that_is_not_its_sides_count(tmp_path, cli):
    """A player checks his side's export (verify --export): a record whose dice are keyed by
    another stream than its side's count is refused there too, secret or not."""
    path, secret = new_game(tmp_path)
    play_opening(path, SHEETS)
    r = cli("log", path, "--as", "german", "--format", "json")
    assert r.exit_code == 0, r.stderr
    export = tmp_path / "german.jsonl"
    export.write_text(r.stdout)
    assert cli("verify", export, "--export", "german").exit_code == 0
    recs = records(export)
    rec = [r for r in recs if isinstance(r.get("dice_from"), dict)][-1]
    rec["dice_from"]["stream"] = f"{rec['actor']}.1"
    assert rec["dice_from"]["stream"] != [r for r in records(path) if r["seq"] == rec["seq"]
                                          ][0]["dice_from"]["stream"]
    rewrite(export, recs)
    r = cli("verify", export, "--export", "german")
    assert r.exit_code == 3 and f"record {rec['seq']}" in r.stderr and "keyed" in r.stderr, \
        r.stderr + r.stdout


def _at_production(tmp_path: Path, sides=tuple(SHEETS)) -> tuple[Path, Path, dict[str, int]]:
    """A 1914 game from WINTER 1914-15 (casebook), the sides given on the sheets of
    test_sheets (both unless told), played by passes to the production phase (7.0), where
    both give sealed plans at once; after WINTER the turn's end reshuffles the deck (1.3,
    2.0 VI). The links used so far."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    journal = casebook.new_game(tmp_path, casebook.position("1914", turn=3, player="german"))
    secret = tmp_path / "case.fixed-secret"
    secret.chmod(0o600)
    g.register_sheets(journal, [f"{s}={SHEETS[s][0]}" for s in sides])
    data, nxt = g.game_data("ttlm"), {"german": 1, "entente": 1}
    for _ in range(8):
        st = g.open_game(journal).state
        if st.phase == "production":
            return journal, secret, nxt
        side = st.pending.side
        opts = [format_order(o) for o in legal_orders(st, data, side)]
        pick = "pass" if "pass" in opts else "end turn"
        try:
            r = g.submit(journal, side, [pick])
        except SheetError:
            r = g.submit(journal, side, [pick], link=SHEETS[side][nxt[side]])
            nxt[side] += 1
        assert r.rejected is None, r.rejected
    raise AssertionError("no production phase")


def test_two_sealed_plans_give_the_same_dice_whichever_the_moderator_applies_last(
        tmp_path, monkeypatch, referee_home):
    """Both sides' production plans (7.0) are in: the plan applied last closes the phase,
    and its record reshuffles the deck after WINTER (1.3). Its draws mix in both sides'
    plan links and are keyed by the phase, so the moderator gets the same deck whichever
    plan he applies first. (Two games alike, each in a referee home of its own.)"""
    last = {}
    for first, second in (("german", "entente"), ("entente", "german")):
        monkeypatch.setenv("REFEREE_HOME", str(tmp_path / f"home-{first}"))
        home._KEY.clear()
        journal, secret, nxt = _at_production(tmp_path / first)
        for side in (first, second):
            g.submit(journal, side, ["done"], link=SHEETS[side][nxt[side]])
        rec = records(journal)[-1]
        assert rec["actor"] == second
        shuffled = [e for e in rec["events"] if e["type"] == "DeckShuffled"]
        assert shuffled and shuffled[0]["draws"] > 0
        last[first] = (rec["dice_from"], rec.get("dice"), shuffled[0]["secret"]["data"])
        assert "every die and shuffle recomputed" in " ".join(g.verify(journal, secret).lines)
    assert last["german"] == last["entente"]
    assert last["german"][0] == {"stream": "plans-production.3", "links": [
        {"side": s, "no": 1, "value": SHEETS[s][1]} for s in ("entente", "german")]}


def test_a_sealed_plan_given_at_once_without_its_link_is_refused(tmp_path):
    """The plan that comes first rolls nothing, but it must carry its side's link, which the
    record closing the phase mixes in beside the other's: without it, nothing is written."""
    journal, _, nxt = _at_production(tmp_path / "g")
    before = journal.read_bytes()
    with pytest.raises(SheetError, match="a sealed plan given at once with the other side's "
                                         "carries the next link"):
        g.submit(journal, "german", ["done"])
    assert journal.read_bytes() == before
    g.submit(journal, "german", ["done"], link=SHEETS["german"][nxt["german"]])
    assert records(journal)[-1]["link"]["side"] == "german"


def test_a_mailed_sealed_plan_that_closes_the_year_is_keyed_by_its_phase_and_verifies(
        tmp_path, cli):
    """Without sheets, the German gives his production plan (7.0) by hand and the
    Entente's 'done' comes by mail and closes WINTER 1914-15: its record reshuffles the
    deck (1.3, 2.0 VI), keyed by the phase and mixing in no mail's digest (the German's
    plan might have closed it). verify read 'came in a mail' from the digest the record
    names, so it expected the record's number as for orders by hand, and refused it."""
    spath = tmp_path / "case.yaml"
    spath.write_text(casebook.yaml_text(casebook.position("1914", turn=3, player="german"),
                                        allow_unicode=True, sort_keys=False), encoding="utf-8")
    secret = tmp_path / "s.secret"
    dm.write_secret(secret, SECRET)
    journal = tmp_path / "m.jsonl"
    g.create_game(journal, str(spath), game_id=GAME, secret_file=secret,
                  players=["german=kaiser@example.org", "entente=joffre@example.net",
                           "moderator=umpire@example.com"])
    for _ in range(5):
        st = g.open_game(journal).state
        if st.phase == "production":
            break
        g.submit(journal, st.pending.side, ["pass" if "pass" in casebook.legal(
            journal, st.pending.side) else "end turn"])
    g.submit(journal, "german", ["done"])
    raw = _mail("entente", ["done"], order_key(SECRET, GAME, "entente", 0), 1)
    out, _ = _inbox(cli, journal, tmp_path, [raw], "box")
    assert out[0]["status"] == "applied", out
    rec = records(journal)[-1]
    assert rec["actor"] == "entente" and "mail" in rec
    assert any(e["type"] == "DeckShuffled" and e["draws"] for e in rec["events"])
    assert rec["dice_from"] == {"stream": "plans-production.3"}
    r = cli("verify", journal, "--secret", secret)
    assert r.exit_code == 0, r.stderr + r.stdout
    assert "every die and shuffle recomputed" in r.stdout


def test_the_log_says_what_the_dice_of_the_referees_answer_come_from(tmp_path, monkeypatch,
                                                                      cli):
    """The log says what a record's dice mix in and what keys them; the referee's answer for
    a silent side mixes in nothing, yet is keyed by the side's own count ("german.1"), which
    a player checking a die by hand must use in place of the record's number."""
    path, secret = _silent_german(tmp_path, monkeypatch)
    check_deadlines(path, tmp_path / "out", START + timedelta(hours=49))
    answer = next(r for r in records(path) if r.get("by") == "deadline" and r.get("dice"))
    for reader in ("german", "entente"):
        out = cli("log", path, "--as", reader)
        assert out.exit_code == 0, out.output
        said = " ".join(out.output.split(f"#{answer['seq']} ", 1)[1].split("\n#", 1)[0].split())
        assert "its dice are keyed german.1" in said


def test_a_mails_dice_are_not_said_to_be_beyond_anyone_s_choice():
    """A report says what a mail's dice come from; it must not claim more than the guide's
    table (docs/player.md, Who can foresee a die): the moderator, who reads the mail first,
    can re-word it and so choose among its dice, which the mail's digest shows its sender;
    a record that mixes in a link of a dice sheet is beyond either alone."""
    from referee.data.dataload import load_game
    from referee.data.paths import default_games_dir
    from referee.render.dice_words import dice_words

    data = load_game(default_games_dir() / "ttlm")
    said = dice_words({"actor": "entente", "seq": 14, "dice": [3],
                       "dice_from": {"mail": "f" * 64, "stream": "entente.2"}}, data)
    assert "only the moderator could change them, by editing it" in said
    assert "alone could choose" not in said and "nobody could choose" not in said
    linked = dice_words({"actor": "entente", "seq": 14, "dice": [3],
                         "dice_from": {"links": [{"side": "entente", "no": 2,
                                                  "value": "a" * 64}],
                                       "stream": "entente.2"}}, data)
    assert "nobody alone could foresee or choose them" in linked


def test_an_export_s_log_gives_each_die_s_hmac_input(tmp_path, cli):
    """A player holds his export, which `explain` cannot replay; its `log` names the stream
    that keys a mail's dice ("german.1") beside what they mix in, so that with the game id
    and the revealed secret he makes each die's HMAC input from the log alone."""
    path, secret, keys = _mail_game(tmp_path)
    raw = _mail("german", OPENING_MAIL, keys["german"], 1)
    out, _ = _inbox(cli, path, tmp_path, [raw], "box1")
    assert out[0]["status"] == "applied", out
    rec = rolled(records(path))[-1]
    export = tmp_path / "entente.jsonl"
    r = cli("log", path, "--as", "entente", "--format", "json")
    export.write_text(r.stdout, encoding="utf-8")
    export.chmod(0o600)
    said = " ".join(cli("log", export).stdout.split())
    mix = rec["dice_from"]["mail"]
    assert f"its dice mix in the digest of the mail's order lines {mix}, keyed german.1" in \
        said
    assert rec["dice"][0] == dm.die(SECRET, GAME, "german.1", 0, f"mail={mix}")


def _export(cli, journal: Path, side: str, tmp_path: Path) -> Path:
    r = cli("log", journal, "--as", side, "--format", "json")
    assert r.exit_code == 0, r.stderr
    export = tmp_path / f"{side}.jsonl"
    export.write_text(r.stdout, encoding="utf-8")
    export.chmod(0o600)
    return export


def test_verify_of_an_export_refuses_a_phase_stream_on_a_side_s_record(tmp_path, cli):
    """A forger holding the game's key rekeys a side's roll by a phase of sealed plans
    ("plans-production.1"), which counts in no side's count: he may try phase after phase
    until its dice suit him. An export's public events tell no such phase was open there."""
    path, secret = new_game(tmp_path)
    play_opening(path, SHEETS)
    export = _export(cli, path, "german", tmp_path)
    recs = records(export)
    rec = [r for r in recs if isinstance(r.get("dice_from"), dict) and r.get("dice")][-1]
    rec["dice_from"]["stream"] = "plans-production.1"
    mix = sheets.mix_text(rec["dice_from"])
    rec["dice"] = [dm.die(SECRET, GAME, "plans-production.1", i, mix)
                   for i in range(len(rec["dice"]))]
    rewrite(export, recs)
    r = cli("verify", export, "--export", "german", "--secret", secret)
    assert r.exit_code == 3 and f"record {rec['seq']}" in r.stderr and "keyed" in r.stderr, \
        r.stderr + r.stdout


@pytest.mark.parametrize("stream", ["entente.1", "plans-production.4", "plans-reinforce.3"])
def test_verify_of_an_export_refuses_a_plan_record_keyed_other_than_by_its_phase(
        tmp_path, cli, stream):
    """The record closing the production phase (7.0) of WINTER 1914-15 is keyed by that
    phase; a forger who keys it by the side's own count, another turn or another phase
    would choose among its draws. An export's public events (the decision pending, the
    season) tell its phase, and verify refuses any other key."""
    journal, secret, nxt = _at_production(tmp_path / "g")
    for side in ("german", "entente"):
        g.submit(journal, side, ["done"], link=SHEETS[side][nxt[side]])
    export = _export(cli, journal, "german", tmp_path)
    assert cli("verify", export, "--export", "german").exit_code == 0
    recs = records(export)
    rec = recs[-1]
    assert rec["dice_from"]["stream"] == "plans-production.3"
    rec["dice_from"]["stream"] = stream
    rewrite(export, recs)
    r = cli("verify", export, "--export", "german")
    assert r.exit_code == 3 and f"record {rec['seq']}" in r.stderr and "keyed" in r.stderr, \
        r.stderr + r.stdout


def test_the_referee_answers_a_silent_sheet_holders_plan_and_the_other_link_keys_the_phase(
        tmp_path, monkeypatch, cli):
    """At production the German, who holds a sheet, stays silent past his deadline under
    --missed default: the referee gives his plan ('done', 7.0) without a link of his (it has
    none to give), and its record closes the phase with the Entente's fresh plan link in the
    mix, keyed by the phase; the game goes on and verify passes."""
    monkeypatch.setenv(NOW_VARIABLE, START.strftime("%Y-%m-%dT%H:%M:%SZ"))
    journal, secret, nxt = _at_production(tmp_path / "g")
    r = cli("deadline", journal, "--set", "48h", "--missed", "default")
    assert r.exit_code == 0, r.output
    g.submit(journal, "entente", ["done"], link=SHEETS["entente"][nxt["entente"]])
    check_deadlines(journal, tmp_path / "out", START + timedelta(hours=49))
    answers = [r for r in records(journal)[1:] if r.get("by") == "deadline"]
    assert answers, "the referee gave no answer for the German"
    rec = answers[0]
    assert rec["actor"] == "german" and "link" not in rec
    assert g.open_game(journal).state.phase != "production"
    shuffled = [r for r in records(journal)[rec["seq"]:] if r.get("dice_from")]
    assert shuffled and shuffled[0]["dice_from"] == {"stream": "plans-production.3", "links": [
        {"side": "entente", "no": nxt["entente"], "value": SHEETS["entente"][nxt["entente"]]}]}
    assert "every die and shuffle recomputed" in " ".join(g.verify(journal, secret).lines)


def _mixing_record(recs: list[dict]) -> dict:
    """The last record whose dice mix in a link of a dice sheet."""
    return [r for r in recs if isinstance(r.get("dice_from"), dict) and
            r["dice_from"].get("links") and r.get("dice")][-1]


def _remix(rec: dict, value: str, key: str) -> None:
    """A forger's edit: the record's dice mix in `value` for its first link, rolled again
    from the secret (he holds it) under `key`, so that the dice check as the mix names."""
    rec["dice_from"]["links"][0]["value"] = value
    mix = sheets.mix_text(rec["dice_from"])
    rec["dice"] = [dm.die(SECRET, GAME, key, i, mix) for i in range(len(rec["dice"]))]


def _forged_export(cli, tmp_path, forge) -> tuple[dict, object]:
    """The German's export of the opening played on sheets, one record of it edited by
    forge(records) (which returns it) and chained again; the record, and verify's result
    with the secret."""
    path, secret = new_game(tmp_path)
    play_opening(path, SHEETS)
    export = _export(cli, path, "german", tmp_path)
    ok = cli("verify", export, "--export", "german", "--secret", secret)
    assert ok.exit_code == 0 and "links revealed, each a later link of its sheet" in ok.stdout
    recs = records(export)
    rec = forge(recs)
    rewrite(export, recs)
    r = cli("verify", export, "--export", "german", "--secret", secret)
    assert r.exit_code == 3 and f"record {rec['seq']}" in r.stderr, r.stderr + r.stdout
    return rec, r


def test_verify_of_an_export_refuses_dice_mixing_a_link_no_record_revealed(tmp_path, cli):
    """A player holding his export and, after the reveal, the secret checks that every die
    mixes in what the players gave: a record whose dice mix in a value for the German's link
    that no record revealed (the moderator picking the link until the dice suit him) is
    refused, though its dice are the ones the secret gives for that mix."""
    def forge(recs):
        rec = _mixing_record(recs)
        _remix(rec, "ab" * 32, rec["dice_from"]["stream"])
        return rec

    _, r = _forged_export(cli, tmp_path, forge)
    assert "not that side's latest link revealed before it" in r.stderr


def test_verify_of_an_export_refuses_a_revealed_link_off_its_sheet(tmp_path, cli):
    """The same forger writes his chosen value as the link the record revealed too: it is
    no later link of the side's sheet (its SHA-256 chain leads nowhere the sheet had been)."""
    def forge(recs):
        rec = [r for r in recs if isinstance(r.get("link"), dict) and
               isinstance(r.get("dice_from"), dict) and r.get("dice")][-1]
        rec["link"]["value"] = "cd" * 32
        _remix(rec, "cd" * 32, rec["dice_from"]["stream"])
        return rec

    _, r = _forged_export(cli, tmp_path, forge)
    assert "is not a later link of the sheet" in r.stderr


def test_a_record_of_older_rules_mixing_a_link_no_record_revealed_is_refused(tmp_path, cli):
    """A record of rules 7 is not decided again, but the links its dice mix in must still
    be links its sides had revealed: one mixing in a value of the forger's is refused."""
    path, secret, recs = _rules7(tmp_path)
    rec = _mixing_record(recs)
    _remix(rec, "ef" * 32, str(rec["seq"]))
    rewrite(path, recs)
    r = cli("verify", path, "--secret", secret)
    assert r.exit_code == 3 and f"record {rec['seq']}" in r.stderr, r.stdout + r.stderr
    assert "not that side's latest link revealed before it" in r.stderr


def test_verify_of_an_export_refuses_dice_mixing_the_other_side_s_link(tmp_path, cli):
    """Under rules 8 a record mixes in its own side's link alone: one of the German's whose
    dice mix in the Entente's latest link instead (the moderator choosing between two
    revealed links) is refused by the export's walk, as by the full one."""
    def forge(recs):
        rec = [r for r in recs if r.get("actor") == "german" and
               isinstance(r.get("dice_from"), dict) and r["dice_from"].get("links") and
               r.get("dice")][-1]
        theirs = [r["link"] for r in recs[:rec["seq"]]
                  if (r.get("link") or {}).get("side") == "entente"][-1]
        rec["dice_from"]["links"] = [dict(theirs)]
        _remix(rec, theirs["value"], rec["dice_from"]["stream"])
        return rec

    _, r = _forged_export(cli, tmp_path, forge)
    assert "mixes in its own side's link alone" in r.stderr


def test_verify_of_an_export_refuses_a_tip_on_a_chain_already_shown(tmp_path, cli):
    """A new tip a few steps of SHA-256 below the German's latest revealed link would make
    links already public check again as his: the export's walk refuses it, as the full
    walk does."""
    path, secret = new_game(tmp_path)
    play_opening(path, SHEETS)
    export = _export(cli, path, "german", tmp_path)
    recs = records(export)
    latest = [r["link"] for r in recs if (r.get("link") or {}).get("side") == "german"][-1]
    tip = sheets.hashed(sheets.hashed(latest["value"]))
    recs.append({**sheets.sheet_body("moderator", "german", tip, recs[-1]["at"]),
                 "seq": recs[-1]["seq"] + 1, "sig": recs[-1]["sig"]})    # signed as the last
    rewrite(export, recs)
    r = cli("verify", export, "--export", "german")
    assert r.exit_code == 3 and f"record {recs[-1]['seq']}" in r.stderr, r.stderr + r.stdout
    assert "its tip lies on a chain the game had shown" in r.stderr
