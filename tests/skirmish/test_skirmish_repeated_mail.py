"""A phone that sends one reply twice (two Message-IDs, the same orders, answering the same
mail): the second copy is told it repeats the mail recorded, not refused at the line the
first copy's records now bar, which read as lost orders."""

from __future__ import annotations

from test_skirmish_mail import BRITISH
from test_skirmish_phone_replies import Phone, _statuses


def test_a_mail_sent_twice_is_told_it_repeats_the_one_recorded(cli, tmp_path, clock):
    p = Phone(cli, tmp_path)
    to = p.reply(BRITISH, "move B2 mode=manoeuvre command=yes\nmove B3 mode=stealthy "
                          "command=yes", quote=True)
    p.reply(BRITISH, "move B2 mode=manoeuvre command=yes\nmove B3 mode=stealthy "
                     "command=yes", to=to, quote=True)
    before = p.j.read_bytes()
    found = p.tick()
    assert _statuses(found) == [("british", "applied"), ("british", "refused")], found
    assert found[1]["reason"] == (
        "this mail repeats your mail already recorded as #2–#3 (the same orders, answering "
        "the same mail): nothing more was done"), found[1]
    assert p.j.read_bytes() != before
    answer = p.answer()
    assert answer.startswith("Nothing of your mail was recorded: this mail repeats your "
                             "mail already recorded as #2–#3"), answer
    # Another mail with other orders answering the same mail is taken as ever.
    p.reply(BRITISH, "move B4 mode=stealthy command=yes", to=to, quote=True)
    assert _statuses(p.tick()) == [("british", "applied")]
