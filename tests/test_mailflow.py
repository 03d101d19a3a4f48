"""Playing by mail only: `inbox` reads the players' messages, its outbox holds every reply.

A whole SUMMER 1914 is played through the mailbox, each player answering in one mail every
decision the rules let him answer before a die, a card drawn or the other side (2.0): the
mails say what comes next and how to answer it at once, and the count of mails is set
against answering one decision per mail (the count `make roundtrips` keeps). A message
with an illegal order gets one reply saying which line failed and why; production mails
show what the orders cost, from the game data (7.0-7.6).

Each player's choices are the fixed policy of `make roundtrips` (cli/roundtrips.py): moves
from a short list, the first legal placement, loss or retreat, every optional decision
declined. How many of them fit in one mail is found with a dry run, which writes nothing.
"""

from __future__ import annotations

import email.utils
import io
import json
import re
from pathlib import Path

from flowtext import written
from mailboxes import write_maildir
from mailkinds import headline
from PIL import Image
from test_inbox import ADDRESSES, GAME, KEYS, SECRET, read_mail

import gamecalls as g
from casebook import new_game, position
from referee.cli.roundtrips import choose, journal_figures
from referee.engine import acting, waiting_on
from referee.mail.inbox import inbox as mail_inbox
from referee.store.dice import write_secret

WIDTH = 72
RECEIPT = re.compile(r"^Receipt: \S+ \d+:[0-9a-f]{32}$")
SIGNED_LINE = re.compile(r"  [A-Za-z0-9_-]{44,64}")      # a line of a receipt's Signed block
SIDE_OF = {a.casefold(): s for s, a in ADDRESSES.items()}


# ---------------------------------------------------------------- a table played by mail

class Table:
    """A game, its players' mailbox (a Maildir their messages are delivered to) and the
    outbox folders of each `inbox` run."""

    def __init__(self, tmp: Path, cli, journal: Path, keys: dict[str, str],
                 games: Path | None = None, with_map: bool = False):
        self.tmp, self.cli, self.journal, self.keys, self.games = tmp, cli, journal, keys, games
        self.with_map = with_map               # drawing maps costs time
        self.sent: list[bytes] = []            # every message delivered so far
        self.subject = {s: "orders" for s in keys}
        self.runs = 0
        self.receipts: list[str] = []

    def send(self, side: str, lines: list[str]) -> str:
        """A message from side's address with these lines and his key; its Message-ID."""
        n = len(self.sent)
        mid = f"<m{n}.{side}@players.example>"
        date = email.utils.formatdate(1_000_000_000 + 60 * n)
        body = "\n".join(lines) + f"\n\nOrder key: {self.keys[side]}\n"
        self.sent.append((f"From: {ADDRESSES[side]}\nTo: {ADDRESSES['moderator']}\n"
                          f"Subject: Re: {self.subject[side]}\nDate: {date}\n"
                          f"Message-ID: {mid}\n\n{body}").encode())
        return mid

    def inbox(self) -> tuple[list[dict], list]:
        """One `inbox` run over the whole mailbox: the new messages' outcomes, and the mails
        written (each checked as every mail to a player must be)."""
        self.runs += 1
        box = write_maildir(self.tmp / f"box{self.runs}", self.sent)
        out = self.tmp / f"out{self.runs}"
        # What `referee inbox JOURNAL BOX --outbox OUT` runs (test_inbox.py runs the command
        # itself); called here without the command line's start, many times over.
        outcomes, written = mail_inbox(self.journal, [box], out, self.games, self.with_map)
        mails = [read_mail(p) for p in written]
        for m in mails:
            side = SIDE_OF[str(m["To"]).casefold()]
            self.subject[side] = str(m["Subject"])
            self.receipts.append(check_player_mail(m, side, self.with_map))
        return [vars(o) for o in outcomes if o.new], mails

    def verify_receipts(self) -> None:
        """`verify` takes every receipt the mails gave, each line exactly as a mail printed
        it (the journal only grows: each still names its record as it was)."""
        r = self.cli("verify", self.journal, *[a for line in self.receipts
                                               for a in ("--receipt", line)])
        assert r.exit_code == 0, r.output
        # each receipt given is checked, a repeated one too (the order given cannot matter)
        assert f"receipts: {len(self.receipts)} checked" in r.stdout, r.stdout


def text_of(mail) -> str:
    """The text of a mail (its plain part, beside the map it may carry)."""
    return written(mail.get_body(("plain",)).get_content())


