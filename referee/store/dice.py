"""Dice nobody can choose: committed HMAC dice, or manual dice from an outside roller.

Committed mode: at `new` a random 256-bit secret is written beside the journal
(mode 0600) and only its SHA-256 goes into the header. Value i of record n is
derived from HMAC-SHA256(secret, "<game id>/<n>/<i>"):

- a die takes the first byte b of the digest below 252 and gives b % 6 + 1
  (252 = 42 x 6, so every face is equally likely: rejection sampling, no bias);
- a shuffle draw (a uniform integer below m) takes the first 8-byte big-endian
  chunk u below the largest multiple of m under 2**64 and gives u % m.

If a whole digest is rejected (odds below 1e-57 for a die) the message
"<game id>/<n>/<i>/<k>" for k = 1, 2, ... extends it. Dice and shuffle draws
of one record share the index i, counted in the order the events use them.

Players' entropy: a record whose `dice_from` names a link of a player's dice sheet, or
the digest of the mail it came in (sheets.py), has "/<mix>" after "<i>" in every message,
<mix> being "side=link" or "mail=digest" (sheets.mix_text; several links, in side order,
joined by ";"); under rules 8 and later its `stream` ("german.4": the side, and its count
of such records; "plans-production.5" for a phase of sealed plans given at once) stands in
place of <n>.
Nobody computes those dice without both the secret and the mix: the moderator has no link
before the player's mail reveals it, and nothing he writes moves the stream. The
referee's own answer for a side has a `dice_from` with its stream alone: no "/<mix>", the
stream in place of <n>, counted as such a record. A record without `dice_from` keeps the
message above.

Manual mode: the order carries the dice (`--dice 3,1,6`) rolled with real dice
or a dice server; shuffles still come from the secret, so hands stay secret.
"""

from __future__ import annotations

import hashlib
import hmac
from pathlib import Path

from ..base.errors import DiceError, SheetError, StorageError, UsageError, quoted
from . import home


def secret_path(journal: Path | str) -> Path:
    """The sidecar file holding a journal's secret."""
    journal = Path(journal)
    return journal.with_name(journal.name + ".secret")


def new_secret() -> bytes:
    """A fresh random 256-bit secret."""
    import secrets  # start-up: random and base64 load only where a secret is made

    return secrets.token_bytes(32)


def commitment(secret: bytes) -> str:
    """The public commitment to a secret: its SHA-256 in hex."""
    return hashlib.sha256(secret).hexdigest()


def write_secret(path: Path, secret: bytes) -> None:
    """Write a secret file readable by its owner only (mode 0600), never over another file
    nor through a symlink; it and its directory entry are on disk when this returns."""
    try:
        home.write_new(path, secret.hex().encode() + b"\n")
    except FileExistsError:
        raise UsageError(f"{path}: a file of that name already exists; remove it or choose "
                         f"another name") from None
    except OSError as exc:
        raise StorageError(f"{path}: the secret could not be written ({exc.strerror}); "
                           f"nothing was created") from None
    home.sync_dir(path.parent)


def read_secret(path: Path | str) -> bytes:
    """Read a secret file (64 hex digits); UsageError says why a file is not one."""
    path = Path(path)
    raw = home.read_named(path, "a secret file", 200)
    try:
        secret = bytes.fromhex(raw.decode("ascii").strip())
    except (UnicodeDecodeError, ValueError):
        raise UsageError(f"{path}: not a secret file (expected 64 hex digits)") from None
    if len(secret) != 32:
        raise UsageError(f"{path}: not a secret file (a secret is 64 hex digits)")
    home.warn_if_shared(path, "the dice secret")
    return secret


def hmac_base(game_id: str, n: int | str, i: int, mix: str = "") -> str:
    """The HMAC message of value i of record n, or of stream n ("german.4"), before any
    extension."""
    return f"{game_id}/{n}/{i}/{mix}" if mix else f"{game_id}/{n}/{i}"


def stream_of(seq: int, source: object) -> int | str:
    """What keys a record's dice: its `dice_from`'s stream (rules 8 on), else its number."""
    stream = source.get("stream") if isinstance(source, dict) else None
    return stream if isinstance(stream, str) else seq


def _digests(secret: bytes, game_id: str, n: int | str, i: int, mix: str = ""):
    base = hmac_base(game_id, n, i, mix)
    yield hmac.new(secret, base.encode(), hashlib.sha256).digest()
    k = 1
    while True:
        yield hmac.new(secret, f"{base}/{k}".encode(), hashlib.sha256).digest()
        k += 1


