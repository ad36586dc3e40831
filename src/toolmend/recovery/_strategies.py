"""Tool-call argument recovery: the seven strategies of the contract, in order.

1. ``parse``            the text is valid JSON: returned as is (orjson)
2. ``single_quotes``    '...' strings -> "..." (stateful, string-aware)
3. ``unquoted_keys``    {cmd: ...} -> {"cmd": ...}
4. ``quotes_and_keys``  2 then 3
5. ``trailing_commas``  commas before } or ] removed, on the output of 2-4
   (``comments``        then, JSON with // or /* */ comments: 1-5 without them)
6. ``wrap_plain``       a bare value goes into the tool's primary field
7. ``object_literal``   {cmd: read, n: 1.50} parsed by hand, rebuilt as JSON

and the documented extras: ``curly_quotes`` (only curly quotes standing where
JSON needs a quote were wrong), ``double_encoded`` (a JSON string that holds
the object), ``empty`` (no arguments at all, for a tool: ``{}``) and
``code_fence`` (valid JSON inside a Markdown code block).
"""

from __future__ import annotations

import functools
import json
import re
from bisect import bisect_left
from typing import TYPE_CHECKING, Any, Callable

import orjson

from .._kernels import jsonscan as _scan, recover as _k
from .._text import CURLY_TO_ASCII, QUOTED_KEY, line_col, non_finite
from ..errors import LiteralError, RecoveryError
from ._fields import SUBCOMMANDS, field_for_tool, looks_like_cli_args, tool_style
from ._result import Cut, Fix, Recovered, cut_error, cut_from_log, make_cut

__all__ = ["Recovered", "Fix", "normalize_tool_args", "loads", "json_text", "json_kind", "STRATEGIES",
           "QUOTE_MODES"]

#: Every strategy name ``Recovered.strategy`` can hold, in pipeline order.
STRATEGIES = (
    "parse", "curly_quotes", "single_quotes", "unquoted_keys", "quotes_and_keys",
    "trailing_commas", "comments", "wrap_plain", "object_literal", "double_encoded", "empty",
    "code_fence", "repair", "parsed",
)
QUOTE_MODES = ("structural", "always", "off")

# The names of the kernel's steps 0-5 (recover_text's step numbers).
_STEP_NAMES = ("parse", "curly_quotes", "single_quotes", "unquoted_keys", "quotes_and_keys",
               "trailing_commas")

# The kernel's values hold their integers exactly (orjson would make those
# beyond 64 bits floats): recovery reads no number itself.
_recover_text = _k.recover_text
_recover_value = _k.recover_value
_repair_json = _k.repair_json
_Refused = _k.Refused


_NOT_JSON: Any = object()


# exact_json(text): the value of ``text`` when it is valid JSON as written (one parse, integers
# exact), else ``_NOT_JSON``: nothing is repaired (the kernel's, called without a frame of ours)
exact_json: Callable[[str], Any] = functools.partial(_k.exact_json, _NOT_JSON)


def json_text(value: Any, given: bool = False) -> str:
    """Compact JSON text of ``value``; a lone surrogate (which UTF-8 cannot
    hold, so orjson refuses it) is written as a ``\\udXXX`` escape, and
    nesting deeper than orjson writes (254 levels) by the json module.
    Raises RecoveryError for a value JSON cannot write (a set, an object,
    a cycle, nesting past what Python can walk; and, for a value ``given``
    parsed by the caller, NaN or Infinity: the recovery's own never hold one)."""
    try:
        out = orjson.dumps(value)
    except orjson.JSONEncodeError:
        pass
    else:
        if given and b"null" in out and non_finite(value):  # (orjson writes NaN and Infinity as null)
            raise RecoveryError("the value holds NaN or Infinity, which JSON cannot carry")
        return out.decode()
    try:
        return json.dumps(value, separators=(",", ":"), allow_nan=False)
    except RecursionError:
        raise RecoveryError("the value is nested too deeply to write as JSON (past the ~1,000 "
                            "levels Python can walk)") from None
    except (TypeError, ValueError) as exc:  # a set, an object, a circular reference
        raise RecoveryError(f"the value cannot be written as JSON: {exc}") from None


def _fail(original: str, error: str) -> Recovered:
    return Recovered(original, False, None, None, error)


