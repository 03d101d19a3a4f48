"""A mail server that misbehaves, or is taken over, behind a game's route (referee/mail/wire.py).

The standard library's clients keep whatever a server sends and time out one read at a time:
a server could make a pass take gigabytes, never end, or fail with an internal error. Each
test puts a scripted server (tests/hostileservers.py, on 127.0.0.1, with the test authority's
certificate) in a game's route after its opening pass, and runs `tick` with the bounds made
small (the module's constants), so that a bound is met in a few kilobytes and a second:

- each answer comes within COMMAND_SECONDS however the server trickles, and a session
  reads at most its allowance: past a bound `tick` exits 3 with one problem line naming
  it, and the mail stays unread or owed;
- a session waits on its server SESSION_SECONDS in all, and an IMAP folder is read no
  further after half of it: a server that answers each command late is read over several
  passes;
- of a literal over LITERAL_MOST only that much is kept: the message is one too large,
  and the pass goes on to the next;
- a line the client cannot take apart is the server's fault, never exit 4;
- a pass asks no more sizes than it may read messages.
"""

from __future__ import annotations

import time

import pytest
from hostileservers import HOST, Imap, Smtp, order_mail
from mailservers import IMAP_PASSWORD_ENV, PASSWORD, SMTP_PASSWORD_ENV, USER, mail_settings
from test_transport import ADDRESSES, new_game, records
from ticklines import problem_text

from referee.mail import wire

KB = 1 << 10
COMMAND_SECONDS = wire.COMMAND_SECONDS      # the referee's own bound, before a test sets one


@pytest.fixture
def route(servers, monkeypatch, tmp_path, cli):
    """A game whose route goes through a scripted IMAP and SMTP server, its opening reports
    sent; the bounds small."""
    auth = servers[0]
    monkeypatch.setenv("SSL_CERT_FILE", str(auth.bundle))
    monkeypatch.setenv(IMAP_PASSWORD_ENV, PASSWORD)
    monkeypatch.setenv(SMTP_PASSWORD_ENV, PASSWORD)
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    monkeypatch.setattr(wire, "IMAP_START", 256 * KB)
    monkeypatch.setattr(wire, "SMTP_REPLIES", 64 * KB)
    imap, smtp = Imap(auth.server_context()), Smtp(auth.server_context())
    settings(imap, smtp)
    journal, keys = new_game(cli, tmp_path / "games", "alpha", None, "--mail-in",
                             f"imap://{USER}@{HOST}:{imap.port}/INBOX", "--mail-out",
                             f"smtp://{USER}@{HOST}:{smtp.port}")
    assert cli("tick", journal, "--no-map").exit_code == 0
    assert len(smtp.received) == 2
    assert imap.logins and all(tls for _, tls in imap.logins + smtp.logins)
    monkeypatch.setattr(wire, "COMMAND_SECONDS", 1.0)
    yield journal, keys, imap, smtp
    imap.stop()
    smtp.stop()


def settings(imap, smtp, more: str = "") -> None:
    """The mail settings naming the two servers (TLS required), and `more`."""
    mail_settings(f'[hosts."{HOST}"]\ntls = "required"\nports = {[imap.port, smtp.port]}\n'
                  + more)


def tick(cli, journal):
    started = time.monotonic()
    r = cli("tick", journal, "--no-map")
    return r, time.monotonic() - started


def stream(c, line: bytes, total: int) -> None:
    sent = 0
    while sent < total:
        c.send(line)
        sent += len(line)


def trickle(c, line: bytes) -> None:
    while True:
        c.send(line)
        time.sleep(0.1)


def failed(r, *words: str) -> None:
    """The pass failed with a problem naming every word (and no internal error)."""
    assert r.exit_code == 3, (r.exit_code, r.stdout, r.stderr)
    told = problem_text(r)
    assert "internal error" not in told and all(w in told for w in words), told


# ---------------------------------------------------------------- what a session reads

def test_endless_untagged_lines_end_the_session_at_its_allowance(route, cli):
    """Untagged lines without end at CAPABILITY: imaplib keeps each (5 GB before)."""
    journal, _, imap, _ = route
    imap.capability = lambda c, tag: stream(c, b"* OK " + b"z" * 200 + b"\r\n", 4 << 20)
    r, _ = tick(cli, journal)
    failed(r, f"the server sent more than {256 * KB} bytes", "no mail was read")


