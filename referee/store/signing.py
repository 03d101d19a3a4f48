"""Game keys: the Ed25519 key that signs every record of a game, kept in this user's referee home.

A game's key is made by `new` (or read from a file the moderator names) and
kept as `keys/FINGERPRINT.key` (mode 0600) in his referee home, never beside
the journal. The header names its public half and fingerprint; every record
carries `sig`: the fingerprint of the key that signed it, a dot, and the
Ed25519 signature of the record's hash (base64url, unpadded). The hash covers
everything in the record but `hash` and `sig`, so the signature of a record
vouches for it and, through the chain, for every record before it.

The same key signs the receipts the referee's mails end with (sign_receipt): a statement of
another kind, whose bytes start otherwise than a record's, built from the journal the
referee holds (game/signedreceipt.py). It signs nothing else.

A fingerprint is the first 80 bits of the SHA-256 of the public key in
Crockford's base32: 16 signs, printed in groups of four (`7QX2-M4KD-9P3A-JH8W`).

The signing library (`cryptography`) is imported only by the paths that sign
or check: reading a journal needs none of it.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
from pathlib import Path

from ..base.errors import UsageError, quoted
from ..base.glyphs import compact
from ..base.lazyre import LazyPattern
from . import home

ALG = "ed25519"
_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_DOMAIN = b"referee journal record\x00"
# What a receipt's signature covers starts otherwise (receipt_statement): no signature of a
# record can pass for one of a receipt, nor the reverse.
_RECEIPT_DOMAIN = b"referee receipt of a record\x00"
# The statement of the receipts mails carry now names record 0's hash too (a game id is the
# moderator's choice, record 0 is not): its prefix differs from the older form's from the
# byte where that one ends, so neither passes for the other.
_RECEIPT_BEGUN_DOMAIN = b"referee receipt of a record and of record 0\x00"
_HASH = LazyPattern("^[0-9a-f]{64}$")
_FPR = LazyPattern("^[0-9A-HJKMNP-TV-Z]{16}$")
SIG = LazyPattern(r"^([0-9A-HJKMNP-TV-Z]{16})\.([A-Za-z0-9_-]{86})$")
_LOADED: dict[str, object] = {}


def _ed25519():
    from cryptography.hazmat.primitives.asymmetric import ed25519

    return ed25519


def ready() -> None:
    """Import what checking a signature needs (before a process forks to check some)."""
    _ed25519()
    import base64  # noqa: F401

    from cryptography import exceptions  # noqa: F401


def _b64(data: bytes) -> str:
    import base64

    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    import base64

    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def fingerprint(public: bytes) -> str:
    """The 16-sign fingerprint of a raw public key (no dashes)."""
    value = int.from_bytes(hashlib.sha256(public).digest()[:10], "big")
    return "".join(_ALPHABET[(value >> (5 * i)) & 31] for i in reversed(range(16)))


def shown(fpr: str) -> str:
    """A fingerprint as people read it: four groups of four."""
    return "-".join(fpr[i:i + 4] for i in range(0, 16, 4))


def read_fingerprint(text: str, option: str = "--key") -> str:
    """A fingerprint as typed or pasted (any case, dashes, O for 0, I or L for 1)."""
    fpr = compact(text)
    if not _FPR.match(fpr):
        raise UsageError(f"{option} {quoted(text)}: give a key's fingerprint as `new` prints "
                         f"it: 16 letters and digits, e.g. 7QX2-M4KD-9P3A-JH8W")
    return fpr


class GameKey:
    """A game's private key, loaded: signs record hashes."""

    def __init__(self, private):
        self._private = private
        self.public = private.public_key().public_bytes_raw()
        self.fpr = fingerprint(self.public)

    def header_field(self) -> dict:
        """What a header (or an adoption or key change record) says of this key."""
        return {"alg": ALG, "public": _b64(self.public), "fingerprint": self.fpr}

    def sig(self, record_hash: str) -> str:
        """The `sig` member of a record whose hash is record_hash."""
        return f"{self.fpr}.{_b64(self._private.sign(_DOMAIN + record_hash.encode()))}"

    def sign_receipt(self, game_id: str, first: str, seq: int, record_hash: str) -> bytes:
        """The raw signature of a receipt of record seq of game game_id whose record 0 has
        hash first, record seq hash record_hash (receipt_statement: the key signs nothing
        else but record hashes)."""
        return self._private.sign(receipt_statement(game_id, seq, record_hash, first))


