"""Dice nobody can foresee or choose, the moderator included: players' dice sheets, the mail's
digest, and the trust table of the player's guide (docs/player.md, Who can foresee a die).

Each claim of that table is a test here:

- the moderator alone cannot foresee, before the link is revealed, a record a sheet holder
  starts (test_the_secret_alone_cannot_compute_a_record_whose_link_is_not_revealed), nor,
  without sheets, a record a mail starts (test_without_sheets_a_mails_dice_mix_in_...);
  he can foresee card draws from a shuffled deck, whose order is in his part of the journal
  (test_the_deck_order_after_a_shuffle_is_the_moderators_to_read); he cannot choose: the
  secret is committed (test_dice_depend_on_the_secret_the_links_and_the_stream), a tip
  mixes in nothing (test_a_tip_registered_after_a_mail_came_..., test_a_sheet_replaced_...),
  nor does the other side's link, and a record he writes before a mail moves none of its
  dice, which are keyed by the side's own count of rolls
  (test_no_record_the_moderator_writes_before_a_mail_changes_its_dice); he can hide
  a mail, which a link number skipped shows (test_a_later_link_is_taken_and_the_skip_shows);
- one player alone cannot foresee (the secret is in the derivation: test_dice_depend_...),
  nor choose (a wrong, replayed or missing link is refused:
  test_a_wrong_or_replayed_link_is_refused_..., test_a_missing_link_is_refused_...);
- verify catches a link that does not chain, a record of a sheet holder without a link of
  his own batch, a mix or a stream the referee does not write, a mail's record without its
  digest, and dice that are not the derivation (test_verify_catches_...);
- manual dice are said in every view, and take no sheet (test_manual_dice_...).
"""

from __future__ import annotations

import email
import email.policy
import hashlib
import hmac
import json
import re
import shutil
import stat
import subprocess
from pathlib import Path

import pytest
from flowtext import mail_text
from mailboxes import write_maildir
from test_verify import _rechain as rechain

import gamecalls as g
from referee.base.errors import EXIT_OLDER_RULES, JournalError, SheetError
from referee.cli.demo import DEMO_OPENING, _demo_choice
from referee.engine import legal_orders
from referee.engine.order_text import format_order
from referee.game import audit as g_audit
from referee.store import dice as dm
from referee.store import sheets, signing
from referee.store.journal import canonical
from referee.store.players import order_key

ROOT = Path(__file__).resolve().parent.parent
SECRET = bytes.fromhex("0b" * 32)          # the demo's: the German opens with an Offensive
GAME = "sheets-1914"
# Each side's sheet, from a fixed seed (a player picks a random one).
GERMAN = sheets.make_sheet(30, "a1" * 32)
ENTENTE = sheets.make_sheet(30, "e2" * 32)
SHEETS = {"german": GERMAN, "entente": ENTENTE}


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def rewrite(path: Path, recs: list[dict]) -> None:
    path.write_bytes(b"".join(canonical(r) + b"\n" for r in rechain(recs)))


def new_game(tmp_path: Path, sides=("german", "entente")) -> tuple[Path, Path]:
    """A 1914 game with the demo's secret, the given sides' sheets registered at `new`."""
    secret = tmp_path / "s.secret"
    dm.write_secret(secret, SECRET)
    path = tmp_path / "g.jsonl"
    g.create_game(path, "1914", game_id=GAME, secret_file=secret,
                  sheets=[f"{s}={SHEETS[s][0]}" for s in sides])
    return path, secret


def play_opening(path: Path, sheets_of: dict[str, list[str]], steps: int = 40) -> list[str]:
    """The demo's opening, each side answering its decisions in turn; a batch that rolls is
    refused until it carries its side's next link (as a player is told). Returns what was
    refused, one line each."""
    data = g.game_data("ttlm")
    refused = []
    g.submit(path, "german", DEMO_OPENING)
    nxt = {side: 1 for side in sheets_of}
    for _ in range(steps):
        st = g.open_game(path).state
        if st.phase == "over" or (st.pending.kind == "card_or_pass" and
                                  st.pending.side == "entente"):
            break
        side = st.pending.side
        order = _demo_choice([format_order(o) for o in legal_orders(st, data, side)
                              if o.kind != "armistice"])
        try:
            g.submit(path, side, [order])
        except SheetError as exc:
            refused.append(str(exc))
            g.submit(path, side, [order], link=sheets_of[side][nxt[side]])
            nxt[side] += 1
    return refused


def rolled(recs: list[dict]) -> list[dict]:
    """The records that used the dice stream."""
    return [r for r in recs[1:] if r.get("dice") or any(
        e.get("type") == "DeckShuffled" and e.get("draws") for e in r["events"])]


# ---------------------------------------------------------------- the sheet itself

def test_a_sheet_is_a_sha256_chain_of_hex_text_tip_first():
    chain = sheets.make_sheet(5, "00" * 32)
    assert len(chain) == 6 and chain[-1] == "00" * 32            # the seed is the last link
    for before, after in zip(chain, chain[1:]):
        assert re.fullmatch(r"[0-9a-f]{64}", before)
        assert hashlib.sha256(after.encode("ascii")).hexdigest() == before
    assert sheets.sheet_text(chain) == "".join(v + "\n" for v in chain)


