"""The orders in a player's email: the message, its text, and the lines that are orders.

Players send their orders by email, one order per line. The moderator saves
the mail (mbox, Maildir, .eml); this module reads it (the standard library, and the
order verbs of the game's engine):

- parse_message: the bytes of one message as an EmailMessage (with a size limit);
- plain_body: the text the player wrote (the first text/plain part that is not
  an attachment, else the first text/html part turned into text);
- order_lines: the lines of that text that remain as orders, with their line
  numbers, once signatures, quoted replies, attributions ("On ... wrote:"),
  the order-key line, greetings, closings, list markers, blank lines and '#'
  comments are dropped;
- after_signature: the lines below a signature delimiter that read as orders (named in
  the reply, never read); prose.py splits order_lines' lines into the orders and the
  player's prose around them.

Every problem is a MailError (a ValueError) with a one-line message.
"""

from __future__ import annotations

import codecs
import email
import email.charset
import email.feedparser
import email.utils
import re
from collections.abc import Collection
from email.message import EmailMessage, Message

from ..engine.reading import ORDER_WORDS
from ..store.players import compact
from . import statusparts
from .fromheader import one_sender
from .headers import HEADER_MOST, MailError, reading_policy
from .htmltext import html_to_text

__all__ = ["CAMPAIGN_VERBS", "SHEET_LINE", "MailError", "mail_bytes", "order_lines",
           "parse_message", "plain_body", "after_signature", "sheet_lines", "looks_like_order"]

DEFAULT_LIMIT = 1 << 20


# --- the message -------------------------------------------------------------------------------


# The most lines starting with "--" a message may have: every part of a MIME message
# starts on one (its boundary), and each part costs the parser a little; 15,000 tiny
# parts, under the size limit, took 5 s. A mail written by hand has a few such lines.
PARTS_MOST = 400
# How deep multiparts may nest, and how many lines a message may have: the parser looks at
# each line once for every multipart it is in (a stranger's 1 MiB of empty lines 395 deep
# took 17 s). A mail with a forward of a forward in it nests nine deep; a megabyte of
# attachments is some 14,000 lines.
NESTING_MOST = 16
LINES_MOST = 200_000


class _Nesting(email.feedparser.BufferedSubFile):
    """The parser's lines, refusing a multipart nested past NESTING_MOST."""

    depth = 0

    def push_eof_matcher(self, pred):
        if self.depth >= NESTING_MOST:
            raise MailError(f"the message's parts are nested more than {NESTING_MOST} deep")
        self.depth += 1
        super().push_eof_matcher(pred)

    def pop_eof_matcher(self):
        self.depth -= 1
        return super().pop_eof_matcher()




def parse_message(raw: bytes, limit: int = DEFAULT_LIMIT) -> EmailMessage:
    """The message of raw (RFC 5322 bytes, an mbox 'From ' line allowed), refused over limit,
    LINES_MOST lines, PARTS_MOST lines that may start a part or NESTING_MOST levels of
    multiparts; read with reading_policy()."""
    if not isinstance(raw, bytes | bytearray | memoryview):
        raise MailError(f"a message is bytes, not {type(raw).__name__}")
    raw = bytes(raw)
    if len(raw) > limit:
        raise MailError(f"the message is {len(raw)} bytes, over the limit of {limit} bytes")
    lines = raw.count(b"\n") + raw.count(b"\r") - raw.count(b"\r\n")
    if lines > LINES_MOST:
        raise MailError(f"the message has {lines} lines, over the limit of {LINES_MOST}")
    parts = _part_lines(raw)
    if parts > PARTS_MOST:
        raise MailError(f"the message has {parts} lines starting with '--' (each may start "
                        f"a part), over the limit of {PARTS_MOST}")
    parser = email.feedparser.BytesFeedParser(statusparts.Reading, policy=reading_policy())
    parser._input = _Nesting()      # noqa: SLF001 - the one place the parser keeps its lines
    parser.feed(statusparts.cut(raw, reading_policy()))   # no further than it is read
    return statusparts.as_read(parser.close())       # a status part's text kept whole


def _part_lines(raw: bytes) -> int:
    """Lines of raw starting with "--" (a line ends at a CR too, as the parser reads),
    counted without a regular expression's pass over each line end."""
    return raw.count(b"\n--") + raw.count(b"\r--") + raw.startswith(b"--")


