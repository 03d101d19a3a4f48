"""One mail a reader at a missed deadline: the report that tells the referee's answers.

A pass of `tick` checks the deadlines, then writes the reports owed. At a missed deadline
under the policy default the referee answers for the silent side, and that answer moves the
game: each player (and each observer) is owed a report in the same pass, whose records say
that the orders were due and none came. That report also says what each answer was and why
it is this one (the words the notice of old gave: 'lose fr-2:infantry', a loss from the
strongest unit ...), so no notice goes beside it. A reader the pass sends no report (his
last mail waits refused for good, a run that writes no reports) still gets the notice, once.
So too while the referee goes on answering the silent side's decision (a pass makes at most
MOST_ANSWERS answers): his report says so, in his deadline's line, as the notice did.

The game is test_defaults.py's Verdun: three hits the silent Entente owes, paid by the
referee in one pass, three records (5.3.1).
"""

from __future__ import annotations

import email
import email.policy
import os
from pathlib import Path

import forkedruns
import pytest
from sharedgames import kept
from test_defaults import ADDRESSES, DUE, START, VERDUN, VERDUN_STEPS, answered, game

import gamecalls as g
from casebook import SECRET, position, yaml_text
from referee.base.clock import NOW_VARIABLE
from referee.game.timeline import settings_fact
from referee.mail.inbox import inbox
from referee.mail.ledger import FAULT_VARIABLE, load_ledger
from referee.mail.reminders import check_deadlines

PRESS = "press@example.org"
ANSWER = ("Your orders were due by Wed 25 Nov 18:00 UTC and none came: the referee answered "
          "for you with 'lose fr-2:infantry', a loss from the strongest unit (in an army, a "
          "unit of its most numerous type) (rule 5.3.1)")
THEIRS = ("The Entente player's orders were due by Wed 25 Nov 18:00 UTC and none came: the "
          "referee answered for the Entente player with 'lose fr-2:infantry', a loss from "
          "the strongest unit")


@pytest.fixture(autouse=True)
def clock(monkeypatch):
    """The game's records are made at START (the commands' clock), as test_defaults' are."""
    monkeypatch.setenv(NOW_VARIABLE, START.strftime("%Y-%m-%dT%H:%M:%SZ"))


def _verdun(tmp_path: Path) -> Path:
    """test_defaults.game's Verdun with an observer besides the players: each reader was
    sent his report of the game so far (its first mail), as a pass of tick would have."""
    spath = tmp_path / "case.yaml"
    spath.write_text(yaml_text(position("1916", **VERDUN), sort_keys=False), encoding="utf-8")
    secret = tmp_path / "case.secret"
    secret.write_text(SECRET + "\n")
    secret.chmod(0o600)
    journal = tmp_path / "case.jsonl"
    os.environ[NOW_VARIABLE] = START.strftime("%Y-%m-%dT%H:%M:%SZ")    # begun at START
    g.create_game(journal, str(spath), "manual", game_id="onemail", secret_file=secret,
                  players=[*(f"{s}={a}" for s, a in ADDRESSES.items()), f"observer={PRESS}"],
                  clock=settings_fact("48h", "", "default", 2, False))
    for side, text, rolls in VERDUN_STEPS:
        assert g.submit(journal, side, [text], rolls).rejected is None, text
    inbox(journal, [], tmp_path / "out", with_map=False)
    return journal


@pytest.fixture
def started(tmp_path_factory, monkeypatch) -> tuple[Path, Path, set[str]]:
    """The Verdun game, made once a test process (sharedgames.kept) and put back at its place
    for each test (its ledger names the outbox by its path), its home's key and marks in the
    test's home; its outbox, and the names of its first mails, read already."""
    made = kept(tmp_path_factory.getbasetemp(), "one-mail",
                lambda place, mp: _verdun(place).name)
    root = made.back()
    monkeypatch.setenv(NOW_VARIABLE, START.strftime("%Y-%m-%dT%H:%M:%SZ"))
    out, seen = root / "out", set()
    _new(out, seen)
    return root / made.made, out, seen


