"""A skirmish game's report: every test with its dice, modifiers and result, and the forces'
state (killed, pinned, morale failures); as a JSON document (schemas/skirmish-report.json)
and as text. Nothing of a skirmish is secret: the facts are declared to both sides and
every reader is given the same report; the dice secret is in it only once the journal
reveals it."""

from __future__ import annotations

from ...base.errors import UsageError
from ...base.plurals import counted, plain_plurals
from ...contracts.skirmish import SkirmishReport
from ...render import came
from ...render.documents import players_words, side_name
from .checks import claims, firing_now, live_contacts, owed
from .contactnews import contacted_lines, contacted_now, melee_passed
from .endresult import phase_now, result_of
from .quotednotes import notes_of


def _test(t: dict, mailing: set[str] = frozenset()) -> dict:
    """A test as the report holds it; mailing: the sides that play by mail (an address in
    record 0), whose test not taken from their mail was entered by hand at the referee."""
    shown = t.get("settled") or t
    return {"record": t["record"], "side": t["side"], "order": t["order"], "kind": t["kind"],
            "subject": t.get("subject"), "facts": shown["facts"], "dice": shown["dice"],
            "modifiers": shown["modifiers"],
            "result": shown["result"], "effects": shown["effects"], "rule": shown["rule"],
            "turn": t["turn"], "phase": t["phase"], "settled": "settled" in t,
            **({"ruling": _ruling(t)} if "settled" in t else {}),
            **({"by_hand": True} if t["side"] in mailing and not t.get("by_mail") else {}),
            **({"pins_after": t["pins_after"]} if t.get("pins_after") and "settled" not in t
               else {}),
            **({"void": True} if shown.get("void") else {})}


def _ruling(t: dict) -> dict:
    """What the rulings on a settled test changed: their records, and each fact they
    changed, as declared and as ruled."""
    ruled = t["settled"]["facts"]
    return {"records": list(t.get("rulings", [])),
            "changed": {k: [t["facts"].get(k), v] for k, v in ruled.items()
                        if t["facts"].get(k) != v}}


def _figures(state) -> list[dict]:
    return [{"id": f.id, "side": f.side, "section": f.section, "quality": f.quality,
             "weapon": f.weapon, "role": f.role,
             "gear": [g for g, on in (("body armour", f.body_armour), ("gas mask", f.gas_mask))
                      if on],
             "state": "killed" if f.killed else "surrendered" if f.surrendered else "active",
             "pins": f.pins, "moved": f.moved} for f in state.figures.values()]


def _contacted_by(f: dict, doc: dict) -> str:
    """', contacted by B5' on the forces list, for a figure contacted this turn."""
    by = next((c["attackers"] for c in doc.get("contacted", []) if c["defender"] == f["id"]),
              None)
    return f", contacted by {', '.join(by)}: can't move" if by else ""


def _sections(state) -> list[dict]:
    return [{"id": s.id, "side": s.side, "quality": s.quality, "failures": s.failures,
             "dispersed": s.dispersed,
             "killed": sum(1 for f in state.figures.values()
                           if f.section == s.id and f.killed)}
            for s in state.sections.values()]


def owed_by_side(card, state) -> dict[str, list[str]]:
    """The tests the card compels of each side before it may say done (sides owing none
    left out)."""
    return {s: due for s in state.sides if (due := owed(card, state, s))}


def claims_by_side(card, state) -> dict[str, list[str]]:
    """The surrenders each side may claim now (sides with none left out)."""
    return {s: open_ for s in state.sides if (open_ := claims(card, state, s))}


def owed_lines(owed: dict[str, list[str]], claimed: dict[str, list[str]] | None = None
               ) -> list[str]:
    """What each side owes, and may claim, as the text of a report or status gives it: a
    claim names whose figures must stand between which troops and whose table edge (the
    card's "enemy between them and their table edge" read as the claimant's own edge)."""
    return [f"{side_name(side)} owes, before done (the card compels them): {'; '.join(due)}"
            for side, due in owed.items()] + \
        [f"{side_name(side)} may claim, if {side_name(side)} figures are between the routing "
         f"section and its own table edge and within the distance stated (Surrendering): "
         f"{'; '.join(c)}" for side, c in (claimed or {}).items()]


