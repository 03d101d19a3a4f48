"""The legal orders grouped for a person to read: one line per unit, one per card verb, one
for the rest.

`status` (and `order`, `report`, the mail replies) used to print every legal order
on a line of its own, 300 to 500 of them in a movement phase. Here the flat,
canonical list (what `status --all` and the JSON `legal` list give) becomes a few
groups, each a typed part (`move ge-1`) and the choices that complete it
(`Cologne, Eifel, Liège*`); a two-area move is a choice under the first area it
passes (`via Eifel → Liège*`). Typing the typed part, then the first areas, then one
choice gives an order `order` accepts: areas are shown by name only where the name
is one word that reads back as that area (else by id); a list of the areas long lines
share names each as the board does. A discard whose orders are
every pick of some cards (a pass: any of the hand) names the cards once, not each of
the 31 picks of five cards. The tests read the lines back as a player would and
compare the orders with the flat list.

Pure: it reads only the canonical text (ids, keys and keywords, never spaces
inside a word) and the aids the view holds (area names, the reader's Enemy
areas); nothing here knows the rules beyond the shape of each order's text.
"""

from __future__ import annotations

import itertools
from collections import Counter

from .sections import Items, Orders, Para, Span

# Orders that take no argument (or only fixed words): the "rest" line.
REST_VERBS = ("pass", "done", "annihilate", "end", "propose", "accept", "refuse", "surrender")
# Card orders: one line per verb, the cards as choices.
CARD_VERBS = ("play", "ersatz", "discard")
# The typed part is the verb alone; the choices are what follows it.
VERB_HEAD = ("battle", "bonus", "keep", "fight", "lose", "scramble", "upgrade", "swap",
             "remove", "eliminate", "entrench", "buy")
# The typed part is the verb and its unit (or army).
UNIT_HEAD = ("move", "rail", "strategic", "sea", "reserves", "evacuate", "retreat", "eft",
             "react", "suppress", "rebuild", "place", "build")
# Where the areas stand among the words after the typed part.
AREA_FIRST = ("rail", "strategic", "sea", "reserves", "evacuate", "retreat", "eft", "rebuild",
              "place", "build", "battle", "bonus", "keep", "fight")
MOVE_STOPS = ("into", "taking")
AS_IS = "(as is)"
# A move with no area (ge-4:cavalry alone): the unit leaves its army and stays (4.1).
STAYS = "(stays)"
ARROW = "→"


class Choice:
    """What completes a typed part: areas (ids, in order) then fixed words."""

    __slots__ = ("areas", "words")

    def __init__(self, areas: tuple[str, ...], words: tuple[str, ...]):
        self.areas = areas
        self.words = words


class Pick:
    """A discard whose choices are every pick of lo to hi cards from a hand: the card keys
    in the hand's order, with how many of each a pick may take."""

    __slots__ = ("cards", "lo", "hi")

    def __init__(self, cards: list[tuple[str, int]], lo: int, hi: int):
        self.cards = cards
        self.lo = lo
        self.hi = hi


class Group:
    """A typed part and its choices; kind is 'unit', 'cards' or 'rest'; pick, when the
    choices are every pick of some cards (shown as the cards once, not each pick); also: the
    other units whose orders are the same choices after the same verb (`move ge-1, ge-2`);
    without: by unit, the choices of the line that unit may not take (`ge-3 (not Eifel)`)."""

    __slots__ = ("head", "verb", "choices", "kind", "pick", "also", "without")

    def __init__(self, head: str, verb: str, kind: str):
        self.head = head
        self.verb = verb
        self.kind = kind
        self.choices: list[Choice] = []
        self.pick: Pick | None = None
        self.also: list[str] = []
        self.without: dict[str, list[Choice]] = {}

    def same_as(self) -> tuple | None:
        """What another unit's group must equal to be listed on this one's line: the verb and
        every choice; None when the head is more than the verb and a unit."""
        if self.kind != "unit" or self.head.count(" ") != 1:
            return None
        return self.verb, tuple((c.areas, c.words) for c in self.choices)


