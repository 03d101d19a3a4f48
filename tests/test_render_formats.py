"""The text, markdown and BBCode renderers of a Document (referee.render.formats).

Text: every line fits the width except a lone order or a lone unbreakable word.
Markdown: parsed with a CommonMark parser, data never becomes HTML, a link or other
markup. BBCode: data never becomes a tag, and every tag opened is closed. In markdown, BBCode
and chat the colon of a URL's "://" and the dots of a URL, of a word from "www." and of an
e-mail address's domain are look-alikes (layout._unlinked), which read back as what they
stand for (_typed).
"""

from __future__ import annotations

import re

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from referee.base.glyphs import visible
from referee.render.chat import CHAT_LIMIT, POST_MARK_LINE, chat_posts, to_chat
from referee.render.formats import render, to_bbcode, to_text
from referee.render.layout import FIXED_WIDTH, _table_text, _unlinked
from referee.render.markdown import to_markdown
from referee.render.sections import (
    STYLES,
    Document,
    Items,
    Orders,
    Para,
    Section,
    Span,
    Table,
    as_json,
    para,
    plain,
)

HTML = "<script>alert(1)</script>"
LINK = "*x* [a](javascript:1)"
BB_URL = "[url=http://x]y[/url]"
BB_CLOSE = "[/c][b]x"
HOSTILE = [HTML, LINK, BB_URL, BB_CLOSE, "&amp; &#60;b&#62;", "<http://evil.example>",
           "![i](http://x/i.png)", "`tick` ``two``", "# not a heading", "1. not a list",
           "- not a list", "| not | a cell |", "~~gone~~ $x$ \\*"]
LONG_ORDER = ("attack from Saarbrücken with 3 GER armies, 2 GER corps and the "
              "Stoßtruppen into Liège")
assert len(LONG_ORDER) > 72

SAMPLE = Document(
    title="Turn 5: Summer 1915",
    sections=[
        Section("Front", [
            para("Liège holds; ", Span("Saarbrücken", "german"), " sends ",
                 Span("Stoßtruppen", "bold"), "."),
            Items([[plain("Verdun is "), Span("disputed", "disputed")],
                   [plain("Player "), Span(HTML, "entente")],
                   [Span(LINK, "italic")]]),
            Table(["Area", "Control", "Units"], [["Liège", "German", "2 GER corps"],
                                                 ["Saarbrücken", "disputed", "1 FRA army"]]),
        ]),
        Section("Your orders", [
            para("Send back ", Span("move 2 GER Metz-Verdun", "order"), " or:"),
            Orders(["move 1 GER Saarbrücken-Liège", LONG_ORDER]),
            Items([[plain(BB_URL)], [plain(BB_CLOSE)]]),
        ]),
    ],
    receipt="receipt 3f9a0c",
    colours={"german": "#4D4D4D", "entente": "#1F5FAF"},      # as a game's data gives them
)

# The sample table, columns 11, 8 and 11 wide, two spaces apart.
TABLE_TEXT = [
    "Area" + " " * 9 + "Control" + " " * 3 + "Units",
    "-" * 11 + "  " + "-" * 8 + "  " + "-" * 11,
    "Liège" + " " * 8 + "German" + " " * 4 + "2 GER corps",
    "Saarbrücken" + "  " + "disputed" + "  " + "1 FRA army",
]

MD = MarkdownIt("commonmark").enable("table")
# The look-alikes of a link's colon and dots read as what they stand for.
_TYPED = str.maketrans({"\ua789": ":", "\u2024": "."})


def _typed(text: str) -> str:
    return text.translate(_TYPED)


def _doc(*blocks, title: str = "T") -> Document:
    """A one-section document titled T with section S (lines 0-4), so blocks start at line 5."""
    return Document(title, [Section("S", list(blocks))])


def _all_tokens(src: str):
    """Every markdown-it token, inline children included."""
    for tok in MD.parse(src):
        yield tok
        yield from tok.children or []


def _inline_texts(src: str) -> list[str]:
    """The literal text of each inline token (text and code content, markup dropped)."""
    return [_typed("".join(c.content for c in tok.children if c.type in ("text", "code_inline")))
            for tok in MD.parse(src) if tok.type == "inline"]


def _assert_no_markup_from_data(src: str) -> None:
    """No raw HTML, link or image token anywhere in the parsed markdown."""
    types = {tok.type for tok in _all_tokens(src)}
    assert not types & {"html_inline", "html_block", "link_open", "image"}, types


def _flat(text: str) -> str:
    """Text as the renderers put it on one line, stripped."""
    return " ".join(text.replace("\t", " ").splitlines()).strip()


# --- text -------------------------------------------------------------------------------


def test_text_sample_exact():
    """The sample as text at 72 columns, line by line."""
    lines = to_text(SAMPLE).split("\n")
    assert lines == [
        "Turn 5: Summer 1915",
        "=" * 19,
        "",
        "Front",
        "-----",
        "Liège holds; Saarbrücken sends Stoßtruppen.",
        "",
        "- Verdun is disputed",
        "- Player " + HTML,
        "- " + LINK,
        "",
        *TABLE_TEXT,
        "",
        "Your orders",
        "-" * 11,
        "Send back move 2 GER Metz-Verdun or:",
        "",
        "  move 1 GER Saarbrücken-Liège",
        "  " + LONG_ORDER,
        "",
        "- " + BB_URL,
        "- " + BB_CLOSE,
        "",
        "receipt 3f9a0c",
        "",
    ]