def sender_address(msg: Message) -> str:
    """The address of the message's (first) From header as written, or "" when it has none,
    one longer than HEADER_MOST characters, or one a mail program may read as another
    sender (fromheader.py)."""
    text = header_text(msg, "From")
    raw = next((v for k, v in msg.raw_items() if k.lower() == "from"), "")
    try:
        name, address = email.utils.parseaddr(text)
    except Exception:  # noqa: BLE001
        return ""
    return address if isinstance(raw, str) and one_sender(raw, name, address) else ""


def header_text(msg: Message, name: str) -> str:
    """A header's text ("" when the message has none, or one longer than HEADER_MOST
    characters as sent, whatever policy msg was read with); as sent when the package refuses
    it. A byte that is no text (kept by the package as a lone surrogate, which no file or
    mail can be written with) reads as U+FFFD."""
    raw = next((v for k, v in msg.raw_items() if k.lower() == name.lower()), "")
    if not isinstance(raw, str) or len(raw) > HEADER_MOST:
        return ""
    try:
        text = str(msg.get(name, "") or "")
    except Exception:  # noqa: BLE001 - the email package raises many kinds on hostile mail
        text = raw          # a header the parser refuses (an encoded CR in a name, say)
    return _SURROGATE.sub("\ufffd", text)


_SURROGATE = re.compile("[\ud800-\udfff]")


def _is_attachment(part: Message) -> bool:
    """A part sent as a file: Content-Disposition attachment, or a part with a file name."""
    return part.get_content_disposition() == "attachment" or part.get_filename() is not None


def _leaves(msg: Message, top: bool = True):
    """The non-multipart parts of msg, depth first, without attachments and attached messages."""
    maintype = msg.get_content_maintype()
    if maintype == "multipart":
        payload = msg.get_payload()
        for sub in payload if isinstance(payload, list) else []:
            if not _is_attachment(sub):
                yield from _leaves(sub, top=False)
    elif maintype == "message" and not top:
        return  # a forwarded or bounced message: not what this player wrote
    else:
        yield msg


def _decode(part: Message) -> str:
    """The text of a text/* part: transfer encoding and charset decoded."""
    payload = part.get_payload(decode=True)
    if payload is None:
        return ""
    if not isinstance(payload, bytes):
        payload = str(payload).encode("utf-8", "surrogateescape")
    charset = part.get_content_charset()
    if charset in (None, "us-ascii", "ascii"):
        # No charset (or a plain ASCII label on 8-bit text): UTF-8 if it is, else Windows-1252.
        try:
            return payload.decode("utf-8")
        except UnicodeDecodeError:
            return payload.decode("cp1252", "replace")
    codec = email.charset.ALIASES.get(charset, charset)
    try:
        if codecs.lookup(codec).name in _NOT_CHARSETS:
            raise LookupError(codec)
        return payload.decode(codec, "replace")
    except (LookupError, ValueError, TypeError):
        raise MailError(f"the text part's charset {charset!r} is unknown") from None


# Codecs Python has that are not a mail's character set: a domain name's letters, whose
# decoding takes time growing with the square of the text (a megabyte: 14 s).
_NOT_CHARSETS = frozenset({"punycode", "idna"})


_QUOTE_PREFIX = re.compile(r"^(>+) ?")


def _unflow(text: str, delsp: bool) -> str:
    """format=flowed text (RFC 3676) with its soft line breaks joined and space-stuffing undone."""
    out: list[str] = []
    # An unfinished line: its quote depth, its pieces (none empty), joined once it ends, as
    # adding each piece to a string made a megabyte of soft breaks take seconds; their size.
    held, depth_held, pieces, size = False, 0, [], 0
    for line in text.split("\n"):
        m = _QUOTE_PREFIX.match(line)
        depth = len(m.group(1)) if m else 0
        content = line[m.end():] if m else line
        if not m and content.startswith(" "):
            content = content[1:]  # space-stuffed
        if held and depth_held != depth:
            out.append(_requote(depth_held, "".join(pieces)))
            held, pieces, size = False, [], 0
        if content:
            pieces.append(content)
            size += len(content)
        if pieces and pieces[-1].endswith(" ") and (size != 3 or "".join(pieces) != "-- "):
            if delsp:
                last = pieces.pop()[:-1]
                size -= 1
                pieces += [last] if last else []
            held, depth_held = True, depth
        else:
            out.append(_requote(depth, "".join(pieces)))
            held, pieces, size = False, [], 0
    if held:
        out.append(_requote(depth_held, "".join(pieces)))
    return "\n".join(out)