def check_map(mail, with_map: bool) -> None:
    """A mail carries one map.png, which decodes, 1,000 pixels wide, exactly when maps are
    on (inbox draws each reader's map; test_map.py checks what the picture holds)."""
    pictures = [p for p in mail.iter_attachments() if p.get_content_type() == "image/png"]
    assert len(pictures) == (1 if with_map else 0), [p.get_content_type() for p in pictures]
    for part in pictures:
        assert part.get_filename() == "map.png"
        with Image.open(io.BytesIO(part.get_content())) as image:
            image.load()
            assert image.format == "PNG" and image.width == 1000 and image.height > 500


def lone_order(line: str) -> bool:
    """Whether a line is an order alone on its line (indented, as the mails show orders to
    paste back), not a wrapped line of prose or of a list of choices."""
    return line.startswith("  ") and not line.startswith("   ") and "," not in line and \
        "→" not in line


def check_player_mail(mail, side: str, with_map: bool = False) -> str:
    """What every mail to a player holds (every test here checks each mail through this one
    place): his key only, the board as he may see it (unless nothing has happened since
    the report he has), what he is asked now or when he is
    asked next (2.0), lines of at most 72 columns but a lone order line, last the receipt
    (Table.verify_receipts has `verify` read it), and with_map his map as a PNG 1,000 pixels
    wide that decodes. Returns the receipt line."""
    body = text_of(mail)
    check_map(mail, with_map)
    lines = body.rstrip("\n").split("\n")
    other = next(s for s in KEYS if s != side)
    assert f"Order key: {KEYS[side]}" in lines and KEYS[other] not in body
    assert "Now" in lines, body
    if "Nothing has happened since your last report." in lines:   # he has that board
        assert "Board" not in lines, body
    else:
        assert "Board" in lines and lines[lines.index("Board") + 1] == "-----", body
    text = " ".join(body.split())
    assert ("Nothing is asked of you now." in text or "one sealed plan" in text or
            "You may answer several decisions in one mail" in text), body
    # No command of the referee's command line: a player by mail cannot run one. (The
    # receipt's Signed lines are base64url, which may begin '--' and a letter by chance.)
    words = "\n".join(line for line in lines if not SIGNED_LINE.fullmatch(line))
    assert "status --all" not in body and not re.search(r"(?<![-\w])--[a-z]", words)
    assert not re.search(r"referee (order|status|report|show|log|verify|inbox|new)\b", text)
    for line in lines:
        assert len(line) <= WIDTH or lone_order(line), line
    assert RECEIPT.match(lines[-1]), lines[-1]
    return lines[-1]


def _game(tmp_path: Path, cli) -> Path:
    """A 1914 game with the fixed secret, game id and players of test_inbox (so its keys)."""
    secret = tmp_path / "fixed.secret"
    write_secret(secret, SECRET)
    journal = tmp_path / "g.jsonl"
    r = cli("new", journal, "--scenario", "1914", "--game-id", GAME, "--secret-file", secret,
            *[a for side, addr in ADDRESSES.items() for a in ("--player", f"{side}={addr}")])
    assert r.exit_code == 0, r.output
    return journal


# The opening each side plays once; after it, each passes (2.0 II.1) until both have passed
# in a row and production comes (2.0 IV): one battle, in Liège, keeps the turn short.
OPENING = {"german": ["play offensive", "move ge-1 liege"], "entente": []}


def answer(state, data, side: str, moved: list[str], opened: set[str]) -> str:
    """The policy of `make roundtrips` (choose), but for the card and the moves: the side's
    OPENING once, then a pass."""
    kind = state.pending.kind
    if kind == "card_or_pass":
        if side in opened or not OPENING[side]:
            return "pass"
        opened.add(side)
        return OPENING[side][0]
    if kind == "movement":
        moves = [m for m in OPENING[side][1:] if m not in moved]
        return moves[0] if moves else "end movement"
    return choose(state, data, side, moved)


def one_mail(journal: Path, side: str, opened: set[str]) -> list[str]:
    """The orders side sends in one mail: the policy's answers to each decision in turn, up to
    and with the first whose result needs dice, a card or the other side (a dry run tells)."""
    texts: list[str] = []
    moved: list[str] = []
    game = g.open_game(journal)
    state, data = game.state, game.data
    while state.phase != "over" and acting(state, side):
        kind = state.pending.kind
        text = answer(state, data, side, moved, opened)
        probe = g.submit(journal, side, [*texts, text], dry_run=True)
        assert probe.rejected is None, (texts, text, probe.rejected)
        texts.append(text)
        moved = [*moved, text] if kind == "movement" and text.startswith("move") else []
        if probe.stopped is not None:
            break
        state = probe.state
    return texts