def test_order_span_moves_whole_to_next_line():
    """An order span that does not fit starts a new line instead of being split."""
    doc = _doc(para("Players must send ", Span("move 2 GER Metz-Verdun", "order"), " today."))
    # Naive wrapping at 30 would give "Players must send move 2 GER" and split the order.
    assert to_text(doc, 30).split("\n")[5:7] == ["Players must send",
                                                 "move 2 GER Metz-Verdun today."]


def test_order_longer_than_width_stands_alone():
    """An order longer than the width is alone on its line; glued punctuation moves off it."""
    doc = _doc(para("Reply with ", Span(LONG_ORDER, "order"), " before Friday."))
    assert to_text(doc, 40).split("\n")[5:8] == ["Reply with", LONG_ORDER, "before Friday."]
    # Glued punctuation stays with a short order, and leaves a long one alone on its line.
    glued = _doc(para("Send (", Span("hold", "order"), "). Or ", Span("x" * 45, "order"), "."))
    assert to_text(glued, 40).split("\n")[5:8] == ["Send (hold). Or", "x" * 45, "."]


def test_items_wrap_with_hanging_indent():
    """List items wrap under their text, two columns in."""
    doc = _doc(Items([[plain("alpha beta gamma delta")], [plain("epsilon")]]))
    assert to_text(doc, 12).split("\n")[5:9] == ["- alpha beta", "  gamma", "  delta",
                                                 "- epsilon"]


def test_table_last_column_wraps_when_too_wide():
    """A table too wide for the width wraps its last column under itself."""
    doc = _doc(SAMPLE.sections[0].blocks[2])
    # The first two columns take 11 + 2 + 8 + 2 = 23, leaving 9 for "Units".
    assert to_text(doc, 32).split("\n")[5:12] == [
        TABLE_TEXT[0],
        "-" * 11 + "  " + "-" * 8 + "  " + "-" * 9,
        "Liège" + " " * 8 + "German" + " " * 4 + "2 GER",
        " " * 23 + "corps",
        "Saarbrücken  disputed  1 FRA",
        " " * 23 + "army",
        "",
    ]


def test_table_falls_back_to_fields_when_columns_cannot_fit():
    """With no room for the last column, each row becomes header: value lines."""
    doc = _doc(SAMPLE.sections[0].blocks[2])
    # At 28 only 5 columns are left for "Units": too narrow, so one field a line.
    assert to_text(doc, 28).split("\n")[5:12] == [
        "Area: Liège", "Control: German", "Units: 2 GER corps", "",
        "Area: Saarbrücken", "Control: disputed", "Units: 1 FRA army",
    ]


def test_orders_block_is_never_wrapped():
    """Order lines are indented, put on one line, and never wrapped."""
    out = to_text(_doc(Orders(["a\nb", LONG_ORDER])), 20)
    assert out.split("\n")[5:7] == ["  a b", "  " + LONG_ORDER]


words = st.text(alphabet="abcdefghijklmnopqrstuvwxyzäöüßéLG", min_size=1, max_size=90)
short_words = st.text(alphabet="abcdefghijklmnopqrstuvwxyzäöüß", min_size=1, max_size=14)
noise = st.text(alphabet="abcXYZ äöüß019.,;:-+=*_`[]<>|#&!()\\\n\t", max_size=40)
fragments = st.sampled_from([*HOSTILE, "x ``` y", "`x", "y`", "+ z", "2) two", "==="])
span_text = st.one_of(noise, words, fragments, st.lists(words, max_size=8).map(" ".join),
                      st.lists(short_words, min_size=2, max_size=6).map(" ".join))
spans = st.lists(st.builds(Span, span_text, st.sampled_from(STYLES)), max_size=6)
cells = st.one_of(noise, fragments, st.lists(short_words, max_size=5).map(" ".join))
tables = st.integers(1, 4).flatmap(lambda n: st.builds(
    Table, st.lists(short_words, min_size=n, max_size=n),
    st.lists(st.lists(cells, max_size=n), max_size=4)))
blocks = st.one_of(st.builds(Para, spans), st.builds(Items, st.lists(spans, max_size=4)),
                   tables, st.builds(Orders, st.lists(span_text, min_size=1, max_size=3)))
sections = st.builds(Section, noise, st.lists(blocks, max_size=4))
documents = st.builds(Document, noise, st.lists(sections, max_size=2), st.one_of(st.none(), noise))


def _order_spans(doc: Document) -> set[str]:
    """The order spans of doc, each on one line and stripped."""
    found = set()
    for b in (b for s in doc.sections for b in s.blocks):
        for group in [b.spans] if isinstance(b, Para) else getattr(b, "items", []):
            found |= {_flat(s.text) for s in group if s.style == "order"}
    return found


def _orders_in(doc: Document) -> set[str]:
    """Every order of doc, spans and Orders lines, on one line and stripped."""
    lines = {_flat(ln) for s in doc.sections for b in s.blocks if isinstance(b, Orders)
             for ln in b.lines}
    return lines | _order_spans(doc)


@settings(max_examples=50, deadline=None)
@given(documents, st.integers(16, 100))
def test_text_lines_fit_width(doc, width):
    """No line over the width but a lone order or word; orders whole; no word lost."""
    out = to_text(doc, width)
    assert out.endswith("\n")
    orders = _orders_in(doc)
    lines = out.split("\n")
    # Each order (span or line) is whole on one line.
    assert all(any(o in line for line in lines) for o in orders)
    for line in lines:
        assert line == line.rstrip()
        if len(line) > width:
            whole = line.strip()
            rest = whole[2:] if whole.startswith("- ") else whole
            assert whole in orders or rest in orders or not any(c.isspace() for c in rest), line
    for section in doc.sections:
        for b in section.blocks:
            if isinstance(b, Para):
                for s in b.spans:
                    assert all(w in out for w in _flat(s.text).split())


