"""`inbox` exactly once under faults: killed at each step, a full outbox disk, eight runs at
once; a mailbox read message by message; no backscatter; a bounded ledger that still
refuses a replay; a subject naming another game.

The crash runs are real processes ended at a named step (REFEREE_FAULT, which only these
tests set), forked from the test's; each is then run again and must end where a run without
the fault ends: the same journal records, the same ledger and the same mails, none lost,
none twice.
"""

from __future__ import annotations

import email
import email.policy
import errno
import json
import os
import re
from pathlib import Path

import forkedruns
import pytest
from mailboxes import write_maildir
from mailkinds import headline
from memorypeak import peak_of
from test_hostile_mail import ADDRESSES, GAME, KEYS, SPY, mail, new_game, write_mbox

from referee.mail import inbox as mailmod
from referee.mail import ledger as ledgermod
from referee.store import home as homemod

NOW = "2026-11-23T12:00:00Z"


@pytest.fixture(autouse=True)
def _clock(monkeypatch):
    """The game begins at NOW too: the referee dates no record before the journal's last."""
    monkeypatch.setenv("REFEREE_NOW", NOW)
ILLEGAL = f"move ge-1 liege\n\nOrder key: {KEYS['entente']}\n"


def _use_home(monkeypatch, folder: Path) -> None:
    """A per-user folder of its own (key, ledger) for one copy of the game."""
    folder.mkdir(parents=True, exist_ok=True)
    monkeypatch.setenv("REFEREE_HOME", str(folder))
    homemod._KEY.clear()


def _mailbox(path: Path) -> Path:
    """The German's orders (applied), a stranger's note (one reply, no game content) and
    the Entente's answer to the German's mail (stale once the German's record is in:
    refused, with his report)."""
    return write_mbox(path, [
        mail(),
        mail(SPY, "hello\n", mid="<s1@bureau.example>"),
        mail(ADDRESSES["entente"], ILLEGAL, mid="<e1@example.net>",
             date="Sat, 01 Aug 1914 12:00:00 +0100")])


def _killed(cli, journal: Path, box: Path, outbox: Path, step: str) -> None:
    """`inbox` in a process of its own, forked from this one, killed at step (exit 70)."""
    status = forkedruns.run(forkedruns.command, cli, "inbox", journal, box, "--outbox", outbox,
                            "--no-map", "--format", "json",
                            env={"REFEREE_NOW": NOW, ledgermod.FAULT_VARIABLE: step})
    assert status == 70, status


def _records(journal: Path) -> list[dict]:
    """The journal's records without what the wall clock makes (time, hashes)."""
    out = []
    for line in journal.read_text().splitlines():
        rec = json.loads(line)
        out.append({k: v for k, v in rec.items()
                    if k not in ("at", "created_at", "hash", "prev", "sig")})
    return out


_HEX = re.compile(r"\b[0-9a-f]{16,64}\b")


def _mails(outbox: Path) -> list[tuple]:
    """Each mail: to whom, subject and first line (mailkinds.headline), what it answers,
    body (hashes blanked)."""
    out = []
    for p in sorted(outbox.glob("*.eml")):
        m = email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
        out.append((str(m["To"]), headline(m), str(m.get("In-Reply-To", "")),
                    _HEX.sub("#", m.get_body(("plain",)).get_content())))
    return sorted(out)


def _ledger() -> dict:
    (path,) = Path(os.environ["REFEREE_HOME"]).rglob("*.ledger")
    data = homemod.read_signed(path)
    data["sent"] = {k: v[0] for k, v in data["sent"].items()}
    # Where each mail started: its name and the record are hashes, which the time changes.
    # What of a message each answers is kept with it (ledger.note_start): whether it is.
    data["starts"] = sorted(((side, start[0] if start else None, bool(answers))
                             for side, start, *answers in data["starts"].values()), key=repr)
    # When each side was last mailed, and by which mail: a name of hashes, as above.
    data["mailed"] = {side: kept[0] for side, kept in data.get("mailed", {}).items()}
    # The key each side's last mail carried: its record's hash, as above, left out.
    data["keys_carried"] = {side: [kept[0], kept[2]]
                            for side, kept in data.get("keys_carried", {}).items()}
    del data["header"]                              # record 0's hash: its time differs
    data["outboxes"] = [Path(p).name for p in data["outboxes"]]   # each run's own folder
    return data


