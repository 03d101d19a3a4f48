"""Every command the docs show runs, in the order the docs give it.

From README.md, CONTRIBUTING.md and docs/*.md (not docs/commands.md, which is generated
from the CLI), every fenced code block is read in document order:

- A command is a line starting with `referee ` (or `.venv/bin/referee `), `make ` or
  `mkdir -p `, after an optional `$ ` prompt. In a block that has `$ ` prompts only the
  prompted lines are commands; the others are the output shown. A line ending in `\\`
  goes on in the next one.
- `# exits N` on a command's line: the exit code the document shows on purpose (a
  rejected order, a usage error); without it the command must exit 0.
- `> FILE` at the end of a command: its standard output goes to FILE.
- A block whose info string holds `file=PATH` (```` ```text file=reply.eml ````) is
  written to PATH when the document reaches it: a player's mail, a file of orders. In it
  the value of an `Order key:` line becomes the sender's real key and `[referee GAME #N]`
  the real game id, since both differ in every new game.

Each document runs in an empty folder of its own (with a link to the project's games/, so
that `referee games check games/ttlm` runs as it does from the top of a clone), through
the console script's own entry point (`referee.cli.entry.main`) in this process: a fresh
process per command would cost ten times the CPU.

Make lines: `make setup` and `make roundtrips` run for real in the project folder (when its
.venv is the one running these tests; otherwise as the others). `make test`, `make demo`,
`make bench` and `make soak` are only dry runs (`make -n`: the target exists and its recipe
reads), because they take minutes (test, bench, soak) or set up and play a whole opening
(demo); `make schemas` too, because it rewrites schemas/*.json while other tests read them.

Other shell lines (sending the outbox with sendmail, activating the venv, pytest) are shown
for people and not run.
"""

from __future__ import annotations

import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass, field
from pathlib import Path
from unittest import mock

import pytest

from referee.cli.entry import main as referee_main

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ("commands.md",)                     # made from the CLI, not written by hand
REAL_MAKE = ("setup", "roundtrips")              # quick enough to run; the rest: make -n
FENCE = re.compile(r"^(```+|~~~+)(.*)$")
EXITS = re.compile(r"#\s*exits\s+(\d+)\b")
PREFIXES = ("referee ", ".venv/bin/referee ", "make ", "mkdir -p ")


def documents() -> list[Path]:
    """The hand-written documents: README, CONTRIBUTING and docs/ less the generated ones."""
    docs = sorted(p for p in (ROOT / "docs").glob("*.md") if p.name not in GENERATED)
    return [p for p in (ROOT / "README.md", ROOT / "CONTRIBUTING.md", *docs) if p.exists()]


@dataclass
class Step:
    """One thing a document does: run a command, or write a file it shows."""

    where: str                                    # file:line, for the failure message
    argv: list[str] = field(default_factory=list)
    exits: int = 0
    stdout_to: str | None = None
    path: str | None = None                       # a file block: where it goes
    text: str = ""
    shown: list[str] = field(default_factory=list)  # the output the document shows


def blocks(text: str) -> list[tuple[str, int, list[str]]]:
    """(info string, line number of the first line, lines) of every fenced code block."""
    out, lines, i = [], text.splitlines(), 0
    while i < len(lines):
        m = FENCE.match(lines[i].strip())
        if not m:
            i += 1
            continue
        fence, info, start, body = m[1], m[2].strip(), i + 2, []
        i += 1
        while i < len(lines) and not lines[i].strip().startswith(fence):
            body.append(lines[i])
            i += 1
        out.append((info, start, body))
        i += 1
    return out


def commands(body: list[str], start: int) -> list[tuple[int, str, list[str]]]:
    """(line number, whole command, the output shown under it) of the command lines of one
    block; output is shown only in a block with prompts."""
    prompted = any(line.startswith("$ ") for line in body)
    out, i = [], 0
    while i < len(body):
        line, number = body[i], start + i
        i += 1
        if prompted and not line.startswith("$ "):
            continue
        line = line.removeprefix("$ ").strip()
        while line.endswith("\\") and i < len(body):
            line = line[:-1] + " " + body[i].strip()
            i += 1
        shown = []
        while prompted and i < len(body) and not body[i].startswith("$ "):
            shown.append(body[i])
            i += 1
        if line.startswith(PREFIXES):
            out.append((number, line, shown))
    return out


