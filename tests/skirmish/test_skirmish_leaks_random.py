"""Secrets of random skirmishes: no output shows a reader what is not his to see.

Random patrol games (each a fresh journal from `referee new --game skirmish` with the two
players' and the moderator's addresses; a third of them of the patrol given off-table
artillery on both sides and the British as 1914 regulars, so that the artillery phase and
rapid fire are played too; played by randomplay.py: moves, spotting, fire,
the melees owed, morale, surrenders, done, disputes and the moderator's rulings, as each
side's forms offer them) are stopped somewhere in a phase, just after a melee, just after a
dispute (open at the stop), at the end of the game, or after `reveal`. Each is then read by
the British, the German, the public (in half the games through no `--as` at all) and the
moderator with every command that reads a skirmish (COMMANDS: status, status --all, show,
show --at, log, report, explain, dice, verify, skirmish report) in every format it has; in
`make test` each reader reads the JSON and one of the text formats (text, markdown, bbcode,
by turns from game to game), in the soak every one. The moderator reads his own commands
too (players, players --keys, skirmish keys, mail, the whole log as JSON). Each reader gets
the mails `inbox` writes over an empty mailbox, and in the games with a mail route the
mails a pass of `tick` sends through the test servers (on 127.0.0.1); a skirmish has no
observers and no picture (`map` answers one line, exit 2).

A player or the public must never see the dice secret before `reveal` publishes it, an
order key but the reader's own, nor any address; a mail's To header is its reader's own
address and its From and Reply-To the address it comes from and players answer (the
moderator's, or the route's), and those are the only places an address may be. No command
may exit 4 or print a traceback for any reader (a player's `log --format json` is refused
in one line, exit 2: its records name the addresses).

Negative controls, in every game: the same check, run on the moderator's `skirmish keys`,
`players` and whole log as if a player or the public read them, finds every key and every
address, on each player's mail as if another read it finds his key, and once the secret is
revealed, on the public's report as if it were not, finds the secret: a check that finds
nothing fails."""

from __future__ import annotations

import email
import hashlib
import json
import os
import random
from dataclasses import dataclass
from email.policy import default as policy
from pathlib import Path

import pytest
from inprocess import console
from mailservers import route_through

from referee.data.paths import default_games_dir
from referee.table import Table
from referee.table.skirmish.randomplay import play

SIDES = ("british", "german")
PUBLIC, MODERATOR = "public", "moderator"
READERS = (*SIDES, PUBLIC)
TEXTS = ("text", "markdown", "bbcode")
ALL = (*TEXTS, "chat", "json")
# Every command that reads a skirmish, its extra arguments and formats. "N": the record
# explained (the last test).
COMMANDS = [
    (("status",), (), ALL),
    (("status",), ("--all",), ("text",)),
    (("show",), (), ALL),
    (("show",), ("--at", "1"), ("text", "json")),
    (("log",), (), ("text", "json")),
    (("report",), (), ALL),
    (("report",), ("--since", "1"), ("json",)),
    (("explain",), ("N",), ("text", "json")),
    (("dice",), (), ("text", "json")),
    (("skirmish", "report"), (), ("text", "json")),
    (("skirmish", "report"), ("--turn", "1"), ("text",)),
]
# Read by anyone holding the journal (no reader of their own), and the moderator's alone.
ANYONE = [(("verify",), (), ("text", "json"))]
MODERATORS = [(("players",), (), ("text", "json")), (("players",), ("--keys",), ("json",)),
              (("skirmish", "keys"), (), ("text", "json")), (("mail",), (), ("text", "json"))]
SOAK = os.environ.get("REFEREE_SOAK") == "1"
REFEREE = "umpire-bot@club.example"

# ---------------------------------------------------------------- running the referee

@dataclass
class Output:
    argv: list[str]
    reader: str
    code: int
    out: str
    err: str

    def label(self) -> str:
        return " ".join(a for a in self.argv if "/" not in a)


def referee(reader: str, *argv) -> Output:
    """Run the referee in-process as the console script does (a traceback that escaped
    told after its stderr)."""
    code, out, err, escaped = console(*argv)
    return Output([str(a) for a in argv], reader, code, out, err + (escaped or ""))


# ---------------------------------------------------------------- the games

