"""Pure-Python twin of ``ext/_recover.pyx``.

Same functions, same results, same error messages; used where the compiled
extension is not available (PyPy, platforms without a wheel) or when
``TOOLMEND_PURE_PYTHON=1``. Written with regexes and ``str`` methods rather
than character loops: that is what is fast in Python.
"""

from __future__ import annotations

import re
from typing import Any, Callable

import orjson

from .._text import CURLY_DOUBLE, CURLY_SINGLE
from ..errors import LiteralError
from ._recover_literal import parse_object_literal as parse_object_literal

# Below this length a text that fails the pre-filter skips orjson; the twins
# share the threshold so that they take the same path.
PREFILTER_MAX = 512

# Step numbers returned by repair(); recovery.py names them.
STEP_NAMES = ("parse", "curly_quotes", "single_quotes", "unquoted_keys",
              "quotes_and_keys", "trailing_commas")

# A JSON-ish string token in either quote style; an unterminated one runs to
# the end of the text, as the character scanners treat it.
_DQ = r'"(?:[^"\\]|\\.)*"?'
_SQ = r"'(?:[^'\\]|\\.)*'?"


_LONG_DIGITS = re.compile(r"[0-9]{19}")


def needs_exact(s: str) -> bool:
    """Whether ``s`` holds a run of 19 or more digits: an integer orjson
    could turn into a float (beyond 64 bits) may be there."""
    return _LONG_DIGITS.search(s) is not None


def maybe_json(s: str) -> bool:
    """Whether orjson accepts ``s``: the pure build lets orjson itself be the
    pre-filter (a Python scanner would cost more than it saves)."""
    try:
        orjson.loads(s)
    except orjson.JSONDecodeError:
        return False
    return True


# ---------------------------------------------------------------------------
# Curly quotes standing where JSON needs a quote

_HAS_CURLY = re.compile(f"[{CURLY_DOUBLE}{CURLY_SINGLE}]")
_CLOSES = re.compile(r"\s*(?:[:,}\]]|\Z)")


def normalize_structural_quotes(s: str) -> str:
    """Turn curly quotes that delimit strings into ASCII quotes (see the
    compiled twin for the rules)."""
    if not _HAS_CURLY.search(s):
        return s
    out: list[str] = []
    last = "{"
    state = 0  # 0 out, 1 in "..", 2 in '..', 3 in curly "..", 4 in curly '..'
    converted = 0
    may_open = True
    open_in = open_out = 0
    i, n = 0, len(s)
    while True:
        if i >= n:
            if state < 3:
                break
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
            elif may_open and (c in CURLY_DOUBLE or c in CURLY_SINGLE) and last in "{[,:":
                open_in, open_out = i - 1, len(out)
                state = 3 if c in CURLY_DOUBLE else 4
                c = '"' if state == 3 else "'"
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
        else:
            curly = CURLY_DOUBLE if state == 3 else CURLY_SINGLE
            plain = '"' if state == 3 else "'"
            if c == "\\" and i < n:
                out.append(c + s[i])
                i += 1
            elif c in curly and _CLOSES.match(s, i):
                out.append(plain)
                state = 0
                last = '"'
            elif c == plain:
                out.append("\\" + c)
            else:
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


def convert_single_quotes(s: str) -> str:
    """Single-quoted strings become double-quoted; ``s`` itself if none."""
    if "'" not in s:
        return s
    changed = False

    def repl(m: re.Match[str]) -> str:
        nonlocal changed
        body = m.group(1)
        if body is None:
            return m.group(0)
        changed = True
        return '"' + _SQ_BODY.sub(_sq_body, body) + ('"' if m.group(2) else "")

    out = _SQ_TOKENS.sub(repl, s)
    return out if changed else s


# ---------------------------------------------------------------------------
# Strategy 3: bare keys -> quoted keys

_KEY_TOKENS = re.compile(rf"{_DQ}|{_SQ}|([{{,]\s*)([^\s:,{{}}\[\]\"']+)(?=\s*:)", re.S)


def quote_bare_keys(s: str) -> str:
    """Quote a bare key after ``{`` or ``,`` and before ``:``."""
    changed = False

    def repl(m: re.Match[str]) -> str:
        nonlocal changed
        key = m.group(2)
        if key is None:
            return m.group(0)
        changed = True
        return m.group(1) + '"' + key.replace("\\", "\\\\") + '"'

    out = _KEY_TOKENS.sub(repl, s)
    return out if changed else s


# ---------------------------------------------------------------------------
# Strategy 5: trailing commas

_COMMA_TOKENS = re.compile(rf"{_DQ}|{_SQ}|,(?=\s*[}}\]])", re.S)


def remove_trailing_commas(s: str) -> str:
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


def repair(text: str, start: int = 0, curly: bool = True) -> tuple[int, str, str]:
    """Run the text-rewriting steps in contract order; return
    ``(step, candidate, base)`` (see the compiled twin)."""
    cut = _unclosed(text)
    if start <= 0 and not cut and (len(text) > PREFILTER_MAX or maybe_json(text)):
        return 0, text, text
    original = text.strip()
    if not original:
        return -1, original, original
    base = normalize_structural_quotes(original) if curly else original
    if cut:
        return -1, base, base
    if start <= 1 and base is not original and maybe_json(base):
        return 1, base, base
    quoted = convert_single_quotes(base)
    if start <= 2 and quoted is not base and maybe_json(quoted):
        return 2, quoted, base
    if quoted is base:
        keyed = quote_bare_keys(base)
        if start <= 3 and keyed is not base and maybe_json(keyed):
            return 3, keyed, base
        both = keyed
    else:  # step 3 cannot succeed: a single-quoted string stays outside strings
        both = quote_bare_keys(quoted)
        if start <= 4 and both is not quoted and maybe_json(both):
            return 4, both, base
    trimmed = remove_trailing_commas(both)
    if start <= 5 and trimmed is not both and maybe_json(trimmed):
        return 5, trimmed, base
    return -1, base, base


def recover_text(text: str, curly: bool = True) -> tuple[int, str, Any, str]:
    """Steps 0-5 with orjson as the judge: ``(step, candidate, value, base)``
    (see the compiled twin)."""
    start = 0
    while True:
        step, candidate, base = repair(text, start, curly)
        if step < 0:
            return -1, candidate, None, base
        try:
            return step, candidate, orjson.loads(candidate), base
        except orjson.JSONDecodeError:
            start = step + 1


def make_loads(fallback: Callable[[Any, str | None, tuple[str] | None], Any]
               ) -> Callable[..., Any]:
    """Build ``loads(raw, tool=None)`` on ``recover_value`` (see the compiled
    twin): ``fallback(raw, tool, found)`` takes what it does not settle."""
    def loads(raw: Any, tool: str | None = None) -> Any:
        if tool is None and type(raw) is str:
            value = recover_value(raw, True)
            if type(value) is not tuple:
                return value
            return fallback(raw, tool, value)
        return fallback(raw, tool, None)
    return loads


def recover_value(text: str, curly: bool = True) -> Any:
    """The value of ``recover_text`` (integers exact), else the object
    literal's, else a 1-tuple ``(base,)`` (see the compiled twin)."""
    step, candidate, value, base = recover_text(text, curly)
    if step >= 0:
        return repair_json(candidate)[0] if needs_exact(candidate) else value
    if base[:1] in ("{", "[") and "/" not in base and not _unclosed(base):
        try:
            return parse_object_literal(base)[0]
        except LiteralError:
            pass
    return (base,)


# ---------------------------------------------------------------------------
# The repair engine (after the seven strategies)

from ._recover_repair import repair_json as repair_json  # noqa: E402
