"""README's play-by-email tour shows a real mail: the one the German receives first. Its
board (everything but the cards, which a new game deals anew) must be what the referee
writes today for the same start, so that the README never shows an older mail."""

from __future__ import annotations

import email
import email.policy
import re
from pathlib import Path

README = Path(__file__).parent.parent / "README.md"


def _block(text: str) -> list[str]:
    """The lines of the README's mail (the text block inside its <details>)."""
    part = text.split("<summary>The German's mail (text)</summary>", 1)[1]
    return part.split("```text\n", 1)[1].split("\n```", 1)[0].split("\n")


def _board(lines: list[str]) -> list[str]:
    """From the Board section to the cards: the part a new game does not deal anew."""
    start = lines.index("Board")
    return lines[start:lines.index("Off the map", start)]


def test_the_readme_mail_is_what_the_referee_writes(tmp_path, cli):
    journal = tmp_path / "war.jsonl"
    r = cli("new", journal, "--scenario", "1914", "--player", "german=hans@example.org",
            "--player", "entente=joffre@example.net", "--player", "moderator=me@example.com")
    assert r.exit_code == 0, r.stderr
    box = tmp_path / "mail"
    for sub in ("cur", "new", "tmp"):
        (box / sub).mkdir(parents=True)
    r = cli("inbox", journal, box, "--outbox", tmp_path / "outbox", "--no-map")
    assert r.exit_code == 0, r.stderr
    mails = [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
             for p in (tmp_path / "outbox").iterdir()]
    german = next(m for m in mails if m["To"] == "hans@example.org")
    fresh = german.get_body(("plain",)).get_content().rstrip("\n").split("\n")
    shown = _block(README.read_text(encoding="utf-8"))
    assert _board(shown) == _board(fresh)
    # The rest has the same sections, and the mail ends with the key and a receipt.
    headings = [ln for i, ln in enumerate(fresh[:-1]) if re.fullmatch(r"-{3,}", fresh[i + 1])]
    assert headings == [ln for i, ln in enumerate(shown[:-1])
                        if re.fullmatch(r"-{3,}", shown[i + 1])]
    assert shown[-2].startswith("Order key: ") and shown[-1].startswith("Receipt: ")