def _pass(journal: Path, out: Path, moment, reports: bool = True) -> list[str]:
    """The deadlines checked at moment as tick checks them, then the reports owed: the
    commands' clock is at moment from then on."""
    os.environ[NOW_VARIABLE] = moment.strftime("%Y-%m-%dT%H:%M:%SZ")  # the fixture's undo
    log = check_deadlines(journal, out, moment, reporting=reports)
    if reports:
        inbox(journal, [], out, with_map=False)
    return log


def _new(out: Path, seen: set[str]) -> dict[str, list[str]]:
    """The mails written since seen (taken into it), by address: each text, lines joined."""
    got: dict[str, list[str]] = {}
    for p in sorted(out.glob("*.eml")):
        if p.name not in seen:
            seen.add(p.name)
            m = email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
            got.setdefault(str(m["To"]), []).append(" ".join(
                m.get_body(("plain",)).get_content().split()))
    return got


def _told(journal: Path, out: Path, first: int) -> bool:
    """Whether the run of answers at record first is kept as told: the outbox's mark and
    the ledger's entry, both."""
    head = g.open_game(journal).records[0]
    return (out / f".deadline-{first:06d}-told").exists() and \
        first in load_ledger(head["game_id"], head["hash"])["answers_told"]


def test_each_reader_is_sent_his_report_alone_which_names_each_answer_and_why(started):
    journal, out, seen = started
    before = g.open_game(journal).state.seq
    _pass(journal, out, DUE)
    assert len(answered(journal, before)) == 3
    got = _new(out, seen)
    assert not list(out.glob("deadline-*-answered-*.eml"))
    assert {a: len(m) for a, m in got.items()} == {
        ADDRESSES["german"]: 1, ADDRESSES["entente"]: 1, PRESS: 1}
    [entente] = got[ADDRESSES["entente"]]
    assert ANSWER in entente, entente
    at = [entente.index(f"with 'lose {x}', ") for x in ("fr-2:infantry", "fort-verdun",
                                                        "fr-2:artillery")]
    assert at == sorted(at)
    # On a phone, the German's mail opens with what is asked of him and by when.
    [german] = got[ADDRESSES["german"]]
    assert german.startswith("Your decision: in the battle in Verdun"), german
    assert THEIRS in german and THEIRS in got[PRESS][0]
    assert _told(journal, out, before + 1)
    assert _pass(journal, out, DUE) == [] and _new(out, seen) == {}


def test_a_run_of_answers_says_the_deadline_once_then_each_answer_alone(started, cli):
    """The three answers of one run: each reader's report says at the first that the orders
    were due and none came, and at each next record its answer alone, with why and its
    rule; `log` still tells each record whole."""
    journal, out, seen = started
    _pass(journal, out, DUE)
    got = _new(out, seen)
    for address, who in ((ADDRESSES["entente"], "you"), (ADDRESSES["german"], "the Entente player"),
                         (PRESS, "the Entente player")):
        [text] = got[address]
        assert text.count("orders were due by Wed 25 Nov 18:00 UTC") == 1, text
        for unit in ("fort-verdun", "fr-2:artillery"):
            assert (f"- The referee answered for {who} with 'lose {unit}', a loss from the "
                    f"strongest unit (in an army, a unit of its most numerous type) (rule "
                    f"5.3.1) ") in text, text
    logged = " ".join(cli("log", journal).stdout.split())
    assert logged.count("orders were due by Wed 25 Nov 18:00 UTC and none came: the referee "
                        "answered") == 3, logged


def test_a_reader_sent_no_report_in_the_pass_is_sent_the_notice_once(started):
    """The German's last mail waits in refused/ (a server refused it for good): no report
    goes to him until the moderator acts, so the pass sends him the notice, once; the
    others their reports alone."""
    journal, out, seen = started
    german = next(p for p in out.glob("*.eml")
                  if ADDRESSES["german"] in p.read_text(encoding="utf-8"))
    (out / "refused").mkdir()
    german.rename(out / "refused" / german.name)
    _pass(journal, out, DUE)
    got = _new(out, seen)
    [notice] = got[ADDRESSES["german"]]
    assert notice.startswith("The Entente player's orders were due by Wed 25 Nov 18:00 UTC "
                             "and none came. Under the game's rule for a missed deadline "
                             "(default) the referee answered for the Entente player with "
                             "'lose fr-2:infantry', a loss from the strongest unit"), notice
    assert [p.name.split("-")[-1] for p in out.glob("deadline-*-answered-*.eml")] == \
        ["german.eml"]
    assert len(got[ADDRESSES["entente"]]) == 1 and len(got[PRESS]) == 1
    _pass(journal, out, DUE)
    assert _new(out, seen) == {}


