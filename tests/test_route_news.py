"""A mail route record (`set mail route`, the moderator's) in a player's report and log: a
line under its heading says what it changed that a player may know (how the referee reads
or sends the game's mail, the address its mails come from), as a roster record says whom it
registered; never an address, a mailbox or a server (store/rosternews.py)."""

from __future__ import annotations

import json


def test_a_route_record_says_in_a_line_what_it_changed(tmp_path, cli, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "box.mbox").write_bytes(b"")
    journal = tmp_path / "g.jsonl"
    r = cli("new", journal, "--scenario", "1914", "--player", "german=hans@example.org",
            "--player", "entente=joffre@example.net", "--mail-in", "box.mbox",
            "--mail-out", "outbox:first-out")
    assert r.exit_code == 0, r.output
    assert cli("mail", journal, "--out", "outbox:second-out").exit_code == 0
    assert cli("mail", journal, "--from", "referee@example.org").exit_code == 0
    report = cli("report", journal, "--as", "german", "--since", "0").stdout
    head = report.split("Victory points")[0]
    for line in ("the moderator set how the referee reads and sends the game's mail",
                 "the moderator changed how the referee sends the game's mail",
                 "the moderator changed the address the referee's mails come from"):
        assert f"set mail route\n\n- {line}\n" in head, head
    log = cli("log", journal, "--as", "entente").stdout
    assert "set mail route\n    the moderator changed how the referee sends" in log, log
    for secret in ("box.mbox", "first-out", "second-out", "referee@example.org"):
        assert secret not in head and secret not in log
    shown = cli("log", journal, "--as", "german", "--format", "json").stdout
    assert not any("referee@example.org" in line for line in shown.splitlines()
                   if json.loads(line).get("order") == "set mail route")
