"""An HTML mail's text, as a player reads it: block elements start lines, blockquotes become
'> ' lines, scripts and styles are dropped (message.plain_body reads a mail's HTML part
with it when there is no plain text).

The standard library's HTML parser reads the text, once _tamed has cut the HTML down to
tag names and text, so that hostile HTML costs time linear in its length.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

# How deep an HTML mail's quoting is written out: deeper is quoted all the same (a stranger's
# twenty thousand nested blockquotes, each line written that deep, took gigabytes).
_QUOTES_SHOWN = 20
# How many tags an HTML mail may hold to be read: the parser's cost is per tag (300,000 empty
# paragraphs in a 1 MB mail took it 2 s of a pass). Outlook quotes a plain-text report in
# four tags a line, and a reply the whole thread: one of seventy reports comes under the
# size limit with 54,000 tags, and Outlook's densest (blank lines, 11.5 bytes a tag) with
# 91,000 in a megabyte.
MOST_TAGS = 100_000


class _HtmlText(HTMLParser):
    """HTML as plain text: block elements start lines, blockquote contents become '> ' lines."""

    BLOCK = frozenset({
        "p", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote",
        "ul", "ol", "dl", "dt", "dd", "table", "pre", "hr", "section", "article", "header",
        "footer", "address", "center", "body",
    })
    SKIP = frozenset({"script", "style", "title", "template"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[tuple[int, str]] = []
        self.cur: list[str] = []
        self.cur_depth: int | None = None
        self.depth = 0
        self.skip = 0
        self.pre = 0

    def newline(self, force: bool = False) -> None:
        text = "".join(self.cur).strip()
        if text or force:
            depth = self.depth if self.cur_depth is None else self.cur_depth
            self.lines.append((depth, text))
        self.cur = []
        self.cur_depth = None

    def handle_starttag(self, tag, attrs):
        if tag in self.SKIP:
            self.skip += 1
        elif tag == "br":
            self.newline(force=True)
        elif tag in ("td", "th"):
            self.cur.append(" ")
        elif tag in self.BLOCK:
            self.newline()
            if tag == "blockquote":
                self.depth += 1
            elif tag == "pre":
                self.pre += 1

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag in self.SKIP:
            self.skip = max(0, self.skip - 1)

    def handle_endtag(self, tag):
        if tag in self.SKIP:
            self.skip = max(0, self.skip - 1)
        elif tag in self.BLOCK:
            self.newline()
            if tag == "blockquote":
                self.depth = max(0, self.depth - 1)
            elif tag == "pre":
                self.pre = max(0, self.pre - 1)

    def handle_data(self, data):
        if self.skip:
            return
        data = data.replace("\xa0", " ")
        if self.pre:
            first, *rest = data.split("\n")
            self._add(first)
            for piece in rest:
                self.newline(force=True)
                self._add(piece)
        else:
            self._add(re.sub(r"[ \t\r\n\f]+", " ", data))

    def _add(self, text: str) -> None:
        if self.cur_depth is None and text.strip():
            self.cur_depth = self.depth
        self.cur.append(text)

    def text(self) -> str:
        self.close()
        self.newline()
        out: list[str] = []
        for depth, line in self.lines:
            rendered = "> " * min(depth, _QUOTES_SHOWN) + line if line else ""
            if rendered or (out and out[-1]):  # no runs of blank lines
                out.append(rendered)
        while out and not out[-1]:
            out.pop()
        return "\n".join(out)


def html_to_text(html: str) -> str:
    """The text of an HTML part (ValueError when it cannot be read)."""
    parser = _HtmlText()
    try:
        parser.feed(_tamed(html))
        return parser.text()
    except (AssertionError, ValueError, IndexError) as exc:   # kept off by _tamed; if not,
        raise ValueError(f"the HTML part cannot be read ({exc})") from None  # ... said


# A tag as _tamed keeps it: its name, and whether it closes itself; its attributes (a value
# quoted after '=' may hold a '>') never hold a '<', so no match reads past the next one,
# and none is read twice: the attributes are taken whole in a lookahead, which is never
# tried again, so a tag that does not close fails at once (a possessive loop would say the
# same, but Python 3.11's first releases read it wrongly).
# The attributes are read in at most _ATTRIBUTE_STEPS steps (a step: a character, or a quoted
# value): the regular expression engine keeps about 200 bytes a step while it matches, and a
# stranger's tag of 150,000 attributes in a 1 MB mail took 190 MB. A tag with more (none a
# mail client writes) is text.
_ATTRIBUTE_STEPS = 8192
_TAG = re.compile(r"""<(/?)([A-Za-z][A-Za-z0-9:-]{0,31})"""
                  r"""(?=((?:=\s*(?:"[^<"]*"|'[^<']*')|[^<>/]|/(?!>))"""
                  rf"""{{0,{_ATTRIBUTE_STEPS}}}))\3(/?)>""")
_DECLARATION = re.compile(r"<[!?][^<>]*>")


def _tamed(html: str) -> str:
    """HTML the standard library's parser reads in time linear in its length, with the text
    it had: each tag cut down to its name (no attribute is read), comments, declarations
    and processing instructions dropped, and any other '<' made text. The parser looks
    ahead from each '<' it cannot close to the end of the document, and stumbles on some
    declarations: a stranger's 100 KB of unclosed tags took it 8 s, and '<![' stopped
    every pass. Every search here stops at the next '<', or is made once. ValueError past
    MOST_TAGS tags."""
    out: list[str] = []
    at, size, tags = 0, len(html), 0
    comment_end = -2                        # where the next '-->' is (-1: none is left)
    while at < size:
        lt = html.find("<", at)
        if lt < 0:
            out.append(html[at:])
            break
        out.append(html[at:lt])
        if html.startswith("<!--", lt):
            if comment_end < lt + 2 and comment_end != -1:
                comment_end = html.find("-->", lt + 2)      # '<!-->' closes itself
            if comment_end >= 0:
                at = comment_end + 3
                continue
        tag = _TAG.match(html, lt) or _DECLARATION.match(html, lt)
        if tag is None:
            out.append("&lt;")
            at = lt + 1
        elif tag.re is _TAG:
            tags += 1
            if tags > MOST_TAGS:
                raise ValueError(f"it holds more than {MOST_TAGS:,} tags: send the orders as "
                                 f"plain text")
            out.append(f"<{tag[1]}{tag[2].lower()}{tag[4]}>")
            at = tag.end()
        else:
            at = tag.end()
    return "".join(out)
