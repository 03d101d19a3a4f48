"""Forum and chat output of real games: BBCode in each dialect, chat posts.

Positions come from the random games stored in tests/replays/ (random legal play: 1914 for
three seasonal turns, 1916 and 1918 to their ends), cut after a few records, in the middle
and at the end, and read by a side and by the public. Every BBCode tag that `report`,
`show`, `status` and `area` write must be one the dialect's forums know by their own
documentation (FORUM_TAGS, with its sources in test_render_formats.py); `log` has no BBCode
(text and JSON only). A whole game's report in chat must come out in posts a chat takes.
"""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import pytest
from test_render_formats import FORUM_TAGS, _assert_tags_balanced, _posts

from referee.cli import commands
from referee.cli.areacmd import area_command
from referee.render import reports
from referee.render.chat import CHAT_LIMIT, chat_posts
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