# --- markdown ---------------------------------------------------------------------------


def test_markdown_sample_exact():
    """The sample as markdown, line by line, and how markdown-it reads it."""
    lines = to_markdown(SAMPLE).split("\n")
    assert lines == [
        "# Turn 5: Summer 1915",
        "",
        "## Front",
        "",
        "Liège holds; Saarbrücken sends **Stoßtruppen**.",
        "",
        "- Verdun is disputed",
        r"- Player \<script>alert(1)\</script>",
        r"- *\*x\* [a\](javascript:1)*",
        "",
        "| Area | Control | Units |",
        "|---|---|---|",
        "| Liège | German | 2 GER corps |",
        "| Saarbrücken | disputed | 1 FRA army |",
        "",
        "## Your orders",
        "",
        "Send back `move 2 GER Metz-Verdun` or:",
        "",
        "```",
        "move 1 GER Saarbrücken-Liège",
        LONG_ORDER,
        "```",
        "",
        "- \\[url=http\ua789//x]y[/url]",
        r"- \[/c\][b]x",
        "",
        "receipt 3f9a0c",
        "",
    ]
    tokens = list(_all_tokens("\n".join(lines)))
    assert [t.type for t in tokens].count("table_open") == 1
    assert [t.tag for t in tokens if t.type == "heading_open"] == ["h1", "h2", "h2"]
    assert any(t.type == "strong_open" for t in tokens)
    assert any(t.type == "code_inline" and t.content == "move 2 GER Metz-Verdun" for t in tokens)
    texts = _inline_texts(to_markdown(SAMPLE))
    assert "Player " + HTML in texts and LINK in texts and BB_URL in texts


@pytest.mark.parametrize("name", HOSTILE)
def test_markdown_hostile_names_stay_literal(name):
    """A hostile name in every place data goes reads back literally (a URL's look-alikes
    read as typed), with no HTML or link."""
    doc = Document(name, [Section(name, [
        para(name), para(Span(name, "bold"), " and ", Span(name, "entente")),
        Items([[plain(name)], [Span(name, "italic")]]),
        Table(["Player", "Note"], [[name, "a\nb | " + name]]),
    ])], receipt=name)
    src = to_markdown(doc)
    _assert_no_markup_from_data(src)
    assert "table_open" in {t.type for t in _all_tokens(src)}
    texts = _inline_texts(src)
    # Both headings, the first paragraph, both list items, the first cell and the receipt.
    assert texts.count(name) == 7
    assert f"{name} and {name}" in texts
    assert f"a b | {name}" in texts


def test_markdown_code_spans_and_fence_outgrow_backticks():
    """Code spans and fences use more backticks than the text holds."""
    doc = _doc(para(Span("a `b`", "order"), " ", Span("`x", "order"), " ", Span("c", "order")),
               Orders(["x ``` y", "plain"]))
    lines = to_markdown(doc).split("\n")
    assert lines[4] == "`` a `b` `` `` `x `` `c`"
    assert lines[6:10] == ["````", "x ``` y", "plain", "````"]
    codes = [t.content for t in _all_tokens("\n".join(lines)) if t.type == "code_inline"]
    assert codes == ["a `b`", "`x", "c"]
    assert [t.content for t in MD.parse("\n".join(lines)) if t.type == "fence"] == [
        "x ``` y\nplain\n"]
    # Two glued order spans: their fences must not merge into one run of backticks.
    glued = to_markdown(_doc(para(Span("0", "order"), Span("1", "order")))).split("\n")[4]
    assert glued == "`0` `1`"
    assert [t.content for t in _all_tokens(glued) if t.type == "code_inline"] == ["0", "1"]


@settings(max_examples=40, deadline=None)
@given(documents)
# a span ending in a line break: its break is a space, the next span does not run into it
@example(Document("", [Section("", [Para([Span("0\n", "plain"), Span("G", "plain")])])]))
def test_markdown_random_documents_parse_as_intended(doc):
    """Random documents: no HTML or link, every table, fence and heading, cells intact."""
    src = to_markdown(doc)
    _assert_no_markup_from_data(src)
    tokens = list(MD.parse(src))
    kinds = [t.type for t in tokens]
    all_blocks = [b for s in doc.sections for b in s.blocks]
    assert kinds.count("table_open") == sum(isinstance(b, Table) for b in all_blocks)
    assert kinds.count("fence") == sum(isinstance(b, Orders) for b in all_blocks)
    headings = bool(doc.title.strip()) + sum(bool(s.title.strip()) for s in doc.sections)
    assert kinds.count("heading_open") == headings
    # Every table cell reads back exactly as given (on one line, stripped).
    expected = [_flat(c) for b in all_blocks if isinstance(b, Table)
                for row in [b.header, *b.rows] for c in row + [""] * (len(b.header) - len(row))]
    inside, cells = False, []
    for t in tokens:
        inside = t.type == "table_open" or (inside and t.type != "table_close")
        if inside and t.type == "inline":
            cells.append(_typed("".join(c.content for c in t.children)))
    assert cells == expected
    texts = _inline_texts(src)
    for b in all_blocks:
        if isinstance(b, Para) and b.spans and all(s.style == "plain" for s in b.spans):
            line = _flat("".join(s.text for s in b.spans))
            assert not line or line in texts
    # Every order span is one code span with its text intact.
    codes = {c.content for t in tokens if t.type == "inline" for c in t.children
             if c.type == "code_inline"}
    assert {o for o in _order_spans(doc) if o} <= codes