def _end_state(journal: Path, outbox: Path) -> tuple:
    return _records(journal), _ledger(), _mails(outbox)


@pytest.fixture
def journal(tmp_path, cli) -> Path:
    return new_game(cli, tmp_path / "game")


# Each mailbox's end state without a fault, made once a process: a value, nothing on disk
# that a test could change.
_UNFAULTED: dict[str, tuple] = {}


def _unfaulted_once(factory, cli, monkeypatch, mailbox) -> tuple:
    """_unfaulted's end state for mailbox, the first time this process asks for it."""
    if mailbox.__name__ not in _UNFAULTED:
        _UNFAULTED[mailbox.__name__] = _unfaulted(factory.mktemp("unfaulted"), cli, monkeypatch,
                                                  mailbox)
    return _UNFAULTED[mailbox.__name__]


def _unfaulted(root: Path, cli, monkeypatch, mailbox) -> tuple:
    """What one inbox run of mailbox(PATH) without a fault leaves, in a home of its own."""
    _use_home(monkeypatch, root / "home")
    monkeypatch.setenv("REFEREE_NOW", NOW)
    journal = new_game(cli, root / "game")
    r = cli("inbox", journal, mailbox(root / "box.mbox"), "--outbox", root / "out")
    assert r.exit_code == 0, r.output
    return _end_state(journal, root / "out")


def _killed_then_run(tmp_path: Path, cli, monkeypatch, mailbox, step: str, runs: int):
    """The end state after each of `runs` inbox runs that follow one killed at step."""
    _use_home(monkeypatch, tmp_path / "home")
    monkeypatch.setenv("REFEREE_NOW", NOW)
    journal = new_game(cli, tmp_path / "game")
    box = mailbox(tmp_path / "box.mbox")
    _killed(cli, journal, box, tmp_path / "out", step)
    monkeypatch.setenv("REFEREE_NOW", NOW)
    states = []
    for _ in range(runs):
        again = cli("inbox", journal, box, "--outbox", tmp_path / "out")
        assert again.exit_code == 0, again.output
        states.append(_end_state(journal, tmp_path / "out"))
    return states


@pytest.fixture
def baseline(tmp_path_factory, cli, monkeypatch):
    """What one run without a fault leaves (made once a process)."""
    state = _unfaulted_once(tmp_path_factory, cli, monkeypatch, _mailbox)
    # The stranger's reply, the German's report, the Entente's refusal (his report inside).
    # Each player's mails share one subject a season; the first line says what each is: the
    # report, what it asks now (the movement his Offensive opened, 2.0 II.2), then its title.
    assert [m[1].split(" | ")[0].split("] ")[-1] for m in state[2]] == [
        "German player, SUMMER 1914", "Entente player, SUMMER 1914",
        "referee: message not accepted"]
    firsts = [m[1].split(" | ")[1] for m in state[2]]
    assert firsts[0].startswith("Your decision: movement phase"), firsts
    assert "report for the German player" in state[2][0][1].split(" | ")[2], state[2][0]
    assert firsts[1].startswith("Your message was not applied:"), firsts
    assert firsts[2].startswith("This message could not be matched"), firsts
    return state


@pytest.mark.parametrize("step", ["applied", "ledger", "reply", "written"])
def test_killed_at_any_step_the_rerun_ends_as_a_run_without_the_fault(
        tmp_path, cli, monkeypatch, baseline, step):
    """applied: the German's record is in the journal, the ledger not saved; ledger: saved,
    no mail written; reply: killed halfway through writing the first mail; written: the
    first mail is written and the ledger does not say so."""
    # The rerun, then one more: nothing changes.
    states = _killed_then_run(tmp_path, cli, monkeypatch, _mailbox, step, 2)
    assert states == [baseline, baseline]


def _brief_mailbox(path: Path) -> Path:
    """The German's orders (applied) and a misspelt mail of his: his report, then the brief
    reply pointing to it."""
    return write_mbox(path, [mail(), mail(body=f"plya offensive\n\nOrder key: "
                                              f"{KEYS['german']}\n", mid="<g2@example.org>")])


