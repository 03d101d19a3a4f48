"""What players type and their mail systems add, read as they meant it, and nothing they send
echoed back without bound.

- An order key is read as Crockford's base32: any case, O for 0, I or L for 1, with or
  without dashes or spaces between the groups; a real character wrong is still refused.
- What the referee echoes of an order line (the reply, the inbox's log line, the command
  line's error) is cut with '…' past errors.QUOTE_LIMIT, which keeps every real order whole.
- Only the referee's own tag in a subject, `[referee GAMEID]` (or an earlier version's
  `[referee GAMEID #N]`, which these tests send), names a game: `[EXT]`, `[2nd-try]` or a
  mailing list's tag, before or after it, change nothing.
- An address given to `new --player` or `players --set` that holds a control, invisible or
  direction-changing character is refused there, in one line, and nothing is written.

The game is tests/test_hostile_mail.py's: game id `mailtest`, a fixed secret, so the order
keys are known.
"""

from __future__ import annotations

import email
import email.policy
import json
from pathlib import Path

import pytest
from flowtext import written
from mailkinds import headline
from memorypeak import peak_of
from test_hostile_mail import (
    GAME,
    KEYS,
    SECRET,
    assert_outbox_safe,
    eml,
    handled,
    mail,
    new_game,
    not_applied_reply,
    records,
)

from referee.base.errors import QUOTE_LIMIT
from referee.base.glyphs import disguising
from referee.engine.intake import MAX_ORDER
from referee.mail.claims import claimant
from referee.mail.inbox import Outcome
from referee.mail.refusal import refusal_text
from referee.mail.tick import Game
from referee.store.dice import write_secret
from referee.store.players import compact, order_key

CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


@pytest.fixture
def journal(tmp_path, cli) -> Path:
    return new_game(cli, tmp_path / "game")


def by_hand(key: str) -> str:
    """key as a player copies it from paper: lower case, spaces for dashes, O for 0 and I
    and L by turns for 1."""
    out, ones = [], 0
    for ch in key.lower().replace("-", " "):
        if ch == "0":
            ch = "o"
        elif ch == "1":
            ch, ones = "li"[ones % 2], ones + 1
        out.append(ch)
    return "".join(out)


def keys_now(cli, journal: Path) -> dict[str, str]:
    r = cli("players", journal, "--keys", "--format", "json")
    assert r.exit_code == 0, r.output
    return {p["side"]: p["key"] for p in json.loads(r.stdout)["players"] if p.get("key")}


def flat(text: str) -> str:
    return " ".join(text.split())


def body_of(m) -> str:
    return written(m.get_body(preferencelist=("plain",)).get_content())


def refusal_file(outbox: Path) -> Path:
    """The one 'not applied' mail of the outbox, as written."""
    (found,) = [p for p in outbox.iterdir() if "not applied" in headline(
        email.message_from_bytes(p.read_bytes(), policy=email.policy.default))]
    return found


# ---------------------------------------------------------------- order keys

def test_keys_are_made_of_crockfords_signs_only():
    """No I, L, O or U in any key: nothing a reader may take for another sign."""
    signs = {ch for n in range(200) for side in ("german", "entente")
             for ch in order_key(SECRET, GAME, side, n).replace("-", "")}
    assert signs <= set(CROCKFORD) and not signs & set("ILOU")


@pytest.mark.parametrize("typed", [
    "AZM4-6CTQ-KFW1", "azm4-6ctq-kfw1", "azm4 6ctq kfwl", "AZM4 6CTQ KFWI", "azm46ctqkfwi",
    " azm4 - 6ctq - kfwL ",
])
def test_a_key_is_read_as_crockfords_base32(typed):
    assert compact(typed) == compact("AZM4-6CTQ-KFW1") == "AZM46CTQKFW1"


