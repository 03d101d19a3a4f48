"""The games of a folder that a pass cannot play (a journal that cannot be read: a torn
last line, a hand edit; or two journals holding one game) and the mail that is theirs.

Such a game's mail is not "mail no game claims": a message it would claim if it could be
read (its tag, one of its order keys, a sender registered in it) stays where it is, not
marked read nor known, and the game's problem line says how many wait for it; the pass
takes them once the game can be played again. From an IMAP folder, a message held is
remembered as held (unclaimed.py, signed in this user's data folder) and not read again
while its game stays unplayable: else every pass would read the same held mail again
within its reading budget, and a stranger's flood naming a broken game's tag would keep
the other games' mail unread behind it. It is read again, and taken once, when its game
can be played (or no longer reads the folder). What claims a journal's mail is what the
folder's index kept of it when it was last read (gameindex.load_all), and for twins what
their journals say. A message is held only while its game stays
unplayable, and the moderator is told at every pass that it is: a stranger naming a
broken game's tag makes his mail wait no longer than that.

When nothing is known of an unreadable journal's game (its index entry gone too), no
message can be told to be its: those no playable game claims are left for the moderator
as before, the line saying that the journal may be theirs; the files of the Maildir that
games no longer reading it took (it may be one of them) are kept known meanwhile, so that
mail applied long ago is not announced as new.

A game handed over to another machine is held the same way (handedhere.py), with no problem:
its mail is that machine's, counted in its own standing line, never listed as waiting here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..base.errors import one_line
from ..base.plurals import counted
from . import gameindex
from .tickgame import Game, game_tag


@dataclass
class Withheld:
    """An unplayable game of the folder: what claims its mail (none known: games empty),
    the slot of its problem line among the pass's, and the mail that waits for it."""

    journals: list[Path]
    games: list[Game]
    slot: int
    until: str
    waiting: list[str] = field(default_factory=list)
    busy: bool = False          # its journal held locked by another process: its slot is
                                # among the pass's busy lines, not its problems
    handed: bool = False        # handed over to another machine (handedhere.py): no slot;
                                # its mail is that machine's, counted in its own line

    @property
    def tags(self) -> set[str]:
        return {game_tag(x.game_id, x.header_hash) for x in self.games}


def unread(journal: Path, known: dict, slot: int, fields: tuple[str, ...],
           busy: bool = False) -> Withheld:
    """A journal that cannot be read (busy: not now, another process holds it locked),
    with what claimed its mail when it was last read, as the folder's index kept it
    (gameindex.load_all; if any)."""
    found = known.get(journal.name)
    try:
        games = [Game(journal, **{k: found[k] for k in fields})] \
            if isinstance(found, dict) else []
    except (KeyError, TypeError):
        games = []
    return Withheld([journal], games, slot, "for the next pass" if busy else
                    "until the journal can be read", busy=busy)


def twins(games: list[Game], slot: int) -> Withheld:
    """Journals holding one game: each claims what its own journal says."""
    return Withheld([x.journal for x in games], games, slot,
                    "until then")


def of_source(withheld: list[Withheld], source: str) -> list[Withheld]:
    """Those that read the source, and those of which nothing is known (any may), or only
    their mark (a game handed over whose journal and index entry are gone: handedhere.py)."""
    return [w for w in withheld if not w.games or (w.handed and not w.journals) or
            any(x.source == source for x in w.games)]


def known_now(games: list[Game], withheld: list[Withheld], known: dict,
              fields: tuple[str, ...]) -> dict:
    """What claims each journal's mail, for the index: each game's as read now (or served),
    an unreadable journal's as it was last known, and a handed-over game's as the pass knew
    it (handedhere.py: its later passes read it from here)."""
    out = {w.journals[0].name: known[w.journals[0].name] for w in withheld
           if w.games and len(w.journals) == 1 and w.journals[0].name in known}
    out.update((w.journals[0].name, {k: getattr(w.games[0], k) for k in fields})
               for w in withheld if w.handed)
    out.update((x.journal.name, {k: getattr(x, k) for k in fields}) for x in games)
    return out


def told(broken: list[str], withheld: list[Withheld], busy: list[str]) -> None:
    """Each unplayable game's problem line (or busy line), with the mail that waits for it
    (a game handed over has a line of its own: handedhere.py)."""
    for w in withheld:
        if w.waiting and not w.handed:
            n = len(w.waiting)
            (busy if w.busy else broken)[w.slot] += (f"; {counted(n, 'message')} for game "
                               f"{one_line(w.games[0].game_id)} "
                               f"{'waits' if n == 1 else 'wait'} {w.until}")


def unknown(withheld: list[Withheld]) -> list[str]:
    """The journals that cannot be read and of whose game nothing is known."""
    return [one_line(w.journals[0].name) for w in withheld if not w.games]


def held_aside(took: dict[str, dict], withheld: list[Withheld], tags: set[str]
               ) -> dict[str, tuple[list, dict]]:
    """Of the Maildir files games took before (unclaimed.known_files), those of the
    unplayable games, while one of their journals still holds what it held then (a torn
    journal holds all before its tear); while a journal of an unknown game cannot be read,
    those of any game not reading the mailbox now (tags: those that do), as they were."""
    out = {}
    blind = any(not w.games for w in withheld)
    for tag, entry in took.items():
        then, files = entry.get("mark"), entry.get("files")
        if tag in tags or not isinstance(files, dict) or not isinstance(then, list) or \
                len(then) != 2:
            continue
        mine = [w for w in withheld if tag in w.tags]
        if any(gameindex.holds(j, *then) for w in mine for j in w.journals) or \
                (blind and not mine):
            out[tag] = (then, files)
    return out


def waiting(withheld: list[Withheld]) -> list[dict]:
    """The messages held, each with its game and journals (tick --format json); not those
    left for the machine a game was handed over to."""
    return [{"where": where, "game_id": w.games[0].game_id,
             "journals": [str(j) for j in w.journals]}
            for w in withheld if not w.handed for where in w.waiting]


def still_held(held: dict[str, dict], withheld: list[Withheld]) -> dict[str, Withheld]:
    """Of the messages of an IMAP folder held in an earlier pass (unclaimed.held_before),
    those whose game the pass still cannot play, each with it: they are not read again."""
    out = {}
    for uid, entry in held.items():
        tags = {t for t in entry["tags"] if isinstance(t, str)}
        found = next((w for w in withheld if tags & w.tags), None)
        if found is not None:
            out[uid] = found
    return out


def held_now(before: dict[str, dict], still: dict[str, Withheld], unseen: list[str],
             claims) -> dict[str, dict]:
    """The messages of an IMAP folder held now, to remember: those held before whose game
    is still unplayable (each told to that game again: still unread, unseen) and those the
    pass held (claims.held)."""
    out = {}
    for uid in unseen:
        if uid in still:
            still[uid].waiting.append(before[uid]["where"])
            out[uid] = before[uid]
    for w, f in claims.held:
        if f.uid is not None:
            out[f.uid.decode()] = {"where": f.where, "tags": sorted(w.tags)}
    return out