def test_sheet_new_works_without_a_game_writes_0600_and_never_over_a_file(tmp_path, cli,
                                                                          monkeypatch):
    monkeypatch.chdir(tmp_path)                 # no journal anywhere near
    r = cli("sheet", "new", "-o", "mine.sheet", "--links", "4", "--format", "json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    lines = (tmp_path / "mine.sheet").read_text().split()
    assert out["tip"] == lines[0] and out["links"] == 4 and len(lines) == 5
    assert all(hashlib.sha256(b.encode()).hexdigest() == a for a, b in zip(lines, lines[1:]))
    assert stat.S_IMODE((tmp_path / "mine.sheet").stat().st_mode) == 0o600
    before = (tmp_path / "mine.sheet").read_bytes()
    r = cli("sheet", "new", "-o", "mine.sheet")
    assert r.exit_code == 2 and len(r.stderr.strip().splitlines()) == 1
    assert (tmp_path / "mine.sheet").read_bytes() == before
    other = cli("sheet", "new", "-o", "other.sheet", "--links", "4", "--format", "json")
    assert json.loads(other.stdout)["tip"] != out["tip"]          # a random seed each time


def _guide_recipe() -> str:
    """The two shell lines of the player's guide that make a sheet with sha256sum."""
    text = (ROOT / "docs" / "player.md").read_text()
    blocks = re.findall(r"```sh\n(.*?)```", text, re.S)
    found = [b for b in blocks if "sha256sum" in b]
    assert len(found) == 1 and len(found[0].strip().splitlines()) == 2, found
    return found[0]


def test_the_guide_recipe_with_sha256sum_makes_a_sheet_the_referee_accepts(tmp_path):
    recipe = _guide_recipe()
    if shutil.which("sha256sum") is None or shutil.which("bash") is None:
        pytest.skip("sha256sum is not on PATH")
    subprocess.run(["bash", "-c", recipe], cwd=tmp_path, check=True, timeout=60)
    made = tmp_path / "german.sheet"
    assert stat.S_IMODE(made.stat().st_mode) == 0o600
    chain = made.read_text().split()
    assert len(chain) == 201 and not (tmp_path / "links").exists()
    for before, after in zip(chain, chain[1:]):
        assert hashlib.sha256(after.encode()).hexdigest() == before
    # Its tip registered, its first link rolls the German's first dice.
    sheet = {"german": chain, "entente": ENTENTE}
    secret = tmp_path / "s.secret"
    dm.write_secret(secret, SECRET)
    path = tmp_path / "g.jsonl"
    g.create_game(path, "1914", game_id=GAME, secret_file=secret,
                  sheets=[f"german={chain[0]}", f"entente={ENTENTE[0]}"])
    play_opening(path, sheet)
    links = [r["link"] for r in records(path) if "link" in r and r["actor"] == "german"]
    assert links and links[0] == {"side": "german", "no": 1, "value": chain[1]}
    assert g.verify(path, secret).lines[-1].startswith("dice sheets: 2 registered")


# ---------------------------------------------------------------- a game with two sheets

def own_streams(recs: list[dict]) -> dict[int, tuple[str, str]]:
    """Each record that rolled with material of its side's own: (the stream that keys its
    dice, the mix), worked out as docs/design.md says: the side's latest revealed link (no
    other side's, never a tip), or its mail's digest, and "SIDE.K" for the side's Kth such
    record."""
    latest: dict[str, str] = {}
    count: dict[str, int] = {}
    out = {}
    for rec in recs[1:]:
        if "link" in rec:
            latest[rec["link"]["side"]] = rec["link"]["value"]
        if "dice_from" in rec:
            side = rec["actor"]
            count[side] = count.get(side, 0) + 1
            mix = f"{side}={latest[side]}" if side in latest else \
                f"mail={rec['dice_from']['mail']}"
            out[rec["seq"]] = (f"{side}.{count[side]}", mix)
    return out


def test_a_game_with_two_sheets_mixes_each_sides_own_link_into_its_dice_and_verifies(
        tmp_path):
    path, secret = new_game(tmp_path)
    refused = play_opening(path, SHEETS)
    recs = records(path)
    assert [r["sheet"]["side"] for r in recs if "sheet" in r] == ["german", "entente"]
    # A batch that rolls without its link is refused, naming the link due.
    assert refused and all("is due" in line and "nothing was recorded" in line
                           for line in refused)
    # The journal shows every link, each the next of its side's sheet, in order.
    for side, chain in SHEETS.items():
        shown = [r["link"] for r in recs if "link" in r and r["link"]["side"] == side]
        assert shown == [{"side": side, "no": k, "value": chain[k]}
                         for k in range(1, len(shown) + 1)]
    used = rolled(recs)
    assert len(used) >= 3 and {r["actor"] for r in used[1:]} == {"german", "entente"}
    streams = own_streams(recs)
    latest: dict[str, dict] = {}
    for rec in recs[1:]:
        if "link" in rec:
            latest[rec["link"]["side"]] = rec["link"]
        if rec in used and rec["seq"] > 1:
            # The actor's own latest link, revealed by his own batch, and his count of rolls.
            stream, mix = streams[rec["seq"]]
            assert rec["dice_from"] == {"links": [latest[rec["actor"]]], "stream": stream}
            count = len(rec.get("dice", []))
            assert rec.get("dice") == [dm.die(SECRET, GAME, stream, i, mix)
                                       for i in range(count)]
    assert max(int(s.split(".")[1]) for s, _ in streams.values()) >= 2
    result = g.verify(path, secret)
    assert "every die and shuffle recomputed from the secret" in " ".join(result.lines)
    assert "dice sheets: 2 registered (entente, german)" in result.lines[-1]
    assert "dice sheets: 2 registered" in g.verify(path).lines[-1]      # without the secret
    # An outsider with the journal recomputes every die once the secret is revealed;
    # explain shows each die's HMAC message, the stream and link in it, and how it came out.
    g.reveal(path, force=True)
    assert "every die and shuffle recomputed" in " ".join(g.verify(path).lines)
    rec = max(used, key=lambda r: len(r.get("dice", [])))
    doc, *_ = g_audit.explain_facts(path, str(rec["seq"]))
    stream, mix = streams[rec["seq"]]
    assert [r["hmac_input"] for r in doc["dice"]["rolls"]] == \
        [f"{GAME}/{stream}/{i}/{mix}" for i in range(len(rec["dice"]))]
    assert all(r["derived"]["matches"] for r in doc["dice"]["rolls"])
    doc, *_ = g_audit.explain_facts(path, "2")
    assert doc["checks"][0].startswith("a dice sheet registered for german")


def test_dice_depend_on_the_secret_the_links_and_the_stream():
    """Changing the link, the secret or the stream changes the dice and the shuffles."""
    mix, other = f"german={GERMAN[2]}", f"german={GERMAN[3]}"
    base = [dm.die(SECRET, GAME, "german.2", i, mix) for i in range(40)]
    assert base != [dm.die(SECRET, GAME, "german.2", i, other) for i in range(40)]
    assert base != [dm.die(bytes(32), GAME, "german.2", i, mix) for i in range(40)]
    assert base != [dm.die(SECRET, GAME, "german.3", i, mix) for i in range(40)]
    assert base != [dm.die(SECRET, GAME, 12, i, mix) for i in range(40)]   # keyed by a number
    assert base != [dm.die(SECRET, GAME, "german.2", i) for i in range(40)]   # no link
    want = hmac.new(SECRET, f"{GAME}/german.2/0/{mix}".encode(), hashlib.sha256).digest()
    assert base[0] == next(b for b in want if b < 252) % 6 + 1
    cards = [f"c{i}" for i in range(55)]

    def shuffled(link: dict) -> list[str]:
        return dm.Dice(GAME, 12, SECRET, source={"links": [link], "stream": "german.2"}
                       ).shuffle(cards)[0]

    one = {"side": "german", "no": 2, "value": GERMAN[2]}
    two = {"side": "german", "no": 3, "value": GERMAN[3]}
    assert shuffled(one) == shuffled(one) and shuffled(one) != shuffled(two)


@pytest.mark.parametrize("side", ["german", "entente"])
def test_the_secret_alone_cannot_compute_a_record_whose_link_is_not_revealed(tmp_path, side):
    """Whoever holds the secret file and the journal, before a player's mail reveals his next
    link, has no way to the dice his orders will roll: every derivation he can make from
    what he holds gives other dice; with the link, the recorded ones. The same holds with
    the other player's whole sheet beside the secret (a moderator and one player together
    foresee the other player's rolls no sooner)."""
    path, secret = new_game(tmp_path)
    play_opening(path, SHEETS)
    recs = records(path)
    rec = max((r for r in rolled(recs) if r["actor"] == side and "link" in r),
              key=lambda r: len(r.get("dice", [])))
    assert len(rec["dice"]) >= 3
    before = recs[:rec["seq"]]
    known = {}                              # every link and tip in the journal before it
    for r in before:
        if "sheet" in r:
            known.setdefault(r["sheet"]["side"], []).append(r["sheet"]["tip"])
        if "link" in r:
            known.setdefault(r["link"]["side"], []).append(r["link"]["value"])
    other = "entente" if side == "german" else "german"
    known[other] = list(SHEETS[other])      # the other player's sheet, all of it
    n, count, stream = rec["seq"], len(rec["dice"]), rec["dice_from"]["stream"]
    keys = [n, *(f"{s}.{k}" for s in ("german", "entente") for k in range(1, 9))]
    assert stream in keys
    mixes = [""] + [f"{s}={v}" for s in known for v in known[s]] + \
        [f"entente={e};german={d}" for e in known["entente"] for d in known["german"]]
    mix = sheets.mix_text(rec["dice_from"])
    assert rec["link"]["value"] not in " ".join(mixes) and mix == f"{side}={rec['link']['value']}"
    # The record's stream, 24 dice long (its own dice first): no derivation gives it, which
    # a few dice alone might match by chance among so many.
    true = [dm.die(SECRET, GAME, stream, i, mix) for i in range(24)]
    assert true[:count] == rec["dice"]
    for key in keys:
        for guess in mixes:
            assert [dm.die(SECRET, GAME, key, i, guess) for i in range(24)] != true, (key, guess)


def test_a_tip_registered_after_a_mail_came_leaves_its_dice_as_they_were(tmp_path):
    """A tip mixes in nothing: the moderator who has read the German's link and registers a
    tip of his choosing for the Entente gets the very dice the player's own tip gives, so
    no registration chooses them. The journal names the registrar, and the Entente's next
    link is refused under a tip not his."""
    chosen = sheets.hashed("the moderator's choice")
    dice = {}
    for tip in (ENTENTE[0], chosen):
        (tmp_path / tip).mkdir()
        path, secret = _to_first_roll(tmp_path / tip)
        g.register_sheets(path, [f"entente={tip}"])
        g.submit(path, "german", ["done"], link=GERMAN[1])
        rec = rolled(records(path))[-1]
        assert rec["dice_from"] == {"links": [{"side": "german", "no": 1, "value": GERMAN[1]}],
                                    "stream": "german.1"}
        dice[tip] = (rec["seq"], rec["dice"])
        assert [r["actor"] for r in records(path) if "sheet" in r][-1] == "moderator"
        assert g.verify(path, secret).lines[-1].startswith("dice sheets: 2 registered")
    assert dice[ENTENTE[0]] == dice[chosen] and dice[chosen][1]
    with pytest.raises(SheetError, match="not a link of the Entente player's dice sheet"):
        g.submit(path, "entente", ["lose be-i-01"], link=ENTENTE[1])
    table = (ROOT / "docs" / "player.md").read_text(encoding="utf-8")
    row = next(t for t in table.splitlines() if t.startswith("| the moderator alone"))
    assert "but for a new tip" not in row and "a tip mixes in nothing" in row


def test_a_sheet_replaced_changes_nothing_of_the_other_sides_dice_and_takes_its_own_links(
        tmp_path):
    """A lost sheet replaced mid-game: the other side's dice mix in his own link alone, as
    before; the side's next batch must reveal link 1 of the new sheet (the old sheet's next
    link is refused)."""
    path, secret = new_game(tmp_path)
    play_opening(path, SHEETS, steps=5)          # the Entente's link 1 revealed last
    assert [r["link"]["side"] for r in records(path) if "link" in r][-1] == "entente"
    new = sheets.make_sheet(30, "e3" * 32)
    g.register_sheets(path, [f"entente={new[0]}"])
    data = g.game_data("ttlm")
    st = g.open_game(path).state
    assert st.pending.side == "german"
    order = _demo_choice([format_order(o) for o in legal_orders(st, data, "german")])
    g.submit(path, "german", [order], link=GERMAN[2])
    rec = rolled(records(path))[-1]
    assert rec["actor"] == "german" and rec["dice"]
    assert rec["dice_from"] == {"links": [{"side": "german", "no": 2, "value": GERMAN[2]}],
                                "stream": own_streams(records(path))[rec["seq"]][0]}
    while (st := g.open_game(path).state).pending.side != "entente":
        g.submit(path, "german", [_demo_choice([format_order(o) for o in legal_orders(
            st, data, "german")])], link=GERMAN[3])
    order = _demo_choice([format_order(o) for o in legal_orders(st, data, "entente")])
    with pytest.raises(SheetError, match="not a link of the Entente player's dice sheet"):
        g.submit(path, "entente", [order], link=ENTENTE[2])
    g.submit(path, "entente", [order], link=new[1])
    assert records(path)[-1]["link"] == {"side": "entente", "no": 1, "value": new[1]}
    assert g.verify(path, secret).lines[-1].startswith("dice sheets: 2 registered")


@pytest.mark.parametrize("again", ["the tip", "a value below it"])
def test_a_tip_on_a_chain_already_shown_is_refused_and_a_verify_finds_one(tmp_path, again):
    """The Entente's link 1 is public: his own tip registered again (or its SHA-256, below
    it) would take that link again as one of its own, and the moderator know its dice
    before the mail came. Either is refused, the journal unchanged; one forged into the
    journal is found by verify."""
    path, secret = new_game(tmp_path)
    play_opening(path, SHEETS, steps=5)          # the Entente's link 1 revealed last
    tip = ENTENTE[0] if again == "the tip" else sheets.hashed(ENTENTE[0])
    before = path.read_bytes()
    with pytest.raises(SheetError, match="a chain this game has shown already"):
        g.register_sheets(path, [f"entente={tip}"])
    assert path.read_bytes() == before
    # The same record written by a forger holding the game's key: verify names it.
    recs = records(path)
    [first] = [r for r in recs if r.get("sheet", {}).get("side") == "entente"]
    recs.append({**first, "seq": recs[-1]["seq"] + 1, "at": recs[-1]["at"],
                 "sheet": {"side": "entente", "tip": tip}})
    rewrite(path, recs)
    with pytest.raises(JournalError, match="its tip lies on a chain the game had shown"):
        g.verify(path, secret)


@pytest.mark.parametrize("between", ["the other side's tip again", "a new sheet for the other "
                                     "side", "a new address for the other side"])
def test_no_record_the_moderator_writes_before_a_mail_changes_its_dice(tmp_path, cli,
                                                                         between):
    """The moderator who has read the German's mail and link writes a record of his own
    before applying it: the mail's batch takes the next record number, but its dice are
    keyed by the German's own count of rolls and mix in his link alone, so they come out
    the same. The journal shows the record, its registrar and the number it took."""
    dice = []
    for again in (False, True):
        (tmp_path / str(again)).mkdir()
        path, _ = _to_first_roll(tmp_path / str(again))
        if again and between == "the other side's tip again":
            g.register_sheets(path, [f"entente={ENTENTE[0]}"])
        elif again and between.startswith("a new sheet"):
            g.register_sheets(path, [f"entente={sheets.make_sheet(3, 'e4' * 32)[0]}"])
        elif again:
            r = cli("players", path, "--set", "entente=joffre@example.net")
            assert r.exit_code == 0, r.output
        g.submit(path, "german", ["done"], link=GERMAN[1])
        rec = rolled(records(path))[-1]
        dice.append((rec["seq"], rec["dice_from"], rec["dice"]))
    assert dice[1][0] == dice[0][0] + 1 and dice[1][1:] == dice[0][1:] and dice[0][2]
    assert records(path)[dice[1][0] - 1]["actor"] == "moderator"
    table = (ROOT / "docs" / "player.md").read_text(encoding="utf-8")
    row = next(t for t in table.splitlines() if t.startswith("| the moderator alone"))
    assert "derives from its record's number" not in row and "moves no die" in row


OLD = ROOT / "tests" / "fixtures" / "rules6-sheets-1914.jsonl"


def test_a_journal_of_older_rules_verifies_with_the_tips_it_mixed_in(tmp_path, cli):
    """tests/fixtures/rules6-sheets-1914.jsonl was played under rules 6, which mixed a side's
    tip until its first link (record 10, the German's first roll, mixes in the Entente's),
    and ends with the Entente's sheet replaced. verify replays its records with the mix
    each names, and recomputes every die from it."""
    path = tmp_path / "old.jsonl"
    secret = path.with_name(path.name + ".secret")
    shutil.copyfile(OLD, path)
    shutil.copyfile(OLD.with_name(OLD.name + ".secret"), secret)
    for p in (path, secret):
        p.chmod(0o600)
    recs = records(path)
    assert recs[0]["rules_version"] == 6 and recs[-1]["order"] == sheets.SHEET
    assert {"side": "entente", "no": 0, "value": ENTENTE[0]} in recs[10]["dice_from"]["links"]
    r = cli("verify", path, "--secret", secret)
    assert r.exit_code == EXIT_OLDER_RULES, r.stderr + r.stdout
    assert "dice: every die and shuffle recomputed from the secret" in r.stdout
    assert "records 4-16 made under rules 6: not re-decided" in r.stdout


R7 = ROOT / "tests" / "fixtures" / "rules7-sheets-1914"


def rules7_game(tmp_path: Path) -> tuple[Path, Path, list[dict]]:
    """The rules-7 fixture in tmp_path (journal, secret, records), its signing key in the
    test's referee home, as the moderator who made the game has it in his."""
    path = tmp_path / "old.jsonl"
    secret = path.with_name(path.name + ".secret")
    shutil.copyfile(R7.with_suffix(".jsonl"), path)
    shutil.copyfile(R7.with_suffix(".jsonl.secret"), secret)
    recs = records(path)
    key = signing.key_file(recs[0]["signing"]["fingerprint"].replace("-", ""))
    key.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(R7.with_suffix(".key"), key)
    for p in (path, secret, key):
        p.chmod(0o600)
    return path, secret, recs


def test_a_rules_7_game_verifies_with_both_links_then_goes_on_under_its_own_count(tmp_path,
                                                                                 cli):
    """tests/fixtures/rules7-sheets-1914.jsonl was played under rules 7 (the code before
    rules 8), whose records mixed in every side's latest link and were keyed by their
    numbers (record 12, the Entente's roll, mixes in the German's link 1 beside his own).
    verify recomputes each die so; once upgraded, the game goes on, and a new record's
    stream counts its side's earlier records with material, those of rules 7 included.
    The fixture's signing key (.key) is put in this test's referee home, as the moderator
    who made the game has it in his."""
    path, secret, recs = rules7_game(tmp_path)
    assert recs[0]["rules_version"] == 7
    both = recs[12]["dice_from"]["links"]
    assert [x["side"] for x in both] == ["entente", "german"] and "stream" not in \
        recs[12]["dice_from"]
    mix = sheets.mix_text(recs[12]["dice_from"])
    assert recs[12]["dice"] == [dm.die(SECRET, GAME, 12, i, mix)
                                for i in range(len(recs[12]["dice"]))]
    r = cli("verify", path, "--secret", secret)
    assert r.exit_code == EXIT_OLDER_RULES, r.stderr + r.stdout
    assert "dice: every die and shuffle recomputed from the secret" in r.stdout
    r = cli("upgrade", path)
    assert r.exit_code == 0, r.stderr + r.stdout
    earlier = {s: sum(1 for r in recs[1:] if r["actor"] == s and "dice_from" in r)
               for s in SHEETS}
    assert earlier == {"german": 2, "entente": 1}
    nxt = {s: 1 + max(r["link"]["no"] for r in recs if r.get("link", {}).get("side") == s)
           for s in SHEETS}
    data = g.game_data("ttlm")
    for _ in range(60):                     # each side in turn, until a new roll
        if len(rolled(records(path))) > len(rolled(recs)):
            break
        st = g.open_game(path).state
        side = st.pending.side
        g.submit(path, side, [_demo_choice([format_order(o) for o in legal_orders(
            st, data, side)])], link=SHEETS[side][nxt[side]])
        nxt[side] += 1
    rec = rolled(records(path))[-1]
    side = rec["actor"]
    assert rec["dice_from"] == {"links": [rec["link"]], "stream": f"{side}.{earlier[side] + 1}"}
    assert rec["dice"] == [dm.die(SECRET, GAME, f"{side}.{earlier[side] + 1}", i,
                                  sheets.mix_text(rec["dice_from"]))
                           for i in range(len(rec["dice"]))]
    r = cli("verify", path, "--secret", secret)
    assert r.exit_code == EXIT_OLDER_RULES, r.stderr + r.stdout
    assert "dice: every die and shuffle recomputed from the secret" in r.stdout


# ---------------------------------------------------------------- links refused

def _to_first_roll(tmp_path):
    """A two-sheet game at the German's first batch that rolls (link 1 is due)."""
    path, secret = new_game(tmp_path)
    g.submit(path, "german", DEMO_OPENING + ["done", "done"])
    with pytest.raises(SheetError, match="link 1 of the German player's dice sheet is due"):
        g.submit(path, "german", ["done"])
    return path, secret


@pytest.mark.parametrize("case", ["random", "tip", "other side's", "not hex", "too short"])
def test_a_wrong_link_is_refused_in_one_line_and_the_journal_is_unchanged(tmp_path, cli,
                                                                           case):
    path, _ = _to_first_roll(tmp_path)
    link = {"random": "ab" * 32, "tip": GERMAN[0], "other side's": ENTENTE[1],
            "not hex": "zz" * 32, "too short": GERMAN[1][:40]}[case]
    before = path.read_bytes()
    r = cli("order", path, "--as", "german", "--link", link, "done")
    assert r.exit_code == 1, r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("referee: ")
    assert "link 1 of the German player's dice sheet is due" in lines[0]
    assert path.read_bytes() == before
    r = cli("order", path, "--as", "german", "--link", link, "--format", "json", "done")
    assert json.loads(r.stderr)["kind"] == "dice_sheet"
    # Checked even where nothing rolls: a link given is always checked.
    r = cli("order", path, "--as", "german", "--link", link, "--dry-run", "done")
    assert r.exit_code == 1 and path.read_bytes() == before


def test_a_replayed_link_is_refused_and_the_journal_is_unchanged(tmp_path, cli):
    path, _ = _to_first_roll(tmp_path)
    r = cli("order", path, "--as", "german", "--link", GERMAN[1], "done")
    assert r.exit_code == 0, r.output
    assert records(path)[-1]["link"]["no"] == 1
    st = g.open_game(path).state
    side = st.pending.side
    before = path.read_bytes()
    for link in (GERMAN[1], GERMAN[0]):       # the link just used, and the tip
        r = cli("order", path, "--as", "german", "--link", link, "surrender")
        assert r.exit_code == 1 and "public already" in r.stderr, r.output
        assert "link 2 of the German player's dice sheet is due" in r.stderr
        assert path.read_bytes() == before
    assert side == g.open_game(path).state.pending.side


def test_a_missing_link_is_refused_naming_the_link_due_before_any_die(tmp_path, cli):
    path, _ = _to_first_roll(tmp_path)
    before = path.read_bytes()
    r = cli("order", path, "--as", "german", "done")
    assert r.exit_code == 1
    line = r.stderr.strip()
    assert len(line.splitlines()) == 1
    assert "order 1 ('done')" in line and "link 1 of the German player's dice sheet is due" in line
    assert path.read_bytes() == before
    # The refusal comes before the secret is touched: dice without it refuse the same way.
    d = dm.Dice(GAME, 9, None, source={"links": []}, need="link 1 of the German player's sheet")
    with pytest.raises(SheetError, match="link 1 of the German player's sheet"):
        d.roll(2, "a test")
    assert d.rolls == [] and d.index == 0


def test_a_link_without_orders_is_refused_naming_the_player_by_his_side_s_name(tmp_path, cli):
    """A link is read as soon as it is shown: one sent with no orders is refused, naming
    the sheet by its player's side as the game names it ('the German player'), never by its
    id, and the link after it is asked for."""
    path, _ = _to_first_roll(tmp_path)
    before = path.read_bytes()
    r = cli("order", path, "--as", "german", "--link", GERMAN[1])
    assert r.exit_code == 1 and path.read_bytes() == before, r.output
    said = " ".join(r.stderr.split())
    assert "link 1 of the German player's dice sheet goes with the orders that roll dice, " \
        "and none came with it: send them with link 2" in said, said
    assert "german" not in said


def test_a_later_link_is_taken_and_the_skip_shows(tmp_path, cli):
    """A mail held back has shown its link: the player's next mail carries a later one. The
    referee takes it, the journal shows the numbers skipped, and the skipped links are gone."""
    path, secret = _to_first_roll(tmp_path)
    r = cli("order", path, "--as", "german", "--link", GERMAN[3], "done")
    assert r.exit_code == 0, r.output
    assert records(path)[-1]["link"] == {"side": "german", "no": 3, "value": GERMAN[3]}
    before = path.read_bytes()
    r = cli("order", path, "--as", "german", "--link", GERMAN[2], "surrender")
    assert r.exit_code == 1
    assert "link 2 of the German player's dice sheet, public already" in r.stderr
    assert path.read_bytes() == before
    r = cli("log", path, "--since", str(records(path)[-1]["seq"]))
    assert f"link 3 of German's dice sheet: {GERMAN[3]}" in " ".join(r.stdout.split())
    assert "every die and shuffle recomputed" in " ".join(g.verify(path, secret).lines)


def test_the_journal_shows_who_registered_each_sheet(tmp_path, cli):
    """A tip the moderator registers is his record; one a player mails, the player's; a new
    tip replaces the side's last, its links counted from 1 again; and the player's report
    names the tip and the link due."""
    path, secret, keys = _mail_game(tmp_path)
    r = cli("players", path, "--sheet", f"entente={ENTENTE[0]}", "--format", "json")
    assert r.exit_code == 0, r.output
    seq = json.loads(r.stdout)["sheets"][0]["seq"]
    assert records(path)[seq]["actor"] == "moderator"
    raw = _mail("entente", [f"Sheet: {GERMAN[0]}"], keys["entente"], 1)   # another tip
    out, _ = _inbox(cli, path, tmp_path, [raw], "box1")
    rec = records(path)[out[0]["records"][0]]
    assert rec["actor"] == "entente" and rec["sheet"] == {"side": "entente", "tip": GERMAN[0]}
    report = cli("report", path, "--as", "entente", "--since", str(seq - 1)).stdout
    flat = " ".join(report.split())
    assert f"dice sheet of Entente registered, tip {ENTENTE[0]}" in flat
    assert f"dice sheet of Entente registered, tip {GERMAN[0]}" in flat
    assert "Your dice sheet: link 1 (line 2 of the sheet file) is due" in flat
    assert "verify: OK" in cli("verify", path, "--secret", secret).stdout
    # The last tip rules: a link of the first sheet no longer checks.
    before = path.read_bytes()
    r = cli("order", path, "--as", "entente", "--link", ENTENTE[1], "pass")
    assert r.exit_code == 1 and path.read_bytes() == before
    assert "not a link of the Entente player's dice sheet" in r.stderr


def test_autoplay_does_not_play_a_game_with_sheets(tmp_path, cli):
    path, _ = new_game(tmp_path, sides=("entente",))
    before = path.read_bytes()
    r = cli("autoplay", path, "--until", "1")
    assert r.exit_code == 2 and "dice sheets" in r.stderr and path.read_bytes() == before


def test_a_link_from_a_side_without_a_sheet_is_refused(tmp_path, cli):
    path, _ = new_game(tmp_path, sides=("german",))
    before = path.read_bytes()
    r = cli("order", path, "--as", "entente", "--link", ENTENTE[1], "pass")
    assert r.exit_code == 1 and "the Entente player has no dice sheet registered" in r.stderr
    assert path.read_bytes() == before


def test_one_side_with_a_sheet_the_other_sides_orders_by_hand_mix_in_nothing(tmp_path):
    """The side without a sheet, ordering by hand, mixes in none of the other side's links
    (public before his orders, they would keep nobody from foreseeing): its records keep
    the secret's own dice, keyed by their numbers; the sheet holder's mix his links."""
    path, secret = new_game(tmp_path, sides=("german",))
    play_opening(path, {"german": GERMAN})
    used = rolled(records(path))
    entente = [r for r in used if r["actor"] == "entente"]
    assert entente and all("dice_from" not in r for r in entente)
    for rec in entente:
        count = len(rec.get("dice", []))
        assert rec.get("dice", []) == [dm.die(SECRET, GAME, rec["seq"], i)
                                       for i in range(count)]
    assert all(r["dice_from"]["links"][0]["side"] == "german" for r in used
               if r["actor"] == "german" and r["seq"] > 1)
    assert "every die and shuffle recomputed" in " ".join(g.verify(path, secret).lines)


def test_only_a_record_that_mixes_something_in_has_its_sides_dice_records_counted(
        tmp_path, monkeypatch):
    """The side's count of records with material dice keys only what a record mixes in (a
    link, a mail's digest, the referee's own answer: sheets.own_source): the journal is
    searched for it for the sheet holder's batches, never for orders by hand without one."""
    counted: list[str] = []
    count = sheets.rolls_before
    monkeypatch.setattr(sheets, "rolls_before",
                        lambda raw, side: counted.append(side) or count(raw, side))
    path, secret = new_game(tmp_path, sides=("german",))
    play_opening(path, {"german": GERMAN})
    assert "entente" in {r["actor"] for r in rolled(records(path))}
    assert counted and set(counted) == {"german"}
    assert "every die and shuffle recomputed" in " ".join(g.verify(path, secret).lines)


# ---------------------------------------------------------------- mail

def _mail(side: str, lines: list[str], key: str, n: int) -> bytes:
    address = {"german": "kaiser@example.org", "entente": "joffre@example.net"}[side]
    body = "\n".join(lines)
    return (f"From: {address}\nTo: umpire@example.com\nSubject: orders\n"
            f"Message-ID: <m{n}.{side}@example.org>\n"
            f"Date: Sat, 01 Aug 1914 {10 + n:02d}:00:00 +0100\n\n{body}\n\n"
            f"Order key: {key}\n").encode()


def _mail_game(tmp_path, sheets_for=()):
    secret = tmp_path / "s.secret"
    dm.write_secret(secret, SECRET)
    path = tmp_path / "m.jsonl"
    g.create_game(path, "1914", game_id=GAME, secret_file=secret,
                  players=["german=kaiser@example.org", "entente=joffre@example.net",
                           "moderator=umpire@example.com"],
                  sheets=[f"{s}={SHEETS[s][0]}" for s in sheets_for],
                  options=["hidden_templates=true"])
    keys = {s: order_key(SECRET, GAME, s, 0) for s in ("german", "entente")}
    return path, secret, keys


def _inbox(cli, path, tmp_path, raws, name):
    box = write_maildir(tmp_path / name, raws)
    r = cli("inbox", path, box, "--outbox", tmp_path / f"out-{name}", "--format", "json")
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)["messages"], [Path(p) for p in json.loads(r.stdout)["outbox"]]


