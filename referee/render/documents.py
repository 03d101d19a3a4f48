"""`show` and `status` as documents (sections.py): one content, every human format.

Built from the JSON views (views.py), which are already made for one reader:
nothing here decides what a reader may see, it only lays out what the view
holds.
"""

from __future__ import annotations

import re

from ..base.plurals import a_or_an, counted, joined, plain_plurals, upper_first
from ..base.readers import MODERATOR, PUBLIC
from ..game.endlevel import vp_level_name
from .grouped import grouped_blocks
from .sections import Document, Items, Orders, Para, Section, Span, Table, para

# Imported for annotations only: the quick paths do without the typing module.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def side_name(side: str | None) -> str:
    """A side id as a person reads it ('german' -> 'German')."""
    return (side or "nobody").replace("_", " ").title()


def reader_words(reader: str) -> str:
    """Whom an output is made for, as a title names him: 'the public', 'the moderator', 'the
    German player' (a side by its name, never by its id)."""
    return _NO_SIDE.get(reader) or f"the {side_name(reader)} player"


def players_words(sides: list[str]) -> str:
    """Whom the game waits on, as a person reads it: 'the Entente player', 'the German and
    Entente players' (each side by its name; a prompt names no side it waits on, so each is
    said once: 'Waiting on the Entente player: play an Offensive-type card or pass...')."""
    names = [side_name(s) for s in sides] or [side_name(None)]
    return f"the {joined(names)} player{'s' if len(names) > 1 else ''}"


# The readers who are no side of the game (base/readers.py).
_NO_SIDE = {"public": "the public", "moderator": "the moderator"}


def reason_words(reason) -> str:
    """A reason an event recorded (why a game ended, why a crisis went unanswered), as the
    engine wrote it, as a person reads it: the side it names as 'the german player' named
    'the German player', and '2 eligible unit(s)' as '2 eligible units'. The recorded
    event keeps its words: verify compares it with a replay, and older journals hold the
    same text."""
    return plain_plurals(_A_SIDE.sub(lambda m: f"the {side_name(m.group(1))} player",
                                     str(reason)))


_A_SIDE = re.compile(r"\bthe ([a-z][a-z_]*) player\b")


def result_words(result: dict) -> tuple[str, str | None]:
    """Why a game ended and its level, as a person reads them (a game's result, or the event
    that ended it): the level None where the reason says it already ('Decisive Entente
    Victory reached (3.2)') or none was recorded."""
    why, level = reason_words(result.get("reason")), result.get("level_name")
    return why, (str(level) if level is not None and str(level) not in why else None)


def control_span(control: str) -> Span:
    """An area's control: a side's name styled by the side (coloured as the document's colours
    say), disputed styled so, neutral plain."""
    if control == "neutral":
        return Span(control)
    return Span(control if control == "disputed" else side_name(control), control)


def side_colours(data) -> dict[str, str]:
    """Each side's colour in a format that has colours: the ink the map writes that side in
    (units.yaml side_colours, as svgmap.ink reads it), so that a post and the map beside it
    colour a side alike; a side the data gives no colours has none."""
    return {side: c.ink for side, c in data.units.side_colours.items()}


def fort_strength(strength: int, printed: int | None = None) -> str:
    """A fort's strength as a player reads it (8.4): its number now (of its printed number,
    when given and not the same), or, for a fort of strength 0 (the Sedan 0), that it fires
    no dice: it is still a unit, yet it holds no area by itself and rolls nothing."""
    if strength == 0:
        return f"0 ({ZERO_FORT})"
    return f"{strength}/{printed}" if printed is not None else str(strength)


# What a fort of strength 0 is under 8.4 (the Sedan 0: a single strength fort without
# Firepower), in the fewest words; a fort that hits or attrition bring to 0 is removed from
# the game (5.3.1, 6.5) and is shown nowhere.
ZERO_FORT = "fires no dice, 8.4"