def json_kind(value: Any, article: bool = False) -> str:
    """What JSON calls ``value``'s type ("array", "number"...; a type JSON
    lacks by its Python name), with "a" or "an" before it when asked."""
    if isinstance(value, list):
        kind = "array"
    elif isinstance(value, bool):
        kind = "boolean"
    elif isinstance(value, (int, float)):
        kind = "number"
    else:
        kind = "null" if value is None else type(value).__name__
    return (("an " if kind[0] in "aeiou" else "a ") + kind) if article else kind


# what a bare value sent to a tool the table does not know is told (a schema may still place it)
NO_PRIMARY_FIELD = "which has no known primary field"


_BARE_KEY = re.compile(r"[ \t\r\n]*([A-Za-z_][\w-]{0,63})[ \t]*:(?![/\\])")


def bare_key_of(text: str) -> str | None:
    """The bare word a text opens with as an object's member does, lower-cased (``file: main.go``:
    "file"; ``https://x`` is none)."""
    m = _BARE_KEY.match(text)
    return m.group(1).lower() if m is not None else None


def _wrap(value: str, tool: str, original: str) -> Recovered:
    """Strategy 6: put a bare value into ``tool``'s primary field."""
    field = field_for_tool(tool)
    if field is None:
        return _fail(original, f"a bare value was sent to tool {tool!r}, {NO_PRIMARY_FIELD} "
                               "(register one with register_tool_field)")
    if tool_style(tool) == "subcommand":
        words = value.split()
        if len(words) != 1 or words[0].lower() not in SUBCOMMANDS:
            if looks_like_cli_args(value):
                why = "looks like CLI arguments; left for the tool's argument parser"
            else:
                why = "is prose, not a subcommand line"
            return _fail(original, f"the text sent to tool {tool!r} {why}")
    wrapped = {field: value}
    return Recovered(json_text(wrapped), True, "wrap_plain", wrapped)


def _accept(value: Any, text: str, strategy: str, tool: str | None, original: str,
            fixes: list[Fix] | None = None, source: str | None = None) -> Recovered:
    """Apply the tool rules to a parsed value: with a tool, arguments are an
    object; a JSON string is unwrapped (double encoding) or wrapped."""
    if tool is None or type(value) is dict:
        return Recovered(text, True, strategy, value, None, fixes, source)
    if isinstance(value, str):
        inner_text = value.strip()
        if inner_text.startswith("{"):
            inner = normalize_tool_args(inner_text, tool)
            if inner.cut is not None:  # a cut object inside the string is not a bare value
                return inner
            if inner.ok and type(inner.value) is dict:
                # (what the inner text needed, prose after it dropped too, is logged beside)
                fixes = None if inner.strategy == "parse" else [
                    Fix("double_encoded", len(original) - len(original.lstrip()),
                        "a JSON string holding the object decoded"), *inner.fixes]
                return Recovered(inner.text, True, "double_encoded", inner.value, None, fixes, source)
        elif _OBJECTS.match(inner_text):
            # (a JSON string holding an array of objects, the calls or argument objects encoded twice:
            # arguments are one object, and that text is no value of the tool's field)
            return _fail(original, "the text is a JSON string holding an array of objects (encoded twice): "
                                   f"tool {tool!r} takes one object of arguments")
        return _wrap(value, tool, original)
    return _fail(original, f"tool {tool!r} takes an object of arguments, not a JSON {json_kind(value)}")


_OBJECTS = re.compile(r"\[\s*\{")  # (an array of objects opening: "[ -f x ]" is a shell test)


