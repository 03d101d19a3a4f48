"""The play-by-email table around the rules: readers, sealed plans, all-or-nothing and dry-run
orders, receipts, report bookmarks, players and keys, and the command line a shell user expects."""

import json
import re

from test_production import _to_production

import gamecalls as g
from casebook import new_game, position
from referee.cli.params import complete_reader
from referee.store import home
from referee.store.journal import redact

RECEIPT = re.compile(r"^Receipt: (\S+) (\d+):([0-9a-f]{32})$")


def _battle_ready(tmp_path, dice="committed"):
    """1916: the German has attacked Verdun; both hands are empty, so nobody is asked for
    combat cards (2.0 II.3): the Entente's cavalry retreat is next."""
    sc = position("1916", player="german", hands={"german": ["off-01"], "entente": []})
    j = new_game(tmp_path, sc, dice=dice)
    r = g.submit(j, "german", ["play offensive", "move ge-5 verdun", "end movement"],
                 dice_text=None)
    assert r.rejected is None, r.rejected
    return j


# ---------------------------------------------------------------- readers

def test_the_public_is_the_default_reader_and_sees_no_hand(game, cli):
    st = g.open_game(game).state
    for args in (("show", game, "--format", "json"), ("log", game, "--format", "json"),
                 ("status", game, "--format", "json"), ("report", game, "--format", "json")):
        out = cli(*args).stdout
        for side in ("german", "entente"):
            for card in st.hands[side]:
                assert f'"{card}"' not in out, (args, card)
    drawn = [e for line in cli("log", game, "--format", "json").stdout.splitlines()
             for e in json.loads(line).get("events", []) if e["type"] == "CardsDrawn"]
    assert drawn and all("data" not in e["secret"] for e in drawn)
    assert cli("show", game, "--as", "nobody").exit_code == 2


def test_sealed_production_orders_of_one_submission_are_one_record(tmp_path, cli):
    j = _to_production(tmp_path)
    before = len(j.read_bytes().splitlines())
    r = cli("order", j, "--as", "german", "build ge infantry metz", "buy 2", "entrench ge-1")
    assert r.exit_code == 0, r.stderr
    lines = j.read_bytes().splitlines()
    assert len(lines) == before + 1                     # three orders, one record (7.0)
    rec = json.loads(lines[-1])
    assert rec["order"] == "a sealed production plan (7.0)"
    seen = redact(rec, "entente")
    text = json.dumps(seen)
    assert "metz" not in text and "buy" not in text and "entrench" not in text
    assert [e["type"] for e in seen["events"]] == ["ProductionOrdered"]
    # One 'done' alone is a plan too: the opponent cannot tell it from a plan with orders.
    assert cli("order", j, "--as", "entente", "done").exit_code == 0
    last = json.loads(j.read_bytes().splitlines()[-1])
    assert last["order"] == "a sealed production plan (7.0)"
    assert cli("order", j, "--as", "german", "done").exit_code == 0
    assert cli("verify", j).exit_code == 0


def test_a_plan_stops_at_a_bad_order_and_keeps_the_orders_before_it(tmp_path):
    j = _to_production(tmp_path)
    r = g.submit(j, "german", ["build ge infantry metz", "build ge tank metz", "buy 1"])
    assert r.rejected[0] == 1 and r.rejected[2].rule == "8.3.5"
    assert r.not_applied == ["buy 1"] and len(r.applied) == 1
    assert g.open_game(j).state.production["plans"]["german"] == ["build ge infantry metz"]
    r = g.submit(j, "german", ["done", "buy 1"])      # nothing after 'done' in a plan
    assert r.rejected[0] == 1 and r.rejected[2].rule == "7.0"


# ---------------------------------------------------------------- atomic and dry runs

def test_atomic_orders_apply_all_or_nothing(game, cli):
    before = game.read_bytes()
    r = cli("order", game, "--as", "german", "--atomic", "pass", "move ge-1 paris")
    assert r.exit_code == 1 and game.read_bytes() == before
    assert "--atomic: none of the 2 orders was applied" in r.stderr
    r = cli("order", game, "--as", "german", "pass", "move ge-1 paris")      # not atomic
    assert r.exit_code == 1 and game.read_bytes() != before