@pytest.fixture
def brief_baseline(tmp_path_factory, cli, monkeypatch):
    """What one run of _brief_mailbox without a fault leaves (made once a process)."""
    state = _unfaulted_once(tmp_path_factory, cli, monkeypatch, _brief_mailbox)
    assert sum("sent to you with this mail" in " ".join(m[3].split()) for m in state[2]) == 1
    return state


@pytest.mark.parametrize("step", ["reply", "written"])
def test_killed_between_a_report_and_its_brief_reply_the_rerun_ends_as_without(
        tmp_path, cli, monkeypatch, brief_baseline, step):
    """Killed while the German's report and the brief reply to his other mail are written:
    the rerun writes each once, the same mails as a run without the fault."""
    states = _killed_then_run(tmp_path, cli, monkeypatch, _brief_mailbox, step, 1)
    assert states == [brief_baseline]


def _standing_mailbox(path: Path) -> Path:
    """The German, who holds 'no combat cards' (given beside the mailbox's game), withdraws
    it for another standing order, then changes that one again with his orders."""
    from test_standing import give

    give(path.parent / "game" / "g.jsonl", "german", "no combat cards")
    key = f"\n\nOrder key: {KEYS['german']}\n"
    return write_mbox(path, [
        mail(body=f"standing: withdraw no combat cards\nstanding: no cavalry retreat{key}",
             mid="<s1@example.org>"),
        mail(body=f"standing: withdraw no cavalry retreat\nstanding: stand and fight\npass\n"
                  f"end turn{key}", mid="<s2@example.org>")])


def _with_standing(state: tuple, journal: Path) -> tuple:
    from referee.game import standing

    return (*state, standing.load(journal))


@pytest.mark.parametrize("step", ["applied", "ledger"])
def test_killed_while_standing_orders_come_by_mail_they_are_kept_once(tmp_path, cli,
                                                                      monkeypatch, step):
    """A run killed once the first message is kept (before the ledger says so, or just
    after), then run again, leaves what a run without the fault leaves, the German's
    standing orders too: the message is not applied twice, and the withdrawal after it is
    not refused."""
    root = tmp_path / "unfaulted"
    state = _unfaulted(root, cli, monkeypatch, _standing_mailbox)
    want = _with_standing(state, root / "game" / "g.jsonl")
    assert want[-1] == {"german": [{"text": "stand and fight", "turn": None}]}, want[-1]
    (states,) = _killed_then_run(tmp_path / "killed", cli, monkeypatch, _standing_mailbox,
                                 step, 1)
    assert _with_standing(states, tmp_path / "killed" / "game" / "g.jsonl") == want


def full_disk(monkeypatch, folder: Path):
    """Every file written into folder fails as on a full disk, until the function returned
    is called."""
    real = homemod.write_new

    def full(path, data, sync=True):
        if Path(path).parent == folder:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(path, data, sync)

    monkeypatch.setattr(homemod, "write_new", full)
    return lambda: monkeypatch.setattr(homemod, "write_new", real)


def test_a_full_disk_in_the_outbox_still_tells_the_refused_player(tmp_path, cli, monkeypatch):
    """The outbox's disk is full while the replies are written: the run fails with one line;
    the next run (disk freed, no new mail) writes the refusal the Entente is owed. Today's
    ledger said 'handled' before the reply was written: he was never told."""
    journal = new_game(cli, tmp_path / "game")
    box = write_mbox(tmp_path / "box.mbox",
                     [mail(ADDRESSES["entente"], ILLEGAL, mid="<e1@example.net>")])
    outbox = tmp_path / "out"
    freed = full_disk(monkeypatch, outbox)
    r = cli("inbox", journal, box, "--outbox", outbox)
    assert r.exit_code == 3 and "No space left" in r.stderr
    freed()
    r = cli("inbox", journal, write_mbox(tmp_path / "empty.mbox", []), "--outbox", outbox)
    assert r.exit_code == 0, r.output
    subjects = [s for to, s, _, _ in _mails(outbox) if to == ADDRESSES["entente"]]
    assert [s.split(" | ")[0] for s in subjects] == [
        f"[referee {GAME}] Entente player, SUMMER 1914"], _mails(outbox)
    assert [s.split(" | ")[1] for s in subjects][0].startswith(
        "Your message was not applied:"), _mails(outbox)


