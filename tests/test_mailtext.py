"""Reading orders out of a player's email: the message, its text, and the order lines."""

from __future__ import annotations

import base64
import re
import resource
import subprocess
import sys
from email.message import EmailMessage
from email.mime.base import MIMEBase
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText

import pytest

from referee.mail.message import MailError, order_lines, parse_message, plain_body

SIG = "-- "  # the signature delimiter, its trailing space included


def orders(body: str, key: str | None = None) -> list[str]:
    """The order texts alone, without line numbers."""
    return [text for _, text in order_lines(body, key)]


def reparse(msg) -> EmailMessage:
    """A message as the moderator's saved mail gives it to the referee: bytes, parsed again."""
    return parse_message(msg.as_bytes())


# --- order_lines: plain bodies ----------------------------------------------------------------


def test_plain_orders_keep_their_line_numbers():
    body = (
        "play offensive\n"
        "\n"
        "move ge-1 liege\n"
        "move ge-4:cavalry ardennes\n"
        "\n"
        "end movement\n"
        "done\n"
    )
    assert order_lines(body) == [
        (1, "play offensive"),
        (3, "move ge-1 liege"),
        (4, "move ge-4:cavalry ardennes"),
        (6, "end movement"),
        (7, "done"),
    ]


def test_empty_and_blank_bodies_have_no_orders():
    assert order_lines("") == []
    assert order_lines("\n\n   \n\t\n") == []


def test_crlf_and_trailing_whitespace():
    body = "move ge-1 liege   \r\nlose fr-5:infantry\t\r\n\r\ndone\r\n"
    assert order_lines(body) == [(1, "move ge-1 liege"), (2, "lose fr-5:infantry"), (4, "done")]


def test_comments_are_dropped_and_cut_from_order_lines():
    body = """# Turn 3, German orders
move ge-1 liege   # through Belgium
# move ge-2 namur   (changed my mind)
build ge infantry trier into ge-4#reinforce
   # indented comment
done
"""
    assert order_lines(body) == [
        (2, "move ge-1 liege"),
        (4, "build ge infantry trier into ge-4"),
        (6, "done"),
    ]


# --- replies: attributions and quotes ---------------------------------------------------------


def test_gmail_reply_above_a_wrapped_attribution_and_a_quoted_mail():
    body = """Here we go.

move ge-1 namur
move ge-4:cavalry ardennes
end movement

On Sun, 22 Nov 2026 at 14:03, Moderator <ref@example.org>
wrote:

> German player, it is your movement phase.
>
> Order key: ABCD-1234
>
> move ge-1 liege
> done
"""
    assert order_lines(body) == [
        (1, "Here we go."),
        (3, "move ge-1 namur"),
        (4, "move ge-4:cavalry ardennes"),
        (5, "end movement"),
    ]


def test_attribution_wrapped_over_three_lines():
    body = """move ge-1 liege
done

On Sun, 22 Nov 2026 at 14:03,
Moderator <ref@example.org>
wrote:
> move ge-2 namur
"""
    assert order_lines(body) == [(1, "move ge-1 liege"), (2, "done")]


def test_attribution_wrapped_inside_the_address():
    body = """move ge-1 liege

On Sun, Nov 22, 2026 at 2:03 PM Moderator <
ref@example.org> wrote:
>> move ge-2 namur
"""
    assert order_lines(body) == [(1, "move ge-1 liege")]


def test_bottom_posting_and_interleaved_replies():
    body = """On Sun, 22 Nov 2026 at 14:03, Moderator <ref@example.org> wrote:
> Germany: movement phase. Your units:
> ge-1 in Aachen
move ge-1 liege
> ge-4:cavalry in Trier
  >  > older quote
>>even older
move ge-4:cavalry ardennes
end movement
"""
    assert order_lines(body) == [
        (4, "move ge-1 liege"),
        (8, "move ge-4:cavalry ardennes"),
        (9, "end movement"),
    ]


def test_french_attribution_with_a_no_break_space_before_the_colon():
    body = (
        "move ge-1 liege\n"
        "done\n"
        "\n"
        "Le dim. 22 nov. 2026 à 14:03, Moderator <ref@example.org> a\u00a0écrit\u00a0:\n"
        "> Ordre clé\n"
        "> move ge-9 paris\n"
    )
    assert order_lines(body) == [(1, "move ge-1 liege"), (2, "done")]


def test_french_attribution_wrapped():
    body = """lose fr-5:infantry
done

Le dim. 22 nov. 2026 à 14:03, Moderator
<ref@example.org> a écrit :
> lose fr-6:infantry
"""
    assert orders(body) == ["lose fr-5:infantry", "done"]


def test_german_attribution_wrapped():
    body = """Hallo,

move ge-1 liege
end movement

Am So., 22. Nov. 2026 um 14:03 Uhr schrieb Moderator <
ref@example.org>:
> move ge-1 namur
"""
    assert order_lines(body) == [(3, "move ge-1 liege"), (4, "end movement")]


def test_german_gmail_attribution_with_the_verb_first():
    body = """move ge-1 liege

Moderator <ref@example.org> schrieb am So., 22. Nov. 2026, 14:03:
> move ge-1 namur
"""
    assert orders(body) == ["move ge-1 liege"]