def normalize_tool_args(raw: str | bytes | bytearray | dict[str, Any] | None,
                        tool: str | None = None, *, quotes: str = "structural",
                        schema: Any = None, fill_defaults: bool = False) -> Recovered:
    """Recover tool-call arguments; never raises on bad text.

    ``raw`` is the arguments' text (``str`` or UTF-8 ``bytes``), an already
    parsed ``dict`` (taken as it is, strategy ``parsed``) or ``None`` (no
    arguments). ``tool`` (optional) is the tool's name: with it the result is
    always a JSON object (bare values are wrapped into the tool's primary
    field). With ``quotes="structural"`` (default) curly quotes standing where
    JSON needs a quote are straightened before the repairs; ``"always"``
    straightens every curly quote first; ``"off"`` none. With ``schema``
    (a JSON Schema dict, a Pydantic v2 model class or a ``toolmend.Schema``)
    the recovered value is then checked and coerced against it (see
    :mod:`toolmend.recovery._toolschema`); ``fill_defaults`` inserts the
    defaults of absent properties.
    """
    if schema is not None:
        from ._toolschema import recover_with_schema

        return recover_with_schema(raw, tool, schema, quotes=quotes, fill_defaults=fill_defaults)
    if type(raw) is str:
        text: str = raw
    elif isinstance(raw, dict):
        try:
            return Recovered(json_text(raw, True), True, "parsed", raw, None, [])
        except RecoveryError as exc:
            return _fail("", f"the arguments dict: {exc}")
    elif raw is None:
        text = ""
    elif isinstance(raw, (bytes, bytearray, memoryview)):
        try:
            text = bytes(raw).decode("utf-8")
        except UnicodeDecodeError as exc:
            return _fail(bytes(raw).decode("utf-8", "replace").strip(),
                         f"the arguments are not valid UTF-8 (byte {exc.start})")
    elif isinstance(raw, str):
        text = str(raw)
    else:
        raise TypeError("normalize_tool_args: raw must be str, bytes, dict or None, "
                        f"not {type(raw).__name__}")
    if tool is not None and not isinstance(tool, str):
        raise TypeError(f"normalize_tool_args: tool must be a str or None, not {type(tool).__name__}")
    if quotes != "structural":
        if quotes == "always":
            return _straighten(_recover(text, tool, True))
        if quotes != "off":
            raise ValueError(f"normalize_tool_args: quotes must be one of {QUOTE_MODES}, "
                             f"not {quotes!r}")
    return _recover(text, tool, quotes == "structural")


def _recover(text: str, tool: str | None, curly: bool, fences: int = 0) -> Recovered:
    """``fences``: how many code blocks this text was found in."""

    # Steps 0-5 (parse, curly quotes, quotes, keys, both, commas) rewrite the
    # text in the kernel; orjson judges each candidate there.
    step, candidate, value, base = _recover_text(text, curly)
    if step == 0:
        # 1. parse: valid JSON comes back as it is.
        if tool is None or type(value) is dict:
            return Recovered(text, True, "parse", value, None, [])
        return _accept(value, text, "parse", tool, text.strip(), [], text)
    if step > 0:
        opened = _curly_left_open(value, text, candidate, step) if curly and not candidate.isascii() else None
        if opened is not None:  # ({“cmd”: “git commit -m “fix bug”, ...}: one quote is missing)
            return _left_open(text, opened)
        if tool is None:
            return Recovered(candidate, True, _STEP_NAMES[step], value, None, None, text)
        return _accept(value, candidate, _STEP_NAMES[step], tool, text.strip(), None, text)
    if base.startswith("```"):
        return _unfence(text, tool, curly, fences)
    return _finish(text, base, tool, curly)


# ```json\n{...}\n``` : the whole text is one Markdown code block (read by
# _fenced, not one regular expression: a lazy body before "[ \t]*```\Z"
# backtracks through every run of blanks, quadratic in its length)
_TICKS = re.compile(r"`{3,}")
_INFO = re.compile(r"[ \t]*[\w+.-]*[ \t]*")  # (nothing after it in the pattern: no backtracking)
_MAX_FENCES = 16  # code blocks inside code blocks: past this, no reading is safe


def _fenced(text: str) -> tuple[int, int] | None:
    """Where the content of ``text`` starts and ends when ``text`` is one
    Markdown code block: a run of three or more backticks, an info string
    (``json``) and a line break; the content; then optionally a line break
    and blanks, and the opening run again, ending the text. None otherwise."""
    m = _TICKS.match(text)
    if m is None:
        return None
    ticks = m.group()
    j = _INFO.match(text, m.end()).end()  # type: ignore[union-attr]
    if text.startswith("\r\n", j):
        j += 2
    elif text.startswith("\n", j):
        j += 1
    else:
        return None
    e = len(text) - len(ticks)
    if e < j or not text.endswith(ticks):
        return None
    while e > j and text[e - 1] in " \t":  # the closing fence's indentation
        e -= 1
    if e > j and text[e - 1] == "\n":
        e -= 1
    if e > j and text[e - 1] == "\r":
        e -= 1
    return j, e


