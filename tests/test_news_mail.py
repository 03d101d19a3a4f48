"""A record of the moderator's that moves nothing on the board, in a 1914 game run by `tick`
(players, one observer, a Maildir in, an outbox out, time from REFEREE_NOW): the side it
concerns gets his report as before; each other reader a few lines of news, no board, no
picture, or nothing at all for another side's new address (mail/newsmail.py). The next
report starts after the news mail; a pass killed after writing a news mail sends it once."""

from __future__ import annotations

import email
import email.policy
from datetime import timedelta

import pytest
from flowtext import written
from sharedgames import kept
from test_tick_index import START
from test_tick_sharing import _tick_process
from test_transport import ADDRESSES, mail
from test_unattended import at

from referee.base.clock import NOW_VARIABLE

OBSERVER = "press@example.org"
GERMAN, ENTENTE = ADDRESSES["german"], ADDRESSES["entente"]
FOCH = "foch@example.net"
BOARD = "\nBoard\n-----\n"


class Game:
    """The game, its keys, and the mails its outbox has received so far."""

    def __init__(self, cli, root, keys: dict[str, str], seen: set[str]):
        self.cli, self.root, self.keys, self.seen = cli, root, keys, set(seen)
        self.journal = root / "games" / "demo.jsonl"

    @classmethod
    def opened(cls, root, mp) -> tuple[dict[str, str], set[str]]:
        """A new game in root, its opening reports mailed (with the map) at START: the
        order keys and the mails seen."""
        from conftest import FIXED_SECRET, Cli

        mp.setenv(NOW_VARIABLE, at(START))
        for sub in ("cur", "new", "tmp"):
            (root / "box" / sub).mkdir(parents=True)
        (root / "fixed.secret").write_text(FIXED_SECRET + "\n")
        game = cls(Cli(), root, {}, set())
        game.journal.parent.mkdir()
        r = game.cli("new", game.journal, "--scenario", "1914", "--game-id", "demo",
                     "--secret-file", root / "fixed.secret",
                     "--deadline", "48h", *[a for side, address in ADDRESSES.items()
                                            for a in ("--player", f"{side}={address}")],
                     "--player", f"observer={OBSERVER}", "--mail-in", root / "box",
                     "--mail-out", f"outbox:{root / 'out'}")
        assert r.exit_code == 0, r.output
        keys = {s: game.key(s) for s in ("german", "entente")}
        game.tick()
        return keys, game.seen

    def key(self, side: str) -> str:
        import json

        r = self.cli("players", self.journal, "--keys", "--format", "json")
        return next(p["key"] for p in json.loads(r.stdout)["players"] if p["side"] == side)

    def tick(self) -> dict[str, list]:
        """One pass (with the map); each new mail by its address: (text, its pictures)."""
        self.cli("tick", self.journal)
        new: dict[str, list] = {}
        for path in sorted((self.root / "out").glob("*.eml"), key=lambda p: p.stat().st_mtime_ns):
            if path.name in self.seen:
                continue
            self.seen.add(path.name)
            m = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
            new.setdefault(str(m["To"]), []).append(
                (written(m.get_body(("plain",)).get_content()),
                 [a.get_filename() for a in m.iter_attachments()]))
        return new

    def run(self, *args: str) -> dict[str, list]:
        r = self.cli(*args[:1], self.journal, *args[1:])
        assert r.exit_code == 0, r.output
        return self.tick()

    def send(self, side: str, lines: list[str], ident: str) -> None:
        raw = mail(side, self.keys[side], lines, ident)
        (self.root / "box" / "new" / f"{ident.strip('<>')}.eml").write_bytes(raw)


def _report(mails: list, pictured: bool = True) -> str:
    """One full report (with the map, unless the board he last saw is as it was)."""
    (text, pictures), = mails
    assert BOARD in text and ("map.png" in pictures) == pictured, text
    return text


def _news(mails: list, *said: str) -> str:
    """One short mail: no board, no picture, a few lines (and the orders open to a side
    asked, as long as his hand and the board make them), saying each of said."""
    (text, pictures), = mails
    assert BOARD not in text and "Victory points" not in text and pictures == [], text
    head, _, orders = text.partition("\nNow\n---\n")
    rest = orders.partition("\nTo answer, ")[2]
    assert len((head + rest).splitlines()) <= 28    # with a pause's or resume's lead
    assert all(len(line) <= 72 for line in text.splitlines()), text
    flat = " ".join(text.split())
    assert all(s in flat for s in said), text
    return text