# The opening and the German's answers up to his first dice, in one mail: the move between
# hidden templates (1.4) is private, the last 'done' rolls the artillery's dice.
OPENING_MAIL = [*DEMO_OPENING, "done", "done", "done"]


def test_without_sheets_a_mails_dice_mix_in_the_digest_of_its_public_order_lines(tmp_path,
                                                                                  cli):
    path, secret, keys = _mail_game(tmp_path)
    raw = _mail("german", ["Hallo,", "", *[f"- {t}" for t in OPENING_MAIL], "# the end"],
                keys["german"], 1)
    out, _ = _inbox(cli, path, tmp_path, [raw], "box1")
    assert out[0]["status"] == "applied", out
    recs = records(path)
    rec = rolled(recs)[-1]
    assert rec["seq"] == out[0]["records"][-1] and rec["dice"]
    private = [r["private_order"]["data"]["text"] for r in recs if "private_order" in r]
    assert private == ["move ge-4:cavalry ardennes"]
    public = [t for t in OPENING_MAIL if t not in private]
    # What a player computes from his sent mail: printf '%s\n' LINE... | sha256sum
    digest = hashlib.sha256("".join(t + "\n" for t in public).encode()).hexdigest()
    assert rec["dice_from"] == {"mail": digest, "stream": "german.1"}
    assert digest != hashlib.sha256("".join(t + "\n" for t in OPENING_MAIL).encode()
                                    ).hexdigest()            # the hidden move is left out
    # The secret alone (the derivation before the mail) gives other dice.
    count = len(rec["dice"])
    assert [dm.die(SECRET, GAME, "german.1", i) for i in range(count)] != rec["dice"]
    assert [dm.die(SECRET, GAME, "german.1", i, f"mail={digest}")
            for i in range(count)] == rec["dice"]
    # Another wording of the same orders is another digest, so other dice: which, only the
    # secret tells.
    worded = hashlib.sha256("".join(t.upper() + "\n" for t in public).encode()).hexdigest()
    assert [dm.die(SECRET, GAME, "german.1", i, f"mail={worded}")
            for i in range(count)] != rec["dice"]
    r = cli("log", path, "--as", "entente", "--since", str(rec["seq"]))
    assert digest in "".join(r.stdout.split()) and "ge-4:cavalry" not in r.stdout
    assert "every die and shuffle recomputed" in " ".join(g.verify(path, secret).lines)