def die(secret: bytes, game_id: str, n: int | str, i: int, mix: str = "") -> int:
    """Die i of record n: a value 1-6 by rejection sampling of HMAC bytes."""
    return die_steps(secret, game_id, n, i, mix)[4]


def die_steps(secret: bytes, game_id: str, n: int | str, i: int,
              mix: str = "") -> tuple[int, bytes, int, int, int]:
    """How die i of record n is derived: (which HMAC of the record's die i, 0 for the first,
    its digest, the position of the byte taken in it, that byte, the die = byte % 6 + 1),
    the first byte below 252."""
    for k, digest in enumerate(_digests(secret, game_id, n, i, mix)):
        for at, b in enumerate(digest):
            if b < 252:
                return k, digest, at, b, b % 6 + 1
    raise AssertionError("unreachable")


def below(secret: bytes, game_id: str, n: int | str, i: int, m: int, mix: str = "") -> int:
    """Draw i of record n: a uniform integer in [0, m) by rejection sampling."""
    if m <= 0:
        raise ValueError("m must be positive")
    limit = (2**64 // m) * m
    for digest in _digests(secret, game_id, n, i, mix):
        for j in range(0, 32, 8):
            u = int.from_bytes(digest[j:j + 8], "big")
            if u < limit:
                return u % m
    raise AssertionError("unreachable")


def shuffle(cards: list[str], draw) -> list[str]:
    """Fisher-Yates shuffle of cards using draw(m) for uniform integers below m."""
    out = list(cards)
    for j in range(len(out) - 1, 0, -1):
        k = draw(j + 1)
        out[j], out[k] = out[k], out[j]
    return out


class ManualDice:
    """Dice given with an order batch (--dice 3,1,6), handed out in order."""

    def __init__(self, values: list[int]):
        self.values = list(values)
        self.used = 0

    def take(self, count: int, purpose: str) -> list[int]:
        """The next count dice; DiceError when too few were given."""
        left = len(self.values) - self.used
        if left < count:
            raise DiceError(f"{purpose} needs {count} dice but only {left} of the given dice "
                            f"are left (--dice lists every die in order)")
        out = self.values[self.used:self.used + count]
        self.used += count
        return out

    def check_used_up(self, why: str = "") -> None:
        """Reject dice that no roll used; why (its own punctuation first) says why none did."""
        if self.used < len(self.values):
            extra = len(self.values) - self.used
            raise DiceError(f"{extra} more dice given than needed (the orders rolled "
                            f"{self.used}){why}")


class Dice:
    """The random source of one record: committed values from the secret, or manual dice.

    `rolls` keeps every die handed out, in order; the journal stores it with
    the record so that verification can decide the record again.
    """

    def __init__(self, game_id: str, record: int, secret: bytes | None,
                 manual: ManualDice | None = None, source: dict | None = None,
                 link: dict | None = None, need: str | None = None):
        self.game_id = game_id
        self.record = record
        self.secret = secret
        self.manual = manual
        self.index = 0          # next HMAC stream index in this record
        self.salts = 0
        self.draws = 0          # shuffle draws taken
        self.rolls: list[int] = []
        self.source = source or None    # what the dice mix in: players' links, a mail digest
        from .sheets import mix_text  # start-up: a read replays without rolling a die

        self.mix = mix_text(self.source)
        self.stream = stream_of(record, self.source)    # what keys its dice (rules 8 on)
        self.link = link        # the link of a dice sheet this record reveals
        self.need = need        # why the stream may not be used: a link is due (SheetError)

    def used(self) -> bool:
        """Whether the record rolled a die or drew from the stream (then `dice_from` says
        what its values mix in)."""
        return bool(self.rolls) or self.draws > 0

    def roll(self, count: int, purpose: str) -> list[int]:
        """Roll count dice for the given purpose (2.0, 5.2)."""
        out = self._roll(count, purpose)
        self.rolls.extend(out)
        return out

    def shuffle(self, cards: list[str]) -> tuple[list[str], int]:
        """Shuffle cards (given in deck order) from the secret stream; returns (order, draws)."""
        start = self.index
        order = shuffle(cards, self.draw)
        return order, self.index - start

    def salt(self) -> str:
        """A salt for a secret payload, derived from the secret (so records are reproducible)."""
        if self.secret is None:
            raise _no_secret("dealing cards")
        msg = f"{self.game_id}/{self.record}/salt/{self.salts}".encode()
        self.salts += 1
        return hmac.new(self.secret, msg, hashlib.sha256).hexdigest()[:32]

    def _record_salt(self, part: str, doing: str) -> str:
        """The salt of one secret part of this record, derived from the secret."""
        if self.secret is None:
            raise _no_secret(doing)
        msg = f"{self.game_id}/{self.record}/{part}".encode()
        return hmac.new(self.secret, msg, hashlib.sha256).hexdigest()[:32]

    def order_salt(self) -> str:
        """The salt hiding a private order's text in this record."""
        return self._record_salt("order", "sealing an order")

    def standing_salt(self) -> str:
        """The salt hiding the acting side's standing orders in this record (without the
        secret, a random one: the part is carried as written, never derived again)."""
        if self.secret is None:
            import secrets  # start-up: as in new_secret

            return secrets.token_hex(16)
        return self._record_salt("standing", "")

    def mail_salt(self) -> str:
        """The salt hiding, from all but the moderator, the message this record came in."""
        return self._record_salt("mail", "recording a message")

    def _roll(self, count: int, purpose: str) -> list[int]:
        if count == 0:
            return []
        if self.manual is not None:
            return self.manual.take(count, purpose)
        # Named without the rule that gave their firepower ('(dogfight, 8.3.4)'): a link
        # missing is the refusal's reason, not that rule.
        self._may_stream(f"the dice of {purpose.partition(' (')[0]}")
        if self.secret is None:
            raise _no_secret("rolling committed dice")
        out = [die(self.secret, self.game_id, self.stream, self.index + k, self.mix)
               for k in range(count)]
        self.index += count
        return out

    def draw(self, m: int) -> int:
        """A uniform integer below m from the secret stream (deck shuffles, 1.3)."""
        self._may_stream("the shuffle of the deck")
        if self.secret is None:
            raise _no_secret("shuffling")
        v = below(self.secret, self.game_id, self.stream, self.index, m, self.mix)
        self.index += 1
        self.draws += 1
        return v

    def _may_stream(self, what: str) -> None:
        """Refuse a die or a draw while a dice sheet's link is due and not given."""
        if self.need is not None:
            raise SheetError(f"{what} mix in {self.need}")


def _no_secret(what: str) -> UsageError:
    return UsageError(f"{what} needs this game's dice secret, which was not found: it is "
                      f"JOURNAL.secret beside the journal, or the file given to `new "
                      f"--secret-file` on this account (nothing was written)")


def parse_manual(text: str) -> list[int]:
    """Parse '3,1,6' into dice; every value must be 1 to 6."""
    out: list[int] = []
    for part in text.replace(" ", ",").split(","):
        if not part:
            continue
        if part not in ("1", "2", "3", "4", "5", "6"):      # ASCII digits only
            raise DiceError(f"{quoted(part, 12)} is not a die (each die is 1 to 6)")
        out.append(int(part))
    return out


class ReplayDice(Dice):
    """The random values a record already holds, handed out again in the same order.

    Used to decide a record a second time without the secret: the dice come
    from the record, shuffles and salts from its events. Any difference in
    what is asked for shows up as a different event list.
    """

    def __init__(self, game_id: str, record: dict, link: dict | None = None,
                 source: dict | None = None):
        super().__init__(game_id, record["seq"], None, source=source, link=link)
        self._dice = list(record.get("dice", []))
        private = record.get("private_order")
        self._order_salt = private.get("salt") if isinstance(private, dict) else "0" * 32
        mail = record.get("mail")
        self._mail_salt = mail.get("salt") if isinstance(mail, dict) else "0" * 32
        self._shuffles: list[tuple[list[str], int]] = []
        self._salts: list[str] = []
        for ev in record.get("events", []):
            sec = ev.get("secret")
            if isinstance(sec, dict) and "salt" in sec:
                self._salts.append(sec["salt"])
            if ev.get("type") == "DeckShuffled" and isinstance(sec, dict) and "data" in sec:
                self._shuffles.append((list(sec["data"]["order"]), ev.get("draws", 0)))

    def _roll(self, count: int, purpose: str) -> list[int]:
        if count > len(self._dice):
            raise DiceError(f"record {self.record} holds fewer dice than deciding it needs")
        out, self._dice = self._dice[:count], self._dice[count:]
        return out

    def shuffle(self, cards: list[str]) -> tuple[list[str], int]:
        """The recorded order of this shuffle (must hold the same cards)."""
        if not self._shuffles:
            return list(cards), 0
        order, draws = self._shuffles.pop(0)
        if sorted(order) != sorted(cards):
            return list(cards), 0
        self.draws += draws
        return order, draws

    def salt(self) -> str:
        """The recorded salt of the next secret payload."""
        return self._salts.pop(0) if self._salts else "0" * 32

    def order_salt(self) -> str:
        """The recorded salt of the record's sealed order (verify compares the rest)."""
        return self._order_salt

    def mail_salt(self) -> str:
        """The recorded salt of the record's message part."""
        return self._mail_salt