def _split(line: str) -> tuple[str, str, Choice]:
    """(verb, typed part, choice) of one canonical order line."""
    words = line.split()
    verb = words[0] if words else ""
    if verb in UNIT_HEAD and len(words) > 1:
        n = 2
        if verb in ("place", "build") and len(words) > 2 and "-" not in words[1]:
            n = 3                                   # 'place fr infantry AREA'
    elif verb in VERB_HEAD or verb in CARD_VERBS:
        n = 1
    else:
        return verb, line, Choice((), ())
    head, tail = " ".join(words[:n]), words[n:]
    if verb == "move":
        k = 0
        while k < len(tail) and tail[k] not in MOVE_STOPS:
            k += 1
        return verb, head, Choice(tuple(tail[:k]), tuple(tail[k:]))
    if verb in AREA_FIRST and tail:
        return verb, head, Choice((tail[0],), tuple(tail[1:]))
    if verb == "play" and len(tail) > 1:           # a combat card names its battle area
        return verb, f"{head} {tail[0]}", Choice((tail[1],), tuple(tail[2:]))
    return verb, head, Choice((), tuple(tail))


def readable_order(line: str, names: dict) -> str:
    """A canonical order with its areas by the names the grouped orders show (names: id →
    name), which `order` reads back as those areas (4.1)."""
    _, head, choice = _split(line)
    if not choice.areas:
        return line
    return " ".join([head, *(names.get(a, a) for a in choice.areas), *choice.words])


def group_orders(lines: list[str]) -> list[Group]:
    """The legal orders of the pending decision (2.0) as groups: units, cards, the rest."""
    groups: dict[str, Group] = {}
    rest = Group("", "", "rest")
    for line in lines:
        verb, head, choice = _split(line)
        if verb in REST_VERBS or (head == line and verb not in UNIT_HEAD):
            rest.choices.append(Choice((), (line,)))
            continue
        g = groups.get(head)
        if g is None:
            g = groups[head] = Group(head, verb, "cards" if verb in CARD_VERBS else "unit")
        g.choices.append(choice)
    out: list[Group] = []
    alone: dict[str, Group] = {}
    for g in groups.values():
        # 'eft ge-7' and 'eft ge-i-02' alone: one line for the verb, the units its choices.
        # Not a unit of an army moved with no area: that leaves its army (4.1, 8.1), and its
        # line says so, `move ge-1:infantry → (stays)`, where 'move → ge-1:infantry' did not.
        if g.kind == "unit" and g.verb != "move" and \
                all(not c.areas and not c.words for c in g.choices):
            verb_line = alone.get(g.verb)
            if verb_line is None:
                verb_line = alone[g.verb] = Group(g.verb, g.verb, "unit")
                out.append(verb_line)
            verb_line.choices.append(Choice((), (g.head.split(" ", 1)[1],)))
        else:
            out.append(g)
            if g.verb == "discard":
                g.pick = card_pick([c.words for c in g.choices])
    # Cards last, each verb's lines together (rail, then Strategic Reserves!); stable: the
    # engine's order within a verb.
    verbs = {g.verb: i for i, g in reversed(list(enumerate(out)))}
    out.sort(key=lambda g: (g.kind == "cards", verbs[g.verb]))
    if rest.choices:
        out.append(rest)
    return out


def quiet_stays(groups: list[Group]) -> bool:
    """When every unit of an army that may move alone may also stay (`move ge-1:artillery`
    with no area: it leaves its army, 4.1), that choice is said once in the legend, not on
    each line: taken out of the groups (True). Else (some may not, or one could do nothing
    else) the groups keep it and the lines show (stays)."""
    parts = [g for g in groups if g.verb == "move" and g.kind == "unit" and ":" in g.head]
    bare = [[c for c in g.choices if not c.areas and not c.words] for g in parts]
    if not parts or not all(len(b) == 1 < len(g.choices) for b, g in zip(bare, parts)):
        return False
    for g in parts:
        g.choices = [c for c in g.choices if c.areas or c.words]
    return True


def merge_same(groups: list[Group]) -> list[Group]:
    """Units whose orders are the same choices after the same verb on one line, where the
    first of them stands (ge-1 and ge-2 in one area with the same units: `move ge-1, ge-2`)."""
    first: dict[tuple, Group] = {}
    out: list[Group] = []
    for g in groups:
        key = g.same_as()
        if key is not None and key in first:
            first[key].also.append(g.head.split(" ", 1)[1])
            continue
        if key is not None:
            first[key] = g
        out.append(g)
    return out