@dataclass(frozen=True)
class Spec:
    n: int
    stop: str           # steps: after that many records; melee, dispute: just after the
    steps: int = 0      # first; end: the game over; reveal: over, and its secret published
    tick: bool = False  # a mail route, and one pass of tick at the stop
    barrage: bool = False   # the patrol with off-table artillery and rapid fire (BARRAGE)

    @property
    def name(self) -> str:
        return f"g{self.n:02d}-{self.stop}{self.steps or ''}{'-tick' if self.tick else ''}" \
            f"{'-barrage' if self.barrage else ''}"


def _games() -> list[Spec]:
    rng = random.Random(1918)
    stops = ["steps", "melee", "dispute", "reveal", "end"] * 4
    return [Spec(n, stop, rng.randint(1, 60) if stop == "steps" else 0, n % 5 == 1,
                 n % 3 == 2) for n, stop in enumerate(stops)]


GAMES = _games()
# `make test` plays three short ones (tests/soaks.py): a stop just after a melee with a pass
# of tick, one just after a dispute, and one after the end and the reveal; the soak all 20.


def addresses(n: int) -> dict[str, str]:
    return {s: f"{s}.player{n}@example.org" for s in SIDES} | \
        {MODERATOR: f"Umpire{n}@Example.COM"}


def play_to(spec: Spec, journal: Path) -> None:
    """Play spec's game up to its stop."""
    if spec.stop == "steps":
        out = play(Table.writing(journal), spec.n, spec.steps)
    elif spec.stop in ("end", "reveal"):
        out = play(Table.writing(journal), spec.n)
        assert out.over, f"{spec.name}: not over after {out.records} records"
    else:                       # one record at a time, until the first of its kind
        while True:
            out = play(Table.writing(journal), spec.n, 1)
            assert out.failure is None, out.failure
            assert out.orders and not out.over, f"{spec.name}: no {spec.stop} before the end"
            if out.orders[-1].split(": ", 1)[1].startswith(spec.stop):
                break
    assert out.failure is None, out.failure
    if spec.stop == "reveal":
        r = referee(MODERATOR, "reveal", journal)
        assert r.code == 0, r.err


# The patrol's lines that the barrage scenario changes: both sides with off-table artillery
# (the artillery phase waits on them: card, Sequence of Play), the British the 1914 regulars
# who may use rapid fire (card, Unaimed Fire Modifiers).
BARRAGE = {"id: patrol\n": "id: barrage\n",
           "off_table_artillery: []\n": "off_table_artillery: [british, german]\n",
           "british_1914: []\n": "british_1914: [british]\n"}


def barrage(folder: Path) -> str:
    """The barrage scenario's file, written from the shipped patrol's."""
    text = (default_games_dir() / "skirmish" / "scenarios" / "patrol.yaml").read_text()
    for old, new in BARRAGE.items():
        assert text.count(old) == 1, f"the patrol's {old.strip()!r} line"
        text = text.replace(old, new)
    path = folder / "barrage.yaml"
    path.write_text(text)
    return str(path)


def new_game(spec: Spec, folder: Path) -> Path:
    journal = folder / f"{spec.name}.jsonl"
    secret = folder / "fixed.secret"            # the game's dice, the same every run
    secret.write_text(hashlib.sha256(f"skirmish-leaks-{spec.n}".encode()).hexdigest() + "\n")
    secret.chmod(0o600)
    scenario = barrage(folder) if spec.barrage else "patrol"
    argv = ["new", journal, "--game", "skirmish", "--scenario", scenario,
            "--game-id", f"skirmish-leaks-{spec.n}", "--secret-file", secret]
    for who, address in addresses(spec.n).items():
        argv += ["--player", f"{who}={address}"]
    r = referee(MODERATOR, *argv)
    assert r.code == 0, r.err
    return journal


# ---------------------------------------------------------------- reading

def read_everything(journal: Path, reader: str, turn: int, default: bool = False
                    ) -> list[Output]:
    """Every command for one reader, in each of its formats (by turns: JSON and one text
    format, outside the soak), through --as reader (default: the public, through none)."""
    tests = [json.loads(line) for line in journal.read_text().splitlines()]
    last = max((r["seq"] for r in tests if r.get("test")), default=0)
    as_ = [] if default else ["--as", reader]
    outs = []
    commands = COMMANDS + (MODERATORS if reader == MODERATOR else [])
    for command, extra, formats in commands:
        extra = tuple(str(last) if x == "N" else x for x in extra)
        if not SOAK and reader != MODERATOR:
            formats = by_turns(formats, reader, turn)
        for fmt in formats:
            who = as_ if command[0] not in ("players", "mail") and command != (
                "skirmish", "keys") else []
            outs.append(referee(reader, *command, journal, *who, *extra, "--format", fmt))
    if reader == PUBLIC:
        outs += [referee(reader, *c, journal, *e, "--format", f) for c, e, fs in ANYONE
                 for f in fs]
    return outs