def test_markdown_list_and_block_starts_are_escaped():
    """Data at the start of a block opens no list, rule, heading or code block."""
    src = to_markdown(_doc(para("1. first"), para("- dash"), para("+ plus"), para("==="),
                           para("    indented"), Items([[plain("2) two")]])))
    assert src.split("\n")[4:15:2] == [r"1\. first", r"\- dash", r"\+ plus", "===",
                                       "indented", r"- 2\) two"]
    kinds = [t.type for t in MD.parse(src)]
    assert "ordered_list_open" not in kinds and "code_block" not in kinds
    assert kinds.count("bullet_list_open") == 1 and "hr" not in kinds


def test_markdown_a_line_leading_hash_is_escaped_without_a_space_too():
    """A record line "#12 German: pass" is no heading in CommonMark (no space after the #),
    but Python-Markdown, old Reddit and markdown.pl make it one, "12 German: pass" in large
    type: the # is escaped at a line's start whatever follows, and reads back as itself."""
    src = to_markdown(_doc(para("#12 German: pass"), para("#"), Items([[plain("#3 x")]]),
                           para("it's #1")))
    assert src.split("\n")[4:11:2] == [r"\#12 German: pass", r"\#", r"- \#3 x", "it's #1"]
    assert _inline_texts(src)[-4:] == ["#12 German: pass", "#", "#3 x", "it's #1"]
    assert [t.type for t in MD.parse(src)].count("heading_open") == 2


# Player-provided-looking names and unit names with punctuation: each character that can
# start markup somewhere, in the places where it does and where it does not.
HOSTILE_NAMES = [
    "*bold*", "**strong**", "_under_", "__dunder__", "a*b*c", "x_y_z", "~~gone~~", "~x~",
    "`code`", "``x``", "[link](http://x)", "[a][b]", "![img](x.png)", "[ref]: http://x",
    "<b>hi</b>", "<http://x.y>", "<a@b.c>", "<!-- c -->", "&amp;", "&#65;", "&copy",
    "# h", "## h ##", "> quote", "- item", "+ item", "* item", "1. one", "2) two", "---",
    "***", "___", "- - -", "~~~", "```", "|a|b|", "\\*", "\\", "a\\", "$x$", "$5",
    "Ge-1 (3I+1C)*", "5. Armee *", "<script>alert(1)</script>", "[ ] task", "[x] done",
    "a <b c", "a < b", "1.5 km", "x ] y", "]](", "&&", "@everyone", ":)",
]
# Ordinary names, written in the markdown source as they are (in a place where they start
# nothing: after other words, in a table cell).
ORDINARY = ["1. Armee (3I+1C)", "Saint-Quentin", "Liège's fort", "ge-1:siege_gun",
            "Tout le Monde à la Bataille!", "VP 13: Stalemate", "2nd Army (2I)",
            "fort-liege (strength 1)", "F2 [4 6] = 1 hit", "Saarbrücken - Metz",
            "5.2.1 b) fire", "50% + 1", "A & B", "x=y", "C#", "it's #1", "#12 German: pass"]


def _md_source_lines(doc: Document) -> list[str]:
    return to_markdown(doc).split("\n")


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_markdown_hostile_names_read_back_as_written(name):
    """markdown-it reads back each place data goes as the text given (escapes dropped), and
    no HTML, link, image, list, quote, rule, code or heading comes from it."""
    doc = Document(name, [Section(name, [
        para(name), para("Unit ", name, " moves"), para(Span(name, "bold")),
        para(Span(name, "italic"), " and ", Span(name, "entente")),
        Items([[plain(name)], [plain("x "), plain(name)]]),
        Table(["Player", "Note"], [[name, "a " + name]]),
    ])], receipt=name)
    src = to_markdown(doc)
    tokens = list(_all_tokens(src))
    kinds = [t.type for t in tokens]
    _assert_no_markup_from_data(src)
    assert not set(kinds) & {"blockquote_open", "hr", "fence", "code_block", "code_inline",
                             "ordered_list_open", "s_open"}
    assert kinds.count("heading_open") == 2 and kinds.count("bullet_list_open") == 1
    assert kinds.count("em_open") == 1 and kinds.count("strong_open") == 1
    flat = _flat(name)
    assert _inline_texts(src) == [flat, flat, flat, f"Unit {flat} moves", flat,
                                  f"{flat} and {flat}", flat, f"x {flat}", "Player", "Note",
                                  flat, f"a {flat}", flat]


@pytest.mark.parametrize("name", ORDINARY)
def test_markdown_ordinary_names_are_not_escaped(name):
    """Text that starts no markup where it stands is written as it is: after other words in
    a paragraph and a list item, in a table cell, in a heading."""
    doc = Document(f"Game of {name}", [Section(name, [
        para("Unit ", name, " moves"), Items([[plain("Then "), Span(name, "bold")]]),
        Table(["Unit", "Note"], [[name, "ok"]]),
    ])])
    lines = _md_source_lines(doc)
    assert f"# Game of {name}" in lines and f"## {name}" in lines
    assert f"Unit {name} moves" in lines and f"- Then **{name}**" in lines
    assert f"| {name} | ok |" in lines
    assert "\\" not in to_markdown(doc)


