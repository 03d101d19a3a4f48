"""The last mails of a skirmish played by mail under `tick`. They said "The game is over: no
side has an order to give" twice, neither how it ended nor who won; still named the fire step
it stopped in and "Waiting on nobody"; showed every player his order key with no word of
what it could still do; and the moderator, who alone can publish the dice secret, was told
nothing unless a dispute was open. Now each player's says who won and how (the card names
no end: the referee's reading, rules.md), what comes next, and what his key still serves
for (a dispute within his challenge window) or nothing, and then leaves it out; the
moderator is mailed once: how it ended, and the commands left to him."""

from __future__ import annotations

import email
import json
from email.policy import default

from flowtext import written
from mailboxes import write_maildir
from skirmish_cases import done_until, tick_done
from test_skirmish_mail import BRITISH, GERMAN, UMPIRE, mail, without_receipt
from test_skirmish_over_dispute import DUEL

# The German's heavy machine gun at the British's only figure, in the first fire step: with
# this secret its dice kill him (record 6, after the mail route's), and the game is over.
SECRET = "05" * 32
FIRE = "fire G1 at=B1 range=10 state=halted cover=none dice=5 command=yes"
END = ("The game is over: the German side won. The British side has no figure left fighting "
       "(1 figure killed). It ended with #6 German: B1 killed (scores 14, 9, 16, 18, 19; 15+ "
       "pinned, 18+ killed) (Aimed Fire (D20)). The card "
       "names no way to win: a skirmish ends when a side has no figure left fighting (the "
       "referee's reading, rules.md: End of the game and the dice secret).")


class Duel:
    """A duel by mail: its mail comes into a Maildir, and tick writes into an outbox."""

    def __init__(self, cli, tmp_path):
        (tmp_path / "duel.yaml").write_text(DUEL.replace(
            "{id: G1, role: squad_leader, weapon: rifle}",
            "{id: G1, role: squad_leader, weapon: hmg}"), encoding="utf-8")
        (tmp_path / "duel.secret").write_text(SECRET + "\n", encoding="utf-8")
        self.cli, self.j, self.out, self.n = cli, tmp_path / "duel.jsonl", tmp_path / "out", 0
        self.box = write_maildir(tmp_path / "box", [])
        r = cli("new", self.j, "--game", "skirmish", "--scenario", tmp_path / "duel.yaml",
                "--game-id", "duel", "--secret-file", tmp_path / "duel.secret",
                "--player", f"british={BRITISH}", "--player", f"german={GERMAN}",
                "--player", f"moderator={UMPIRE}", "--mail-in", self.box,
                "--mail-out", f"outbox:{self.out}")
        assert r.exit_code == 0, r.output
        self.keys = json.loads(cli("skirmish", "keys", self.j, "--format", "json").stdout)[
            "keys"]
        self.seen: set[str] = set()
        self.tick()
        done_until(cli, self.j, "fire")         # movement and artillery, by hand

    def post(self, side: str, *lines: str) -> None:
        self.n += 1
        who = {"british": BRITISH, "german": GERMAN, "moderator": UMPIRE}[side]
        mail(self.box / "new", self.n, who, self.keys[side], *lines)

    def tick(self) -> dict[str, list[str]]:
        """One pass; the mails it wrote, each its text, by address."""
        r = self.cli("tick", self.j, "--no-map")
        assert tick_done(r), r.output
        got: dict[str, list[str]] = {}
        for p in sorted(self.out.glob("*.eml"), key=lambda p: p.stat().st_mtime_ns):
            if p.name not in self.seen:
                self.seen.add(p.name)
                m = email.message_from_bytes(p.read_bytes(), policy=default)
                got.setdefault(str(m["To"]), []).append(written(m.get_content()))
        return got

    def kill(self) -> dict[str, list[str]]:
        self.post("german", FIRE)
        return self.tick()


def _flat(text: str) -> str:
    return " ".join(text.split())


def _top(text: str) -> str:
    """What a mail says above its report."""
    return _flat(text.partition("\n\nReport for ")[0])


def test_each_player_s_last_mail_says_who_won_and_how_once(cli, tmp_path):
    """The British's last report and the German's answer: above the report, how the game
    ended and who won, with the rule's place; the report's first line says the game is
    over, not the step it stopped in nor whom it waits on; the end is told once."""
    got = Duel(cli, tmp_path).kill()
    (british,), (german,) = got[BRITISH], got[GERMAN]
    assert german.startswith("Your mail was recorded: #6\n"), german
    for text in (british, german):
        assert _top(text).endswith(END), text
        assert "duel (duel): turn 1, game over\n\n" in text, text
        assert "fire now" not in text and "Waiting on" not in text, text
        assert _flat(text).count("The game is over") == 1, text
        assert "What now: the moderator publishes the dice secret (`referee reveal`)" in \
            _flat(text), text
        assert max(map(len, text.splitlines())) <= 72, text


