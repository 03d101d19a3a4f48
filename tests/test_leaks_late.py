"""Secrets by default, late in a game: what test_leaks.py checks, at positions over whole games.

test_leaks.py's games stop in their first turn, so the events of later turns rarely or never
come up there, and their lines are told from the game before the record
(render/incontext.py, render/crisis_told.py): Bad Weather cancelling a Poison Gas! and
keeping Biplanes out of a declared battle (9.3, 9.5), a Military Crisis! (9.8) with hidden
templates, the extra dice of a special offensive (9.1.3-9.1.6), reinforcements into hidden
armies (2.0 I, 1.4), a battle not fought, the end of the game. Here those are read:

- cut points of the stored long games (tests/replays: 1916 with open templates, 1914 and
  1918 with hidden ones, each with its secret beside it, copied as the other tests that read
  them do), each drawn with a fixed seed among the records holding the event it is about, a
  few records after it; `log` and `report` print from a few records before it (--since),
  and the whole log is exported and verified (by one reader in turn, by every reader in the
  soak). Another referee signed those journals: no
  order is given on a copy of them, and they have no players;
- random games (autoplay) with players and observers registered, played until such an event
  and read from their start: their mails, order keys and the orders each side gives on a
  copy are read too. In two of them a side proposes an armistice (3.2) at records fixed
  here: in one it stands at the stop, in the other one is refused and another lapses at
  the end of the season (2.0 VI), so that the lines of a long game's armistices are read.

Each position is read by the German, the Entente and the public as test_leaks.py reads its
games (the text formats by turns: over the positions each reader reads every format of every
command; the map picture in some), and the same checks must find the secrets in the
moderator's output (the negative controls). Each position asserts, counted from its journal,
that the records it reads hold the event it is about, and the positions together are about
every event of LATE, so that a change of engine or seed cannot drop one silently. The soak
(test_every_record_of_the_stored_games_is_read_by_every_reader) reads every record of every
stored game, as every reader, in every format.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from leakcheck import Truth
from test_forum_formats import _position as cut_position
from test_leaks import (
    BIG,
    COMMANDS,
    READERS,
    armistice_read,
    by_turns,
    check_game,
    controls,
    leak_report,
    referee,
)
from test_leaks import _addresses as addresses_of
from test_leaks import _observers as observers_of

from referee.game.autoplay import Proposal, autoplay

REPLAYS = Path(__file__).parent / "replays"
STORED = ("ttlm-1914-seed7", "ttlm-1916-seed8", "ttlm-1918-seed9")

# The events first turns rarely reach, as the journal holds them.
LATE = ("bad weather", "bad weather on gas", "crisis with hidden templates",
        "special offensive dice", "into a hidden army", "battle not fought", "game over")


def late_events(records: list[dict], hidden: bool) -> list[set[str]]:
    """Per record, the events of LATE it holds (hidden: the game has hidden templates)."""
    out, gassed = [], False
    for rec in records:
        kinds = set()
        for ev in rec.get("events") or []:
            t, key = ev.get("type"), ev.get("key")
            if t == "CombatCardPlayed" and key == "poison_gas":
                gassed = True
            elif t == "CombatCardPlayed" and key == "bad_weather":
                kinds |= {"bad weather", *(["bad weather on gas"] if gassed else [])}
            elif t == "CombatPhaseEnded":
                gassed = False
            elif t == "CrisisDeclared":
                kinds.add("crisis with hidden templates" if hidden else "crisis")
            elif t == "BonusDesignated":
                kinds.add("special offensive dice")
            elif t == "UnitPlaced" and hidden and ev.get("secret") is not None:
                kinds.add("into a hidden army")
            elif t == "BattleCancelled":
                kinds.add("battle not fought")
            elif t == "GameEnded":
                kinds.add("game over")
        out.append(kinds)
    return out


@dataclass(frozen=True)
class Place:
    """A position late in a game: a stored game cut after a record about `about` drawn with
    seed, or a random game of its own (autoplay with seed) played until such a record."""

    n: int                  # its turn in the text formats read by turns
    about: str
    seed: int
    stored: str = ""        # a stored game; else a random one:
    game: str = "ttlm"
    scenario: str = "1914"
    hidden: bool = True
    pictures: bool = False
    proposals: tuple[Proposal, ...] = ()    # the armistices a random game proposes (3.2)
    armistice: tuple[str, ...] = ()         # and how they end (test_leaks.armistice_read)

    @property
    def name(self) -> str:
        source = self.stored or f"{self.game}-{self.scenario}-" \
            f"{'hidden' if self.hidden else 'open'}"
        return f"p{self.n}-{source}-{self.about.replace(' ', '-')}-{self.seed}"


def _stored(name: str, keep: int, into: Path) -> Path:
    """The stored game's first `keep` records with its secret, both private (the forum
    test's cut), in into."""
    into.mkdir(parents=True, exist_ok=True)
    return cut_position(name, keep, into)[0]


