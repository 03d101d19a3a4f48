"""A player's prose around his orders: the lines of a mail read as orders run from the
first line that reads as one to the last; the lines before and after them are passed over
and named in the reply, unless their first word is a slip of a verb or a mangled word, which
reads as a mistyped order (refused, never passed over)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection
from difflib import SequenceMatcher

from . import message as mailtext
from .message import looks_like_order
from .refusal import not_read, quoted_out, under_signature

# --- the orders and the prose around them -----------------------------------------------------

# A slip of the keyboard: difflib's ratio between a word and the verb it is near, from its
# first letter on (transposed letters aside). 0.75 keeps a letter dropped, doubled or
# swapped ('pas', 'playy', 'mvoe') and one wrong after the first ('mive'), and lets go of
# the words of prose that share most of a verb's letters but not its first ('send' for end,
# 'one' for done, 'right' for fight).
SLIP_RATIO = 0.75
# The most first words of prose looked at for a slip in one mail (the rest are taken for
# orders): a bound on the work a mail of 1 MB makes, far above what a player writes.
MOST_WORDS = 1000
_SLIP_WORD = re.compile(r"[^\W\d_]{3,16}")


def _swapped(word: str, verb: str) -> bool:
    """Whether word is verb with two neighbouring letters swapped ('edn', 'mvoe')."""
    at = [i for i, (a, b) in enumerate(zip(word, verb)) if a != b]
    return len(at) == 2 and at[1] == at[0] + 1 and word[at[0]] == verb[at[1]] and \
        word[at[1]] == verb[at[0]]


class _Slips:
    """Which word of a list a typed word is a slip for (the nearest): the words by first
    letter and by their letters, so that a word is compared with a few of them only."""

    def __init__(self, words: Collection[str]):
        self.first: dict[str, list[str]] = {}
        self.letters: dict[str, list[str]] = {}
        for w in dict.fromkeys(x.casefold() for x in words):
            self.first.setdefault(w[:1], []).append(w)
            self.letters.setdefault("".join(sorted(w)), []).append(w)
        self.matcher = SequenceMatcher(autojunk=False)

    def of(self, word: str) -> str | None:
        for verb in self.letters.get("".join(sorted(word)), ()):
            if _swapped(word, verb):
                return verb
        m, best, near = self.matcher, SLIP_RATIO, None
        m.set_seq2(word)
        for verb in self.first.get(word[:1], ()):
            m.set_seq1(verb)
            if m.real_quick_ratio() >= best and m.quick_ratio() >= best and m.ratio() >= best:
                best, near = m.ratio(), verb
        return near


def _first_word(text: str) -> str:
    """The first word of a line as a slip is looked for: casefolded, without the
    punctuation around it; '' when it is not a word of 3 to 16 letters."""
    first = text.split(None, 1)[0].casefold().strip(",.!:;") if text.strip() else ""
    return first if _SLIP_WORD.fullmatch(first) else ""


def _odd_word(text: str) -> bool:
    """Whether a line's first word is no word of prose but a mangled one: letters mixed with
    digits or signs ('d0ne', 'end_turn', 'p@ss'), Latin letters mixed with look-alikes of
    another script, or letters of another width ('ｐｌａｙ'). Such a line is taken for an
    order (refused, quoted), never passed over."""
    first = text.split(None, 1)[0].strip(",.!:;") if text.strip() else ""
    if not 2 <= len(first) <= 16 or not any(c.isalpha() for c in first):
        return False
    if unicodedata.normalize("NFKC", first) != first:
        return True
    latin = any(c.isascii() and c.isalpha() for c in first)
    return latin and (any(c.isdigit() or c in "_@$&" for c in first) or
                      any(c.isalpha() and not unicodedata.name(c, "").startswith("LATIN")
                          for c in first))


def slip_of(text: str, words: Collection[str]) -> str | None:
    """The word of words that the first word of text is a slip of the keyboard for ('mvoe'
    for move, 'pas' for pass), or None: it begins with the same letter and difflib finds
    it close (SLIP_RATIO), or it has two neighbouring letters swapped."""
    first = _first_word(text)
    return _Slips(words).of(first) if first else None


def prose_apart(lines: list[tuple[int, str]], verbs: Collection[str],
                heads: Collection[re.Pattern] = (), slips: Collection[str] = ()
                ) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """(orders, prose) of a mail's lines (order_lines'): the orders run from the first line
    that reads as one to the last; the lines before and after them are the player's prose,
    not read as orders. A line reads as an order when it starts with a verb (verbs), names
    a unit id or is JSON (as for greetings), matches one of heads (the mail's own lines:
    'standing:', 'extend', 'Link:'), or starts with a slip of a verb or of slips ('mvoe',
    'pas'; not a line ending in ':' or '?'; and past MOST_WORDS words of prose, any): a
    mistyped order is refused, never passed over. A line between two orders is an order
    line, whatever it says: refused when it is none."""
    near = _Slips([*verbs, *slips])
    seen: dict[str, bool] = {"": False}     # a word's verdict, once (a long mail repeats)

    def order_like(text: str) -> bool:
        if looks_like_order(text, verbs) or any(h.match(text) for h in heads):
            return True
        if text.endswith((":", "?")):       # it introduces or asks: no order ends so
            return False
        if _odd_word(text):
            return True
        word = _first_word(text)
        if word not in seen:
            # Past so many words of prose (no player's mail), each further one is taken for
            # an order: refused, never passed over, at a bounded cost.
            seen[word] = len(seen) > MOST_WORDS or near.of(word) is not None
        return seen[word]

    at = [i for i, (_, text) in enumerate(lines) if order_like(text)]
    if not at:
        return [], list(lines)
    return lines[at[0]:at[-1] + 1], lines[:at[0]] + lines[at[-1] + 1:]


def _counted(kept: list[tuple[int, str]], read: list[tuple[int, str]],
             prose: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The prose lines numbered as a refusal numbers the orders ('line 2 of your orders'):
    among the lines read, from the first order on, never counting the quoted mail or blank
    lines, which a phone shows no number for; a line above the orders is numbered 0 (told
    as above them), and with no order read, the lines count from the first one read."""
    at = {n: i for i, (n, _) in enumerate(kept)}
    first = at[read[0][0]] if read else 0
    return [(max(at[n] - first + 1, 0), text) for n, text in prose]