def _requote(depth: int, content: str) -> str:
    return ">" * depth + (" " if depth and content else "") + content


def plain_body(msg: Message) -> str:
    """The text the player wrote: text/plain preferred, else text/html turned into text."""
    plain = html = None
    for part in _leaves(msg):
        ctype = part.get_content_type()
        if ctype == "text/plain":
            plain = part
            break
        if ctype == "text/html" and html is None:
            html = part
    if plain is not None:
        text = _normal_text(_decode(plain))
        if (plain.get_param("format") or "").lower() == "flowed":
            text = _unflow(text, (plain.get_param("delsp") or "").lower() == "yes")
    elif html is not None:
        try:
            text = html_to_text(_normal_text(_decode(html)))
        except ValueError as exc:
            raise MailError(str(exc)) from None
    else:
        raise MailError("the message has no text part (neither text/plain nor text/html)")
    return text


def _normal_text(text: str) -> str:
    """Line ends as '\\n', a leading byte-order mark removed."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text[1:] if text.startswith("\ufeff") else text


# --- the order lines ---------------------------------------------------------------------------

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_INVISIBLE = dict.fromkeys(map(ord, "\ufeff\u200b\u200c\u200d\u2060"), None)
_INVISIBLE.update(dict.fromkeys(map(ord, "\xa0\u2007\u202f"), " "))

_QUOTE = re.compile(r"^\s*>")
_SEPARATOR = re.compile(
    r"(?i)^(?:-{2,}\s*(?:original message|forwarded message|ursprüngliche nachricht"
    r"|weitergeleitete nachricht|message d['’]origine|message transféré|mensaje original"
    r"|mensaje reenviado|messaggio originale|messaggio inoltrato|oorspronkelijk bericht"
    r"|doorgestuurd bericht|mensagem original|mensagem encaminhada|originalmeddelande"
    r"|opprinnelig melding|oprindelig meddelelse)\s*-{2,}"
    r"|_{10,}"
    r"|begin forwarded message\s*:|début du message réexpédié\s*:"
    r"|anfang der weitergeleiteten nachricht\s*:)$")
# What phones and mail apps append below the text: the end of what the player wrote.
_MOBILE = re.compile(
    r"(?i)^(?:sent from (?:my )?\S.{0,40}|get outlook for \S.{0,20}|envoyé de(?:puis)? (?:mon )?"
    r"\S.{0,30}|von meinem \S.{0,30} gesendet|gesendet von \S.{0,30}|enviado desde mi \S.{0,30}"
    r"|inviato da \S.{0,30}|verzonden (?:met|vanaf) \S.{0,30}|enviado do meu \S.{0,30})$")
_FROM_HEADER = re.compile(r"(?i)^\s*\*?(?:from|de|von|van|da|från|fra)\s?:\*?\s*\S")
_HEADER = re.compile(
    r"(?i)^\s*\*?(?:sent|date|to|cc|subject|envoyé|à|objet|gesendet|datum|an|betreff"
    r"|verzonden|aan|onderwerp|enviado|para|asunto|fecha|inviato|oggetto|data|a"
    r"|skickat|till|ämne|sendt|til|emne)\s?:\*?(?:\s|$)")
_ATTRIBUTION_VERB = re.compile(
    r"(?i)\b(?:wrote|a\s+[ée]crit|schrieb|schreef|escribi[óo]|ha\s+scritto|escreveu|skrev"
    r"|kirjoitti)\b.*:$")
_ATTRIBUTION_INTRO = re.compile(r"^(?:On|Le|Am|Op|El|Il|Em|Den)\s")
_ORDER_KEY = re.compile(r"(?i)^(?:>\s*)*order[\s-]*key\s*:")
_MARKER = re.compile(r"^(?:[-*+•◦‣▪–]\s+|•|\d{1,3}[.)](?!\d))\s*")

# The first word of every order of a kind of game, as the module that reads its orders lists
# them, and what unit ids look like: a line with either is never taken for a greeting, a
# closing or a name.
CAMPAIGN_VERBS = ORDER_WORDS      # TTLM and AT ALL COSTS! (engine/reading.py)


_UNIT_ID = re.compile(r"(?i)(?<![\w-])[a-z]{2}-\d+")

_GREETING_WORDS = (
    "hi", "hello", "hey", "hiya", "howdy", "dear", "greetings", "good morning",
    "good afternoon", "good evening", "good day", "bonjour", "bonsoir", "salut", "coucou",
    "cher", "chère", "chers", "hallo", "moin", "servus", "guten morgen", "guten tag",
    "guten abend", "liebe", "lieber", "hola", "buenas", "buenos días", "buenos dias",
    "ciao", "salve", "buongiorno", "caro", "cara", "olá", "ola", "oi", "bom dia", "hoi",
    "goedemorgen", "goedendag", "beste", "hej", "hei", "god morgen", "moderator",
)
# A word of a greeting, a closing or a name, and the signs between two: each is taken
# whole, the longest run there is (a lookahead, which is never tried again, and its group
# matched), so that a line is read in time linear in its length. Had a run of '.' or '-' been
# free to end anywhere, as both a word and the signs around it hold them, a line of 200
# characters ('Thanks a....?') would be split every way there is before it failed: minutes.
_WORD = r"[\w.'’()&-]+"


def _whole(run: str, group: int) -> str:
    """The pattern run taken whole, as the regular expression's group number group."""
    return rf"(?=({run}))\{group}"