@pytest.mark.parametrize("at_once", [pytest.param(2, id="quick"), pytest.param(8, id="full")])
def test_eight_runs_at_once_apply_and_answer_each_message_once(tmp_path, cli, monkeypatch,
                                                              baseline, at_once):
    """Eight `inbox` processes on one game, one mailbox, one outbox: no record lost or
    doubled, every mail written once (today's unlocked ledger, saved at the end, lost
    entries and answered messages again)."""
    _use_home(monkeypatch, tmp_path / "home")
    journal = new_game(cli, tmp_path / "game")
    box = _mailbox(tmp_path / "box.mbox")
    runs = [forkedruns.start(forkedruns.command, cli, "inbox", journal, box, "--outbox",
                             tmp_path / "out", "--no-map", env={"REFEREE_NOW": NOW})
            for _ in range(at_once)]
    assert [forkedruns.finish(p) for p in runs] == [0] * at_once
    assert _end_state(journal, tmp_path / "out") == baseline


def _paused(cli, told: int, go: int, *args) -> int:
    """The command, held at its first message's classifying (mailmod._classify) until a
    line comes on go; it says so first on told."""
    real = mailmod._classify

    def paused(*a, **kw):
        os.write(told, b"paused\n")
        os.read(go, 1)
        return real(*a, **kw)

    mailmod._classify = paused
    return forkedruns.command(cli, *args)


def test_a_run_started_while_another_handles_mail_loses_nothing(journal, cli, tmp_path):
    """One run stops in the middle of its mailbox (held here at its first message); a second
    run on another mailbox starts meanwhile. Today the second one saved its ledger and the
    first, saving the ledger it had read at its start, dropped the second one's entries: the
    Entente's refused message was handled again later. Now the second run waits for the
    game's mail lock and both runs' messages stay handled."""
    first = write_mbox(tmp_path / "a.mbox", [mail()])
    second = write_mbox(tmp_path / "b.mbox", [
        mail(ADDRESSES["entente"], ILLEGAL, mid="<e1@example.net>")])
    outbox = tmp_path / "out"
    told, tell = os.pipe()
    wait, go = os.pipe()
    a = forkedruns.start(_paused, cli, tell, wait, "inbox", journal, first, "--outbox", outbox,
                         "--no-map")
    os.close(tell)                              # a run that dies unheld ends the line here
    try:
        with os.fdopen(told) as heard:
            assert heard.readline() == "paused\n"
        b = forkedruns.start(forkedruns.command, cli, "inbox", journal, second, "--outbox",
                             outbox, "--no-map")
        b.join(3)                             # today it ends here; now it waits for the lock
    finally:
        os.write(go, b"\n")
        os.close(go)
        os.close(wait)
    assert forkedruns.finish(a) == 0
    assert forkedruns.finish(b) == 0
    r = cli("inbox", journal, first, second, "--format", "json")
    statuses = [(m["message_id"], m["status"], m["new"]) for m in json.loads(r.stdout)["messages"]]
    assert all(s == "known" and not new for _, s, new in statuses), statuses


def test_strangers_get_a_bounded_number_of_replies(journal, cli, tmp_path, monkeypatch):
    """Five strangers more than a day's replies to them (and one of them three times): at
    most UNMATCHED_PER_DAY replies that day, none to the same address twice, none of them
    with game content; the next day one more to an address already answered. Today: one
    reply per message."""
    monkeypatch.setenv("REFEREE_NOW", NOW)
    raws = [mail(f"s{i}@spam.example", "buy now\n", mid=f"<x{i}@spam.example>")
            for i in range(ledgermod.UNMATCHED_PER_DAY + 5)]
    raws += [mail("s0@spam.example", f"again {i}\n", mid=f"<again{i}@spam.example>")
             for i in range(2)]
    r = cli("inbox", journal, write_mbox(tmp_path / "box.mbox", raws), "--outbox",
            tmp_path / "out")
    assert r.exit_code == 0, r.output
    told = [to for to, _, _, _ in _mails(tmp_path / "out") if to.endswith("spam.example")]
    assert len(told) == ledgermod.UNMATCHED_PER_DAY and len(set(told)) == len(told)
    monkeypatch.setenv("REFEREE_NOW", "2026-11-24T12:00:00Z")
    r = cli("inbox", journal, write_mbox(tmp_path / "next.mbox", [
        mail("s0@spam.example", "still here\n", mid="<next@spam.example>")]),
        "--outbox", tmp_path / "out2")
    assert [to for to, _, _, _ in _mails(tmp_path / "out2")] == ["s0@spam.example"]


