"""Reading back and keeping the record of play: log, report, verify, upgrade, reveal, repair,
explain and dice.

Each command returns its exit code (None for 0); app.py registers it inside the error boundary.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import typer

from ..base.readers import check_name
from ..contracts.outputs import RekeyResult, RepairResult, RevealResult, UpgradeResult
from . import commands
from .params import (
    GAMES,
    READER_HELP,
    SHOW_FMT_HELP,
    WIDTH_HELP,
    BbDialect,
    Dialect,
    Fmt,
    Reader,
    ShowFmt,
    complete_reader,
)

# ---------------------------------------------------------------- log / report

def log(
    journal: Annotated[Path, typer.Argument(help="The game's journal.")],
    since: Annotated[int, typer.Option(help="First record to print.")] = 0,
    as_: Annotated[str, typer.Option(
        "--as", autocompletion=complete_reader,
        help=READER_HELP + " Secrets the reader may not see are digests.")] = "public",
    format: Annotated[Fmt, typer.Option(
        help="text, or json (JSONL records, redacted for the reader; still verifiable).")
    ] = Fmt.text,
    width: Annotated[int, typer.Option(min=40, max=400, help=WIDTH_HELP)] = 72,
) -> None:
    """The records with their orders, dice and events."""
    check_name(as_)
    commands.check_private(journal)
    commands.load_msgspec()
    table = commands.table_of(journal, GAMES["dir"], shown=True)
    for text in table.kind.log(table, as_, since, format.value, width):
        typer.echo(text)


def report(
    journal: Annotated[Path, typer.Argument(help="The game's journal.")],
    as_: Reader = "public",
    since: Annotated[Optional[int], typer.Option(
        help="Report every record after this one (default: after this reader's last "
             "report).")] = None,
    format: Annotated[ShowFmt, typer.Option(help=SHOW_FMT_HELP)] = ShowFmt.text,
    bbcode_dialect: Dialect = BbDialect.common,
    width: Annotated[int, typer.Option(min=40, max=400, help=WIDTH_HELP)] = 72,
    keep_place: Annotated[bool, typer.Option(
        "--keep-place",
        help="Leave the reader's last report where it is: a look before posting, or the "
             "same report again in another format (else the next report begins after "
             "this one).")] = False,
) -> None:
    """What happened since the reader's last report, the board as he may see it, his decision
    now, and a receipt."""
    commands.check_private(journal)
    check_name(as_)
    commands.load_msgspec()
    table = commands.table_of(journal, GAMES["dir"], shown=True)
    typer.echo(table.kind.report(table, as_, since, format.value, width, bbcode_dialect.value,
                                 remember=not keep_place,
                                 ruled=commands.as_tick_rules_deadlines(table)))

# ---------------------------------------------------------------- verify / reveal / repair

def verify(
    journal: Annotated[Path, typer.Argument(help="The game's journal (or a redacted export).")],
    secret: Annotated[Optional[Path], typer.Option(
        help="The dice secret file: recompute every die and shuffle.")] = None,
    export: Annotated[Optional[str], typer.Option(
        help="The file is a redacted export made for this reader (a side of the game, public "
             "or moderator): check its chain and its redactions only.")] = None,
    receipt: Annotated[Optional[list[str]], typer.Option(
        help="A receipt as a report or mail ends with it (Receipt: GAME SEQ:HASH, or "
             "SEQ:HASH): fail unless the journal is that game's and still holds that record "
             "as it was (repeatable); a receipt's key line pasted with it pins the key "
             "too. Or a mailbox you saved the referee's mails in (an mbox file, a Maildir "
             "folder or one saved mail): every receipt of this game its mails carry, each "
             "once; other games' mails, replies and quoted lines are passed over.")] = None,
    key: Annotated[Optional[str], typer.Option(
        help="The game's key fingerprint as `new`, a mail or a receipt shows it: fail unless "
             "that key signed the journal, and that it (or, for a record from before it "
             "took over, the key that record had) signed each receipt's Signed lines.")] = None,
    format: Annotated[Fmt, typer.Option(help="text or json.")] = Fmt.text,
) -> int | None:
    """Check the hash chain and every signature, decide every record again, and (with the
    secret) every die."""
    from .verifying import verify as verified  # start-up: only verify needs it

    lines, code = verified(journal, secret, export, receipt, key, format.value, GAMES["dir"],
                          typer.echo)
    for line in lines:
        typer.echo(line)
    return code


def upgrade(
    journal: Annotated[Path, typer.Argument(help="The game's journal.")],
    signing_key: Annotated[Optional[Path], typer.Option(
        help="Adopt a game begun before signing with the key in this file (made there if "
             "missing) instead of a new one; never a file beside the journal.")] = None,
    adopt: Annotated[bool, typer.Option(
        "--adopt",
        help="Adopt a game begun before journals were signed: everything in it is signed as "
             "your game's (without it, upgrade shows what that would vouch for).")] = False,
    format: Annotated[Fmt, typer.Option(help="text or json.")] = Fmt.text,
) -> None:
    """Bring a game on to this referee (moderator): adopt it when it was begun before journals
    were signed (--adopt), and move it on to newer rules or game data."""
    from ..store import signing  # start-up: only upgrade needs it

    commands.check_private(journal)
    done = commands.needing(journal, "upgrade", "upgrade", GAMES["dir"]).upgrade(signing_key,
                                                                              adopt)
    adopted, rec = done["adopted"], done["upgraded"]
    ev = rec["events"][0] if rec else {
        "from_rules": done["rules"]["rules"], "rules": done["rules"]["rules"],
        "from_data_digest": done["rules"]["data_digest"],
        "data_digest": done["rules"]["data_digest"]}
    fpr = adopted["signing"]["fingerprint"] if adopted else None
    if format == Fmt.json:
        typer.echo(commands.dump(UpgradeResult.of(
            journal=str(journal), seq=(rec or adopted)["seq"], from_rules=ev["from_rules"],
            rules=ev["rules"], from_data_digest=ev["from_data_digest"],
            data_digest=ev["data_digest"],
            adopted={"seq": adopted["seq"], "fingerprint": signing.shown(fpr),
                     "file": str(signing.key_file(fpr))} if adopted else None)))
        return
    if adopted:
        typer.echo(f"record {adopted['seq']}: the game is adopted: records 0-"
                   f"{adopted['seq'] - 1}, from before signing, are covered by this record's "
                   f"hash; it and every record after it are signed by key "
                   f"{signing.shown(fpr)}, whose private half is in {signing.key_file(fpr)}: "
                   f"back it up (docs/moderator.md)")
    if rec:
        typer.echo(f"record {rec['seq']}: the game moves from rules {ev['from_rules']} (game "
                   f"data {ev['from_data_digest'][:12]}) to rules {ev['rules']} (game data "
                   f"{ev['data_digest'][:12]}); later orders are decided under them")


def rekey(
    journal: Annotated[Path, typer.Argument(help="The game's journal.")],
    signing_key: Annotated[Optional[Path], typer.Option(
        help="The new key: the one in this file (made there if missing) instead of a new "
             "one; never a file beside the journal.")] = None,
    format: Annotated[Fmt, typer.Option(help="text or json.")] = Fmt.text,
) -> None:
    """Hand the game to a new signing key (moderator): a record signed by the key in force
    names the new one, which signs every record after it."""
    from ..store import signing  # start-up: only rekey needs it

    commands.check_private(journal)
    rec = commands.needing(journal, "rekey", "rekey", GAMES["dir"]).rekey(signing_key)
    fpr = rec["signing"]["fingerprint"]
    old = signing.signer_of(rec["sig"]) or ""
    if format == Fmt.json:
        typer.echo(commands.dump(RekeyResult.of(
            journal=str(journal), seq=rec["seq"], from_fingerprint=signing.shown(old),
            fingerprint=signing.shown(fpr), file=str(signing.key_file(fpr)))))
        return
    typer.echo(f"record {rec['seq']}: signed by key {signing.shown(old)}, hands the game to key "
               f"{signing.shown(fpr)}, whose private half is in {signing.key_file(fpr)}: back it "
               f"up; tell the players the new fingerprint (their reports name it from the next "
               f"record on; verify --key takes either key once the new one has signed one)")


def reveal(
    journal: Annotated[Path, typer.Argument(help="The game's journal.")],
    force: Annotated[bool, typer.Option(
        "--force", help="Reveal before the game is over (closes it).")] = False,
    format: Annotated[Fmt, typer.Option(help="text or json.")] = Fmt.text,
) -> None:
    """Append the dice secret to the journal so that anyone can check every roll."""
    commands.check_private(journal)
    commands.check_ours(journal)
    commands.load_msgspec()
    table = commands.table_of(journal, GAMES["dir"])
    rec = table.kind.reveal(table, force)
    if format == Fmt.json:
        typer.echo(commands.dump(RevealResult.of(journal=str(journal), seq=rec["seq"])))
        return
    typer.echo(f"record {rec['seq']}: secret revealed; `referee verify {journal}` now "
               f"recomputes every die")


def repair(
    journal: Annotated[Path, typer.Argument(help="The game's journal.")],
    format: Annotated[Fmt, typer.Option(help="text or json.")] = Fmt.text,
) -> None:
    """Remove a torn last line (after backing the file up); any other damage is refused."""
    commands.check_private(journal)
    from ..store.journal import Journal  # start-up: only log and repair need it

    kept, backup, mended = Journal(journal).repair()
    if format == Fmt.json:
        typer.echo(commands.dump(RepairResult.of(
            journal=str(journal), repaired=backup is not None, records=kept,
            backup=None if backup is None else str(backup), mended=mended)))
    elif backup is None:
        typer.echo(f"{journal}: nothing to repair ({kept} complete records)")
    elif mended:
        typer.echo(f"{journal}: the last line lacked only its end; it holds the record this "
                   f"referee wrote last, whole and signed, so its end was put back ({kept} "
                   f"complete records, none lost); the file as it was is in {backup}")
    else:
        typer.echo(f"{journal}: torn last line removed, {kept} complete records kept; the "
                   f"file as it was is in {backup}")
        from ..mail.lostrecord import repair_words  # start-up: only a repair that cut needs it
        with open(journal, "rb") as f:
            lost = repair_words(json.loads(f.readline()), kept)
        if lost:
            typer.echo(f"{journal}: {lost}")

# ---------------------------------------------------------------- explain / dice (audit)

def explain(
    journal: Annotated[Path, typer.Argument(help="The game's journal.")],
    seq: Annotated[str, typer.Argument(help="The record to explain (its number, as `log` "
                                            "shows it).")],
    as_: Reader = "public",
    format: Annotated[Fmt, typer.Option(help="text or json.")] = Fmt.text,
    width: Annotated[int, typer.Option(min=40, max=400, help=WIDTH_HELP)] = 72,
) -> None:
    """One record: the order, the decision it answered and its rule, the checks it passed,
    each die and what it was for, each hit and how it was paid, what it changed."""
    commands.check_private(journal)
    commands.load_msgspec()
    table = commands.table_of(journal, GAMES["dir"], shown=True)
    out = table.kind.explain(table, seq, as_, format.value, width)
    typer.echo(commands.dump(out) if format == Fmt.json else out, nl=format == Fmt.json)


def dice(
    journal: Annotated[Path, typer.Argument(help="The game's journal.")],
    as_: Reader = "public",
    format: Annotated[Fmt, typer.Option(help="text or json.")] = Fmt.text,
    width: Annotated[int, typer.Option(min=40, max=400, help=WIDTH_HELP)] = 72,
) -> None:
    """Each side's dice so far by face and purpose, beside the expected counts, with a
    chi-square figure."""
    commands.check_private(journal)
    commands.load_msgspec()
    table = commands.table_of(journal, GAMES["dir"], shown=True)
    out = table.kind.dice(table, as_, format.value, width)
    typer.echo(commands.dump(out) if format == Fmt.json else out, nl=format == Fmt.json)