def _unfence(text: str, tool: str | None, curly: bool, fences: int = 0) -> Recovered:
    """Arguments wrapped in a Markdown code block: recover what it holds.

    The strategy is ``code_fence`` when the block holds valid JSON, else the
    strategy that recovered its content."""
    original = text.strip()
    found = _fenced(original)
    if found is None:
        base = _k.normalize_structural_quotes(original) if curly else original
        return _finish(text, base, tool, curly)
    if fences >= _MAX_FENCES:
        return _fail(original, f"code blocks nested more than {_MAX_FENCES} deep: which one holds "
                               "the arguments cannot be told")
    start, end = found
    # the line break before the closing fence is the block's: a number or a word
    # that ends the block is whole (brackets missing after it are only that)
    inner = _recover(original[start:end] + "\n", tool, curly, fences + 1)
    lead = len(text) - len(text.lstrip()) + start
    if inner.cut is not None:
        return _cut(inner.text, inner.value, make_cut(inner.cut.offset + lead, inner.cut.what),
                    [Fix(f.code, f.offset + lead, f.message) for f in inner.fixes])
    if not inner.ok:  # (said once for blocks in blocks)
        error = inner.error or ""
        return _fail(original, error if error.startswith("inside the code block") else
                     f"inside the code block: {error}")
    fixes = [Fix("code_fence", len(text) - len(text.lstrip()), "Markdown code fence dropped")]
    fixes += [Fix(f.code, f.offset + lead, f.message) for f in inner.fixes
              if f.code != "parse"]
    strategy = "code_fence" if inner.strategy == "parse" else inner.strategy
    return Recovered(inner.text.strip(), True, strategy, inner.value, None, fixes)


# A JSON string token in recovered (valid) text.
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
# Inside a JSON string a straightened double quote must be escaped.
_IN_STRING = {k: ('\\"' if v == '"' else v) for k, v in CURLY_TO_ASCII.items()}


def _straighten(result: Recovered) -> Recovered:
    """``quotes="always"``: after recovery (which already straightened the
    quotes standing where JSON needs one), straighten every curly quote left
    inside strings too, escaping double quotes so the text stays JSON."""
    if not result.ok:
        return result
    text = _JSON_STRING.sub(lambda m: m.group(0).translate(_IN_STRING), result.text)
    if text == result.text:
        return result
    if result.strategy in ("object_literal", "repair"):  # keep their exact numbers
        value = _repair_json(text)[0]
    else:
        value = exact_json(text)  # valid JSON, integers exact
        if value is _NOT_JSON:  # (a lone surrogate's escape, which orjson refuses: the engine reads it)
            value = _repair_json(text)[0]
    return Recovered(text, True, result.strategy, value, None, result.fixes)


def _left_open(text: str, opened: tuple[str, str]) -> Recovered:
    return _fail(text.strip(), f"the curly quote {opened[0]} in the string {opened[1][:60]!r} "
                               "opens a quotation that the string's own closing quote then closes: "
                               "one quote is missing, and where the string ends is a guess")


def _finish(text: str, base: str, tool: str | None, curly: bool = True) -> Recovered:
    """``_finish_base``, refused where a quote the curly-quote step straightened in ``base``
    closed a string that holds a quotation left open (the steps after it read what it gave)."""
    result = _finish_base(text, base, tool, curly)
    if result.ok and not base.isascii():
        opened = _curly_left_open(result.value, text, base, 0)
        if opened is not None:
            return _left_open(text, opened)
    return result


