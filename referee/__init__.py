"""referee: a command-line judge for play-by-email games of TO THE LAST MAN!"""

import os as _os
import sys as _sys

__version__ = "0.1.0"

# msgspec's submodules that it imports with itself and the referee never uses: its type
# introspection (a few dozen classes of its own) and its JSON Schema writer (with textwrap),
# about a fiftieth of the import floor; its YAML and TOML front ends (the referee reads YAML
# with PyYAML, and no TOML).
_UNUSED = ("msgspec.inspect", "msgspec._json_schema", "msgspec.yaml", "msgspec.toml")


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
    system = _system_stand_in()
    import typing

    forward_ref, typing.ForwardRef = typing.ForwardRef, _unread_forward_ref
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
    finally:
        typing.ForwardRef = forward_ref
        if system is not None and _sys.modules.get("platform") is system:
            del _sys.modules["platform"]


def _unread_forward_ref(arg, is_argument=True, module=None, *, is_class=False):
    """typing.ForwardRef while msgspec imports: msgspec makes one there only to learn that it
    takes `is_class` (every Python since 3.11 does), and a real one compiles its text, the
    process's first compile() (about a hundredth of the import floor), which no read needs
    otherwise. msgspec's own later ones are real."""


def _system_stand_in():
    """msgspec imports uuid (for its UUID type), whose only use of `platform`, outside
    Windows and macOS, is its system() once at import, to know the system it runs on: that is
    os.uname()'s sysname, as platform.system() has it on POSIX. The stand-in answers that,
    saving the import of platform (its regular expressions, about a sixtieth of the import
    floor); it is there for msgspec's import alone. None where it is not needed."""
    if "platform" in _sys.modules or "uuid" in _sys.modules or _sys.platform in (
            "win32", "darwin") or not hasattr(_os, "uname"):
        return None
    module = _sys.modules["platform"] = type(_sys)("platform")
    module.system = lambda: _os.uname().sysname
    return module


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


def _load_pathlib() -> None:
    """Import pathlib without urllib.parse (and the ipaddress it imports), about a fortieth
    of the import floor: pathlib takes one function of it, for Path.as_uri alone, which the
    referee never calls. That function stands in as one that imports urllib.parse when
    called; the module is hidden for pathlib's import only, then left to whoever needs it.
    Outside Windows, `nt` (Windows' own module, which ntpath, imported by pathlib, tries five
    times) is marked missing for that import too: each try searched every folder of the
    path for it first (a three-hundredth of the import floor in all)."""
    if "pathlib" in _sys.modules or "urllib.parse" in _sys.modules:
        return
    windowless = _os.name != "nt" and "nt" not in _sys.modules
    if windowless:
        _sys.modules["nt"] = None                # makes `import nt` fail at once
    standing_in = _sys.modules["urllib.parse"] = type(_sys)("urllib.parse")

    def quote_from_bytes(*args, **kwargs):
        from urllib.parse import quote_from_bytes as quote

        return quote(*args, **kwargs)

    standing_in.quote_from_bytes = quote_from_bytes
    try:
        import pathlib  # noqa: F401
    except ImportError:                          # a pathlib that needs more of it
        _sys.modules.pop("pathlib", None)
    finally:
        if _sys.modules.get("urllib.parse") is standing_in:
            del _sys.modules["urllib.parse"]
        if windowless and "nt" in _sys.modules and _sys.modules["nt"] is None:
            del _sys.modules["nt"]


_load_pathlib()
