"""`make bench`'s mail row: what `tick` holds in memory while a flood of mail waits.

Two hundred strangers' messages of 1 MB each wait unread in the game's IMAP folder (the test
servers of tests/mailservers.py, on 127.0.0.1 only); `tick` runs five passes, each in a
fresh process through the `referee` console script, and the row gives the peak resident
size of the largest pass, the messages each pass read and how many it left. A pass reads
what the mail settings allow (32 MB by default) and never a message no game claimed twice,
so the peak does not grow with the folder. The same flood in a Maildir on this machine is
read whole by one pass, one message in memory at a time: its peak does not grow either.

    python tests/mailbench.py [--messages 200] [--passes 5]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mailservers import (  # noqa: E402 - the test servers, beside this file
    HOST,
    IMAP_PASSWORD_ENV,
    PASSWORD,
    SMTP_PASSWORD_ENV,
    USER,
    ImapServer,
    SmtpServer,
    authority,
)

MB = 1024          # ru_maxrss is in KB on Linux
PROBE = ("import resource, subprocess, sys; "
         "r = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.PIPE); "
         "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, r.returncode); "
         "sys.stderr.buffer.write(r.stdout)")


def _environment(tmp: Path, auth, imap: ImapServer, smtp: SmtpServer) -> dict:
    home = tmp / "home"
    home.mkdir()
    settings = home / "mail.toml"
    settings.write_text(f'[hosts."{HOST}"]\nports = [{imap.port}, {smtp.port}]\n')
    settings.chmod(0o600)
    return {**os.environ, "REFEREE_HOME": str(home), "SSL_CERT_FILE": str(auth.bundle),
            IMAP_PASSWORD_ENV: PASSWORD, SMTP_PASSWORD_ENV: PASSWORD, "HOME": str(tmp)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python tests/mailbench.py")
    ap.add_argument("--messages", type=int, default=200)
    ap.add_argument("--passes", type=int, default=5)
    args = ap.parse_args(argv)
    referee = Path(sys.executable).with_name("referee")
    with tempfile.TemporaryDirectory(prefix="referee-mailbench-") as name:
        tmp = Path(name)
        auth = authority(tmp)
        imap, smtp = ImapServer(auth).start(), SmtpServer(auth).start()
        try:
            env = _environment(tmp, auth, imap, smtp)
            folder = imap.new_folder()
            journal = tmp / "games" / "flood.jsonl"
            journal.parent.mkdir()
            subprocess.run([str(referee), "new", str(journal), "--scenario", "1914",
                            "--game-id", "flood", "--player", "german=kaiser@example.org",
                            "--player", "entente=joffre@example.net",
                            "--mail-in", f"imap://{USER}@{HOST}:{imap.port}/{folder}",
                            "--mail-out", f"smtp://{USER}@{HOST}:{smtp.port}"],
                           env=env, check=True, capture_output=True)
            text = "x" * 999_000 + "\n"
            for i in range(args.messages):
                imap.deliver(folder, (f"From: s{i}@bureau.example\nSubject: hello\n"
                                      f"Message-ID: <s{i}@bureau.example>\n\n{text}").encode())
            rows = [_pass(referee, journal, env) for _ in range(args.passes)]
        finally:
            imap.stop()
            smtp.stop()
    peak = max(r.peak for r in rows)
    named = [0] + [r.read for r in rows]              # the unclaimed named so far
    read = ", ".join(str(b - a) for a, b in zip(named, named[1:]))
    print(f"tick over {args.messages} unclaimed 1 MB messages, {args.passes} passes: peak RSS "
          f"{peak / MB:.0f} MB (read per pass: {read}; {rows[-1].left} still unread)")
    local = _maildir_pass(referee, args.messages)
    print(f"tick over {args.messages} unclaimed 1 MB messages in a Maildir, one pass: peak "
          f"RSS {local.peak / MB:.0f} MB ({local.read} read, all in the pass)")
    return 0


def _maildir_pass(referee: Path, messages: int) -> SimpleNamespace:
    """The same flood in a Maildir on this machine, which a pass reads whole (one message
    in memory at a time): one pass, its peak RSS and the messages it named unclaimed."""
    with tempfile.TemporaryDirectory(prefix="referee-mailbench-") as name:
        tmp = Path(name)
        box = tmp / "box"
        for sub in ("new", "cur", "tmp"):
            (box / sub).mkdir(parents=True)
        (tmp / "home").mkdir()
        env = {**os.environ, "REFEREE_HOME": str(tmp / "home"), "HOME": str(tmp)}
        journal = tmp / "games" / "flood.jsonl"
        journal.parent.mkdir()
        subprocess.run([str(referee), "new", str(journal), "--scenario", "1914",
                        "--game-id", "flood", "--player", "german=kaiser@example.org",
                        "--player", "entente=joffre@example.net", "--mail-in", str(box),
                        "--mail-out", f"outbox:{tmp / 'out'}"],
                       env=env, check=True, capture_output=True)
        text = "x" * 999_000 + "\n"
        for i in range(messages):
            (box / "new" / f"s{i}.eml").write_text(
                f"From: s{i}@bureau.example\nSubject: hello\nMessage-ID: <s{i}@bureau.example>"
                f"\n\n{text}")
        return _pass(referee, journal, env)


def _pass(referee: Path, journal: Path, env: dict) -> SimpleNamespace:
    """One tick in a fresh process: its peak RSS, the messages no game claimed it names (read
    in this pass or before) and those it left for the next pass."""
    done = subprocess.run([sys.executable, "-c", PROBE, str(referee), "tick",
                           str(journal.parent), "--no-map", "--format", "json"],
                          env=env, capture_output=True, check=True)
    peak, code = done.stdout.split()
    report = json.loads(done.stderr)
    lines = [ln for g in report["games"] for ln in g["log"] if "for the next pass" in ln]
    left = int(lines[0].split(": ", 1)[1].split()[0]) if lines else 0
    return SimpleNamespace(peak=int(peak), read=len(report["unclaimed"]), left=left,
                           code=int(code))


if __name__ == "__main__":
    sys.exit(main())