def step_of(name: str, number: int, line: str) -> Step:
    """A command line as a step: its arguments, its exit code and where its output goes."""
    m = EXITS.search(line)
    argv = shlex.split(line, comments=True)
    if argv[0] == ".venv/bin/referee":
        argv[0] = "referee"
    step = Step(f"{name}:{number}", argv, int(m[1]) if m else 0)
    if ">" in argv:
        k = argv.index(">")
        step.argv, step.stdout_to = argv[:k], argv[k + 1]
    return step


def steps(text: str, name: str) -> list[Step]:
    """Everything a document does, in its order."""
    out: list[Step] = []
    for info, start, body in blocks(text):
        target = re.search(r"\bfile=(\S+)", info)
        if target:
            out.append(Step(f"{name}:{start}", path=target[1], text="\n".join(body) + "\n"))
            continue
        for number, line, shown in commands(body, start):
            step = step_of(name, number, line)
            step.shown = shown
            out.append(step)
    return out


# What differs in every run of the same commands: the game id's random part, digests and
# hashes, order keys and fingerprints, the times a deadline falls at (from the clock), and
# the dice (from each game's own secret). The rest of what a document shows is compared.
VARYING = [
    (re.compile(r"\b[0-9a-f]{12,}\b"), "HEX"),
    (re.compile(r"\b(ttlm|aac)-\d{4}-[0-9a-f]{8}\b"), "GAME"),
    (re.compile(r"\b[0-9A-Z]{4}(?:-[0-9A-Z]{4}){2,3}\b"), "KEY"),
    # A time in a game's zone has the UTC time (and day, when another) beside it.
    (re.compile(r"\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2} [A-Z][a-z]{2} \d\d:\d\d "
                r"(?:UTC\b|[A-Z]{2,5}|[+-]\d{2,4})(?: \((?:[A-Z][a-z]{2} \d{1,2} [A-Z][a-z]{2} )?"
                r"\d\d:\d\d UTC\))?"), "TIME"),
]
# Commands whose output rests on the dice of a game's own secret (the skirmish's rolls).
DICE_SHOWN = ("skirmish order",)


def varying(line: str) -> str:
    for pattern, mark in VARYING:
        line = pattern.sub(mark, line)
    return line.strip()


def shown_differs(shown: list[str], printed: str) -> bool:
    """Whether the output a document shows is not how the command's output begins (a
    document may shorten it at its end), what differs in every run aside."""
    want = [varying(line) for line in shown]
    got = [varying(line) for line in printed.rstrip("\n").splitlines()]
    return bool(want) and got[:len(want)] != want