def test_orders_by_hand_without_sheets_mix_in_nothing(tmp_path, cli):
    """Orders given with `order` in a game without sheets keep the secret's own dice (the
    moderator can foresee them): no `dice_from`, the derivation records always had."""
    path, secret = new_game(tmp_path, sides=())
    play_opening(path, {})
    used = rolled(records(path))
    assert used and all("dice_from" not in r for r in used)
    for rec in used:
        count = len(rec.get("dice", []))
        assert rec.get("dice", []) == [dm.die(SECRET, GAME, rec["seq"], i)
                                       for i in range(count)]
    assert "verify: OK" in cli("verify", path, "--secret", secret).stdout


def test_a_mail_registers_a_sheet_and_its_link_rolls_the_dice(tmp_path, cli):
    path, secret, keys = _mail_game(tmp_path)
    raw = _mail("german", [f"Sheet: {GERMAN[0]}", *OPENING_MAIL[:-1], f"Link: {GERMAN[1]}",
                           OPENING_MAIL[-1]], keys["german"], 1)
    out, _ = _inbox(cli, path, tmp_path, [raw], "box1")
    assert out[0]["status"] == "applied", out
    recs = records(path)
    first = recs[out[0]["records"][0]]
    assert first["sheet"] == {"side": "german", "tip": GERMAN[0]}
    assert first["actor"] == "german" and first["mail"]["to"] == "moderator"
    second = recs[out[0]["records"][1]]
    assert second["link"] == {"side": "german", "no": 1, "value": GERMAN[1]}
    rec = rolled(recs)[-1]
    assert rec["dice_from"] == {"links": [second["link"]], "stream": "german.1"}   # no digest
    assert "verify: OK" in cli("verify", path, "--secret", secret).stdout
    # Run again: nothing is applied twice.
    again, _ = _inbox(cli, path, tmp_path, [raw], "box2")
    assert again[0]["status"] == "known" and len(records(path)) == len(recs)