def by_turns(formats: tuple[str, ...], reader: str, turn: int) -> tuple[str, ...]:
    texts = [f for f in formats if f in TEXTS]
    if len(texts) < 2:
        return formats
    mine = texts[(turn + READERS.index(reader)) % len(texts)]
    return tuple(f for f in formats if f not in texts or f == mine)


def crashes(outs: list[Output]) -> list[str]:
    """Outputs that failed: any exit but 0 (a player's JSON log: 2, refused in one line),
    an internal error or a traceback."""
    bad = []
    for o in outs:
        refused = o.argv[:1] == ["log"] and "json" in o.argv and o.reader != MODERATOR
        want = 2 if refused else 0
        if o.code != want or "Traceback" in o.out + o.err or "internal error" in o.err or \
                refused and "no redacted exports" not in o.err:
            bad.append(f"{o.label()} as {o.reader}: exit {o.code}: {o.err.strip()[-600:]}")
    return bad


# ---------------------------------------------------------------- mails

def inbox_mails(journal: Path, folder: Path) -> list[email.message.EmailMessage]:
    """What `inbox` writes each reader over an empty mailbox."""
    box = folder / "Maildir"
    for sub in ("cur", "new", "tmp"):
        (box / sub).mkdir(parents=True, exist_ok=True)
    r = referee(MODERATOR, "inbox", journal, box, "--outbox", folder / "outbox", "--no-map")
    assert r.code == 0 and not crashes([r]), r.err
    return [email.message_from_bytes(p.read_bytes(), policy=policy)
            for p in sorted((folder / "outbox").glob("*.eml"))]


def tick_mails(journal: Path, folder: Path, servers, monkeypatch
               ) -> list[email.message.EmailMessage]:
    """What a pass of `tick` sends through the test servers, the game given a route."""
    net = route_through(servers, monkeypatch, folder / "user")
    r = referee(MODERATOR, "mail", journal, "--in", net.source, "--out", net.target, "--from",
                REFEREE)
    assert r.code == 0, r.err
    r = referee(MODERATOR, "tick", journal, "--no-map")
    assert r.code == 0 and not crashes([r]), r.err
    return [email.message_from_bytes(raw, policy=policy) for _, _, raw in net.smtp.received]


def mail_output(msg, reader: str) -> Output:
    """A mail as its reader reads it: its headers but To, From and Reply-To (checked on their
    own) and its text."""
    heads = "".join(f"{k}: {v}\n" for k, v in msg.items()
                    if k.casefold() not in ("to", "from", "reply-to"))
    body = msg.get_body(("plain",)).get_content()
    return Output(["mail", str(msg["Subject"])], reader, 0, heads + "\n" + body, "")


# ---------------------------------------------------------------- the secrets

@dataclass
class Secrets:
    secret: str
    keys: dict[str, str]
    addresses: dict[str, str]
    revealed: bool

    def found(self, text: str, reader: str, revealed: bool | None = None) -> list[str]:
        """The secrets in text that reader may not see: the dice secret before its reveal,
        any order key but his own, any address."""
        folded = text.casefold()
        shown = self.revealed if revealed is None else revealed
        wanted = ([] if shown else [f"secret {self.secret}"]) + \
            [f"key of {who} {k}" for who, k in self.keys.items() if who != reader] + \
            [f"address of {who} {a}" for who, a in self.addresses.items()]
        return [w for w in wanted if w.rsplit(" ", 1)[1].casefold() in folded]


def secrets_of(journal: Path, spec: Spec) -> Secrets:
    r = referee(MODERATOR, "skirmish", "keys", journal, "--format", "json")
    assert r.code == 0, r.err
    secret = (journal.parent / "fixed.secret").read_text().strip()
    assert len(secret) == 64, secret
    return Secrets(secret, json.loads(r.out)["keys"], addresses(spec.n),
                   spec.stop == "reveal")


def mail_leaks(msg, reader: str, s: Secrets, sender: str) -> list[str]:
    """What a reader's mail shows that he may not see: an address anywhere but its To (his
    own) and its From and Reply-To (the sender's, which he answers), and the secrets."""
    bad = [f"{h}: {msg[h]}" for h, want in (("To", s.addresses.get(reader)), ("From", sender),
                                             ("Reply-To", sender))
           if msg[h] is not None and str(msg[h]).casefold() != str(want).casefold()]
    return bad + s.found(mail_output(msg, reader).out, reader)


