"""A skirmish player's mailed report lists the tests since the last report he was sent (and
the older ones a dispute or ruling since concerns), not every test of the game again; the
forces are given whole. `skirmish report` still lists every test."""

from __future__ import annotations

import email
from email.policy import default

from flowtext import written
from test_skirmish_mail import BRITISH, GERMAN, UMPIRE, mail, mailed_patrol


def _pass(cli, j, out, *mails) -> dict[str, list[str]]:
    """One inbox pass into its own outbox: each address's mails, as their bodies, in the
    order written."""
    r = cli("inbox", j, *mails, "--outbox", out, "--format", "json")
    assert r.exit_code == 0, r.stderr
    got: dict[str, list[str]] = {}
    for p in sorted(out.iterdir(), key=lambda p: p.stat().st_mtime_ns):
        m = email.message_from_bytes(p.read_bytes(), policy=default)
        got.setdefault(str(m["To"]), []).append(written(m.get_content()))
    return got


def _listed(body: str) -> tuple[str, list[int]]:
    """A report's tests heading and the records of the tests under it."""
    lines = body.splitlines()
    at = next(i for i, x in enumerate(lines) if x.startswith(("Tests", "Other tests")))
    end = lines.index("Forces:")
    return lines[at], [int(x.split()[0][1:]) for x in lines[at + 1:end] if x.startswith("#")]


def test_a_mailed_report_lists_the_tests_since_the_player_s_last_one(cli, tmp_path,
                                                                     secret_file):
    """Every report a skirmish player was mailed listed every test of the game: by the end
    of a game each mail repeated dozens of tests he had read before, above the few that were
    new. Now it lists those since his last report (an answer: other than his own, listed
    above it), and an older test again when a dispute or a ruling since concerns it."""
    j = tmp_path / "patrol.jsonl"
    keys = mailed_patrol(cli, j, secret_file, "--player", f"moderator={UMPIRE}")
    box = tmp_path / "mail"
    box.mkdir()
    b, g, m = keys["british"], keys["german"], keys["moderator"]
    one = _pass(cli, j, tmp_path / "out1", *[
        mail(box, 1, BRITISH, b, "move B2 mode=manoeuvre command=yes",
             "move B3 mode=stealthy command=yes", "done"),
        mail(box, 2, GERMAN, g, "move G2 mode=stealthy command=yes", "done"),
        mail(box, 3, BRITISH, b, "done"), mail(box, 4, GERMAN, g, "done")])  # veterans
    # An answer to each of his mails, the last carrying his report: his own tests above
    # (in either answer), the others' below, under a heading saying so.
    assert len(one[GERMAN]) == len(one[BRITISH]) == 2
    assert one[GERMAN][0].startswith("Your mail was recorded: #4, #5\n#4 German: move G2")
    assert "Forces:" not in one[GERMAN][0] and "follow in the answer to your later mail" \
        in one[GERMAN][0]
    assert _listed(one[GERMAN][1]) == ("Other tests:", [1, 2])
    assert _listed(one[BRITISH][1]) == ("Other tests:", [4])

    two = _pass(cli, j, tmp_path / "out2", mail(
        box, 7, BRITISH, b, "fire B1 at=G2 range=70 state=halted cover=none command=yes"))
    (report,) = two[GERMAN]
    assert _listed(report) == ("Tests since your last report (#7):", [8])
    assert "\n  section G (" in report and "   G2 " in report         # the forces, whole

    three = _pass(cli, j, tmp_path / "out3",
                  mail(box, 9, GERMAN, g, "dispute record=8 fact=range value=85"))
    assert _listed(three[BRITISH][0]) == ("Tests since your last report (#8):", [8])
    four = _pass(cli, j, tmp_path / "out4",
                 mail(box, 10, UMPIRE, m, "settle record=8 fact=range value=85"))
    for address in (BRITISH, GERMAN):               # the ruling changed #8's result
        (report,) = four[address]
        assert _listed(report) == ("Tests since your last report (#9):", [8]), report
        assert "[settled: range " in report and "dispute of #8 by German" in report
    # Settled and told, the dispute is not told again in each mail after it, as its test
    # is not.
    five = _pass(cli, j, tmp_path / "out5", mail(box, 11, BRITISH, b, "done"))
    report = five[GERMAN][-1]
    assert _listed(report) == ("Tests since your last report (#10): none", [])
    assert "dispute of #8" not in report, report
    # The whole list is still there for whoever asks for it.
    assert _listed(cli("skirmish", "report", j).stdout)[1] == [1, 2, 4, 8]
