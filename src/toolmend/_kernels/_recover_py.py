"""Pure-Python twin of ``ext/_recover.pyx``, the reference of the pair.

Same results, same error messages; used where the compiled extension is not
available (PyPy, platforms without a wheel) or when ``TOOLMEND_PURE_PYTHON=1``.
Written with regexes and ``str`` methods rather than character loops: that is
what is fast in Python.

The names both twins export (``__all__``), with the same signatures
(tests/test_kernel_line.py checks them): ``recover_text``, ``recover_value``
(the text strategies, steps 0-5), ``exact_json`` (step 0 alone), ``make_loads`` (recovery's ``loads``
with its hot path in the kernel), ``parse_object_literal`` (strategy 7, in
``_recover_literal``), ``repair_json`` (the repair engine, in
``_recover_repair`` over ``_recover_tokens``), ``strip_comments``,
``normalize_structural_quotes`` and ``Refused``, the refusal of the last two
readers, which toolmend.recovery turns into LiteralError. Every value
returned holds its integers exactly.
"""

from __future__ import annotations

import re
from typing import Any, Callable

import orjson

from .._text import CURLY_DOUBLE, CURLY_SINGLE, OTHER_QUOTES
from ._recover_literal import parse_object_literal
from ._recover_repair import repair_json
from ._recover_tokens import Refused

__all__ = ["recover_text", "recover_value", "exact_json", "make_loads", "parse_object_literal", "repair_json",
           "strip_comments", "normalize_structural_quotes", "Refused"]

# Below this length a text that fails the pre-filter skips orjson; the twins
# share the threshold so that they take the same path.
PREFILTER_MAX = 512

# A JSON-ish string token in either quote style; an unterminated one runs to
# the end of the text, as the character scanners treat it.
_DQ = r'"(?:[^"\\]|\\.)*"?'
_SQ = r"'(?:[^'\\]|\\.)*'?"


# A run of 19 digits or more: an integer token beyond 64 bits when it stands
# after a character a number token follows (not a quote or a letter: inside a
# string), its sign between, and before no fraction or exponent (see the
# compiled twin's lossy_ints_k). The runs are found first, their surroundings
# looked at after: a pattern holding the look-behind is tried at every
# character (~1.4 ms for 30 KB of source code).
_DIGIT_RUN = re.compile(r"[0-9]{19,}")
_NUMBER_LEAD = frozenset(" \t\n\r[,:")
_INT_BOUNDS = {"": 2**64 - 1, "-": 2**63}
# Whether there is such a run at all, asked first at C speed: the text's UTF-8 bytes with
# every ASCII digit made "0" and every other byte " " (a character beyond ASCII has no
# byte below 0x80), searched for nineteen "0"s.
_DIGITS_ONLY = bytes(48 if 48 <= b <= 57 else 32 for b in range(256))
_NINETEEN = b"0" * 19


def _lossy_ints(text: str) -> bool:
    """Whether the valid JSON ``text`` holds an integer token orjson reads as
    a float (beyond 64 bits for its sign)."""
    if _NINETEEN not in text.encode("utf-8", "surrogatepass").translate(_DIGITS_ONLY):
        return False
    for m in _DIGIT_RUN.finditer(text):
        a, b = m.span()
        if text[b:b + 1] in (".", "e", "E"):
            continue  # a fraction or an exponent: a float as written
        sign = "-" if text[a - 1:a] == "-" else ""
        lead = a - len(sign)
        if lead and text[lead - 1] not in _NUMBER_LEAD:
            continue  # inside a string, or a word's
        if int(m.group()) > _INT_BOUNDS[sign]:
            return True
    return False


def _exact_value(text: str, value: Any) -> Any:
    """orjson's ``value`` of the valid ``text``, or the exact one (the repair
    engine's reading, integers at any size) when an integer beyond 64 bits is
    there."""
    return repair_json(text)[0] if _lossy_ints(text) else value


def _maybe_json(s: str) -> bool:
    """Whether orjson accepts ``s``: the pure build lets orjson itself be the
    pre-filter (a Python scanner would cost more than it saves)."""
    try:
        orjson.loads(s)
    except orjson.JSONDecodeError:
        return False
    return True


# ---------------------------------------------------------------------------
# Curly quotes standing where JSON needs a quote

_HAS_CURLY = re.compile(f"[{CURLY_DOUBLE}{CURLY_SINGLE}{''.join(OTHER_QUOTES)}]")
_CLOSES = re.compile(r"\s*(?:[:,}\]]|\Z)")
# Each opening quote: the quotes that close its string, and the ASCII quote it stands for.
_OPENERS = {**{c: (CURLY_DOUBLE, '"') for c in CURLY_DOUBLE},
            **{c: (CURLY_SINGLE, "'") for c in CURLY_SINGLE},
            **{c: (closers, '"') for c, closers in OTHER_QUOTES.items()}}