def reader_of(msg, s: Secrets) -> str:
    to = str(msg["To"]).casefold()
    return next(who for who, a in s.addresses.items() if a.casefold() == to)


def controls(s: Secrets, moderator: list[Output], mails: list[tuple[str, object]]) -> list[str]:
    """Negative controls: the checks, run on what the moderator reads and on the players'
    mails as if another reader read them, must find the secrets there."""
    def of(*argv: str) -> str:
        return next(o.out for o in moderator if o.argv[:len(argv)] == list(argv) and
                    "json" in o.argv)

    missed = []
    for reader in READERS:
        keys = s.found(of("skirmish", "keys"), reader)
        want = [w for w in keys if w.startswith("key")]
        if len(want) != len([k for who, k in s.keys.items() if who != reader]):
            missed.append(f"keys: {len(want)} found in the moderator's skirmish keys as {reader}")
        for argv in (("players",), ("log",)):
            found = [w for w in s.found(of(*argv), reader) if w.startswith("address")]
            if len(found) != len(s.addresses):
                missed.append(f"addresses: {len(found)} found in the moderator's {argv[0]} as "
                              f"{reader}")
    for reader, msg in mails:
        if reader in SIDES and s.keys[reader] in mail_output(msg, reader).out and \
                not [w for w in s.found(mail_output(msg, reader).out, PUBLIC)
                     if w.startswith("key")]:
            missed.append(f"key: not found in {reader}'s mail read as the public")
    if s.revealed:
        report = of("report")
        if not [w for w in s.found(report, PUBLIC, revealed=False) if w.startswith("secret")]:
            missed.append("secret: revealed, but not found in the report")
    return missed


# ---------------------------------------------------------------- the test

def check_game(spec: Spec, folder: Path, servers=None, monkeypatch=None) -> None:
    journal = new_game(spec, folder)
    play_to(spec, journal)
    s = secrets_of(journal, spec)
    outs: list[Output] = []
    for reader in READERS:
        outs += read_everything(journal, reader, spec.n,
                                default=reader == PUBLIC and spec.n % 4 < 2)
    moderator = read_everything(journal, MODERATOR, spec.n)
    outs.append(referee(PUBLIC, "map", journal, "-o", folder / "map.svg"))    # no map: exit 2
    assert outs[-1].code == 2 and "no map" in outs[-1].err, outs[-1]
    outs.pop()
    bad = crashes(outs + moderator)
    assert not bad, "commands failed:\n" + "\n".join(bad)
    found = {f"{o.label()} [{o.reader}]": leaks for o in outs
             if (leaks := s.found(o.out + o.err, o.reader))}
    mails = [(m, MODERATOR) for m in inbox_mails(journal, folder)]
    sender = s.addresses[MODERATOR]
    if spec.tick:
        mails += [(m, REFEREE) for m in tick_mails(journal, folder, servers, monkeypatch)]
    read = []
    for msg, frm in mails:
        reader = reader_of(msg, s)
        read.append((reader, msg))
        if reader != MODERATOR:
            leaks = mail_leaks(msg, reader, s, frm if frm == REFEREE else sender)
            if leaks:
                found[f"mail {msg['Subject']} [{reader}]"] = leaks
    inbox = sorted(r for (r, _), (_, frm) in zip(read, mails) if frm == MODERATOR)
    assert inbox == sorted([*SIDES, MODERATOR]), f"inbox wrote {inbox}"
    ticked = {r for (r, _), (_, frm) in zip(read, mails) if frm == REFEREE}
    assert ticked >= (set(SIDES) if spec.tick else set()), f"tick sent {ticked}"
    missed = controls(s, moderator, read)
    assert not missed, "negative controls found nothing:\n" + "\n".join(missed)
    assert not found, f"{spec.name}: secrets shown to a reader who may not see them:\n" + \
        "\n".join(f"  {k}: {v}" for k, v in sorted(found.items()))


@pytest.mark.parametrize("spec", GAMES, ids=lambda s: s.name)
def test_no_reader_of_a_random_skirmish_sees_a_secret(spec: Spec, tmp_path: Path, request,
                                                      monkeypatch):
    servers = request.getfixturevalue("servers") if spec.tick else None
    check_game(spec, tmp_path, servers, monkeypatch)