def referee(argv: list[str]) -> tuple[int, str, str]:
    """Run the console script's entry point on argv: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with mock.patch.object(sys, "argv", ["referee", *argv]), redirect_stdout(out), \
            redirect_stderr(err):
        try:
            referee_main()
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    return code, out.getvalue(), err.getvalue()


def make(argv: list[str]) -> tuple[int, str, str]:
    """A make line: real for the quick targets in a project with its own .venv, else -n."""
    if shutil.which("make") is None:
        pytest.skip("no make on this machine")
    own_venv = Path(sys.prefix).resolve() == (ROOT / ".venv").resolve()
    real = own_venv and len(argv) == 2 and argv[1] in REAL_MAKE
    cmd = ["make", "-C", str(ROOT), *([] if real else ["-n"]), *argv[1:]]
    r = subprocess.run(cmd, capture_output=True, text=True, stdin=subprocess.DEVNULL,
                       timeout=300)
    return r.returncode, r.stdout, r.stderr


class Player:
    """Plays a document's steps in one folder, remembering the last journal named."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.journal: str | None = None

    def filled(self, text: str) -> str:
        """A file block with the real order key of its sender and the real game id."""
        if self.journal is None or not re.search(r"^Order key:|\[referee [^\s\]]+[\] ]", text,
                                                 re.M):
            return text
        code, out, err = referee(["players", self.journal, "--keys", "--format", "json"])
        assert code == 0, err
        keys = {p["address"].lower(): p.get("key") for p in json.loads(out)["players"]}
        code, out, err = referee(["status", self.journal, "--format", "json"])
        assert code == 0, err
        game_id = json.loads(out)["game_id"]
        sender = re.search(r"^From:.*?([^\s<>]+@[^\s<>]+)", text, re.M)
        key = keys.get(sender[1].lower()) if sender else None
        if key:
            text = re.sub(r"^(Order key:\s*)\S+", lambda m: m[1] + key, text, flags=re.M)
        return re.sub(r"\[referee [^\s\]]+([\] ])", lambda m: f"[referee {game_id}{m[1]}", text)

    def run(self, step: Step) -> str | None:
        """Do one step; a failure's description, or None."""
        if step.path is not None:
            target = self.folder / step.path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(self.filled(step.text), encoding="utf-8")
            return None
        argv = step.argv
        if argv[0] == "mkdir":
            for d in argv[2:]:
                (self.folder / d).mkdir(parents=True, exist_ok=True)
            return None
        if argv[0] == "make":
            code, out, err = make(argv)
        else:
            self.journal = next((a for a in argv[1:] if a.endswith(".jsonl")), self.journal)
            code, out, err = referee(argv[1:])
        if step.stdout_to:
            (self.folder / step.stdout_to).write_text(out, encoding="utf-8")
        if code != step.exits:
            return (f"{step.where}: `{shlex.join(argv)}` exited {code}, the document says "
                    f"{step.exits}\n{err.strip()[-800:]}")
        if argv[0] != "make" and not any(d in shlex.join(argv) for d in DICE_SHOWN) and \
                shown_differs(step.shown, out + err):
            return (f"{step.where}: `{shlex.join(argv)}` prints what the document does not "
                    f"show:\n" + "\n".join(step.shown) + "\n---- it prints:\n"
                    + (out + err)[:800])
        return None


def play(text: str, name: str, folder: Path) -> list[str]:
    """Run every step of a document in folder; the failures."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "games").symlink_to(ROOT / "games", target_is_directory=True)
    player, failures = Player(folder), []
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        for step in steps(text, name):
            failure = player.run(step)
            if failure:
                failures.append(failure)
    finally:
        os.chdir(cwd)
    return failures


@pytest.mark.parametrize("doc", documents(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_command_of_the_document_runs(doc: Path, tmp_path: Path):
    """Each document's commands, in its order, exit as it says."""
    failures = play(doc.read_text(encoding="utf-8"), str(doc.relative_to(ROOT)), tmp_path)
    assert not failures, "\n\n".join(failures)


def test_the_docs_show_commands_at_all():
    """The reader finds the commands: a change to the fences cannot make this test empty."""
    found = [s for d in documents() for s in steps(d.read_text(encoding="utf-8"), d.name)
             if s.argv[:1] == ["referee"]]
    assert len(found) >= 30, len(found)
    assert {"new", "players", "inbox", "order", "status", "verify"} <= {s.argv[1] for s in found}


SAMPLE = """A sample document.

```
$ referee new war.jsonl --scenario 1914 --player german=hans@example.org --game-id war
created war.jsonl (game war, scenario 1914, dice committed); the dice secret is in \
war.jsonl.secret — keep it private
$ referee status war.jsonl --formt json
```
"""


def test_a_wrong_option_in_a_document_is_caught(tmp_path: Path):
    """The harness fails a misspelt option, and passes it when the document says it fails."""
    failures = play(SAMPLE, "sample.md", tmp_path / "a")
    assert len(failures) == 1 and "sample.md:6" in failures[0] and "exited 2" in failures[0]
    assert play(SAMPLE.replace("--formt json", "--formt json  # exits 2"), "sample.md",
                tmp_path / "b") == []