def _finish_base(text: str, base: str, tool: str | None, curly: bool) -> Recovered:
    """Empty text, comments, 6. wrap_plain, 7. object_literal, then the
    repair engine."""
    original = text.strip()
    if not original:
        if tool is not None:
            return Recovered("{}", True, "empty", {}, None, None, text)
        return _fail(original, "the arguments are empty")
    if _may_hold_comments(base):
        # JSON with // or /* */ comments: steps 1-5 again without them. Only
        # as JSON: in a bare value "//" may well be part of a URL.
        uncommented = _k.strip_comments(base)
        if uncommented is not base:
            # (a curly quote after a comment stands where JSON needs one only once the comment is gone)
            step, candidate, value, _ = _recover_text(uncommented, curly)
            if step >= 0:
                opened = _curly_left_open(value, text, candidate, step) if step > 0 and curly else None
                if opened is not None:
                    return _left_open(text, opened)
                return _accept(value, candidate, "comments", tool, original, None, text)
    first = base[0]
    literal_error = None
    if first != "{" and first != "[":
        # 6. wrap_plain: the bare value as the model wrote it (a fenced block
        # holding an object goes to the repair engine first).
        if tool is not None:
            if QUOTED_KEY.match(base) or bare_key_of(base) in (field_for_tool(tool) or "",):
                # ("key": or the field's own name and a colon, file: main.go: members without their "{")
                return _fail(original, "the text starts with a key and a colon, as an object's members "
                                       "do, without the object's '{': not a bare value, and where the "
                                       "object begins is a guess")
            if first in "\"'":
                # one quoted string: its text goes into the field (a string cut before its closing
                # quote is cut); a quote inside it, or anything after it, leaves the text as written
                # ("ls" | grep "x" is a command)
                quoted = _engine(text, base, None, original)
                if quoted.cut is not None:
                    return quoted
                if quoted.ok and isinstance(quoted.value, str) and all(
                        f.code in ("escape", "quote", "curly_quotes") for f in quoted.fixes or ()):
                    return _accept(quoted.value, quoted.text, quoted.strategy or "repair", tool, original,
                                   list(quoted.fixes or ()), text)
                if not quoted.ok and original.count(first) <= 2 and (
                        original.count(first) == 1 or original.endswith(first)):
                    # one quoted string (or its opening quote alone) the engine refused: its text with
                    # the quotes is no value the model meant ("C:\new\a.txt": which backslashes are
                    # escapes is a guess)
                    shut = "" if len(original) > 1 and original.endswith(first) else " that never closes"
                    return _fail(original, f"the text is one quoted string{shut}, and it cannot be read: "
                                           f"{quoted.error}")
            if not base.startswith(("```", "~~~")):
                return _wrap(original, tool, original)
            repaired = _engine(text, base, tool, original)
            if repaired.ok or repaired.cut is not None:
                return repaired
            return _wrap(original, tool, original)
    elif base[-1] in "}]":  # (it could not parse text that is not closed)
        # 7. object_literal
        try:
            value, rebuilt = _k.parse_object_literal(base)
        except _Refused as exc:
            literal_error = LiteralError(base, exc.pos, exc.what)
        else:
            return _accept(value, rebuilt, "object_literal", tool, original, None, text)
    result = _engine(text, base, tool, original)
    if result.ok or literal_error is None or result.cut is not None:
        return result
    return _fail(original, f"{result.error}; as an object literal: {literal_error}")


def _may_hold_comments(base: str) -> bool:
    """Whether the comments step could recover ``base``. Text that opens a
    bracket and does not end with one can only become JSON when what follows
    its last closing bracket is comments: only that tail is searched then."""
    if base[0] in "{[" and base[-1] not in "}]":
        tail = base[max(base.rfind("}"), base.rfind("]")) + 1:]
        return "//" in tail or "/*" in tail
    return "//" in base or "/*" in base