def unit_phrase(u: dict) -> str:
    """A unit in one short phrase, as the reader may see it."""
    ent = " entrenched" if u.get("entrenched") else ""
    oos = " OoS" if u.get("oos") else ""           # the Out of Supply marker (1.2.3)
    if u["type"] == "army":
        inside = u.get("summary") or "hidden"
        return f"{u['id']} {u.get('name') or ''}{ent}{oos} [{inside}]".replace("  ", " ")
    if u["type"] == "fort":
        return f"{u.get('name') or u['id']} fort {fort_strength(u['strength'])}{oos}"
    return f"{u['id']} ({u['type'].replace('_', ' ')}{ent}{oos})"


def hand_phrase(cards: list[dict]) -> str:
    """A hand as 'Offensive x2, Bad Weather' ('(empty)' for none)."""
    counts: dict[str, int] = {}
    for c in cards:
        counts[c["title"]] = counts.get(c["title"], 0) + 1
    return ", ".join(f"{t} x{n}" if n > 1 else t for t, n in counts.items()) or "(empty)"


def player_turn(view: dict[str, Any]) -> str:
    """The game's word for the player turn (2.0 II; AAC says 'impulse'), as the view gives it."""
    return (view.get("terms") or {}).get("player_turn", "player turn")


def phase_name(view: dict[str, Any]) -> str:
    """The phase the view is in, in the game's words (2.0)."""
    return player_turn(view) if view["phase"] == "player_turn" else \
        view["phase"].replace("_", " ")


def phase_words(view: dict[str, Any]) -> str:
    """The phase and whose player turn it is, each said once: 'German player turn' in his
    player turn (not 'player turn (German player turn)'), 'production, German player turn'
    out of it, the phase alone when no side's player turn runs (2.0); 'game over' once it
    is (3.0), whoever's turn it ended in."""
    if view["phase"] == "over":
        return "game over"
    if not view.get("player"):
        return phase_name(view)
    turn = f"{side_name(view['player'])} {player_turn(view)}"
    return turn if view["phase"] == "player_turn" else f"{phase_name(view)}, {turn}"


def _title(view: dict[str, Any], what: str) -> str:
    return (f"{view.get('game_name', 'Game')} — {what}: game {view['game_id']}, record "
            f"{view['seq']}, for {reader_words(view['reader'])}")


MANUAL_DICE = ("Dice are manual: the players roll them (real dice or a dice server) and "
               "their orders carry them; the referee checks each is 1 to 6.")


def options_words(rules: dict[str, str]) -> str | None:
    """The optional rules in play, each by the name `new --option` takes and its rule, by
    name; None when the game plays none."""
    if not rules:
        return None
    return "Optional rules in play: " + ", ".join(f"{k} ({r})" for k, r in sorted(rules.items()))


def options_note(view: dict[str, Any]) -> list[Para]:
    """A line naming the optional rules in play, where a reader first meets the game: what
    explains a firepower, a hidden army or a scramble the core rules do not."""
    said = options_words(view.get("option_rules") or {})
    return [para(said + ".")] if said else []


def dice_note(view: dict[str, Any]) -> list[Para]:
    """A line saying the dice are rolled by the players, in a game of manual dice."""
    return [para(MANUAL_DICE)] if view.get("dice") == "manual" else []


def situation(view: dict[str, Any]) -> Para:
    """Who is to act now and on what (2.0), or how the game ended (3.0); that it takes no
    orders now, closed, paused or under older rules (outdated), and a paused game's decision
    once it resumes."""
    if view["game_over"]:
        why, level = result_words(view.get("result") or {})
        return para(Span("Game over: ", "bold"), why, *([" — ", Span(level, "bold")]
                                                        if level else []))
    paused = view.get("paused")
    if view.get("outdated"):        # what `order` says first; a pause beside it
        return para(Span(f"{upper_first(view['prompt'])}.", "bold"),
                    *([" The game is paused too."] if paused else []))
    if paused:
        return para(Span(f"{upper_first(view['prompt'])}.", "bold"),
                    " Once it resumes, waiting on ",
                    Span(players_words(paused["waiting_on_all"]), "bold"),
                    f": {paused['prompt']}")
    if view.get("closed"):
        return para(Span(f"{upper_first(view['prompt'])}.", "bold"))
    waiting = view.get("waiting_on_all") or [view["waiting_on"]]
    return para(Span("Waiting on ", "bold"),
                Span(players_words(waiting), "bold"),
                f": {view['prompt']}")


