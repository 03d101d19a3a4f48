"""A skirmish's report mails end as a campaign's do (player.md: Receipts): the game's
signing key, the one `new` named, then the receipt of the journal's last record, which
`verify --receipt` reads back. They had neither, though `new` tells players they see the
fingerprint in every mail and player.md's skirmish part sends them to Receipts."""

from __future__ import annotations

import json

from test_skirmish_end_mails import Duel
from test_skirmish_mail import RECEIPT

from referee.store.signing import shown


def test_every_skirmish_report_mail_ends_with_the_key_and_the_receipt(cli, tmp_path):
    duel = Duel(cli, tmp_path)
    header = json.loads(duel.j.read_text().splitlines()[0])
    fingerprint = shown(header["signing"]["fingerprint"])       # as `new` names it
    mails = [text for texts in duel.kill().values() for text in texts]
    reports = [text for text in mails if "\nForces:\n" in text]
    assert len(reports) >= 2, mails
    last = json.loads(duel.j.read_text().splitlines()[-1])
    for text in reports:
        tail = RECEIPT.search(text)
        assert tail is not None, text
        key_line, *signed, receipt = text[tail.start():].splitlines()
        assert key_line == f"Fingerprint: {fingerprint} (the game's signing key)", text
        assert receipt == f"Receipt: duel {last['seq']}:{last['hash'][:32]}", text
        r = cli("verify", duel.j, "--receipt", text[tail.start():])
        assert r.exit_code == 0 and "(1 with a signature)" in r.stdout, r.output
        r = cli("verify", duel.j, "--receipt", f"{key_line}\n{receipt}")
        assert r.exit_code == 0, r.output