def receipt_statement(game_id: str, seq: int, record_hash: str,
                      first: str | None = None) -> bytes:
    """What a receipt's signature covers: a prefix naming it, then the game, record 0's hash
    (first), the record's number and its whole hash, as JSON (one spelling for each,
    whatever the game id holds). Without first, the older form, which mails sent before
    it carry: its own prefix, and no record 0. The referee builds it from the journal it
    holds, never from what a player sends."""
    import json

    if not (isinstance(seq, int) and seq >= 0 and _HASH.match(record_hash)
            and (first is None or _HASH.match(first))):
        raise ValueError(f"no receipt of record {seq!r} with hash {record_hash!r}")
    if first is None:
        return _RECEIPT_DOMAIN + json.dumps([game_id, seq, record_hash], ensure_ascii=True,
                                            separators=(",", ":")).encode("ascii")
    return _RECEIPT_BEGUN_DOMAIN + json.dumps([game_id, first, seq, record_hash],
                                              ensure_ascii=True,
                                              separators=(",", ":")).encode("ascii")


def checks_receipt(signature: bytes, game_id: str, seq: int, record_hash: str,
                   public: bytes, first: str | None = None) -> bool:
    """Whether signature is public's key's signature of the receipt of record seq of game
    game_id with that hash (and, but for the older form, whose record 0 has hash first)."""
    from cryptography.exceptions import InvalidSignature

    try:
        _verifier(public)[1].verify(signature,                   # type: ignore[attr-defined]
                                    receipt_statement(game_id, seq, record_hash, first))
    except (InvalidSignature, ValueError):
        return False
    return True


def keys_dir() -> Path:
    """Where this user's game keys live."""
    return home.data_dir("keys")


def key_file(fpr: str) -> Path:
    return keys_dir() / f"{fpr}.key"


def new_key(named: Path | None = None, journal: Path | None = None) -> GameKey:
    """A game's key: the one in `named` (made there first when it does not exist), or a new
    one; kept in this user's keys folder either way."""
    if named is not None:
        if journal is not None and _same_folder(named, journal):
            raise UsageError(f"--signing-key {quoted(str(named))}: the key would sit beside "
                             f"the journal, where anyone who can write the folder can read "
                             f"it; keep it elsewhere (the referee home is the default)")
        if os.path.lexists(named):
            key = GameKey(_private_from(named, _read_key_text(named, "--signing-key")))
        else:
            key = _generate()
            _write_key(named, key)
    else:
        key = _generate()
    _keep(key)
    return key


def _same_folder(a: Path, b: Path) -> bool:
    try:
        return a.absolute().parent.resolve() == b.absolute().parent.resolve()
    except OSError:
        return False


def _generate() -> GameKey:
    return GameKey(_ed25519().Ed25519PrivateKey.generate())


def _private_from(path: Path, seed: bytes):
    try:
        return _ed25519().Ed25519PrivateKey.from_private_bytes(seed)
    except ValueError:
        raise UsageError(f"{path}: not a referee signing key") from None


def _seed_of(key: GameKey) -> bytes:
    from cryptography.hazmat.primitives import serialization as s

    return key._private.private_bytes(s.Encoding.Raw, s.PrivateFormat.Raw, s.NoEncryption())


def _write_key(path: Path, key: GameKey) -> None:
    text = f"referee ed25519 {key.fpr} {_seed_of(key).hex()}\n".encode()
    try:
        home.ensure_dir(path.parent)
        home.write_new(path, text)
    except FileExistsError:
        if _read_key_text(path, "key file") != _seed_of(key):
            raise UsageError(f"{path}: holds another key than its name says") from None
    except OSError as exc:
        raise UsageError(f"{path}: the signing key could not be written ({exc.strerror}); "
                         f"nothing was created") from None