def answers_armistice(reader: str, proposer: str) -> bool:
    """Whether the reader is the side an armistice proposed waits on (3.2)."""
    return reader not in (proposer, PUBLIC, MODERATOR)


def armistice_para(proposer: str, other: str | None, reader: str, paused: bool,
                   level: str | None = None, lapses: str | None = None) -> Para:
    """An armistice proposed and not yet answered (3.2), as its reader reads it: to the side
    that may answer it, what each answer does and that it is his at any time (once the game
    resumes, paused) until it lapses; to the proposer, that it waits, how he takes it back
    and when it lapses; to anyone else, that it is not answered yet. level: the level the
    game would end at (the report's VP), if known. lapses: the season at whose end it lapses
    (2.0 VI), once the side it waits on has had a decision to make after it; before, it
    lapses at the end of the season in which he is next asked one (armistice_heard.py)."""
    whom = f"the {side_name(other)} player" if other else "the other player"
    if answers_armistice(reader, proposer):
        until = f"the end of {lapses}" if lapses else \
            "the end of the season in which you are next asked for a decision"
        return para(
            Span(f"The {side_name(proposer)} player proposes an armistice (3.2): ", "bold"),
            f"'accept armistice' ends the game{'' if paused else ' now'}"
            f"{f', as {a_or_an(level)}' if level else ''}; 'refuse armistice' plays on. You may "
            f"answer it {'once the game resumes,' if paused else 'at any time'} until "
            f"{until}, when it lapses (2.0 VI).")
    if reader == proposer:
        when = f"at the end of {lapses}" if lapses else \
            f"at the end of the season in which {whom} is next asked for a decision"
        return para(f"Your armistice proposal waits for {whom}'s answer (3.2); 'withdraw "
                    f"armistice' takes it back, and it lapses {when} (2.0 VI).")
    return para(f"The {side_name(proposer)} player has proposed an armistice; {whom} has not "
                f"answered it yet (3.2).")


def vp_section(vp: dict, result: dict | None = None) -> Section:
    """The VP total, its level and its breakdown (3.1); the total heads the breakdown, so that
    a chat post does not end on it. result: how a game over ended, told beside the total
    when it ended at another level than the VP give (a surrender, one level worse: 3.3)."""
    ended = [] if not result or result.get("level_name") in (None, vp_level_name(vp)) else [
        para(Span("Result: ", "bold"), Span(str(result["level_name"]), "bold"),
             f", not the level of the VP, as {reason_words(result.get('reason'))}.")]
    return Section("Victory points", [
        Para([Span(f"VP {vp['total']}: {vp_level_name(vp)}", "bold")], heading=True),
        *ended,
        Items([[Span(f"{b['label']}: {b['vp']:+d}")] for b in vp["breakdown"]]),
    ])


def area_table(areas: dict[str, dict]) -> Table:
    """Every area with its control, VP and the units the reader may see."""
    rows = []
    for a in areas.values():
        units = "; ".join(unit_phrase(u) for u in a["units"]) or "—"
        control = a["control"] if a["control"] in ("disputed", "neutral") else \
            side_name(a["control"])
        rows.append([a["name"], control, str(a["vp"]) if a["vp"] else "", units])
    return Table(["Area", "Control", "VP", "Units"], rows)


def cards_section(view: dict[str, Any]) -> Section:
    """Hands (as the reader may see them), the draw pile and the face-up piles (1.3)."""
    blocks: list = []
    if view["reader"] == "moderator":
        for s, cards in (view.get("hands") or {}).items():
            blocks.append(para(Span(f"Hand ({side_name(s)}): ", "bold"), hand_phrase(cards)))
    elif view["reader"] in view["hand_sizes"]:
        blocks.append(para(Span("Your hand: ", "bold"), hand_phrase(view["hand"])))
        if view.get("locked"):
            blocks.append(para(f"Not playable until your next {player_turn(view)}: "
                               f"{counted(len(view['locked']), 'card')}"))
    sizes = ", ".join(f"{side_name(s)} {n}" for s, n in view["hand_sizes"].items())
    deck = view["deck"]
    blocks.append(para(f"Hand sizes: {sizes}. Draw pile {deck['draw_pile']}, discard pile "
                       f"{len(deck['discard'])}."))
    if deck["discard"]:
        blocks.append(para("Discard pile (face up): ", hand_phrase(deck["discard"])))
    if deck["removed"]:
        blocks.append(para("Removed from play: ", hand_phrase(deck["removed"])))
    return Section("Cards", blocks)