def test_a_literal_of_a_gigabyte_ends_the_session_at_its_allowance(route, cli):
    """A literal of 999,999,999 bytes where the size said a few hundred (988 MB before):
    what is over the limit is read and dropped, until the session has read its share."""
    journal, keys, imap, smtp = route
    settings(imap, smtp, "[reading]\nmegabytes = 1\n")     # a pass's share: the least
    imap.messages["1"] = order_mail(ADDRESSES["german"], keys["german"], "<o1@example.org>")
    imap.body = lambda c, tag, uid: (c.send(b"* 1 FETCH (UID 1 BODY[] {999999999}\r\n"),
                                     stream(c, b"x" * 4096, 64 << 20))
    n = len(records(journal))
    r, _ = tick(cli, journal)
    failed(r, "the server sent more than", "stay unread")
    assert len(records(journal)) == n and imap.stores == []


def test_a_message_over_the_size_the_server_gave_is_one_too_large_and_the_pass_goes_on(
        route, cli):
    """A server's size is an estimate (some report it exactly only when told to): a
    message of 1.2 MB said to be 1,000,000 bytes is kept to the limit and left as too
    large, and the German's orders after it are applied."""
    journal, keys, imap, _ = route
    photo = b"From: x@bureau.example\r\nSubject: photo\r\n\r\n" + b"x" * 1_200_000
    imap.messages["1"] = photo
    imap.messages["2"] = order_mail(ADDRESSES["german"], keys["german"], "<o2@example.org>")
    size = imap.size
    imap.size = lambda c, tag, uid: (c.send(b"* 1 FETCH (UID 1 RFC822.SIZE 1000000)\r\n" +
                                            tag + b" OK done\r\n") if uid == "1" else
                                     size(c, tag, uid))
    n = len(records(journal))
    r, _ = tick(cli, journal)
    assert r.exit_code == 0, r.stderr
    assert len(records(journal)) == n + 1 and imap.stores == ["2"]


def test_the_header_of_a_message_too_large_is_read_no_further_than_the_allowance(route,
                                                                                   cli):
    """The header of a message over the size limit, asked as its first 64 KiB, answered
    with the whole of it (4.8 GB for 600 MiB before)."""
    journal, keys, imap, smtp = route
    settings(imap, smtp, "[reading]\nmegabytes = 1\n")     # a pass's share: the least
    imap.messages["1"] = order_mail(ADDRESSES["german"], keys["german"], "<o1@example.org>")
    imap.size = lambda c, tag, uid: c.send(b"* 1 FETCH (UID 1 RFC822.SIZE 600000000)\r\n" +
                                           tag + b" OK done\r\n")
    imap.header = lambda c, tag, uid: (c.send(b"* 1 FETCH (UID 1 BODY[HEADER]<0> "
                                              b"{600000000}\r\n"),
                                       stream(c, b"X-J: " + b"y" * 1000 + b"\r\n", 64 << 20))
    r, _ = tick(cli, journal)
    failed(r, "the server sent more than", "stay unread")


@pytest.mark.parametrize("greeting", [b"* OK {99999999999999999999}\r\n",
                                      b"* OK {" + b"9" * 5000 + b"}\r\n"],
                         ids=["twenty-digits", "five-thousand-digits"])
def test_a_number_the_client_cannot_take_is_the_servers_fault(route, cli, greeting):
    """A literal's size too large for a read, or of more digits than Python turns into a
    number: OverflowError or ValueError, exit 4 before."""
    journal, _, imap, _ = route
    imap.greeting = lambda c: (c.send(greeting), time.sleep(3))
    r, _ = tick(cli, journal)
    failed(r, "no mail was read")


def test_another_service_on_the_imap_port_is_named_with_the_port_to_check(route, cli):
    """The route's IMAP port answered by an SMTP server ('220 ...'): its greeting quoted as
    it came, decoded (Python's repr of its bytes before), and the pass says to check the
    route's port, as the SMTP side does, not to see that the server takes the login."""
    journal, _, imap, smtp = route
    imap.greeting = lambda c: c.send(b"220 localhost Python SMTP 1.4.6\r\n")
    r, _ = tick(cli, journal)
    failed(r, f"what answers on port {imap.port} is not an IMAP server (it said '220 "
              f"localhost Python SMTP 1.4.6'); no mail was read; game ",
           f"check the port of the game's mail route, {imap.port} (your mail settings allow "
           f"{' and '.join(map(str, sorted([imap.port, smtp.port])))} for {HOST}, for IMAP "
           f"and SMTP alike)", "IMAP listens on 143 (STARTTLS, imap://) or 993")
    told = problem_text(r)
    assert "b'" not in told and "takes the login" not in told, told


