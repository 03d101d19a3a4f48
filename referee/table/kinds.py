"""GameKind: the one plug-in point of a game (godip's Variant, Rally the Troops' rules module).

Record 0 of a journal names its kind (`game_kind`; none names the campaign, the kind of
TO THE LAST MAN! and AT ALL COSTS!), and a game folder's game.yaml names the kind that plays
it. Each kind is one object that answers what the Table and every command ask of a game:
its data, sides, the first words of its orders, how an order is read and written back,
decide and evolve, the legal orders, who is waited on and what he is asked, the answer for
a missed deadline, the views, the report, explain, the dice, verify and reveal, the players,
random legal play (autoplay), and how its mail is read. What a game does not have (a map,
areas, standing orders, deadlines, dice sheets, a mail route, a change of rules) it lacks as
a whole: the command asking for it answers one line and exit 2, never a crash.

The kinds' modules load only when a journal or a game of theirs is opened (`start-up`).
"""

from __future__ import annotations

from ..base.errors import JournalError, UsageError

# Imported for annotations only: the quick paths do without the typing module.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

KINDS = ("campaign", "skirmish")


def unplayable(journal: Path, seq: int, exc: Exception, what: str) -> JournalError:
    """The error for a replayed position the rules or the views cannot read."""
    return JournalError(f"{journal.name}: the game after record {seq} {what}: it holds something "
                        f"the game data does not have ({type(exc).__name__}: {exc}); `referee "
                        f"verify` names the record at fault", record=seq)

# Each optional feature a command may ask of a game, and what it is in words.
FEATURES = {
    "map": "no map to draw",
    "area": "no map areas",
    "standing": "no standing orders",
    "deadlines": "no deadlines",
    "sheets": "no dice sheets",
    "route": "no mail route of its own (`referee inbox` reads its mail)",
    "upgrade": "no rules versions to move on to",
    "rekey": "no change of signing key",
    "export": ("no redacted exports: its records, whole, name every player's address, so "
               "they are the moderator's alone (`log --format json --as moderator`); a player "
               "checks each test and its dice with `explain N --format json`"),
    "roster": "no roster to change (its players are fixed when it is made)",
    "autoplay": "no list of legal orders to play at random",
}