def test_strangers_do_not_use_up_the_replies_a_player_with_a_mistyped_key_needs(
        journal, cli, tmp_path, monkeypatch):
    """Twenty strangers first use up the day's answers to addresses that are no player's;
    then the German writes with a key wrong in one character: he is still told why his
    orders were not taken (a quota of his own), and so again the same day, up to
    REGISTERED_PER_DAY."""
    monkeypatch.setenv("REFEREE_NOW", NOW)
    raws = [mail(f"s{i}@spam.example", "buy now\n", mid=f"<q{i}@spam.example>")
            for i in range(ledgermod.UNMATCHED_PER_DAY + 5)]
    wrong = KEYS["german"][:-1] + ("0" if KEYS["german"][-1] != "0" else "2")
    raws += [mail(ADDRESSES["german"], f"pass\n\nOrder key: {wrong}\n",
                  mid=f"<typo{i}@example.org>") for i in range(ledgermod.REGISTERED_PER_DAY + 2)]
    r = cli("inbox", journal, write_mbox(tmp_path / "box.mbox", raws), "--outbox",
            tmp_path / "out", "--format", "json")
    assert r.exit_code == 0, r.output
    told = [to.casefold() for to, _, answers, _ in _mails(tmp_path / "out") if answers]
    assert sum(to.endswith("spam.example") for to in told) == ledgermod.UNMATCHED_PER_DAY
    assert told.count(ADDRESSES["german"].casefold()) == ledgermod.REGISTERED_PER_DAY
    said = [m["reason"] for m in json.loads(r.stdout)["messages"]
            if (m["from"] or "").casefold() == ADDRESSES["german"].casefold()]
    assert sum("a day at most to a registered address" in x for x in said) == 2, said


def test_the_moderator_s_address_is_answered_within_a_registered_address_s_quota(
        journal, cli, tmp_path, monkeypatch):
    """Mail from the moderator's address (the referee's own is another) is answered as any
    address registered in the game is, REGISTERED_PER_DAY times a day, as
    docs/moderator.md says: each answer tells him his orders go by command."""
    monkeypatch.setenv("REFEREE_NOW", NOW)
    assert cli("mail", journal, "--from", "referee@club.example").exit_code == 0
    raws = [mail(ADDRESSES["moderator"], "pass\n", mid=f"<m{i}@example.com>")
            for i in range(ledgermod.REGISTERED_PER_DAY + 2)]
    r = cli("inbox", journal, write_mbox(tmp_path / "box.mbox", raws), "--outbox",
            tmp_path / "out")
    assert r.exit_code == 0, r.output
    told = [body for to, _, answers, body in _mails(tmp_path / "out")
            if answers and to.casefold() == ADDRESSES["moderator"].casefold()]
    assert len(told) == ledgermod.REGISTERED_PER_DAY, len(told)
    assert all("referee order" in body for body in told)
    guide = " ".join((Path(__file__).parent.parent / "docs" / "moderator.md").read_text(
        encoding="utf-8").split())
    assert (f"One from the moderator's address is answered, up to "
            f"{ledgermod.REGISTERED_PER_DAY} times a day") in guide


def test_an_old_entry_folded_into_digests_still_refuses_a_replay(journal, cli, tmp_path,
                                                                 monkeypatch):
    """Past KEEP_WHOLE entries the oldest are kept only as digest prefixes: the ledger stays
    small, and the first message sent again (same bytes), or a copy of it with new headers,
    is still not handled again."""
    monkeypatch.setattr(ledgermod, "KEEP_WHOLE", 4)
    raws = [mail(SPY, f"note {i}\n", mid=f"<n{i}@bureau.example>") for i in range(12)]
    r = cli("inbox", journal, write_mbox(tmp_path / "box.mbox", raws), "--format", "json")
    assert r.exit_code == 0, r.output
    ledger = _ledger()
    assert len(ledger["handled"]) <= 4 and len(ledger["ids"]) <= 4
    assert len(ledger["digests"]) == 16 * (12 - len(ledger["handled"]))
    relayed = raws[0].replace(b"To: ", b"Received: by relay.example\nTo: ", 1)
    r = cli("inbox", journal, write_mbox(tmp_path / "again.mbox", [raws[0], relayed]),
            "--format", "json")
    statuses = [(m["status"], m["new"]) for m in json.loads(r.stdout)["messages"]]
    assert statuses == [("known", False), ("skipped", True)], statuses