hostile_text = st.text(alphabet="ab1 .-+*_~`[]()<>!&#;|\\$:@x/é", min_size=1, max_size=24)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(hostile_text, st.sampled_from(["plain", "bold", "italic", "order"])),
                min_size=1, max_size=4))
@example(parts=[("<1@1>", "plain")])               # an e-mail autolink, its local part a digit
def test_markdown_random_hostile_spans_read_back(parts):
    """Random spans of markup characters: the paragraph reads back as the spans' text (code
    spans as their content), with no markup but the spans' own and no HTML."""
    spans = [Span(t, style) for t, style in parts]
    assume(_spans_text(spans))
    src = to_markdown(_doc(Para(spans)))
    _assert_no_markup_from_data(src)
    tokens = MD.parse(src)
    inline = [t for t in tokens if t.type == "inline"][2]
    assert _typed("".join(c.content for c in inline.children
                          if c.type in ("text", "code_inline"))) == _spans_text(spans)
    # Bold and italic where CommonMark can mark them (not "1**:**": then the text is plain).
    kinds = [c.type for c in inline.children]
    assert kinds.count("strong_open") <= sum(s.style == "bold" for s in spans)
    assert kinds.count("em_open") <= sum(s.style == "italic" for s in spans)
    assert [t.type for t in tokens].count("paragraph_open") == 1


def _spans_text(spans: list[Span]) -> str:
    """The text a paragraph of spans reads as: each span on one line, the line stripped, two
    code spans side by side one space apart."""
    out = ""
    for s in spans:
        text = _flat_keep(s.text)
        if s.style == "order" and text.strip():
            lead, core = text[:len(text) - len(text.lstrip())], text.strip()
            trail = text[len(text.rstrip()):]
            out += " " * (out.endswith("\0") and not lead) + lead + core + "\0" + trail
        else:
            out += text
    return out.replace("\0", "").strip()


def _flat_keep(text: str) -> str:
    return " ".join(text.replace("\t", " ").split("\n"))


# --- BBCode -----------------------------------------------------------------------------

# The tags each forum documents (see the sources in formats.py's BBCode comment): what a
# dialect's output may use. The default must render on all three, so it may use only what
# they share: no [size] (points on BGG, a percentage on phpBB, 1-7 or Npt on SMF), no
# fixed-width tag ([c] is BGG's alone, [code] is not BGG's), no list tag (none on BGG).
FORUM_TAGS = {
    "bgg": {"b", "i", "u", "-", "color", "bgcolor", "size", "c", "q", "o", "center", "url",
            "img", "geekurl"},
    "phpbb": {"b", "i", "u", "code", "color", "size", "list", "*", "quote", "url", "img",
              "email"},
    "smf": {"b", "i", "u", "s", "code", "tt", "pre", "color", "size", "list", "li", "quote",
            "url", "img"},
}
FORUM_TAGS["common"] = set.intersection(*FORUM_TAGS.values()) - {"size"}
# Tag names as they may be written: letters, or BGG's [-] and phpBB's [*].
TAG = re.compile(r"\[(/?)([a-z]+|-|\*)(=[^\]\n]*)?\]")
# Tags that are never closed: phpBB's list item ([*] closes at the next one).
UNCLOSED = {"*"}


def _tags(src: str) -> list[tuple[str, str]]:
    """(closing slash or '', name) of every tag in src."""
    return [(m.group(1), m.group(2)) for m in TAG.finditer(src)]


def _assert_tags_balanced(src: str, dialect: str = "common") -> None:
    """Every bracket in src is a tag of the dialect's forums, and each tag opened is closed,
    in order."""
    assert src.count("[") == src.count("]") == len(_tags(src))
    stack: list[str] = []
    for slash, name in _tags(src):
        assert name in FORUM_TAGS[dialect], (dialect, name)
        if name in UNCLOSED:
            continue
        if slash:
            assert stack and stack.pop() == name, (name, stack)
        else:
            stack.append(name)
    assert not stack


def test_the_common_tags_are_what_the_three_forums_share():
    """b, i, u, color, url and img are in all three lists; nothing else is."""
    assert FORUM_TAGS["common"] == {"b", "i", "u", "color", "url", "img"}


def test_bbcode_sample_exact():
    """The sample in the default dialect, line by line: bold headings, "•" items, the table
    as rows of cells between "·", orders as plain lines; only tags all three forums know."""
    lines = to_bbcode(SAMPLE).split("\n")
    assert lines == [
        "[b][u]Turn 5: Summer 1915[/u][/b]",
        "",
        "[b]Front[/b]",
        "Liège holds; [color=#4D4D4D]Saarbrücken[/color] sends [b]Stoßtruppen[/b].",
        "",
        "• Verdun is [color=#B22222]disputed[/color]",
        "• Player [color=#1F5FAF]\u2039script>alert(1)\u2039/script>[/color]",
        "• [i]*x* \u2045a\u2046(javascript:1)[/i]",
        "",
        "[u]Area · Control · Units[/u]",
        "Liège · German · 2 GER corps",
        "Saarbrücken · disputed · 1 FRA army",
        "",
        "[b]Your orders[/b]",
        "Send back move 2 GER Metz-Verdun or:",
        "",
        "move 1 GER Saarbrücken-Liège",
        LONG_ORDER,
        "",
        "• \u2045url=http\ua789//x\u2046y\u2045/url\u2046",
        "• \u2045/c\u2046\u2045b\u2046x",
        "",
        "receipt 3f9a0c",
        "",
    ]
    _assert_tags_balanced(to_bbcode(SAMPLE))


