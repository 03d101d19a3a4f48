"""The legal orders grouped for reading (render/grouped.py), checked against the flat list.

`status` text, markdown and BBCode show one line per unit (`move ge-1 → Cologne, Eifel,
Liège*`), one per card verb and one for the rest; `status --all` and the JSON `legal` list
keep every order whole, as `order` takes it (2.0: the legal orders of the decision pending).
The grouped text is read back here the way a player reads it, and every order it offers is
parsed by the order reader (reading.py): the set must be the flat list, no more, no less.
"""

from __future__ import annotations

import itertools
import json
import re
from types import SimpleNamespace

import pytest

import gamecalls as g
from casebook import SECRET
from referee.cli import commands
from referee.data.gamedata import fold
from referee.engine.order_text import format_order
from referee.engine.reading import parse_order
from referee.game.views import order_aids, readable_name, status_view
from referee.render.documents import status_document
from referee.render.formats import render, to_text
from referee.render.grouped import grouped_blocks
from referee.render.phrases import readable_orders
from referee.render.sections import Document, Section

WIDE = 10 ** 6          # no wrapping: one group per line


@pytest.fixture(scope="module")
def opening(tmp_path_factory):
    """1914, the German has played an Offensive: his movement phase (2.0 II.2, 362 orders)."""
    folder = tmp_path_factory.mktemp("grouped")
    secret = folder / "fixed.secret"
    secret.write_text(SECRET + "\n")
    journal = folder / "g.jsonl"
    with pytest.MonkeyPatch.context() as mp:        # this module's own referee home
        mp.setenv("REFEREE_HOME", str(folder / "home"))
        g.create_game(journal, "1914", game_id="grouped-1914", secret_file=secret)
        assert g.submit(journal, "german", ["play offensive"]).rejected is None
        game = g.open_game(journal)
    view = status_view(game.state, game.data, "german", game.game_id)
    aids = order_aids(game.state, game.data, "german")
    return SimpleNamespace(journal=journal, state=game.state, data=game.data, view=view,
                           aids=aids)


# The legend's words for a unit of an army that may be moved with no area (4.1).
STAYS_LEGEND = "ARMY:TYPE alone (no area)"


def items_of(text: str) -> list[str]:
    """The list items of a text status, each on one line (a wrapped item's lines joined)."""
    out: list[str] = []
    for line in text.splitlines():
        if line.startswith("- "):
            out.append(line)
        elif line.startswith("  ") and out:
            out[-1] += " " + line.strip()
        elif out and not line.strip():
            out.append("")
    return [x for x in out if x]


def _choices(part: str) -> list[list[str]]:
    """The choices of a part as word lists: `Eifel [into ge-3 | into ge-4]` is Eifel, and
    Eifel with each bracketed tail; (stays) and (as is) are no words."""
    out = []
    for choice in part.split(", "):
        base, _, tails = choice.partition(" [")
        words = [] if base in ("(stays)", "(as is)") else base.split()
        out.append(words)
        if tails:
            out += [words + tail.split() for tail in tails.rstrip("]").split(" | ")]
    return out


def read_back(text: str) -> tuple[list[str], list[tuple[str, bool]]]:
    """The orders a player types from the grouped lines of a text status, and every area
    word of a move line with whether it carries the '*' (read as a person reads them, the
    legend included: several units before the arrow are each one; a unit of an army may
    also be moved with no area when the legend says so)."""
    typed: list[str] = []
    marks: list[tuple[str, bool]] = []
    stays = STAYS_LEGEND in " ".join(text.split())
    for line in items_of(text):
        body = line[2:]
        if body.startswith("discard CARD"):         # the cards once: read by _picks
            continue
        if body.startswith(("Also: ", "Orders: ")):
            typed += body.split(": ", 1)[1].split(", ")
            continue
        head, rest = body.split(" → ", 1)
        verb, _, units = head.partition(" ")
        # Several units: "ge-1, ge-2"; a unit's "(not A, B)": choices it may not take.
        heads = {f"{verb} {m[1]}".strip(): set((m[2] or "").split(", ")) - {""}
                 for m in re.finditer(r"([^,(]+?)(?: \(not ([^)]*)\))?(?:, |$)", units)
                 if m[0]} or {verb: set()}
        choices = []
        for part in rest.split("; "):
            via = ""
            if part.startswith("via "):
                via, part = part[4:].split(" → ", 1)
            words_of_part = [via.split() + words for words in _choices(part)]
            choices += words_of_part
            if verb == "move":
                for words in words_of_part:
                    for w in words:
                        if w in ("into", "taking") or "-" in w and w[0].islower():
                            break
                        marks.append((w.rstrip("*"), w.endswith("*")))
        for h, without in heads.items():
            typed += [" ".join(w.rstrip("*") for w in [h, *words]) for words in choices
                      if " ".join(words) not in without]
            if stays and verb == "move" and ":" in h:
                typed.append(h)
    return typed, marks


