"""The stable names a script reads where a sentence says the same thing: why a mail was not
applied, why a game waits on its moderator, what kind of error refused an order. Each is an
enumeration here, its values the only ones a document may hold; the sentences beside them
(`reason`, `waits_on_moderator`, `error`) may change their words in any version, never these.
"""

from typing import Literal, get_args

# Why a mail was not applied (`code` beside a message's `reason`, in inbox-result and in each
# game of tick-result), whatever its game's kind; null for a mail applied, or answered (an
# `explain N` mail).
MailCode = Literal[
    # refused (a campaign's `rejected`, a skirmish's `refused`): who sent it
    "stranger",             # its sender's address is no player's of this game
    "former_address",       # it was a player's address, no longer registered
    "no_key",               # from a player's address, without his order key
    "wrong_key",            # from a player's address, with a key that is not his (a former
                            # one, another game's, another side's)
    "moderator_address",    # from the moderator's address: he gives orders with `order`
    "observer",             # from an observer's address: observers give no orders
    "too_large",            # over the size limit: none of it was read
    "cannot_read",          # its text cannot be read (a broken encoding or structure)
    # refused: what it says
    "no_orders",            # no order line in it
    "bad_order",            # an order line (or a standing order) unreadable, ambiguous or
                            # illegal now: its line and why are in `reason`
    "dice",                 # its dice, or its dice sheet's lines, missing or wrong
    "extend_refused",       # an `extend` mail refused (its own line, or the game's rule)
    "explain_refused",      # an `explain N` mail refused
    "duplicate",            # a copy of a mail handled before (rejected or skipped)
    "stale",                # a reply to an older mail, its decision changed since
    "game_over",            # the game is over: it takes no orders
    "game_closed",          # the game is closed (its secret revealed)
    "game_paused",          # the game is paused
    # not applied, not refused
    "held_for_dice",        # held for the moderator's dice (a manual-dice game)
    "other_game",           # another game's (skipped)
    "referee_mail",         # from the referee's own address, or one of its own mails
    "automatic",            # an automatic reply or a bounce, set aside
    "already_handled",      # handled by an earlier run (`known`, a skirmish's `done`)
    "unreadable",           # gone or changed since the mailbox was read: read again later
    "no_sender",            # no usable sender address or Message-ID: nothing to answer
    "failed",               # the referee failed on it: set aside, the game untouched
]
MAIL_CODES: tuple[str, ...] = get_args(MailCode)

# Why a game of a tick pass waits on its moderator (`waits_on_moderator_code`), the sides it
# concerns beside it (`waits_on_moderator_sides`).
WaitCode = Literal[
    "deadline_missed",      # a side's deadline passed under `--missed wait`: none answered
    "paused",               # paused by a missed deadline (policy pause)
    "held_for_dice",        # mailed orders held for his dice (a manual-dice game)
    "no_address",           # a side owes an answer and has no registered address
    "dispute_open",         # a skirmish's dispute waits on his ruling (settle)
]
WAIT_CODES: tuple[str, ...] = get_args(WaitCode)

# The kind of the error that refused an order (`kind` in an order-result's `rejected`): the
# error object's kinds of an order refused (base/errors.py), exit 1.
OrderKind = Literal["order_syntax", "ambiguous_order", "illegal_order", "dice", "dice_sheet",
                    "stale_view", "order_rejected"]
ORDER_KINDS: tuple[str, ...] = get_args(OrderKind)