@pytest.fixture
def game(cli, tmp_path_factory, monkeypatch) -> Game:
    """The fixed secret deals the German a hand with Offensive-type cards to play. The game
    is made and its opening mailed once for the test process; each test plays on from it
    put back where it was made (the journal names its mailbox and outbox), its home holding
    what the home that made it held (the maps each reader was sent), two hours on."""
    made = kept(tmp_path_factory.getbasetemp(), "news-mail-game", Game.opened)
    root = made.back()
    monkeypatch.setenv(NOW_VARIABLE, at(START + timedelta(hours=2)))
    keys, seen = made.made
    return Game(cli, root, keys, seen)


def test_the_moderators_extension_reports_to_its_side_and_tells_the_others(game):
    mails = game.run("extend", "german", "24h")
    assert sorted(mails) == sorted([GERMAN, ENTENTE, OBSERVER])
    # His board has not moved since the opening's map: the report names that mail.
    flat = " ".join(_report(mails[GERMAN], pictured=False).split())
    assert "is 24h later" in flat and "the map of the mail of record #4 shows it" in flat
    text = _news(mails[ENTENTE], "Waiting on the German player", "is 24h later",
                 "due by Thu 26 Nov 18:00 UTC", f"Order key: {game.keys['entente']}",
                 "the map of the mail of record #4")
    assert "To answer" not in text         # he owes nothing now
    _news(mails[OBSERVER], "is 24h later", "Receipt: demo 5:")


def test_a_players_own_extension_by_mail_tells_the_others_in_a_few_lines(game):
    game.send("german", ["extend 24h"], "<x1@example.org>")
    mails = game.tick()
    last = game.journal.read_text().splitlines()[-1]
    assert '"actor":"german"' in last and '"extend 24h"' in last, last
    assert sorted(mails) == sorted([GERMAN, ENTENTE, OBSERVER])
    assert "the map of the mail of record #4 shows it" in " ".join(
        _report(mails[GERMAN], pictured=False).split())
    _news(mails[ENTENTE], "is 24h later")
    _news(mails[OBSERVER], "is 24h later")


def test_a_new_address_welcomes_its_side_and_is_nothing_to_the_others_till_their_next_mail(
        game):
    mails = game.run("players", "--set", f"entente={FOCH}")
    assert sorted(mails) == [FOCH]                # the newcomer's welcome, from the start
    (text, _), = mails[FOCH]
    assert BOARD in text and "From the start of the game" in text
    mails = game.run("deadline", "--pause")
    for reader in (GERMAN, OBSERVER):           # the address change is told with the pause
        _news(mails[reader], "changed the Entente player's address",
              "the moderator paused the game")
    _news(mails[FOCH], "the moderator paused the game")


def test_pause_resume_and_new_deadlines_are_news_to_every_reader(game):
    mails = game.run("deadline", "--pause")
    assert sorted(mails) == sorted([GERMAN, ENTENTE, OBSERVER])
    text = _news(mails[GERMAN], "Your decision once the game resumes",
                 "the moderator paused the game")
    assert "To answer" not in text             # no orders are taken while it is paused
    _news(mails[ENTENTE], "the moderator paused the game")
    _news(mails[OBSERVER], "Paused", "the moderator paused the game")
    mails = game.run("deadline", "--resume")
    assert sorted(mails) == sorted([GERMAN, ENTENTE, OBSERVER])
    _news(mails[GERMAN], "Your decision:", "resumed the game", "Orders due by Wed 25 Nov "
          "20:00 UTC", "To answer, reply to this mail with your orders",
          f"Order key: {game.keys['german']}")
    _news(mails[ENTENTE], "resumed the game")
    _news(mails[OBSERVER], "resumed the game")
    mails = game.run("deadline", "--set", "72h")
    assert sorted(mails) == sorted([GERMAN, ENTENTE, OBSERVER])
    _news(mails[GERMAN], "deadlines:", "Orders due by")
    _news(mails[ENTENTE], "deadlines:")
    _news(mails[OBSERVER], "deadlines:")


def test_the_news_of_a_resume_gives_the_orders_open_to_the_side_asked(game):
    """A player who mailed orders while the game was paused got a refusal whose report, of
    a paused game, listed no orders; the resume's short mail is then the first to give
    them, and must: the orders open to him now, without the board."""
    game.run("deadline", "--pause")
    game.send("german", ["pass"], "<paused@example.org>")
    refused = game.tick()[GERMAN][0][0]
    assert "Reply with one order per line" not in refused, refused
    text = _news(game.run("deadline", "--resume")[GERMAN], "resumed the game",
                 "Reply with one order per line", "- play → ",
                 "To answer, reply to this mail with your orders and the order key below.")
    assert text.count("Your decision") == 1, text