# ---------------------------------------------------------------- a whole turn

def test_a_summer_1914_turn_played_by_mail_answers_several_decisions_a_mail(tmp_path, cli):
    journal = _game(tmp_path, cli)
    table = Table(tmp_path, cli, journal, KEYS, with_map=True)
    outcomes, mails = table.inbox()                      # the opening mails, with their maps
    assert outcomes == [] and len(mails) == 2
    table.with_map = False      # drawn in every mail of a turn, the maps cost most of the time
    orders_by_mail: dict[str, list[int]] = {s: [] for s in KEYS}
    opened: set[str] = set()
    while True:
        state = g.open_game(journal).state
        if state.phase == "over" or state.turn > 1:
            break
        sent = {}
        for side in waiting_on(state):
            sent[table.send(side, one_mail(journal, side, opened))] = side
        outcomes, mails = table.inbox()
        assert {o["message_id"] for o in outcomes} == set(sent), outcomes
        for o in outcomes:
            assert o["status"] == "applied", o
            orders_by_mail[o["side"]].append(len(o["records"]))
        # Every side the referee now waits on has a mail asking him.
        asked = {SIDE_OF[str(m["To"]).casefold()] for m in mails}
        assert set(waiting_on(g.open_game(journal).state)) <= asked
        assert table.runs < 60, "the turn does not end"
    assert g.open_game(journal).state.turn == 2          # SUMMER 1914 is over (2.0 VI)
    table.verify_receipts()
    # Both players answered several decisions in one mail somewhere.
    for side, counts in orders_by_mail.items():
        assert max(counts) >= 2, (side, counts)
    mails_sent = sum(len(c) for c in orders_by_mail.values())
    summer = journal_figures(journal)[1]
    # One decision a mail would cost a mail per decision asked; here a mail per hand-off, and
    # a few more where a die comes between two decisions of the same side.
    assert summer["hand-offs"] <= mails_sent < summer["decisions"], (mails_sent, summer)


def test_an_answer_to_part_of_the_decisions_gets_the_rest_asked(tmp_path, cli):
    journal = _game(tmp_path, cli)
    table = Table(tmp_path, cli, journal, KEYS)
    table.inbox()
    mid = table.send("german", ["play offensive"])               # and not his moves
    outcomes, mails = table.inbox()
    assert [(o["message_id"], o["status"]) for o in outcomes] == [(mid, "applied")]
    german = [m for m in mails if SIDE_OF[str(m["To"]).casefold()] == "german"]
    assert len(german) == 1 and german[0]["In-Reply-To"] == mid
    text = " ".join(text_of(german[0]).split())
    # Still his: the movement phase (2.0 II.2), then the end of his player turn.
    assert "Your decision: movement phase" in text
    assert "after end movement: end of your player turn" in text
    mid = table.send("german", ["move ge-1 liege", "end movement"])
    outcomes, mails = table.inbox()
    assert [(o["message_id"], o["status"]) for o in outcomes] == [(mid, "applied")]
    text = " ".join(text_of(next(m for m in mails
                                 if SIDE_OF[str(m["To"]).casefold()] == "german")).split())
    # A battle in Liège: declaring battles (2.0 II.3) has only 'done' open, whatever his
    # hand, so the referee closes it; he plays combat cards next, still before the Entente.
    assert "German: done (declare battles) — ⚑ closed by the referee: the only order open " \
        "(2.0 II.3)" in text
    assert "Your decision: as attacker, your hand holds none of the cards the rules allow " \
        "now" in text


# ---------------------------------------------------------------- one reply per mistake

