"""A mail's lines that run through a step whose one order open the referee would close
(game/forced.py): each line answers the step it reaches, that one too, as the reply's
'Then' list says, marking the step and the order open there; the referee closes it only
when the mail ends before it (mail/handling.close_forced).

1914: once the German's movement ends with ge-1 in Liège, declaring battles (2.0 II.3)
has only 'done' open.
"""

from __future__ import annotations

from test_hostile_mail import KEYS, eml, handled, mail, new_game, records
from test_mail_closed import reports
from test_standing import pending

from referee.render.coming import ONLY_OPEN

MARKED = "declare battles (2.0 II.3, only done open)"


def _mail(cli, journal, tmp_path, name: str, *lines: str) -> list[dict]:
    body = "\n".join(lines) + f"\n\nOrder key: {KEYS['german']}\n"
    sent = mail(body=body, mid=f"<{name}@x.org>", subject="orders")
    return handled(cli, journal, eml(tmp_path / name, sent), outbox=tmp_path / f"out-{name}")


def test_the_then_list_marks_the_step_a_typed_done_closes_and_the_mail_closes_it(
        cli, tmp_path):
    journal = new_game(cli, tmp_path / "game")
    out = _mail(cli, journal, tmp_path, "m1", "play offensive", "move ge-1 liege")
    assert [o["status"] for o in out] == ["applied"], out
    told = reports(tmp_path / "out-m1")["german"]
    assert f"after end movement: {MARKED}" in told, told
    assert ONLY_OPEN.format(order="done") in told, told
    # As the list says: his 'done' after 'end movement' closes declaring battles, by his
    # mail, and the step after it (his combat cards) is asked.
    before = len(records(journal))
    out = _mail(cli, journal, tmp_path, "m2", "end movement", "done")
    assert [o["status"] for o in out] == ["applied"], out
    assert [(r["order"], r["by"]) for r in records(journal)[before:]] == [
        ("end movement", "mail"), ("done", "mail")]
    assert pending(journal) == "attacker_cards german"