def test_a_mail_with_a_wrong_link_gets_one_reply_naming_the_link_due(tmp_path, cli):
    path, _, keys = _mail_game(tmp_path, sheets_for=("german",))
    before = path.read_bytes()
    raw = _mail("german", [*OPENING_MAIL, f"Link: {GERMAN[2][:63]}x"], keys["german"], 1)
    out, written = _inbox(cli, path, tmp_path, [raw], "box1")
    assert out[0]["status"] == "rejected"
    assert "link 1 of the German player's dice sheet is due" in out[0]["reason"]
    assert path.read_bytes() == before
    replies = [p for p in written if "not applied" in p.read_text()]
    assert len(replies) == 1 and "link 1 of the German player's dice sheet is due" in \
        " ".join(mail_text(replies[0]).split())
    # No link at all where the orders roll: refused the same way, naming the link due.
    raw = _mail("german", OPENING_MAIL, keys["german"], 2)
    out, _ = _inbox(cli, path, tmp_path, [raw], "box2")
    assert out[0]["status"] == "rejected" and "link 1 of the German player's dice sheet is due" in \
        out[0]["reason"] and path.read_bytes() == before
    # Two Link lines: refused, nothing applied.
    raw = _mail("german", [f"Link: {GERMAN[1]}", *OPENING_MAIL, f"Link: {GERMAN[2]}"],
                keys["german"], 3)
    out, _ = _inbox(cli, path, tmp_path, [raw], "box3")
    assert out[0]["status"] == "rejected" and "second 'Link:' line" in out[0]["reason"]
    assert path.read_bytes() == before


