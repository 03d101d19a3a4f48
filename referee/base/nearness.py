"""Names near what was typed: a name folded for matching, and the "did you mean" an error
ends with when what was typed names nothing (an area 1.1, a unit 1.4, a card 1.3, an order's
first word or a skirmish fact)."""

from __future__ import annotations

from .errors import quoted


def fold(name: str) -> str:
    """Fold a name for matching: case, accents, hyphens, spaces and apostrophes ignored."""
    import unicodedata  # start-up: a read folds no name

    text = unicodedata.normalize("NFKD", name)
    text = "".join(c for c in text if not unicodedata.combining(c))
    text = text.replace("ß", "ss").casefold()
    return "".join(c for c in text if c.isalnum())


# "Did you mean": at most this many names, each at least this close (difflib's ratio) to
# what was typed and not much further than the closest; a name of several words is tried
# over the first few words typed.
SUGGEST_AT_MOST = 3
SUGGEST_CUTOFF = 0.6
SUGGEST_MARGIN = 0.15
_SUGGEST_WORDS = 4


def nearest(words, names: dict[str, str], limit: int = SUGGEST_AT_MOST) -> list[str]:
    """The names nearest to the words typed (a name's folded spellings -> the name shown),
    closest first, for an error's 'did you mean' (areas 1.1, units 1.4, cards 1.3)."""
    import difflib  # start-up: 1-4 ms, paid only when an order is rejected, never by status

    typed = [words] if isinstance(words, str) else list(words)[:_SUGGEST_WORDS]
    best: dict[str, float] = {}
    for n in range(1, len(typed) + 1):
        key = fold("".join(typed[:n]))
        if not key:
            continue
        m = difflib.SequenceMatcher(b=key, autojunk=False)
        for spelling, shown in names.items():
            m.set_seq1(spelling)
            if m.real_quick_ratio() < SUGGEST_CUTOFF or m.quick_ratio() < SUGGEST_CUTOFF:
                continue
            r = m.ratio()
            if r >= SUGGEST_CUTOFF and r > best.get(shown, 0.0):
                best[shown] = r
    top = max(best.values(), default=0.0)
    margin = 0.0 if top == 1.0 else SUGGEST_MARGIN      # typed right but for case or hyphens
    near = [shown for shown in best if best[shown] >= top - margin]
    return sorted(near, key=lambda shown: (-best[shown], shown))[:limit]


def did_you_mean(names: list[str]) -> str:
    """'; did you mean A, B or C?' to end an order's or a command's error (the names from
    nearest); a name with a character that is not printable (hostile data) is quoted."""
    if not names:
        return ""
    names = [n if n.isprintable() else quoted(n) for n in names]
    head = ", ".join(names[:-1])
    return f"; did you mean {head + ' or ' if head else ''}{names[-1]}?"
