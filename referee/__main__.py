"""Allow `python -m referee`."""

from .cli.entry import console

console()