@pytest.mark.parametrize("attribution", [
    "On Sun, 22 Nov 2026 at 14:03, Moderator <ref@example.org> wrote:",
    "Moderator <ref@example.org> wrote:",
    "Bob wrote:",
    "Le 22/11/2026 à 14:03, Moderator a écrit :",
    "Le 22/11/2026 à 14:03, Moderator a ecrit:",
    "Am 22.11.2026 um 14:03 schrieb Moderator:",
    "Moderator schrieb:",
    "Op zo 22 nov. 2026 om 14:03 schreef Moderator <ref@example.org>:",
    "El dom, 22 nov 2026 a las 14:03, Moderator (<ref@example.org>) escribió:",
    "Il giorno dom 22 nov 2026 alle ore 14:03 Moderator <ref@example.org> ha scritto:",
    "Em dom., 22 de nov. de 2026 às 14:03, Moderator <ref@example.org> escreveu:",
    "Den 22 nov. 2026 kl. 14:03 skrev Moderator <ref@example.org>:",
    "Moderator skrev:",
])
def test_attribution_lines_in_many_languages(attribution):
    body = f"move ge-1 liege\n\n{attribution}\n> move ge-2 namur\n"
    assert order_lines(body) == [(1, "move ge-1 liege")]


@pytest.mark.parametrize("first,second", [
    ("El dom, 22 nov 2026 a las 14:03, Moderator", "(<ref@example.org>) escribió:"),
    ("Il giorno dom 22 nov 2026 alle ore 14:03 Moderator", "<ref@example.org> ha scritto:"),
    ("Em dom., 22 de nov. de 2026 às 14:03, Moderator", "<ref@example.org> escreveu:"),
    ("Op zo 22 nov. 2026 om 14:03 schreef Moderator", "<ref@example.org>:"),
    ("Den 22 nov. 2026 kl. 14:03 skrev Moderator", "<ref@example.org>:"),
])
def test_wrapped_attributions_in_other_languages(first, second):
    body = f"end movement\n{first}\n{second}\n> done\n"
    assert order_lines(body) == [(1, "end movement")]


def test_a_line_that_merely_starts_like_an_attribution_is_kept():
    # "On"/"Le"/"Am" lines whose next lines do not end an attribution stay, and an order
    # line is never part of an attribution, even when "... wrote:" follows it.
    body = """On second thought, here are my orders
move ge-1 liege
Le plan est simple
move ge-2 namur
Bob wrote:
> move ge-3 sedan
"""
    assert order_lines(body) == [
        (1, "On second thought, here are my orders"),
        (2, "move ge-1 liege"),
        (3, "Le plan est simple"),
        (4, "move ge-2 namur"),
    ]


def test_orders_that_contain_attribution_words_are_kept():
    # Orders never end with ':'; "wrote"/"skrev" inside an order line is harmless.
    body = "move ge-1 liege\nplay wrote\nmove ge-2 skrev\n"
    assert orders(body) == ["move ge-1 liege", "play wrote", "move ge-2 skrev"]


# --- old mail below a reply: Outlook separators and header blocks -------------------------------


def test_outlook_top_posting_with_a_header_block():
    body = """move ge-1 liege
move ge-4:cavalry ardennes
end movement

From: Moderator <ref@example.org>
Sent: Sunday, November 22, 2026 2:03 PM
To: German player <germany@example.org>
Subject: TTLM game 7: German movement

Order key: ABCD-1234
move ge-1 namur
"""
    assert order_lines(body) == [
        (1, "move ge-1 liege"),
        (2, "move ge-4:cavalry ardennes"),
        (3, "end movement"),
    ]


def test_outlook_bold_header_block_from_html():
    body = """done

*From:* Moderator <ref@example.org>
*Sent:* Sunday, November 22, 2026 2:03 PM
*To:* German player
move ge-1 namur
"""
    assert orders(body) == ["done"]


@pytest.mark.parametrize("block", [
    "De : Moderator <ref@example.org>\nEnvoyé : dimanche 22 novembre 2026 14:03\n"
    "À : Joueur allemand\nObjet : Partie 7",
    "Von: Moderator <ref@example.org>\nGesendet: Sonntag, 22. November 2026 14:03\n"
    "An: Deutscher Spieler\nBetreff: Partie 7",
    "From: Moderator <ref@example.org>\nDate: Sun, 22 Nov 2026 14:03:00 +0100\n"
    "Subject: Game 7",
    "From: Moderator <ref@example.org>\n\n\n\nSubject: Game 7",
])
def test_forwarded_header_blocks_in_several_languages(block):
    body = f"lose fr-5:infantry\ndone\n\n{block}\n\nlose fr-6:infantry\n"
    assert order_lines(body) == [(1, "lose fr-5:infantry"), (2, "done")]


def test_a_from_line_without_headers_after_it_does_not_cut():
    body = "From: the German player\n\n\n\n\nmove ge-1 liege\ndone\n"
    assert orders(body) == ["From: the German player", "move ge-1 liege", "done"]


@pytest.mark.parametrize("separator", [
    "-----Original Message-----",
    "----- Original Message -----",
    "-------- Original Message --------",
    "________________________________",
    "__________",
    "-----Ursprüngliche Nachricht-----",
    "-----Message d'origine-----",
    "---------- Forwarded message ---------",
    "Begin forwarded message:",
])
def test_outlook_separators_cut_the_rest(separator):
    body = f"move ge-1 liege\ndone\n\n{separator}\nmove ge-2 namur\nOrder key: X\n"
    assert order_lines(body) == [(1, "move ge-1 liege"), (2, "done")]


def test_a_short_underscore_line_is_not_a_separator():
    body = "move ge-1 liege\n_____\ndone\n"
    assert orders(body) == ["move ge-1 liege", "_____", "done"]


# --- signatures -------------------------------------------------------------------------------


def test_signature_with_order_looking_text_is_dropped():
    body = f"""move ge-1 liege
end movement

{SIG}
Bob Smith, Germany
move ge-2 namur   (my favourite opening)
done
"""
    assert order_lines(body) == [(1, "move ge-1 liege"), (2, "end movement")]


def test_signature_delimiter_without_the_space():
    body = "play offensive\n--\nBob\nplay blockade\n"
    assert order_lines(body) == [(1, "play offensive")]


