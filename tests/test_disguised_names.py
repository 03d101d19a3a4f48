"""Names that are what they say (issue: names that cannot disguise themselves).

A bidirectional override (U+202E) turns the text after it around: an area named with one
could display as another area. Game data and scenarios refuse it, and any other
disguising character (zero-width, bidirectional marks, control characters, and every other
character that shows as nothing: format characters such as the tag characters that can
spell a hidden text, and the default-ignorable ones such as the variation selectors), in
every text; ids also refuse mixed scripts (a Cyrillic 'а' in 'namur'). Each refusal names
the file and the line. What still comes from elsewhere (a journal's record, a mail) is
shown, in every output, as its escape.
"""

from __future__ import annotations

import json
import shutil
import unicodedata
from pathlib import Path

import pytest
from forging import resign
from test_start_up import printed

from doors import console
from referee.base.glyphs import disguising, mixed_scripts, visible
from referee.data.paths import default_games_dir
from referee.store.journal import canonical

RLO = "\u202e"
# Characters that show as nothing, or change unseen how their neighbours show, beyond the
# zero-width and bidirectional ones: format characters (Cf) and default-ignorable code
# points (Unicode's Default_Ignorable_Code_Point), one or two of each kind.
UNSEEN = {
    "\U000e0001": "LANGUAGE TAG",
    "\U000e0045": "TAG LATIN CAPITAL LETTER E",
    "\U000e007f": "CANCEL TAG",
    "\u034f": "COMBINING GRAPHEME JOINER",
    "\ufe00": "VARIATION SELECTOR-1",
    "\ufe0f": "VARIATION SELECTOR-16",
    "\U000e0100": "VARIATION SELECTOR-17",
    "\U000e01ef": "VARIATION SELECTOR-256",
    "\ufff9": "INTERLINEAR ANNOTATION ANCHOR",
    "\ufffb": "INTERLINEAR ANNOTATION TERMINATOR",
    "\U0001d173": "MUSICAL SYMBOL BEGIN BEAM",
    "\U0001d17a": "MUSICAL SYMBOL END PHRASE",
    "\u180b": "MONGOLIAN FREE VARIATION SELECTOR ONE",
    "\u115f": "HANGUL CHOSEONG FILLER",
    "\u3164": "HANGUL FILLER",
    "\uffa0": "HALFWIDTH HANGUL FILLER",
    "\u17b4": "KHMER VOWEL INHERENT AQ",
    "\u206a": "INHIBIT SYMMETRIC SWAPPING",
    "\u0600": "ARABIC NUMBER SIGN",
    "\U0001bca0": "SHORTHAND FORMAT LETTER OVERLAP",
    "\U00013430": "EGYPTIAN HIEROGLYPH VERTICAL JOINER",
    "\u2065": "",              # unassigned, kept for more default-ignorables
    "\U000e0080": "",
    "\U000e0fff": "",
}
# Text shown as it is: accents (precomposed and combining), other scripts, visible symbols
# and emoji.
SHOWN = ["Liège", "Épinal", "Saarbrücken", "Straße", "Łódź", "Ypres (Ieper)", "Lie\u0300ge",
         "Москва", "Αθήνα", "مصر", "שלום", "東京", "서울", "हिन्दी", "🎲 ⚑ ★ → · • – ⁅x⁆",
         "🇧🇪", "tab\there", "line\nend"]


def _games_with(tmp_path: Path, old: str, new: str, file: str = "map.yaml") -> tuple[Path, int]:
    """A copy of the TTLM data with one text replaced; the line the new text is on."""
    root = tmp_path / "ttlm"
    shutil.copytree(default_games_dir() / "ttlm", root)
    path = root / file
    text = path.read_text(encoding="utf-8")
    assert text.count(old) >= 1
    text = text.replace(old, new, 1)
    path.write_text(text, encoding="utf-8")
    return root, text[:text.index(new)].count("\n") + 1


def _check(cli, root: Path) -> tuple[int, str]:
    r = cli("games", "check", root)
    return r.exit_code, r.stderr


@pytest.mark.parametrize("char", [RLO, "\u2066", "\u200b", "\u200f", "\x1b", "\ufeff"])
def test_games_check_refuses_an_area_name_with_a_disguising_character(char, tmp_path, cli):
    root, line = _games_with(tmp_path, "name: Liège", f'name: "Li{char}ège"')
    code, err = _check(cli, root)
    assert code == 3
    hit = [ln for ln in err.splitlines() if f"map.yaml:{line}:" in ln]
    # A C0 control character is refused as the YAML file is read, the others by the name
    # checks: both name it by its code point.
    assert hit and f"U+{ord(char):04X}" in hit[0], err


