"""A note in a skirmish player's mail. `B2 was behind the concrete pillbox!!` names a
figure, so it reads as an order (a mangled word, not prose), and the tester's mail was
refused "it cannot be read at column 1" with no word of how to write a note: the refusal
now says it in one line (a line starting with '#' is not read), and such a line is so."""

from __future__ import annotations

import email
import json
from email.policy import default

from flowtext import written
from test_skirmish_mail import BRITISH, GERMAN, mail, mailed_patrol

HINT = "To write a note, start its line with #: such a line is not read."


def _answers(cli, j, path, out) -> tuple[str, str]:
    """The mail's status, and the answer to it (out: a new outbox for this mail alone)."""
    r = cli("inbox", j, path, "--outbox", out, "--format", "json")
    assert r.exit_code == 0, r.output
    (got,) = json.loads(r.stdout)["messages"]
    texts = [written(email.message_from_bytes(p.read_bytes(), policy=default).get_content())
             for p in out.glob("*.eml")]
    (text,) = [t for t in texts if t.startswith(("Your mail", "Nothing of your mail"))]
    return got["status"], text


def test_a_note_naming_a_figure_is_refused_with_how_to_write_one(cli, tmp_path, secret_file):
    j = tmp_path / "patrol.jsonl"
    keys = mailed_patrol(cli, j, secret_file)
    box = tmp_path / "mail"
    box.mkdir()
    for n, note in enumerate(("B2 was behind the concrete pillbox!!",
                              "(B2 was behind the concrete pillbox)"), 1):
        out = tmp_path / f"out{n}"
        status, text = _answers(cli, j, mail(box, n, BRITISH, keys["british"], note,
                                             "move B2 mode=manoeuvre command=yes"), out)
        assert status == "refused" and f"\n{HINT}\n" in text, text
        assert max(map(len, text.splitlines())) <= 72 and len(HINT) <= 72
    out = tmp_path / "out3"
    status, text = _answers(cli, j, mail(box, 3, BRITISH, keys["british"],
                                         "# B2 was behind the concrete pillbox",
                                         "move B2 mode=manoeuvre command=yes"), out)
    assert status == "applied" and HINT not in text, text
    assert GERMAN not in text