def test_a_mail_without_its_link_is_refused_at_the_line_that_rolls_as_any_line_is(tmp_path,
                                                                                   cli):
    """A mail whose orders roll dice with no link: its reply quotes the line that rolls and
    says why as every refused line's reply does (The line: / Why:), in the mail's terms,
    citing the dice sheets' rule (player.md), not the rule of the dice it would roll; the
    die's unit named once (ge-1:artillery, not 'ge-1:artillery artillery')."""
    path, _, keys = _mail_game(tmp_path, sheets_for=("german",))
    before = path.read_bytes()
    raw = _mail("german", ["Hallo,", "", *OPENING_MAIL], keys["german"], 1)
    out, written = _inbox(cli, path, tmp_path, [raw], "box1")
    assert out[0]["status"] == "rejected" and path.read_bytes() == before
    n = len(OPENING_MAIL) + 2                   # the last line rolls: its number in the mail
    k = len(OPENING_MAIL)               # and among the orders, which the reply and log count
    reply = email.message_from_bytes(
        next(p for p in written if "not applied" in p.read_text()).read_bytes(),
        policy=email.policy.default).get_body(("plain",)).get_content()
    flat = " ".join(reply.split())
    assert f"Your message was not applied: line {k} of your orders failed. The line: done " \
           f"Why: the dice of Liège — German artillery fire, ge-1:artillery F1 mix in the " \
           f"next link of the German player's dice sheet, which this mail does not give: " \
           f"link 1 of the German player's dice sheet is due, on a line 'Link: LINK' of the " \
           f"mail " \
           f"(player.md, Dice sheets). Applied: nothing, not even the lines before it" in flat
    assert "order " + str(n - 2) not in flat and "8.3.2" not in flat.split("Below:")[0]
    # The moderator's reason numbers it as the reply does, among the orders.
    assert out[0]["reason"].startswith(f"line {k} ('done'): the dice of Liège")