def test_bbcode_dialects_use_their_forums_better_tags():
    """bgg: [c] for orders and aligned tables, [size] in points; phpbb: [code] blocks and
    [list][*] (no inline code tag); smf: [code], [tt] orders, [list][li], size in pt."""
    bgg = to_bbcode(SAMPLE, "bgg").split("\n")
    assert bgg[0] == "[size=14][b]Turn 5: Summer 1915[/b][/size]"
    assert bgg[9:13] == ["[c]" + TABLE_TEXT[0], *TABLE_TEXT[1:3], TABLE_TEXT[3] + "[/c]"]
    assert "Send back [c]move 2 GER Metz-Verdun[/c] or:" in bgg
    assert "[c]move 1 GER Saarbrücken-Liège" in bgg and LONG_ORDER + "[/c]" in bgg
    phpbb = to_bbcode(SAMPLE, "phpbb").split("\n")
    assert phpbb[0] == "[size=150][b]Turn 5: Summer 1915[/b][/size]"
    assert phpbb[5:10] == ["[list]", "[*]Verdun is [color=#B22222]disputed[/color]",
                           "[*]Player [color=#1F5FAF]" + HTML + "[/color]",
                           "[*][i]*x* \u2045a\u2046(javascript:1)[/i]", "[/list]"]
    assert "[code]" + TABLE_TEXT[0] in phpbb and "Send back move 2 GER Metz-Verdun or:" in phpbb
    smf = to_bbcode(SAMPLE, "smf").split("\n")
    assert smf[0] == "[size=14pt][b]Turn 5: Summer 1915[/b][/size]"
    assert "[li]Verdun is [color=#B22222]disputed[/color][/li]" in smf
    assert "Send back [tt]move 2 GER Metz-Verdun[/tt] or:" in smf
    assert TABLE_TEXT[3] + "[/code]" in smf
    for dialect in ("common", "bgg", "phpbb", "smf"):
        _assert_tags_balanced(to_bbcode(SAMPLE, dialect), dialect)
    with pytest.raises(ValueError, match="phpbb"):
        to_bbcode(SAMPLE, "vbulletin")


@pytest.mark.parametrize("dialect", ["common", "bgg", "phpbb", "smf"])
@pytest.mark.parametrize("name", [BB_URL, BB_CLOSE, "[color=red]x", "[[b]]", "]["])
def test_bbcode_names_inject_no_tag(name, dialect):
    """A name made of tags shows with lookalike brackets (and a URL's colon) wherever data
    goes."""
    doc = Document(name, [Section(name, [
        para(Span(name, "bold"), Span(name, "order"), Span(name, "german")),
        Items([[plain(name)]]), Table([name], [[name]]), Orders([name]),
    ])], receipt=name, colours={"german": "#4D4D4D"})
    src = to_bbcode(doc, dialect)
    _assert_tags_balanced(src, dialect)
    assert "[url" not in src and "[/url]" not in src and "[color=red]" not in src
    # Title, section, three spans, the item, two table cells, the order and the receipt.
    safe = _unlinked(name.replace("[", "\u2045").replace("]", "\u2046"))
    assert src.count(safe) == 10


def test_a_side_s_colour_is_the_document_s_and_only_ever_a_colour():
    """A span styled by a side is coloured as the document's colours say (the game's data),
    whatever the side is called; a side without a colour, or one whose colour is not
    #rrggbb, is written plain: nothing but a colour becomes a tag."""
    doc = _doc(para(Span("Central", "central"), " and ", Span("Allies", "allies"), " and ",
                    Span("Neutrals", "neutrals")))
    doc.colours = {"central": "#123456", "allies": "red][url=http://x]y[/url]["}
    line = to_bbcode(doc).split("\n")[-2]
    assert line == "[color=#123456]Central[/color] and Allies and Neutrals"
    assert to_bbcode(Document(doc.title, doc.sections)).split("\n")[-2] == \
        "Central and Allies and Neutrals"
    # Colours are how to write the document, not what it says: its JSON and equality
    # leave them out.
    assert as_json(doc) == as_json(Document(doc.title, doc.sections))
    assert doc == Document(doc.title, doc.sections) and "colours" not in repr(doc)


def test_bbcode_angle_bracket_cannot_cut_a_bgg_post():
    """BGG drops a post from a "<" that no space follows: the default and bgg write a
    lookalike there (a "<" before a space stays); phpBB and SMF escape HTML themselves."""
    doc = _doc(para("a <b> c < d <"))
    for dialect in ("common", "bgg"):
        assert "a \u2039b> c < d \u2039" in to_bbcode(doc, dialect)
    for dialect in ("phpbb", "smf"):
        assert "a <b> c < d <" in to_bbcode(doc, dialect)


@settings(max_examples=30, deadline=None)
@given(documents, st.sampled_from(["common", "bgg", "phpbb", "smf"]))
def test_bbcode_random_documents_balanced(doc, dialect):
    """Random documents: only the dialect's forums' tags, each closed."""
    _assert_tags_balanced(to_bbcode(doc, dialect), dialect)


# --- chat -----------------------------------------------------------------------------


