"""Forum and chat output of real games: BBCode in each dialect, chat posts.

Positions come from the random games stored in tests/replays/ (random legal play: 1914 for
three seasonal turns, 1916 and 1918 to their ends), cut after a few records, in the middle
and at the end, and read by a side and by the public. Every BBCode tag that `report`,
`show`, `status` and `area` write must be one the dialect's forums know by their own
documentation (FORUM_TAGS, with its sources in test_render_formats.py); `log` has no BBCode
(text and JSON only). A whole game's report in chat must come out in posts a chat takes,
and random campaigns (each scenario, and AT ALL COSTS!) read turn by turn in chat posts that
end on no heading, keep each record with its events and hold no fixed-width line over 80
columns.
"""

from __future__ import annotations

import gzip
import re
import shutil
from pathlib import Path

import pytest
from test_render_formats import FORUM_TAGS, _assert_tags_balanced, _posts

import gamecalls as g
from referee.cli import commands
from referee.cli.areacmd import area_command
from referee.game.autoplay import autoplay
from referee.render import reports
from referee.render.chat import CHAT_LIMIT, chat_posts
from referee.render.layout import FIXED_WIDTH
from referee.render.sections import Document
from referee.table import Table

REPLAYS = Path(__file__).parent / "replays"
DIALECTS = ("common", "bgg", "phpbb", "smf")
# (stored game, records kept, reader, area): early, middle and late positions.
POSITIONS = [("ttlm-1914-seed7", 4, "german", "liege"),
             ("ttlm-1914-seed7", 120, "public", "verdun"),
             ("ttlm-1914-seed7", 312, "entente", "metz"),
             ("ttlm-1916-seed8", 60, "german", "verdun"),
             ("ttlm-1918-seed9", 10 ** 6, "public", "amiens")]


def _position(name: str, keep: int, into: Path) -> tuple[Path, int]:
    """The stored game's first `keep` records (a journal cut at a record is a whole
    journal), with its secret, both private; and its last record's number."""
    journal = into / f"{name}-{keep}.jsonl"
    lines = gzip.decompress((REPLAYS / f"{name}.jsonl.gz").read_bytes()).splitlines(True)
    journal.write_bytes(b"".join(lines[:keep]))
    journal.chmod(0o600)
    shutil.copy(REPLAYS / f"{name}.jsonl.secret", f"{journal}.secret")
    Path(f"{journal}.secret").chmod(0o600)
    return journal, min(keep, len(lines)) - 1


@pytest.mark.parametrize("name,keep,reader,area", POSITIONS)
def test_every_bbcode_tag_is_one_its_forums_know(name, keep, reader, area, tmp_path):
    """report, show, status and area in each dialect: only the forums' tags, each closed;
    the default (common) nothing but b, i, u and color: it renders on BGG, phpBB and SMF."""
    journal, last = _position(name, keep, tmp_path)
    doc, meta = Table(journal).report(reader, since=max(0, last - 40), remember=False)
    seen: dict[str, set[str]] = {d: set() for d in DIALECTS}
    for dialect in DIALECTS:
        outputs = [reports.render_report(doc, meta, "bbcode", dialect=dialect),
                   commands.show(journal, reader, "bbcode", dialect=dialect),
                   commands.status(journal, reader, "bbcode", dialect=dialect),
                   area_command(journal, [area], False, reader, "bbcode", dialect=dialect)]
        if dialect in ("common", "bgg"):
            outputs.append(area_command(journal, [], True, reader, "bbcode", dialect=dialect))
        for out in outputs:
            _assert_tags_balanced(out, dialect)
            seen[dialect] |= set(_tag_names(out))
    assert seen["common"] <= {"b", "i", "u", "color"} and "b" in seen["common"]
    assert {"c", "size"} <= seen["bgg"] and {"code", "list", "*"} <= seen["phpbb"]
    assert {"code", "list", "li"} <= seen["smf"]
    assert all(seen[d] <= FORUM_TAGS[d] for d in DIALECTS)


def _tag_names(src: str) -> list[str]:
    import re

    return re.findall(r"\[/?([a-z]+|-|\*)(?:=[^\]\n]*)?\]", src)


