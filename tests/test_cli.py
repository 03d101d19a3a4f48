"""The command line: exit codes, one-line errors, unchanged journals, JSON contracts."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from forging import forget_mark
from pydantic import TypeAdapter

import gamecalls as g
from referee.contracts.views import StateView, StatusView


def _bytes(p):
    return p.read_bytes()


@pytest.mark.parametrize("args,rule", [
    (["--as", "german", "fly to the moon"], None),                 # unparseable
    (["--as", "german", "play ersatzz"], None),                    # unknown card: unparseable
    (["--as", "entente", "pass"], "2.0 II.1"),                     # wrong side
    (["--as", "german", "end turn"], "2.0 II.1"),                  # not an answer now
    (["--as", "german", "play ersatz 2"], "2.0 II.1"),             # not legal now
])
def test_rejected_orders_exit_1_with_one_line_and_change_nothing(game, cli, args, rule):
    before = _bytes(game)
    r = cli("order", game, *args)
    assert r.exit_code == 1
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("referee: ")
    if rule:
        # cited once: by the reason's own words, or after it (errors.cited)
        assert f"(rule {rule})" in lines[0] or f"({rule})" in lines[0]
    else:
        assert "cannot read order" in lines[0] or "no card" in lines[0]
    assert "Traceback" not in r.output
    assert _bytes(game) == before


def test_bad_manual_dice_change_nothing(tmp_path, cli):
    p = tmp_path / "m.jsonl"
    assert cli("new", p, "--scenario", "1914", "--dice", "manual").exit_code == 0
    before = _bytes(p)
    for dice in ("7", "0,2", "x"):                   # out of range
        r = cli("order", p, "--as", "german", "pass", "--dice", dice)
        assert r.exit_code == 1 and "dice rejected" in r.stderr
        assert _bytes(p) == before
    r = cli("order", p, "--as", "german", "pass", "--dice", "3")   # extra die
    assert r.exit_code == 1 and "more dice given than needed" in r.stderr
    assert _bytes(p) == before
    r = cli("order", p, "--as", "german", "pass")
    assert r.exit_code == 0


def test_committed_game_refuses_manual_dice(game, cli):
    before = _bytes(game)
    r = cli("order", game, "--as", "german", "pass", "--dice", "3")
    assert r.exit_code == 2 and "manual" in r.stderr
    assert _bytes(game) == before


def test_orders_apply_in_sequence_and_stop_at_the_first_rejected(game, cli):
    r = cli("order", game, "--as", "german", "pass", "play offensive", "end turn")
    assert r.exit_code == 1
    assert len(r.stderr.strip().splitlines()) == 1
    assert "; order 1 was applied, order 2 ('play offensive') was rejected" in r.stderr
    assert "not applied: 'end turn'" in r.stderr
    st = g.open_game(game).state
    assert st.turn_state.mode == "pass" and st.pending.kind == "pass_move"


def test_two_orders_applied_before_the_rejected_one_are_a_range(game, cli):
    r = cli("order", game, "--as", "german", "pass", "end turn", "play offensive")
    assert r.exit_code == 1, r.output
    assert "; orders 1-2 were applied, order 3 ('play offensive') was rejected" in r.stderr


def test_email_body_from_stdin_ignores_quotes_comments_and_blanks(game, cli):
    body = ("> On Monday the Entente wrote:\n> pass\n\n# my orders for this turn\n"
            "pass   # nothing moves\n\nend turn\n")
    r = cli("order", game, "--as", "german", "-", input=body)
    assert r.exit_code == 0, r.stderr
    st = g.open_game(game).state
    assert st.pending.side == "entente" and st.consecutive_passes == 1


@pytest.mark.parametrize("orders", [("Pass.", "End turn."), ("pass!", "end turn …"),
                                    ("Pass .", "End turn...")])
def test_an_order_ended_as_a_sentence_is_that_order(game, cli, orders):
    """A full stop a phone adds (or '!', '…') after an order is no part of it: the order is
    taken, kept as typed, and the journal still verifies (replay reads it the same)."""
    r = cli("order", game, "--as", "german", *orders)
    assert r.exit_code == 0, r.stderr
    assert g.open_game(game).state.pending.side == "entente"
    assert [json.loads(x)["order"] for x in game.read_text().splitlines()[-2:]] == \
        list(orders)
    assert cli("verify", game).exit_code == 0


@pytest.mark.parametrize("orders", [("play offensive", "Eft ge-7."),
                                    ("play offensive", "move ge-5 metz taking ge-i-01!")])
def test_a_full_stop_after_a_unit_is_no_part_of_its_id(game, cli, orders):
    """An order that ends with a unit's id reads the id without the full stop a phone adds
    ('eft ge-7.' moves ge-7, not a unit called 'ge-7.'): the stop is no part of the order
    even where the line would read with it, and replay reads it the same."""
    r = cli("order", game, "--as", "german", *orders)
    assert r.exit_code == 0, r.stderr
    assert json.loads(game.read_text().splitlines()[-1])["order"] == orders[-1]
    assert cli("verify", game).exit_code == 0


@pytest.mark.parametrize("order, said", [
    ("Done with the battle.", "unexpected 'with the battle.'"),      # a sentence, as typed
    ("pas.", "unknown verb 'pas.'; did you mean pass?"),
    ("end trun", "'trun' is neither 'movement' nor 'turn'; did you mean end turn?"),
    ("fly to the moon", "unknown verb 'fly'; the orders open now start with one of: pass, "
                        "play, propose, surrender"),
])
def test_a_line_that_reads_as_no_order_says_what_was_meant(game, cli, order, said):
    """A line that is no order with its full stop or without it is refused as typed; a
    slip of a verb is answered with the verb meant, not with every verb. A line whose verb
    does not answer the decision now (2.0 II.1: 'done', 'end') is refused for that too."""
    before = _bytes(game)
    r = cli("order", game, "--as", "german", order)
    assert r.exit_code == 1 and _bytes(game) == before
    (line,) = r.stderr.splitlines()
    assert line.startswith((f"referee: cannot read order {order!r}",
                            f"referee: order {order!r} rejected: ")) and said in line, line
    assert "did you mean" not in said or "start with one of" not in line, line


def test_orders_from_a_file(game, cli, tmp_path):
    f = tmp_path / "orders.txt"
    f.write_text("pass\nend turn\n")
    r = cli("order", game, "--as", "german", "--file", f)
    assert r.exit_code == 0, r.stderr
    assert g.open_game(game).state.pending.side == "entente"


def test_expect_seq(game, cli):
    before = _bytes(game)
    r = cli("order", game, "--as", "german", "pass", "--expect-seq", "0")
    assert r.exit_code == 1 and "moved on" in r.stderr
    assert _bytes(game) == before
    r = cli("order", game, "--as", "german", "pass", "--expect-seq", "1")
    assert r.exit_code == 0, r.stderr


def test_status_json_contract_and_every_listed_order_is_accepted(game, cli, tmp_path):
    public = json.loads(cli("status", game, "--format", "json").stdout)
    assert public["reader"] == "public" and public["legal"] == []   # no orders for the public
    assert public["schema_version"] == 1
    r = cli("status", game, "--as", "german", "--format", "json")
    view = json.loads(r.stdout)
    TypeAdapter(StatusView).validate_json(r.stdout)
    for key in ("waiting_on", "decision", "prompt", "legal", "game_over"):
        assert key in view
    assert view["waiting_on"] == "german" and view["decision"] == "card_or_pass"
    assert "pass" in view["legal"]
    for order in view["legal"]:
        copy = tmp_path / f"copy-{order.replace(' ', '_')}.jsonl"
        copy.write_bytes(game.read_bytes())       # the secret is found where `new` noted it
        forget_mark(copy)                           # each copy played on its own
        r = cli("order", copy, "--as", "german", order)
        assert r.exit_code == 0, (order, r.stderr)


def test_status_for_the_side_not_waited_on(game, cli):
    view = json.loads(cli("status", game, "--as", "entente", "--format", "json").stdout)
    assert view["waiting_on"] == "german"
    assert view["legal"] == ["propose armistice", "surrender"]     # at any time (3.2, 3.3)


def test_show_json_contract_and_hand_secrecy(game, cli):
    st = g.open_game(game).state
    for reader in ("german", "entente"):
        view = json.loads(cli("show", game, "--as", reader, "--format", "json").stdout)
        TypeAdapter(StateView).validate_json(json.dumps(view))
        assert view["turn"] == 1 and view["season"] == "SUMMER" and view["year"] == 1914
        assert view["vp"]["total"] == 12 and view["vp"]["level"] == "stalemate"
        assert view["areas"]["aachen"]["control"] == "german"
        assert view["areas"]["paris"]["control"] == "entente"
        assert {u["id"] for u in view["areas"]["aachen"]["units"]} == {"ge-1", "ge-2"}
        assert [c["id"] for c in view["hand"]] == st.hands[reader]
        assert view["hand_sizes"] == {"german": 5, "entente": 4}
        other = "entente" if reader == "german" else "german"
        text = json.dumps(view)
        for c in st.hands[other]:
            assert f'"{c}"' not in text
    mod = json.loads(cli("show", game, "--as", "moderator", "--format", "json").stdout)
    assert [c["id"] for c in mod["hands"]["entente"]] == st.hands["entente"]
    public = cli("show", game, "--format", "json").stdout       # no --as: the public
    view = json.loads(public)
    assert view["reader"] == "public" and view["hand"] == [] and "hands" not in view
    assert view["hand_sizes"] == {"german": 5, "entente": 4}
    for side in ("german", "entente"):
        for c in st.hands[side]:
            assert f'"{c}"' not in public


def test_show_text_and_markdown(game, cli):
    r = cli("show", game, "--as", "german")
    assert r.exit_code == 0 and "VP 12: Stalemate" in r.stdout and "Your hand" in r.stdout
    assert max(map(len, r.stdout.splitlines())) <= 72
    assert "Paris" in r.stdout                    # every area, empty ones too
    r = cli("show", game, "--as", "german", "--format", "markdown")
    assert r.exit_code == 0 and "| Area | Control | VP | Units |" in r.stdout
    assert "<br>" not in r.stdout
    r = cli("show", game, "--as", "german", "--format", "bbcode")
    assert r.exit_code == 0 and "[b]" in r.stdout and "[c]" not in r.stdout    # BGG's own
    r = cli("show", game, "--as", "german", "--format", "bbcode", "--bbcode-dialect", "bgg")
    assert r.exit_code == 0 and "[b]" in r.stdout and "[c]" in r.stdout


def test_show_at_an_earlier_record(game, cli):
    cli("order", game, "--as", "german", "pass", "end turn")
    now = json.loads(cli("show", game, "--format", "json").stdout)
    then = json.loads(cli("show", game, "--format", "json", "--at", "1").stdout)
    assert now["waiting_on"] == "entente" and then["waiting_on"] == "german"
    assert then["seq"] == 1


def test_log_redacts_the_other_hand_and_the_export_verifies(game, cli, tmp_path):
    st = g.open_game(game).state
    r = cli("log", game, "--as", "entente", "--format", "json")
    export = tmp_path / "export.jsonl"
    export.write_text(r.stdout)
    drawn = [e for line in r.stdout.splitlines() for e in json.loads(line).get("events", [])
             if e["type"] == "CardsDrawn"]
    g_draw = next(e for e in drawn if e["side"] == "german")
    e_draw = next(e for e in drawn if e["side"] == "entente")
    assert "data" not in g_draw["secret"] and "digest" in g_draw["secret"]
    assert e_draw["secret"]["data"]["cards"] == st.hands["entente"]
    r = cli("verify", export)                  # never passes as a full journal
    assert r.exit_code == 3 and "record 1" in r.stderr and "--export" in r.stderr
    r = cli("verify", export, "--export", "entente")
    assert r.exit_code == 0 and "chain only: a redacted export for entente" in r.stdout
    text = cli("log", game, "--as", "german").stdout
    assert "German draws 5 cards" in text
    assert "Entente draws 4 cards, starting hand (scenario set-up)\n" in text


def test_verify_names_an_edited_record(game, cli):
    cli("order", game, "--as", "german", "pass", "end turn")
    lines = game.read_bytes().split(b"\n")
    lines[2] = lines[2].replace(b'"german"', b'"entente"', 1)
    game.write_bytes(b"\n".join(lines))
    r = cli("verify", game)
    assert r.exit_code == 3 and "record 2" in r.stderr
    r = cli("status", game)
    assert r.exit_code == 3 and "record 2" in r.stderr


@pytest.mark.parametrize("holder", [False, True])
def test_verify_catches_a_resealed_forgery(game, cli, holder):
    """A forger who recomputes every hash is caught: without the game's key by the first
    record he could not sign; as its holder (signing again) by what the orders decided."""
    from forging import resign

    from referee.store.journal import canonical, seal

    cli("order", game, "--as", "german", "pass", "end turn")
    recs = [json.loads(line) for line in game.read_bytes().splitlines()]
    recs[2]["events"][0]["side"] = "entente"          # claim the Entente passed
    prev = recs[1]["hash"]
    for r in recs[2:]:
        r["prev"] = prev
        r.update(resign(r) if holder else seal(r))
        prev = r["hash"]
    game.write_bytes(b"".join(canonical(r) + b"\n" for r in recs))
    r = cli("verify", game)
    why = "different result" if holder else "its signature is not by the game's key"
    assert r.exit_code == 3 and "record 2" in r.stderr and why in r.stderr, r.stderr


def test_torn_journal_is_reported_and_repaired_by_cli(game, cli):
    cli("order", game, "--as", "german", "pass")
    whole = game.read_bytes()
    game.write_bytes(whole[:-30])
    r = cli("status", game)
    assert r.exit_code == 3 and "record 2 is torn" in r.stderr and "repair" in r.stderr
    r = cli("repair", game)
    assert r.exit_code == 0 and "2 complete records kept" in r.stdout
    assert cli("verify", game).exit_code == 0


def test_reveal_refuses_while_the_game_runs(game, cli):
    before = _bytes(game)
    r = cli("reveal", game)
    assert r.exit_code == 2 and "not over" in r.stderr
    assert _bytes(game) == before


def test_new_refuses_to_overwrite_and_rejects_unknown_options(game, cli, tmp_path):
    before = _bytes(game)
    r = cli("new", game, "--scenario", "1914")
    assert r.exit_code == 2 and "already exists" in r.stderr
    assert _bytes(game) == before
    r = cli("new", tmp_path / "x.jsonl", "--scenario", "1914", "--option", "fog=true")
    assert r.exit_code == 2 and "unknown option" in r.stderr
    assert not (tmp_path / "x.jsonl").exists()
    r = cli("new", tmp_path / "y.jsonl", "--scenario", "1915")
    assert r.exit_code == 2 and "1914, 1916, 1918" in r.stderr


def test_options_are_recorded_in_the_header(tmp_path, cli):
    p = tmp_path / "o.jsonl"
    assert cli("new", p, "--scenario", "1916", "--option", "hidden_templates=true").exit_code == 0
    header = json.loads(p.read_bytes().splitlines()[0])
    assert header["options"]["hidden_templates"] is True
    assert header["options"]["antwerp_evacuation"] is False
    assert header["scenario"] == "1916" and header["dice"]["mode"] == "committed"
    for key in ("game_id", "game_name", "data_digest", "engine_version", "schema_version",
                "created_at"):
        assert header[key]


@pytest.mark.parametrize("interval", ["1e10", "inf", "nan", "-inf", "0.5"])
def test_a_watch_interval_beyond_a_day_or_no_number_is_bad_usage(game, cli, interval):
    """Guards against: an interval too large for the clock ended the first wait with an
    internal error (exit 4); waiting longer than a day would also let deadlines pass unruled."""
    r = cli("watch", game, "--no-map", "--interval", interval)
    assert r.exit_code == 2 and "--interval" in r.stderr and "Traceback" not in r.output, \
        r.output


def test_internal_errors_never_show_a_traceback(game, cli, monkeypatch):
    def boom(*a, **k):
        raise RuntimeError("surprise")
    from referee.table import Table

    monkeypatch.setattr(Table, "game", boom)
    r = cli("status", game)
    assert r.exit_code == 4 and "internal error" in r.stderr and "Traceback" not in r.output


def test_python_dash_m_and_the_console_script(game):
    out = subprocess.run([sys.executable, "-m", "referee", "status", str(game)],
                         capture_output=True, text=True)
    assert out.returncode == 0 and "Waiting on the German player" in out.stdout
    out = subprocess.run([sys.executable, "-m", "referee", "status", str(game) + ".nope"],
                         capture_output=True, text=True)
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "Traceback" not in out.stderr


def test_demo_runs(cli, tmp_path):
    r = cli("demo", "--keep", tmp_path)
    assert r.exit_code == 0, r.stderr
    assert "verify" in r.stdout and "rulings: all" in r.stdout


def test_missing_manual_dice_reject_the_whole_batch(tmp_path, cli):
    """A battle needs dice; without them (or with too few) nothing is written."""
    from casebook import new_game, position

    sc = position("1916", player="german", hands={"german": ["off-01"], "entente": []})
    j = new_game(tmp_path, sc, dice="manual")
    # Both hands are empty once the Offensive is played: nobody is asked to declare more battles
    # or play combat cards (2.0 II.3); the Entente's cavalry at Verdun is asked first.
    r = cli("order", j, "--as", "german", "play offensive", "move ge-5 verdun", "end movement")
    assert r.exit_code == 0, r.stderr
    before = j.read_bytes()
    r = cli("order", j, "--as", "entente", "done")                    # the cavalry stays...
    assert r.exit_code == 1 and "dice rejected" in r.stderr and "needs" in r.stderr
    assert j.read_bytes() == before                                     # ...but no dice given
    r = cli("order", j, "--as", "entente", "done", "--dice", "6,6")     # three are needed
    assert r.exit_code == 1 and j.read_bytes() == before
    r = cli("order", j, "--as", "entente", "done", "--dice", "6,6,6")
    assert r.exit_code == 0, r.stderr
    rec = json.loads(j.read_bytes().splitlines()[-1])
    assert rec["dice"] == [6, 6, 6]


def test_order_output_lists_only_the_orderers_own_options(game, cli):
    """The answer to one player's email must not list the other side's plays (his hand)."""
    r = cli("order", game, "--as", "german", "pass", "end turn")
    assert r.exit_code == 0
    listed = r.stdout.split("Orders open to", 1)[1]
    assert listed.startswith(" German") and "play offensive" not in listed


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_new_ends_with_the_status_of_the_journal_it_wrote(cli, tmp_path, fmt):
    """With a mail route and a deadline, `new` shows the status `status` shows of the journal
    it wrote: at its last record (the route's) and with the deadline its set-up gave."""
    journal, box = tmp_path / "n.jsonl", tmp_path / "box"
    for sub in ("new", "cur", "tmp"):
        (box / sub).mkdir(parents=True)
    r = cli("new", journal, "--scenario", "1914", "--player", "german=a@example.org",
            "--player", "entente=b@example.org", "--mail-in", box, "--mail-out",
            f"outbox:{tmp_path / 'out'}", "--deadline", "48h", "--format", fmt)
    assert r.exit_code == 0, r.stderr
    status = cli("status", journal, "--format", fmt).stdout
    if fmt == "json":
        assert json.loads(r.stdout)["status"] == json.loads(status)
    else:
        assert r.stdout.endswith(status) and "Orders due by" in status
