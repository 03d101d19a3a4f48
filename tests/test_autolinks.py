"""Names that no forum or chat makes a link of (issue: bare URLs in names become links).

phpBB's and SMF's magic URLs, Discord and GitHub make a link of a bare URL (a scheme before
"//"), of a word from "www." and (all but Discord) of an e-mail address, wherever it stands
in a post but in code. Text from outside the referee (an area or a card of a game's data, an
army of a scenario, the game's own name, what a player wrote) goes into markdown, BBCode and
chat with the colon of its "://" and the dots of such a word swapped for look-alikes
(render/layout.py), which read as what they stand for. The text format (mail, the terminal)
holds no markup, and shows such a name as it is.
"""

from __future__ import annotations

import re
import shutil

import pytest

from referee.data.paths import default_games_dir
from referee.render.formats import render
from referee.render.sections import Document, Items, Orders, Section, Span, Table, para, plain

# What each site links by itself, taken wide (any character but a space, "@" or "." may be
# in a domain): phpBB (its AutoLink and AutoEmail plugins), SMF (Autolinker.php), Discord and
# GitHub (GFM's autolink extension).
AUTOLINKS = {
    "scheme": re.compile(r"(?i)[a-z][a-z0-9+.-]*://"),
    "www": re.compile(r"(?i)www\.[^\s.]"),
    "e-mail": re.compile(r"[^\s@]@[^\s@.]+\.[^\s@.]"),
}
# Link-shaped names, each as a game's data or a player may write it.
NAMES = ["Ostend http://evil.example/o.png", "HTTPS://EVIL.EXAMPLE", "ftp://evil.example/a",
         "javascript://evil.example/%0aalert(1)", "see:http://evil.example", "www.evil.example",
         "Www.Evil.Example/x", "x(www.evil.example)", "a@evil.example",
         "mailto:first.last@evil.example", "one@two@evil.example"]
FORMATS = [("markdown", "common"), ("chat", "common"), ("bbcode", "common"), ("bbcode", "bgg"),
           ("bbcode", "phpbb"), ("bbcode", "smf")]
# The look-alikes of a link's colon and dots read as what they stand for.
TYPED = str.maketrans({"\ua789": ":", "\u2024": "."})


def _flat(text: str) -> str:
    """text with its line breaks and runs of spaces as one space (as wrapped lines read)."""
    return " ".join(text.split())


def _outside_code(out: str, fmt: str) -> str:
    """What a forum or chat reads for links: markdown and chat but their code blocks and
    code spans (which none links); BBCode whole."""
    if fmt == "bbcode":
        return out
    return re.sub(r"`[^`\n]*`", "", re.sub(r"```.*?```", "", out, flags=re.S))


def _links(out: str, fmt: str) -> list[str]:
    """What AUTOLINKS finds in out."""
    text = _outside_code(out, fmt)
    return [m.group() for link in AUTOLINKS.values() for m in link.finditer(text)]


@pytest.mark.parametrize("fmt,dialect", FORMATS)
@pytest.mark.parametrize("name", NAMES)
def test_a_link_shaped_name_is_linked_by_no_forum_or_chat(name, fmt, dialect):
    """Wherever data goes (titles, spans of every style, list items, table cells, orders,
    the receipt), a link-shaped name is written so that no site links it, and reads, its
    look-alikes taken for what they stand for, as it was given."""
    doc = Document(name, [Section(name, [
        para(name), para("Unit ", name, " moves"), para(Span(name, "bold")),
        para(Span(name, "italic"), " and ", Span(name, "german"), " ", Span(name, "order")),
        Items([[plain(name)], [plain("x "), plain(name)]]),
        Table(["Player", "Note"], [[name, "a " + name]]), Orders([name]),
    ])], receipt=name, colours={"german": "#4D4D4D"})
    out = render(doc, fmt, dialect=dialect)
    assert _links(out, fmt) == [], out
    assert name not in _outside_code(out, fmt)
    if fmt == "bbcode":     # no escape but the look-alikes: the name reads back whole
        assert _flat(out.translate(TYPED)).count(name) == 14
    assert _flat(render(doc, "text")).count(name) == 14     # text holds no markup: as it is


