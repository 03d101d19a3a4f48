"""Allow `python -m referee`."""

from .cli.start import console

console()