def test_output_a_document_shows_wrong_is_caught(tmp_path: Path):
    """The output shown under a command is how its output begins, what differs in every run
    (ids, keys, hashes, times) aside: a count or a word the command no longer prints fails."""
    right = SAMPLE.replace("--formt json", "--format json  # exits 0")
    assert play(right, "sample.md", tmp_path / "a") == []
    wrong = right.replace("scenario 1914, dice committed", "scenario 1914, dice manual")
    failures = play(wrong, "sample.md", tmp_path / "b")
    assert len(failures) == 1 and "sample.md:4" in failures[0], failures
    assert "dice committed" in failures[0]


def test_the_reader_of_blocks():
    """Prompts, continuation lines, comments, exit markers, redirection and file blocks."""
    text = ("```\n$ referee new w.jsonl \\\n    --scenario 1914   # a game\nreferee output\n"
            "$ referee order w.jsonl --as german nonsense   # exits 1\n"
            "$ referee log w.jsonl --format json > w.json\n```\n\n"
            "```text file=mail/x.eml\nFrom: a@b.c\n\npass\n```\n\n"
            "```\nmake setup\nsendmail -t < x\n```\n")
    got = [(s.where, s.argv, s.exits, s.stdout_to, s.path) for s in steps(text, "t")]
    assert [s.shown for s in steps(text, "t")][:3] == [["referee output"], [], []]
    assert got == [
        ("t:2", ["referee", "new", "w.jsonl", "--scenario", "1914"], 0, None, None),
        ("t:5", ["referee", "order", "w.jsonl", "--as", "german", "nonsense"], 1, None, None),
        ("t:6", ["referee", "log", "w.jsonl", "--format", "json"], 0, "w.json", None),
        ("t:10", [], 0, None, "mail/x.eml"),
        ("t:16", ["make", "setup"], 0, None, None),
    ]


# ---------------------------------------------------------------- one page for each thing
#
# The README is the front door: what the referee is, the two commands, one turn by mail,
# the speed table and where each guide is. Each guide holds its own matter; the generated
# docs/commands.md alone describes every command and option, and no hand-written page
# sends the reader back to the README.

README = ROOT / "README.md"
MOST_README_LINES = 150
GUIDES = ("docs/moderator.md", "docs/player.md", "docs/commands.md", "docs/scripting.md",
          "docs/rules.md", "docs/design.md", "CONTRIBUTING.md")
README_SECTIONS = ("Two commands", "A turn by mail", "Speed", "Where to go next")
LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)|^\s*\[[^\]]+\]:\s*(\S+)",
                  re.M)
INLINE_CODE = re.compile(r"`([^`\n]+)`")
# A line that describes an option rather than using it: a table row or a list item that
# starts with the option, or a line "`--option`: what it does" (a definition list too).
OPTION_LINE = re.compile(r"^\s*(?:\|\s*|(?:[-*+]|\d+[.)])\s+)(?:\*\*)?`-{1,2}[A-Za-z?]"
                         r"|^(?:\*\*)?`-{1,2}[A-Za-z][^`]*`(?:\*\*)?\s*(?::|—|–)\s")
OPTION_TABLE = re.compile(r"^\|\s*(?:options?|flags?)\s*\|", re.I)


def prose(text: str) -> str:
    """The text outside fenced code blocks (a mail or a shell session shown is not prose)."""
    out, fence = [], None
    for line in text.splitlines():
        m = FENCE.match(line.strip())
        if fence is None and m:
            fence = m[1]
        elif fence is not None and line.strip().startswith(fence):
            fence = None
        elif fence is None:
            out.append(line)
    return "\n".join(out)


def links(text: str) -> list[str]:
    """Every link target of a Markdown text, outside code blocks and code spans."""
    return [m[1] or m[2] for m in LINK.finditer(INLINE_CODE.sub("", prose(text)))]