def test_games_check_refuses_an_id_mixing_scripts(tmp_path, cli):
    root, line = _games_with(tmp_path, "- id: namur", "- id: n\u0430mur")     # Cyrillic а
    code, err = _check(cli, root)
    assert code == 3
    assert any(f"map.yaml:{line}:" in ln and "CYRILLIC and LATIN" in ln
               for ln in err.splitlines()), err


def test_accented_names_and_the_shipped_data_pass(cli):
    """Negative control: Liège, Épinal and the rest are one script each."""
    for game in ("ttlm", "aac"):
        code, err = _check(cli, default_games_dir() / game)
        assert code == 0, err
    assert mixed_scripts("Liège") is None and mixed_scripts("saint-quentin") is None


def test_a_scenario_file_with_an_override_in_its_title_is_refused(tmp_path, cli, secret_file):
    text = (default_games_dir() / "ttlm" / "scenarios" / "1914.yaml").read_text("utf-8")
    lines = text.splitlines()
    n = next(i for i, ln in enumerate(lines) if ln.startswith("title:"))
    lines[n] = f'title: "Summer {RLO}4191"'
    scenario = tmp_path / "s.yaml"
    scenario.write_text("\n".join(lines) + "\n", encoding="utf-8")
    journal = tmp_path / "g.jsonl"
    r = cli("new", journal, "--scenario", scenario, "--secret-file", secret_file)
    assert r.exit_code == 3 and f"s.yaml:{n + 1}:" in r.stderr and "U+202E" in r.stderr
    assert not journal.exists()


def _as_a_copy_with_last_order(journal, cli_order: str, tmp_path, monkeypatch) -> None:
    """The journal's last record's order changed to cli_order and the journal chained again
    (as the key's holder could, or a journal kept from before a check); from here on, the
    environment of a player reading that copy, whose referee holds nothing of the game (the
    moderator's own refuses it: its mark names the record before the edit)."""
    records = [json.loads(x) for x in journal.read_bytes().splitlines()]
    records[-1]["order"] = cli_order
    out, prev = [], None
    for rec in records:
        rec = resign({**{k: v for k, v in rec.items() if k != "hash"}, "prev": prev})
        prev = rec["hash"]
        out.append(canonical(rec) + b"\n")
    journal.write_bytes(b"".join(out))
    player = tmp_path / "player-home"
    player.mkdir(mode=0o700)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("REFEREE_HOME", str(player))


def test_text_from_a_journal_is_shown_escaped_by_the_console(tmp_path, cli, secret_file,
                                                             monkeypatch):
    """A hostile journal (re-chained) whose order text holds an override and a terminal
    escape: the console script prints both as escapes, in text and in JSON (where the
    escape is the same character)."""
    journal = tmp_path / "g.jsonl"
    assert cli("new", journal, "--scenario", "1914", "--secret-file", secret_file,
               "--game-id", "names").exit_code == 0
    assert cli("order", journal, "--as", "german", "pass").exit_code == 0
    _as_a_copy_with_last_order(journal, f"pass {RLO}ssap\x1b[2J", tmp_path, monkeypatch)
    for fmt in ("text", "json"):
        code, stdout, stderr = console("log", journal, "--format", fmt)
        assert code == 0, stderr
        assert "\\u202e" in stdout and RLO not in stdout and "\x1b" not in stdout
        if fmt == "json":
            orders = [json.loads(x).get("order") for x in stdout.splitlines()]
            assert f"pass {RLO}ssap\x1b[2J" in orders


@pytest.mark.parametrize("char", [*UNSEEN, "\U000e0041\U000e0042"])
def test_games_check_refuses_an_area_name_with_a_character_that_shows_as_nothing(
        char, tmp_path, cli):
    root, line = _games_with(tmp_path, "name: Liège", f'name: "Li{char}ège"')
    code, err = _check(cli, root)
    assert code == 3
    hit = [ln for ln in err.splitlines() if f"map.yaml:{line}:" in ln]
    assert hit and f"U+{ord(char[0]):04X}" in hit[0] and char[0] not in hit[0], err


@pytest.mark.parametrize("char", UNSEEN, ids=[f"U+{ord(c):04X}" for c in UNSEEN])
def test_a_character_that_shows_as_nothing_is_shown_as_its_escape(char):
    """Each is named, and written as its escape; in a JSON string the escape is the same
    character (one beyond U+FFFF as its two UTF-16 halves)."""
    text = f"cologne{char}x"
    shown = visible(text)
    assert char not in shown and shown.startswith("cologne\\u") and shown.endswith("x")
    assert json.loads(f'"{shown}"') == text
    assert disguising(text) == f"U+{ord(char):04X} " + (UNSEEN[char] or
                                                         "an unassigned invisible character")


