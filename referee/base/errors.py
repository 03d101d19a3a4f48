"""The referee's error tree and the exit code each kind of error maps to.

Exit codes are stable (scripts depend on them): 1 a rejected order,
2 bad usage, 3 a data file or journal integrity problem, or a file that could
not be written; 4 an internal error (a bug); 5 (verify only) no damage found,
but records made under older rules were replayed, not decided again; 75 the game
busy: another process held its journal (or its mail lock) for longer than a command waits,
and nothing was done (sysexits' EX_TEMPFAIL: try again); 130 a command stopped by Ctrl-C
or SIGINT. docs/scripting.md holds their table, which a
test compares with these constants.

Each kind of error has a `kind`, the stable name a command run with
`--format json` gives it in the error object on stderr.
"""

from __future__ import annotations

from .glyphs import disguising, shown_repr
from .plurals import counted

EXIT_REJECTED = 1
EXIT_USAGE = 2
EXIT_INTEGRITY = 3
EXIT_INTERNAL = 4       # a bug: anything the referee did not expect
EXIT_OLDER_RULES = 5    # verify: intact, but records made under older rules were not re-decided
EXIT_BUSY = 75          # another process held the game's lock too long: nothing done, try again
EXIT_INTERRUPTED = 130  # Ctrl-C or SIGINT stopped the command (128 + the signal's number)
INTERRUPTED = ("interrupted (Ctrl-C or SIGINT); a record it had written stands, whole "
               "(`referee status` shows the game as it is)")
# What a message, a log line or a reply echoes of what someone typed or mailed: longer than
# any order the rules allow, so a real order is always shown whole, and a line of a megabyte
# is not sent back. The longest is a discard down to the card limit after buying cards (7.1):
# at most 16 cards (14 Build Points and a limit falling by 2, charts.yaml) of up to 26 letters.
QUOTE_LIMIT = 500
# What an error says of an order (which may name what the order named, as typed) is cut at
# twice that: the longest the rules write, with an order quoted whole, is well under it.
REASON_LIMIT = 2 * QUOTE_LIMIT


def clipped(text: str, limit: int = QUOTE_LIMIT) -> str:
    """text as it is echoed back: whole, or its first `limit` characters and '…'."""
    return text if len(text) <= limit else text[:limit] + "…"


def cites(text: str) -> bool:
    """Whether text cites a rule in brackets of its own: "(9.3, 9.4)", "(2.0 I)", "(rule
    9.1.6)", "(AAC 5.4.2)" (no regular expression: errors are raised on the quick paths)."""
    for part in text.split("(")[1:]:
        for prefix in ("rule ", "rules ", "AAC ", "TTLM "):
            part = part.removeprefix(prefix)
        number, dot, rest = part.partition(".")
        if dot and number.isdigit() and len(number) <= 2 and rest[:1].isdigit():
            return True
    return False


# A rule that is no rule's number nor a card's heading but where a game's own files set it
# (a skirmish's scenario): cited in brackets as it stands, "(the scenario's Forces, ...)".
CITED_AS_SAID = "the scenario"


def cited(reason: str, rule: str) -> str:
    """A reason and the rule it rests on, cited once: the reason as it is when its own words
    cite a rule in brackets already, else followed by '(rule RULE)' ('(RULE)' for one that
    names the scenario)."""
    return reason if cites(reason) else citing(reason, rule)


def citing(reason: str, rule: str) -> str:
    """reason followed by its rule, even where its own words cite another in brackets: a
    decision's prompt quoted within it cites a part's rule (8.3.3), not the decision's."""
    return f"{reason} ({rule})" if rule.startswith(CITED_AS_SAID) else f"{reason} (rule {rule})"


def one_line(text: str) -> str:
    """A name (a file's) as a message shows it: as it is, or escaped when it holds a line end
    or another character that is not printable, such as a byte that is not UTF-8 (one
    problem, one line: a name cannot forge a line of its own), or one that hides
    (base/glyphs.py)."""
    return text if text.isprintable() and disguising(text) is None else shown_repr(text)


def quoted(text: str, limit: int = QUOTE_LIMIT) -> str:
    """text quoted for a message; a long one is cut (clipped), so that an error stays one
    line of bounded length whatever was sent; a character that hides escaped (base/glyphs.py)."""
    if len(text) <= limit:
        return shown_repr(text)
    return f"{shown_repr(clipped(text, limit))} ({len(text)} characters)"


def echoed(text: str, limit: int = QUOTE_LIMIT) -> str:
    """A word the sender typed as a verb or a name, quoted: every character beyond ASCII
    that is no ASCII letter with marks on it (the Cyrillic 'а' of 'pаss', a full-width
    letter) shown as its escape, as a line that hides one is shown, so that the word does
    not read as the one it imitates; 'Liège' stays as it is."""
    import unicodedata  # start-up: only a refusal needs it

    def shown(ch: str) -> str:
        if ch.isascii() or unicodedata.normalize("NFD", ch)[0].isascii():
            return ch
        return ascii(ch)[1:-1]
    return "".join(shown(ch) for ch in quoted(text, limit))


class RefereeError(Exception):
    """Base of every error the referee expects and reports in one line."""

    kind = "error"
    exit_code = EXIT_USAGE

    def lines(self) -> list[str]:
        """The message as the lines printed on stderr."""
        return [str(self)]


class UsageError(RefereeError):
    """The command was called wrongly (bad option value, missing file)."""

    kind = "usage"
    exit_code = EXIT_USAGE