@pytest.mark.parametrize("answer", [b"* SEARCH {3}\r\n1 2\r\n", b"* SEARCH \xff\xfe 1\r\n",
                                    b"* SEARCH -1 0 1:* 99999999999999999999 1\r\n"],
                         ids=["a-literal", "not-text", "no-uids"])
def test_a_search_answer_of_another_shape_reads_what_it_can(route, cli, answer):
    """SEARCH answered with a literal (AttributeError before) or with bytes that are no
    text (UnicodeDecodeError): what is no UID is passed over, the German's UID 1 read."""
    journal, keys, imap, _ = route
    imap.messages["1"] = order_mail(ADDRESSES["german"], keys["german"], "<o1@example.org>")
    imap.search = lambda c, tag: c.send(answer + tag + b" OK done\r\n")
    n = len(records(journal))
    r, _ = tick(cli, journal)
    assert r.exit_code == 0, (r.stdout, r.stderr)
    assert len(records(journal)) == n + (answer != b"* SEARCH {3}\r\n1 2\r\n")


def test_a_pass_asks_the_size_of_no_more_messages_than_it_may_read(route, cli):
    """2,000 unseen messages, 50 a pass: each was asked its size, every pass (20,000 took
    hours against a slow server)."""
    journal, _, imap, _ = route
    imap.messages.update({str(i): b"From: x@bureau.example\r\n\r\nhello\r\n"
                          for i in range(1, 2001)})
    r, _ = tick(cli, journal)
    assert r.exit_code == 0, r.stderr
    sizes = sum(1 for _, what in imap.fetches if what == "(RFC822.SIZE)")
    assert sizes == 50, sizes


# ---------------------------------------------------------------- how long a session lasts

@pytest.mark.parametrize("where", ["greeting", "search"])
def test_a_server_that_trickles_is_cut_off_at_the_end_of_the_session(route, cli, where):
    """A byte (or an untagged line) every tenth of a second: every read succeeds within the
    60 s timeout, and a pass never ended before."""
    journal, _, imap, _ = route
    if where == "greeting":
        imap.greeting = lambda c: trickle(c, b"*")
    else:
        imap.search = lambda c, tag: trickle(c, b"* 1 RECENT\r\n")
    r, took = tick(cli, journal)
    failed(r, "the server took more than 1 s to answer")
    assert took < 30, took


# ---------------------------------------------------------------- SMTP

def test_an_endless_smtp_reply_ends_the_session_at_its_allowance(route, cli):
    """EHLO answered with continuation lines without end (1.8 GB for 600 MiB before): the
    mail stays owed."""
    journal, keys, imap, smtp = route
    imap.messages["1"] = order_mail(ADDRESSES["german"], keys["german"], "<o1@example.org>")
    smtp.ehlo = lambda c: stream(c, b"250-" + b"x" * 500 + b"\r\n", 4 << 20)
    r, _ = tick(cli, journal)
    failed(r, f"the server sent more than {64 * KB} bytes", "stays owed")
    assert len(smtp.received) == 2


def test_an_smtp_reply_that_trickles_is_cut_off_at_the_end_of_the_session(route, cli):
    journal, keys, imap, smtp = route
    imap.messages["1"] = order_mail(ADDRESSES["german"], keys["german"], "<o1@example.org>")
    smtp.ehlo = lambda c: trickle(c, b"250-x\r\n")
    r, took = tick(cli, journal)
    failed(r, "the server took more than 1 s to answer", "stays owed")
    assert took < 30, took


def test_the_time_an_answer_may_take_leaves_out_the_referees_own_work(servers, monkeypatch,
                                                                      tmp_path, cli):
    """A pass handles its mail inside the IMAP session (maps, many games): that time is the
    referee's, not the server's, and the mail it took is marked read after it."""
    from mailservers import route_through
    from test_transport import mail as tmail

    from referee.mail import tick as ticking

    net = route_through(servers, monkeypatch, tmp_path / "user")
    journal, keys = new_game(cli, tmp_path / "games", "slow", net)
    assert cli("tick", journal, "--no-map").exit_code == 0
    monkeypatch.setattr(wire, "COMMAND_SECONDS", 1.0)
    handle = ticking._handle_mail
    monkeypatch.setattr(ticking, "_handle_mail",
                        lambda *a, **k: time.sleep(1.3) or handle(*a, **k))
    net.imap.deliver(net.folder, tmail("german", keys["german"], ["propose armistice"],
                                       "<o1@example.org>"))
    n = len(records(journal))
    r = cli("tick", journal, "--no-map")
    assert r.exit_code == 0, r.stderr
    assert len(records(journal)) == n + 1
    assert net.imap.seen(net.folder) == {"<o1@example.org>": True}


