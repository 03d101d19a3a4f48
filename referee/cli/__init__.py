"""The command line only: declarations, the error boundary, output."""

# The reads: short processes that leave almost no cyclic garbage.
READS = ("status", "show")
# The commands run with the garbage collector paused (start.py, entry.run): the reads, and
# `order`, whose process leaves about a thousand cyclic objects after one order at the end of
# a campaign, while the collector would walk the objects of its imports some sixty times.
COLLECTED_LATE = (*READS, "order")
# The commands that write players' mails (inbox, tick, watch): their mails' text is laid out
# for format=flowed, with soft line breaks (base/flowing.py). Every other command's text is
# printed, or posted, laid out as it always was, even a command's status after its records.
MAILED = frozenset({"inbox", "tick", "watch"})


def wants_json(argv: list[str]) -> bool:
    """Whether the command line asks for JSON (`--format json`), read from the words
    themselves: an error in parsing them comes before any option has a value."""
    for i, word in enumerate(argv):
        if word == "--":
            break
        if word == "--format=json" or (word == "--format" and argv[i + 1:i + 2] == ["json"]):
            return True
    return False
