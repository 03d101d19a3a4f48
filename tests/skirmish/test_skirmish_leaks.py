"""Secrets of a skirmish: the dice secret, the order keys and the players' addresses. The
facts of a test are declared to both sides, so every reader reads the same report; none of
those secrets may be in any output a player or the public reads, nor in any mail but the
address a mail is sent to, the address it comes from and players answer (the moderator's,
as a campaign's), and its reader's own order key (which his reply quotes), which
`skirmish report --as` that reader shows too, and no other. The moderator's `skirmish keys`
is the negative control: the same check must find the keys there."""

from __future__ import annotations

import email
import json
from email.policy import default

from conftest import FIXED_SECRET
from test_skirmish_mail import BRITISH, GERMAN, UMPIRE, mail


def _secrets(keys: dict[str, str]) -> list[str]:
    return [FIXED_SECRET, *keys.values(), BRITISH, GERMAN, UMPIRE]


def _found(text: str, secrets: list[str], allowed: str = "") -> list[str]:
    folded = text.casefold()
    return [s for s in secrets if s.casefold() in folded and s != allowed]


def test_no_output_of_a_skirmish_shows_a_secret(cli, tmp_path, secret_file):
    j = tmp_path / "patrol.jsonl"
    outputs = [cli("new", j, "--game", "skirmish", "--scenario", "patrol", "--secret-file",
                   secret_file, "--player", f"british={BRITISH}", "--player",
                   f"german={GERMAN}", "--player", f"moderator={UMPIRE}").stdout]
    keys = json.loads(cli("skirmish", "keys", j, "--format", "json").stdout)["keys"]
    secrets = _secrets(keys)
    moderator_only = cli("skirmish", "keys", j).stdout
    assert set(_found(moderator_only, secrets)) >= set(keys.values())     # the control
    box = tmp_path / "mail"
    box.mkdir()
    mails = [mail(box, 1, BRITISH, keys["british"], "move B1 mode=stealthy", "done"),
             mail(box, 2, GERMAN, keys["german"], "move G1 mode=stealthy", "done"),
             mail(box, 3, GERMAN, keys["british"], "done")]      # another side's key
    moderators = []                 # inbox tells the moderator who sent what: no key, no secret
    for fmt in ("text", "json"):
        moderators.append(cli("inbox", j, *mails, "--outbox", tmp_path / f"out-{fmt}",
                              "--format", fmt).stdout)
        outputs.append(cli("skirmish", "report", j, "--format", fmt).stdout)
        outputs.append(cli("skirmish", "order", j, "--as", "british", "spot B1 at=G1 "
                           "range=30 light=day state=halted cover=soft", "--format",
                           fmt).stdout)
        outputs.append(cli("verify", j, "--format", fmt).stdout)
    own = []                        # `skirmish report --as` a player: his own key only
    for fmt in ("text", "json"):
        for reader in ("public", "british", "german", "moderator"):
            r = cli("skirmish", "report", j, "--as", reader, "--format", fmt)
            assert r.exit_code == 0, (reader, fmt, r.stderr)
            if reader == "public":
                outputs.append(r.stdout)
            else:
                own.append((reader, r.stdout))
    readers = ("public", "british", "german")
    for fmt in ("text", "json", "markdown", "bbcode"):
        for reader in readers:
            for command in (["status"], ["show"], ["report"], ["log"], ["explain", "1"],
                            ["dice"]):
                if fmt in ("markdown", "bbcode") and command[0] in ("log", "explain", "dice"):
                    continue
                r = cli(command[0], j, *command[1:], "--as", reader, "--format", fmt)
                if command == ["log"] and fmt == "json":     # whole records: the moderator's
                    assert r.exit_code == 2 and "no redacted exports" in r.stderr
                    continue
                assert r.exit_code == 0, (command, fmt, reader, r.stderr)
                outputs.append(r.stdout)
    whole = cli("log", j, "--as", "moderator", "--format", "json").stdout
    assert BRITISH in whole                     # the control: the moderator's log names them
    outputs.append(cli("order", j, "--as", "german", "done", "--format", "json").stdout)
    for text in outputs:
        assert _found(text, secrets) == [], text
    for reader, text in own:
        assert keys[reader] in text, text       # the control: the check would find a key
        assert _found(text, secrets, allowed=keys[reader]) == [], text
    for text in moderators:
        assert _found(text, [FIXED_SECRET, *keys.values()]) == [], text
    sent = list((tmp_path / "out-text").iterdir())     # the json run finds the mails done
    answered = set()
    for p in sent:
        msg = email.message_from_bytes(p.read_bytes(), policy=default)
        body = msg.get_content()
        own = {BRITISH: "british", GERMAN: "german", UMPIRE: "moderator"}[str(msg["To"])]
        assert _found(body, secrets, allowed=keys[own]) == [], body     # his own key only
        if msg["In-Reply-To"]:      # an answer: a keyed mail's with its report and his key
            answered.add(str(msg["In-Reply-To"]))
            keyed = str(msg["In-Reply-To"]) != "<m3@example.org>"
            assert (keys[own] in body, "\nForces:\n" in body) == (keyed, keyed), body
        # The address players reply to may be the moderator's, as a campaign's mail comes
        # from it (tests/test_leaks.py keeps no player from the moderator's address); no
        # other secret is in it.
        assert str(msg["From"]) == str(msg["Reply-To"]) == UMPIRE, (msg["From"], msg["To"])
        assert _found(str(msg["From"]), secrets, allowed=UMPIRE) == []
        others = [h for h in ("Subject", "In-Reply-To", "References", "Message-ID") if msg[h]]
        assert all(_found(str(msg[h]), secrets) == [] for h in others)
    assert answered == {"<m1@example.org>", "<m2@example.org>", "<m3@example.org>"}
