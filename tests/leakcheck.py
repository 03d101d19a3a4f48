"""Secrets by default: what one reader of a game must not see, and a search of outputs for it.

What is secret is worked out from the moderator's truth only: the full journal (every
secret part in full) and the state replayed from it. Nothing here asks the referee's own
redaction what a reader may see: a secret part made for a side is visible to that side, one
made for the moderator to nobody else, and everything outside secret parts to everybody.

Secrets, by kind:
  hand      a card in another side's hand (for the public: in any hand);
  deck      a card in the draw pile; the order of a shuffled deck;
  sealed    an order of a sealed plan not yet revealed (7.0 production, 2.0 I
            reinforcements, 2.0 V.3 discards);
  template  with hidden army templates (1.4), outside battles: a unit on another side's
            army template (`ARMY:KIND`), `into ARMY` / `from ARMY` naming another side's
            army, a JSON object joining or leaving such an army or giving a unit type in it,
            a clause naming such an army beside a unit type -- the definition of
            tests/test_hidden_templates.py (`foe_leaks`) -- and, in `show` and `map`, the contents
            of another side's army;
  address   a player's e-mail address (only his own side sees it; the public none), and an
            observer's (nobody but the observer himself: his mail is read as the public's,
            his own address in it allowed);
  key       a side's order key, which authenticates its mailed orders (likewise);
  salt      the salt of a secret part the reader may not see (with it, a one-card draw is
            found by trying every card against the digest);
  mail      what the moderator keeps about the message an order came in;
  redaction a secret part the reader may not see, printed with its data or salt.

The Board section every report and outbox mail carries (`board` in a JSON report) is also
read on its own as `state` (board_part), so that a leak in it is found apart from the records
and the negative controls can point at it; there it may not show the contents of another
side's army nor, with hidden templates, another side's force pool (which tells what its
armies hold: the counter mix less the pool and the units standing alone).

Outputs are read three ways (every format: markdown escapes and BBCode's lookalike brackets
are undone, line wraps joined, before anything is looked for):
  state     `show`, `status`, `map`: the position now. No card now hidden from the reader, no plan
            now sealed from him, no hidden template (outside a battle). Card titles count
            when neither his hand, the face-up piles, the card in play nor the text the
            prompt has whatever the hands hold accounts for them.
  records   `log`, `report`: one chunk per record (`#N ...`). A secret token may not show in
            the chunk of a record from the record where it became secret until the first
            record from there on that shows it to the reader (a card played, a plan
            revealed). Card titles count when nothing the reader may see in that record
            accounts for them. What is not one record's (a report's title and summary, its
            VP, decision, hand and receipt after the records) is read as `state`.
  whole     anything else (`verify` on an export): no token that no record ever showed the
            reader, nor one hidden from him now.
Salts, addresses and order keys are looked for in every output.
"""

from __future__ import annotations

import bisect
import json
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import gamecalls as g
from referee.engine import legal_orders, pending_prompt
from referee.engine.order_text import format_order
from referee.engine.victory import vp_breakdown

SIDES = ("german", "entente")
PUBLIC = "public"
MODERATOR = "moderator"

DECK_EVENTS = frozenset({"DeckShuffled", "CardsStacked"})
# The events that seal a side's plan until every plan is in (7.0, 2.0 I, 2.0 V.3).
SEALING = ("ProductionOrdered", "PlanSealed")

# The unit types a clause may not name beside another side's army (test_hidden_templates.py).
KINDS = re.compile(r"\b(infantry|cavalry|artillery|siege[ _]gun|paris[ _]gun|biplane|tank|"
                   r"stosstruppen|stoßtruppen|commonwealth)s?\b(?!-type)", re.I)


@dataclass(frozen=True)
class Leak:
    """One secret found in one output."""

    kind: str
    what: str
    example: str
    record: int | None = None

    def line(self) -> str:
        at = f" at record {self.record}" if self.record is not None else ""
        return f"{self.what!r}{at}: ...{self.example}..."


@dataclass
class Output:
    """What one command printed for one reader."""

    command: str
    fmt: str
    reader: str            # german, entente, public, moderator
    argv: list[str]
    code: int
    out: str
    err: str
    shape: str             # state | records | whole
    own: str = ""          # an observer's mail: his own address, which he may see

    def label(self) -> str:
        words = [str(a) for a in self.argv[:1] + self.argv[2:]]
        return " ".join(words)


# ---------------------------------------------------------------- text helpers