def test_ordinary_names_and_the_referee_s_words_are_written_as_they_are():
    """Dots and colons that are no link's stay: abbreviations, rule numbers, times, an at
    sign alone, a sentence's full stop; a name is only changed where a site would link it."""
    words = ["e.g. play offensive", "1. Armee (3I+1C)", "VP 13: Stalemate", "5.2.1 b) fire",
             "18:00 UTC", "@everyone", "ge-1:siege_gun", "Liège.", "wwwx.example", "a @ b.c"]
    for fmt, dialect in FORMATS:
        for text in words:
            out = render(Document("", [Section("", [para("x ", text)])]), fmt, dialect=dialect)
            assert "\ua789" not in out and "\u2024" not in out, (fmt, text, out)
    out = render(Document("", [Section("", [para("x www.evil.example")])]), "bbcode")
    assert out.strip() == "x www\u2024evil\u2024example"
    out = render(Document("", [Section("", [para("x http://evil.example/o.png")])]), "bbcode")
    assert out.strip() == "x http\ua789//evil\u2024example/o\u2024png"


def _hostile_games(tmp_path):
    """A copy of TTLM whose game name, an area (Ostend), a card (Offensive) and, in a
    scenario file beside it, an army (1. Armee) carry link-shaped words; the texts given."""
    root = tmp_path / "games"
    shutil.copytree(default_games_dir() / "ttlm", root / "ttlm")
    given = {"game.yaml": ('name: "TO THE LAST MAN!"', "TO THE LAST MAN! www.evil.example"),
             "map.yaml": ("name: Ostend\n", "Ostend http://evil.example/o.png"),
             "deck.yaml": ('title: "Offensive"', "Offensive mail@evil.example"),
             "scenarios/1914.yaml": ('name: "1. Armee"', "1. Armee ftp://evil.example/a")}
    for file, (old, new) in given.items():
        path = root / "ttlm" / file
        text = path.read_text(encoding="utf-8")
        assert old in text
        end = "\n" if old.endswith("\n") else ""
        text = text.replace(old, old.split(":")[0] + f': "{new}"{end}', 1)
        target = tmp_path / "what-if.yaml" if file.startswith("scenarios/") else path
        target.write_text(text, encoding="utf-8")
    return root, [new for _, new in given.values()]


@pytest.mark.parametrize("fmt,dialect", FORMATS)
def test_names_from_a_game_folder_and_a_scenario_are_linked_nowhere(fmt, dialect, tmp_path,
                                                                    cli, secret_file):
    """A game begun on a data folder and a what-if scenario whose names carry a URL, a
    "www." word and an e-mail address: show, report, status and area, as the German reads
    them, link none of them in any forum or chat format; the text format shows them."""
    root, names = _hostile_games(tmp_path)
    journal = tmp_path / "g.jsonl"
    r = cli("--games", root, "new", journal, "--scenario", tmp_path / "what-if.yaml",
            "--secret-file", secret_file, "--game-id", "links")
    assert r.exit_code == 0, r.output
    commands = [["show"], ["report"], ["status"], ["area", "ostend"], ["area", "aachen"]]
    seen, text = "", ""
    for command in commands:
        args = ["--games", root, command[0], journal, *command[1:], "--as", "german"]
        r = cli(*args, "--format", fmt, *(["--bbcode-dialect", dialect] * (fmt == "bbcode")))
        assert r.exit_code == 0, r.output
        assert _links(r.stdout, fmt) == [], (command, r.stdout)
        seen += r.stdout.translate(TYPED)
        text += cli(*args, "--format", "text").stdout
    assert [n for n in names if n not in _flat(seen) or n not in _flat(text)] == []