def read_orders(body: str, key: str | None, verbs: Collection[str],
                heads: Collection[re.Pattern] = (), slips: Collection[str] = ()
                ) -> tuple[list[tuple[int, str]], list[str]]:
    """A mail body's order lines (prose_apart's orders of order_lines'), and the notes its
    reply gives of what was not read: the prose around them, the orders typed behind a
    quote mark when none was read, the orders under a signature."""
    # A remark opening the mail ('Ivan here. Attack!') is prose, named as every other is:
    # only a greeting ('Hello Bob,') is passed over without a word.
    kept = mailtext.order_lines(body, key, verbs, exclaimed=False)
    read, prose = prose_apart(kept, verbs, heads, slips)
    quoted = [] if read else quoted_out(mailtext.quoted_orders(body, verbs))
    return read, not_read(_counted(kept, read, prose)) + quoted + under_signature(
        mailtext.after_signature(body, verbs))


def as_counted(read: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """A mail's order lines (read_orders) numbered as its reply counts them, 'line 2 of
    your orders': from the first order on, leaving out the blank lines and the quoted mail
    a phone shows no number for (the lines read run without a gap over what order_lines
    kept). One numbering for every line named, in the reply and in the moderator's log
    alike: the log's 'line 4' of a mail whose reply said 'line 2' named one line twice."""
    return [(n, text) for n, (_, text) in enumerate(read, start=1)]
