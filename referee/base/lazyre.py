"""A regular expression compiled at its first use, for a module-level pattern that most
commands never use: compiling one costs about a tenth of a millisecond, and a cold read
imports modules that hold a dozen such for the paths it does not take.
"""

from __future__ import annotations

import re


class LazyPattern:
    """re.compile(pattern, flags), compiled when one of its attributes (match, search, sub,
    pattern...) is first asked for; each attribute asked for is then kept on the object, so
    a later use costs what the compiled pattern's own does."""

    def __init__(self, pattern: str, flags: int = 0):
        self._source = (pattern, flags)

    def __getattr__(self, name: str):
        if name.startswith("__") or name == "_source":
            raise AttributeError(name)
        value = getattr(re.compile(*self._source), name)
        setattr(self, name, value)
        return value