def report_document(header: dict, card, state, turn: int | None = None,
                    waiting: list[str] | None = None, **reading: str | list[str]) -> dict:
    """The report of a skirmish game (turn: only that turn's tests, a turn it has had:
    check_turn); waiting: whom it waits on, when not every side still to say done (one
    whose unit moves after the other's: listed.waits_turn); reading: for whom (reader),
    what is asked of him (asked) and his order key (order_key), when a reader is named
    (`skirmish report --as`)."""
    if turn is not None:
        check_turn(turn, state.turn)
    mailing = set(header.get("players") or {})
    tests = [_test(t, mailing) for t in state.tests if turn is None or t["turn"] == turn]
    ended = state.over() or state.revealed is not None
    return SkirmishReport.plain(**reading,
        game_id=header["game_id"], game=header["game"], scenario=header["scenario"],
        turn=state.turn, phase=phase_now(card, state),
        waiting=[] if ended else [s for s in state.sides if s not in state.done
                                  and (waiting is None or s in waiting)],
        tests=tests, game_over=state.over(), result=result_of(card, state),
        owed=owed_by_side(card, state), firing=[] if ended else firing_now(card, state),
        contacts=live_contacts(state), claims=claims_by_side(card, state),
        **({"contacted": contacted_now(card, state)} if card.melee.contact_holds else {}),
        **({"melee_passed": True} if melee_passed(card, state) else {}),
        **artillery_of(state), figures=_figures(state), sections=_sections(state),
        disputes=[dict(d) for d in state.disputes],
        revealed=None if state.revealed is None else dict(state.revealed))


def artillery_of(state) -> dict[str, list[str]]:
    """The report's and status's off_table_artillery: the sides that have it, when the
    scenario says (else nothing, as in every journal made before it)."""
    return {} if state.artillery is None else {"off_table_artillery": list(state.artillery)}


def artillery_line(sides: list[str] | None) -> list[str]:
    """The line of a report or status telling which sides the off-table artillery phase
    waits on, when the scenario says: none, and it is passed over every turn."""
    if sides is None:
        return []
    if not sides:
        return ["No off-table artillery in this scenario: its phase is passed over"]
    names = " and ".join(side_name(s) for s in sides)
    return [f"Off-table artillery: {names}" + ("" if len(sides) > 1 else
                                               " only (its phase waits on no other)")]


def check_turn(turn: int, reached: int) -> None:
    """--turn as `skirmish report` takes it: a turn the skirmish has had, 1 to the one it
    is in (UsageError naming them: a turn it has not reached is a mistake a script must
    hear of, not an empty report, as `report --since` past the journal is)."""
    if not 1 <= turn <= reached:
        had = "turn 1 only" if reached == 1 else f"turns 1 to {reached}"
        raise UsageError(f"--turn {turn}: the skirmish has had {had}")


def _mods(t: dict) -> str:
    """A test's modifiers, each with whom it counts for: in a melee the figure whose die it
    changes; in fire the target of the shot it changes ('at B2': a modifier about the
    firer, '-2 firer wearing a gas mask (B2)', read as B2 wearing it)."""
    # A quality a morale test counts as (Morale: Ferocious, Stubborn) moves no score: said
    # apart, not as a modifier of +0.
    rated = [m["why"] for m in t["modifiers"] if m.get("id") == "counts_as"]
    # Unaimed fire's modifiers of the score needed are told in its result (card
    # unaimed_needs: dicetests.needed_words), not as if added to the die.
    mods = [m for m in t["modifiers"] if m.get("id") != "counts_as" and m.get("on") != "needed"]
    at = "at " if t.get("kind") in ("fire", "unaimed") else ""
    return ("; modifiers " + ", ".join(
        f"{m['value']:+d} {m['why']}" + (f" ({at}{m['who']})" if m.get("who") else "")
        for m in mods) if mods else "") + "".join(f"; {why}" for why in rated)


def _dice(t: dict) -> str:
    """A test's dice; a melee's each with the figure it was rolled for, the defender's first
    (dicetests.melee), as its result names the attacker first."""
    if not t["dice"]:
        return "no dice"
    whose = [t.get("subject"), *t["facts"].get("attackers", [])] if t.get("kind") == "melee" \
        else []
    if len(whose) != len(t["dice"]):
        whose = [""] * len(t["dice"])
    return " ".join(f"D{d['die']}={d['value']}" + (f" ({w})" if w else "")
                    for d, w in zip(t["dice"], whose))


