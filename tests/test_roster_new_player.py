"""`players --set SIDE=ADDRESS` hands a side to a new address, and with it a new order key:
the old key went in every mail to the old address, and an order needs only that key and a
From anyone can write, so the player who had the side must not keep its orders in hand."""

from __future__ import annotations

import json

import pytest
from mailboxes import write_maildir
from test_deadlines import ADDRESSES, KEYS, mails, new_game, player_mail, text_of

import referee.mail.inbox as inbox_module
from referee.base.errors import StorageError
from referee.mail.inbox import inbox as mail_inbox
from referee.mail.inbox import players as roster_of
from referee.store.players import roster_body


def _keys(journal) -> dict[str, str]:
    listed, _, _ = roster_of(journal, [], [], True)
    return {p["side"]: p["key"] for p in listed if "key" in p}


def _forged(tmp_path, sender: str, key: str):
    """A Maildir with one 'pass' from sender, carrying key."""
    raw = (f"From: {sender}\nTo: {ADDRESSES['moderator']}\nSubject: orders\n"
           f"Date: Tue, 24 Nov 2026 10:05:00 +0000\nMessage-ID: <forged@example.org>\n"
           f"\npass\n\nOrder key: {key}\n").encode()
    return write_maildir(tmp_path / "forged", [raw])


def test_a_side_handed_to_a_new_address_takes_a_new_key(tmp_path, cli):
    journal = new_game(tmp_path, cli, "via_cli")
    assert _keys(journal)["german"] == KEYS["german"]
    r = cli("players", journal, "--set", "german=newcomer@example.org")
    assert r.exit_code == 0, r.output
    keys = _keys(journal)
    assert keys["german"] != KEYS["german"] and keys["entente"] == KEYS["entente"], keys
    assert "german: a new order key goes with the new address" in r.stdout, r.stdout
    # The old key with the new address in a From anyone can write: refused, nothing applied.
    before = journal.read_bytes()
    outcomes, _ = mail_inbox(journal, [_forged(tmp_path, "newcomer@example.org",
                                               KEYS["german"])], None, with_map=False)
    assert [o.status for o in outcomes] == ["rejected"], outcomes
    assert journal.read_bytes() == before
    # A script reads it too: the sides whose key is new, and only those.
    r = cli("players", journal, "--set", "entente=foch@example.net", "--format", "json")
    assert json.loads(r.stdout)["new_key"] == ["entente"], r.stdout


def test_no_key_changes_for_the_moderator_an_observer_or_the_same_address(tmp_path, cli):
    journal = new_game(tmp_path, cli, "via_cli")
    for given in (("--set", "moderator=umpire@example.org"),
                  ("--set", "observer=press@example.org"),
                  ("--set", f"german={ADDRESSES['german'].upper()}")):
        r = cli("players", journal, *given)
        assert r.exit_code == 0, r.output
        assert _keys(journal) == {s: KEYS[s] for s in ("german", "entente")}, given
        assert "new order key" not in r.stdout, r.stdout


def test_a_side_given_its_first_address_is_told_of_no_key_changed(tmp_path, cli,
                                                                    secret_file):
    journal = tmp_path / "g.jsonl"
    assert cli("new", journal, "--scenario", "1914", "--secret-file", secret_file,
               "--player", "german=hans@example.org").exit_code == 0
    r = cli("players", journal, "--set", "entente=joffre@example.net")
    assert r.exit_code == 0 and "joffre@example.net" in r.stdout, r.output
    assert "new order key" not in r.stdout, r.stdout


def test_a_roster_record_renews_no_key_of_an_address_given_again():
    """roster_body alone: an address passed as it stands (its letters' case aside) keeps its
    side's key; another address renews it."""
    class Salt:
        def salt(self):
            return "00"
    previous = {"german": {"side": "german", "address": "hans@example.org", "key_no": 0}}
    for given, number in (("Hans@Example.org", 0), ("newcomer@example.org", 1)):
        body = roster_body(b"s" * 32, "g", {"german": given}, previous, (), Salt())
        [entry] = body["players"]["data"]["players"]
        assert entry["key_no"] == number, (given, entry)


def test_the_old_address_is_told_it_is_no_longer_registered(tmp_path, cli, clock):
    """The German side handed to a new player: a mail from the address it had, with the
    key it had, is refused, and its answer says why in words that player can act on (his
    address is registered no more), not that he should register a new one."""
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    old = ADDRESSES["german"]
    assert cli("players", journal, "--set", "german=newcomer@example.org").exit_code == 0
    before = journal.read_bytes()
    outcomes, _ = mail_inbox(journal, [player_mail(tmp_path, "german", ["pass"], 1)],
                             tmp_path / "out", with_map=False)
    assert [o.status for o in outcomes] == ["rejected"], outcomes
    assert journal.read_bytes() == before
    [answer] = [m for m in mails(tmp_path / "out") if str(m["To"]).casefold() == old.casefold()]
    said = " ".join(text_of(answer).split())
    assert "no longer registered" in said and "register the new one" not in said, said
    assert "newcomer" not in said, said