def normalize_structural_quotes(s: str) -> str:
    """Turn curly quotes (and German and guillemet quotes) that delimit
    strings into ASCII quotes (see the compiled twin for the rules)."""
    if s.isascii() or not _HAS_CURLY.search(s):
        return s
    out: list[str] = []
    last = "{"
    state = 0  # 0 out, 1 in "..", 2 in '..', 3 in a curly string (closed by one of ``closers``)
    converted = 0
    may_open = True
    closers, plain = "", '"'
    closer_seen = False  # a quote that could have closed the curly string was seen in it
    open_in = open_out = 0
    i, n = 0, len(s)
    while True:
        if i >= n:
            if state < 3 or not closer_seen:
                break  # (a curly string that runs to the end with no closer in it: cut there)
            # The curly quote at open_in closed nothing: undo from there.
            del out[open_out:]
            last = s[open_in]
            out.append(last)
            i, state, may_open = open_in + 1, 0, False
            converted -= 1
            continue
        c = s[i]
        i += 1
        if state == 0:
            if c == '"':
                state = 1
            elif c == "'":
                state = 2
            elif may_open and c in _OPENERS and last in "{[,:":
                open_in, open_out = i - 1, len(out)
                closers, plain = _OPENERS[c]
                state, c, closer_seen = 3, plain, False
                converted += 1
            elif not c.isspace():
                last = c
            out.append(c)
        elif state in (1, 2):
            out.append(c)
            if c == "\\" and i < n:
                out.append(s[i])
                i += 1
            elif c == ('"' if state == 1 else "'"):
                state = 0
                last = '"'
        elif c == "\\" and i < n:
            out.append(c + s[i])
            i += 1
        elif c in closers and _CLOSES.match(s, i):
            out.append(plain)
            state = 0
            last = '"'
        elif c == plain:
            out.append("\\" + c)
        else:
            closer_seen = closer_seen or c in closers
            out.append(c)
    return "".join(out) if converted else s


# ---------------------------------------------------------------------------
# Strategy 2: single-quoted strings -> double-quoted

_SQ_TOKENS = re.compile(rf"{_DQ}|'((?:[^'\\]|\\.)*)('?)", re.S)
_SQ_BODY = re.compile(r'\\(.)|"', re.S)


def _sq_body(m: re.Match[str]) -> str:
    if m.group(0) == '"':
        return '\\"'
    return "'" if m.group(1) == "'" else m.group(0)


def _rewrite(tokens: re.Pattern[str], group: int, build: Callable[[re.Match[str]], str], s: str) -> str:
    """``s`` with each token of ``tokens`` whose ``group`` matched replaced by
    ``build(match)`` (the other tokens, strings, stay); ``s`` itself if none."""
    changed = False

    def repl(m: re.Match[str]) -> str:
        nonlocal changed
        if m.group(group) is None:
            return m.group(0)
        changed = True
        return build(m)

    out = tokens.sub(repl, s)
    return out if changed else s


def _convert_single_quotes(s: str) -> str:
    """Single-quoted strings become double-quoted; ``s`` itself if none."""
    if "'" not in s:
        return s
    return _rewrite(_SQ_TOKENS, 1, lambda m: '"' + _SQ_BODY.sub(_sq_body, m.group(1))
                    + ('"' if m.group(2) else ""), s)


# ---------------------------------------------------------------------------
# Strategy 3: bare keys -> quoted keys

_KEY_TOKENS = re.compile(rf"{_DQ}|{_SQ}|([{{,]\s*)([^\s:,{{}}\[\]\"']+)(?=\s*:)", re.S)


# A backslash in a bare key, but for a \uXXXX escape (JSON5 allows one there): escaped.
_KEY_BACKSLASH = re.compile(r"\\(?!u[0-9a-fA-F]{4})")


def _quote_bare_keys(s: str) -> str:
    """Quote a bare key after ``{`` or ``,`` and before ``:``."""
    return _rewrite(_KEY_TOKENS, 2,
                    lambda m: m.group(1) + '"' + _KEY_BACKSLASH.sub(r"\\\\", m.group(2)) + '"', s)


# ---------------------------------------------------------------------------
# Strategy 5: trailing commas

_COMMA_TOKENS = re.compile(rf"{_DQ}|{_SQ}|,(?=\s*[}}\]])", re.S)


def _remove_trailing_commas(s: str) -> str:
    """Drop commas that only whitespace separates from ``}`` or ``]``."""
    if "," not in s:
        return s
    out = _COMMA_TOKENS.sub(lambda m: "" if m.group(0) == "," else m.group(0), s)
    return out if len(out) != len(s) else s


# ---------------------------------------------------------------------------
# Comments: // to the end of the line, /* ... */

_COMMENT_TOKENS = re.compile(rf"{_DQ}|{_SQ}|//[^\n\r]*|/\*.*?\*/|/\*", re.S)