def test_the_report_after_a_news_mail_starts_where_the_news_ended(game):
    game.run("extend", "german", "24h")           # record 5: news to the Entente
    game.send("german", ["pass"], "<p1@example.org>")
    mails = game.tick()
    text = _report(mails[ENTENTE], pictured=False)       # the pass moves no piece
    assert "Since record 5\n" in text and "#5 Moderator" not in text, text
    assert "#6 German" in text, text


@pytest.mark.parametrize("step", ["reply", "written"])
def test_a_pass_killed_while_writing_the_news_sends_each_once(game, step):
    assert game.cli("deadline", game.journal, "--pause").exit_code == 0
    killed = _tick_process(game.root, step)
    assert killed.returncode == 70, killed.stderr
    for _ in range(2):
        again = game.cli("tick", game.root / "games", "--no-map")   # only the kill needs one
        assert again.exit_code == 0, again.output
    mails = game.tick()
    assert sorted(mails) == sorted([GERMAN, ENTENTE, OBSERVER])
    for reader in mails:
        _news(mails[reader], "the moderator paused the game")


def test_a_dice_sheet_registered_is_news_to_the_other_readers(game):
    """The German's dice sheet registered by mail moves nothing the Entente or an observer
    sees: they get a few lines, saying it, not a report with the board."""
    game.send("german", ["Sheet: " + "ab" * 32], "<s1@example.org>")
    mails = game.tick()
    last = game.journal.read_text().splitlines()[-1]
    assert '"register dice sheet"' in last, last
    # His own reply, a report (the link due with his next orders), says first what it is:
    # the report's lead asks him what his last mail asked him, so cannot say it.
    own = _report(mails[GERMAN], pictured=False)
    assert own.startswith("Applied from your mail: 'register dice sheet' (#"), own
    _news(mails[ENTENTE], "Waiting on the German player", "dice sheet of German registered",
          f"Order key: {game.keys['entente']}")
    _news(mails[OBSERVER], "dice sheet of German registered")


def test_an_armistice_refused_is_news_to_its_proposer(game):
    """3.2: the German refuses the Entente's armistice; the war goes on as it was, so the
    Entente is told it in a few lines, not sent the board again."""
    game.send("entente", ["Propose armistice"], "<a1@example.org>")
    mails = game.tick()
    own = _report(mails[ENTENTE], pictured=False)
    assert own.startswith("Applied from your mail: 'Propose armistice' (#"), own
    _report(mails[GERMAN], pictured=False)      # asked to answer it: his report
    game.send("german", ["refuse armistice"], "<a2@example.org>")
    mails = game.tick()
    own = _report(mails[GERMAN], pictured=False)
    assert own.startswith("Applied from your mail: 'refuse armistice' (#"), own
    _news(mails[ENTENTE], "The German player refuses the armistice")
    _news(mails[OBSERVER], "The German player refuses the armistice")


def test_a_pause_or_resume_is_the_first_thing_each_reader_reads(game):
    """The side owing orders reads first that his deadline stopped (not an armistice or his
    decision once it resumes), then, resumed, that it runs again (the others: when his orders
    are due)."""
    mails = game.run("deadline", "--pause")
    first = {reader: " ".join(mails[reader][0][0].split("\n\n")[0].split())
             for reader in (GERMAN, ENTENTE, OBSERVER)}
    assert first[GERMAN] == ("The moderator paused the game: no orders are taken and your "
                             "deadline is stopped until he resumes it."), first
    assert first[ENTENTE] == first[OBSERVER] == (
        "The moderator paused the game: no orders are taken and no deadline runs until he "
        "resumes it."), first
    mails = game.run("deadline", "--resume")
    first = {reader: " ".join(mails[reader][0][0].split("\n\n")[0].split())
             for reader in (GERMAN, ENTENTE, OBSERVER)}
    # His deadline's time is under his decision, where every mail gives it, not here again
    # (test_pause_resume_due_once.py).
    assert first[GERMAN] == "The moderator resumed the game: your deadline runs again.", first
    assert first[ENTENTE] == first[OBSERVER] == (
        "The moderator resumed the game: the German player's orders are now due by Wed 25 "
        "Nov 20:00 UTC."), first