def target(doc: Path, link: str) -> tuple[Path | None, str]:
    """The file a link of doc points to (None for another site or a page's own anchor)
    and its anchor."""
    where, _, anchor = link.partition("#")
    if not where or re.match(r"[a-z][a-z0-9+.-]*:", where):
        return (doc if not where else None), anchor
    return (doc.parent / where).resolve(), anchor


def anchors(text: str) -> set[str]:
    """The anchors of a page's headings, as GitHub makes them."""
    found, seen = set(), {}
    for line in prose(text).splitlines():
        m = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m:
            slug = re.sub(r"[^\w\- ]", "", m[1].strip().lower()).replace(" ", "-")
            n = seen[slug] = seen.get(slug, -1) + 1
            found.add(f"{slug}-{n}" if n else slug)
    return found


def front_door_problems(text: str) -> list[str]:
    """What keeps a README from being the front door: its length, and its first commands."""
    problems = []
    if len(text.splitlines()) > MOST_README_LINES:
        problems.append(f"{len(text.splitlines())} lines, more than {MOST_README_LINES}")
    first = [s for s in steps(text, "README.md") if s.argv][:2]
    if [s.argv for s in first] != [["make", "demo"], ["make", "test"]]:
        problems.append(f"the first two commands are {[shlex.join(s.argv) for s in first]}")
    said = re.findall(r"^make (demo|test)\s+#\s*\S", text, re.M)
    if said[:2] != ["demo", "test"]:
        problems.append("`make demo` and `make test` do not each say what they do")
    before = text[:text.find("```")] if "```" in text else text
    early = [c for c in INLINE_CODE.findall(before) if c.startswith(PREFIXES)]
    if early:
        problems.append(f"commands before the two: {early}")
    return problems


def test_the_readme_is_short_and_shows_the_two_commands_first():
    assert front_door_problems(README.read_text(encoding="utf-8")) == []


def guide_problems(text: str) -> list[str]:
    """What a README lacks to point to each guide, and the sections it holds that belong
    to a guide."""
    pointed = {p.relative_to(ROOT).as_posix() for p, _ in
               (target(README, link) for link in links(text))
               if p is not None and p.is_relative_to(ROOT)}
    problems = [f"no link to {g}" for g in GUIDES if g not in pointed]
    sections = re.findall(r"^## (.+?)\s*$", prose(text), re.M)
    problems += [f"section '{s}' belongs to a guide" for s in sections
                 if s not in README_SECTIONS]
    return problems


def test_the_readme_points_to_every_guide_and_holds_none_of_them():
    assert guide_problems(README.read_text(encoding="utf-8")) == []


def back_links(doc: Path, text: str) -> list[str]:
    """The links of a guide that send the reader back to the README."""
    return [link for link in links(text)
            if target(doc, link)[0] == README.resolve() or
            link.split("#")[0].rsplit("/", 1)[-1] == "README.md"]


def test_no_guide_sends_the_reader_back_to_the_readme():
    found = {d.relative_to(ROOT).as_posix(): back_links(d, d.read_text(encoding="utf-8"))
             for d in documents() if d != README}
    assert {d: got for d, got in found.items() if got} == {}


def test_every_link_between_the_pages_arrives():
    """Each link to a file of the project finds it, and each anchor its heading."""
    broken, headings = [], {}                     # a page's anchors, read once
    for doc in [*documents(), ROOT / "docs" / "commands.md"]:
        for link in links(doc.read_text(encoding="utf-8")):
            path, anchor = target(doc, link)
            if path is None:
                continue
            if not path.exists():
                broken.append(f"{doc.name}: {link}")
            elif anchor and path.suffix == ".md":
                if path not in headings:
                    headings[path] = anchors(path.read_text(encoding="utf-8"))
                if anchor not in headings[path]:
                    broken.append(f"{doc.name}: {link} (no such heading)")
    assert broken == []