def test_an_illegal_order_gets_one_reply_with_the_line_the_rule_and_the_orders(tmp_path, cli):
    journal = _game(tmp_path, cli)
    table = Table(tmp_path, cli, journal, KEYS)
    table.inbox()
    before = journal.read_bytes()
    long_line = "move ge-1 paris"
    mid = table.send("german", ["play offensive", long_line, "end movement"])
    outcomes, mails = table.inbox()
    assert [(o["message_id"], o["status"]) for o in outcomes] == [(mid, "rejected")]
    assert journal.read_bytes() == before                         # all or nothing
    replies = [m for m in mails if SIDE_OF[str(m["To"]).casefold()] == "german"]
    assert len(replies) == 1, [str(m["Subject"]) for m in mails]
    (reply,) = replies
    assert reply["In-Reply-To"] == mid and "not applied" in headline(reply)
    body = text_of(reply)
    lines = body.split("\n")
    assert "  " + long_line in lines                               # the line, quoted alone
    text = " ".join(body.split())
    assert "line 2 of your orders failed" in text
    assert "Why: Paris is not adjacent to" in text and "(rule 4.1)" in text   # 4.1: one area
    assert "Applied: nothing, not even the lines before it" in text
    assert "Your decision: play an Offensive-type card or pass" in text  # asked again
    assert any(ln.startswith("- play → offensive") for ln in lines)
    assert "- Also: pass, propose armistice, surrender" in lines
    for line in lines:
        assert len(line) <= WIDTH or line.strip() == long_line, line
    # The Entente's first mail was sent already: nothing new for him, no mail.
    assert [SIDE_OF[str(m["To"]).casefold()] for m in mails] == ["german"]
    again, mails = table.inbox()                                    # answered once only
    assert again == [] and mails == []
    table.verify_receipts()


def test_a_line_refused_after_legal_ones_lists_the_orders_open_at_it(tmp_path, cli):
    """The orders before the refused line were legal and rolled no die: the reply lists what
    was open at that line (the moves after 'play offensive'), saying where, before the
    report, which still asks what the game asks now (nothing was applied)."""
    journal = _game(tmp_path, cli)
    table = Table(tmp_path, cli, journal, KEYS)
    table.inbox()
    table.send("german", ["play offensive", "move ge-1 paris", "end movement"])
    _, mails = table.inbox()
    (reply,) = [m for m in mails if SIDE_OF[str(m["To"]).casefold()] == "german"]
    body = text_of(reply)
    lines = body.split("\n")
    at = next(i for i, ln in enumerate(lines)     # narrowed to ge-1, the unit it names
              if ln.startswith("At that line, after the 1 order before it, the orders open"))
    refusal, report = lines[:at], lines[at:]
    assert "Applied: nothing, not even the lines before it: the orders of one" in refusal
    listed = report[:report.index("Below: what you are asked now, then your report.")]
    assert any(ln.startswith("- move ge-1") for ln in listed), listed
    assert "end movement" in " ".join(listed) and "play → offensive" not in " ".join(listed)
    assert any(ln.startswith("- play → offensive") for ln in report)     # asked now
    assert all(len(line) <= WIDTH for line in lines if line.strip() != "move ge-1 paris")
    from leakcheck import Output, Truth

    # Nothing of the Entente's in it (its body: the From is the moderator's address here).
    leaks = Truth(journal, ADDRESSES, KEYS).leaks(
        Output("outbox", "text", "german", ["outbox", str(journal)], 0, body, "", "records"))
    assert leaks == [], leaks


def test_a_line_refused_first_or_after_a_roll_lists_no_orders_at_it(tmp_path, cli):
    """Refused at its first order, or after one whose result needs dice (whose outcome the
    sender did not see): the reply lists only what is asked now."""
    journal = _game(tmp_path, cli)
    table = Table(tmp_path, cli, journal, KEYS)
    table.inbox()
    table.send("german", ["move ge-1 paris", "end movement"])
    _, mails = table.inbox()
    (reply,) = [m for m in mails if SIDE_OF[str(m["To"]).casefold()] == "german"]
    assert "the orders open were" not in text_of(reply)
    from test_pbem_edges import _battle_game

    battle = _battle_game(tmp_path, "5e")            # 'done' rolls the battle's dice
    r = g.submit(battle, "german", ["done", "pass"], atomic=True, handoff_ends=True)
    assert r.rejected is not None and r.refused_at is None


# ---------------------------------------------------------------- production (7.0)