def _keep(key: GameKey) -> None:
    _write_key(key_file(key.fpr), key)
    _LOADED[key.fpr] = key


def _read_key_text(path: Path, what: str) -> bytes:
    """The 32-byte seed a key file holds (UsageError if it is not one)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
                     | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise UsageError(f"{what} {quoted(str(path))}: cannot be read ({exc.strerror})") \
            from None
    try:
        _check_private(os.fstat(fd), path, what)
        words = os.read(fd, 400).decode("ascii", "replace").split()
    finally:
        os.close(fd)
    if len(words) != 4 or words[:2] != ["referee", ALG] or not re.fullmatch(
            "[0-9a-f]{64}", words[3]):
        raise UsageError(f"{what} {quoted(str(path))}: not a referee signing key")
    return bytes.fromhex(words[3])


def _check_private(info: os.stat_result, path: Path, what: str) -> None:
    """A key file is a regular file of this user's that nobody else may read or write: one
    planted by someone else would sign the game with a key he holds."""
    where = f"{what} {quoted(str(path))}"
    if not stat.S_ISREG(info.st_mode):
        raise UsageError(f"{where}: not a regular file")
    if hasattr(os, "geteuid") and info.st_uid != os.geteuid():
        raise UsageError(f"{where}: belongs to another user; a game's key must be your own "
                         f"file (whoever made it may hold the key)")
    if info.st_mode & 0o077:
        raise UsageError(f"{where}: others may read or write it (mode "
                         f"{stat.S_IMODE(info.st_mode):o}); make it yours alone (chmod 600) "
                         f"if you are sure nobody else has it, or use a new key")


def held(fpr: str) -> GameKey | None:
    """This user's key of that fingerprint, or None when his referee home has none."""
    if fpr in _LOADED:
        return _LOADED[fpr]                 # type: ignore[return-value]
    path = key_file(fpr)
    if not _FPR.match(fpr) or not os.path.lexists(path):
        return None
    key = GameKey(_private_from(path, _read_key_text(path, "key file")))
    if key.fpr != fpr:
        raise UsageError(f"{path}: holds the key {shown(key.fpr)}, not {shown(fpr)}")
    _LOADED[fpr] = key
    return key


def public_of(field: object) -> bytes | None:
    """The raw public key a header's `signing` names, when it is well formed and its
    fingerprint is its own."""
    if not isinstance(field, dict) or field.get("alg") != ALG:
        return None
    text = str(field.get("public"))
    try:
        public = _unb64(text)
    except (ValueError, TypeError):
        return None
    if _b64(public) != text:
        return None
    if len(public) != 32 or fingerprint(public) != field.get("fingerprint"):
        return None
    return public


def signer_of(sig: object) -> str | None:
    """The fingerprint a record's `sig` names, or None when it is no signature."""
    m = SIG.match(sig) if isinstance(sig, str) else None
    return m.group(1) if m else None


_PUBLIC: dict[bytes, tuple[str, object]] = {}


def _verifier(public: bytes) -> tuple[str, object]:
    """(fingerprint, the library's public key) of a raw public key, made once a process."""
    found = _PUBLIC.get(public)
    if found is None:
        found = _PUBLIC[public] = (fingerprint(public),
                                   _ed25519().Ed25519PublicKey.from_public_bytes(public))
    return found


def checks(sig: object, record_hash: object, public: bytes) -> bool:
    """Whether sig is the signature of record_hash by public's key."""
    m = SIG.match(sig) if isinstance(sig, str) else None
    if m is None or not isinstance(record_hash, str):
        return False
    from cryptography.exceptions import InvalidSignature

    try:
        fpr, verifier = _verifier(public)
        if m.group(1) != fpr:
            return False
        raw = _unb64(m.group(2))
        if _b64(raw) != m.group(2):         # one spelling of a signature: no spare bits
            return False
        verifier.verify(raw, _DOMAIN + record_hash.encode())        # type: ignore[attr-defined]
    except (InvalidSignature, ValueError):
        return False
    return True