def test_a_check_that_writes_no_reports_sends_every_reader_the_notice(started):
    """A check with no reports after it (reporting off): each reader gets the notice."""
    journal, out, seen = started
    _pass(journal, out, DUE, reports=False)
    got = _new(out, seen)
    assert {a: len(m) for a, m in got.items()} == {
        ADDRESSES["german"]: 1, ADDRESSES["entente"]: 1, PRESS: 1}
    assert got[ADDRESSES["entente"]][0].startswith("Your orders were due by Wed 25 Nov")


def _pass_to_kill(journal: Path, out: Path, moment, most: int | None, once: bool) -> None:
    """In the forked process: the pass, the fault set (os._exit(70) at its step)."""
    from referee.mail import reminders

    if most is not None:
        reminders.MOST_ANSWERS = most
    if once:
        _one_answer_then_wait(pytest.MonkeyPatch())     # this process's, gone with it
    check_deadlines(journal, out, moment, reporting=True)
    inbox(journal, [], out, with_map=False)


def _killed_pass(journal: Path, out: Path, moment, step: str, most: int | None = None,
                 once: bool = False) -> None:
    """A pass (the check, then the reports) in a process of its own, forked from this one,
    ended at step (most: the answers it makes at most, else reminders.MOST_ANSWERS; once: the
    referee's second answer refused, as _one_answer_then_wait makes it)."""
    status = forkedruns.run(_pass_to_kill, journal, out, moment, most, once, timeout=300,
                            env={FAULT_VARIABLE: step,     # the pass's clock
                                 NOW_VARIABLE: moment.strftime("%Y-%m-%dT%H:%M:%SZ")})
    assert status == 70, status


def test_a_pass_killed_after_the_answers_sends_each_reader_one_mail_once(tmp_path):
    """Killed between the answers' records and their notices, or after the first report
    was written: the next passes send each reader his report once, and no notice."""
    for step in ("answered", "written"):
        (tmp_path / step).mkdir()
        journal = _verdun(tmp_path / step)
        out, seen = tmp_path / step / "out", set()
        _new(out, seen)
        before = g.open_game(journal).state.seq
        _killed_pass(journal, out, DUE, step)
        assert len(answered(journal, before)) == 3
        got: dict[str, list[str]] = _new(out, seen)
        for _ in range(2):
            _pass(journal, out, DUE)
            for address, texts in _new(out, seen).items():
                got.setdefault(address, []).extend(texts)
        assert {a: len(m) for a, m in got.items()} == {
            ADDRESSES["german"]: 1, ADDRESSES["entente"]: 1, PRESS: 1}, step
        assert ANSWER in got[ADDRESSES["entente"]][0], step
        assert not list(out.glob("deadline-*-answered-*.eml")), step
        assert _told(journal, out, before + 1), step


def test_the_same_answer_in_the_next_record_is_told_once_with_both(tmp_path):
    """Two hits paid by the same army's infantry: the notice (no report follows this
    check) tells 'lose fr-4:infantry' once, for records 9 and 10, not twice over."""
    journal = game(tmp_path, "1918", [
        ("german", "play offensive", None), ("german", "move ge-1 champagne", None),
        ("german", "end movement", None), ("entente", "done", None),
        ("entente", "done", "6,6,6,6,1,1,6,6")],       # 2 German hits, an Ersatz card held
        player="german", hands={"german": ["off-01"], "entente": ["ers2-01"]},
        units=["ge-1 ge army rethel 4I", "fr-4 fr army champagne 3I+1A"])
    out = tmp_path / "out"
    check_deadlines(journal, out, DUE)
    assert [o for _, o, _ in answered(journal, 0)] == ["lose fr-4:infantry"] * 2
    by = _new(out, set())
    for address in (ADDRESSES["german"], ADDRESSES["entente"]):
        [told] = by[address]
        assert told.count("'lose fr-4:infantry'") == 1, told
        assert "its most numerous type) (rule 5.3.1; records 9, 10)." in told, told