def _production_table(tmp_path: Path, cli, games: Path | None = None) -> Table:
    """Players registered on a game one Entente pass away from production (2.0 IV, V)."""
    sc = position("1914", turn=1, player="entente", passes=1,
                  hands={"german": ["off-01", "ers2-01"], "entente": ["off-03", "ers2-03"]})
    journal = new_game(tmp_path, sc, games_dir=games, name=GAME)
    pre = ["--games", games] if games else []
    r = cli(*pre, "players", journal,
            *[a for side, addr in ADDRESSES.items() for a in ("--set", f"{side}={addr}")])
    assert r.exit_code == 0, r.output
    keys = {p["side"]: p["key"] for p in json.loads(
        cli(*pre, "players", journal, "--keys", "--format", "json").stdout)["players"]
        if p["side"] != "moderator"}
    assert g.submit(journal, "entente", ["pass", "end turn"], games_dir=games).rejected is None
    assert g.open_game(journal, games_dir=games).state.pending.kind == "production"
    return Table(tmp_path, (lambda *a, **k: cli("--games", games, *a, **k)) if games else cli,
                 journal, keys, games)


def _mail_to(mails, side: str):
    (mail,) = [m for m in mails if SIDE_OF[str(m["To"]).casefold()] == side]
    return mail


def test_the_production_mail_shows_what_each_order_costs_from_the_game_data(tmp_path, cli):
    """7.6 prices a card, an infantry unit and an empty army at 1 BP, a tank at 2, four
    entrenched units at 1 BP (7.4). The game data here asks 3 BP a card, so the mail must."""
    from datacopy import copy_game

    def dearer_cards(docs):
        docs["charts.yaml"]["build_points"]["costs"]["card"] = 3

    games = copy_game(tmp_path, dearer_cards, ("charts.yaml",))
    table = _production_table(tmp_path, cli, games)
    _, mails = table.inbox()
    text = " ".join(text_of(_mail_to(mails, "german")).split())
    # 10 BP: the German's Build Points of SUMMER 1914 (charts.yaml turn 1).
    assert "You have 10 BP to spend in this production phase; BP not spent are lost (7.0)" \
        in text
    assert "buy N: N cards, 3 BP each (7.1)" in text
    assert re.search(r"build NATION TYPE AREA: 1 BP each for infantry, cavalry, artillery", text)
    assert "1 BP for every 4 units" in text and "at most 1 BP of it this turn (7.4)" in text
    body = text_of(_mail_to(mails, "german"))
    example = [ln.strip() for ln in body.split("\n") if "# " in ln and " BP" in ln]
    assert example and example[0].startswith("buy 2") and example[0].endswith("# 6 BP")


def test_the_reply_to_a_plan_shows_each_cost_and_the_build_points_lost(tmp_path, cli):
    table = _production_table(tmp_path, cli)
    table.inbox()
    mid = table.send("german", ["build ge infantry metz", "buy 2   # two cards",
                                "entrench ge-1", "entrench ge-2", "done"])
    outcomes, mails = table.inbox()
    assert [(o["message_id"], o["status"]) for o in outcomes] == [(mid, "applied")]
    body = text_of(_mail_to(mails, "german"))
    costed = [ln.strip() for ln in body.split("\n") if "# " in ln]
    # 7.6: infantry 1 BP, two cards 2 BP; 7.4: two entrenchments share one BP.
    assert [re.sub(r"\s+", " ", c) for c in costed] == [
        "build ge infantry Metz # 1 BP", "buy 2 # 2 BP", "entrench ge-1 # 1 BP",
        "entrench ge-2 # 0 BP"]
    text = " ".join(body.split())
    assert "Spent: 4 of your 10 BP; left: 6." in text
    assert "6 BP go unspent and are lost" in text and "(7.0)" in text
    # The Entente's plan is his alone: nothing of the German's reaches him.
    # The Entente's mail names Metz on its board, never the German's sealed build there.
    assert "build ge infantry" not in text_of(_mail_to(mails, "entente")).casefold()


def test_a_plan_that_cannot_be_paid_is_refused_with_nothing_sealed(tmp_path, cli):
    table = _production_table(tmp_path, cli)
    table.inbox()
    before = table.journal.read_bytes()
    mid = table.send("german", ["buy 10", "build ge infantry metz", "done"])
    outcomes, mails = table.inbox()
    assert [(o["message_id"], o["status"]) for o in outcomes] == [(mid, "rejected")]
    assert table.journal.read_bytes() == before
    state = g.open_game(table.journal).state
    assert state.production["plans"]["german"] == [] and state.production["done"] == []
    text = " ".join(text_of(_mail_to(mails, "german")).split())
    assert "line 2 of your orders failed" in text
    assert "not enough Build Points: 0 left, this costs 1 (rule 7.0)" in text
    assert "You have 10 BP to spend" in text                     # asked again, with the costs
