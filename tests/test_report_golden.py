"""Reports in each format against files reviewed by hand: the Liège battle of `referee demo`,
and a scripted siege of Verdun that ends in a production phase (test_the_siege_of_verdun).

The Liège game is `referee demo`: a fixed secret and a scripted German opening, so
every die is the same on every run. The golden files were read against the
rules: the Liège battle's fire steps in the order of 5.2.1 (artillery,
defensive, offensive fire), the Siege Gun firing at the fort at F3 (8.3.3),
each hit paid by the side that takes it (5.3.1), the fort's two lost steps
leaving a strength 1 fort that holds no area, so Liège becomes German-Friendly
(8.4), the VP rising by Liège's 1 VP to 13 (3.1), the German hand less the
Offensive he played, and the Entente's hand never named. Their Board: Liège German
with ge-1 down to 3 infantry (the one lost, 5.3.1) and no fort (the Liège fort
reduced to zero is removed from the game, 5.3.1, 8.4); Ardennes German with the
cavalry that left ge-4 (now 3I+1A); the lost Belgian infantry and German infantry back
in their force pools (5.3.1); hand sizes 4 and 4 and one card face up (the Offensive
played, 1.3); the Sedan 0 fort told as firing no dice (8.4). Only the receipt's hash
(which covers the records' times) and the fingerprint of the game's key (a new key each
game) are replaced before comparing. Every order of these games was entered with `order --as`,
so each report says so beside it.
"""

import json
import re
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

import gamecalls as g
from casebook import new_game, position

GOLDEN = Path(__file__).parent / "golden"
HASH = re.compile(r"\b(\d+):[0-9a-f]{32}\b")
KEY = re.compile(r"\b(Fingerprint:\**) [0-9A-Z]{4}(-[0-9A-Z]{4}){3}\b")
CASES = [("german", "text", "txt"), ("german", "markdown", "md"), ("german", "bbcode", "bbcode"),
         ("public", "text", "txt"), ("entente", "markdown", "md")]


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    from typer.testing import CliRunner

    from referee.cli.app import app

    folder = tmp_path_factory.mktemp("demo")
    with pytest.MonkeyPatch.context() as mp:        # this module's own referee home
        mp.setenv("REFEREE_HOME", str(folder / "home"))
        assert CliRunner().invoke(app, ["demo", "--keep", str(folder)]).exit_code == 0
    return folder / "demo-1914.jsonl"


@pytest.mark.parametrize("reader,fmt,ext", CASES)
def test_the_report_of_the_liege_battle(demo, cli, reader, fmt, ext):
    r = cli("report", demo, "--as", reader, "--since", "0", "--format", fmt)
    assert r.exit_code == 0, r.stderr
    got = KEY.sub(r"\1 KEY", HASH.sub(r"\1:HASH", r.stdout))
    path = GOLDEN / f"report-liege-{reader}.{ext}"
    assert got == path.read_text(encoding="utf-8")
    if fmt == "text":
        assert all(len(line) <= 72 for line in got.splitlines()[:-1])


# ---------------------------------------------------------------- the siege of Verdun

# AUTUMN 1914 (turn 2), German player turn, hidden army templates (1.4). The German holds
# Briey with two armies; a French army of one infantry stands in Verdun (fort 4) and
# another in Sedan; the Longwy and Sedan forts are out of play, so that no other fort
# has a say. (side, order, dice) one record each, dice forced.
SIEGE = position("1914", turn=2, player="german", passes=1,
                 hands={"german": ["off-01", "off-02", "ers2-01"],
                        "entente": ["off-03", "loff-01"]},
                 control={"briey": "german"}, forts={"fort-longwy": "out", "fort-sedan": "out"},
                 remove_units=["ge-2", "ge-3", "ge-5", "fr-3", "fr-5"],
                 add_units=["ge-2 ge army aachen 4I+1C+1A", "ge-3 ge army briey 3I+1A",
                            "ge-5 ge army briey 3I+1A+1G", "fr-3 fr army verdun 1I",
                            "fr-5 fr army sedan 1I"])
BATTLES = [
    ("german", "play offensive", None), ("german", "move ge-5 verdun", None),
    ("german", "move ge-3 sedan", None), ("german", "end movement", None),
    ("german", "done", None), ("german", "done", None), ("entente", "done", None),
    ("german", "fight sedan", None), ("german", "done", None),
    ("entente", "done", "6"),                       # Sedan: German artillery misses
    ("entente", "done", "6,1,6,6,6"),               # defensive fire misses; 1 offensive hit
    ("entente", "lose fr-5:infantry", None),        # fr-5's last unit: it is eliminated
    ("german", "done", None),                       # no retreat; Verdun is fought next
    ("german", "done", None),
    ("entente", "done", "6,2"),                     # Verdun: the Siege Gun hits (F3)
]
PRODUCTION = [
    ("entente", "lose fort-verdun", None),          # Verdun 4 -> 3
    ("entente", "done", "6,6,6,6,6,6,6,6,6"),       # every other die misses
    ("german", "done", None), ("entente", "done", None),      # nobody retreats
    ("entente", "pass", None), ("entente", "end turn", None),
    ("german", "pass", None), ("german", "end turn", None),    # two passes: production
    ("german", "buy 2", None), ("german", "build ge:infantry verdun into ge-5", None),
    ("german", "done", None),
]
# (position, reader, format, extension, --since): the battle position is reported from
# after the set-up, the production one from the end of the Verdun battle.
SIEGE_CASES = [("battle", "german", "text", "txt", 1), ("battle", "entente", "markdown", "md", 1),
               ("production", "public", "bbcode", "bbcode", 16),
               ("production", "entente", "text", "txt", 16),
               ("production", "moderator", "markdown", "md", 16)]