def _posts(out: str) -> list[str]:
    """The posts of a chat output, split at the POST_MARK lines."""
    posts, cur = [], []
    for line in out.rstrip("\n").split("\n"):
        if POST_MARK_LINE.fullmatch(line):
            posts.append("\n".join(cur).strip("\n"))
            cur = []
        else:
            cur.append(line)
    return posts + ["\n".join(cur).strip("\n")]


def test_chat_sample_is_one_post_with_tables_as_code():
    """A short document is one post, no mark line; the table is an aligned code block (chats
    draw no pipe table), data escaped for Discord."""
    out = to_chat(SAMPLE)
    assert not POST_MARK_LINE.search(out)
    lines = out.split("\n")
    assert lines[:3] == ["## Turn 5: Summer 1915", "", "### Front"]
    i = lines.index("```")
    assert lines[i:i + 6] == ["```", *TABLE_TEXT, "```"]
    assert r"- Player \<script>alert(1)\</script>" in lines
    assert "- \\[url=http\ua789//x\\]y\\[/url\\]" in lines


def test_chat_long_document_splits_between_blocks_and_rows():
    """Posts of at most 2,000 characters: blocks kept whole, a heading with its block, a
    table longer than a post split between rows with its header in each part, every line
    kept in order."""
    rows = [[f"Area {i:03}", "German", "ge-1 ge-2 ge-3 " * 3] for i in range(120)]
    doc = Document("Big", [Section("Intro", [para("word " * 50) for _ in range(12)]),
                           Section("Table", [Table(["Area", "Control", "Units"], rows)]),
                           Section("Orders", [Orders([f"move ge-{i} liege" for i in range(40)])])])
    posts = _posts(to_chat(doc))
    assert len(posts) > 4 and posts == chat_posts(doc)
    whole = chat_posts(doc, 10 ** 9)[0].split("\n")
    header = _table_text(doc.sections[1].blocks[0], FIXED_WIDTH)[:2]
    joined = iter([ln for p in posts for ln in p.split("\n")])
    assert all(line in joined for line in whole if line)      # every line, in order
    for post in posts:
        assert len(post) <= CHAT_LIMIT
        lines = post.split("\n")
        assert lines.count("```") % 2 == 0
        assert not lines[-1].startswith("#")                  # a heading stays with its block
        if any(ln.startswith("Area 0") for ln in lines):      # a part of the table
            at = lines.index("```")
            assert lines[at + 1:at + 3] == header
    # No paragraph was cut: each is one line of one post.
    assert sum(p.count(("word " * 50).strip()) for p in posts) == 12


def test_chat_section_heading_never_ends_a_post():
    """A section whose table must be split comes after a post nearly full: its heading goes
    into the next post with the table's first part, not at the end of the full one."""
    rows = [[f"Area {i:03}", "German", "ge-1 ge-2 " * 3] for i in range(60)]
    doc = Document("", [Section("Situation", [para("word " * 360)]),
                        Section("Areas", [Table(["Area", "Control", "Units"], rows)])])
    posts = chat_posts(doc)
    assert len(posts) > 2
    assert [p.split("\n")[-1] for p in posts if p.split("\n")[-1].startswith("#")] == []
    assert posts[1].startswith("### Areas\n\n```\nArea ")


def _record(seq: int, events: int) -> list:
    """A report's record: its heading paragraph and its events."""
    return [Para([Span(f"#{seq} German: "), Span("move ge-1 liege", "order")], heading=True),
            *([Items([[plain(f"event {seq}.{i} " + "x" * 60)] for i in range(events)])]
              if events else [])]


def test_chat_keeps_each_record_with_its_events():
    """Posts split between records, never between a record's heading and its events; a
    record with no events goes with the next; a record longer than a post is split between
    its events, each post it goes on in opening with its heading marked continued."""
    sizes = [3, 0, 5, 2, 60, 4, 0] * 4 + [1]
    doc = Document("Report", [Section("Since record 0", [
        b for seq, n in enumerate(sizes, 1) for b in _record(seq, n)])])
    posts = chat_posts(doc)
    assert len(posts) > 5
    for post in posts:
        lines = post.split("\n")
        assert len(post) <= CHAT_LIMIT and not lines[-1].startswith("#"), lines[-1]
        assert re.match(r"#\d+ German: ", lines[0]) or lines[0] == "## Report", lines[0]
    heads = [ln for p in posts for ln in p.split("\n") if ln.startswith("#")]
    again = [ln for ln in heads if ln.endswith(" *(continued)*")]
    assert again and all(ln == "#5 German: `move ge-1 liege` *(continued)*" or
                         ln.startswith(("#12 ", "#19 ", "#26 ")) for ln in again)
    events = [ln for p in posts for ln in p.split("\n") if ln.startswith("- event")]
    assert events == [f"- event {s}.{i} " + "x" * 60
                      for s, n in enumerate(sizes, 1) for i in range(n)]
    whole = "\n".join(posts)
    for seq, n in enumerate(sizes, 1):      # each record whole in one post when it fits one
        if 0 < n < 20:
            assert any(f"#{seq} German" in p and f"event {seq}.{n - 1} " in p for p in posts)
    assert whole.count("#2 German: `move ge-1 liege`") == 1


