"""Whether the text being laid out goes into a mail, sent as format=flowed (RFC 3676,
mail/flowed.py): then a line the wrappers break inside a paragraph ends in a space (a soft
break) and a line that begins with a space is wrapped a column shorter, for the space it
is stuffed with. Set for the commands that write mails (cli/app.py); text laid out for a
terminal, a forum or a file is as it always was."""

from __future__ import annotations

from contextvars import ContextVar

FLOWED: ContextVar[bool] = ContextVar("flowed", default=False)