def _play(journal: Path, steps) -> None:
    for side, order, dice in steps:
        r = g.submit(journal, side, [order], dice)
        assert r.rejected is None, (order, r.rejected)


@pytest.fixture(scope="module")
def siege(tmp_path_factory) -> dict[str, Path]:
    """The journal stopped in the Verdun battle, and a copy played on to the production
    phase with the German plan sealed and the Entente's not yet given."""
    folder = tmp_path_factory.mktemp("siege")
    with pytest.MonkeyPatch.context() as mp:        # this module's own referee home
        mp.setenv("REFEREE_HOME", str(folder / "home"))
        journal = new_game(folder, SIEGE, {"hidden_templates": True}, "manual", name="siege")
        (folder / "siege.fixed-secret").chmod(0o600)
        _play(journal, BATTLES)
        later = folder / "siege-production.jsonl"
        later.write_bytes(journal.read_bytes())
        later.chmod(0o600)
        _play(later, PRODUCTION)
    return {"battle": journal, "production": later}


@pytest.mark.parametrize("where,reader,fmt,ext,since", SIEGE_CASES)
def test_the_siege_of_verdun(siege, cli, where, reader, fmt, ext, since):
    """A battle being fought, a fort under siege, an eliminated army and a production phase,
    each format. Read against the rules:

    - Sedan is fought first: the attacker orders his battles (5.2.1). Its fire comes in the
      order artillery (ge-3's 1 artillery die), defensive (fr-5's 1 infantry die),
      offensive (3 infantry and 1 artillery: 4 dice) (5.2.1 b-d); the one hit takes fr-5's
      last unit and an army that loses its last unit is eliminated (5.3.1 note, 8.1), so
      Sedan becomes German (4.1), fr-5 is listed among the eliminated armies and the VP
      gains +1 for an eliminated Entente army (3.1, charts.yaml) besides Briey's 1 VP.
    - Verdun: the Siege Gun fires at F3 in the artillery phase; its hit must go to the fort
      (8.3.3), so the battle position waits on the Entente to lose a step of Verdun 4, the
      board marks Verdun's battle as being fought and Sedan's as fought (5.2), and the fort
      4/4 as besieged (German units stand with it). Then Verdun 3 rolls 3 dice (8.4) and
      fr-3 one; all miss, as do the German 5 (Siege Gun again, 8.3.3). Nobody retreats
      (5.4.2): Verdun stays Disputed with ge-5, fr-3 and the fort 3/4, still besieged.
    - Both sides then pass one after the other, so the production phase begins (2.0 IV, V)
      with the AUTUMN 1914 Build Points, German 10 and Entente 8 (7.0, the chart in
      charts.yaml), shown to every reader; the German plan is sealed (7.0): the Entente,
      the public and the board never name its orders, only the German's own report would.
    - Hidden templates (1.4): the Entente and the public see the German armies as
      [hidden] and the German force pool not at all; the German sees his own contents;
      the moderator sees every army and both hands; a side sees his own hand by name and
      the other's size only, the public sizes only (1.3).
    - Markdown has no raw HTML (markdown-it-py); text lines are at most 72 columns.
    """
    r = cli("report", siege[where], "--as", reader, "--since", str(since), "--format", fmt)
    assert r.exit_code == 0, r.stderr
    got = KEY.sub(r"\1 KEY", HASH.sub(r"\1:HASH", r.stdout))
    path = GOLDEN / f"report-siege-{where}-{reader}.{ext}"
    assert got == path.read_text(encoding="utf-8")
    if fmt == "text":
        assert all(len(line) <= 72 for line in got.splitlines()[:-1])
    if fmt == "markdown":
        tokens = MarkdownIt("commonmark").enable("table").parse(got)
        inline = [c for t in tokens for c in (t.children or [])]
        assert not [t for t in tokens + inline if t.type in ("html_block", "html_inline")]