def card_pick(picks: list[tuple[str, ...]]) -> Pick | None:
    """The hand and the numbers of cards that picks are every pick of (a discard: 2.0 II.1
    any number, 7.1 exactly the excess), or None when they are not, or too few to shorten."""
    if len(picks) < 3 or len(set(picks)) != len(picks):
        return None
    held: Counter = Counter()
    before: dict[str, set[str]] = {}
    for words in picks:
        for key, n in Counter(words).items():
            held[key] = max(held[key], n)
        for i, key in enumerate(words):
            before.setdefault(key, set()).update(w for w in words[:i] if w != key)
    sizes = {len(words) for words in picks}
    lo, hi = min(sizes), max(sizes)
    if sizes != set(range(lo, hi + 1)):
        return None
    keys = list(held)
    every = {combo for combo in itertools.product(*(range(held[k] + 1) for k in keys))
             if lo <= sum(combo) <= hi}
    if every != {tuple(Counter(words)[k] for k in keys) for words in picks}:
        return None
    # Each pick names its cards in the hand's order: a card after more others comes later.
    keys.sort(key=lambda k: len(before[k]))
    return Pick([(k, held[k]) for k in keys], lo, hi)


def pick_text(g: Group) -> tuple[str, str]:
    """(typed part, the cards) of a discard shown as its cards once: `discard CARD [CARD ...]
    → one or more of: offensive ×2, ersatz_2`."""
    p = g.pick
    total = sum(n for _, n in p.cards)
    words = " ".join(["CARD"] * p.lo)
    if p.hi > p.lo:
        words += " [CARD ...]" if p.hi - p.lo > 1 else " [CARD]"
    many = ("one or more" if p.lo == 1 and p.hi == total else f"any {p.lo}" if p.lo == p.hi
            else f"{p.lo} to {p.hi}")
    cards = ", ".join(k + (f" ×{n}" if n > 1 else "") for k, n in p.cards)
    return f"{g.verb} {words}", f"{many} of: {cards}"


def _pick_example(p: Pick) -> str:
    """The fewest cards a pick takes, first cards first: an order it offers."""
    copies = [k for k, n in p.cards for _ in range(n)]
    return " ".join(copies[:p.lo])


def _area_word(a: str, names: dict, enemy: set, mark: bool) -> str:
    return names.get(a, a) + ("*" if mark and a in enemy else "")


def _choice_words(c: Choice, names: dict, enemy: set, mark: bool, skip: int = 0) -> str:
    shown = [_area_word(a, names, enemy, mark) for a in c.areas[skip:]]
    return " ".join(shown + list(c.words)) or (STAYS if mark else AS_IS)


def _choice_typed(c: Choice, names: dict) -> str:
    return " ".join([names.get(a, a) for a in c.areas] + list(c.words))


def _choices_text(choices: list[Choice], names: dict, enemy: set, mark: bool,
                  skip: int = 0) -> str:
    """Choices as a person reads them; those that are the same areas with words after them or
    without (`Eifel`, `Eifel into ge-3`) as one: `Eifel [into ge-3]`."""
    parts: list[str] = []
    for areas, same, tails in _by_areas(choices, skip):
        if tails:
            parts.append(" ".join(_area_word(a, names, enemy, mark) for a in areas[skip:])
                         + f" [{' | '.join(tails)}]")
        else:
            parts += [_choice_words(c, names, enemy, mark, skip) for c in same]
    return ", ".join(parts)


def _by_areas(choices: list[Choice], skip: int = 0):
    """(areas, the choices of those areas, the words read in brackets after them: none unless
    the areas are offered once bare and the rest with words)."""
    by_areas: dict[tuple[str, ...], list[Choice]] = {}
    for c in choices:
        by_areas.setdefault(c.areas, []).append(c)
    for areas, same in by_areas.items():
        tails = [" ".join(c.words) for c in same if c.words]
        one = bool(areas[skip:]) and len(same) - len(tails) == 1
        yield areas, same, tails if one else []


def _near_far(g: Group) -> tuple[list[Choice], dict[tuple[str, ...], list[Choice]]]:
    """A group's choices of one area or none, and its two-area ones by their first areas."""
    far: dict[tuple[str, ...], list[Choice]] = {}
    for c in g.choices:
        if len(c.areas) > 1:
            far.setdefault(c.areas[:-1], []).append(c)
    return [c for c in g.choices if len(c.areas) <= 1], far


def bracketed(g: Group) -> bool:
    """Whether the group's choices, as group_text reads them, show words in brackets."""
    near, far = _near_far(g)
    return any(tails for choices, skip in [(near, 0)] + [(c, len(v)) for v, c in far.items()]
               for _, _, tails in _by_areas(choices, skip))


