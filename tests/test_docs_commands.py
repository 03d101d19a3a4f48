"""docs/commands.md is what the command line says of itself (`make docs` rewrites it)."""

from pathlib import Path

from referee.cli import reference

DOCS = Path(__file__).resolve().parent.parent / "docs" / "commands.md"


def test_the_command_reference_is_what_the_commands_say():
    assert DOCS.read_text(encoding="utf-8") == reference.render(), \
        "docs/commands.md differs from the command line: run `make docs`"


def test_the_reference_does_not_depend_on_the_terminal(monkeypatch):
    plain = reference.render()
    for name, value in (("COLUMNS", "40"), ("FORCE_COLOR", "1"), ("TERM", "xterm-256color")):
        monkeypatch.setenv(name, value)
    assert reference.render() == plain


def test_every_command_has_its_section():
    text = DOCS.read_text(encoding="utf-8")
    for name in ("new", "order", "status", "show", "verify", "map", "area", "games check"):
        assert f"\n## referee {name}\n" in text
    assert "`--width` (integer, 40 to 400; default `72`)" in text
    assert "`--format` (one of `text`, `json`; default `text`)" in text