def test_a_subject_naming_another_game_is_skipped(journal, cli, tmp_path):
    """The German's orders with his key, but the subject's tag names another game, behind a
    bracket of his own: not applied here."""
    before = journal.read_bytes()
    box = write_mbox(tmp_path / "box.mbox",
                     [mail(subject="[2nd-try] Re: [referee ttlm-1914-deadbeef #3] orders")])
    r = cli("inbox", journal, box, "--format", "json")
    (out,) = json.loads(r.stdout)["messages"]
    assert out["status"] == "skipped" and "ttlm-1914-deadbeef" in out["reason"]
    assert journal.read_bytes() == before


def messages_handled(journal: str, box: str) -> int:
    """How many messages of the mailbox box one run of the inbox handles for the journal."""
    return len(mailmod.inbox(Path(journal), [Path(box)], None)[0])


def test_a_big_mbox_is_read_message_by_message(journal, tmp_path):
    """A 12 MB mbox (48 messages of 250 kB from one stranger): the run's memory peak stays
    under half the mailbox, what one message at a time needs, however many there are (once
    every message was held at once, parsed: more than the whole mailbox)."""
    line = b"x" * 75 + b"\n"
    raws = [mail(SPY, (f"big {i}\n").encode() + line * 3280, mid=f"<big{i}@bureau.example>")
            for i in range(48)]
    box = write_mbox(tmp_path / "big.mbox", raws)
    size = box.stat().st_size
    assert size > 11_900_000
    peak, handled = peak_of("test_inbox_faults:messages_handled", str(journal), str(box))
    assert handled == 48
    assert peak < size // 2, (peak, size)


def rises_of_runs(journal: str, *boxes: str) -> list:
    """For each mailbox in turn, one run of the inbox over it: how far the run raised the
    memory traced, and how many messages it handled."""
    import tracemalloc

    rises = []
    for box in boxes:
        tracemalloc.reset_peak()
        before = tracemalloc.get_traced_memory()[0]
        handled = messages_handled(journal, box)
        rises.append((tracemalloc.get_traced_memory()[1] - before, handled))
    return rises


def test_a_big_mbox_is_read_message_by_message_briefly(journal, tmp_path):
    """An mbox of 5 such messages: the run over it holds little more than the run just
    before it, over an mbox of one, did (each message held at once shows there; a first run
    over one more, before both, loads what any run loads once)."""
    line = b"x" * 75 + b"\n"
    raws = [mail(SPY, (f"big {i}\n").encode() + line * 3280, mid=f"<big{i}@bureau.example>")
            for i in range(7)]
    boxes = [write_mbox(tmp_path / f"{name}.mbox", part)
             for name, part in (("first", raws[:1]), ("one", raws[1:2]), ("big", raws[2:]))]
    size = boxes[-1].stat().st_size
    _, (_, (one, _), (rise, handled)) = peak_of("test_inbox_faults:rises_of_runs",
                                                str(journal), *map(str, boxes))
    assert handled == 5
    assert rise - one < size // 2, (rise, one, size)


def test_an_unreadable_maildir_entry_is_set_aside_and_the_rest_handled(journal, cli,
                                                                        tmp_path):
    """An entry of new/ that cannot be read (here a link to nothing) is named on one line
    and set aside; the German's orders beside it are applied (today the whole run ended)."""
    box = write_maildir(tmp_path / "Maildir", [mail()])
    (box / "new" / "0-broken").symlink_to(tmp_path / "nowhere")
    r = cli("inbox", journal, box)
    assert r.exit_code == 0, r.output
    (line,) = [x for x in r.stdout.splitlines() if "0-broken" in x]
    assert line.startswith("unreadable") and "set aside" in line and "cannot be read" in line
    assert any(x.startswith("applied") for x in r.stdout.splitlines()), r.stdout