_GREETING = re.compile(
    r"(?i)^(?:" + "|".join(sorted(map(re.escape, _GREETING_WORDS), key=len, reverse=True))
    + r")\b(?:[\s,]+" + _whole(_WORD, 1) + r"){0,3}[\s,!.:]*$")
_SHORT_EXCLAMATION = re.compile(r"^[^\s,!]+(?:\s+[^\s,!]+){0,3}\s*(?:,|!+)$")

_CLOSING_WORDS = (
    "thanks", "thank you", "thanks a lot", "many thanks", "thx", "ty", "cheers", "regards",
    "best", "best regards", "kind regards", "warm regards", "all the best", "best wishes",
    "sincerely", "yours", "yours sincerely", "yours truly", "cordially", "take care",
    "merci", "merci beaucoup", "cordialement", "bien cordialement", "amitiés", "amicalement",
    "bises", "à bientôt", "salutations", "grüße", "grüsse", "gruß", "gruss", "viele grüße",
    "liebe grüße", "beste grüße", "herzliche grüße", "mit freundlichen grüßen", "mfg", "lg",
    "danke", "danke schön", "dankeschön", "vielen dank", "tschüss", "saludos", "un saludo",
    "gracias", "muchas gracias", "grazie", "saluti", "cordiali saluti", "a presto",
    "obrigado", "obrigada", "abraços", "abraço", "atenciosamente", "groeten", "groetjes",
    "met vriendelijke groet", "bedankt", "hälsningar", "vänliga hälsningar", "mvh", "tack",
    "hilsen", "venlig hilsen", "mange tak", "takk", "ciao",
)
_CLOSING = re.compile(
    r"(?i)^(?:" + "|".join(sorted(map(re.escape, _CLOSING_WORDS), key=len, reverse=True))
    + r")\b(?:" + _whole(r"[\s,!.—–-]+", 1) + "(?:" + _whole(_WORD, 2) + r")?){0,3}[\s,!.…:)]*$")
_NAME = re.compile(r"^(?:" + _whole(r"[—–-]*[—–]", 1) + r"\s*)?" + _whole(_WORD, 2) + r"(?:[\s,]+"
                   + _whole(_WORD, 3) + r"){0,3}[\s.!]*$")


def looks_like_order(text: str, verbs: Collection[str]) -> bool:
    """A verb the referee reads first, a unit id, or the JSON form of an order."""
    words = text.split()
    if not words:
        return False
    return (words[0].casefold().strip(",.!:;") in verbs or text.startswith("{")
            or _UNIT_ID.search(text) is not None)


def _cut(lines: list[str]) -> int:
    """Index of the first line of what is not the player's text (signature, old mail), or len."""
    for i, line in enumerate(lines):
        s = line.strip()
        if s == "--" or _SEPARATOR.match(s) or _MOBILE.match(s):
            return i
        if _FROM_HEADER.match(line) and any(_HEADER.match(x) for x in lines[i + 1:i + 5]):
            return i
    return len(lines)


def comment_lines(body: str, most: int) -> list[str]:
    """The first `most` '#' lines of what the sender typed (not quoted, above a signature or
    the old mail below a reply), each as the text after its '#' marks: not read as orders
    (order_lines), they are his notes."""
    lines = [line.translate(_INVISIBLE).rstrip() for line in _LINE_BREAK.split(body)]
    found = (t.strip().lstrip("#").strip() for t in lines[:_cut(lines)]
             if t.strip().startswith("#"))
    return [t for t, _ in zip((t for t in found if t), range(most))]