def off_map_section(view: dict[str, Any]) -> Section:
    """The EFT box (in a game that has it), eliminated armies and the force pool."""
    gone = ", ".join(view.get("eliminated_armies") or []) or "none"
    blocks: list = [para(Span("Eliminated armies: ", "bold"), gone)]
    if view.get("eft_box") is not None:
        eft = ", ".join(view["eft_box"]) or "empty"
        blocks.insert(0, para(Span("Eastern Front Transit box: ", "bold"), eft))
    pool = view.get("force_pool") or {}
    names = view.get("nation_names") or {}
    if pool:
        blocks.append(Items([[Span(f"{names.get(nation, nation)} force pool: " + ", ".join(
            f"{k.replace('_', ' ')} {n}" for k, n in row.items()))] for nation, row in
            pool.items() if row]))
    return Section("Off the map", blocks)


def show_document(view: dict[str, Any]) -> Document:
    """`show`: the turn, who acts, VP, every area, off-map boxes and the cards."""
    t = (f"Turn {view['turn']} of {view.get('last_turn', view['turn'])}: {view['label']}, "
         f"{phase_words(view)}")
    return Document(_title(view, "the war"), [
        Section("Situation", [para(t), situation(view), *dice_note(view),
                              *options_note(view)]),
        vp_section(view["vp"], view.get("result")),
        Section("Areas", [area_table(view["areas"])]),
        off_map_section(view),
        cards_section(view),
    ] + ([Section("Your standing orders", [Orders(list(view["standing"]))])]
         if view.get("standing") else []))


def deadline_note(view: dict[str, Any], others_of: str | None = None) -> list:
    """The deadlines of the sides owing orders, in the players' words, or that the game is
    paused (nothing when the game has no deadlines); others_of: a side's, whose own
    deadline his mail tells, given those of the others alone (they are public)."""
    clock = view.get("deadlines")
    if not clock or view.get("paused"):     # a pause the situation says already
        return []
    if clock["paused"]:
        return [para("The game is paused: no orders are taken and no deadline runs until "
                     "the moderator resumes it.")]
    return [para(f"{side_name(d['side'])}: {d['words']}{extension_note(d)}{missed_note(d)}.")
            for d in clock["due"] if d["side"] != others_of]


# What follows a deadline that has passed, by the policy at a missed deadline.
MISSED_WORDS = {"wait": "the game waits for them", "pause": "the game is paused",
                "default": "the referee answers for them"}


def missed_note(due: dict[str, Any]) -> str:
    """', missed: the game waits for them' after a deadline that has passed, as its policy
    has it; '; not ruled missed yet (why)' after one the next pass of tick does not rule
    missed; '' for one still to come."""
    if due.get("not_ruled"):
        return f"; not ruled missed yet ({due['not_ruled']})"
    return f", missed: {MISSED_WORDS[due['missed']]}" if due.get("missed") else ""


def extension_note(due: dict[str, Any]) -> str:
    """What a deadline's extensions added, the last one first, as its reader expects it:
    ' (extended by 1 day)', ' (extended by 1 day, 2 days in all)' after several; '' for
    none. A view kept before it gave the last one gives the whole only, said so."""
    whole, last = due.get("extended"), due.get("last_extension")
    if not whole:
        return ""
    if not last:
        return f" (extended by {whole} in all)"
    return f" (extended by {last})" if last == whole else \
        f" (extended by {last}, {whole} in all)"


# The sealed plans that close by themselves once their orders are in, by their decision,
# and what closes each (2.0 I: the last arrival placed; 2.0 V.3: the last card over the
# limit discarded): the player is told to send no 'done' for them (render/coming.py), so
# what they owe is owed in the plan.
CLOSED_BY = {"reinforce": "arrival placed", "discard_excess": "card discarded"}