def test_a_whole_games_report_comes_in_chat_posts(tmp_path):
    """The report of three seasonal turns from record 0 (some 45,000 characters): posts of
    at most 2,000 characters, each code fence closed in its post, every line of the report
    in the posts in order, the receipt in the last."""
    journal, _ = _position("ttlm-1914-seed7", 10 ** 6, tmp_path)
    doc, meta = Table(journal).report("german", since=0, remember=False)
    posts = _posts(reports.render_report(doc, meta, "chat"))
    whole = chat_posts(Document(doc.title, doc.sections), 10 ** 9)[0].split("\n")
    assert len(whole) > 1000 and len(posts) > 20
    for post in posts:
        lines = post.split("\n")
        assert 0 < len(post) <= CHAT_LIMIT
        assert sum(ln.startswith("```") for ln in lines) % 2 == 0, post
    rest = iter([ln for post in posts for ln in post.split("\n")])
    assert all(line in rest for line in whole if line)
    seq_hash = doc.receipt.rpartition(" ")[2]
    assert seq_hash.startswith(f"{meta['receipt']['seq']}:{meta['receipt']['hash'][:8]}")
    assert posts[-1].split("\n")[-1] == f"Receipt: {meta['game_id']} `{seq_hash}`"


# ---------------------------------------------------------------- chat posts of a campaign

# Random campaigns played three seasonal turns: (game, scenario, seed).
# Each campaign's first three turns hold a record longer than a post (its split is checked):
# 1914's seed 7 no longer did once a revealed plan was told once; seed 14 holds five in 243
# records, where seed 1 held six in 475.
CAMPAIGNS = [("ttlm", "1914", 14), ("ttlm", "1916", 8), ("ttlm", "1918", 9), ("aac", "1914", 13)]
READERS = ("german", "entente", "public")
# What closes a post badly: a section heading (### in chat, ## the title), a record's
# heading (#12 German: ...), or a heading paragraph: a line all in bold (a country of the
# board, "Off the map").
_BARE_HEADING = re.compile(r"#{2,3} |#\d+ \S|\*\*[^*]+\*\*( \*\(continued\)\*)?$")
# Words a forum's reader cannot use: a command-line option, a command of the referee.
_COMMAND_WORDS = re.compile(r"(?<![\w-])--[a-z]|`referee\b|\breferee (?:show|status|report|"
                            r"order|log|area|map|dice|explain|verify|reveal)\b|\bJOURNAL\b")
# The sections whose every post must open on a heading: a report's records, the board.
_GROUPED_SECTION = re.compile(r"### (Since record \d+|From the start of the game|Board)$")


def _fixed_lines(out: str, fmt: str) -> list[str]:
    """The lines inside the fixed-width blocks of a chat post or a BGG post (a [c] block
    takes whole lines; an order in a line is a [c] span)."""
    if fmt == "chat":
        return [ln for block in out.split("```")[1::2] for ln in block.split("\n")]
    return [ln for block in re.findall(r"^\[c\](.*?)\[/c\]$", out, re.S | re.M)
            for ln in block.split("\n")]


def _post_problems(posts: list[str]) -> list[str]:
    """What is wrong with a chat output's posts: one longer than a chat takes, a code fence
    left open, a post that ends on a heading, a post that goes on with a record or a country
    without opening on its heading, a fixed-width line over 80 columns, a table's part
    opening inside a row."""
    problems: list[str] = []
    section = ""
    for n, post in enumerate(posts, 1):
        lines = post.split("\n")
        if not 0 < len(post) <= CHAT_LIMIT or sum(ln.startswith("```") for ln in lines) % 2:
            problems.append(f"post {n}: {len(post)} characters, fences {lines[:1]}")
        if _BARE_HEADING.match(lines[-1]):
            problems.append(f"post {n} ends on a heading: {lines[-1][:80]!r}")
        if _GROUPED_SECTION.match(section) and not _BARE_HEADING.match(lines[0]):
            problems.append(f"post {n} goes on in {section!r} without a heading: "
                            f"{lines[0][:80]!r}")
        section = next((ln for ln in reversed(lines) if ln.startswith("### ")), section)
        problems += [f"post {n}: a fixed-width line of {len(ln)} columns: {ln[:60]!r}"
                     for ln in _fixed_lines(post, "chat") if len(ln) > FIXED_WIDTH]
        problems += [f"post {n}: a table goes on in a code block from inside a row: {ln!r}"
                     for ln in _first_rows(post) if ln.startswith(" ")]
    return problems


def _first_rows(post: str) -> list[str]:
    """The first row of each code block of a post (under its header and rule, if any)."""
    blocks = [b.strip("\n").split("\n") for b in post.split("```")[1::2]]
    return [b[2] if len(b) > 2 and b[1] and set(b[1]) <= {"-", " "} else b[0]
            for b in blocks if b]