def test_every_legal_order_reads_back_from_the_groups(opening):
    """2.0 II.2 (4.1, 4.4, 9.1.1): each order of the movement phase can be typed from its
    unit's line, and the lines offer nothing else."""
    text = to_text(status_document(opening.view, opening.aids), WIDE)
    typed, _ = read_back(text)
    canonical = {format_order(parse_order(t, opening.data)) for t in typed}
    assert canonical == set(opening.view["legal"])
    assert len(typed) == len(opening.view["legal"])            # each offered once
    # ge-1 and ge-2 stand in one area with the same units: one line; so do their artillery,
    # which may go where its army goes (or stay, as the legend says once).
    assert ("- move ge-1, ge-1:artillery, ge-2, ge-2:artillery → Cologne, Eifel, Liège*"
            in text.splitlines())
    assert "- move ge-1:infantry → into ge-2, Cologne, Eifel [into ge-3], Liège*" in \
        text.splitlines()
    assert STAYS_LEGEND in text and "(stays)" not in text


def test_the_star_marks_exactly_the_enemy_areas(opening):
    """5.1.1, 4.1: '*' marks an Enemy area (entering one with enemy units makes a battle);
    Friendly and Disputed areas go unmarked."""
    text = to_text(status_document(opening.view, opening.aids), WIDE)
    _, marks = read_back(text)
    st, data = opening.state, opening.data
    seen = set()
    for word, starred in marks:
        (area,) = data.area_names[fold(word)]
        assert starred == (st.status(area, "german", data) == "enemy"), word
        seen.add((area, starred))
    assert ("liege", True) in seen and ("cologne", False) in seen
    assert "Enemy area" in text


def test_grouped_status_is_much_shorter_and_all_lists_every_order(opening, monkeypatch):
    """`status` groups the orders; `status --all` lists them whole, one a line, exactly the
    JSON `legal` list, and the JSON view is what it was (no aid key)."""
    monkeypatch.setenv("REFEREE_HOME", str(opening.journal.parent / "home"))
    grouped = commands.status(opening.journal, "german", "text")
    every = commands.status(opening.journal, "german", "text", every=True)
    legal = opening.view["legal"]
    assert len(legal) > 300
    assert len(grouped.splitlines()) * 3 < len(every.splitlines())
    listed = every.split("Orders open to German (362)", 1)[1].splitlines()[2:]
    assert [x[2:] for x in listed if x.startswith("  ")] == legal
    for _ in range(2):                              # computed, then from the cached view
        out = json.loads(commands.status(opening.journal, "german", "json"))
        assert out["legal"] == legal and "_aids" not in out
        assert {k: v for k, v in out.items() if k != "standing"} == opening.view


def test_every_kind_of_order_reads_back():
    """Each order form (2.0 II.1-II.4, V; 5.3-5.4, 7.x, 9.x) survives the grouping: card
    plays with a battle area, retreats into an army, placing, buying, the fixed words."""
    from gamecalls import game_data

    data = game_data()
    flat = ["play offensive", "play poison_gas verdun", "play poison_gas liege", "pass",
            "retreat be-i-01 antwerp", "retreat be-i-01 brussels into be-1",
            "place fr infantry paris", "place fr infantry paris into fr-3",
            "place fr-2 verdun", "build ge infantry metz", "react ge-b-01",
            "react ge-b-01 on infantry", "lose fort-liege", "lose ge-1:infantry",
            "buy 2", "entrench ge-1 ge-i-01", "discard ersatz_2 offensive", "eft ge-7 metz",
            "eft ge-i-02", "rebuild ge-1 cologne", "suppress fr-1 into fr-2",
            "battle liege", "fight namur", "ersatz ersatz_3", "eliminate ge-2",
            "move ge-1:cavalry", "move ge-1:cavalry eifel liege into ge-3",
            "move ge-5 metz taking ge-i-01", "done", "end movement", "refuse crisis",
            "propose armistice", "surrender"]
    names = {a.id: readable_name(a.id, data) for a in data.map.areas}
    doc = Document("t", [Section("o", grouped_blocks(flat, {"names": names,
                                                              "enemy": ["liege"]}))])
    typed, _ = read_back(to_text(doc, WIDE))
    assert sorted(format_order(parse_order(t, data)) for t in typed) == sorted(flat)