def test_a_run_a_report_would_tell_in_brief_is_still_told_by_its_notice(started, monkeypatch):
    """A report mail tells only its last FULL_MOST records in full, those before in brief
    (without the answers' words): a run of answers that began that far back is told by its
    notice, beside the report, or nobody would read what was answered and why. Here at most
    two records in full, and a run of three answers."""
    import referee.mail.direct as direct
    import referee.mail.firsttold as firsttold
    import referee.mail.newsmail as newsmail
    import referee.mail.observers as observers
    import referee.mail.refusal as refusal

    for module in (direct, firsttold, newsmail, observers, refusal):
        monkeypatch.setattr(module, "FULL_MOST", 2)
    journal, out, seen = started
    _pass(journal, out, DUE)
    got = _new(out, seen)
    for address in (ADDRESSES["german"], ADDRESSES["entente"], PRESS):
        assert any("with 'lose fr-2:infantry'" in m for m in got[address]), got[address]
    named = sorted(p.name.split("-answered-")[1] for p in out.glob("deadline-*-answered-*.eml"))
    assert named[1:] == ["entente.eml", "german.eml"] and "observer" in named[0], named


GOES_ON = ("Your orders were due by Wed 25 Nov 18:00 UTC and none came: the decision asks "
           "more of you, and the referee goes on answering for you in the same way at the "
           "next pass. Send your orders for it to have them applied instead")


def test_a_side_the_referee_goes_on_answering_for_is_sent_his_report_alone(started, monkeypatch):
    """A pass cut at two answers of the three hits: the Entente still owes the third, and
    his report alone tells him the two answers and that the referee goes on answering (no
    notice beside it); the next pass answers the third, each reader again one mail."""
    import referee.mail.reminders as reminders

    monkeypatch.setattr(reminders, "MOST_ANSWERS", 2)
    journal, out, seen = started
    before = g.open_game(journal).state.seq
    _pass(journal, out, DUE)
    assert len(answered(journal, before)) == 2
    got = _new(out, seen)
    assert {a: len(m) for a, m in got.items()} == {
        ADDRESSES["german"]: 1, ADDRESSES["entente"]: 1, PRESS: 1}
    [entente] = got[ADDRESSES["entente"]]
    assert ANSWER in entente and "with 'lose fort-verdun', " in entente, entente
    assert GOES_ON in entente and "Orders due by" not in entente, entente
    assert not list(out.glob("deadline-*-answered-*.eml"))
    assert _told(journal, out, before + 1)
    _pass(journal, out, DUE)
    assert len(answered(journal, before)) == 3
    got = _new(out, seen)
    assert {a: len(m) for a, m in got.items()} == {
        ADDRESSES["german"]: 1, ADDRESSES["entente"]: 1, PRESS: 1}
    assert "with 'lose fr-2:artillery', " in got[ADDRESSES["entente"]][0]
    assert "goes on answering" not in got[ADDRESSES["entente"]][0]
    assert not list(out.glob("deadline-*-answered-*.eml"))
    assert _pass(journal, out, DUE) == [] and _new(out, seen) == {}