def _engine(text: str, base: str, tool: str | None, original: str) -> Recovered:
    """The repair engine, on the text after the curly-quote step (with the
    input's trailing whitespace, which a cut string keeps)."""
    lead = len(text) - len(text.lstrip())
    tail = text[lead + len(original):]
    repaired = base + tail if tail else base
    back = _original_offset(original, base) if len(base) != len(original) else None
    try:
        value, rebuilt, raw_fixes = _repair_json(repaired)
    except _Refused as refused:
        exc = (LiteralError(repaired, refused.pos, refused.what) if back is None
               else LiteralError(original + tail, back(refused.pos), refused.what))
        where = f"{exc.what} at line {exc.line}, column {exc.column} (offset {exc.pos + lead})"
        if original[0] not in "{[" and tool is None:
            return _fail(original, f"not valid JSON ({_json_error(original)}), not repairable "
                                   f"({where}), and no tool was given whose field could take "
                                   "it as a bare value")
        return _fail(original, f"not valid JSON ({_json_error(original)}); not repaired: {where}")
    if back is not None and raw_fixes:
        raw_fixes = [(code, back(offset), message) for code, offset, message in raw_fixes]
    cut = cut_from_log(raw_fixes, lead) if raw_fixes else None
    if cut is not None:
        return _cut(rebuilt, value, cut, [Fix(code, offset + lead, message)
                                          for code, offset, message in raw_fixes])
    inner = next((offset for code, offset, _ in raw_fixes if code == "inner_quote"), -1) if raw_fixes else -1
    twice = _key_given_twice(rebuilt) if inner >= 0 else None
    if twice is not None:  # the reading a quote inside a string was given wrote over a member
        return _fail(original, f"reading the quote at offset {inner + lead} as the end of a string gives "
                               f"key {twice!r} twice with two values: which string ends there, and which "
                               "value is meant, is a guess")
    opened = _quotation_left_open(original, raw_fixes) if inner >= 0 else -1
    if opened >= 0:
        return _fail(original, f"the quote at offset {opened + lead} opens a quotation inside a string "
                               "that the string's own closing quote then closes (\"Tell him \"yes\", ...): "
                               "one quote is missing, and where the string ends is a guess")
    if not raw_fixes:
        if text.strip(" \t\n\r") == original:
            if base == original:  # valid JSON after all (deeper than orjson's limit)
                return _accept(value, text, "parse", tool, original, [], text)
            # only curly quotes standing where JSON needs one were wrong (orjson refuses what the step
            # gave, a lone surrogate's escape): the text is the rebuilt one, never the input
            return _accept(value, rebuilt, "curly_quotes", tool, original, None, text)
        # valid once whitespace JSON does not know (U+001E, U+2028, ...) around it is gone
        fixes = [Fix("whitespace", 0, "whitespace that JSON does not allow, around the value, "
                                      "dropped")]
        return _accept(value, rebuilt, "repair", tool, original, fixes, text)
    if tool is None or type(value) is dict:  # the log is built when it is read
        return Recovered(rebuilt, True, "repair", value, None, None, text, (raw_fixes, lead))
    fixes = [Fix(code, offset + lead, message) for code, offset, message in raw_fixes]
    return _accept(value, rebuilt, "repair", tool, original, fixes, text)


# Each opening quote, the quotes that close it, and those that, standing before it, make it
# a closer itself (German \u201e...\u201c; guillemets point either way: \u00bb...\u00ab)
_OPENERS = (("\u201c", "\u201d", "\u201e"), ("\u201e", "\u201c\u201d", ""), ("\u2018", "\u2019", ""),
            ("\u00ab", "\u00bb", "\u00bb"), ("\u00bb", "\u00ab", "\u00ab"), ("\u2039", "\u203a", "\u203a"),
            ("\u203a", "\u2039", "\u2039"))


def _curly_left_open(value: Any, text: str, candidate: str, step: int) -> tuple[str, str] | None:
    """An opening quote and a string of ``value`` that holds it with no closing quote after it
    (the curly-quote step took that closing quote for the string's end), or None. Only quotes of
    a kind the step straightened (the text used them as JSON's quotes) are looked for, and \u201c
    whenever that step alone made the text JSON.
    (German's \u201e opens what \u201c closes: "\u201ehi\u201c" is whole.)"""
    openers = [(o, close, before) for o, close, before in _OPENERS if o in candidate and (
        (step == 1 and o == "\u201c")
        or sum(map(text.count, o + close)) > sum(map(candidate.count, o + close)))]
    if not openers:
        return None
    stack = [value]
    while stack:
        v = stack.pop()
        if type(v) is str:
            for o, close, before in openers:
                k = v.rfind(o)
                if k >= 0 and not any(c in v[k:] for c in close) and not any(c in v[:k] for c in before):
                    return o, v
        elif type(v) is dict:
            stack.extend(v.values())
        elif type(v) is list:
            stack.extend(v)
    return None


def _quotation_left_open(original: str, raw_fixes: list[tuple[str, int, str]]) -> int:
    """Where a quote read inside a string opens a quotation (a blank or an opening bracket
    before it, no blank or delimiter after it) whose only closing quote is the one read as the string's
    end: ``"Tell him "yes", "x": 1`` (one quote is missing: the string may end after
    ``"yes"`` or hold it open), or -1. A quote inside a word (``6'2"``, ``v"alue``) opens none."""
    inner = sorted(offset for code, offset, _ in raw_fixes if code == "inner_quote")
    marks = set(inner)
    for o in inner:
        if o <= 0 or o + 1 >= len(original) or original[o] not in "\"'":
            continue
        if not (original[o - 1] in " \t\n([{=:" and not original[o + 1].isspace()
                and original[o + 1] not in ",:}]\"'"):  # (a quotation opens: "-r", "/x", "$HOME")
            continue
        nxt = original.find(original[o], o + 1)  # (in a string of single quotes: 'git commit -m 'Fix')
        if nxt >= 0 and nxt not in marks:
            return o
    return -1