def test_names_that_do_not_read_back_are_shown_by_id():
    """An area name with signs the reader would not take, or one none of whose words reads
    back as that area alone, is shown by its id, which `order` always takes (4.1)."""
    def fake(name: str, names: dict) -> SimpleNamespace:
        return SimpleNamespace(areas={"x": SimpleNamespace(name=name)}, area_names=names)

    assert readable_name("x", fake("Liège", {fold("Liège"): ["x"]})) == "Liège"
    assert readable_name("x", fake("Holland (NL)", {fold("Holland (NL)"): ["x"]})) == "x"
    assert readable_name("x", fake("St Omer", {fold("St Omer"): ["x", "y"]})) == "x"
    assert readable_name("x", fake("Omer Into", {fold("Omer Into"): ["x"]})) == "x"
    assert readable_name("x", fake("A*b", {fold("A*b"): ["x"]})) == "x"
    assert readable_name("x", fake("Into", {fold("Into"): ["x"]})) == "x"
    assert readable_name("x", fake("Metz", {fold("Metz"): ["x", "y"]})) == "x"


def test_a_name_of_several_words_is_shown_whole_as_the_board_shows_it():
    """AT ALL COSTS!'s Upper Hungary (id hungary) was 'Hungary', its alias, in the orders of
    a production mail and in the plan its record reveals, but 'Upper Hungary' on the board,
    the map and in the events: an order names an area as the board does, whole, when the
    order reader reads that name back as exactly that area (reading.py takes a name of
    several words, 1.1); else by the last of its words that does, else by its id. Every
    area of both games is shown by the name the board shows."""
    from gamecalls import game_data

    def fake(name: str, names: dict) -> SimpleNamespace:
        return SimpleNamespace(areas={"x": SimpleNamespace(name=name)}, area_names=names)

    assert readable_name("x", fake("Upper Hungary", {fold("Upper Hungary"): ["x"],
                                                     "hungary": ["x"]})) == "Upper Hungary"
    assert readable_name("x", fake("Upper Hungary", {fold("Upper Hungary"): ["x", "y"],
                                                     "hungary": ["x"]})) == "Hungary"
    assert readable_name("x", fake("Upper Into", {"into": ["x"]})) == "x"
    for game in ("ttlm", "aac"):
        data = game_data(game)
        for a in data.map.areas:
            shown = readable_name(a.id, data)
            assert shown == a.name, (game, a.id, shown)
            assert parse_order(f"fight {shown}", data).area == a.id
            assert parse_order(f"build ge infantry {shown} into ge-8", data).area == a.id
    aac = game_data("aac")
    assert readable_orders(["build ge infantry hungary"], aac) == \
        ["build ge infantry Upper Hungary"]
    doc = Document("t", [Section("o", grouped_blocks(
        ["build ah infantry hungary", "build ah infantry lemberg"],
        {"names": {a.id: readable_name(a.id, aac) for a in aac.map.areas}, "enemy": []}))])
    text = to_text(doc, WIDE)
    assert "Upper Hungary" in text and "hungary" not in text, text


def test_markdown_and_bbcode_escape_the_names():
    """Names come from data files: the grouped lines escape them in every format."""
    aids = {"names": {"liege": "<b>**[url]x[/url]**</b>"}, "enemy": ["liege"]}
    doc = Document("t", [Section("o", grouped_blocks(["move ge-1 liege"], aids))])
    md = render(doc, "markdown")
    assert r"→ \<b>\*\*[url]x[/url]\*\*\</b>\*" in md and "`move ge-1`" in md
    from markdown_it import MarkdownIt

    tokens = MarkdownIt("commonmark").parse(md)
    kinds = {t.type for t in tokens} | {c.type for t in tokens for c in t.children or []}
    assert not kinds & {"html_inline", "html_block", "link_open", "strong_open", "em_open"}
    bb = render(doc, "bbcode")
    assert "[url]" not in bb and "[/url]" not in bb and "[c]" not in bb
    assert "[c]move ge-1[/c]" in render(doc, "bbcode", dialect="bgg")