def test_a_pass_killed_while_the_referee_goes_on_answering_sends_one_mail_a_pass(
        tmp_path, monkeypatch):
    """One answer a pass, the pass making the first killed between its record and its mails
    (or after the first report): each later pass sends each reader one mail, his report,
    which tells the answers the killed pass made too, and no notice."""
    import referee.mail.reminders as reminders

    monkeypatch.setattr(reminders, "MOST_ANSWERS", 1)
    for step in ("answered", "written"):
        (tmp_path / step).mkdir()
        journal = _verdun(tmp_path / step)
        out, seen = tmp_path / step / "out", set()
        _new(out, seen)
        before = g.open_game(journal).state.seq
        _killed_pass(journal, out, DUE, step, most=1)
        assert len(answered(journal, before)) == 1
        _new(out, seen)
        _pass(journal, out, DUE)
        assert len(answered(journal, before)) == 2
        got = _new(out, seen)
        assert {a: len(m) for a, m in got.items()} == {
            ADDRESSES["german"]: 1, ADDRESSES["entente"]: 1, PRESS: 1}, step
        [entente] = got[ADDRESSES["entente"]]
        assert GOES_ON in entente and "with 'lose fort-verdun', " in entente, step
        if step == "answered":          # no mail of the killed pass told the first answer
            assert ANSWER in entente, entente
        assert not list(out.glob("deadline-*-answered-*.eml")), step
        assert _told(journal, out, before + 1) and _told(journal, out, before + 2), step


def _one_answer_then_wait(monkeypatch) -> None:
    """The first hit answered, the second refused (as an answer needing a die the side's
    dice sheet must mix in is): the game then waits."""
    import referee.mail.reminders as reminders
    from referee.game.defaults import NOTHING, Answer

    real, given = reminders.default_answer, []

    def once(state, data, side):
        answer = real(state, data, side)
        if answer is not None and given:
            return Answer("end movement", "2.0 II.1", NOTHING)
        given.append(answer)
        return answer

    monkeypatch.setattr(reminders, "default_answer", once)


WAITS = ("Your orders were due by Wed 25 Nov 18:00 UTC; that time has passed and the game "
         "waits for them (the moderator is told: he may extend the deadline).")


def test_an_answer_the_referee_cannot_go_on_with_is_told_by_the_report_alone(
        started, monkeypatch):
    """The first hit answered, the second refused: the game waits. Each reader's report
    tells the answer and that the game waits (the Entente's with his decision, the orders
    open to him and that his deadline passed), so no mail of the wait goes beside it: one
    mail a reader, and the moderator, sent no report, his."""
    _one_answer_then_wait(monkeypatch)
    journal, out, seen = started
    before = g.open_game(journal).state.seq
    _pass(journal, out, DUE)
    assert len(answered(journal, before)) == 1
    got = _new(out, seen)
    assert {a: len(m) for a, m in got.items()} == {
        ADDRESSES["german"]: 1, ADDRESSES["entente"]: 1, PRESS: 1,
        ADDRESSES["moderator"]: 1}
    assert not list(out.glob("deadline-*-answered-*.eml"))
    assert [p.name.split("-")[-1] for p in out.glob("deadline-*-missed-*.eml")] == \
        ["moderator.eml"]
    [entente] = got[ADDRESSES["entente"]]
    assert "goes on answering" not in entente, entente
    assert ANSWER in entente and WAITS in entente and "Reply with one order per line" in \
        entente, entente
    for address in (ADDRESSES["german"], PRESS):
        assert "The Entente player's orders were due by Wed 25 Nov 18:00 UTC and none came: " \
               "the game waits for them (the moderator is told)" in got[address][0]
    assert _pass(journal, out, DUE) == [] and _new(out, seen) == {}


def test_a_pass_killed_before_the_reports_of_an_answer_then_a_wait_sends_one_mail(
        tmp_path):
    """The same pass killed after its records, before the reports (or after the first): the
    next pass sends each reader his report alone, which tells the wait."""
    for step in ("answered", "written"):
        (tmp_path / step).mkdir()
        journal = _verdun(tmp_path / step)
        out, seen = tmp_path / step / "out", set()
        _new(out, seen)
        _killed_pass(journal, out, DUE, step, once=True)
        got = _new(out, seen)
        for _ in range(2):
            _pass(journal, out, DUE)
            for address, texts in _new(out, seen).items():
                got.setdefault(address, []).extend(texts)
        assert {a: len(m) for a, m in got.items()} == {
            ADDRESSES["german"]: 1, ADDRESSES["entente"]: 1, PRESS: 1,
            ADDRESSES["moderator"]: 1}, (step, got)
        assert WAITS in got[ADDRESSES["entente"]][0], step
