"""Small text helpers every layer shares: positions, sizes, UTF-8 decoding."""

from __future__ import annotations

import re
import sys
from typing import Any

from .errors import EncodingError

__all__ = ["line_col", "human_size", "decode_utf8", "not_utf8", "UTF8_BOM", "JSON_NUMBER",
           "CURLY_SINGLE", "CURLY_DOUBLE", "CURLY_TO_ASCII", "OTHER_QUOTES", "MAX_DEPTH", "TOO_DEEP",
           "string_end", "skip_blanks", "SURROGATE", "int_of_text", "too_many_digits"]

UTF8_BOM = b"\xef\xbb\xbf"
#: The deepest nesting (containers inside containers) a parser that builds a
#: Python value accepts: as deep as orjson reads. Deeper text is refused at
#: the opening bracket past the bound, at once, instead of building a value
#: that ``repr`` and ``json.dumps`` cannot walk. The recovery kernels, the
#: streaming parser and the partial-JSON drop-in share it.
MAX_DEPTH = 1024

#: The refusal's wording, the same in every parser.
TOO_DEEP = f"nesting deeper than {MAX_DEPTH} levels"

#: A surrogate code point: in a str only alone (a pair decodes to one character), which
#: UTF-8 cannot encode.
SURROGATE = re.compile("[\ud800-\udfff]")
# a quoted key and its colon (up to 100 characters, no line break): a member of an object, where
# the repair engine meets it in text after a value and where recovery meets it opening a bare value
QUOTED_KEY = re.compile(r"""(["'])[^"'\n]{0,100}\1[ \t]*:""")

#: A JSON number token (RFC 8259), as a regex pattern.
JSON_NUMBER = r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?"

# The curly-quote table (SPEC 1.1), read by the recovery kernels' pure twin and
# by toolmend.recovery; ext/_recover.pyx tests the same code points in C.
#: U+2018, U+2019 and the prime U+2032: each stands for '
CURLY_SINGLE = "\u2018\u2019\u2032"
#: U+201C, U+201D and the double prime U+2033: each stands for "
CURLY_DOUBLE = "\u201c\u201d\u2033"
#: Quotes that open a string in other typographies, each with the quotes that
#: close it: German low-high (U+201E, closed by U+201C or, in Polish, U+201D)
#: and the guillemets in both directions (« », » «, ‹ ›, › ‹). Each stands for ".
OTHER_QUOTES = {
    "\u201e": "\u201c\u201d", "\u00ab": "\u00bb", "\u00bb": "\u00ab", "\u2039": "\u203a",
    "\u203a": "\u2039",
}
#: ``str.translate`` table: curly quotes and primes to ASCII, guillemets to << >>.
CURLY_TO_ASCII = {
    **{ord(c): "'" for c in CURLY_SINGLE},
    **{ord(c): '"' for c in CURLY_DOUBLE},
    0x00AB: "<<", 0x00BB: ">>",
}


def line_col(text: str, pos: int) -> tuple[int, int]:
    """1-based line and column (in characters) of offset ``pos`` in ``text``."""
    line = text.count("\n", 0, pos) + 1
    col = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return line, col


def human_size(n: int) -> str:
    """``n`` bytes, for a message: 1 byte, 512 bytes, 3.2 KB, 20.0 MB."""
    if n >= 1 << 20:
        return f"{n / (1 << 20):.1f} MB"
    if n >= 1 << 10:
        return f"{n / (1 << 10):.1f} KB"
    return plural(n, "byte")


def plural(n: int, word: str, many: str | None = None) -> str:
    """A count and its noun, for a message: ``1 file``, ``2 files``, ``3
    branches``, ``0 entries`` (``many``: a plural these rules do not make)."""
    if n == 1:
        return f"{n:,} {word}"
    if many is None:
        if word.endswith(("s", "x", "z", "ch", "sh")):
            many = word + "es"
        elif word.endswith("y") and word[-2:-1] not in ("a", "e", "i", "o", "u"):
            many = word[:-1] + "ies"
        else:
            many = word + "s"
    return f"{n:,} {many}"


def decode_utf8(data: bytes, what: str) -> str:
    """Decode UTF-8, dropping a BOM; a clear error names the bad byte's place."""
    if data.startswith(UTF8_BOM):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise not_utf8(data, exc.start, what) from None


# what a file that is not UTF-8 text most often is, told by its first bytes
_NOT_TEXT = ((b"\xff\xfe\x00\x00", "it starts with UTF-32's byte-order mark: convert it to UTF-8"),
             (b"\x00\x00\xfe\xff", "it starts with UTF-32's byte-order mark: convert it to UTF-8"),
             (b"\xff\xfe", "it starts with UTF-16's byte-order mark: convert it to UTF-8"),
             (b"\xfe\xff", "it starts with UTF-16's byte-order mark: convert it to UTF-8"),
             (b"\x1f\x8b", "it starts as gzip data does: decompress it first"),
             (b"PK\x03\x04", "it starts as a zip archive does"), (b"%PDF-", "it is a PDF document"))


def not_utf8(data: bytes, bad: int, what: str, base: int = 0) -> EncodingError:
    """The error for ``data[base:]`` (the text after its BOM), not UTF-8 at ``bad``: the
    byte's place, and what the data seems to be when its first bytes say (UTF-16, gzip)."""
    line = data.count(b"\n", base, bad) + 1
    column = bad - (data.rfind(b"\n", base, bad) + 1 or base) + 1
    seems = next((f"; {why}" for magic, why in _NOT_TEXT if data.startswith(magic, base)), "")
    return EncodingError(f"{what} is not valid UTF-8: byte 0x{data[bad]:02x} at line {line}, "
                         f"byte {column} (offset {bad - base}){seems}",
                         offset=bad - base, line=line, column=column)


def skip_blanks(text: str, j: int, limit: int) -> int:
    """Past the characters from ``j`` that ``str.isspace()`` says are blank, to ``limit``."""
    while j < limit and text[j].isspace():
        j += 1
    return j


def string_end(text: str, i: int, limit: int) -> int | None:
    """End (past the closing quote) of the string whose quote (' or ") is at
    ``i``, looking no further than ``limit``; None when it does not close.
    An odd run of backslashes before a quote escapes it."""
    quote = text[i]
    j = i + 1
    while True:
        k = text.find(quote, j, limit)
        if k < 0:
            return None
        # count the backslashes before it: an odd number escapes it
        b = k - 1
        while b > i and text[b] == "\\":
            b -= 1
        if (k - 1 - b) % 2 == 0:
            return k + 1
        j = k + 1


def too_many_digits(text: str) -> str | None:
    """What is wrong with an integer's text that has more digits than this Python
    converts (``sys.get_int_max_str_digits``), or None when it converts."""
    limit = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 0
    digits = sum(c.isdigit() for c in text) if limit and len(text) > limit else 0
    if digits > limit > 0:
        return f"an integer of {digits} digits, more than Python converts ({limit})"
    return None


def int_of_text(text: str) -> int | None:
    """``int(text)`` for an integer's text, None when it has more digits than Python converts."""
    return None if too_many_digits(text) else int(text)


def non_finite(value: Any) -> bool:
    """``value`` (a parsed JSON-like value) holds a float JSON has no number for: NaN or
    Infinity, which orjson writes as null and Python's json as ``NaN``, neither JSON."""
    stack = [value]
    while stack:
        v = stack.pop()
        if type(v) is float:
            if v != v or v in (_INF, -_INF):
                return True
        elif type(v) is dict:
            stack.extend(v.values())
        elif type(v) is list or type(v) is tuple:
            stack.extend(v)
    return False


_INF = float("inf")