# ---------------------------------------------------------------- a session's time in all

def answering_late(server, seconds: float) -> None:
    """Each answer of the server's (the greeting too) sent `seconds` after it is due: in
    time for its command, whatever the number of commands."""
    talk = server.talk

    def late_talk(c):
        send = c.send
        c.send = lambda data: (time.sleep(seconds), send(data))
        talk(c)

    server.talk = late_talk


def bodies(imap) -> list[str]:
    return [uid for uid, what in imap.fetches if what == "(BODY.PEEK[])"]


def test_a_server_that_answers_each_command_late_is_read_over_several_passes(
        route, cli, monkeypatch):
    """Each answer a quarter of the answer's time late: a pass asked every message its size
    and body, two commands each (50 a pass, five minutes each: eight hours, while the other
    games of the folder waited). Reading stops at half the session's time, the messages
    read are handled and marked read, and the next pass reads on."""
    journal, keys, imap, _ = route
    # 6 s: half of it holds the login's answers and three or so messages' (two answers of a
    # quarter second each), and still one with every answer half as late again, on a loaded
    # machine (the test's server answers from a thread of the referee's own process).
    monkeypatch.setattr(wire, "SESSION_SECONDS", 6.0, raising=False)
    imap.messages["1"] = order_mail(ADDRESSES["german"], keys["german"], "<o1@example.org>")
    imap.messages.update({str(i): b"From: x@bureau.example\r\n\r\nhello\r\n"
                          for i in range(2, 13)})
    answering_late(imap, 0.25)
    n = len(records(journal))
    r, took = tick(cli, journal)
    assert r.exit_code == 0, r.stderr
    assert "wait for the next pass (the server is slow)" in r.stdout, r.stdout
    first = bodies(imap)
    assert first[0] == "1" and len(first) < 6, first
    assert len(records(journal)) == n + 1 and imap.stores == ["1"]
    assert took < 12, took
    r, _ = tick(cli, journal)
    assert r.exit_code == 0, r.stderr
    assert set(bodies(imap)) - set(first), imap.fetches       # on where the last one stopped


def test_an_imap_session_ends_when_its_server_has_taken_its_time_in_all(route, cli,
                                                                        monkeypatch):
    """Each answer in time for its command, the session's time spent before the login is
    through: the session ends there, and no mail is read."""
    journal, _, imap, _ = route
    monkeypatch.setattr(wire, "SESSION_SECONDS", 1.0, raising=False)
    imap.transcript.clear()
    answering_late(imap, 0.4)
    r, took = tick(cli, journal)
    failed(r, "the server took more than 1 s in all to answer this session",
           "no mail was read")
    assert not any(b"SEARCH" in line for line in imap.transcript), imap.transcript
    assert took < 10, took


def test_an_smtp_session_ends_when_its_server_has_taken_its_time_in_all(route, cli,
                                                                        monkeypatch):
    """The same of the server the answers go out through: the mails stay owed."""
    journal, keys, imap, smtp = route
    monkeypatch.setattr(wire, "SESSION_SECONDS", 1.0, raising=False)
    imap.messages["1"] = order_mail(ADDRESSES["german"], keys["german"], "<o1@example.org>")
    smtp.transcript.clear()
    answering_late(smtp, 0.4)
    r, took = tick(cli, journal)
    failed(r, "the server took more than 1 s in all to answer this session", "stays owed")
    assert len(smtp.received) == 2 and not any(line.startswith(b"MAIL")
                                               for line in smtp.transcript)
    assert took < 10, took


# ---------------------------------------------------------------- a flood of strangers' mail

def searching_from(imap) -> None:
    """The server's SEARCH as IMAP's: UNSEEN, with the FROM terms of the command (any of
    them, a part of the From header in any case) when it names some."""
    import re

    def search(c, tag):
        asked = [a.lower() for a in re.findall(rb'FROM "([^"]*)"', imap.transcript[-1])]
        uids = [u for u, raw in imap.messages.items() if u not in imap.seen and
                (not asked or any(a in raw.split(b"\r\n\r\n")[0].lower() for a in asked))]
        c.send(b"* SEARCH " + " ".join(uids).encode() + b"\r\n" + tag + b" OK done\r\n")

    imap.search = search