def test_dashes_inside_text_are_not_a_signature():
    body = "move ge-1 liege --fast\n---\ndone\n"
    assert orders(body) == ["move ge-1 liege --fast", "---", "done"]


def test_a_phone_signature_ends_the_text():
    body = """move ge-1 liege
done

Sent from my iPhone

> On 22 Nov 2026, at 14:03, Moderator <ref@example.org> wrote:
"""
    assert order_lines(body) == [(1, "move ge-1 liege"), (2, "done")]


# --- the order key ----------------------------------------------------------------------------


def test_the_order_key_line_is_dropped():
    body = """Order key: ABCD-1234
move ge-1 liege
ORDER KEY:ABCD-1234
order-key: ABCD-1234
- Order key: ABCD-1234
done
"""
    assert order_lines(body) == [(2, "move ge-1 liege"), (6, "done")]


def test_a_line_that_is_only_the_key_is_dropped_when_the_key_is_given():
    body = "ABCD-1234\nmove ge-1 liege\n  abcd-1234  \ndone\n"
    assert order_lines(body, key="ABCD-1234") == [(2, "move ge-1 liege"), (4, "done")]
    assert orders(body) == ["ABCD-1234", "move ge-1 liege", "abcd-1234", "done"]


def test_the_key_inside_an_order_is_not_dropped():
    body = "move ge-1 liege ABCD-1234\n"
    assert orders(body, key="ABCD-1234") == ["move ge-1 liege ABCD-1234"]


# --- greetings and closings -------------------------------------------------------------------


def test_greeting_closing_and_name():
    body = """Hello Moderator,

play offensive
move ge-1 liege
move ge-4:cavalry ardennes
end movement

Thanks,
Bob
"""
    assert order_lines(body) == [
        (3, "play offensive"),
        (4, "move ge-1 liege"),
        (5, "move ge-4:cavalry ardennes"),
        (6, "end movement"),
    ]


def test_closing_with_two_name_lines_and_a_dash():
    body = """Dear all,
lose fr-5:infantry
done
Best regards,
— Jean Dupont
France (Entente)
"""
    assert order_lines(body) == [(2, "lose fr-5:infantry"), (3, "done")]


@pytest.mark.parametrize("greeting", [
    "Hi,", "Hi", "Hi!", "Hello Bob,", "Hello, Bob!", "Hey Moderator", "Dear all,",
    "Dear Moderator,", "Good morning!", "Bonjour,", "Salut Jean,", "Hallo,", "Hola,",
    "Ciao,", "Moderator,", "Moderator", "Greetings from Berlin!", "Hi Bob, here goes!", "Hey!!",
])
def test_greetings(greeting):
    body = f"{greeting}\n\nmove ge-1 liege\ndone\n"
    assert order_lines(body) == [(3, "move ge-1 liege"), (4, "done")]


@pytest.mark.parametrize("closing", [
    "Thanks", "Thanks!", "Thank you.", "Cheers,", "Regards,", "Best,", "Best regards,",
    "Kind regards", "Merci", "Merci beaucoup !", "Cordialement,", "Grüße", "Viele Grüße,",
    "Danke", "Saludos,", "Grazie!", "Cheers, Bob", "Thanks in advance!",
])
def test_closings(closing):
    body = f"move ge-1 liege\ndone\n\n{closing}\n"
    assert order_lines(body) == [(1, "move ge-1 liege"), (2, "done")]


@pytest.mark.parametrize("name", ["Bob", "— Bob", "-- Bob", "Bob (Germany)", "J.-P. Dupont"])
def test_closing_then_a_name(name):
    body = f"move ge-1 liege\nCheers,\n{name}\n\n\n"
    assert order_lines(body) == [(1, "move ge-1 liege")]


def test_a_closing_followed_by_more_orders_is_kept():
    body = "Thanks\nmove ge-1 liege\nBest\ndone\n"
    assert orders(body) == ["Thanks", "move ge-1 liege", "Best", "done"]


def test_a_closing_with_more_than_two_lines_after_it_is_kept():
    body = "move ge-1 liege\nThanks\nBob\nGermany\nBerlin\n"
    assert orders(body) == ["move ge-1 liege", "Thanks", "Bob", "Germany", "Berlin"]


def test_a_closing_followed_by_a_long_line_is_kept():
    body = "move ge-1 liege\nThanks\nI will be away next week, please wait for me\n"
    assert orders(body) == [
        "move ge-1 liege", "Thanks", "I will be away next week, please wait for me"]


# A greeting, a closing or a name line built so that its dots may be split between words and
# the signs around them every way there is: under a minute of a processor each, before the
# words were taken whole (message._whole).
BACKTRACKING = {
    "greeting": "Hi a" + "." * 100_000 + "?\nmove ge-1 liege\n",
    "closing": "move ge-1 liege\nThanks a" + "." * 150 + "?\n",
    "name": "move ge-1 liege\nThanks\na" + "." * 100_000 + "?\n",
    "dashes": "move ge-1 liege\nThanks\n" + "-" * 100_000 + "?\n",
}