def _reader_problems(journal: Path, table: Table, reader: str, since: int):
    """What is wrong with what a reader posts of the game now (his report since `since`,
    `show` and `status`: chat posts, BGG's fixed-width lines and, for the public, command
    words in any forum format) -> (problems, the report's last record, posts, posts opened
    by a record's heading again)."""
    doc, meta = table.report(reader, since=since, remember=False)
    problems: list[str] = []
    posts_read = again = 0
    for command, out in {"report": reports.render_report(doc, meta, "chat"),
                         "show": commands.show(journal, reader, "chat"),
                         "status": commands.status(journal, reader, "chat")}.items():
        posts = _posts(out)
        posts_read += len(posts)
        again += sum("*(continued)*" in post for post in posts)
        problems += [f"{reader}'s {command}: {p}" for p in _post_problems(posts)]
    for out in (reports.render_report(doc, meta, "bbcode", dialect="bgg"),
                commands.show(journal, reader, "bbcode", dialect="bgg")):
        problems += [f"{reader}, BGG: a line of {len(ln)} columns"
                     for ln in _fixed_lines(out, "bgg") if len(ln) > FIXED_WIDTH]
    if reader == "public":
        outs = [reports.render_report(doc, meta, fmt) for fmt in ("chat", "markdown", "bbcode")]
        outs += [command(journal, None, fmt) for command in (commands.show, commands.status)
                 for fmt in ("chat", "markdown", "bbcode")]
        problems += [f"the public reads command words: {m.group()!r}"
                     for out in outs for m in _COMMAND_WORDS.finditer(out)]
    return problems, meta["upto"], posts_read, again


@pytest.mark.parametrize("game,scenario,seed", CAMPAIGNS)
def test_a_random_campaigns_posts_read_as_posts(game, scenario, seed, tmp_path):
    """A random campaign of each scenario (and AT ALL COSTS!'s) read turn by turn as its
    players and the public would: each one's report since his last in chat posts, and `show`
    and `status` in chat. No post ends on a section heading, a record's heading or a
    country's; a record is never parted from its events but where it is longer than a post,
    and then each post it goes on in opens with its heading again; every fixed-width line
    (chat code blocks, BGG's [c]) is at most 80 columns; what the public reads (no reader
    named) in chat, markdown or BBCode names no command-line option or command."""
    journal, secret = tmp_path / "war.jsonl", tmp_path / "fixed.secret"
    secret.write_text(f"{seed:064x}\n")
    secret.chmod(0o600)
    g.create_game(journal, scenario, game_id=f"chat-{game}-{scenario}", secret_file=secret,
                  game=game)
    since = dict.fromkeys(READERS, 0)
    problems: list[str] = []
    posts_read = split_records = 0
    first = autoplay(journal, seed, max_records=0).turn
    for turn in range(first, first + 3):
        assert autoplay(journal, seed, until=turn, check_every=10 ** 9).failure is None
        table = Table(journal)
        for reader in READERS:
            found, since[reader], posts, again = _reader_problems(journal, table, reader,
                                                                  since[reader])
            problems += [f"turn {turn}, {p}" for p in found]
            posts_read, split_records = posts_read + posts, split_records + again
    assert not problems, "\n".join(problems[:20])
    assert posts_read > 100 and split_records > 0      # records longer than a post too


# ---------------------------------------------------------------- a line longer than a post

def _outside_code(post: str) -> str:
    """The text of a chat post outside its code blocks and inline code spans (fenced with
    one backtick each: the orders below hold none), each line's fences paired."""
    kept = []
    for line in post.split("\n"):
        if not line.startswith("```"):
            assert line.count("`") % 2 == 0, line
            kept += line.split("`")[::2]
    return "\n".join(kept)


@pytest.mark.parametrize("orders, words", [(1, 420), (40, 6), (3, 700)])
def test_an_order_is_never_cut_out_of_its_code_span_in_chat(orders, words):
    """A heading naming orders whose line is longer than a post (many orders of a batch, or
    one order a journal kept from before the length limit): each post holds its spans
    whole, and no word of an order ends up outside code, where a chat would read it as
    markup."""
    from referee.render.sections import Para, Section, Span

    order = " ".join(["**bold** [here](http://x.example) @everyone"] + ["word"] * words)
    spans = [Span("#7 "), Span("German", "side-german"), Span(": ")]
    for n in range(orders):
        spans += [Span(", ")] * bool(n) + [Span(order, "order")]
    doc = Document("Report", [Section("Since record 6", [Para(spans, heading=True)])])
    posts = chat_posts(doc)
    assert len(posts) > 1
    for post in posts:
        assert len(post) <= CHAT_LIMIT
        outside = _outside_code(post)
        assert "`" not in outside and "word" not in outside and "here" not in outside, post