_MD_ESCAPED = re.compile(r"\\([\\`*_\[\]<>#|!~&$+\-=.)])")
_BB_BRACKETS = str.maketrans({"\u2045": "[", "\u2046": "]"})
_CARD_ID = re.compile(r"(?<![\w-])[a-z0-9]+(?:-[a-z0-9]+)*-\d\d(?![\w-])")
# A section heading (what ends a report's records): text underlines its title, markdown
# marks it with #, BBCode makes the whole line bold.
_SECTION = {"text": re.compile(r"^[-=]{3,}\s*$"), "markdown": re.compile(r"^#{1,6} "),
            "chat": re.compile(r"^#{1,6} "),
            "bbcode": re.compile(r"^\[b\][^\[\]]*\[/b\]\s*$")}
_CLAUSE = re.compile(r"[;,|]|\[/?t[dr]\]")
_HEADING = re.compile(r"^(?:\[[^\]\n]*\]|[^\w#\n])*#(\d+) ")


def unescape(text: str, fmt: str) -> str:
    """The output with its markup escapes undone (markdown backslashes, BBCode's lookalike
    brackets), so a token is found as it was written."""
    if fmt in ("markdown", "chat"):
        return _MD_ESCAPED.sub(r"\1", text)
    if fmt == "bbcode":
        return text.translate(_BB_BRACKETS)
    return text


def flat(text: str) -> str:
    """White space (line wraps, indents) made single spaces: a wrapped token is found."""
    return " ".join(text.split())


_PATTERNS: dict[str, re.Pattern] = {}


def find(token: str, text: str) -> int:
    """Where token stands in text as a whole word (not inside a longer id), or -1."""
    if token not in text:
        return -1
    pat = _PATTERNS.get(token)
    if pat is None:
        pat = _PATTERNS[token] = re.compile(r"(?<![\w-])" + re.escape(token) + r"(?![\w-])")
    m = pat.search(text)
    return -1 if m is None else m.start()


def around(text: str, at: int, size: int = 70) -> str:
    return flat(text[max(0, at - size):at + size])


def strings(obj) -> list[str]:
    """Every string value in a JSON value, in document order (keys left out)."""
    out: list[str] = []

    def walk(o) -> None:
        if isinstance(o, str):
            out.append(o)
        elif isinstance(o, dict):
            for v in o.values():
                walk(v)
        elif isinstance(o, list):
            for v in o:
                walk(v)

    walk(obj)
    return out


def is_part(obj) -> bool:
    """A secret part in full, as the referee writes one: {to, salt, data}."""
    return isinstance(obj, dict) and "to" in obj and "data" in obj


# ---------------------------------------------------------------- the board of a report

BOARD = "Board"                       # the title of a report's Board section


def _board_lines(lines: list[str], fmt: str) -> list[str] | None:
    """The lines of the Board section of a report in a text format, or None."""
    def heading(i: int) -> bool:             # a section's title (formats.py lays them out)
        line = lines[i]
        if fmt == "text":
            return i + 1 < len(lines) and re.fullmatch(r"-{3,}\s*", lines[i + 1]) is not None
        if fmt == "markdown":
            return line.startswith("## ")
        if fmt == "chat":                    # markdown for chats: its sections are ###
            return line.startswith("### ")
        # BBCode: a bold line glued to the block under it (a country is followed by a gap)
        return bool(_SECTION["bbcode"].match(line)) and i + 1 < len(lines) and \
            bool(lines[i + 1].strip())

    title = {"text": BOARD, "markdown": f"## {BOARD}", "chat": f"### {BOARD}",
             "bbcode": f"[b]{BOARD}[/b]"}.get(fmt)
    starts = [i for i, line in enumerate(lines) if line.rstrip() == title and heading(i)]
    if not starts:
        return None
    start = starts[-1]
    end = next((i for i in range(start + 1, len(lines))
                if heading(i) or lines[i].startswith("Receipt: ")), len(lines))
    return lines[start:end]


def board_part(o: Output) -> Output | None:
    """The Board section of a report or an outbox mail, as an output of its own (command
    `board`, read as the position now); None when the output has none."""
    if o.command not in ("report", "outbox") or o.code != 0:
        return None
    if o.fmt == "json":
        board = json.loads(o.out).get("board")
        out = None if board is None else json.dumps({"board": board}, ensure_ascii=False)
    else:
        lines = _board_lines(o.out.splitlines(), o.fmt)
        out = None if lines is None else "\n".join(lines)
    if out is None:
        return None
    return Output("board", o.fmt, o.reader, [*o.argv, "(board)"], o.code, out, "", "state")