def test_a_player_s_order_key_is_shown_only_while_he_may_still_dispute(cli, tmp_path):
    """The British may still dispute the fire that ended the game (and his key says that
    is all it serves for); the German, against whom no fact was declared, can dispute
    nothing: he is told so, and his key is left out. The British's dispute is taken."""
    duel = Duel(cli, tmp_path)
    got = duel.kill()
    (british,), (german,) = got[BRITISH], got[GERMAN]
    assert "Your order key serves for one thing now: a dispute of a fact the German side " \
        "declared in #6, within your challenge window (dispute record=N fact=KEY " \
        "value=VALUE, keeping the Order key line below)." in _flat(british), british
    assert without_receipt(british).endswith(f"\nOrder key: {duel.keys['british']}\n"), british
    assert "No dispute can be raised any more: no fact the British side declared is within " \
        "your challenge window." in _flat(german), german
    assert "Order key" not in german and duel.keys["german"] not in german, german
    duel.post("british", "dispute record=6 fact=cover value=hard")
    r = cli("tick", duel.j, "--no-map", "--format", "json")
    assert [x["status"] for x in json.loads(r.stdout)["games"][0]["messages"]] == \
        ["applied"], r.stdout


def test_an_earlier_answer_of_the_pass_promises_no_key_that_will_not_come(cli, tmp_path):
    """The German's fire ends the game and his second mail of the pass is refused: the
    answer to the first says his report follows, not his key, which the last leaves out
    (no fact of the British's is his to dispute)."""
    duel = Duel(cli, tmp_path)
    duel.post("german", FIRE)
    duel.post("german", "done")
    first, last = duel.tick()[GERMAN]
    assert first.endswith("\n\nYour report follows in the answer to your later mail.\n"), \
        first
    assert last.startswith("Nothing of your mail was recorded"), last
    assert "Forces:" in last and "Order key" not in last, last


def test_the_moderator_is_mailed_once_how_it_ended_and_what_is_left_to_him(cli, tmp_path):
    """The pass that ends the game mails the moderator (asked nothing by a dispute): how it
    ended, then `verify` and `reveal` to copy; the next pass mails him nothing. Once he
    published the secret, the players' mails say the dice can be checked, with no key."""
    duel = Duel(cli, tmp_path)
    (umpire,) = duel.kill()[UMPIRE]
    journal = str(duel.j.absolute())
    assert _flat(umpire).startswith(END), umpire
    assert f"\n  referee verify {journal}\n  referee reveal {journal}\n" in umpire, umpire
    assert "Order key" not in umpire and "Forces:" not in umpire, umpire
    assert duel.tick() == {}
    assert cli("reveal", duel.j).exit_code == 0
    got = duel.tick()
    assert set(got) == {BRITISH, GERMAN}, got
    for (text,) in got.values():
        assert "What now: the dice secret is published" in _flat(text), text
        assert "Order key" not in text, text


def test_a_dispute_open_at_the_end_asks_the_moderator_first_then_he_is_told_the_end(
        cli, tmp_path):
    """The British disputes the fire that ended the game in the pass that took it: the
    moderator's mail is the dispute to settle (the end hangs on his ruling), not the end's;
    the answer to his ruling upholding the fire tells him the game is over and what is left
    to him, and no other mail says it again."""
    duel = Duel(cli, tmp_path)
    duel.post("german", FIRE)
    duel.post("british", "dispute record=6 fact=cover value=hard")
    (umpire,) = duel.tick()[UMPIRE]
    assert umpire.startswith("Disputes for you to settle: record 6's cover."), umpire
    assert "The game is over, unless your ruling changes that: the German side won." in \
        _flat(umpire), umpire
    duel.post("moderator", "settle record=6 uphold=yes")
    (umpire,) = duel.tick()[UMPIRE]         # the answer to his ruling, with his report
    # the lines after a soft break go on flush left (mail/flowed.py)
    assert umpire.startswith("Your mail was recorded: #8\n#8 moderator: settle record=6 "
                             "uphold=yes: #6's facts upheld; its result\nstands: B1 "
                             "killed (scores 14, 9, 16, 18, 19; 15+ pinned, 18+\n"
                             "killed)\n\n"
                             + END.split(". ")[0]), umpire
    assert "What now: check the journal (`referee verify`), then publish the dice secret " \
        "(`referee reveal`)" in _flat(umpire), umpire
    assert UMPIRE not in duel.tick()
