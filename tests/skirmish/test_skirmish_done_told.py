"""Card, Sequence of Play: a side a one-sided fire step passed over is refused a bare done
in the phase that follows until it makes a record of it (card.yaml `dones_asked`, dones.py);
what he reads there, in his status, his report and his mail, names the order the referee
takes from him then (`done morale`), and that order is taken. Other sides, and journals made
before, are told 'then done' as before."""

from __future__ import annotations

import json
from email import message_from_bytes

import msgspec
from skirmish_cases import CARD, Table, figure
from test_skirmish_mail import BRITISH, GERMAN, mail, mailed_patrol

from referee.table.skirmish.dones import done_words


def _status(cli, j) -> dict:
    return json.loads(cli("status", j, "--format", "json").stdout)


def _to_the_last_step(cli, j) -> None:
    """Dones until the patrol's last fire step, which asks the British alone (the German
    side has no raw or irregular figure): the German is asked nothing in it."""
    while (now := _status(cli, j))["firing"] != ["raw", "irregular"]:
        r = cli("order", j, "--as", now["waiting_on"][0], "done")
        assert r.exit_code == 0, r.stderr
    assert now["waiting_on"] == ["british"]


def _mails_to(out, address: str) -> list[str]:
    found = []
    for p in sorted(out.iterdir()):
        m = message_from_bytes(p.read_bytes())
        if address in str(m["To"]):
            found.append(m.get_payload(decode=True).decode())
    return found


def test_the_side_passed_over_reads_done_morale_where_a_bare_done_is_refused(
        cli, tmp_path, secret_file):
    j = tmp_path / "patrol.jsonl"
    keys = mailed_patrol(cli, j, secret_file)
    _to_the_last_step(cli, j)
    box, out = tmp_path / "mail", tmp_path / "out"
    box.mkdir()
    sent = mail(box, 1, BRITISH, keys["british"], "done")      # ends the step, and the phase
    r = cli("inbox", j, sent, "--outbox", out, "--format", "json")
    assert r.exit_code == 0, r.stderr
    now = _status(cli, j)
    assert (now["phase"], now["waiting_on"]) == ("morale", ["british", "german"])
    head = "turn 1, morale phase: the tests of the phase with the facts each side declares, "
    # Each reads the done taken from him: the German his phase named, the British a bare one.
    german = _mails_to(out, GERMAN)
    assert german, sorted(p.name for p in out.iterdir())
    said = " ".join(german[-1].split())
    assert f"Your decision: {head}then done morale (Sequence of Play)." in said
    assert "  done morale" in german[-1]
    doc = json.loads(cli("report", j, "--as", "german", "--format", "json").stdout)
    assert doc["asked"][0] == f"Your decision: {head}then done morale (Sequence of Play)."
    british = " ".join(cli("report", j, "--as", "british").stdout.split())
    assert f"Your decision: {head}then done (Sequence of Play)." in british
    # The status, the same for every reader, names whose done is which.
    assert now["prompt"] == f"{head}then done (the German side: done morale) " \
                            "(Sequence of Play)"
    r = cli("order", j, "--as", "british", "done")
    assert r.exit_code == 0, r.stderr
    asked = f"{head}then done morale (Sequence of Play)"
    assert _status(cli, j)["prompt"] == asked
    text = " ".join(cli("status", j, "--as", "german").stdout.split())
    assert f"Waiting on the German player: {asked}." in text
    report = " ".join(cli("report", j, "--as", "german").stdout.split())
    assert f"Your decision: {asked}." in report
    british = " ".join(cli("report", j, "--as", "british").stdout.split())
    assert f"Waiting on the German player: {asked}." in british
    # What he is told is what is taken: the bare done is refused, the named one recorded.
    assert "'done morale' closes" in cli("order", j, "--as", "german", "done").stderr
    r = cli("order", j, "--as", "german", "done morale")
    assert r.exit_code == 0, r.stderr
    now = _status(cli, j)
    assert (now["turn"], now["phase"]) == (2, "movement")
    assert "then done (Sequence of Play)" in now["prompt"]


def test_the_done_words_name_each_side_s_own_done_and_a_journal_made_before_says_done():
    """The position of test_skirmish_stray_done: a step that asked blue alone ended with
    blue's done, and the next asks both; red's done names the phase, blue's does not."""
    def position(card):
        t = Table(red=[figure("R1", "raw")], blue=[figure("B1", "veteran")], card=card)
        t.test("blue", "done")
        return t

    t = position(CARD)
    assert done_words(t.card, t.state, ["red"]) == "done fire"
    assert t.refusal("red", "done fire") is None
    assert done_words(t.card, t.state, ["blue"]) == "done"
    assert done_words(t.card, t.state, ["red", "blue"]) == "done (the Red side: done fire)"
    old = position(msgspec.structs.replace(CARD, dones_asked=False))
    assert done_words(old.card, old.state, ["red"]) == "done"
    assert old.refusal("red", "done") is None