class GameKind:
    """What a game supplies. Each method below is answered by every kind; an optional
    feature (FEATURES) is answered only by a kind that names it in `features`."""

    name: str = ""
    # Whether the moderator gives orders of his own in it (the skirmish's rulings).
    moderator_orders: bool = False
    # How its players' mail is read (mail/): "ledger" (each message handled once, kept in a
    # signed ledger, answered with a report) or "direct" (each message's orders taken as the
    # kind takes them, its sender answered with what was recorded, every player the report).
    mail: str = ""
    features: frozenset[str] = frozenset()

    def needs(self, feature: str, command: str, journal: Path | str) -> None:
        """Refuse (UsageError, exit 2) a command that asks for a feature this game lacks."""
        if feature not in self.features:
            raise UsageError(f"{command} {journal}: a game of kind {self.name} has "
                             f"{FEATURES[feature]}")

    # ------------------------------------------------------------ the game
    def open(self, table, upto: int | None) -> Any:
        """The game a Table holds, replayed to its last record or to record upto (UsageError
        when the journal has no such record)."""
        raise NotImplementedError

    def load(self, game: str, games_dir: Path | None = None) -> Any:
        """The game's data from its folder of the games directory."""
        raise NotImplementedError

    def shapes(self) -> tuple[type, ...]:
        """The contracts of its journal: record 0's, then each later record's."""
        raise NotImplementedError

    def setup(self, table) -> Any:
        """The position record 0 sets up, before any order."""
        raise NotImplementedError

    def sides(self, table) -> tuple[str, ...]:
        """The sides of the game a Table holds."""
        raise NotImplementedError

    def sides_named(self, head: dict, games_dir: Path | None = None) -> tuple[str, ...]:
        """The sides record 0 names, read cheaply and unchecked, for an example in a usage
        line (none when it names none)."""
        raise NotImplementedError

    def verbs(self) -> frozenset[str]:
        """The first word of every order of the game (what mail reads as an order line)."""
        raise NotImplementedError

    def parse(self, table, text: str) -> Any:
        """One order read from its text (OrderSyntaxError naming what is wrong)."""
        raise NotImplementedError

    def format(self, order: Any) -> str:
        """An order written back as the text that parse reads."""
        raise NotImplementedError

    def decide(self, table, order: Any, side: str, dice: Any) -> Any:
        """What an order does now, or IllegalOrderError with its rule; never a change."""
        raise NotImplementedError

    def evolve(self, table, state: Any, record: dict) -> None:
        """A recorded fact applied to a state (never a check)."""
        raise NotImplementedError

    def legal_orders(self, table, side: str) -> list[str]:
        """The orders open to side now, as text (empty where the game's orders declare
        facts the referee cannot list)."""
        raise NotImplementedError

    def waiting_on(self, table) -> list[str]:
        """The sides the game waits on now."""
        raise NotImplementedError

    def prompt(self, table) -> str:
        """What the game asks now, in words."""
        raise NotImplementedError

    def season(self, table) -> str:
        """The stretch of the game its mails are grouped by, in words as its players name
        it ('SUMMER 1914', 'turn 3'): one conversation a reader and a season."""
        raise NotImplementedError

    def step_at(self, table, seq: int) -> str:
        """The turn and step of play the game was at after record seq, as the mails of that
        record named them (their subject's season, their first line): how a stale reply's
        writer is told which of his mails it answered."""
        raise NotImplementedError

    def default_order(self, table, side: str) -> tuple[str, str] | None:
        """The referee's answer for a side at a missed deadline, and its rule (None: there
        is none to give, and the moderator decides)."""
        raise NotImplementedError

    def players(self, table) -> dict[str, str]:
        """Each registered side's address (and the moderator's, when registered)."""
        raise NotImplementedError

    def ended_for(self, table, reader: str) -> str | None:
        """How the game ended, in one line (at which record, its result), once nothing more
        of reader's mail is taken (mail/afterend.py); None while something is."""
        return None

    def moderator_wait(self, table, journal: str) -> tuple[str, str, list[str]] | None:
        """For a kind whose mail is read directly: what the game waits on its moderator for
        now, as each pass of tick says it (journal: as he types it), its code (contracts/
        codes.py WaitCode) and the sides it concerns; None when it waits on nothing of his
        (a campaign's waits: mail/waiting.py)."""
        return None

    def ended(self, table, journal: str) -> tuple[dict, str] | None:
        """The record that ended the game, which names the moderator's one mail telling him
        so (mail/ended.py), and its text: how it ended and the commands left to him
        (journal: as he types it); None unless it is over and its secret unpublished (or
        something else asks him first)."""
        raise NotImplementedError

    # ------------------------------------------------------------ views
    def status_view(self, table, reader: str) -> dict:
        """What `status` shows the reader (its JSON document): who is waited on, for what."""
        raise NotImplementedError

    def status_document(self, view: dict, aids: Any, every: bool) -> Any:
        """The status view as a document every human format renders (render/sections.py)."""
        raise NotImplementedError

    def show_view(self, table, reader: str, at: int | None) -> dict:
        """What `show` shows the reader, now or after record at (its JSON document)."""
        raise NotImplementedError

    def show_document(self, view: dict) -> Any:
        """The show view as a document every human format renders."""
        raise NotImplementedError

    # ------------------------------------------------------------ the commands

    def order(self, table, side: str, texts: list[str], fmt: str, **how: Any
              ) -> tuple[Any, str | None]:
        """Take a side's orders: what to print and the one-line rejection, if any."""
        raise NotImplementedError

    def log(self, table, reader: str, since: int, fmt: str, width: int) -> Iterator[str]:
        """Each record as `log` prints it (one JSON line each with fmt json)."""
        raise NotImplementedError

    def report(self, table, reader: str, since: int | None, fmt: str, width: int = 72,
               dialect: str = "common", remember: bool = True, ruled=None) -> str:
        """What happened since the reader's last report, in one format (remember: its end
        becomes his last report, when the kind keeps one; ruled: the deadlines as the next
        pass of tick rules them, given a view's, as `status` shows them, when the kind has
        deadlines: the cli's, from mail/nextpass.py, which the table does not import)."""
        raise NotImplementedError

    def explain(self, table, seq: str, reader: str, fmt: str, width: int) -> Any:
        """One record explained."""
        raise NotImplementedError

    def dice(self, table, reader: str, fmt: str, width: int) -> Any:
        """Each side's dice so far."""
        raise NotImplementedError

    def verify(self, table, secret: Path | None, export: str | None, pins: list) -> Any:
        """Check the chain, every signature and every ruling (a game layer Verification)."""
        raise NotImplementedError

    def reveal(self, table, force: bool) -> dict:
        """Publish the dice secret in the journal; returns the record."""
        raise NotImplementedError

    def order_keys(self, table) -> dict[str, str]:
        """Each registered side's order key (UsageError without the game's secret)."""
        raise NotImplementedError

    def autoplay(self, table, seed: int, until: int | None, fmt: str
                 ) -> tuple[Any, str | None]:
        """Random legal orders for whoever must decide (the "autoplay" feature), seeded by
        seed, until the game is over or turn `until` is (the kind's turn: a campaign's
        seasonal turn, a skirmish's): what to print (its document with fmt json, else one
        line) and the failure that stopped it, the game's fault (exit 3), in one line, if
        any. UsageError, nothing written, for a game its dice cannot be rolled for."""
        raise NotImplementedError

    def by_hand(self, journal: str, side: str) -> list[str]:
        """The commands the moderator types to play side's part himself, the referee's
        mail to its player refused and his address fixed (a kind without "roster"): [] when
        there are none. journal: the game's, as a command typed names it."""
        raise NotImplementedError

    def keep_contract(self, seq: int, line: bytes) -> None:
        """Refuse a record the referee built that breaks its journal's contract, before it
        is written (ContractError)."""
        raise NotImplementedError

    def route_record(self, body: dict) -> dict:
        """The mail route record (store/mailroute.route_body) as its journal holds it."""
        return body