def test_a_players_orders_behind_a_flood_of_strangers_mail_are_read_at_the_next_pass(
        route, cli):
    """A stranger's 120 messages (the same one again and again), then the German's orders:
    a pass read the 50 oldest, and his orders waited behind the flood for three passes (for
    a hundred, behind 5,000). His address's messages are asked for first and read first."""
    journal, keys, imap, _ = route
    flood = b"From: crowd@bureau.example\r\nSubject: win\r\n\r\nhello\r\n"
    imap.messages.update({str(i): flood for i in range(1, 121)})
    imap.messages["121"] = order_mail(ADDRESSES["german"], keys["german"], "<o1@example.org>")
    searching_from(imap)
    n = len(records(journal))
    r, _ = tick(cli, journal)
    assert r.exit_code == 0, r.stderr
    assert len(records(journal)) == n + 1, r.stdout
    read = bodies(imap)
    assert read[0] == "121" and len(read) == 50, read
    assert "71 more unread messages" in r.stdout, r.stdout


# ---------------------------------------------------------------- a server left to rest

def _now_plus(monkeypatch, minutes: float) -> None:
    """The commands' clock, `minutes` after the test's first moment (the records' times
    go on from the opening pass's)."""
    from datetime import UTC, datetime, timedelta

    from commandclock import at

    from referee.base.clock import NOW_VARIABLE

    first = getattr(_now_plus, "first", None)
    if first is None or minutes == 0:
        first = _now_plus.first = datetime.now(UTC).replace(microsecond=0)
    monkeypatch.setenv(NOW_VARIABLE, at(first + timedelta(minutes=minutes)))


def test_an_imap_server_that_stalled_a_session_rests_and_no_pass_waits_on_it(route, cli,
                                                                            monkeypatch):
    """A server that kept its session waiting and then failed held every pass that long
    again, and the other games of the folder behind it. It rests (breaker.py): five
    minutes, then ten after its next such failure; while it rests no pass connects to it,
    and each says so and when it is tried again; a session that ends well mends it."""
    from referee.mail import breaker

    journal, _, imap, _ = route
    monkeypatch.setattr(wire, "SESSION_SECONDS", 1.0, raising=False)
    monkeypatch.setattr(breaker, "STALL_SECONDS", 0.5)
    _now_plus(monkeypatch, 0)
    normal = imap.talk
    answering_late(imap, 0.4)
    r, _ = tick(cli, journal)
    failed(r, "the server took more than 1 s in all to answer this session")
    tried = imap.connections
    for minutes in (0, 4):                      # resting: no connection, the pass says so
        _now_plus(monkeypatch, minutes)
        r, took = tick(cli, journal)
        failed(r, "not tried now: it kept a session waiting", "it is tried again from",
               "no mail was read", "and failed (",
               "the server took more than 1 s in all to answer this session) at")
        assert imap.connections == tried and took < 5, (imap.connections, took)
    _now_plus(monkeypatch, 6)                   # rested: tried, stalls again, rests 10 min
    r, _ = tick(cli, journal)
    failed(r, "the server took more than 1 s in all")
    assert imap.connections == tried + 1
    tried = imap.connections
    _now_plus(monkeypatch, 15)
    assert "not tried now" in problem_text(tick(cli, journal)[0]) and imap.connections == tried
    _now_plus(monkeypatch, 17)
    imap.talk = normal                          # mended: it answers in time again
    r, _ = tick(cli, journal)
    assert r.exit_code == 0 and imap.connections == tried + 1, r.stderr
    _now_plus(monkeypatch, 18)
    answering_late(imap, 0.4)                   # a new failure after a mend rests 5 min
    failed(tick(cli, journal)[0], "the server took more than 1 s in all")
    _now_plus(monkeypatch, 24)
    failed(tick(cli, journal)[0], "the server took more than 1 s in all")
    assert imap.connections == tried + 3


