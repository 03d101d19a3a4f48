"""referee: a command-line judge for play-by-email games of TO THE LAST MAN!"""

import sys as _sys

__version__ = "0.1.0"

# msgspec's submodules that it imports with itself and the referee never uses: its type
# introspection (a few dozen classes of its own) and its JSON Schema writer (with textwrap),
# about a fiftieth of the import floor.
_UNUSED = ("msgspec.inspect", "msgspec._json_schema")


def load_msgspec() -> None:
    """Import msgspec without its optional typing_extensions where Python's typing suffices,
    and without the submodules the referee never uses (_UNUSED).

    msgspec takes two names from typing_extensions when it is installed and
    from typing otherwise; since Python 3.11 typing has both. Importing
    typing_extensions imports inspect, ast and tokenize, about a tenth of the
    import floor that every quick command would pay for nothing. The module
    is hidden for the one import, then left to whoever needs it; the unused
    submodules stand in as empty modules for it, then are gone again, so that
    an import of one loads it as usual (and msgspec.json.schema loads its own on
    its first call). The quick paths call this before they load the rules
    (commands.py).
    """
    if "msgspec" in _sys.modules or "typing_extensions" in _sys.modules or \
            _sys.version_info < (3, 11):
        return
    _sys.modules["typing_extensions"] = None     # makes `import typing_extensions` fail
    standing_in = _stand_ins()
    try:
        import msgspec  # noqa: F401
    except ImportError:                          # a msgspec that needs it after all
        del _sys.modules["typing_extensions"]
        for name in [m for m in _sys.modules if m.startswith("msgspec")]:
            del _sys.modules[name]
        import msgspec  # noqa: F401,F811
    else:
        del _sys.modules["typing_extensions"]
        _withdraw(msgspec, standing_in)


def _stand_ins() -> dict:
    """An empty module in place of each unused submodule not loaded yet; the JSON Schema
    writer's two functions load the real one when called."""
    standing_in = {}
    for name in _UNUSED:
        if name not in _sys.modules:
            module = standing_in[name] = _sys.modules[name] = type(_sys)(name)
            module.schema, module.schema_components = _schema("schema"), \
                _schema("schema_components")
    return standing_in


def _withdraw(msgspec, standing_in: dict) -> None:
    """The stand-ins gone from the modules and from msgspec: an import loads the real one."""
    for name, module in standing_in.items():
        if _sys.modules.get(name) is module:
            del _sys.modules[name]
        attr = name.rpartition(".")[2]
        if getattr(msgspec, attr, None) is module:
            delattr(msgspec, attr)


def _schema(attr: str):
    """msgspec.json's `attr`, which loads the JSON Schema writer on its first call."""

    def call(*args, **kwargs):
        from msgspec import _json_schema

        return getattr(_json_schema, attr)(*args, **kwargs)

    call.__name__ = call.__qualname__ = attr
    return call
