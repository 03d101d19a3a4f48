"""A `--no-X` form a command's help offers must do something: switch off what is on by
default (`--no-map`) or set aside a game's setting (`deadline --no-skip-weekends`). A flag
off by default is offered as `--X` alone: `deadline --no-pause` once listed the deadlines
and did nothing else, while the help offered it beside `--pause`."""

from __future__ import annotations

import typer

from referee.cli.app import app


def _commands(group, words=()):
    for name, command in sorted(group.commands.items()):
        if hasattr(command, "commands"):
            yield from _commands(command, (*words, name))
        else:
            yield " ".join((*words, name)), command


def test_every_no_form_offered_changes_something():
    idle = [f"referee {said} {'/'.join(p.secondary_opts)}"
            for said, command in _commands(typer.main.get_command(app))
            for p in command.params
            if getattr(p, "secondary_opts", None) and p.default is False]
    assert not idle, "a --no- form that gives the default:\n" + "\n".join(idle)


def test_deadline_offers_pause_and_resume_alone(game, cli):
    r = cli("deadline", "--help")
    assert "--pause" in r.stdout and "--resume" in r.stdout
    assert "--no-pause" not in r.stdout and "--no-resume" not in r.stdout
    before = game.read_bytes()
    r = cli("deadline", game, "--no-pause")
    assert r.exit_code == 2 and "No such option: --no-pause" in r.stderr, r.stderr
    assert game.read_bytes() == before