def typed_text(body: str) -> str:
    """What the sender typed himself: the lines not quoted ('>') above the old mail below a
    reply (an Outlook separator, a 'From:' header block), where the mail he answers is
    copied, its order key with it; his signature is his own."""
    lines = [line.translate(_INVISIBLE).rstrip() for line in _LINE_BREAK.split(body)]
    kept = []
    for i, line in enumerate(lines):
        if _SEPARATOR.match(line.strip()) or (
                _FROM_HEADER.match(line) and any(_HEADER.match(x) for x in lines[i + 1:i + 5])):
            break
        if not _QUOTE.match(line):
            kept.append(line)
    return "\n".join(kept)


def after_signature(body: str, verbs: Collection[str] = CAMPAIGN_VERBS
                    ) -> list[tuple[int, str]]:
    """The lines below a signature delimiter ('-- ') that read as orders, up to the old mail
    below a reply: never read, so the reply names them (an order written under the
    signature must not vanish unsaid)."""
    lines = [line.translate(_INVISIBLE).rstrip() for line in _LINE_BREAK.split(body)]
    end = _cut(lines)
    if end >= len(lines) or lines[end].strip() != "--":
        return []
    rest = lines[end + 1:]
    stop = _cut(rest)
    return [(end + 2 + i, t.strip()) for i, t in enumerate(rest[:stop])
            if not _QUOTE.match(t) and looks_like_order(t.strip(), verbs)]


def quoted_orders(body: str, verbs: Collection[str] = CAMPAIGN_VERBS
                  ) -> list[tuple[int, str]]:
    """The quoted lines ('> pass') above the first attribution line and the old mail below
    a reply that read as orders without their '>': never read, so a reply that found no
    order names them (the player typed them so, or kept them from the mail he answers)."""
    lines = [line.translate(_INVISIBLE).rstrip() for line in _LINE_BREAK.split(body)]
    end = _cut(lines)
    end = min(_attributions(lines, end, verbs), default=end)
    return [(i + 1, t.strip()) for i, t in enumerate(lines[:end])
            if _QUOTE.match(t) and looks_like_order(t.strip().lstrip("> "), verbs)]


def _attributions(lines: list[str], end: int, verbs: Collection[str]) -> set[int]:
    """Indexes of the attribution lines ('On <date>, <name> wrote:'), wrapped ones included."""
    found: set[int] = set()
    for i in range(end):
        s = lines[i].strip()
        if not s or _QUOTE.match(s) or i in found:
            continue
        if s.endswith(":") and _ATTRIBUTION_VERB.search(s):  # never an order
            found.add(i)
            continue
        if not _ATTRIBUTION_INTRO.match(s) or looks_like_order(s, verbs):
            continue
        parts = [s]
        for j in range(i + 1, min(i + 3, end)):
            t = lines[j].strip()
            if not t or _QUOTE.match(t) or looks_like_order(t, verbs):
                break
            parts.append(t)
            if t.endswith(":"):
                if _ATTRIBUTION_VERB.search(" ".join(parts)[:2000]):
                    found.update(range(i, j + 1))
                break
    return found


def _drop_greeting(lines: list[tuple[int, str]], verbs: Collection[str],
                   exclaimed: bool = True) -> list[tuple[int, str]]:
    if lines:
        first = lines[0][1]
        if looks_like_order(first, verbs):
            return lines
        # A greeting word ("Hi", "hello Bob,"), or (exclaimed) a few words ending in ',' or
        # '!' that do not start in lower case ("Ivan here. Attack!").
        if _GREETING.match(first) or (exclaimed and _SHORT_EXCLAMATION.match(first)
                                      and not first[0].islower()):
            return lines[1:]
    return lines


def _drop_closing(lines: list[tuple[int, str]], verbs: Collection[str]
                  ) -> list[tuple[int, str]]:
    for k in (2, 1, 0):  # the closing line, then k name lines up to the end
        at = len(lines) - 1 - k
        if at < 0:
            continue
        closing, names = lines[at][1], [t for _, t in lines[at + 1:]]
        if (_CLOSING.match(closing) and not looks_like_order(closing, verbs)
                and all(_NAME.match(n) and len(n) <= 40 and not looks_like_order(n, verbs)
                        for n in names)):
            return lines[:at]
    return lines