def test_a_refused_mail_that_showed_a_link_tells_the_player_to_give_the_next(tmp_path, cli):
    # The moderator has read the link of a mail that was not applied: his reply, not only
    # the player's guide, says to give the link after it, which is then taken.
    path, _, keys = _mail_game(tmp_path, sheets_for=("german",))
    before = path.read_bytes()
    raw = _mail("german", [*OPENING_MAIL[:-1], "move ge-1 paris", f"Link: {GERMAN[1]}"],
                keys["german"], 1)
    out, written = _inbox(cli, path, tmp_path, [raw], "box1")
    assert out[0]["status"] == "rejected" and path.read_bytes() == before
    reply = " ".join(next(p for p in written if "not applied" in p.read_text())
                     .read_text().replace("=\n", "").split())
    assert "this mail showed link 1 (line 2 of the sheet file)" in reply
    assert "give link 2 (line 3)" in reply
    # The report inside the reply names link 1 as due: the note says to skip it anyway.
    assert "Your reports still name link 1 as due" in reply and "skip to link 2" in reply
    raw = _mail("german", [*OPENING_MAIL, f"Link: {GERMAN[2]}"], keys["german"], 2)
    out, _ = _inbox(cli, path, tmp_path, [raw], "box2")
    assert out[0]["status"] == "applied", out
    assert [r["link"]["no"] for r in records(path) if "link" in r] == [2]
    # A link that is none of the sheet's, or one used, shows nothing new: no such word.
    raw = _mail("german", ["done", f"Link: {GERMAN[2]}"], keys["german"], 3)
    out, written = _inbox(cli, path, tmp_path, [raw], "box3")
    assert out[0]["status"] == "rejected"
    assert all("this mail showed" not in p.read_text() for p in written)


# ---------------------------------------------------------------- what verify catches

def _played(tmp_path):
    path, secret = new_game(tmp_path)
    play_opening(path, SHEETS)
    return path, secret, records(path)


def _fails(path, secret, *words):
    for given in (secret, None):
        with pytest.raises(JournalError) as e:
            g.verify(path, given)
        for w in words:
            assert w in str(e.value), str(e.value)


def test_verify_catches_a_link_that_does_not_chain(tmp_path):
    path, secret, recs = _played(tmp_path)
    at = next(i for i, r in enumerate(recs) if "link" in r)
    recs[at]["link"]["value"] = "cd" * 32
    for r in recs[at:]:                      # the forger makes the mixes agree with it
        for x in r.get("dice_from", {}).get("links", []):
            if x["side"] == recs[at]["link"]["side"] and x["no"] == recs[at]["link"]["no"]:
                x["value"] = "cd" * 32
    rewrite(path, recs)
    _fails(path, secret, f"record {at}", "not a later link")


def test_verify_catches_a_roll_without_a_link_of_the_actors_own_batch(tmp_path):
    path, secret, recs = _played(tmp_path)
    # The German's second rolling batch written as if it had revealed no link of its own.
    german = [r for r in rolled(recs) if r["actor"] == "german" and "link" in r]
    rec = german[1]
    gone = rec.pop("link")
    earlier = german[0]["link"]
    for r in recs[rec["seq"]:]:
        for x in r.get("dice_from", {}).get("links", []):
            if x == gone:
                x.update(earlier)
    rewrite(path, recs)
    with pytest.raises(JournalError) as e:
        g.verify(path)
    assert f"record {rec['seq']}" in str(e.value) and "no link revealed by his own" in \
        str(e.value)