def owed_blocks(view: dict[str, Any]) -> list:
    """What the side asked owes before his 'done' is taken, with its rule (a retreat a rule
    compels), as the engine refuses 'done' now; in a sealed plan that closes by itself, what
    the plan owes; nothing when 'done' is open. Another reader than the side (the
    moderator, who has no plan) reads the side named."""
    if not view.get("owed"):
        return []
    side = view.get("legal_for")
    if view.get("reader") in (None, side):      # the side's own status or report
        head = "Owed in your plan: " if view.get("decision") in CLOSED_BY else \
            "Owed before 'done': "
    else:                       # another reader (the moderator) has no plan: the side named
        who = players_words([side])
        head = f"Owed in {who}'s plan: " if view.get("decision") in CLOSED_BY else \
            f"Owed by {who} before 'done': "
    return [para(Span(head, "bold"), f"{view['owed']}.")]


def status_document(view: dict[str, Any], aids: dict | None = None,
                    every: bool = False) -> Document:
    """`status`: who is to act, the prompt and the legal orders of the reader (2.0), grouped
    for reading (grouped.py), or every order whole when `every` (`status --all`)."""
    head = Section("Situation", [
        para(f"{view['label']} (turn {view['turn']}), {phase_words(view)}"),
        situation(view), *owed_blocks(view), *dice_note(view), *deadline_note(view)])
    if view.get("armistice") and not view["game_over"]:
        # An armistice proposed waits for the other side's answer, whatever he is asked (3.2):
        # told him first, as his report does, and to anyone else after the decision now.
        paused = bool((view.get("deadlines") or {}).get("paused"))
        told = armistice_para(view["armistice"], view.get("armistice_to"), view["reader"],
                              paused, lapses=view["label"] if view.get("armistice_heard") else None)
        answers = answers_armistice(view["reader"], view["armistice"])
        head.blocks.insert(1 if answers else len(head.blocks), told)
    doc = Document(_title(view, "status"), [head])
    if view["game_over"]:
        return doc
    if view["legal"]:
        doc.sections.append(Section(
            f"Orders open to {side_name(view['legal_for'])} ({len(view['legal'])})",
            [Orders(list(view["legal"]))] if every else
            grouped_blocks(list(view["legal"]), aids or view.get("_aids"))))
    elif view["reader"] == "public" and not any(view.get(k) for k in ("closed", "paused",
                                                                       "outdated")):
        # Words for a forum's reader, who runs no command: the public's status is posted.
        doc.sections.append(Section("Orders", [para(
            "The orders open to a side are shown to its own player only.")]))
    if view["reader"] == "moderator":
        doc.sections += _others_owing(view)
    if view.get("standing"):
        doc.sections.append(Section("Your standing orders", [Orders(list(view["standing"]))]))
    if view.get("held"):
        doc.sections.append(Section("Orders held for your dice", held_blocks(view["held"])))
    return doc


def _others_owing(view: dict[str, Any]) -> list[Section]:
    """For the moderator, each side owing a sealed plan beside the one whose orders are
    listed (2.0 I, 2.0 V.3, 7.0: both are asked at once): where to see his orders."""
    others = [s for s in view.get("waiting_on_all") or [] if s != view.get("legal_for")]
    return [Section(f"Orders open to {side_name(s)}", [para(
        f"{side_name(s)} owes his plan too; `status --as {s}` lists the orders open to "
        f"him.")]) for s in others]


def held_blocks(held: list[dict]) -> list:
    """The mailed orders held for the moderator's dice (his status alone): for each side,
    which mail, the record they wait at and the dice they roll, then the command that
    enters them, whole on its line, DICE for the dice he rolls (manual dice, player.md)."""
    from ..base.clock import for_players, parse_stamp  # start-up: only held orders

    blocks: list = []
    for h in held:
        when = parse_stamp(h["date"]) if h.get("date") else None
        mail = f" (mail of {for_players(when)})" if when is not None else ""
        blocks += [para(f"The {side_name(h['side'])} player's mailed orders{mail}, held since "
                        f"record "
                        f"{h['record']}, roll {h['dice']}: enter them with the dice you "
                        f"roll in place of DICE:"), Orders([h["command"]])]
    return blocks