def test_the_new_address_is_told_it_plays_the_side_and_the_game_from_its_start(
        tmp_path, cli, clock):
    """Mid-game, the German side handed to a new address: its first mail says so above all
    else and tells the game from its first record, not from the last one mailed to the
    address before; the Entente's next mail does not."""
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    mail_inbox(journal, [player_mail(tmp_path, "german", ["pass"], 1)], tmp_path / "out",
               with_map=False)
    assert cli("standing", journal, "--as", "german", "--add", "no combat cards").exit_code == 0
    assert cli("players", journal, "--set", "german=newcomer@example.org").exit_code == 0
    mail_inbox(journal, [], tmp_path / "later", with_map=False)
    [first] = [text_of(m) for m in mails(tmp_path / "later")
               if str(m["To"]) == "newcomer@example.org"]
    said = " ".join(first.split())
    assert said.startswith("You now play the German side: the moderator registered this "
                           "address for it at record #"), said
    assert "records 1–" in said and "From the start of the game" in first, said
    # The orders the referee gives for the side, sealed by the one who had it, are his now.
    assert "The side's standing orders in force: no combat cards." in said, said
    for m in mails(tmp_path / "later"):
        assert "You now play" not in text_of(m) or str(m["To"]) == "newcomer@example.org"


def _reply_left_owed(tmp_path, cli, monkeypatch):
    """A game whose German mail was refused by a run stopped before writing its reply:
    the journal and the mailbox holding that mail (its reply owed in the ledger)."""
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    box = player_mail(tmp_path, "german", ["play no_such_card"], 1)
    written = inbox_module.write_outbox

    def stopped(*args, **kwargs):
        raise StorageError("--outbox: a mail could not be written")

    monkeypatch.setattr(inbox_module, "write_outbox", stopped)
    with pytest.raises(StorageError):
        mail_inbox(journal, [box], tmp_path / "out", with_map=False)
    monkeypatch.setattr(inbox_module, "write_outbox", written)
    return journal, box


def test_a_reply_still_owed_to_the_old_address_carries_no_key(tmp_path, cli, clock,
                                                              monkeypatch):
    """A refused German mail whose reply was still owed (the run stopped before writing
    it) when the side was handed to a new player: the reply goes to the address the mail
    came from, which is no longer the side's, so it says so and carries neither the
    side's report nor its key, which now goes to the new address alone."""
    journal, box = _reply_left_owed(tmp_path, cli, monkeypatch)
    assert cli("players", journal, "--set", "german=newcomer@example.org").exit_code == 0
    new_key = _keys(journal)["german"]
    mail_inbox(journal, [box], tmp_path / "out", with_map=False)
    sent = {str(m["To"]).casefold(): text_of(m) for m in mails(tmp_path / "out")}
    old = sent[ADDRESSES["german"].casefold()]
    assert "Order key" not in old and new_key not in old and "newcomer" not in old, old
    assert "no longer registered" in " ".join(old.split()), old
    assert f"Order key: {new_key}" in sent["newcomer@example.org"]


def test_an_address_set_away_and_back_between_two_mails_is_no_newcomer(tmp_path, cli, clock):
    """German: set to another address and back before any mail went out: the next mail to
    the German's address is an ordinary report, not a welcome starting from record 1."""
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    mail_inbox(journal, [player_mail(tmp_path, "german", ["pass"], 1)], tmp_path / "out",
               with_map=False)
    for address in ("newcomer@example.org", ADDRESSES["german"]):
        assert cli("players", journal, "--set", f"german={address}").exit_code == 0
    mail_inbox(journal, [], tmp_path / "later", with_map=False)
    said = [text_of(m) for m in mails(tmp_path / "later")
            if str(m["To"]).casefold() == ADDRESSES["german"].casefold()]
    assert said and not any("You now play" in t for t in said), said


def test_a_reply_still_owed_after_the_sides_swap_addresses_says_so(tmp_path, cli, clock,
                                                                   monkeypatch):
    """As above, but the moderator swaps the two sides' addresses: the German's old address
    now plays the Entente. The reply owed to the German's mail says that address no longer
    plays the side it wrote for, outside the Entente's thread, with no report and no key;
    the Entente's own mail to it is the ordinary one."""
    journal, box = _reply_left_owed(tmp_path, cli, monkeypatch)
    assert cli("players", journal, "--set", f"german={ADDRESSES['entente']}", "--set",
               f"entente={ADDRESSES['german']}").exit_code == 0
    mail_inbox(journal, [box], tmp_path / "out", with_map=False)
    to_old = [" ".join(text_of(m).split()) for m in mails(tmp_path / "out")
              if str(m["To"]).casefold() == ADDRESSES["german"].casefold()]
    [answer] = [t for t in to_old if "could not be matched" in t]
    assert "no longer plays the side it was sent for" in answer, answer
    assert "Order key" not in answer and "no longer registered" not in answer, answer