def test_a_dry_run_writes_nothing_and_stops_where_the_other_side_answers(game, cli):
    before = game.read_bytes()
    r = cli("order", game, "--as", "german", "--dry-run", "pass", "end turn", "pass")
    assert r.exit_code == 0, r.stderr
    assert game.read_bytes() == before
    assert "ok: pass" in r.stdout and "hands the decision to the Entente player" in r.stdout
    r = cli("order", game, "--as", "german", "--dry-run", "--format", "json", "surrender",
            "pass")
    doc = json.loads(r.stdout)
    assert doc["dry_run"] and doc["schema_version"] == 1 and game.read_bytes() == before


def test_a_dry_run_stops_before_any_die(tmp_path, cli):
    j = _battle_ready(tmp_path)
    before = j.read_bytes()
    # 'done' (no cavalry retreat): the fire comes next.
    r = cli("order", j, "--as", "entente", "--dry-run", "done", "done")
    assert r.exit_code == 0, r.stderr
    assert "order 1 ('done') is legal; the dry run stops there: it would roll dice" in r.stdout
    assert "not checked: 'done'" in r.stdout and j.read_bytes() == before


def test_orders_from_standard_input_with_file_dash(game, cli):
    r = cli("order", game, "--as", "german", "--file", "-", input="# mine\npass\n")
    assert r.exit_code == 0, r.stderr
    assert json.loads(game.read_bytes().splitlines()[-1])["order"] == "pass"


# ---------------------------------------------------------------- receipts and reports

def _receipt(text: str) -> tuple[int, str]:
    m = RECEIPT.match(text.rstrip("\n").splitlines()[-1])
    assert m, text[-200:]
    return int(m.group(2)), m.group(3)


def test_a_receipt_catches_a_journal_cut_back_or_rewritten(game, cli, tmp_path):
    cli("order", game, "--as", "german", "pass", "end turn")
    seq, digest = _receipt(cli("report", game, "--as", "german").stdout)
    lines = game.read_bytes().splitlines(keepends=True)
    assert seq == len(lines) - 1
    ok = cli("verify", game, "--receipt", f"{seq}:{digest}")
    assert ok.exit_code == 0 and "receipts: 1 checked" in ok.stdout
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"".join(lines[:-1]))
    r = cli("verify", cut, "--receipt", f"{seq}:{digest}")
    assert r.exit_code == 3 and f"receipt {seq}:" in r.stderr and "rewound" in r.stderr
    r = cli("verify", game, "--receipt", f"{seq - 1}:{digest}")
    assert r.exit_code == 3 and "rewritten" in r.stderr
    assert cli("verify", game, "--receipt", "nonsense").exit_code == 2


def test_a_report_starts_after_the_last_one_and_a_planted_bookmark_only_repeats(game, cli):
    first = cli("report", game, "--as", "entente")
    assert first.exit_code == 0 and "#1 Moderator: set up" in first.stdout
    again = cli("report", game, "--as", "entente").stdout
    assert "Nothing has happened" in again and "#1 " not in again
    cli("order", game, "--as", "german", "pass")
    news = cli("report", game, "--as", "entente").stdout
    assert "#2 German: pass" in news and "#1 " not in news
    for mark in home.data_dir("bookmarks").iterdir():      # planted: not signed by this user
        mark.write_text('{"game_id": "test-1914", "reader": "entente", "seq": 99}')
    assert "#1 Moderator: set up" in cli("report", game, "--as", "entente").stdout


def test_a_report_with_keep_place_can_be_looked_at_and_posted_again(game, cli):
    """A look before posting, then the same news in two forums: --keep-place leaves the
    reader's last report where it was; the report without it moves it on."""
    cli("order", game, "--as", "german", "pass")
    for fmt in ("text", "bbcode"):
        r = cli("report", game, "--as", "public", "--format", fmt, "--keep-place")
        assert r.exit_code == 0 and "German passes" in r.stdout, (fmt, r.stdout[:300])
    looked = cli("report", game, "--as", "public", "--format", "json", "--keep-place")
    assert json.loads(looked.stdout)["since"] == 0
    posted = cli("report", game, "--as", "public", "--format", "chat").stdout
    assert "German passes" in posted
    assert "German passes" not in cli("report", game, "--as", "public").stdout