def group_text(g: Group, names: dict, enemy: set) -> tuple[str, str]:
    """(typed part, its choices as a person reads them) of a group; '*' on Enemy areas of a
    move (5.1.1), a two-area move under its first area (4.1), words that may follow an area
    in brackets (`Eifel [into ge-3]`)."""
    mark = g.verb == "move"
    near, far = _near_far(g)
    parts = [_choices_text(near, names, enemy, mark)] if near else []
    for via, choices in far.items():
        first = " ".join(_area_word(a, names, enemy, mark) for a in via)
        parts.append(f"via {first} {ARROW} "
                     + _choices_text(choices, names, enemy, mark, len(via)))
    return g.head, "; ".join(parts)


def _legend(groups: list[Group], names: dict, enemy: set, stays: bool,
            whole: bool = True) -> Para:
    """One line on how to read a group, with an example taken from the groups themselves;
    whole: it names `status --all` (for a command-line reader, never in a mail)."""
    choices = [c for g in groups if g.kind != "rest" and g.pick is None for c in g.choices]
    first = next(g for g in groups if g.kind != "rest")
    typed = _pick_example(first.pick) if first.pick else _choice_typed(first.choices[0], names)
    example = " ".join(x for x in (first.head, typed) if x)
    several = " (one of the units listed)" if any(g.also for g in groups) else ""
    bits: list = [f"How to read: type the code part{several}, then one choice after ", ARROW,
                  " (e.g. ", Span(example, "order"), ")"]
    pick = next((g for g in groups if g.pick), None)
    if pick is not None:
        bits.append(f"; {pick.verb}: the cards chosen among those after {ARROW}"
                    + (" (×2: up to twice)" if any(n > 1 for _, n in pick.pick.cards) else ""))
    if any(bracketed(g) for g in groups if g.kind != "rest" and g.pick is None):
        bits.append("; [words] may be added to the choice")
    if any(len(c.areas) > 1 for c in choices):
        bits.append(f"; via A {ARROW} B: the two-area move A B")
    if any(g.without for g in groups):
        bits.append("; (not …): choices that unit may not take")
    if any(g.verb == "move" and any(a in enemy for c in g.choices for a in c.areas)
           for g in groups):
        bits.append("; * = Enemy area: entering one that holds enemy units makes a "
                    "battle (5.1.1)")
    if stays:
        bits.append("; ARMY:TYPE alone (no area): that unit leaves its army and stays (4.1)")
    elif any(not c.areas and not c.words for g in groups if g.verb == "move"
             for c in g.choices):
        bits.append(f"; {STAYS} = the code part alone: the unit leaves its army and stays "
                    f"where it stands (4.1, 8.1)")
    if any(not c.areas and not c.words for g in groups if g.verb != "move" for c in g.choices):
        bits.append(f"; {AS_IS} = the code part alone")
    bits.append(".")
    if any(c.areas for c in choices):
        bits.append(" Area names or ids both work" + (";" if whole else "."))
    if whole:
        bits += [" ", Span("status --all", "order"), " lists every order whole."]
    return Para([b if isinstance(b, Span) else Span(b) for b in bits])