def _records(journal: Path) -> list[dict]:
    return [json.loads(line) for line in journal.read_text(encoding="utf-8").splitlines()]


def cut_stored(place: Place, into: Path) -> tuple[Path, int]:
    """(the stored game cut a few records after a record about place.about drawn with its
    seed, the record log and report read from: a few before that one)."""
    whole = _stored(place.stored, 10 ** 9, into / "whole")
    records = _records(whole)
    kinds = late_events(records, bool(records[0]["options"].get("hidden_templates")))
    found = [i for i, k in enumerate(kinds) if place.about in k]
    assert found, f"{place.stored} holds no record of {place.about}: choose another game"
    rng = random.Random(f"{place.name}")
    at = rng.choice(found)
    keep = min(len(records), at + 1 + rng.randint(0, 3))
    return _stored(place.stored, keep, into), max(1, at - rng.randint(0, 5))


CHUNK = 20          # records a random game is played at a time, looking for the event
#                     (each call draws from its own start: CHUNK is part of the game)
LONGEST = 900       # records a random game may take to reach it


def play_until(place: Place, into: Path, addresses: dict[str, str],
               observers: list[str]) -> Path:
    """A fresh game with players and observers, played by autoplay until a record about
    place.about (and at most CHUNK records on)."""
    journal = into / f"{place.name}.jsonl"
    secret = into / "fixed.secret"
    secret.write_text(hashlib.sha256(f"leaks-late-{place.seed}".encode()).hexdigest() + "\n")
    secret.chmod(0o600)
    argv = ["new", journal, "--game", place.game, "--scenario", place.scenario,
            "--game-id", f"leaks-late-{place.seed}", "--secret-file", secret,
            "--option", f"hidden_templates={'true' if place.hidden else 'false'}"]
    for side, addr in addresses.items():
        argv += ["--player", f"{side}={addr}"]
    for addr in observers:
        argv += ["--player", f"observer={addr}"]
    code, _, err, escaped = referee(*argv)
    assert code == 0 and escaped is None, f"referee new: {err}{escaped or ''}"
    played = 0
    while played < LONGEST:
        out = autoplay(journal, place.seed, max_records=CHUNK, check_every=BIG,
                       proposals=place.proposals)
        assert out.failure is None, out.failure
        played += out.records
        kinds = late_events(_records(journal), place.hidden)
        if any(place.about in k for k in kinds) or out.over or not out.records:
            break
    return journal


def position(place: Place, into: Path) -> tuple[Path, int, dict[str, str], list[str]]:
    """(the journal, the first record log and report read, the players, the observers)."""
    if place.stored:
        journal, since = cut_stored(place, into)
        return journal, since, {}, []
    addresses, observers = addresses_of(place.seed), observers_of(place.seed)
    return play_until(place, into, addresses, observers), 0, addresses, observers


def read_late(journal: Path, since: int) -> Counter:
    """How many records of each event of LATE the records from since on hold."""
    records = _records(journal)
    kinds = late_events(records, bool(records[0]["options"].get("hidden_templates")))
    return Counter(k for ks in kinds[since:] for k in ks)


# The fast positions: between them about every event of LATE, and every reader reads every
# format of every command in some of them (turns 0-3; the map in one, with hidden templates).
FAST = [Place(0, "bad weather on gas", 32, scenario="1918", proposals=(Proposal(78),),
              armistice=("standing",)),
        Place(1, "crisis with hidden templates", 5, game="aac", pictures=True),
        Place(2, "special offensive dice", 35, scenario="1918",
              proposals=(Proposal(12, "refuse", 3), Proposal(30)), armistice=("refused", "lapsed")),
        Place(3, "game over", 1, stored="ttlm-1918-seed9")]
# What a fast position reads besides the event it is about.
ALSO = {0: {"bad weather", "battle not fought", "into a hidden army"},
        2: {"into a hidden army"}}