def strip_comments(s: str) -> str:
    """Remove ``//`` and ``/* */`` comments outside strings (see the compiled
    twin); ``s`` itself when there is none, or when a ``/*`` is unclosed."""
    if "/" not in s:
        return s
    changed = unclosed = False

    def repl(m: re.Match[str]) -> str:
        nonlocal changed, unclosed
        tok = m.group(0)
        if tok.startswith("//"):
            changed = True
            return ""
        if tok.startswith("/*"):
            if tok == "/*" or not tok.endswith("*/") or len(tok) < 4:
                unclosed = True
                return tok
            changed = True
            return " "
        return tok

    out = _COMMENT_TOKENS.sub(repl, s)
    return out if changed and not unclosed else s


# ---------------------------------------------------------------------------
# Steps 0-5 in one call

def _unclosed(text: str) -> bool:
    """Starts with { or [ but does not end with } or ]: no step before the
    repair engine can make it JSON (see the compiled twin)."""
    t = text.strip()
    return t[:1] in ("{", "[") and t[-1] not in "}]"


def _repair(text: str, start: int = 0, curly: bool = True) -> tuple[int, str, str]:
    """Run the text-rewriting steps in contract order; return
    ``(step, candidate, base)`` (see the compiled twin's repair_from)."""
    cut = _unclosed(text)
    if start <= 0 and not cut and (len(text) > PREFILTER_MAX or _maybe_json(text)):
        return 0, text, text
    original = text.strip()
    if not original:
        return -1, original, original
    base = normalize_structural_quotes(original) if curly else original
    if cut:
        return -1, base, base
    if start <= 1 and base is not original and _maybe_json(base):
        return 1, base, base
    quoted = _convert_single_quotes(base)
    if start <= 2 and quoted is not base and _maybe_json(quoted):
        return 2, quoted, base
    if quoted is base:
        keyed = _quote_bare_keys(base)
        if start <= 3 and keyed is not base and _maybe_json(keyed):
            return 3, keyed, base
        both = keyed
    else:  # step 3 cannot succeed: a single-quoted string stays outside strings
        both = _quote_bare_keys(quoted)
        if start <= 4 and both is not quoted and _maybe_json(both):
            return 4, both, base
    trimmed = _remove_trailing_commas(both)
    if start <= 5 and trimmed is not both and _maybe_json(trimmed):
        return 5, trimmed, base
    return -1, base, base


def recover_text(text: str, curly: bool = True) -> tuple[int, str, Any, str]:
    """Steps 0-5 with orjson as the judge: ``(step, candidate, value, base)``
    (see the compiled twin)."""
    start = 0
    while True:
        step, candidate, base = _repair(text, start, curly)
        if step < 0:
            return -1, candidate, None, base
        try:
            value = orjson.loads(candidate)
        except orjson.JSONDecodeError:
            start = step + 1
        else:
            return step, candidate, _exact_value(candidate, value), base


def exact_json(not_json: Any, text: str) -> Any:
    """The value of ``text`` when it is valid JSON as written (step 0 of
    ``recover_text``, integers exact), else ``not_json``."""
    step, _, value, _ = recover_text(text, False)
    return value if step == 0 else not_json


def make_loads(fallback: Callable[[Any, str | None, tuple[str] | tuple[()] | None], Any],
               with_schema: Callable[[Any, str | None, Any, bool], Any] | None = None
               ) -> Callable[..., Any]:
    """Build ``loads(raw, tool=None, *, schema=None, fill_defaults=False)`` on
    ``recover_value`` (see the compiled twin, where it spares the hot path a
    Python frame): ``fallback(raw, tool, found)`` takes what it does not
    settle, ``with_schema(raw, tool, schema, fill_defaults)`` a call with a
    schema."""
    def loads(raw: Any, tool: str | None = None, *, schema: Any = None,
              fill_defaults: bool = False) -> Any:
        if schema is not None and with_schema is not None:
            return with_schema(raw, tool, schema, fill_defaults)
        if tool is None and type(raw) is str:
            value = recover_value(raw, True)
            if type(value) is not tuple:
                return value
            return fallback(raw, tool, value)
        return fallback(raw, tool, None)
    return loads


# Quotes that open a quotation (curly, German, guillemets either way): in a value the text
# steps gave, recovery checks that none was left open
_OPENING_QUOTES = "\u201c\u201e\u2018\u00ab\u00bb\u2039\u203a"


def recover_value(text: str, curly: bool = True) -> Any:
    """The value of ``recover_text`` (integers exact), else the object
    literal's, else a 1-tuple ``(base,)``, or ``()`` for a repaired value
    holding an opening curly quote (see the compiled twin)."""
    step, candidate, value, base = recover_text(text, curly)
    if step >= 0:
        # (recovery checks that the curly-quote step left no quote open: its whole path)
        return () if step > 0 and curly and any(c in candidate for c in _OPENING_QUOTES) else value
    if base[:1] in ("{", "[") and "/" not in base and not _unclosed(base) and not (
            curly and any(c in base for c in _OPENING_QUOTES)):  # (recovery checks those)
        try:
            return parse_object_literal(base)[0]
        except Refused:
            pass
    return (base,)