def _close(members: list[Group]) -> bool:
    """Whether each group lacks at most a fifth of the areas of them all."""
    every = {c.areas for g in members for c in g.choices}
    return all(len(every) - len(g.choices) <= len(every) // 5 for g in members)


def _clusters(same: list[Group]) -> list[list[Group]]:
    """The groups in clusters whose choices are nearly the same (_close): from the group with
    the most choices, each other one that keeps the cluster close; again with those left."""
    left = sorted(same, key=lambda g: -len(g.choices))
    out: list[list[Group]] = []
    while left:
        members = [left[0]]
        for g in left[1:]:
            if _close(members + [g]):
                members.append(g)
        out.append(members)
        left = [g for g in left if g not in members]
    return out


def share_choices(groups: list[Group]) -> list[Group]:
    """Units of one verb whose choices are single areas, nearly all the same (a rail move or
    Strategic Reserves!: every area of the rail net but a few), on one line: the areas once,
    and after each unit the few it may not take (at most a fifth of them)."""
    by_verb: dict[str, list[Group]] = {}
    for g in groups:
        if g.same_as() is not None and g.choices and \
                all(len(c.areas) == 1 and not c.words for c in g.choices):
            by_verb.setdefault(g.verb, []).append(g)
    order = {id(g): i for i, g in enumerate(groups)}
    shared: dict[int, Group] = {}
    for verb, same in by_verb.items():
        for members in _clusters(same):
            if len(members) < 2:
                continue
            members.sort(key=lambda g: order[id(g)])
            areas = sorted({c.areas for g in members for c in g.choices})
            line = Group(members[0].head, verb, "unit")
            line.choices = [Choice(a, ()) for a in areas]
            for g in members:
                has = {c.areas for c in g.choices}
                for unit in [g.head.split(" ", 1)[1], *g.also]:
                    line.without[unit] = [Choice(a, ()) for a in areas if a not in has]
            line.also = list(line.without)[1:]
            shared.update({id(g): line for g in members})
    out: list[Group] = []
    for g in groups:
        line = shared.get(id(g), g)
        if line not in out:
            out.append(line)
    return out


# Lines whose areas number at least LONG_AREAS name the areas they share once (bounded).
LONG_AREAS = 12


def common_areas(groups: list[Group]) -> tuple[str, ...]:
    """The areas every line of LONG_AREAS single areas or more offers alone (a build or a
    placement in any supplied Friendly area, 7.2, 2.0 I), when two lines or more offer
    them, in the order the first of them gives them; else none."""
    long = [[c.areas[0] for c in g.choices if len(c.areas) == 1 and not c.words]
            for g in groups if g.kind == "unit" and g.pick is None and not g.without]
    long = [a for a in long if len(a) >= LONG_AREAS]
    shared = set.intersection(*map(set, long)) if len(long) > 1 else set()
    return tuple(a for a in long[0] if a in shared) if len(shared) >= LONG_AREAS else ()


def _without_common(g: Group, common: tuple[str, ...], names: dict, enemy: set
                    ) -> tuple[str, str] | None:
    """(typed part, choices) of a line that offers every area of common, naming them as the
    list below; the choices it adds to them (an area with words: `Sedan [into fr-5]`) first.
    None when it does not offer them all."""
    alone = {c.areas[0] for c in g.choices if len(c.areas) == 1 and not c.words}
    if not common or not alone.issuperset(common):
        return None
    worded = {c.areas for c in g.choices if c.words}
    rest = Group(g.head, g.verb, g.kind)
    rest.choices = [c for c in g.choices if len(c.areas) != 1 or c.areas[0] not in common
                    or c.words or c.areas in worded]
    below = f"any of the {len(common)} areas listed below"
    if not rest.choices:
        return g.head, below
    return g.head, f"{group_text(rest, names, enemy)[1]}, or {below}"


def grouped_blocks(lines: list[str], aids: dict | None = None, whole: bool = True,
                   bounded: bool = False) -> list:
    """The legal orders (2.0) for a Section: a line on how to read them and one item per
    group (units, cards, the rest); with nothing to group, each order whole. whole=False
    for a reader who cannot run `status --all` (a report, a mail). bounded: the areas long
    lines share are named once, after the lines (a mail read on a phone)."""
    aids = aids or {}
    names = {k: v for k, v in (aids.get("names") or {}).items()
             if isinstance(k, str) and isinstance(v, str)}
    enemy = {a for a in (aids.get("enemy") or []) if isinstance(a, str)}
    groups = group_orders(lines)
    if all(g.kind == "rest" for g in groups):       # nothing to group: each order whole
        return [Orders(list(lines))]
    stays = quiet_stays(groups)
    groups = share_choices(merge_same(groups))
    common = common_areas(groups) if bounded else ()
    items: list[list[Span]] = []
    for g in groups:
        if g.kind == "rest":
            spans: list[Span] = [Span("Also: ")]
            for i, c in enumerate(g.choices):
                spans += [Span(", ")] * bool(i) + [Span(c.words[0], "order")]
            items.append(spans)
            continue
        head, text = pick_text(g) if g.pick else \
            _without_common(g, common, names, enemy) or group_text(g, names, enemy)
        spans = [Span(head, "order")]
        for i, unit in enumerate([head.split(" ", 1)[-1], *g.also]):
            spans += [Span(", "), Span(unit, "order")] if i else []
            if g.without.get(unit):
                spans.append(Span(" (not " + ", ".join(
                    _choice_words(c, names, enemy, False) for c in g.without[unit]) + ")"))
        items.append(spans + [Span(f" {ARROW} {text}")])
    titles = {**names, **{k: v for k, v in (aids.get("titles") or {}).items()
                          if isinstance(k, str) and isinstance(v, str)}}
    listed = [Para([Span(f"The {len(common)} areas: " + ", ".join(   # as the board names them
        titles.get(a, a) for a in common) + ".")])] if common \
        else []
    # What an order offered costs beside itself (a retreat that eliminates Siege Guns, 8.3.3).
    notes = [Para([Span(n)]) for n in aids.get("notes") or [] if isinstance(n, str)]
    return [_legend(groups, names, enemy, stays, whole), Items(items), *listed, *notes]