@pytest.mark.parametrize("place", FAST, ids=lambda p: p.name)
def test_no_reader_sees_a_secret_late_in_a_game(place: Place, tmp_path: Path):
    journal, since, addresses, observers = position(place, tmp_path)
    read = read_late(journal, since)
    wanted = {place.about} | ALSO.get(place.n, set())
    assert wanted <= set(read), f"{place.name}: the records read hold {dict(read)}, not " \
        f"{sorted(wanted - set(read))}: choose another seed"
    truth, moderator, found = check_game(journal, tmp_path, addresses, observers,
                                         public_by_default=place.n % 2 == 0,
                                         pictures=place.pictures, turn=place.n, since=since,
                                         orders=not place.stored,
                                         armistice=bool(place.proposals))
    if not place.stored:
        lacking = armistice_read(place.name, place.armistice, truth)
        assert not lacking, f"{lacking}: choose other records for its proposals"
    missed = controls(truth, moderator, since)
    assert not missed, "negative controls found nothing:\n" + "\n".join(missed)
    assert not found, f"{place.name}: secrets shown to a reader who may not see them:\n" + \
        leak_report(found)


def test_the_fast_positions_are_about_every_late_event_and_read_every_format():
    """Every event of LATE is what some fast position is about (each asserts it reads it);
    each reader reads every format of every command in some of them, the map picture in
    some, the public both by --as and by default, stored games and random ones with
    players."""
    assert {p.about for p in FAST} | {k for ks in ALSO.values() for k in ks} == set(LATE)
    assert any(p.pictures and p.hidden for p in FAST) and {p.n % 2 for p in FAST} == {0, 1}
    assert any(p.stored for p in FAST) and any(not p.stored for p in FAST)
    assert {"standing", "lapsed"} <= {x for p in FAST for x in p.armistice}
    covered = {(reader, command, f) for p in FAST for reader in READERS
               for command, _, formats, _ in COMMANDS for f in by_turns(formats, reader, p.n)}
    assert covered == {(r, c, f) for r in READERS for c, _, fs, _ in COMMANDS for f in fs}


def test_a_title_told_in_context_is_one_played_this_player_turn(tmp_path: Path):
    """Bad Weather (1916 record 58) names the Poison Gas! the Entente played openly the
    record before, while another copy of it is secret: the title check takes it as told
    (played this player turn, render/incontext.py), and no longer once a new player turn
    has begun (record 60 on), nor before it was played (record 56)."""
    truth = Truth(_stored("ttlm-1916-seed8", 64, tmp_path))
    gas = "Poison Gas!"
    assert gas not in truth.explained_titles(truth.recs[58].visible["german"])
    assert gas in truth.explained_titles(truth.recs[57].visible["german"])
    told = truth.told_titles("german")
    assert gas in told[58] and gas in told[59]
    assert gas not in told[56] and gas not in told[60] and gas not in told[63]
    # and a line naming it in record 58 is read as told, the same line in record 61 is not
    line = "the Entente Poison Gas! in Ypres is cancelled by Bad Weather (9.3)"
    w = truth.windows("german")
    assert gas in w[58].titles and gas in w[61].titles, "choose a game with a copy unseen"
    assert not truth._titles(line, w[58], told[58], 58)
    assert truth._titles(line, w[61], told[61], 61)


# The soak: every stored game cut every STEP records, each cut read from the one before it
# (so that every record is read), by every reader in every format, the map at every
# PICTURE-th cut; PARTS cuts a case.
STEP, PICTURE, PARTS = 200, 4, 3


def _sweep() -> list[tuple[str, int]]:
    out = []
    for name in STORED:
        lines = gzip.decompress((REPLAYS / f"{name}.jsonl.gz").read_bytes()).count(b"\n")
        cuts = -(-lines // STEP)
        out += [(name, first) for first in range(0, cuts, PARTS)]
    return out


@pytest.mark.parametrize("name,first", _sweep(), ids=lambda v: str(v))
def test_every_record_of_the_stored_games_is_read_by_every_reader(name: str, first: int,
                                                                  tmp_path: Path):
    """PARTS cuts of a stored game from the first-th: each read from the cut before it (the
    first from the start), as test_no_reader_sees_a_secret_late_in_a_game reads a stored
    game but in every format, the controls too."""
    found_all, missed_all = {}, []
    for k in range(first, first + PARTS):
        since, folder = k * STEP, tmp_path / f"cut{k}"
        journal = _stored(name, since + STEP, folder)
        kept = len(_records(journal))
        if kept <= since:
            break
        truth, moderator, found = check_game(journal, folder, {}, [],
                                             public_by_default=k % 2 == 0,
                                             pictures=k % PICTURE == 0, since=since,
                                             orders=False)
        missed_all += [f"cut {k}: {m}" for m in controls(truth, moderator, since)]
        found_all.update({(f"cut {k}: {key[0]}", *key[1:]): v for key, v in found.items()})
    assert not missed_all, "negative controls found nothing:\n" + "\n".join(missed_all)
    assert not found_all, f"{name}: secrets shown to a reader who may not see them:\n" + \
        leak_report(found_all)