def test_every_format_character_is_shown_as_its_escape_and_nothing_visible():
    """Every character of Unicode's category Cf (as this Python's unicodedata knows it) is
    shown as its escape, tags spelling a hidden word too; text of every script, accents,
    symbols and emoji are shown as they are."""
    hidden = [chr(c) for c in range(0x110000) if unicodedata.category(chr(c)) == "Cf"]
    assert len(hidden) > 150
    assert [c for c in hidden if disguising(c) is None or visible(c) == c] == []
    tagged = "pass" + "".join(chr(0xE0000 + ord(c)) for c in "Evil")
    assert visible(tagged) == "pass" + "".join(f"\\udb40\\udc{0x00 + ord(c):02x}"
                                              for c in "Evil")
    for ok in SHOWN:
        assert disguising(ok) is None and visible(ok) == ok, ok


def test_tag_characters_in_an_order_are_shown_escaped_in_every_format(tmp_path, cli,
                                                                        secret_file, monkeypatch):
    """An order whose area is followed by tag characters (a hidden 'Evil') is refused as a
    new order (engine/intake.py); in a journal kept from before that (here chained again and
    read from a player's copy), every format the console prints shows them as their
    escapes, and the JSON log reads back the order as it was given."""
    journal = tmp_path / "g.jsonl"
    hidden = "".join(chr(0xE0000 + ord(c)) for c in "Evil") + "\ufe0f\u034f"
    assert cli("new", journal, "--scenario", "1914", "--secret-file", secret_file,
               "--game-id", "tags").exit_code == 0
    assert cli("order", journal, "--as", "german", "play offensive").exit_code == 0
    r = cli("order", journal, "--as", "german", f"move ge-2 cologne{hidden}")
    assert r.exit_code == 1 and "U+E0045" in r.stderr, r.output
    assert cli("order", journal, "--as", "german", "move ge-2 cologne").exit_code == 0
    _as_a_copy_with_last_order(journal, f"move ge-2 cologne{hidden}", tmp_path, monkeypatch)
    runs = [["report", "--format", fmt, "--as", "moderator", "--since", "0"]
            for fmt in ("text", "markdown", "bbcode", "chat")] + [["log", "--format", "json"]]
    for args in runs:
        code, stdout, stderr = console(args[0], journal, *args[1:])
        assert code == 0, stderr
        assert not any(c in stdout for c in hidden), args
        assert "cologne\\udb40\\udc45\\udb40\\udc76" in stdout, args
        if args[0] == "log":
            orders = [json.loads(x).get("order") for x in stdout.splitlines()]
            assert f"move ge-2 cologne{hidden}" in orders


def test_visible_and_disguising_agree():
    for ch in (RLO, "\u200b", "\x07", "\x9b", "\u2069", "\u061c"):
        assert disguising(f"a{ch}b") and visible(f"a{ch}b") == f"a\\u{ord(ch):04x}b"
    for ok in ("Liège", "Épinal", "tab\there", "line\nend"):
        assert disguising(ok) is None and visible(ok) == ok


def test_a_name_without_disguise_is_told_so_without_compiling_the_hidden_pattern():
    """Every read names its journal (one_line): a name none of the disguising characters
    is in is told so by the output's own pattern, and the pattern of the disguising
    characters alone (half a millisecond to compile) is made only for a text that has one
    or a lone surrogate; the answers are the same."""
    probe = ("import re, sys\nmade = []\ncompile_ = re.compile\n"
             "def counted(pattern, flags=0):\n"
             "    made.append(pattern)\n    return compile_(pattern, flags)\n"
             "re.compile = counted\n"
             "from referee.base.errors import one_line\nfrom referee.base import glyphs\n"
             "print(one_line('campaign-é.jsonl'), len(made))\n"
             "print(glyphs.disguising('\\udcff'), glyphs.disguising('a\\u202eb'), len(made))")
    first, second = printed(probe).splitlines()
    assert first.split()[0] == "campaign-é.jsonl"
    assert second.split(" ", 2)[:2] == ["None", "U+202E"]
    shown = int(first.split()[1])       # the output's pattern (and those of other modules)
    assert int(second.split()[-1]) == shown + 1, second


def test_the_quick_look_finds_every_character_the_class_escapes():
    """visible and disguising look first at a text's characters other than printable ASCII,
    the tab and the line ends, each in the ranges themselves, and compile the classes only
    for a text that holds one: over every code point, the look answers as the class does."""
    from referee.base import glyphs

    shown, hidden = glyphs._pattern("shown"), glyphs._hidden()
    wrong = [code for code in range(0x110000)
             if glyphs._may_show(f"a{chr(code)}é") != (shown.search(chr(code)) is not None)]
    assert not wrong, [f"U+{code:04X}" for code in wrong[:5]]
    assert hidden.search("\ud800") is None and shown.search("\ud800")
    assert visible("Liège \u2014 \ud800") == "Liège \u2014 \\ud800"