def test_order_prints_the_grouped_orders_not_the_flat_list(opening, tmp_path, monkeypatch):
    """After an accepted order the reply shows the next decision's orders grouped (2.0 II.2:
    the movement phase goes on after one move, 4.1)."""
    monkeypatch.setenv("REFEREE_HOME", str(tmp_path / "home"))
    copy = tmp_path / "copy.jsonl"
    copy.write_bytes(opening.journal.read_bytes())
    out, rejected = commands.order(copy, "german", ["move ge-1 cologne"])
    assert rejected is None
    lines = out.splitlines()
    assert "- move ge-2, ge-2:artillery → Cologne, Eifel, Liège*" in lines
    assert "  move ge-2 cologne" not in lines and len(lines) < 150


def _picks(line: str) -> list[str]:
    """The discards a compact discard line offers: `discard CARD [CARD ...] → one or more
    of: offensive ×2, ersatz_2` read as a player reads it (each ×N card up to N times)."""
    head, rest = line[2:].split(" → ", 1)
    many, cards = rest.split(" of: ", 1)
    held = [(c.split(" ×")[0], int(c.split(" ×")[1]) if " ×" in c else 1)
            for c in cards.split(", ")]
    total = sum(n for _, n in held)
    least = head.split().count("CARD")
    most = total if "..." in head else least + ("[CARD]" in head)
    assert many == ("one or more" if (least, most) == (1, total) else
                    f"any {least}" if least == most else f"{least} to {most}"), line
    out = []
    for combo in itertools.product(*(range(n + 1) for _, n in held)):
        if least <= sum(combo) <= most:
            out.append(" ".join(["discard"] + [k for (k, _), n in zip(held, combo)
                                               for _ in range(n)]))
    return out


def test_the_discards_of_a_pass_are_listed_by_their_cards(game, tmp_path):
    """2.0 II.1: a passing player who played no card may discard any of his cards. Every
    pick of a five-card hand is an order (23 here, 31 with five kinds of card): the status
    names the cards once, on a line or two, and each pick it offers is one `order` takes."""
    assert g.submit(game, "german", ["pass"]).rejected is None
    text = commands.status(game, "german", "text")
    every = commands.status(game, "german", "text", every=True)
    legal = json.loads(commands.status(game, "german", "json"))["legal"]
    lines = text.splitlines()
    (at,) = [i for i, x in enumerate(lines) if x.startswith("- discard")]
    item = [lines[at]] + list(itertools.takewhile(lambda x: x.startswith("  "),
                                                  lines[at + 1:]))
    assert len(item) <= 2, item
    assert lines[at].startswith("- discard CARD [CARD ...] → one or more of: offensive ×2, ")
    offered = _picks(" ".join(x.strip() for x in item))
    discards = [x for x in legal if x.startswith("discard ")]
    assert len(discards) > 20 and sorted(offered) == sorted(discards)
    assert all(x in every.splitlines() for x in (f"  {d}" for d in discards))   # --all: whole
    for order in offered:
        assert g.submit(game, "german", [order], dry_run=True).rejected is None, order
    # The other lines read back as before: with the discards, the whole JSON list.
    state, data = g.open_game(game).state, g.open_game(game).data
    view = status_view(state, data, "german")
    wide = to_text(status_document(view, order_aids(state, data, "german")), WIDE)
    typed, _ = read_back("\n".join(x for x in wide.splitlines()
                                   if not x.startswith("- discard")))
    canonical = [format_order(parse_order(t, data)) for t in typed]
    assert sorted(canonical + offered) == sorted(legal)
    assert g.submit(game, "german", [max(offered, key=len)]).rejected is None