def test_report_text_fits_72_columns_but_never_splits_an_order(game, cli):
    out = cli("report", game, "--as", "german", "--since", "0").stdout
    lines = out.splitlines()
    legal = set(json.loads(cli("status", game, "--as", "german", "--format",
                               "json").stdout)["legal"])
    for line in lines[:-1]:
        assert len(line) <= 72 or line.strip() in legal, line
    assert RECEIPT.match(lines[-1])
    # The orders grouped for reading, as `status` shows them: each typed part whole on its
    # line (play offensive, play tout_le_monde, pass, propose armistice, surrender).
    assert "- play → offensive, tout_le_monde" in lines
    assert "- Also: pass, propose armistice, surrender" in lines
    status = cli("status", game, "--as", "german").stdout.splitlines()
    now = lines[lines.index("Reply with one order per line, made from these:"):]
    assert [x for x in now if x.startswith("- ")] == [x for x in status if x.startswith("- ")]
    md = cli("report", game, "--as", "german", "--since", "0", "--format", "markdown").stdout
    from markdown_it import MarkdownIt

    tokens = MarkdownIt("commonmark").enable("table").parse(md)
    kinds = {t.type for t in tokens} | {c.type for t in tokens for c in t.children or []}
    assert not kinds & {"html_inline", "html_block"}


# ---------------------------------------------------------------- players and keys

def test_players_keys_and_a_new_key(tmp_path, cli, secret_file):
    j = tmp_path / "p.jsonl"
    r = cli("new", j, "--scenario", "1914", "--game-id", "keys", "--secret-file", secret_file,
            "--player", "german=Hans@Example.org", "--player", "entente=j@example.net")
    assert r.exit_code == 0, r.stderr
    listed = json.loads(cli("players", j, "--keys", "--format", "json").stdout)
    assert listed["schema_version"] == 1
    keys = {p["side"]: p["key"] for p in listed["players"]}
    assert re.fullmatch(r"[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}", keys["german"])
    assert keys["german"] != keys["entente"]
    assert "key" not in json.loads(cli("players", j, "--format", "json").stdout)["players"][0]
    cli("players", j, "--new-key", "german", "--set", "entente=joffre@example.net")
    after = {p["side"]: p for p in json.loads(
        cli("players", j, "--keys", "--format", "json").stdout)["players"]}
    assert after["german"]["key"] != keys["german"]
    # A new address, a new key (the old one went in every mail to the old address).
    assert after["entente"]["key"] not in (keys["entente"], after["german"]["key"])
    assert after["entente"]["address"] == "joffre@example.net"
    for reader in ("german", "entente", "public"):
        text = cli("log", j, "--as", reader, "--format", "json").stdout
        assert "@" not in text and keys["german"] not in text
    assert cli("verify", j).exit_code == 0
    assert cli("new", tmp_path / "q.jsonl", "--scenario", "1914", "--player",
               "french=x@example.org").exit_code == 2


def test_a_manual_dice_message_that_needs_dice_is_held(tmp_path, cli):
    from email.message import EmailMessage

    sc = position("1916", player="german", hands={"german": ["off-01"], "entente": []})
    j = new_game(tmp_path, sc, dice="manual")
    cli("players", j, "--set", "german=g@example.org", "--set", "entente=e@example.org")
    key = {p["side"]: p["key"] for p in json.loads(
        cli("players", j, "--keys", "--format", "json").stdout)["players"]}
    assert g.submit(j, "german", ["play offensive", "move ge-5 verdun",
                                  "end movement"]).rejected is None
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "e@example.org", "m@example.org", "orders"
    msg["Message-ID"], msg["Date"] = "<m1@example.org>", "Sun, 22 Nov 2026 10:00:00 +0000"
    msg.set_content(f"done\ndone\n\nOrder key: {key['entente']}\n")    # then the fire
    eml = tmp_path / "m1.eml"
    eml.write_bytes(bytes(msg))
    before = j.read_bytes()
    r = cli("inbox", j, eml, "--format", "json")
    assert r.exit_code == 0, r.stderr
    out = json.loads(r.stdout)["messages"][0]
    assert out["status"] == "held" and "order --dice" in out["reason"]
    assert j.read_bytes() == before


# ---------------------------------------------------------------- the command line

def test_version_and_reader_completion(cli, game):
    from referee.base.rules import RULES_VERSION
    from referee.data.dataload import load_game
    from referee.data.paths import default_games_dir

    r = cli("--version")
    ttlm = load_game(default_games_dir() / "ttlm").digest[:16]     # the data it carries
    assert r.exit_code == 0 and re.match(rf"referee \S+ \(rules {RULES_VERSION}, journal "
                                         r"schema \d+; game data aac [0-9a-f]{16}, "
                                         rf"skirmish [0-9a-f]{{16}}, ttlm {ttlm}\)", r.stdout)

    class Ctx:
        params = {"journal": str(game)}

    assert complete_reader(Ctx(), "") == ["german", "entente", "public", "moderator"]
    assert complete_reader(Ctx(), "p") == ["public"]