def _unstated(t: dict) -> str:
    """The facts a test recorded that its order did not state: the card's defaults."""
    said = {w.partition("=")[0].casefold() for w in t["order"].split() if "=" in w}
    ruled = _ruled(t)               # those a ruling decided are shown as ruled
    left = [f"{k}={_word(v)}" for k, v in t.get("facts", {}).items()
            if k not in said and k not in ruled]
    return f" (not stated, taken as {' '.join(left)})" if left else ""


def _ruled(t: dict) -> set[str]:
    """The facts the moderator's rulings on a settled test changed."""
    return set((t.get("ruling") or {}).get("changed", {})) if t.get("settled") else set()


def _word(v) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    return ",".join(v) if isinstance(v, list) else str(v)


def test_lines(t: dict) -> list[str]:
    """A test in two lines: the order (and the facts it left to the card's defaults; once a
    ruling settled it, its facts as ruled and what the ruling changed) and its dice; the
    result with its modifiers."""
    hand = f" {HAND}" if t.get("by_hand") else ""
    # A test a ruling made void (card voids_told) leads with it, its dice counting for
    # nothing and its modifiers gone.
    said = f"    {t['result']}" + (f"; {_dice(t)} counted for nothing" if t["dice"] else "") \
        + f" ({t['rule']})" if t.get("void") else \
        f"    {_dice(t)}{_mods(t)} -> {plain_plurals(t['result'])} ({t['rule']})"
    return [f"{test_head(t)} {shown_order(t)}{_unstated(t)}{_settled(t)}{hand}",
            said + _pins_after(t)]


def _pins_after(t: dict) -> str:
    """'; pins now: B1 1, B2 2' for a test that pinned figures (card pins_told)."""
    held = t.get("pins_after") or {}
    return "; pins now: " + ", ".join(f"{k} {v}" for k, v in held.items()) if held else ""


# A side that plays by mail, his test entered for him by the moderator (`order --as`), in the
# words and with the mark a campaign's outputs give it (render/came.py); nothing of a
# skirmish is secret, so every reader is shown it.
HAND = f"— {came.HAND}"


def shown_order(t: dict) -> str:
    """A test's order as its first line shows it: as given; once settled, with the facts
    as the moderator ruled them (one it did not state too, when a ruling decided it; the
    others it did not state stay the card's defaults, _unstated; one the ruled test no
    longer reads left out: at= of a move ruled out of contact)."""
    if not t.get("settled"):
        return t["order"]
    facts, ruled = t["facts"], _ruled(t)
    words = [f"{k}={_word(facts[k])}" if "=" in w and (k := w.partition("=")[0].casefold())
             in facts else w for w in t["order"].split()
             if "=" not in w or w.partition("=")[0].casefold() in facts]
    said = {w.partition("=")[0].casefold() for w in t["order"].split() if "=" in w}
    return " ".join([*words, *(f"{k}={_word(v)}" for k, v in facts.items()
                               if k not in said and k in ruled)])


def _settled(t: dict) -> str:
    """What the moderator's rulings changed of a settled test: '[settled: range 10 → 130
    by the moderator's ruling, #68]'."""
    if not t.get("settled"):
        return ""
    ruling = t.get("ruling") or {}
    changed = ", ".join(f"{k} {_word(a)} → {_word(b)}"
                        for k, (a, b) in ruling.get("changed", {}).items())
    records = ", ".join(f"#{n}" for n in ruling.get("records", []))
    by = f"by the moderator's {'rulings' if ', ' in records else 'ruling'}, {records}" \
        if records else "by the moderator's ruling"
    return f" [settled: {changed + ' ' if changed else ''}{by}]"


def test_head(t: dict) -> str:
    """Whose test it is, as its first line begins: '#1 British:' (the side by its name)."""
    return f"#{t['record']} {side_name(t['side'])}:"


def _figure_line(f: dict) -> str:
    return f"  {figure_words(f)}"


def figure_words(f: dict) -> str:
    """A figure as the forces list it: its id, quality and weapon, then what the orders and
    modifiers read of it (a squad leader gives command=; a sniper is spotted on a 6; body
    armour and a gas mask change its tests), then its state and pins (a killed or
    surrendered figure's not told: they no longer count)."""
    pins = f", {counted(f['pins'], 'pin')}" if f["pins"] and f["state"] == "active" else ""
    role = f.get("role") or ("platoon_commander" if f["section"] is None else None)
    more = "".join(f", {x}" for x in [*([role.replace("_", " ")] if role else []),
                                      *f.get("gear", [])])
    return f"{f['id']} {f['quality']} {f['weapon']}{more}: {f['state']}{pins}"