def test_chat_line_longer_than_a_post_is_cut_at_spaces():
    """Only a line that no post could hold is cut, at spaces."""
    doc = _doc(para("x" * 9 + " " + "y" * 2500 + " z"))
    posts = chat_posts(doc)
    assert all(len(p) <= CHAT_LIMIT for p in posts)
    assert "".join(posts).replace("\n", "").replace(" ", "").count("y") == 2500
    # Headings no post can hold with their text: cut too, their text whole after them.
    for doc, line, count in [
            (Document("t " * 1300, [Section("s " * 1200, [para("x")])]), "x", 1),
            (Document("t", [Section("", [Para([plain("h " * 1200)], heading=True),
                                         Items([[plain("e " * 40)]] * 40)])]),
             "- " + "e " * 39 + "e", 40)]:
        posts = chat_posts(doc)
        assert all(0 < len(p) <= CHAT_LIMIT for p in posts)
        assert [ln for p in posts for ln in p.split("\n")].count(line) == count


def _fixed_lines(out: str, fmt: str) -> list[str]:
    """The lines inside the fixed-width blocks of a chat or BBCode output."""
    if fmt == "chat":
        return [ln for block in out.split("```")[1::2] for ln in block.split("\n")]
    return [ln for m in re.finditer(r"\[(c|code)\](.*?)\[/\1\]", out, re.S)
            for ln in m.group(2).split("\n")]


@pytest.mark.parametrize("fmt,dialect", [("chat", ""), ("bbcode", "bgg"), ("bbcode", "phpbb"),
                                         ("bbcode", "smf")])
def test_a_wide_table_stays_within_80_columns_in_posts(fmt, dialect):
    """A table as wide as an area's units (some 150 columns) is laid out at 80 columns in a
    post's fixed-width block, the last column wrapped under itself: BGG cuts a wider line,
    a phone scrolls it."""
    units = "; ".join(f"ge-i-{i:02} (infantry entrenched)" for i in range(5))
    table = Table(["Area", "Control", "VP", "Units"],
                  [["Saarbrücken", "German", "1", units], ["Liège", "Entente", "", "fort 3"]])
    out = render(_doc(table), fmt, dialect=dialect or "common")
    lines = _fixed_lines(out, fmt)
    assert len(units) > 140 and len(lines) > 4
    assert max(map(len, lines)) <= FIXED_WIDTH
    assert "".join(lines).replace(" ", "").count("(infantryentrenched)") == 5


@pytest.mark.parametrize("units", [24, 32, 60])
def test_a_wide_table_split_between_posts_keeps_each_row_whole(units):
    """A table longer than a post, its rows wrapped to 80 columns (or, with a unit name too
    long to wrap beside the other columns, one "header: value" a line): each part a code
    block opening on a whole row, the header again where the table has one."""
    rows = [[f"Area {i:03}", "German", f"ge-i-{i:02}-" + "x" * units + " ge-c-01 ge-a-01" * 3]
            for i in range(40)]
    posts = chat_posts(_doc(Table(["Area", "Control", "Units"], rows)))
    blocks = [b.strip("\n").split("\n") for p in posts for b in p.split("```")[1::2]]
    assert len(blocks) > 2 and all(len(ln) <= FIXED_WIDTH for b in blocks for ln in b)
    for block in blocks:
        body = block[2:] if units < 60 else block
        assert re.match(r"Area \d{3}  |Area: Area \d{3}$", body[0]), block[:3]
        assert block[0].startswith("Area ") == (units < 60)
    got = [ln for b in blocks for ln in b if re.match(r"(Area: )?Area 0", ln)]
    assert len(got) == 40


@pytest.mark.parametrize("name", ["@everyone", "@here now", "||spoiler||", "__under__",
                                  "<@123456>", "[x](http://y)", "# big", "-# small",
                                  "> quote", "1. one", "~~s~~"])
def test_chat_names_start_no_markup_and_call_nobody(name):
    """Discord's own markup (spoilers, underline, subtext, mentions, masked links) and
    @everyone/@here in a name stay text: escaped, and the mention's at sign written
    fullwidth, a character nothing hides."""
    out = to_chat(_doc(para(name), Items([[plain(name)]])))
    assert "@everyone" not in out and "@here" not in out and visible(out) == out
    for line in out.split("\n")[4:7:2]:
        body = line[2:] if line.startswith("- ") else line
        assert not re.match(r"#{1,3} |-# |> |\d+\. ", body)
        assert not re.search(r"(?<!\\)(\|\||__|~~|\[|<)", body), body


# --- dispatch ---------------------------------------------------------------------------


def test_render_dispatches_and_rejects_unknown_format():
    """render picks the renderer by name and refuses an unknown format."""
    assert render(SAMPLE, "text") == to_text(SAMPLE)
    assert render(SAMPLE, "text", width=30) == to_text(SAMPLE, 30)
    assert render(SAMPLE, "markdown") == to_markdown(SAMPLE)
    assert render(SAMPLE, "bbcode") == to_bbcode(SAMPLE)
    assert render(SAMPLE, "bbcode", dialect="smf") == to_bbcode(SAMPLE, "smf")
    assert render(SAMPLE, "chat") == to_chat(SAMPLE)
    with pytest.raises(ValueError, match="json"):
        render(SAMPLE, "json")


def test_two_code_spans_with_an_empty_span_between_stay_two():
    """Found by the random documents above: `0` `` `0` with an empty span between them ran
    their fences together into one code span."""
    doc = Document("", [Section("", [Para([Span("0", "order"), Span(""), Span("0", "order")])])])
    tokens = MarkdownIt("commonmark").parseInline(to_markdown(doc).split("\n")[-2])
    codes = [t.content for t in tokens[0].children if t.type == "code_inline"]
    assert codes == ["0", "0"]