# ---------------------------------------------------------------- the truth

@dataclass
class Occurrence:
    """A secret token in one record's part: who the part is for, and what kind it is."""

    token: str
    kind: str
    owner: str


@dataclass
class Window:
    """Tokens a reader may not see at one point: card ids, other tokens, card titles."""

    cards: dict[str, str]
    others: dict[str, str]
    titles: dict[str, tuple[str, str]]          # title -> (a card, its kind)


@dataclass
class RecordTruth:
    seq: int
    visible: dict[str, set[str]]              # reader -> every string he may see in it
    secret: list[Occurrence]
    salts: list[tuple[str, str]]              # (salt, owner)
    order_seen: bool = True                   # its order was not given inside a battle
    outside: list[int] = field(default_factory=list)   # its events outside battles
    events: int = 0

    @property
    def calm(self) -> bool:
        """Nothing of it happens inside a battle."""
        return self.order_seen and len(self.outside) == self.events


class Truth:
    """The moderator's truth about a game: every record in full and the state now."""

    def __init__(self, journal: Path, addresses: dict[str, str] | None = None,
                 keys: dict[str, str] | None = None, observers: list[str] | None = None):
        game = g.open_game(journal)
        self.data, self.state, self.records = game.data, game.state, game.records
        d, s = self.data, self.state
        self.addresses = dict(addresses or {})         # side -> e-mail address
        self.keys = dict(keys or {})                   # side -> order key
        self.observers = list(observers or [])         # the observers' e-mail addresses
        self.hidden = bool(s.options.get("hidden_templates"))
        self.card_title = {c: ct.title for c, ct in d.cards.items()}
        self.type_title = {k: t.title for k, t in d.card_types.items()}
        self.army_side = {a.id: d.nation_side[a.nation] for a in s.armies.values()}
        titles = sorted(set(self.card_title.values()) | set(self.type_title.values()),
                        key=len, reverse=True)
        self._title_re = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, titles)) +
                                    r")(?![\w-])")
        self.recs: list[RecordTruth] = []
        fighting = False
        for rec in self.records:
            rt = self._record_truth(rec)
            events = rec.get("events") or []
            rt.order_seen, rt.events = not fighting, len(events)
            for i, ev in enumerate(events):
                fighting = fighting or ev.get("type") == "BattleBegan"
                if not fighting:
                    rt.outside.append(i)
                if ev.get("type") == "BattleEnded":
                    fighting = False
            self.recs.append(rt)
        self._visible_at: dict[str, dict[str, list[int]]] = {}
        self._windows: dict[str, list[Window]] = {}
        self._foes: dict[str, tuple | None] = {}
        self._sealed: dict[str, set[str]] = {}
        self._static: set[str] | None = None
        self._now: dict[str, Window] = {}
        self._told: dict[str, list[set[str]]] = {}

    # -------------------------------------------------- per record

    def _record_truth(self, rec: dict) -> RecordTruth:
        readers = (*SIDES, PUBLIC)
        visible: dict[str, set[str]] = {r: set() for r in readers}
        secret: list[Occurrence] = []
        salts: list[tuple[str, str]] = []

        def part(p: dict, kind: str) -> None:
            owner = p["to"]
            if isinstance(p.get("salt"), str):
                salts.append((p["salt"], owner))
            found = self._tokens(p.get("data"), kind)
            if owner in visible:
                visible[owner].update(strings(p.get("data")))
                visible[owner].update(found)
            secret.extend(Occurrence(t, k, owner) for t, k in found.items())

        def public(obj) -> None:
            if isinstance(obj, dict):
                for v in obj.values():
                    if not is_part(v):
                        public(v)
            elif isinstance(obj, list):
                for v in obj:
                    public(v)
            elif isinstance(obj, str):
                for r in readers:
                    visible[r].add(obj)
                    if "\n" in obj:                 # an order text of several orders
                        visible[r].update(obj.split("\n"))

        public(rec)
        for ev in rec.get("events") or []:
            if isinstance(ev, dict) and is_part(ev.get("secret")):
                t = ev.get("type")
                kind = "deck" if t in DECK_EVENTS else "hand" if t == "CardsDrawn" else \
                    "sealed" if t in SEALING else "template"
                part(ev["secret"], kind)
        if is_part(rec.get("private_order")):
            sealed = any(e.get("type") in SEALING for e in rec.get("events") or [])
            part(rec["private_order"], "sealed" if sealed else "template")
        if is_part(rec.get("mail")):
            part(rec["mail"], "mail")
        for key, v in rec.items():             # any other part (the players' roster)
            if key not in ("private_order", "mail", "events") and is_part(v):
                part(v, "address" if key == "players" else key)
        return RecordTruth(rec.get("seq", 0), visible, secret, salts)

    def _tokens(self, data, kind: str) -> dict[str, str]:
        """The secret tokens of a part: its card ids; for plans and private orders every order
        in it; for other parts (the roster, a mail) every address and long id or digest."""
        out: dict[str, str] = {}
        for s in strings(data):
            if s in self.card_title:
                out[s] = kind if kind in ("deck", "hand") else out.get(s, kind)
            elif kind in ("sealed", "template"):
                for line in s.split("\n"):
                    line = line.strip()
                    if " " in line:                # an order ('done' and ids are no secret)
                        out.setdefault(line, kind)
            elif kind not in ("deck", "hand") and ("@" in s or len(s) >= 12):
                out.setdefault(s, kind)           # an address, a digest, a message id
        return out

    # -------------------------------------------------- per reader

    def visible_at(self, reader: str) -> dict[str, list[int]]:
        """token -> the records that show it to reader (sorted)."""
        if reader not in self._visible_at:
            at: dict[str, list[int]] = defaultdict(list)
            for rt in self.recs:
                for t in rt.visible[reader]:
                    at[t].append(rt.seq)
            self._visible_at[reader] = at
        return self._visible_at[reader]

    def windows(self, reader: str) -> list[Window]:
        """Per record, the tokens reader may not see in it: from the record where a token
        became secret until the first record from there on that shows it to him."""
        if reader not in self._windows:
            seen = self.visible_at(reader)
            n = len(self.recs)
            per: list[dict[str, str]] = [dict() for _ in range(n)]
            for rt in self.recs:
                for occ in rt.secret:
                    if occ.owner == reader:
                        continue
                    shown = seen.get(occ.token, [])
                    i = bisect.bisect_left(shown, rt.seq)
                    end = shown[i] if i < len(shown) else n
                    for k in range(rt.seq, end):    # a card drawn is a hand's, not the deck's
                        if per[k].get(occ.token) in (None, "deck"):
                            per[k][occ.token] = occ.kind
            self._windows[reader] = [self.window(p) for p in per]
        return self._windows[reader]

    def window(self, tokens: dict[str, str]) -> Window:
        cards = {t: k for t, k in tokens.items() if t in self.card_title}
        titles: dict[str, tuple[str, str]] = {}
        for c, kind in cards.items():       # a title in a hand is reported as a hand's
            title = self.card_title[c]
            if title not in titles or kind == "hand":
                titles[title] = (c, kind)
        return Window(cards, {t: k for t, k in tokens.items() if t not in cards}, titles)

    def own_cards(self, reader: str) -> set[str]:
        """Cards reader sees now: his hand, the discard pile, the cards removed from play."""
        s = self.state
        own = set(s.discard) | set(s.removed_cards)
        if reader in SIDES:
            own |= set(s.hands.get(reader, [])) | set(s.locked.get(reader, []))
        return own

    def hidden_cards(self, reader: str) -> dict[str, str]:
        """Cards now out of reader's sight (-> kind): the draw pile, the others' hands."""
        s = self.state
        out = {c: "deck" for c in s.draw_pile}
        for side in SIDES:
            if side != reader:
                out.update({c: "hand" for c in s.hands.get(side, [])})
        return out

    def now(self, reader: str) -> Window:
        """What reader may not see in the position now: the cards out of his sight, the
        orders sealed from him."""
        if reader not in self._now:
            self._now[reader] = self.window({**self.hidden_cards(reader),
                                             **{p: "sealed" for p in self.sealed_now(reader)}})
        return self._now[reader]

    def explained_now(self, reader: str) -> set[str]:
        """Card titles a view may show reader with no secret: his hand, the face-up piles,
        the card played this player turn, and what the prompt and the VP lines say whatever
        the hands hold (worked out with every hand and the draw pile emptied: a title that
        shows only with the real hands is a hand's)."""
        s = self.state
        out = self.explained_titles(self.own_cards(reader))
        if s.turn_state is not None:
            out |= self.explained_titles([s.turn_state.card, s.turn_state.card_as])
        return out | self.static_titles()

    def static_titles(self) -> set[str]:
        if self._static is None:
            blank = self.state.clone()
            blank.hands = {side: [] for side in self.state.hands}
            blank.locked = {side: [] for side in self.state.locked}
            blank.draw_pile = []
            try:
                said = pending_prompt(blank, self.data)
            except (KeyError, ValueError, TypeError, AttributeError, IndexError):
                said = pending_prompt(self.state, self.data)   # (a prompt that needs a hand)
            said += "\n" + "\n".join(label for label, _ in vp_breakdown(blank, self.data))
            self._static = {m.group(1) for m in self._title_re.finditer(said)}
        return self._static

    def told_titles(self, reader: str) -> list[set[str]]:
        """Per record, the card titles its chunk may name with no secret: those its own
        strings account for, and those of the records of its player turn before it. A line
        is told with what the game before its record holds (render/incontext.py): Bad
        Weather names the Poison Gas! it cancels, a battle not fought the combat cards
        spent on it, the extra dice of a special offensive its card -- cards played in the
        open earlier in the turn, whose title another copy may share in a hand or the deck.
        A record that begins a player turn is the last of the turn before it too."""
        if reader not in self._told:
            out: list[set[str]] = []
            turn: set[str] = set()
            for rec, rt in zip(self.records, self.recs):
                own = self.explained_titles(rt.visible[reader])
                out.append(turn | own)
                began = any(ev.get("type") == "PlayerTurnBegan" for ev in rec.get("events") or [])
                turn = own if began else turn | own
            self._told[reader] = out
        return self._told[reader]

    def explained_titles(self, tokens) -> set[str]:
        """Titles that the cards or card types among tokens account for, and the titles the
        texts among them say (a reason such as 'Bad Weather turned the Offensive...')."""
        out = set()
        for t in tokens:
            if t in self.card_title:
                out.add(self.card_title[t])
            elif t in self.type_title:
                out.add(self.type_title[t])
            elif isinstance(t, str) and " " in t:
                out.update(m.group(1) for m in self._title_re.finditer(t))
        return out

    def sealed_now(self, reader: str) -> set[str]:
        """The orders of the plans sealed now that reader may not see (7.0, 2.0 I, 2.0 V.3); an
        order the reader sealed himself or may give himself is his to see."""
        s = self.state
        if s.sealed:
            plans = s.sealed.get("plans") or {}
        elif s.phase == "production" and s.production:
            plans = s.production.get("plans") or {}
        else:
            return set()
        if reader not in self._sealed:
            mine: set[str] = set()
            if reader in SIDES:
                mine = set(plans.get(reader, []))
                mine |= {format_order(o) for o in legal_orders(s, self.data, reader)}
            self._sealed[reader] = {o for side, orders in plans.items() if side != reader
                                    for o in orders if " " in o and o not in mine}
        return self._sealed[reader]

    def never_visible(self, reader: str) -> dict[str, str]:
        """Tokens secret from reader that no record ever shows him, nor his position now."""
        seen = self.visible_at(reader)
        own = self.own_cards(reader)
        out: dict[str, str] = {}
        for rt in self.recs:
            for occ in rt.secret:
                if occ.owner != reader and occ.token not in seen and occ.token not in own:
                    out.setdefault(occ.token, occ.kind)
        for t, k in self.hidden_cards(reader).items():
            if t not in seen:
                out.setdefault(t, k)
        return out

    def players_hidden_from(self, reader: str) -> dict[str, tuple[str, str]]:
        """The addresses and order keys reader may not see (another side's; the public none;
        no observer's): token -> (kind, side or 'observer'). A key counts written with or
        without its dashes."""
        out = {a: ("address", "observer") for a in self.observers}
        out.update({a: ("address", side) for side, a in self.addresses.items() if side != reader})
        for side, key in self.keys.items():
            if side != reader:
                out[key] = out[key.replace("-", "")] = ("key", side)
        return out

    # -------------------------------------------------- hidden templates (1.4)

    def foes(self, reader: str):
        """(ARMY:, into/from ARMY, ARMY, the army ids) for the armies of the others; None when
        templates are open (the option is off)."""
        if not self.hidden:
            return None
        if reader not in self._foes:
            ids = {a for a, side in self.army_side.items() if side != reader}
            alt = "|".join(sorted(map(re.escape, ids), key=len, reverse=True))
            self._foes[reader] = (re.compile(rf"(?<![\w-])(?:{alt}):"),
                                  re.compile(rf"\b(?:into|from) (?:{alt})(?![\w-])"),
                                  re.compile(rf"(?<![\w-])(?:{alt})(?![\w-])"), ids)
        return self._foes[reader]

    def foe_json(self, obj, reader: str) -> list[str]:
        """What a JSON value tells reader of another side's templates (foe_leaks' rules)."""
        foes = self.foes(reader)
        if foes is None:
            return []
        ref, joins, _named, ids = foes
        out: list[str] = []

        def walk(o) -> None:
            if isinstance(o, str):
                m = ref.search(o) or joins.search(o)
                if m:
                    out.append(o)
            elif isinstance(o, dict):
                if o.get("into") in ids or o.get("from_army") in ids:
                    out.append(json.dumps(o, ensure_ascii=False))
                if o.get("kind") not in (None, "army") and (o.get("army") in ids or
                                                            o.get("unit") in ids):
                    out.append(json.dumps(o, ensure_ascii=False))
                for v in o.values():
                    walk(v)
            elif isinstance(o, list):
                for v in o:
                    walk(v)

        walk(obj)
        return out

    def foe_text(self, text: str, reader: str) -> list[str]:
        """The clauses of a text (split at line ends, ',', ';', table cells) that tell reader
        of another side's templates (foe_leaks' rules)."""
        foes = self.foes(reader)
        if foes is None:
            return []
        ref, joins, named, _ids = foes
        out = []
        for line in text.splitlines():
            if not named.search(line):
                continue
            for clause in _CLAUSE.split(line):
                if ref.search(clause) or joins.search(clause) or (
                        named.search(clause) and KINDS.search(clause)):
                    out.append(flat(clause).strip())
        return out

    def contents_shown(self, o: Output, text: str, reader: str) -> list[Leak]:
        """The contents of another side's army in `show`, the map picture and the board
        (1.4); with the board, another side's force pool."""
        if not self.hidden or o.command not in ("show", "map", "board"):
            return []
        others = {a.id for a in self.state.armies.values()
                  if a.status == "map" and self.army_side[a.id] != reader}
        out = self.pools_shown(o, text, reader) if o.command in ("board", "show") else []
        if o.fmt == "json":
            doc = json.loads(o.out)
            areas = doc.get("areas", {})       # show: by id; map: a list
            if o.command == "board":
                areas = [a for c in doc["board"].get("countries", []) for a in c["areas"]]
            for area in areas.values() if isinstance(areas, dict) else areas:
                for u in area.get("units", []):
                    if not isinstance(u, dict):               # map: the ids a reader sees
                        continue
                    if u.get("id") in others and (u.get("contents") is not None or
                                                  u.get("strength") is not None):
                        out.append(Leak("template", f"contents of {u['id']}",
                                        json.dumps(u, ensure_ascii=False)[:160]))
            return out
        if o.command == "board" and o.fmt == "text":     # a unit's words may be wrapped
            text = flat(text)
        for aid in sorted(others):
            m = re.search(r"(?<![\w-])" + re.escape(aid) + r" [^\[\]|\n]{0,40}\[(?!hidden\])"
                          r"([^\]\n]{0,40})\]", text)
            if m:
                out.append(Leak("template", f"contents of {aid}: [{m.group(1)}]",
                                around(text, m.start())))
        return out

    def pools_shown(self, o: Output, text: str, reader: str) -> list[Leak]:
        """Another side's force pool in the board or `show`, under hidden templates (1.4):
        as JSON, a nation of force_pool or of nation_names (its name alone tells that the
        reader is given its pool); as text, 'Force pool, NAME:' (the board) or 'NAME force
        pool:' (show), NAME the nation's name or its id."""
        side_of = self.data.nation_side
        if o.fmt == "json":
            doc = json.loads(o.out)
            doc = doc["board"] if o.command == "board" else doc
            nations = [*(doc.get("force_pool") or {}), *(doc.get("nation_names") or {})]
        else:
            by_name = {x.name: n for n, x in self.data.units.nations.items()}
            names = "|".join(re.escape(x) for x in sorted({*by_name, *side_of}, key=len,
                                                           reverse=True))
            found = re.findall(rf"Force pool, ({names}):|(?<![\w-])({names}) force pool:",
                               re.sub(r"\s+", " ", text))
            nations = [by_name.get(x or y, x or y) for x, y in found] + [
                by_name.get(name, name) for name in re.findall(r"Force pool, ([^:\n]+):", text)]
        return [Leak("template", f"the force pool of {n}", f"Force pool, {n}")
                for n in dict.fromkeys(nations) if side_of.get(n) != reader]

    # -------------------------------------------------- the checks

    def leaks(self, o: Output, reader: str | None = None) -> list[Leak]:
        """Every secret of reader (default: the output's reader) found in the output."""
        reader = reader or o.reader
        if reader == MODERATOR:
            return []
        text = unescape(o.out, o.fmt)
        out = self._always(flat(text), reader, o.own)
        if o.shape == "state":
            out += self._state(o, text, reader)
        elif o.shape == "records":
            out += self._records(o, text, reader)
        else:
            out += self._whole(text, reader)
        return out

    def _always(self, text: str, reader: str, own: str = "") -> list[Leak]:
        """Salts, addresses and order keys: in no output for a reader they are hidden from
        (own: the address the output was mailed to, which its reader may see)."""
        out = []
        for rt in self.recs:
            for salt, owner in rt.salts:
                if owner != reader and salt in text:
                    out.append(Leak("salt", salt, around(text, text.index(salt)), rt.seq))
        folded = text.casefold() if self.observers else text
        for token, (kind, side) in self.players_hidden_from(reader).items():
            if own and token.casefold() == own.casefold():
                continue
            # An address is written in any case (a reply goes to the sender as he wrote it).
            at = folded.find(token.casefold()) if side == "observer" else text.find(token)
            if at >= 0:
                out.append(Leak(kind, f"{side}: {token}", around(text, at)))
        return out

    def _tokens_in(self, text: str, w: Window, record=None) -> list[Leak]:
        """The tokens of w found in text (card ids picked out at once, others one by one)."""
        out = []
        if w.cards:
            for m in _CARD_ID.finditer(text):
                kind = w.cards.get(m.group(0))
                if kind is not None:
                    out.append(Leak(kind, m.group(0), around(text, m.start()), record))
        for t, kind in w.others.items():
            at = find(t, text)
            if at >= 0:
                out.append(Leak(kind, t, around(text, at), record))
        return out

    def _titles(self, text: str, w: Window, explained: set[str], record=None) -> list[Leak]:
        """Titles of w's cards in a text that nothing the reader may see accounts for (the
        longest title at each place: not 'Offensive' inside 'Limited Offensive')."""
        out, reported = [], set()
        if not w.titles:
            return out
        for m in self._title_re.finditer(text):
            title = m.group(1)
            if title in w.titles and title not in explained and title not in reported:
                reported.add(title)
                c, kind = w.titles[title]
                out.append(Leak(kind, f"the title {title} ({c})", around(text, m.start()),
                                record))
        return out

    def _state(self, o: Output, text: str, reader: str) -> list[Leak]:
        """The position now."""
        body = flat(text)
        now = self.now(reader)
        out = self._tokens_in(body, now)
        if o.fmt != "json":
            out += self._titles(body, now, self.explained_now(reader))
        if self.hidden and self.state.battle is None:
            found = self.foe_json(json.loads(o.out), reader) if o.fmt == "json" else \
                self.foe_text(text, reader)
            out += [Leak("template", f, f[:160]) for f in found[:3]]
        out += self.contents_shown(o, text, reader)
        return out

    def chunks(self, o: Output, text: str):
        """(seq or None, the chunk's text, the record if it is one of log's JSON lines).

        None: what is not one record's -- a report's title and summary before the records,
        and its sections after them (the VP, the decision now, the hand, the receipt)."""
        if o.command == "log" and o.fmt == "json":
            for line in o.out.splitlines():
                if line.strip():
                    rec = json.loads(line)
                    yield rec.get("seq"), line, rec
            return
        if o.fmt == "json":                  # a JSON document: its strings in order
            doc = json.loads(o.out)
            body = doc.pop("document", None) if isinstance(doc, dict) else None
            sections = body.get("sections") if isinstance(body, dict) else None
            if not isinstance(sections, list) or not sections:
                yield None, "\n".join(strings(doc) + strings(body)), None
                return
            rest = {k: v for k, v in body.items() if k != "sections"}
            yield None, "\n".join(strings(doc) + strings(rest) + strings(sections[1:])), None
            yield from self._by_heading("\n".join(strings(sections[0])), "json")
            return
        yield from self._by_heading(text, o.fmt)

    @staticmethod
    def _by_heading(text: str, fmt: str):
        lines = text.splitlines()
        seq, chunk = None, []
        section_re = _SECTION.get(fmt)
        for i, line in enumerate(lines):
            if fmt == "text":
                section = i + 1 < len(lines) and section_re.match(lines[i + 1])
            else:
                section = section_re is not None and section_re.match(line)
            m = _HEADING.match(line)
            if m or (section and seq is not None):
                yield seq, "\n".join(chunk), None
                seq, chunk = (int(m.group(1)) if m else None), []
            chunk.append(line)
        yield seq, "\n".join(chunk), None

    def _records(self, o: Output, text: str, reader: str) -> list[Leak]:
        """One chunk per record: the secrets of that record's time."""
        out: list[Leak] = []
        windows = self.windows(reader)
        for seq, chunk, rec in self.chunks(o, text):
            if seq is None:                    # before the first record: the position now
                if chunk.strip():
                    head = Output(o.command, "text", o.reader, o.argv, o.code, chunk, "",
                                  "state")
                    out += self._state(head, chunk, reader)
                continue
            if not 0 <= seq < len(self.recs):
                out.append(Leak("unknown record", f"record {seq}, which the journal does not "
                                f"have", chunk[:160]))
                continue
            rt, body = self.recs[seq], flat(chunk)
            w = windows[seq]
            out += self._tokens_in(body, w, seq)
            if rec is None:
                out += self._titles(body, w, self.told_titles(reader)[seq], seq)
            if self.hidden:
                out += self._record_templates(rt, chunk, rec, reader)
            if rec is not None:
                out += self._redaction(rec, reader, seq)
        return out

    def _record_templates(self, rt: RecordTruth, chunk: str, rec: dict | None,
                          reader: str) -> list[Leak]:
        """foe_leaks for one record: its order unless given in a battle, its events outside
        battles (a text chunk of a record partly inside a battle: its heading only)."""
        found: list[str] = []
        if rec is not None:
            if rt.order_seen:
                found += self.foe_json(rec.get("order"), reader)
            events = rec.get("events") or []
            found += self.foe_json([events[i] for i in rt.outside if i < len(events)], reader)
        elif rt.calm:
            found += self.foe_text(chunk, reader)
        elif rt.order_seen:
            found += self.foe_text(chunk.split("\n", 1)[0], reader)
        return [Leak("template", f, f[:160], rt.seq) for f in found[:3]]

    def _redaction(self, rec: dict, reader: str, seq: int) -> list[Leak]:
        """Every secret part not for reader is a digest only: {to, digest}."""
        out = []
        stack = [rec]
        while stack:
            o = stack.pop()
            if isinstance(o, dict):
                if "to" in o and ("digest" in o or "data" in o or "salt" in o):
                    if o["to"] != reader and set(o) - {"to", "digest"}:
                        out.append(Leak("redaction", f"a part for {o['to']} in full",
                                        json.dumps(o, ensure_ascii=False)[:160], seq))
                    continue
                stack.extend(o.values())
            elif isinstance(o, list):
                stack.extend(o)
        return out

    def _whole(self, text: str, reader: str) -> list[Leak]:
        """A summary of the game so far: nothing never shown to reader, nothing hidden now."""
        body = flat(text)
        never = self.window({**self.never_visible(reader),
                             **{p: "sealed" for p in self.sealed_now(reader)}})
        out = self._tokens_in(body, never)
        explained = self.explained_now(reader) | self.explained_titles(self.visible_at(reader))
        out += self._titles(body, never, explained)
        foes = self.foes(reader)
        if foes is not None:
            seen = "\n".join(t for rt in self.recs for t in rt.visible[reader])
            for pat in foes[:2]:
                for m in pat.finditer(body):
                    if m.group(0) not in seen:
                        out.append(Leak("template", m.group(0), around(body, m.start())))
                        break
        return out

    # -------------------------------------------------- what the negative controls expect

    def template_secrets(self, reader: str, since: int = 0) -> bool:
        """Whether the journal (from record since on) tells of another side's template
        outside battles."""
        for rec, rt in zip(self.records[since:], self.recs[since:]):
            events = rec.get("events") or []
            if self.foe_json([events[i] for i in rt.outside], reader):
                return True
        return False

    def sealed_secrets(self, reader: str, since: int = 0) -> bool:
        """Whether some record (from since on) holds an order another side sealed."""
        return self.at_stake("sealed", reader, since)

    def at_stake(self, kind: str, reader: str, since: int = 0) -> bool:
        """Whether some record from since on holds a secret of this kind not for reader."""
        return any(occ.kind == kind and occ.owner != reader
                   for rt in self.recs[since:] for occ in rt.secret)

    def parts_for_others(self, reader: str, since: int = 0) -> bool:
        """Whether some record from since on holds a salted secret part not for reader."""
        return any(owner != reader for rt in self.recs[since:] for _, owner in rt.salts)
