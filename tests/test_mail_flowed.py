"""The referee's mails are text/plain; format=flowed; delsp=no (RFC 3676): a mail program
that knows it (on a phone above all) joins a paragraph's lines and reflows them to its
screen; one that does not shows the text as written, within 72 columns. Each report line
the referee wrapped inside a paragraph or a list item ends in a space (a soft break);
tables, the orders to copy, rules under titles, the receipt's Signed lines stay hard.
The mails are read here with the email package and tests/flowtext.py's RFC 3676 reader."""

from __future__ import annotations

from flowtext import unflowed, written
from test_hostile_mail import ADDRESSES, KEYS, eml, handled, mail
from test_receipts import last_record, mailed_report, read

from referee.mail.flowed import flowed
from referee.mail.message import order_lines, parse_message, plain_body

WIDTH = 72


def test_soft_breaks_are_kept_hard_lines_trimmed_and_lines_stuffed():
    text = "A paragraph wrapped \nhere.\n\n  done\nFrom the start\n> not a quote\ntable  \n-- \n"
    assert flowed(text) == ("A paragraph wrapped \nhere.\n\n   done\n From the start\n"
                            " > not a quote\ntable\n-- \n")
    assert unflowed(flowed(text)) == ("A paragraph wrapped here.\n\n  done\nFrom the start\n"
                                      "> not a quote\ntable\n-- \n")


def test_a_line_that_goes_on_after_a_soft_break_loses_its_indent():
    """A list item wrapped with a hanging indent: joined by a reader of the format, the
    indent would be spaces inside the sentence ('Somme,   Saint-Quentin'); the line after a
    soft break is sent flush left, and a hard line keeps its indent."""
    text = "- Amiens, Somme, \n  Saint-Quentin, Lille\n  hard indent\n"
    assert flowed(text) == "- Amiens, Somme, \nSaint-Quentin, Lille\n   hard indent\n"
    assert unflowed(flowed(text)) == "- Amiens, Somme, Saint-Quentin, Lille\n  hard indent\n"


def _report(cli, tmp_path):
    journal, raw = mailed_report(cli, tmp_path, "mailtest")
    part = read(raw).get_body(("plain",))
    return journal, raw, part, part.get_content()


def test_a_report_is_flowed_its_prose_reflows_and_the_rest_stands_as_sent(cli, tmp_path):
    journal, raw, part, text = _report(cli, tmp_path)
    assert part.get_content_type() == "text/plain"
    assert part.get_param("format") == "flowed" and part.get_param("delsp") == "no"
    lines = text.rstrip("\n").split("\n")
    soft = [ln for ln in lines if ln.endswith(" ")]
    assert soft, "a report wraps some of its prose"
    # As a program that ignores the format shows it: within 72 columns (a soft break's
    # space shows nothing), no line's end but a soft break's a space, nor two spaces.
    assert all(len(ln.rstrip()) <= WIDTH for ln in lines), \
        [ln for ln in lines if len(ln.rstrip()) > WIDTH]
    assert not [ln for ln in soft if ln.endswith("  ") or not ln.strip()]
    # Every line that begins with a space, '>' or "From " is stuffed.
    assert not [ln for ln in lines if ln.startswith((">", "From "))]
    assert " From the start of the game" in lines
    # Read as RFC 3676 reads it: each paragraph on one line...
    flat = unflowed(text).split("\n")
    assert any(ln.startswith("You may answer several decisions in one mail") and
               "The orders are applied in turn, all or none." in ln for ln in flat), flat
    assert any(ln.startswith("How to read: ") and ln.endswith("Area names or ids both work.")
               for ln in flat), flat
    # ... and no line going on after a soft break is indented: joined, its indent would be
    # a run of spaces inside the sentence.
    assert not [ln for n, ln in enumerate(lines[1:], 1)
                if lines[n - 1].endswith(" ") and ln.startswith("  ")]
    # ... the orders to copy, the rules under titles and the receipt line for line.
    shown = written(text).split("\n")
    copy = shown.index("For example:")
    (at,) = [n for n, ln in enumerate(flat) if ln.endswith(" For example:")]
    assert flat[at + 1:at + 5] == shown[copy + 1:copy + 5] == [
        "", "  move ge-1 cologne", "  end movement", ""]
    assert "=" * 5 in "".join(flat) and all(set(ln) != {"="} or not ln.endswith(" ")
                                            for ln in lines)
    tail = flat[flat.index("Signed:") - 1:]
    assert tail[0].startswith("Fingerprint: ") and tail[-2].startswith("Receipt: ")
    assert tail[:-1] == shown[shown.index("Signed:") - 1:-1]
    assert all(not ln.endswith(" ") for ln in lines[lines.index("Signed:") - 2:])
    # verify takes the receipt pasted from the reflowed text, Signed lines and all.
    last = last_record(journal)
    assert tail[-2] == f"Receipt: mailtest {last['seq']}:{last['hash'][:32]}"
    r = cli("verify", journal, "--receipt", "\n".join(tail))
    assert r.exit_code == 0, r.output
    assert "receipts: 1 checked (1 with a signature)" in r.stdout, r.stdout


def test_a_reply_quoting_the_flowed_report_whole_reads_only_what_was_typed(cli, tmp_path):
    journal, raw, part, text = _report(cli, tmp_path)
    quoted = "\n".join(">" + ("" if ln.startswith(">") else " ") + ln if ln else ">"
                       for ln in text.rstrip("\n").split("\n"))
    typed = f"end movement\n\nOrder key: {KEYS['german']}\n\nOn Monday the referee wrote:\n"
    for ctype in ("text/plain; charset=utf-8",
                  "text/plain; charset=utf-8; format=flowed; delsp=no"):
        got = plain_body(parse_message(mail(body=typed + quoted + "\n", ctype=ctype)))
        assert [t for _, t in order_lines(got, KEYS["german"])] == ["end movement"], got
    report = read(raw)
    seq = last_record(journal)["seq"]
    out = handled(cli, journal, eml(tmp_path / "in", mail(
        ADDRESSES["german"], typed + quoted + "\n", subject=f"Re: {report['Subject']}",
        mid="<q1@potsdam.example.org>", headers=f"In-Reply-To: {report['Message-ID']}\n",
        ctype="text/plain; charset=utf-8; format=flowed")), outbox=tmp_path / "out2")
    assert [o["status"] for o in out] == ["applied"], out
    last = last_record(journal)
    assert last["seq"] == seq + 1 and last["actor"] == "german", "one order applied"
    assert [e["type"] for e in last["events"]][:1] == ["PlayerTurnEnded"]


def test_the_quick_commands_lay_out_a_mail_flowed_and_the_reads_as_before(monkeypatch):
    """`tick` runs without Typer (cli/entry.py): its mails are flowed too; `order`, which
    writes no mail, and the reads (status, show) print their text as it always was (an
    order's status ends as `status` prints it, byte for byte)."""
    from referee.base.flowing import FLOWED
    from referee.cli import entry

    seen = {}
    for command in ("tick", "order", "status", "show"):
        monkeypatch.setitem(entry.RUNNERS, command,
                            lambda command=command: seen.setdefault(command, FLOWED.get()) and 0)
        entry.run(command, {})
    assert seen == {"tick": True, "order": False, "status": False, "show": False}
    assert FLOWED.get() is False