def test_a_discard_is_listed_whole_unless_its_picks_are_every_pick():
    """The cards once only where the orders are exactly every pick of those cards; else (or
    with two orders or fewer) each order is listed as it is."""
    from referee.render.grouped import card_pick

    assert card_pick([("a",), ("b",), ("a", "b")]).cards == [("a", 1), ("b", 1)]
    excess = card_pick([("a", "a"), ("a", "b"), ("b", "c"), ("a", "c")])
    assert (excess.cards, excess.lo, excess.hi) == ([("a", 2), ("b", 1), ("c", 1)], 2, 2)
    assert card_pick([("a",), ("b",), ("a", "b", "b")]) is None      # a b, b b missing
    assert card_pick([("a",), ("a", "b")]) is None                   # too few to shorten
    assert card_pick([("a",), ("a", "b", "c"), ("b",), ("c",)]) is None    # sizes 1 and 3


def test_a_pass_status_fits_80_lines_and_offers_every_legal_order(game):
    """2.0 II.1: the German passes in the 1914 opening: one unit may move, cards may be
    discarded (any number of them) and replaced. `status` at its default width is at most
    80 lines (it listed every set of discards and every unit's line apart: some 120), and
    what it lists, read as a player reads it (the legend, several units on one line, words
    in brackets, the discard line's cards), is exactly the JSON legal list: nothing missing,
    nothing more, each order once."""
    assert g.submit(game, "german", ["pass"]).rejected is None
    text = commands.status(game, "german", "text")
    assert len(text.splitlines()) <= 80, len(text.splitlines())
    legal = json.loads(commands.status(game, "german", "json"))["legal"]
    (discard,) = [x for x in items_of(text) if x.startswith("- discard CARD")]
    typed, _ = read_back(text)
    data = g.open_game(game).data
    offered = [format_order(parse_order(t, data)) for t in typed] + _picks(discard)
    assert len(offered) == len(set(offered)) == len(legal) and set(offered) == set(legal)
    assert any(x.startswith("rail ") for x in legal) and any(":" in x for x in legal)


def test_a_unit_that_can_only_leave_its_army_says_so():
    """4.1, 8.1: in a reinforcement phase a unit of an army may only leave its army where it
    stands (`move ge-1:infantry`, no area). Its line shows (stays), which the legend explains,
    rather than listing the units as choices after a bare 'move'; an order with no area
    (`eft ge-i-02`) still has the verb's line. Typed with its '(stays)', the order reads as
    the unit alone."""
    from gamecalls import game_data

    data = game_data()
    flat = ["place ge infantry metz", "move ge-1:infantry", "move ge-2:artillery",
            "eft ge-i-02", "eft ge-7"]
    names = {a.id: readable_name(a.id, data) for a in data.map.areas}
    text = to_text(Document("t", [Section("o", grouped_blocks(flat, {"names": names}))]),
                   WIDE)
    assert "- move ge-1:infantry, ge-2:artillery → (stays)" in text.splitlines()
    assert "- eft → ge-i-02, ge-7" in text.splitlines()
    assert "(stays) = the code part alone: the unit leaves its army and stays where it " \
        "stands (4.1, 8.1)" in " ".join(text.split())
    typed, _ = read_back(text)
    assert sorted(format_order(parse_order(t, data)) for t in typed) == sorted(flat)
    for typed_stays in ("move ge-1:infantry (stays)", "move ge-1:infantry stays"):
        assert format_order(parse_order(typed_stays, data)) == "move ge-1:infantry"


def test_the_legend_tells_of_brackets_only_when_a_line_shows_them():
    """2.0 I, 8.1: an arrival offered only into an army (`place uk artillery england into
    uk-5`, ENGLAND full) reads `ENGLAND into uk-5`, no brackets: the legend does not speak
    of [words]. Offered alone too, it reads `ENGLAND [into uk-5]`, and the legend does."""
    from gamecalls import game_data

    data = game_data()
    names = {a.id: readable_name(a.id, data) for a in data.map.areas}

    def text(flat: list[str]) -> str:
        doc = Document("t", [Section("o", grouped_blocks(flat, {"names": names}))])
        return " ".join(to_text(doc, WIDE).split())

    only = text(["place uk artillery england into uk-5", "move uk-a-01 into uk-5"])
    assert "→ ENGLAND into uk-5" in only and "may be added" not in only, only
    both = text(["place uk artillery england", "place uk artillery england into uk-5",
                 "move uk-a-01 into uk-5"])
    assert "ENGLAND [into uk-5]" in both, both
    assert "[words] may be added to the choice" in both, both