def test_a_smtp_server_that_stalled_one_game_s_session_is_not_tried_for_the_next(
        route, cli, monkeypatch, tmp_path):
    """Each game's mail goes out in a session of its own: a stalled server the whole
    folder sends through held every busy game that long, one after the other. After the
    first session it stalled, the other games' mails stay owed without a connection."""
    from referee.mail import breaker

    journal, keys, imap, smtp = route
    settings(imap, smtp, "[passes]\nworkers = 1\n")
    for game_id in ("beta", "gamma"):           # their opening reports owed, same route
        new_game(cli, journal.parent, game_id, None, "--mail-in",
                 f"imap://{USER}@{HOST}:{imap.port}/INBOX", "--mail-out",
                 f"smtp://{USER}@{HOST}:{smtp.port}")
    monkeypatch.setattr(wire, "SESSION_SECONDS", 1.0, raising=False)
    monkeypatch.setattr(breaker, "STALL_SECONDS", 0.5)
    _now_plus(monkeypatch, 0)
    answering_late(smtp, 0.4)
    before = smtp.connections
    r, took = tick(cli, journal.parent)
    assert r.exit_code == 3, r.stderr
    assert smtp.connections == before + 1, smtp.connections
    assert "not tried now: it kept a session waiting" in r.stderr + r.stdout, r.stderr
    assert took < 10, took


def test_a_rest_nobody_signed_or_too_long_is_no_rest(monkeypatch, tmp_path):
    """The rests are kept signed in the referee's home: a planted file, or a record resting
    longer than an hour from now, leaves the server to be tried."""
    from datetime import UTC, datetime, timedelta

    from referee.mail import breaker
    from referee.store import home

    monkeypatch.setenv("REFEREE_HOME", str(tmp_path / "home"))
    home.key(create=True)
    key = breaker.key_of("imap", "Mail.Example.org", 993)
    breaker.ended(key, 61.0, failed=True)
    assert "tried again from" in (breaker.resting(key) or ""), breaker.resting(key)
    path = breaker._file(key)
    path.write_text('{"key": "' + key + '", "until": 9e9, "at": 0, "waited": 1, '
                    '"strikes": 1}\n')
    assert breaker.resting(key) is None                      # planted: not signed
    moment = datetime.now(UTC)
    home.write_signed(path, {"key": key, "at": moment.timestamp(), "waited": 61.0,
                             "strikes": 1, "until": (moment + timedelta(hours=9)).timestamp()})
    assert breaker.resting(key) is None                      # longer than any rest
    breaker.ended(key, 0.2, failed=False)
    assert not path.exists()


def test_the_referee_s_own_fault_after_a_slow_session_rests_no_server(route, cli,
                                                                       monkeypatch):
    """A session with a slow server that answered every command, ended by the referee's
    own work failing (its home full, a lock it cannot take): the server did not fail, and
    the next pass reads from it (it rested, and the game's mail went unread, before)."""
    from referee.base.errors import StorageError
    from referee.mail import breaker
    from referee.mail import tick as tickmod

    journal, _, imap, _ = route
    monkeypatch.setattr(breaker, "STALL_SECONDS", 0.5)
    _now_plus(monkeypatch, 0)
    answering_late(imap, 0.3)

    def home_full(*args, **kwargs):
        raise StorageError("the referee's home is full")

    keep = tickmod.keep_unclaimed
    monkeypatch.setattr(tickmod, "keep_unclaimed", home_full)
    failed(tick(cli, journal)[0], "the referee's home is full")
    monkeypatch.setattr(tickmod, "keep_unclaimed", keep)
    tried = imap.connections
    r, _ = tick(cli, journal)
    assert "not tried now" not in r.stdout + r.stderr and imap.connections == tried + 1, \
        r.output


def test_a_search_answer_of_two_hundred_thousand_unseen_messages_is_read(route, cli,
                                                                          monkeypatch):
    """A stranger's 200,000 messages make the answer to UID SEARCH one line of 1.3 MB:
    the standard library refuses lines over 1,000,000 bytes, so every pass failed and the
    game's mail was never read again. The line is bounded by the session's allowance
    instead, and the German's orders, read first as a player's, are applied. The server
    answers at once; the line is long: the command's time bound is the referee's own again
    (the route's 1 s is for the tests of a slow server), so that a busy machine reading
    1.3 MB is not taken for one."""
    journal, keys, imap, smtp = route
    monkeypatch.setattr(wire, "COMMAND_SECONDS", COMMAND_SECONDS)
    settings(imap, smtp, "[reading]\nmessages = 5\n")
    flood = b"From: crowd@bureau.example\r\nSubject: win\r\n\r\nhello\r\n"
    imap.messages.update({str(i): flood for i in range(1, 200_001)})
    imap.messages["200001"] = order_mail(ADDRESSES["german"], keys["german"],
                                         "<o1@example.org>")
    searching_from(imap)
    n = len(records(journal))
    r, _ = tick(cli, journal)
    assert "got more than" not in r.stdout + r.stderr, r.output
    assert len(records(journal)) == n + 1, (r.stdout, r.stderr)