@pytest.mark.parametrize("case", sorted(BACKTRACKING))
def test_a_line_built_to_backtrack_is_read_in_time_linear_in_its_length(case, tmp_path):
    body = tmp_path / "body.txt"
    body.write_text(BACKTRACKING[case], encoding="utf-8")
    start = _cpu_of_children()
    out = subprocess.run(
        [sys.executable, "-c", "import sys; from referee.mail.message import order_lines; "
         "print(len(order_lines(open(sys.argv[1], encoding='utf-8').read())))", body],
        capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == ("3" if case in ("name", "dashes") else "2"), out.stdout
    assert _cpu_of_children() - start < 10      # a normal mail's read: a tenth of a second


def _cpu_of_children() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def test_orders_are_never_taken_for_greetings_closings_or_names():
    body = "done!\nmove ge-1 liege\nThanks\ndone\n"
    assert orders(body) == ["done!", "move ge-1 liege", "Thanks", "done"]
    assert orders("end turn!\nThanks,\nBob\n") == ["end turn!"]
    assert orders("pass,\nmove ge-1 liege\n") == ["pass,", "move ge-1 liege"]
    assert orders("Thanks\nkeep\n") == ["Thanks", "keep"]
    assert orders("advance ardennes!\ndone\n") == ["advance ardennes!", "done"]
    assert orders("done\nCheers,\nge-1 player\n") == ["done", "Cheers,", "ge-1 player"]


def test_short_orders_are_kept():
    body = "done\npass\nhold\nfire\n"
    assert order_lines(body) == [(1, "done"), (2, "pass"), (3, "hold"), (4, "fire")]


def test_a_long_first_line_is_not_a_greeting():
    body = "Hi Bob, here are my orders for this turn:\nmove ge-1 liege\n"
    assert orders(body) == ["Hi Bob, here are my orders for this turn:", "move ge-1 liege"]


def test_a_greeting_below_the_first_line_is_kept():
    body = "move ge-1 liege\nHi,\ndone\n"
    assert orders(body) == ["move ge-1 liege", "Hi,", "done"]


def test_greeting_and_closing_are_found_after_quotes_are_dropped():
    body = f"""On Sun, 22 Nov 2026 at 14:03, Moderator <ref@example.org> wrote:
> Your move.

Hi Bob,
move ge-1 liege
Thanks,
Hans

> {SIG}
> The referee
"""
    assert order_lines(body) == [(5, "move ge-1 liege")]


def test_a_body_of_only_pleasantries_has_no_orders():
    assert order_lines("Hi,\n\nThanks!\nBob\n") == []


# --- list markers and odd characters ----------------------------------------------------------


def test_list_markers_are_stripped():
    body = """- play offensive
* move ge-1 liege
• move ge-4:cavalry ardennes
•end movement
+ lose fr-5:infantry
  - build ge infantry trier into ge-4
"""
    assert order_lines(body) == [
        (1, "play offensive"),
        (2, "move ge-1 liege"),
        (3, "move ge-4:cavalry ardennes"),
        (4, "end movement"),
        (5, "lose fr-5:infantry"),
        (6, "build ge infantry trier into ge-4"),
    ]


def test_numbered_lists():
    body = """Hi,

1. play offensive
2) move ge-1 liege
3.move ge-4:cavalry ardennes
10. end movement
"""
    assert order_lines(body) == [
        (3, "play offensive"),
        (4, "move ge-1 liege"),
        (5, "move ge-4:cavalry ardennes"),
        (6, "end movement"),
    ]


def test_only_the_first_marker_and_never_a_number_inside_the_order():
    assert orders("- - move ge-1 liege\n1.5 move\n") == ["- move ge-1 liege", "1.5 move"]


def test_byte_order_mark_and_no_break_spaces():
    body = "\ufeffmove ge-1 liege\nmove\u00a0ge-4:cavalry\u00a0ardennes\u00a0\n\ufeffdone\n"
    assert order_lines(body) == [
        (1, "move ge-1 liege"),
        (2, "move ge-4:cavalry ardennes"),
        (3, "done"),
    ]


def test_a_no_break_space_before_a_quote_mark_still_quotes():
    assert orders("\u00a0> move ge-2 namur\ndone\n") == ["done"]


# --- parse_message ----------------------------------------------------------------------------


RAW = (
    b"From: Germany <germany@example.org>\r\n"
    b"To: Moderator <ref@example.org>\r\n"
    b"Subject: Re: TTLM game 7\r\n"
    b"Content-Type: text/plain; charset=utf-8\r\n"
    b"\r\n"
    b"move ge-1 liege\r\n"
    b"done\r\n"
)


def test_parse_message_reads_headers_and_body():
    msg = parse_message(RAW)
    assert isinstance(msg, EmailMessage)
    assert msg["Subject"] == "Re: TTLM game 7"
    assert plain_body(msg) == "move ge-1 liege\ndone\n"


def test_parse_message_accepts_an_mbox_from_line():
    msg = parse_message(b"From germany@example.org Sun Nov 22 14:03:00 2026\n" + RAW)
    assert msg["Subject"] == "Re: TTLM game 7"
    assert orders(plain_body(msg)) == ["move ge-1 liege", "done"]


def test_a_message_over_the_limit_is_refused():
    assert parse_message(RAW, limit=len(RAW))["To"] == "Moderator <ref@example.org>"
    with pytest.raises(MailError, match=r"over the limit of 100 bytes") as info:
        parse_message(RAW, limit=100)
    assert "\n" not in str(info.value)
    with pytest.raises(MailError):
        parse_message(b"x" * ((1 << 20) + 1))


def test_mail_error_is_a_value_error():
    assert issubclass(MailError, ValueError)
    with pytest.raises(ValueError):
        parse_message(b"x" * 10, limit=5)


# --- plain_body -------------------------------------------------------------------------------


def test_quoted_printable_with_a_soft_line_break():
    raw = (
        b"From: germany@example.org\n"
        b"Subject: orders\n"
        b"MIME-Version: 1.0\n"
        b"Content-Type: text/plain; charset=utf-8\n"
        b"Content-Transfer-Encoding: quoted-printable\n"
        b"\n"
        b"move ge-1 li=C3=A8ge\n"
        b"move ge-4:cavalry ar=\n"
        b"dennes\n"
        b"done=20\n"
    )
    body = plain_body(parse_message(raw))
    assert body == "move ge-1 liège\nmove ge-4:cavalry ardennes\ndone \n"
    assert order_lines(body) == [
        (1, "move ge-1 liège"), (2, "move ge-4:cavalry ardennes"), (3, "done")]


def test_base64_body():
    text = "Hi,\nmove ge-1 liège\nend movement\n"
    raw = (
        b"From: germany@example.org\n"
        b"Content-Type: text/plain; charset=\"UTF-8\"\n"
        b"Content-Transfer-Encoding: base64\n"
        b"\n" + base64.encodebytes(text.encode("utf-8"))
    )
    assert plain_body(parse_message(raw)) == text


def test_latin_1_charset():
    raw = (
        b"From: france@example.org\n"
        b"Content-Type: text/plain; charset=iso-8859-1\n"
        b"Content-Transfer-Encoding: 8bit\n"
        b"\n"
        b"Salut Jean,\nlose fr-5:infantry\nmove fr-1 li\xe8ge\nCordialement,\nAndr\xe9\n"
    )
    body = plain_body(parse_message(raw))
    assert "move fr-1 liège" in body
    assert order_lines(body) == [(2, "lose fr-5:infantry"), (3, "move fr-1 liège")]


def test_latin_1_built_with_mimetext():
    msg = MIMEText("move fr-1 liège\ndone\n", "plain", "iso-8859-1")
    assert plain_body(reparse(msg)) == "move fr-1 liège\ndone\n"


def test_8bit_text_without_a_charset_is_read_as_utf8_then_windows_1252():
    head = b"From: a@example.org\nContent-Transfer-Encoding: 8bit\n\n"
    assert plain_body(parse_message(head + "move ge-1 liège\n".encode())) == "move ge-1 liège\n"
    assert plain_body(parse_message(head + b"move ge-1 li\xe8ge\n")) == "move ge-1 liège\n"


def test_multipart_alternative_prefers_the_text_part():
    msg = EmailMessage()
    msg["From"] = "germany@example.org"
    msg["Subject"] = "orders"
    msg.set_content("move ge-1 liege\ndone\n")
    msg.add_alternative("<p>move ge-9 <b>paris</b></p>", subtype="html")
    body = plain_body(reparse(msg))
    assert order_lines(body) == [(1, "move ge-1 liege"), (2, "done")]


def test_html_alternative_first_still_prefers_the_text_part():
    msg = MIMEMultipart("alternative")
    msg.attach(MIMEText("<div>move ge-9 paris</div>", "html", "utf-8"))
    msg.attach(MIMEText("move ge-1 liege\n", "plain", "utf-8"))
    assert orders(plain_body(reparse(msg))) == ["move ge-1 liege"]


GMAIL_HTML = """<html><head><style>p { color: red }</style><title>orders</title>
<script>var x = "move ge-9 paris";</script></head>
<body>
<div dir="ltr">Hi&nbsp;Moderator,<div><br></div>
<div>move ge-1 li&egrave;ge</div><div>move ge-4:cavalry ardennes &amp; more</div>
<ul><li>end movement</li><li>done</li></ul>
<p>Thanks,<br>Bob</p></div>
<br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">On Sun, 22 Nov 2026 at 14:03,
Moderator &lt;<a href="mailto:ref@example.org">ref@example.org</a>&gt; wrote:<br></div>
<blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex">
<div>Order key: ABCD-1234</div><div>move ge-1 namur</div>
<blockquote><p>move ge-2 sedan</p></blockquote>
</blockquote></div>
</body></html>"""


def test_html_only_mail_is_turned_into_text():
    msg = EmailMessage()
    msg["From"] = "germany@example.org"
    msg.set_content(GMAIL_HTML, subtype="html")
    body = plain_body(reparse(msg))
    lines = body.split("\n")
    assert "var x" not in body and "color" not in body and "orders" not in lines
    assert lines[:3] == ["Hi Moderator,", "", "move ge-1 liège"]
    assert "move ge-1 liège" in lines
    assert "move ge-4:cavalry ardennes & more" in lines
    assert "> Order key: ABCD-1234" in lines
    assert "> move ge-1 namur" in lines
    assert "> > move ge-2 sedan" in lines
    assert "On Sun, 22 Nov 2026 at 14:03, Moderator <ref@example.org> wrote:" in lines
    assert orders(body) == [
        "move ge-1 liège",
        "move ge-4:cavalry ardennes & more",
        "end movement",
        "done",
    ]


def test_html_block_elements_start_lines():
    html = (
        "<h1>Orders</h1>move ge-1 liege<br/>move ge-2 namur<p>end movement</p>"
        "<table><tr><td>lose</td><td>fr-5:infantry</td></tr><tr><td>done</td></tr></table>"
        "<!-- move ge-9 paris -->"
    )
    msg = EmailMessage()
    msg.set_content(html, subtype="html")
    assert plain_body(reparse(msg)) == (
        "Orders\nmove ge-1 liege\nmove ge-2 namur\nend movement\nlose fr-5:infantry\ndone")


def test_outlook_html_reply_header_block_is_cut():
    html = """<div><p class=MsoNormal>move ge-1 liege<o:p></o:p></p>
<p class=MsoNormal>done<o:p></o:p></p></div>
<div style="border:none;border-top:solid #E1E1E1 1.0pt">
<p class=MsoNormal><b>From:</b> Moderator &lt;ref@example.org&gt;<br>
<b>Sent:</b> Sunday, November 22, 2026 2:03 PM<br>
<b>To:</b> Germany<br><b>Subject:</b> TTLM 7</p></div>
<p class=MsoNormal>move ge-1 namur</p>"""
    msg = EmailMessage()
    msg.set_content(html, subtype="html")
    assert order_lines(plain_body(reparse(msg))) == [(1, "move ge-1 liege"), (2, "done")]


def test_an_outlook_html_reply_quoting_a_long_thread_of_reports_is_read():
    """Outlook quotes a plain-text report as a paragraph a line, four tags each
    (<p class=MsoPlainText>...<o:p></o:p></p>), and a reply quotes the whole thread: an
    HTML-only reply of a long game's thread holds more than 50,000 tags and still comes
    under the size limit. Its orders are read, not refused as a flood of tags."""
    from pathlib import Path

    from referee.mail.mailboxes import MAX_MESSAGE

    report = (Path(__file__).parent / "golden" / "report-liege-german.txt").read_text()

    def paragraph(line: str) -> str:
        text = line.replace("&", "&amp;").replace("<", "&lt;") or "<o:p>&nbsp;</o:p>"
        return f"<p class=MsoPlainText>{text}<o:p></o:p></p>\r\n"

    header = ("<div style='border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0cm "
              "0cm 0cm'><p class=MsoNormal><b>From:</b> Referee &lt;ref@example.org&gt;<br>"
              "<b>Sent:</b> Sunday<br><b>Subject:</b> TTLM 7</p></div>\r\n")
    quoted = header + "".join(paragraph(line) for line in report.splitlines())
    html = ("<html><body lang=EN-GB><div class=WordSection1><p class=MsoNormal>move ge-1 "
            "liege<o:p></o:p></p><p class=MsoNormal>done<o:p></o:p></p>\r\n"
            + quoted * 66 + "</div></body></html>")
    msg = EmailMessage()
    msg.set_content(html, subtype="html", cte="quoted-printable")
    assert html.count("<") > 52_000 and len(msg.as_bytes()) < MAX_MESSAGE
    assert order_lines(plain_body(reparse(msg)))[:2] == [(1, "move ge-1 liege"), (2, "done")]


def test_a_text_attachment_is_ignored_for_the_body():
    msg = MIMEMultipart("mixed")
    notes = MIMEText("move ge-9 paris\n", "plain", "utf-8")
    notes.add_header("Content-Disposition", "attachment", filename="old-orders.txt")
    msg.attach(notes)
    msg.attach(MIMEText("move ge-1 liege\ndone\n", "plain", "utf-8"))
    assert plain_body(reparse(msg)) == "move ge-1 liege\ndone\n"


def test_a_text_attachment_loses_to_an_html_body():
    msg = EmailMessage()
    msg.set_content("<div>move ge-1 liege</div>", subtype="html")
    msg.add_attachment("move ge-9 paris\n", filename="notes.txt")
    assert plain_body(reparse(msg)) == "move ge-1 liege"


def test_an_attached_forwarded_message_is_not_the_body():
    inner = EmailMessage()
    inner["Subject"] = "old"
    inner.set_content("move ge-9 paris\n")
    msg = EmailMessage()
    msg.set_content("<p>move ge-1 liege</p>", subtype="html")
    msg.add_attachment(inner)
    assert plain_body(reparse(msg)) == "move ge-1 liege"


def test_an_unknown_charset_is_a_mail_error():
    raw = (
        b"From: a@example.org\n"
        b"Content-Type: text/plain; charset=x-no-such-charset\n"
        b"Content-Transfer-Encoding: 8bit\n"
        b"\n"
        b"move ge-1 li\xe8ge\n"
    )
    with pytest.raises(MailError, match="x-no-such-charset") as info:
        plain_body(parse_message(raw))
    assert not isinstance(info.value, LookupError)


def test_invalid_bytes_in_a_known_charset_are_replaced_not_raised():
    raw = b"Content-Type: text/plain; charset=utf-8\n\nmove ge-1 li\xe8ge\n"
    assert plain_body(parse_message(raw)) == "move ge-1 li\ufffdge\n"


def test_a_message_without_a_text_part_is_a_mail_error():
    msg = MIMEMultipart("mixed")
    image = MIMEBase("image", "png")
    image.set_payload(base64.b64encode(b"\x89PNG\r\n\x1a\n").decode())
    image["Content-Transfer-Encoding"] = "base64"
    msg.attach(image)
    with pytest.raises(MailError, match="the message has no text part"):
        plain_body(reparse(msg))


def test_an_only_text_attachment_is_not_a_body():
    msg = EmailMessage()
    msg.make_mixed()
    msg.add_attachment("move ge-1 liege\n", filename="orders.txt")
    with pytest.raises(MailError, match="no text part"):
        plain_body(reparse(msg))


def test_a_leading_byte_order_mark_is_stripped():
    msg = MIMEText("\ufeffmove ge-1 liege\ndone\n", "plain", "utf-8")
    body = plain_body(reparse(msg))
    assert body == "move ge-1 liege\ndone\n"


def test_crlf_line_ends_become_newlines():
    msg = parse_message(b"Content-Type: text/plain\r\n\r\nmove ge-1 liege\r\ndone\r\n")
    assert plain_body(msg) == "move ge-1 liege\ndone\n"


def test_format_flowed_soft_breaks_are_joined():
    raw = (
        b"Content-Type: text/plain; charset=utf-8; format=flowed\n"
        b"\n"
        b"build ge infantry trier \n"
        b"into ge-4\n"
        b" From my notes\n"
        b"\n"
        b"-- \n"
        b"Bob\n"
        b"> quoted soft \n"
        b"> line\n"
    )
    body = plain_body(parse_message(raw))
    assert body.split("\n") == [
        "build ge infantry trier into ge-4", "From my notes", "", "-- ", "Bob",
        "> quoted soft line", ""]
    assert orders(body) == ["build ge infantry trier into ge-4", "From my notes"]


def test_a_whole_gmail_reply_end_to_end():
    text = (
        "Hi Moderator,\r\n\r\n"
        "play offensive\r\n"
        "move ge-1 liege\r\n"
        "move ge-4:cavalry ardennes\r\n"
        "end movement\r\n\r\n"
        "Cheers,\r\nHans\r\n\r\n"
        "On Sun, 22 Nov 2026 at 14:03, Moderator <ref@example.org>\r\n"
        "wrote:\r\n\r\n"
        "> Germany, your move. Order key: ABCD-1234\r\n"
        "> Order key: ABCD-1234\r\n"
        "> move ge-1 liege\r\n"
    )
    msg = EmailMessage()
    msg["From"] = "Hans <germany@example.org>"
    msg["Subject"] = "Re: TTLM game 7"
    msg.set_content(text.replace("\r\n", "\n"))
    msg.add_alternative("<div>ignored html</div>", subtype="html")
    assert order_lines(plain_body(reparse(msg)), key="ABCD-1234") == [
        (3, "play offensive"),
        (4, "move ge-1 liege"),
        (5, "move ge-4:cavalry ardennes"),
        (6, "end movement"),
    ]


# --- the verbs of each kind of game -------------------------------------------------------------


def _verbs_of(kind: str):
    """(every verb the kind's order reader takes, as its own module lists them; order_lines as
    mail reads that kind's mail: a campaign game's with its default verbs)."""

    if kind == "campaign":
        from referee.engine.reading import VERBS

        return sorted(VERBS), order_lines
    from referee.table.skirmish.kind import SKIRMISH
    from referee.table.skirmish.order_text import KINDS

    return sorted(KINDS), lambda body: order_lines(body, None, SKIRMISH.verbs())


@pytest.mark.parametrize("kind", ["campaign", "skirmish"])
def test_a_line_that_starts_with_any_verb_of_the_game_is_an_order(kind):
    """Every verb the game's reader takes (engine/reading.py for TTLM and AT ALL COSTS!,
    engine/skirmish/order_text.py for the skirmish) keeps its line an order: a first line that
    would read as a greeting, a last one that would read as the name under a closing."""
    verbs, read = _verbs_of(kind)
    assert len(verbs) > 10
    for verb in verbs:
        word = verb.capitalize()
        body = f"{word} now!\n{verb} x\nCheers\n{word} Smith\n"
        assert read(body) == [(1, f"{word} now!"), (2, f"{verb} x"), (3, "Cheers"),
                              (4, f"{word} Smith")], verb
    # The same lines with a word that is no verb: a greeting and a closing, dropped.
    assert read("Onward now!\nmove x\nCheers\nOnward Smith\n") == [(2, "move x")]


def test_a_mail_s_subject_is_one_line_and_its_body_stays_wrapped():
    """A Subject longer than 78 characters (a long game id in its tag) is written on one
    line, so no mail program shows it with a line break or a leading blank; the body stays
    quoted-printable as it was encoded when set; a Subject beyond ASCII is still folded into
    encoded words of at most 75 characters (RFC 2047)."""
    import re
    from email.policy import default

    from referee.mail import message

    tag = "[referee a-long-game-id-of-the-autumn-league-1914-on-the-western-front #123]"
    msg = EmailMessage(policy=default)
    msg["From"], msg["To"] = "referee@example.org", "kaiser@example.org"
    msg["Subject"] = f"{tag} reminder: orders due by Wed 25 Nov 18:00 UTC"
    msg.set_content("move ge-1 liege " * 30, cte="quoted-printable")
    lines = message.mail_bytes(msg).decode("ascii").split("\n")
    subject = [x for x in lines if x.startswith("Subject:")]
    assert subject == [f"Subject: {tag} reminder: orders due by Wed 25 Nov 18:00 UTC"]
    head = lines[:lines.index("")]
    assert not any(x[:1] in (" ", "\t") for x in head), head
    folded = bytes(msg).decode("ascii").split("\n")      # the library's own writing
    assert lines[len(head):] == folded[folded.index(""):]           # the body as it was set
    abroad = EmailMessage(policy=default)            # an address beyond ASCII: UTF-8 headers
    abroad["From"], abroad["To"] = "referee@example.org", "jörg@exämple.de"
    abroad["Subject"] = msg["Subject"]
    abroad.set_content("x")
    head = message.mail_bytes(abroad).decode("utf-8").split("\n\n")[0].split("\n")
    assert f"Subject: {tag} reminder: orders due by Wed 25 Nov 18:00 UTC" in head
    assert not any(x[:1] in (" ", "\t") for x in head), head
    wide = EmailMessage(policy=default)
    wide["From"], wide["To"] = "referee@example.org", "kaiser@example.org"
    wide["Subject"] = f"{tag} Stoßtruppen: Überraschung für die Armee " * 2
    wide.set_content("x")
    words = re.findall(r"=\?utf-8\?[qb]\?[^?]*\?=", message.mail_bytes(wide).decode("ascii"),
                       re.I)
    assert words and max(map(len, words)) <= 75


def test_a_mail_with_pictures_is_written_with_its_boundary_given_and_reads_back_whole(
        tmp_path, monkeypatch):
    """write_eml gives a mail with pictures its boundary (eml.boundary) instead of having
    the email package search the whole mail for a line holding one; however the text is
    made, and the pictures, the mail reads back part for part: the text whole, with lines
    that look like a boundary (quoted-printable writes their '=' as '=3D'), and each
    picture byte for byte."""
    import email
    import email.generator
    import os
    import re

    from referee.mail import eml

    def no_search(*args, **kwargs):
        raise AssertionError("the mail was searched for a boundary")

    monkeypatch.setattr(email.generator.Generator, "_make_boundary", staticmethod(no_search))
    body = "".join(f"--{'=' * 15}{n:019d}==\n--{'=' * 15}\n--\n= -- =\n" for n in range(40))
    pictures = [("closeup.png", os.urandom(5000)), ("map.png", b"--" + os.urandom(9000))]
    path = eml.write_eml(tmp_path, "referee@example.org", "kaiser@example.org",
                         "[referee g #3] german report", body, None, pictures)
    raw = path.read_bytes()
    mail = email.message_from_bytes(raw, policy=email.policy.default)
    assert re.fullmatch(r"={15}\d{19}==", mail.get_boundary())
    assert raw.count(f"--{mail.get_boundary()}".encode()) == 4       # three parts, the end
    assert mail.get_body(("plain",)).get_content() == body
    assert [(p.get_filename(), p.get_content()) for p in mail.iter_attachments()] == pictures
    assert eml.boundary() != eml.boundary()


@pytest.mark.parametrize("html", [
    "<a" * 5_000, "<!--" * 5_000, "<!--a>" * 5_000, "<![ x" * 5_000, '<a t=">' * 5_000,
    "<a t='\" " * 5_000, "<" + "a" * 5_000 + "<b>", "<?x" * 5_000, "</" * 5_000,
    "<a " + '="x' * 5_000,
], ids=["open-tags", "open-comments", "comments-ending-in-tags", "marked-sections",
        "open-quotes", "mixed-quotes", "long-name", "instructions", "end-tags",
        "values-never-closed"])
def test_html_is_tamed_into_names_and_text_the_parser_reads_in_one_look(html):
    """What the standard library's HTML parser is handed: text holding no '<', and tags of a
    name alone, so that it never looks ahead from a '<' it cannot close (a stranger's 100 KB
    of unclosed tags took it 8 s; '<![' made it raise)."""
    from referee.mail.htmltext import _tamed, html_to_text

    tamed = _tamed(html)
    assert re.fullmatch(r"(?:[^<]|</?[a-z][a-z0-9:-]*/?>)*", tamed), tamed[:80]
    assert isinstance(html_to_text(html), str)


def test_html_tamed_keeps_the_text_a_player_wrote():
    msg = EmailMessage()
    msg.set_content('<div class="x" title=\'a>b\'>move ge-1 <b>li&egrave;ge</b></div>'
                    "<!-- <p>not this</p> --><p>1 &lt; 2 and 3 > 2</p><br/>done<![endif]>",
                    subtype="html")
    assert plain_body(msg).split("\n") == ["move ge-1 liège", "1 < 2 and 3 > 2", "", "done"]


@pytest.mark.parametrize("codec", ["punycode", "idna"])
def test_a_charset_that_is_a_domain_names_codec_is_unknown(codec):
    """Python decodes 'punycode' (a domain name's letters) in time growing with the square of
    the text: a megabyte took 14 s. Neither it nor 'idna' is a mail's charset."""
    raw = (f"Content-Type: text/plain; charset={codec}\n\n-".encode() + b"a" * 1000)
    with pytest.raises(MailError, match=f"charset '{codec}' is unknown"):
        plain_body(parse_message(raw))


def test_an_attachment_whose_headers_are_too_long_to_read_is_not_the_text():
    """An HTML-only mail with a PDF whose name of 252 letters beyond ASCII makes both its
    Content-Type and its Content-Disposition longer than message.HEADER_MOST: the part
    whose type cannot be read is not read as the player's text; the HTML is."""
    msg = EmailMessage()
    msg.set_content("<p>move ge-1 liege</p>", subtype="html")
    name = "\u6226" * 252 + ".pdf"
    msg.add_attachment(b"%PDF-1.4 ...", maintype="application", subtype="pdf",
                       filename=name)
    msg.get_payload()[-1].set_param("name", name)            # in its Content-Type too
    raw = msg.as_bytes()
    heads = parse_message(raw).get_payload()[-1]
    assert all(len(v) > 2048 for k, v in heads.raw_items()
               if k in ("Content-Type", "Content-Disposition"))
    assert plain_body(parse_message(raw)) == "move ge-1 liege"


@pytest.mark.parametrize(("html", "text"), [
    ('<font face=Arial">move ge-1 liege</font>', "move ge-1 liege"),      # a stray quote
    ("<p>hi</p><!---><p>move ge-1 liege</p>", "hi\nmove ge-1 liege"),     # an empty comment
    ("<p>hi</p><!-- never closed <p>move ge-1 liege</p>",
     "hi\n<!-- never closed\nmove ge-1 liege"),
])
def test_html_oddities_of_real_mail_leave_the_orders_readable(html, text):
    msg = EmailMessage()
    msg.set_content(html, subtype="html")
    assert plain_body(msg) == text


def test_a_tag_of_150000_attributes_is_read_as_text_in_little_memory():
    """A stranger's 1 MB HTML mail holding one tag of 150,000 attributes took the regular
    expression engine about 200 bytes an attribute character while it matched: 190 MB, most
    of what `watch` may hold for a thousand games. The attributes are read in a bounded
    number of steps; a tag with more is text. Measured in a child process (its peak
    resident size, before and after)."""
    probe = ("import resource, sys\n"
             "from referee.mail.htmltext import _tamed\n"
             "html = '<p ' + ' x' * 500_000 + '>play offensive</p>'\n"
             "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
             "out = _tamed(html)\n"
             "after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
             "print(after - before, out.startswith('&lt;p '), out.endswith('play offensive</p>'))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True)
    grown, as_text, kept = done.stdout.split()
    assert int(grown) < 16 * 1024, f"{int(grown) // 1024} MB more"     # ru_maxrss: KB
    assert (as_text, kept) == ("True", "True"), done.stdout
    # A tag a mail client writes, long style and all, is read as a tag.
    from referee.mail.htmltext import html_to_text

    style = "; ".join(f"margin-{i}: 0px" for i in range(400))
    assert html_to_text(f'<div class="x" style="{style}" id=a>move ge-1</div>') == "move ge-1"