def _tests_heading(doc: dict) -> str:
    """The heading of the tests: with none to list (a new game, or none since --since or in
    --turn's turn), it says so and what will come there, as 'waiting on nobody' does."""
    if doc["tests"]:
        return "Tests:"
    later = "" if doc.get("revealed") else " yet (each will be listed here with its dice " \
        "and result)"
    return f"Tests: none{later}"


def ended_words(doc: dict) -> str | None:
    """The game's end as a report's first line says it, in place of the phase it stopped
    in and whom it waits on: over (a side has no figure left fighting), or closed by its
    secret published before (`reveal --force`); None while it goes on."""
    dispersed = {s["id"] for s in doc["sections"] if s["dispersed"]}
    left = {f["side"] for f in doc["figures"]
            if f["state"] == "active" and f["section"] not in dispersed}
    return "game over" if len(left) < 2 else "game closed" if doc.get("revealed") else None


def _now_lines(doc: dict) -> list[str]:
    """A report's first lines: the turn and phase (the step that fires), whom it waits on
    and what the phase owes; once the game has ended, the turn and that alone."""
    head = f"{doc['game_id']} ({doc['scenario']}): turn {doc['turn']}"
    ended = ended_words(doc)
    if ended:
        return [f"{head}, {ended}"]
    step = f" ({' and '.join(doc['firing'])} figures fire now)" if doc.get("firing") else ""
    waiting = players_words(doc["waiting"]) if doc["waiting"] else "nobody"
    # Not said again under the reader's own decision (asking.told_once, card said_once).
    waits = [] if doc.get("waits_told") else [f"Waiting on {waiting}"]
    return [f"{head}, {doc['phase']} phase{step}", *waits,
            *artillery_line(doc.get("off_table_artillery")),
            *(["No figure in contact this turn: its melee phase was passed over"]
              if doc.get("melee_passed") else []),
            *owed_lines(doc["owed"], doc.get("claims"))]


def report_text(doc: dict, heading: str | None = None, brief: list[str] = (),
                notes: dict[int, list[str]] | None = None) -> str:
    """The report as text: the turn, the tests (under heading, when given; after the lines
    telling earlier ones in brief, when a mail bounds them: brief.py), the disputes (after
    them, a player's note with his dispute still open, when his mail gave one: notes, by the
    dispute's record, quotednotes.py), then each side's forces."""
    out = [*_now_lines(doc), "", heading or _tests_heading(doc), *brief]
    for t in doc["tests"]:
        out += test_lines(t)
    for d in doc["disputes"]:
        ruling = d.get("ruling")
        verdict = "open" if ruling is None else "upheld" if ruling.get("upheld") else \
            f"corrected to {_word(ruling.get('value'))}"
        out.append(f"dispute of #{d['record']} by {side_name(d['by'])}: {d['fact']} declared "
                   f"{_word(d['declared'])}, claimed {_word(d['claimed'])} — {verdict}")
    out += notes_of(doc["disputes"], notes)
    if doc.get("revealed"):
        out.append(f"#{doc['revealed']['record']} moderator: dice secret revealed "
                   f"({doc['revealed']['secret']}); the game is closed and every die can be "
                   f"checked with `referee verify`")
    out += [f"in contact: {c['defender']} with {', '.join(c['attackers'])} (melee of turn "
            f"{c['turn']}): they can't move but to break off, and fight again"
            for c in doc.get("contacts", [])]
    out += contacted_lines(doc.get("contacted", []))
    out += ["", "Forces:"]
    for side in dict.fromkeys(x["side"] for x in [*doc["sections"], *doc["figures"]]):
        out.append(f" {side_name(side)}:")
        out += [f" {_figure_line(f)}{_contacted_by(f, doc)}" for f in doc["figures"]
                if f["section"] is None and f["side"] == side]
        for s in (s for s in doc["sections"] if s["side"] == side):
            gone = " (dispersed)" if s["dispersed"] else ""
            out.append(f"  section {s['id']} ({s['quality']}): {s['killed']} killed, "
                       f"{counted(s['failures'], 'morale failure')}{gone}")
            out += [f" {_figure_line(f)}{_contacted_by(f, doc)}" for f in doc["figures"]
                    if f["section"] == s["id"]]
    return "\n".join(out) + "\n"
