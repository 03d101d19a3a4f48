"""The map picture as PNG, for a mail a phone shows: the SVG of svgmap drawn by resvg (the
resvg-py wheel, no system library) with the fonts shipped in fonts/ and no other, so the
picture is the same on every machine whatever fonts it has.
"""

from __future__ import annotations

from pathlib import Path

FONTS = Path(__file__).with_name("fonts")
FAMILY = "DejaVu Sans"          # the family of the files in fonts/ (the condensed width)


def font_files() -> list[str]:
    """The font files the picture is drawn with (OSError if there is none)."""
    files = sorted(str(p) for p in FONTS.glob("*.ttf"))
    if not files:
        raise OSError(f"no font file in {FONTS}: reinstall the referee")
    return files


def to_png(svg: str, width: int | None = None) -> bytes:
    """The SVG drawn as PNG bytes, `width` pixels wide (the SVG's own width by default), its
    text in the shipped fonts only (OSError if it cannot be drawn)."""
    try:
        import resvg_py  # a compiled wheel: loaded only to draw a PNG
    except ImportError as exc:
        raise OSError(f"the resvg-py package cannot be loaded ({exc}): reinstall the "
                      f"referee, or write a .svg") from None
    fonts = font_files()
    try:
        png = resvg_py.svg_to_bytes(
            svg_string=svg, skip_system_fonts=True, font_files=fonts,
            font_family=FAMILY, sans_serif_family=FAMILY, width=width)
    except Exception as exc:  # noqa: BLE001 - the binding raises bare exceptions
        raise OSError(f"resvg could not draw the picture: {type(exc).__name__}: {exc}"
                      ) from None
    png = bytes(png)
    if not png.startswith(b"\x89PNG\r\n\x1a\n"):
        raise OSError("resvg gave no PNG")
    return png