def test_a_sealed_plan_s_orders_are_each_kept_on_one_line(siege, cli):
    """The German's own report lists his sealed plan (7.0) with its orders: one was cut, "...
    production plan (7.0): build ge infantry verdun into" / "ge-5", so that neither line
    read as the order he gave; each order is whole on its line, its area named as the board
    names it."""
    r = cli("report", siege["production"], "--as", "german", "--since", "16")
    assert r.exit_code == 0, r.stderr
    lines = r.stdout.splitlines()
    items = []                  # each item of the report's lists, its lines
    for line in lines:
        if line.startswith("- "):
            items.append([line])
        elif line.startswith("  ") and items:
            items[-1].append(line)
    # Two parts of his plan, then the record that ends it (game/planparts.py).
    sealed = [item for item in items if "production plan (7.0)" in item[0] and
              "seals" in item[0]]
    orders = ["buy 2", "build ge infantry Verdun into ge-5"]
    assert [" ".join(" ".join(item).split(": ", 1)[1].split()) for item in sealed] == orders
    for item, order in zip(sealed, orders):
        assert any(line.strip().endswith(order) for line in item), item
    # The record that ends it seals no order of its own: it adds none, it does not seal none.
    assert ["- German adds no orders to the production plan (7.0)"] in items
    assert all(len(line) <= 72 for line in lines[:-1])


@pytest.fixture(scope="module")
def revealed(siege) -> Path:
    """A copy of the production journal where the Entente gives his plan too: both plans
    are revealed and carried out (7.0), the German's 2 cards bought drawn (7.1)."""
    journal = siege["production"].with_name("siege-revealed.jsonl")
    journal.write_bytes(siege["production"].read_bytes())
    journal.chmod(0o600)
    with pytest.MonkeyPatch.context() as mp:        # the module's referee home: its key
        mp.setenv("REFEREE_HOME", str(journal.parent / "home"))
        _play(journal, [("entente", "done", None)])
    return journal


def test_a_sealed_plan_is_told_in_words_not_set_as_orders(siege, revealed, cli):
    """A sealed plan's record that a reader sees only as what it holds is headed by those
    words, not set as an order he could type (the plan's owner reads his own orders as
    orders); once both plans are in, each revealed plan heads the lines of what carried
    its orders out, none set as an order to type nor told twice (7.0, 1.4)."""
    def report(journal: Path, reader: str, since: int) -> list[str]:
        r = cli("report", journal, "--as", reader, "--since", str(since), "--format", "chat")
        assert r.exit_code == 0, r.stderr
        return r.stdout.split("\n")

    sealed = siege["production"]
    part = "#25 German: part of a sealed production plan (7.0)"
    assert part in report(sealed, "public", 16)
    assert part in report(sealed, "entente", 16)
    assert "#25 German: `buy 2` — ⚑ entered by hand at the referee" in \
        report(sealed, "german", 16)
    public = report(revealed, "public", 27)
    # What the orders shown cost (two cards at 1 BP, 7.1), not the plan's totals: with the
    # 10 BP the public can count, those would price the hidden order (1.4).
    # Each order told once, by the line of what carried it out, under the plan's heading.
    head = "- **German's production plan revealed (2 BP spent on the orders shown; the rest " \
           "is hidden, 1.4; 7.0):**"
    assert public[public.index(head) + 1:public.index(head) + 3] == [
        "- German builds or upgrades a unit in one of his armies (hidden, 1.4)",
        "- German draws 2 cards, 2 cards bought (7.1)"], public
    # The BP lost are those left unspent (7.0), told so: a card bought over the card limit
    # is told 'the BP spent on it is lost' (7.1), and a bare '0 lost' read against it.
    german = report(revealed, "german", 27)
    assert "- **German's production plan revealed (3 BP spent, 7 left unspent and lost, " \
           "7.0):**" in german and "buy 2" not in "".join(german), german
    assert "- German builds ge infantry in Verdun into army ge-5 (1 BP)" in german
    assert not [ln for ln in public if ln.startswith("- `") or "plan (7.0)`" in ln]


def test_cards_bought_keep_their_recorded_words_and_read_plainly(revealed, cli):
    """7.1: the German buys 2 cards. The journal keeps the reason as the engine wrote it,
    "2 card(s) bought (7.1)" (verify compares it with a replay, and older journals hold the
    same words); the report reads "draws 2 cards, 2 cards bought"."""
    drawn = [e for line in revealed.read_text().splitlines()[1:]
             for e in json.loads(line)["events"] if e["type"] == "CardsDrawn"]
    assert [(e["side"], e["reason"]) for e in drawn][-1:] == \
        [("german", "2 card(s) bought (7.1)")]
    r = cli("report", revealed, "--as", "public", "--since", "27")
    assert r.exit_code == 0, r.stderr
    assert "- German draws 2 cards, 2 cards bought (7.1)" in r.stdout
    assert "(s)" not in r.stdout


def test_a_siege_gun_hit_the_referee_pays_for_a_silent_side_cites_the_siege_gun_rule(siege):
    """Verdun's hit is a Siege Gun hit: the fort's step pays it because of 8.3.3, not because
    the fort is the strongest unit (fr-2 is stronger): the referee's answer for a silent
    Entente, and the decision's own words, say so."""
    from referee.game.defaults import default_answer

    opened = g.open_game(siege["battle"])
    answer = default_answer(opened.state, opened.data, "entente")
    assert (answer.text, answer.rule) == ("lose fort-verdun", "8.3.3"), answer
    assert "Siege Gun" in answer.why and "strongest" not in answer.why, answer