@pytest.mark.parametrize("forged", ["an older link of his", "the other side's link too",
                                    "another stream", "the record's number"])
def test_verify_catches_a_mix_or_stream_that_is_not_the_referees(tmp_path, forged):
    """A record rewritten to mix in another link than its side's latest, the other side's
    beside it, or to key its dice by another stream or by its number (as rules 7 did): the
    referee writes none of these, and verify names the record, with the secret or not."""
    path, secret, recs = _played(tmp_path)
    rec = [r for r in rolled(recs) if r["actor"] == "entente"][-1]
    mix = rec["dice_from"]
    if forged == "an older link of his":
        mix["links"][0].update({"no": 0, "value": ENTENTE[0]})
    elif forged == "the other side's link too":
        mix["links"].append({"side": "german", "no": 1, "value": GERMAN[1]})
    elif forged == "another stream":
        mix["stream"] = "entente.9"
    else:
        del mix["stream"]
    rewrite(path, recs)
    _fails(path, secret, f"record {rec['seq']}", "dice_from")


def test_verify_catches_dice_that_are_not_the_derivation(tmp_path):
    path, secret, recs = _played(tmp_path)
    rec = max(rolled(recs), key=lambda r: len(r.get("dice", [])))
    n, stream = len(rec["dice"]), rec["dice_from"]["stream"]
    mix = sheets.mix_text(rec["dice_from"])
    plain = [dm.die(SECRET, GAME, rec["seq"], i) for i in range(n)]   # the secret alone
    assert plain != rec["dice"]
    assert [dm.die(SECRET, GAME, stream, i, mix) for i in range(n)] == rec["dice"]
    del rec["dice_from"]                     # claims the old derivation
    rewrite(path, recs)
    _fails(path, secret, f"record {rec['seq']}")


def test_verify_catches_a_mail_record_without_its_mails_digest(tmp_path, cli):
    path, secret, keys = _mail_game(tmp_path)
    raw = _mail("german", OPENING_MAIL, keys["german"], 1)
    out, _ = _inbox(cli, path, tmp_path, [raw], "box1")
    assert out[0]["status"] == "applied"
    recs = records(path)
    rec = rolled(recs)[-1]
    # The moderator's own derivation: the secret alone, as if no mail had come.
    del rec["dice_from"]
    rec["dice"] = [dm.die(SECRET, GAME, rec["seq"], i) for i in range(len(rec["dice"]))]
    rewrite(path, recs)
    r = cli("verify", path, "--secret", secret)
    assert r.exit_code == 3
    assert f"record {rec['seq']}" in r.stderr


def test_verify_catches_a_dice_sheet_registered_by_the_other_side(tmp_path):
    path, secret, recs = _played(tmp_path)
    reg = next(r for r in recs if "sheet" in r and r["sheet"]["side"] == "german")
    reg["actor"] = "entente"
    rewrite(path, recs)
    _fails(path, secret, f"record {reg['seq']}", "dice sheet")


# ---------------------------------------------------------------- the deck, and manual dice

def test_the_deck_order_after_a_shuffle_is_the_moderators_to_read(tmp_path, cli):
    """The table's card-draw row: the moderator reads the deck order in the journal (so he
    knows every card drawn until the next shuffle); no player and no outsider does."""
    path, _ = new_game(tmp_path)
    shuffle = next(e for e in records(path)[1]["events"] if e["type"] == "DeckShuffled")
    order = shuffle["secret"]["data"]["order"]
    seen = cli("log", path, "--as", "moderator", "--format", "json").stdout
    assert json.dumps(order, separators=(",", ":")) in seen
    for reader in ("german", "entente", "public"):
        shown = cli("log", path, "--as", reader, "--format", "json").stdout
        assert json.dumps(order, separators=(",", ":")) not in shown


def test_manual_dice_are_said_in_every_view_and_take_no_sheet(tmp_path, cli):
    path = tmp_path / "m.jsonl"
    secret = tmp_path / "s.secret"       # with GAME, the German's hand holds an Offensive
    dm.write_secret(secret, SECRET)
    r = cli("new", path, "--scenario", "1914", "--dice", "manual", "--sheet",
            f"german={GERMAN[0]}", "--secret-file", secret)
    assert r.exit_code == 2 and not path.exists(), r.output
    assert cli("new", path, "--scenario", "1914", "--dice", "manual", "--secret-file",
               secret, "--game-id", GAME).exit_code == 0
    r = cli("players", path, "--sheet", f"german={GERMAN[0]}")
    assert r.exit_code == 2 and "manual" in r.stderr
    for command in ("show", "status"):
        assert json.loads(cli(command, path, "--format", "json").stdout)["dice"] == "manual"
        assert "Dice are manual" in cli(command, path).stdout
    report = json.loads(cli("report", path, "--as", "german", "--format", "json").stdout)
    assert report["dice"] == "manual"
    assert "Dice are manual" in cli("report", path, "--as", "german", "--since", "0").stdout
    assert json.loads(cli("dice", path, "--format", "json").stdout)["mode"] == "manual"
    assert "(manual dice, rolled by the players)" in " ".join(cli("dice", path).stdout.split())
    assert "dice manual" in " ".join(cli("log", path).stdout.split())
    # A record with dice says who rolled them.
    r = cli("order", path, "--as", "german", *DEMO_OPENING, "done", "done", "done",
            "--dice", "1,2")
    assert r.exit_code == 0, r.output
    assert "dice rolled by the players (manual dice): 1, 2" in " ".join(
        cli("log", path).stdout.split())
    # And a committed game says nothing of the kind.
    plain = tmp_path / "c.jsonl"
    assert cli("new", plain, "--scenario", "1914").exit_code == 0
    assert json.loads(cli("show", plain, "--format", "json").stdout)["dice"] == "committed"
    assert "Dice are manual" not in cli("status", plain).stdout


def test_the_shown_chain_check_is_bounded_by_the_sides_own_links(monkeypatch):
    """A tip is checked against the side's own sheet alone (its latest link, and its latest
    of an earlier sheet), never against every value a journal holds: a hostile journal
    of many registrations cannot make each one cost more than its side's links."""
    calls = []
    real = sheets.hashed
    monkeypatch.setattr(sheets, "hashed", lambda v: calls.append(v) or real(v))
    pos = sheets.SheetPos(ENTENTE[0], 2, ENTENTE[2], 9)
    assert not sheets.on_a_shown_chain(sheets.hashed("unrelated"), pos)
    calls.clear()
    assert not sheets.on_a_shown_chain(real("another"), pos)
    assert len(calls) == 2 + sheets.MAX_SKIP + 1
    assert sheets.on_a_shown_chain(ENTENTE[0], pos)            # the side's own tip again
    assert not sheets.on_a_shown_chain(ENTENTE[2], pos)        # its latest link: no danger
    assert not sheets.on_a_shown_chain(ENTENTE[0], None)