def test_o_is_read_as_zero_and_a_real_sign_still_counts():
    assert compact("NV3V-XVMD-SKOY") == compact("nv3v xvmd sk0y") == "NV3VXVMDSK0Y"
    assert compact("AZM4-6CTQ-KFW2") != compact("AZM4-6CTQ-KFW1")
    assert compact("AZM4-6CTQ-KFWU") != compact("AZM4-6CTQ-KFW1")    # U is no sign of a key


@pytest.mark.parametrize("text, kept", [
    ("straße", "STRASSE"),              # a letter whose capital is two letters
    ("\u0131\u017f", "1S"),              # dotless i and long s: their capitals are I and S
    ("ＡＢ１２", ""),                     # full-width signs are other signs: dropped
    ("a\udcffb", "AB"),                 # a byte that is no text (kept as a lone surrogate)
    ("a\ud800b", "AB"),                 # a lone surrogate no byte is kept as
    ("o-i-l O I L\n", "011011"),
    ("", ""),
])
def test_compact_keeps_capital_ascii_letters_and_digits_only(text, kept):
    """What compact keeps of any text: its capitals, then A to Z and 0 to 9 only."""
    assert compact(text) == kept


def compacted_length(size: str) -> int:
    """The length of a key-shaped text of `size` characters, compacted."""
    return len(compact("ab-" * (int(size) // 3)))


def test_compacting_a_whole_message_holds_a_few_copies_of_it_at_most():
    """A message is compacted whole to look for a key in it: its peak is a few flat copies
    of the text, not a piece per run of letters (once 25 times the text, for a text with
    a dash every two letters)."""
    peak, length = peak_of("test_mail_input:compacted_length", "3000000")
    assert length == 2_000_000
    assert peak < 5 * 3_000_000, peak


def test_each_kind_of_header_is_one_class_however_many_mails_are_read():
    """The email package makes a new class at every header it reads, which only the
    garbage collector takes back: mails are read with one class per kind of header, and
    their headers read as the package reads them."""
    from referee.mail.message import parse_message

    raws = [mail(subject=f"orders {i}", headers=f"X-Note-{i}: {i}\n") for i in range(3)]
    read = [parse_message(raw) for raw in raws]
    for name in ("Subject", "From", "Date", "Message-ID"):
        assert len({type(msg[name]) for msg in read}) == 1, name
        assert [str(msg[name]) for msg in read] == [
            str(email.message_from_bytes(raw, policy=email.policy.default)[name])
            for raw in raws]
    assert len({type(msg[f"X-Note-{i}"]) for i, msg in enumerate(read)}) == 1   # any name


@pytest.mark.parametrize("alone", [False, True], ids=["order-key-line", "key-alone-on-a-line"])
def test_a_key_typed_by_hand_is_the_key(journal, cli, tmp_path, alone):
    """The German's key with I and L for 1, lower case, spaces for dashes: applied, and the
    key alone on a line is not read as an order."""
    typed = by_hand(KEYS["german"])
    assert typed == "94yl kqgc ided" and compact(typed) == compact(KEYS["german"])
    line = typed if alone else f"Order key: {typed}"
    raw = mail(body=f"play offensive\n\n{line}\n", subject="my orders")
    out = handled(cli, journal, eml(tmp_path / "in", raw), outbox=tmp_path / "out")
    assert [(o["status"], o["side"], o["records"]) for o in out] == \
        [("applied", "german", [3])], out
    assert records(journal)[3]["order"] == "play offensive"


def test_a_key_with_a_zero_typed_as_o(journal, cli, tmp_path):
    """The German's second key holds a 0; typed with an O it is still his key."""
    r = cli("players", journal, "--new-key", "german")
    assert r.exit_code == 0, r.output
    key = keys_now(cli, journal)["german"]
    assert "0" in key, key
    raw = mail(body=f"play offensive\n\nOrder key: {by_hand(key)}\n", subject="orders")
    out = handled(cli, journal, eml(tmp_path / "in", raw), outbox=tmp_path / "out")
    assert [(o["status"], o["side"]) for o in out] == [("applied", "german")], out


@pytest.mark.parametrize("wrong", ["94yl kqgc idee", "94yl kqgc idcd", "94yu kqgc ided"])
def test_a_key_wrong_in_a_real_sign_is_refused(journal, cli, tmp_path, wrong):
    before = journal.read_bytes()
    raw = mail(body=f"play offensive\n\nOrder key: {wrong}\n")
    out = handled(cli, journal, eml(tmp_path / "in", raw), outbox=tmp_path / "out")
    assert [(o["status"], o["side"]) for o in out] == [("rejected", None)], out
    assert journal.read_bytes() == before


def test_a_key_typed_by_hand_claims_its_game_in_a_shared_mailbox(tmp_path):
    """tick: a message with no tag goes to the game whose key it carries, typed by hand."""
    ours = Game(tmp_path / "a.jsonl", GAME, "h", None, None, [KEYS["german"]])
    other = Game(tmp_path / "b.jsonl", "other", "h", None, None, [KEYS["entente"]])
    raw = mail(body=f"play offensive\n\nOrder key: {by_hand(KEYS['german'])}\n",
               subject="orders")
    assert claimant(raw, [other, ours]) is ours


# ---------------------------------------------------------------- echoes cut

HUGE = 900_000


@pytest.mark.parametrize("line", [
    "move ge-1 " + "x" * HUGE,                  # an order that cannot be read
    "x" * HUGE,                                 # no verb at all
    "standing: " + "x" * HUGE,                  # a standing order that cannot be read
    "extend " + "x" * HUGE,                     # more time, but no duration
    "discard " + "poison_gas " * (HUGE // 11),  # read, but no answer to the decision now
    "play offensive\nmove ge-" + "1" * HUGE + " liege",   # read, but no such unit
], ids=["order", "no-verb", "standing", "extend", "discard", "unit"])
def test_a_900_kb_line_is_not_echoed_back(journal, cli, tmp_path, line, data):
    """One line of 900 KB: refused, nothing applied; the reply, the outcome's reason and the
    log line quote its start with '…', a few KB in all, whichever check refuses it. A line
    that reads as no order at all is prose: the mail holds no orders, and the reply names
    the line, cut the same way."""
    prose = line.startswith("x")
    before = journal.read_bytes()
    raw = mail(body=f"{line}\n\nOrder key: {KEYS['german']}\n")
    assert len(raw) > HUGE
    out = handled(cli, journal, eml(tmp_path / "in", raw), outbox=tmp_path / "out")
    assert [(o["status"], o["side"]) for o in out] == [("rejected", "german")], out
    assert journal.read_bytes() == before
    reason = out[0]["reason"]
    assert len(reason) < 5 * QUOTE_LIMIT and ("…" in reason or prose), (len(reason),
                                                                        reason[:300])
    assert not prose or reason == "no orders found in the message", reason
    reply = not_applied_reply(tmp_path / "out", "german")
    size = refusal_file(tmp_path / "out").stat().st_size
    assert size < 12_000, size      # the answer and its report, never the 900 KB line
    assert "…" in body_of(reply) and line[-QUOTE_LIMIT - 1:] not in body_of(reply)
    # Every line of every mail within 72 columns, the long word cut with '…'; the reply
    # quotes the line once, and so does the log line, cut short.
    assert_outbox_safe(tmp_path / "out", data)
    start = line.split("\n")[-1][:40]
    refusal = body_of(reply).split("Applied:")[0]
    assert flat(refusal).count(flat(start)) <= 1, refusal[:600]
    raw = mail(body=f"{line}\n\nOrder key: {KEYS['german']}\n", mid="<again@potsdam.example>")
    r = cli("inbox", journal, eml(tmp_path / "again", raw))
    assert r.exit_code == 0, r.stderr[:300]
    (log, _) = r.stdout.splitlines()
    assert log.startswith("rejected") and len(log) < 2 * QUOTE_LIMIT and ("…" in log or prose), \
        (len(log), log[:300])
    assert log.count(start) <= 1, log
    assert journal.read_bytes() == before


def test_a_reply_owed_from_an_older_ledger_is_cut_too():
    """A refusal the ledger kept whole (before echoes were cut) is cut when it is written."""
    out = Outcome("", "<m@x>", "a@example.org", "rejected", "", "german", line=1,
                  text="move ge-1 " + "x" * HUGE, why="no area is called that", before=0)
    text = refusal_text(out)
    assert len(text) < 2 * QUOTE_LIMIT and "…" in text, len(text)


def test_a_reply_names_every_line_that_reads_as_no_order(journal, cli, tmp_path):
    """The first line refused stops the mail (all or nothing). The later lines that cannot be
    read as any order are named in the same reply, so one mail mends them all; a later line
    that reads, its legality waiting on those before it, is not."""
    body = (f"play ofensive\nmove ge-1 luxembourg\nmvoe ge-2 liege\nplay surprize_attack\n"
            f"\nOrder key: {KEYS['german']}\n")
    before = journal.read_bytes()
    r = cli("inbox", journal, eml(tmp_path / "in", mail(body=body)), "--outbox",
            tmp_path / "out")
    assert r.exit_code == 0, r.stderr
    assert journal.read_bytes() == before
    text = " ".join(body_of(email.message_from_bytes(
        refusal_file(tmp_path / "out").read_bytes(), policy=email.policy.default)).split())
    assert "line 1 of your orders failed. The line: play ofensive Why: it cannot be read at " \
        "column 6:" in text, text
    assert "Line 3 ('mvoe ge-2 liege') cannot be read either" in text
    assert "Line 4 ('play surprize_attack') cannot be read either" in text
    assert "did you mean move? Line 4" in text, text
    assert text.count("no card is called 'surprize_attack'.") == 1, text
    assert "Line 2" not in text, text


def test_a_remark_read_as_an_order_is_told_why(journal, cli, tmp_path):
    """'Done with the battle.' above the orders begins with an order's word: read as an
    order, it refuses the mail, and the reply says that is why and how a remark is not;
    a misspelt order gets no such word."""
    body = f"Done with the battle.\nplay ofensive\n\nOrder key: {KEYS['german']}\n"
    r = cli("inbox", journal, eml(tmp_path / "in", mail(body=body)), "--outbox",
            tmp_path / "out", "--format", "json")
    (out,) = json.loads(r.stdout)["messages"]
    assert out["status"] == "rejected" and "line 1" in out["reason"], out
    text = " ".join(body_of(email.message_from_bytes(
        refusal_file(tmp_path / "out").read_bytes(), policy=email.policy.default)).split())
    assert "begins with an order's word, 'Done', is read as an order; begin a remark with " \
        "another word" in text, text
    assert text.count("begin a remark") == 1          # not for 'play ofensive', named too


@pytest.mark.parametrize("line", ["move ge-1 lige.", "end turn now.", "pass ge-1 liege."])
def test_a_misspelt_order_ended_as_a_sentence_is_not_called_a_remark(journal, cli, tmp_path,
                                                                     line):
    """An order line a player ends with a full stop, misspelt or with a word or a unit too
    many, is refused for what it is: no word of remarks."""
    body = f"{line}\n\nOrder key: {KEYS['german']}\n"
    r = cli("inbox", journal, eml(tmp_path / "in", mail(body=body)), "--outbox",
            tmp_path / "out")
    assert r.exit_code == 0, r.stderr
    text = " ".join(body_of(email.message_from_bytes(
        refusal_file(tmp_path / "out").read_bytes(), policy=email.policy.default)).split())
    assert f"The line: {line} Why: " in text and "cannot be read at column" in text, text
    assert "begin a remark" not in text, text


@pytest.mark.parametrize("why, said", [
    ("no card is called 'ofensive'; did you mean offensive?", "did you mean offensive?"),
    ("the plan is complete (rule 2.0 I).", "complete (rule 2.0 I)."),
    ("the plan is complete (rule 2.0 I)", "complete (rule 2.0 I)."),
])
def test_a_refusal_ends_its_reason_as_a_sentence(why, said):
    """'Why:' ends with one full stop, or with the question a 'did you mean' asks: never
    '?.'."""
    out = Outcome("", "<m@x>", "a@example.org", "rejected", "", "german", line=1,
                  text="play ofensive", why=why, before=0)
    text = " ".join(refusal_text(out).split())
    assert f"Why: {why.split(';')[0].split(' (')[0]}" in text and f"{said} Applied:" in text, \
        text


# The longest order random play met (production, seed 2): a discard of eight cards down to
# the card limit (7.1), 150 characters; every real order is shorter than QUOTE_LIMIT.
LONG_ORDER = ("discard limited_offensive limited_offensive tout_le_monde poison_gas "
              "advanced_artillery_barrage bad_weather strategic_reserves entente_military_crisis")


@pytest.mark.parametrize("order", [LONG_ORDER, LONG_ORDER + "s"],
                         ids=["not-now", "misspelt-card"])
def test_the_command_line_quotes_a_real_order_whole(journal, cli, order):
    """A discard of eight cards refused (not the decision now; a card misspelt): the error
    line quotes it whole, as the player wrote it."""
    assert len(LONG_ORDER) == 150
    before = journal.read_bytes()
    r = cli("order", journal, "--as", "german", order)
    assert r.exit_code == 1, r.output
    (line,) = r.stderr.splitlines()
    assert line.startswith(f"referee: order {order!r} rejected: '") and \
        "' does not answer the decision now" in line, line
    assert order == LONG_ORDER or "it cannot be read at column 128: no card is called " \
        "'entente_military_crisiss'" in line, line
    assert "…" not in line and "..." not in line, line
    assert journal.read_bytes() == before


ATOMIC = "; --atomic: none of the 2 orders was applied"


# The longest line an order may be (engine/intake.py): what each check says of one is cut.
LONG = MAX_ORDER - 40


@pytest.mark.parametrize("orders, end", [
    (["move ge-1 " + "x" * HUGE], "an order is at most 1000 characters; this line has 900010"),
    (["move ge-1 liege", "x" * HUGE, "y" * HUGE], "(900000 characters)"),   # not applied
    (["discard " + "poison_gas " * (LONG // 11)], "expected: play, pass"),
    (["--atomic", "play offensive", "move ge-" + "1" * LONG + " liege"],
     "in play (rule 1.2)" + ATOMIC),
    # What the rule says names the unit as typed, unquoted: the reason itself is cut.
    (["--atomic", "play offensive", "move ge-1 liege taking ge-" + "3" * LONG],
     "… (rule 4.3)" + ATOMIC),
], ids=["too-long", "not-applied", "no-answer-now", "no-such-unit", "taking"])
def test_the_command_line_cuts_a_huge_order(journal, cli, orders, end):
    """One line on stderr, of bounded length, whatever the orders' length and whichever
    check refuses them, its end (why, the rule) kept where the echo is cut in the middle;
    nothing written."""
    before = journal.read_bytes()
    r = cli("order", journal, "--as", "german", *orders)
    assert r.exit_code == 1, r.output[:300]
    (line,) = r.stderr.splitlines()
    assert line.startswith("referee: ") and "…" in line and "Traceback" not in r.output
    assert len(line) < 5 * QUOTE_LIMIT and line.endswith(end), (len(line), line[-300:])
    assert journal.read_bytes() == before


# ---------------------------------------------------------------- subject tags

TAG = f"[referee {GAME} #2]"


@pytest.mark.parametrize("subject, plain", [
    (f"[EXT] Re: {TAG} german report, SUMMER 1914", f"Re: {TAG} german report, SUMMER 1914"),
    (f"Re: {TAG} [2nd-try] german report", f"Re: {TAG} german report"),
    (f"[2nd-try] Re: {TAG} german report", f"Re: {TAG} german report"),
    (f"[pbem-2024] [SPAM?] Re: {TAG} german report", f"Re: {TAG} german report"),
    ("[2nd-try] orders", "orders"),
    ("[ttlm-1914-deadbeef] orders", "orders"),
    (f"[2nd-try] Re: [referee {GAME} #999999999] german report",
     f"Re: [referee {GAME} #999999999] german report"),
], ids=["ext-before", "after-the-tag", "before-the-tag", "list-and-spam", "no-tag",
        "id-shaped-bracket", "stale-tag-still-read"])
def test_a_bracket_of_the_sender_changes_nothing(cli, tmp_path, subject, plain):
    """The same orders under the subject with and without the sender's brackets, each to a
    game of its own: handled alike."""
    seen = []
    for name, subj in (("noisy", subject), ("plain", plain)):
        journal = new_game(cli, tmp_path / name)
        # (Two games of one id, secret and second share a ledger: a Message-ID each.)
        raw = mail(subject=subj, mid=f"<{name}@potsdam.example.org>")
        out = handled(cli, journal, eml(tmp_path / f"in-{name}", raw),
                      outbox=tmp_path / f"out-{name}")
        seen.append([(o["status"], o["side"], o["records"]) for o in out])
    assert seen[0] == seen[1], seen
    assert seen[0][0][0] == ("stale" if "999999999" in plain else "applied"), seen


def test_another_games_tag_behind_a_bracket_is_still_another_game(journal, cli, tmp_path):
    before = journal.read_bytes()
    raw = mail(subject="[EXT] Re: [referee othergame #3] [2nd-try] german report")
    out = handled(cli, journal, eml(tmp_path / "in", raw), outbox=tmp_path / "out")
    assert [o["status"] for o in out] == ["skipped"] and "othergame" in out[0]["reason"], out
    assert journal.read_bytes() == before


# ---------------------------------------------------------------- addresses

HIDING = ["\x1b", "\n", "\x7f", "\x00", "\x85", "\u202e", "\u2066", "\u200f", "\u200b",
          "\ufeff", "\u00ad", "\U000e0041", "\u034f", "\ufe0f"]
HIDING_IDS = [f"U+{ord(c):04X}" for c in HIDING]


def test_the_characters_tried_are_those_the_referee_never_shows():
    assert all(disguising(c) or c == "\n" for c in HIDING)


def refused_in_one_line(r, option: str, ch: str) -> None:
    assert r.exit_code == 2, (r.exit_code, r.output)
    assert "Traceback" not in r.output
    (line,) = r.stderr.splitlines()
    assert line.startswith(f"referee: {option} ") and \
        "control or direction-changing character" in line, line
    assert ch not in line and f"U+{ord(ch):04X}" in line, line
    assert ascii(ch)[1:-1] in line, line              # the character quoted escaped


@pytest.mark.parametrize("ch", HIDING, ids=HIDING_IDS)
@pytest.mark.parametrize("who", ["german", "observer"])
def test_new_refuses_an_address_that_hides_a_character(cli, tmp_path, ch, who):
    secret = tmp_path / "fixed.secret"
    write_secret(secret, SECRET)
    journal = tmp_path / "g.jsonl"
    r = cli("new", journal, "--scenario", "1914", "--secret-file", secret,
            "--player", f"{who}=kai{ch}ser@example.org", "--player", "entente=j@example.net")
    refused_in_one_line(r, "--player", ch)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fixed.secret"]


@pytest.mark.parametrize("ch", HIDING, ids=HIDING_IDS)
@pytest.mark.parametrize("who", ["german", "moderator", "observer"])
def test_players_refuses_an_address_that_hides_a_character(journal, cli, ch, who):
    before = journal.read_bytes()
    r = cli("players", journal, "--set", f"{who}=kaiser@example.org{ch}")
    refused_in_one_line(r, "--set", ch)
    assert journal.read_bytes() == before


def test_an_address_with_letters_beyond_ascii_is_taken(journal, cli, tmp_path):
    """jörg@example.de is no disguise (how such addresses are sent is another matter)."""
    r = cli("players", journal, "--set", "entente=jörg@example.de")
    assert r.exit_code == 0, r.output
    assert "jörg@example.de" in r.stdout
    secret = tmp_path / "other.secret"
    write_secret(secret, SECRET)
    r = cli("new", tmp_path / "n.jsonl", "--scenario", "1914", "--secret-file", secret,
            "--player", "german=jörg@example.de")
    assert r.exit_code == 0, r.output


# ---------------------------------------------------------------- a mail sent again

def test_a_mail_sent_again_with_a_new_message_id_is_applied_once(journal, cli, tmp_path):
    """The German proposes an armistice (legal at any time, 3.2) and the Entente refuses;
    the German's mail, sent again word for word under a new Message-ID (a replay), is not
    applied a second time, and he is told why."""
    body = f"propose armistice\n\nOrder key: {KEYS['german']}\n"
    first = handled(cli, journal, eml(tmp_path / "a", mail(body=body, mid="<p1@x.org>")),
                    outbox=tmp_path / "out1")
    assert [m["status"] for m in first] == ["applied"]
    (seq,) = first[0]["records"]
    refusal = mail("joffre@example.net", f"refuse armistice\n\nOrder key: {KEYS['entente']}\n",
                   mid="<r1@x.net>")
    assert handled(cli, journal, eml(tmp_path / "b", refusal),
                   outbox=tmp_path / "out2")[0]["status"] == "applied"
    before = journal.read_bytes()
    again = handled(cli, journal, eml(tmp_path / "c", mail(body=body, mid="<p2@x.org>")),
                    outbox=tmp_path / "out3")
    assert [m["status"] for m in again] == ["rejected"], again
    assert f"which was applied already (record {seq})" in again[0]["reason"]
    assert journal.read_bytes() == before
    (answer,) = [m for m in (tmp_path / "out3").iterdir()]
    said = " ".join(email.message_from_bytes(answer.read_bytes(), policy=email.policy.default)
                    .get_body(("plain",)).get_content().split())
    assert f"which was applied already (record {seq})" in said, said
    # The same orders in a message of their own words are taken.
    fresh = handled(cli, journal, eml(tmp_path / "d", mail(
        body=f"propose armistice\nonce more\n\nOrder key: {KEYS['german']}\n", mid="<p3@x.org>")),
        outbox=tmp_path / "out4")
    assert fresh[0]["status"] in ("applied", "rejected") and "applied already" not in \
        fresh[0]["reason"]


def test_a_pass_reads_a_local_mailbox_one_message_at_a_time_and_parses_none(tmp_path):
    """tick reads a local mailbox's messages in Date order, one at a time: each one's bytes
    are dropped when the next is read, and none is kept parsed (250 mails of a megabyte took
    a pass 592 MB when each was held, parsed; 322 MB when each was held). The game that
    takes a message parses it."""
    from referee.mail.mailboxes import Mailboxes
    from referee.mail.tick import _LocalReading

    box = tmp_path / "box"
    for sub in ("new", "cur", "tmp"):
        (box / sub).mkdir(parents=True)
    for n in range(3):
        (box / "new" / f"{n}.eml").write_bytes(mail(body=f"hello {n}\n"))
    boxes, reading = Mailboxes([box]), _LocalReading()
    surveyed = boxes.survey
    listed = []
    boxes.survey = lambda: listed.extend(surveyed()) or listed
    for n, f in enumerate(reading.found(boxes)):
        assert f.raw.endswith(f"hello {n}\n".encode())
        assert [bool(m.raw) for m in listed] == [k == n for k in range(3)]
        assert [m.msg for m in listed] == [None] * 3
    assert [m.raw for m in listed] == [b""] * 3 and [m.subject for m in listed] == [""] * 3
    assert reading.unread == [] and boxes.passed == []
    assert sorted(reading.prints) == [f"{box}:new/{n}.eml" for n in range(3)]