def cli_commands() -> dict[str, list[str]]:
    """Every command of the CLI (its path, `referee games check`) with its long options."""
    import typer

    from referee.cli.app import app

    def walk(cmd, ctx):
        yield ctx.command_path, cmd
        for name in getattr(cmd, "list_commands", lambda ctx: [])(ctx):
            sub = cmd.get_command(ctx, name)
            yield from walk(sub, sub.make_context(name, [], parent=ctx,
                                                  resilient_parsing=True))

    root = typer.main.get_command(app)
    return {path: [o for p in cmd.params if p.param_type_name == "option"
                   for o in (*p.opts, *p.secondary_opts) if o.startswith("--")]
            for path, cmd in walk(root, root.make_context("referee", [],
                                                          resilient_parsing=True))}


def undescribed(reference: str, commands: dict[str, list[str]]) -> list[str]:
    """The commands and long options the reference has no place for: a command is its
    section `## referee ...`, an option is named in its command's section."""
    missing = []
    for path, options in commands.items():
        start = reference.find(f"\n## {path}\n")
        if start < 0:
            missing.append(path)
            continue
        end = reference.find("\n## ", start + 1)
        section = reference[start:end if end > 0 else None]
        missing += [f"{path} {o}" for o in options if f"`{o}`" not in section]
    return missing


def description_lines(text: str, commands: list[str]) -> list[str]:
    """Lines of a hand-written page that describe options or commands, as the reference
    does, instead of using them: an option starting a table row or a list item, a line
    `--option`: meaning, a table of options, a two-column table of commands."""
    found, lines = [], prose(text).splitlines()
    for i, line in enumerate(lines):
        if OPTION_LINE.match(line) or OPTION_TABLE.match(line) or (
                line.startswith(": ") and i and OPTION_LINE.match(lines[i - 1] + ": x")):
            found.append(line)
    names = {c.removeprefix("referee ") for c in commands}
    rows = [r for r in lines if r.startswith("|") and len(r.strip("|").split("|")) == 2]
    named = [r for r in rows if re.match(r"\|\s*`([^`]+)`", r) and
             re.match(r"\|\s*`([^`]+)`", r)[1].split(" ")[0] in names]
    if len(named) >= 3:
        found += named
    return found


def test_every_command_and_option_is_described_once_in_the_reference():
    """docs/commands.md describes every command and long option the CLI has; the
    hand-written pages use them in examples and say when, but list none of them."""
    commands = cli_commands()
    assert len(commands) >= 30 and "referee games check" in commands
    assert undescribed((ROOT / "docs" / "commands.md").read_text(encoding="utf-8"),
                       commands) == []
    found = {d.relative_to(ROOT).as_posix():
             description_lines(d.read_text(encoding="utf-8"), list(commands))
             for d in documents()}
    assert {d: got for d, got in found.items() if got} == {}


def test_every_command_and_option_is_in_a_guide():
    """Each command of the command line, and each of its options, is named in a guide a user
    reads (README, the moderator's and the player's guides, scripting), not only in the
    reference generated from the help (docs/commands.md)."""
    import typer.main

    from referee.cli.app import app

    root = Path(__file__).parent.parent
    guides = "\n".join((root / p).read_text(encoding="utf-8") for p in (
        "README.md", "docs/moderator.md", "docs/player.md", "docs/scripting.md"))
    missing = []

    def walk(group, prefix=()):
        for name, command in sorted(group.commands.items()):
            words = (*prefix, name)
            if hasattr(command, "commands"):
                walk(command, words)
                continue
            said = " ".join(words)
            if f"referee {said}" not in guides and f"`{said}`" not in guides:
                missing.append(f"referee {said}")
            for param in command.params:
                names = [o for o in (*param.opts, *param.secondary_opts) if o.startswith("-")]
                if names and not any(re.search(rf"(?<![\w-]){re.escape(o)}(?![\w-])", guides)
                                     for o in names) and "--help" not in names:
                    missing.append(f"referee {said} {'/'.join(names)}")

    walk(typer.main.get_command(app))
    assert not missing, "named in no guide:\n" + "\n".join(missing)
