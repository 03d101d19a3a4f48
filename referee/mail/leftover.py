"""The mails of a game that did not reach their readers, as a pass of `tick` sees them: ones
a server refused for good (they wait in the spool's refused/), and ones left in the outbox
folder of an earlier route. Their sides' news is owed again, once, and every pass names
them to the moderator until he acts. Each function takes tick's Game (x)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from ..base.errors import RefereeError, StorageError, one_line
from ..base.plurals import counted
from ..render.documents import players_words
from .delivery import refused_mails, spool_files
from .ledger import forget_starts, load_ledger, news_owed_again, save_ledger
from .ledger import game_lock as mail_lock
from .named import own_name


def named(path: Path) -> str:
    """A path as a problem line may quote it: as it is, or escaped when it holds a line end
    or another character that is not printable (one problem, one line)."""
    return one_line(str(path))


def owe_news_again(x) -> None:
    """The mails a server refused for good that the ledger has not yet accounted for (in
    this pass, or in one killed before it could say so): their sides' news is owed again,
    from where the first of them started (under the mail lock every writer of the ledger
    holds)."""
    with mail_lock(x.game_id, x.header_hash):
        ledger = load_ledger(x.game_id, x.header_hash)
        refused = [own_name(p.stem) for p in refused_mails(x.spool)]
        before = (dict(ledger["starts"]), list(ledger["refused"]))
        sides = news_owed_again(ledger, refused)
        forget_starts(ledger, {own_name(p.stem) for p in spool_files(x.spool)} | set(refused))
        if (ledger["starts"], ledger["refused"]) != before:
            save_ledger(ledger)
    for side in sorted(set(sides)):
        x.log(f"owed     {players_words([side])}: his next report carries the news of the "
              f"mail refused, once the moderator has acted on it")


def stranded(x) -> None:
    """The mails this referee wrote into an earlier route's outbox folder that are still
    there, never sent (the route changed under them): their sides' news is owed again, once,
    by the route in force, and every pass says so until the moderator removes them. Only
    mails the ledger names as the referee's count; none is read or sent from there, and a
    folder that cannot be looked at hides them, never errs."""
    with mail_lock(x.game_id, x.header_hash):
        ledger = load_ledger(x.game_id, x.header_hash)
        before = json.dumps(ledger["stranded"], sort_keys=True)
        for folder in x.former:
            there = _left_in(folder)
            left = [n for n in ledger["starts"] if n in there]
            sides = news_owed_again(ledger, left)
            for side in sorted(set(sides)):
                x.log(f"owed     {players_words([side])}: his next mail carries the news of "
                      f"the mails left in {folder}")
            ledger["stranded"][folder] = sorted(set(ledger["stranded"].get(folder, []))
                                                | set(left))
        left = {f: [n for n in names if n in there]
                for f, names in ledger["stranded"].items() for there in [_left_in(f)]}
        ledger["stranded"] = {f: names for f, names in left.items() if names}
        if json.dumps(ledger["stranded"], sort_keys=True) != before:
            save_ledger(ledger)
    for folder, names in ledger["stranded"].items():
        x.fail(f"{counted(len(names), 'mail')} written to {named(Path(folder))} before the route "
               f"changed {'was' if len(names) == 1 else 'were'} never sent: their news goes by "
               f"the new route; remove them from there so that nobody gets them twice")


def _left_in(folder: str) -> set[str]:
    """The names of the mails in folder (a second name as its own: named.py); none when it
    cannot be looked at."""
    try:
        return {own_name(e.name[:-4]) for e in os.scandir(folder)
                if e.name.endswith(".eml") and e.is_file(follow_symlinks=False)}
    except OSError:
        return set()


def tell_refused(x) -> None:
    """At every pass, until the moderator acts on them: the mails a server refused for good
    (their recipients heard nothing of them)."""
    try:
        waiting = refused_mails(x.spool)
    except RefereeError:
        return
    if waiting and not any("refused for good" in p for p in x.problems):
        x.fail(f"{counted(len(waiting), 'mail')} refused for good "
               f"{'waits' if len(waiting) == 1 else 'wait'} in {x.spool / 'refused'} "
               f"({', '.join(p.name for p in waiting[:3])}{' …' if len(waiting) > 3 else ''}): "
               f"mend the address (`referee players`) and remove them; the player's next "
               f"report carries their news")


def held_sides(folder: Path, ledger: dict) -> set[str]:
    """The sides a mail to whom waits in folder/refused/ (a server refused it for good):
    no report goes to them until the moderator has acted on it; then the next one carries
    its news too. Only the mails tick names to the moderator at every pass count."""
    return held_by(refused_names(folder), ledger)


def held_by(refused: set[str], ledger: dict) -> set[str]:
    """The sides the mails refused for good (by name: refused_names) were to, as the
    ledger's starts name them."""
    return {s[0] for s in (ledger["starts"].get(n) for n in refused)
            if isinstance(s, list) and s and isinstance(s[0], str)}


def refused_names(folder: Path) -> set[str]:
    """The names of the mails that wait in folder/refused/ (a server refused them for good:
    their readers got nothing of them), as the ledger names them (note_start)."""
    try:
        return {own_name(p.stem) for p in refused_mails(folder)}
    except StorageError:
        return set()
