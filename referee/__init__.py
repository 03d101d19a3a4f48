"""referee: a command-line judge for play-by-email games of TO THE LAST MAN!"""

import sys as _sys

__version__ = "0.1.0"


def load_msgspec() -> None:
    """Import msgspec without its optional typing_extensions where Python's typing suffices.

    msgspec takes two names from typing_extensions when it is installed and
    from typing otherwise; since Python 3.11 typing has both. Importing
    typing_extensions imports inspect, ast and tokenize, about a tenth of the
    import floor that every quick command would pay for nothing. The module
    is hidden for the one import, then left to whoever needs it. The quick
    paths call this before they load the rules (commands.py).
    """
    if "msgspec" in _sys.modules or "typing_extensions" in _sys.modules or \
            _sys.version_info < (3, 11):
        return
    _sys.modules["typing_extensions"] = None     # makes `import typing_extensions` fail
    try:
        import msgspec  # noqa: F401
    except ImportError:                          # a msgspec that needs it after all
        del _sys.modules["typing_extensions"]
        for name in [m for m in _sys.modules if m.startswith("msgspec")]:
            del _sys.modules[name]
        import msgspec  # noqa: F401,F811
    else:
        del _sys.modules["typing_extensions"]