def order_lines(body: str, key: str | None = None, verbs: Collection[str] = CAMPAIGN_VERBS,
                exclaimed: bool = True) -> list[tuple[int, str]]:
    """The order lines of a mail body, each with its line number (from 1) in body; verbs are
    the first words of the game's orders (CAMPAIGN_VERBS, or its GameKind's verbs()).

    Dropped: everything from a signature ('-- ') or the old mail below a reply (an Outlook
    separator, a 'From:' header block) to the end, quoted '>' lines, attribution lines
    ('On <date>, <name> wrote:' in several languages, also wrapped), the 'Order key:' line
    (and a line that is only the key, however it is typed), a greeting first and a closing
    (with up to two name lines) last, '#' comments and blank lines. List markers ('- ',
    '1. ') are stripped. A first line of a few words ending in ',' or '!' is a greeting too
    unless exclaimed is False: a mail's prose_apart (prose.py) then passes it over as the
    prose it is, and its reply names it, as it names every remark that is not a greeting.
    """
    lines = [line.translate(_INVISIBLE).rstrip() for line in _LINE_BREAK.split(body)]
    end = _cut(lines)
    attributions = _attributions(lines, end, verbs)
    wanted_key = compact(key) if key and compact(key) else None
    kept: list[tuple[int, str]] = []
    for i in range(end):
        if i in attributions or _QUOTE.match(lines[i]):
            continue
        text = _uncommented(lines[i])
        text = _MARKER.sub("", text, count=1).strip()
        if not text or _ORDER_KEY.match(text) or (wanted_key and compact(text) == wanted_key):
            continue
        kept.append((i + 1, text))
    return _drop_closing(_drop_greeting(kept, verbs, exclaimed), verbs)


# A question's record number written as reports write it, `explain #12`: its '#' is no
# comment's.
_EXPLAIN_HASH = re.compile(r"(?i)^\s*explain\s+#(?=\d)")


def _uncommented(line: str) -> str:
    """A line less its '#' comment (that of `explain #12` is the record's sign)."""
    asked = _EXPLAIN_HASH.match(line)
    at = asked.end() if asked else 0
    return (line[:at] + line[at:].split("#", 1)[0]).strip()


# --- a dice sheet's lines ----------------------------------------------------------------------

SHEET_LINE = re.compile(r"(?i)^(link|sheet)\s*:\s*(.*)$")


def sheet_lines(lines: list[tuple[int, str]]
                ) -> tuple[list[tuple[int, str]], str | None, str | None, str | None]:
    """The order lines without the 'Link: LINK' and 'Sheet: TIP' lines of a player's dice sheet,
    the link and the tip they give (None when absent), and what is wrong with them (a kind
    given twice), or None."""
    kept: list[tuple[int, str]] = []
    found: dict[str, tuple[int, str]] = {}
    for n, text in lines:
        m = SHEET_LINE.match(text)
        if m is None:
            kept.append((n, text))
            continue
        kind = m.group(1).lower()
        if kind in found:
            return kept, None, None, (f"line {n}: a second '{kind.capitalize()}:' line (line "
                                      f"{found[kind][0]} has one); give one")
        found[kind] = (n, m.group(2).strip())
    link, tip = found.get("link"), found.get("sheet")
    return kept, link and link[1], tip and tip[1], None


def mail_bytes(msg: EmailMessage) -> bytes:
    """A mail the referee wrote, as it is spooled and sent. An address beyond ASCII
    (jörg@example.de) is written as it is, in UTF-8 (RFC 6532), for a server that takes it
    (SMTPUTF8): an encoded word in its place is no address at all. Every other mail is
    written as before, in ASCII."""
    addresses = " ".join(str(msg.get(k, "")) for k in ("From", "To", "Cc"))
    # A header in ASCII is written on one line (up to RFC 5322's 998 characters), never
    # folded: a Subject folded inside its [referee GAME] tag, or before it, reads with a
    # line break or a leading blank in a mail program that does not unfold it (one beyond
    # ASCII is folded into encoded words of 75 characters at most, as RFC 2047 wants). The
    # body was encoded when it was set (quoted-printable, 76 characters a line), and is not
    # wrapped again.
    if not addresses.isascii():         # every header as it is, in UTF-8: no encoded word
        return msg.as_bytes(policy=msg.policy.clone(utf8=True, max_line_length=998))
    ascii_heads = all(str(v).isascii() for v in msg.values())
    return msg.as_bytes(policy=msg.policy.clone(max_line_length=998) if ascii_heads
                        else msg.policy)