class ClockBehindError(UsageError):
    """The clock is behind the journal's last record by more than a few seconds' skew
    (store/timeorder.py): a record written now would be dated before it. Nothing is
    written."""

    kind = "clock_behind"


class ReceiptGameError(UsageError):
    """A receipt given to verify names another game than the journal's."""

    kind = "other_game"


class OrderError(RefereeError):
    """Base of the errors that reject an order (exit 1)."""

    kind = "order_rejected"
    exit_code = EXIT_REJECTED


class OrderSyntaxError(OrderError):
    """The order text cannot be parsed; quotes the text and the position."""

    kind = "order_syntax"

    def __init__(self, text: str, reason: str, position: int | None = None):
        self.text = text
        self.reason = reason
        self.position = position
        where = f" at column {position + 1}" if position is not None else ""
        super().__init__(f"cannot read order {quoted(text)}{where}: "
                         f"{clipped(reason, REASON_LIMIT)}")


class AmbiguousOrderError(OrderError):
    """A name in the order matches several things; lists the candidates."""

    kind = "ambiguous_order"

    def __init__(self, text: str, name: str, candidates: list[str]):
        self.text = text
        self.candidates = candidates
        super().__init__(
            f"order {quoted(text)}: {quoted(name)} could mean {', '.join(candidates)}; write "
            f"one of them"
        )


class IllegalOrderError(OrderError):
    """The order is well formed but the rules forbid it now; carries the rule number."""

    kind = "illegal_order"

    def __init__(self, text: str, rule: str, reason: str):
        self.text = text
        self.rule = rule
        self.reason = reason
        super().__init__(f"order {quoted(text)} rejected: "
                         f"{cited(clipped(reason, REASON_LIMIT), rule)}")


class DiceError(OrderError):
    """Manual dice are missing, extra or out of range."""

    kind = "dice"

    def __init__(self, reason: str):
        super().__init__(f"dice rejected: {reason} (nothing was recorded)")


class SheetError(DiceError):
    """A dice sheet's link is wrong, revealed already or missing where the orders roll dice
    or shuffle the deck (dice.py, sheets.py): nothing is recorded and no die is used."""

    kind = "dice_sheet"

    def __init__(self, reason: str, order: int | None = None, bare: str = ""):
        self.reason = reason
        # The order whose dice or plan needs the link (its index among the batch's orders)
        # and the reason without naming it: a mail's refusal quotes that order's line.
        self.order, self.bare = order, bare or reason
        OrderError.__init__(self, f"{reason} (nothing was recorded)")


class StaleViewError(OrderError):
    """The order was written against an older journal than the current one."""

    kind = "stale_view"


def order_kind(exc: BaseException) -> str:
    """The kind an order refused by exc is told by, as the error object names it: an
    OrderError's own, `order_rejected` for any other refusal."""
    kind = getattr(exc, "kind", None) if isinstance(exc, OrderError) else None
    return kind if isinstance(kind, str) else OrderError.kind


class GameDataError(RefereeError):
    """Every problem found in a game data directory, each with file and path."""

    kind = "game_data"
    exit_code = EXIT_INTEGRITY

    def __init__(self, problems: list[str]):
        self.problems = list(problems)
        super().__init__(f"{counted(len(self.problems), 'problem')} in the game data: "
                         + "; ".join(self.problems[:3]))

    def lines(self) -> list[str]:
        """One line per problem, then a count."""
        return [*self.problems, f"{counted(len(self.problems), 'problem')} found"]


class StorageError(RefereeError):
    """A file could not be written (disk full, I/O error); says what was left as it was."""

    kind = "storage"
    exit_code = EXIT_INTEGRITY


class ForeignGameError(RefereeError):
    """A command that writes was given a journal this user's referee did not sign: its key
    is not in his referee home, or its last record is not signed by the key it names.
    Nothing is written. A command that shows a game refuses with it too a journal passed off
    as this referee's: one naming its key or mark that is not what it wrote (records
    rewritten, an older copy put back: docs/security.md), which it never shows as its game."""

    kind = "foreign_game"
    exit_code = EXIT_INTEGRITY


class UnsignedGameError(UsageError):
    """A command that writes was given a game begun before journals were signed, not yet
    adopted (`referee upgrade`, as for a game under older rules). Nothing is written."""

    kind = "unsigned_game"


class ContractError(RefereeError):
    """A record the referee built breaks its own contract: a bug, caught before it is written."""

    exit_code = 4           # as an internal error: nothing a user typed or sent causes it
    kind = "contract"


# What the rules and the views raise when a well-chained journal of the wrong content leads
# them to a card, area, unit or decision the game data does not have: the replay, the views,
# the deadlines' walk and explain turn it into the error of the record at fault.
UNREADABLE = (KeyError, ValueError, TypeError, AttributeError, IndexError)


class JournalError(RefereeError):
    """The journal is damaged: torn line, broken chain, unknown version; or a record holds
    a secret part as its digest, as a redacted export does (redacted: whose part it is).
    signed: what verify found of the signatures of the records read before it failed."""

    kind = "journal"
    exit_code = EXIT_INTEGRITY

    def __init__(self, message: str, record: int | None = None, torn: bool = False,
                 redacted: str | None = None):
        self.record = record
        self.torn = torn
        self.redacted = redacted
        self.signed: list[str] = []
        super().__init__(message)