def _key_given_twice(text: str) -> str | None:
    """A key that an object of the JSON ``text`` holds twice with two values (None: none)."""
    found: list[str] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        for k, v in items:
            if k in seen and not found and seen[k] != v:
                found.append(k)
            seen[k] = v
        return seen

    try:
        json.loads(text, object_pairs_hook=pairs)
    except (RecursionError, ValueError):
        return None  # (deeper than Python reads: the engine's own reading stands)
    return found[0] if found else None


def _original_offset(original: str, base: str) -> Callable[[int], int]:
    """The curly-quote step escapes an ASCII quote inside a string that a curly
    quote opened (one backslash added before it): the engine's offsets, in
    ``base``, taken back to ``original``."""
    added: list[int] = []
    i = 0
    for j, c in enumerate(base):
        if c == "\\" and (i >= len(original) or original[i] != "\\"):
            added.append(j)
        else:
            i += 1
    return lambda pos: pos - bisect_left(added, pos)


def _cut(text: str, value: Any, cut: Cut, fixes: list[Fix]) -> Recovered:
    """A cut result: not ok, the completed reading kept for display."""
    return Recovered(text, False, "repair", value, cut_error(cut), fixes, None, None, cut)


def _json_error(text: str) -> str:
    try:
        orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        if exc.msg.startswith("failed to allocate"):
            # orjson's word for some deep unclosed text: the scanner says where it stops
            pos = _scan.scan(text)[0]
            line, column = line_col(text, pos)
            what = "unexpected end of data" if pos >= len(text) else "unexpected character"
            return f"{what} at line {line}, column {column}"
        return f"{exc.msg} at line {exc.lineno}, column {exc.colno}"
    except Exception:  # pragma: no cover - orjson refuses some valid text (depth)
        return "not accepted by orjson"
    return "valid JSON"  # pragma: no cover - only called on text that failed


def loads(raw: str | bytes | bytearray | dict[str, Any] | None, tool: str | None = None, *,
          schema: Any = None, fill_defaults: bool = False) -> Any:
    """Recover and return the arguments' value; raise RecoveryError (a
    ValueError) with the reason when nothing works. With ``schema``, the value
    is checked and coerced against it, and a value that does not fit raises
    RecoveryError listing every problem."""
    if schema is not None:
        return _loads_schema(raw, tool, schema, fill_defaults)
    if tool is None and type(raw) is str:  # the hot path: steps 0-5 and the literal in the kernel
        value = _recover_value(raw, True)
        if type(value) is not tuple:
            return value
        return _loads_rest(raw, tool, value)
    return _loads_rest(raw, tool, None)


def _loads_schema(raw: Any, tool: str | None, schema: Any, fill_defaults: bool) -> Any:
    from ._toolschema import schema_loads

    return schema_loads(raw, tool, schema, fill_defaults)


def _loads_rest(raw: Any, tool: str | None, found: tuple[str] | tuple[()] | None) -> Any:
    """``loads`` past its hot path: ``found`` is the kernel's ``(base,)``
    (a value JSON never gives) when steps 0-5 and the object literal were
    tried on text without a tool; with ``()`` (the curly-quote step's value,
    which only the whole path checks) or None the whole path runs."""
    if found:
        base = found[0]
        if base.startswith("```"):
            result = _unfence(raw, None, True)
        else:
            result = _finish(raw, base, None)
    else:
        result = normalize_tool_args(raw, tool)
    if not result.ok:
        raise RecoveryError(f"could not recover the tool-call arguments: {result.error}",
                            result.text, cut=result.cut)
    return result.value


if not TYPE_CHECKING:  # the same function, its hot path in the kernel (no Python frame there)
    _doc = loads.__doc__
    loads = _k.make_loads(_loads_rest, _loads_schema)
    loads.__doc__ = _doc
