"""Calls written as Python: ``[get_weather(city="Paris"), get_time(tz='UTC')]``.

    [f(a=1), g(b="x")]                          pythonic (bare, on a line of its own)
    <|python_start|>[f(a=1)]<|python_end|>      llama4_pythonic
    <|tool_call_start|>[f(a=1)]<|tool_call_end|> lfm2
    <function_calls>f(a=1)\\ng(b=2)</function_calls>  olmo3
    <|python_tag|>f.call(a=1)                   llama 3 built-in tools

The text is read with :mod:`ast` (the everyday call by ``_pyliteral``, the same reading) and
never run: each argument must be a literal (strings, numbers, ``True``/``False``/``None``, the
JSON spellings ``true``/``false``/``null``, lists, tuples, dicts of those). A call with a
positional argument, ``**kwargs`` or any other expression is not ok, with the
reason. Each call is split out of the list by a bracket- and string-aware scan
first, so one bad call does not take its neighbours with it and a cut list
keeps its whole calls.
"""

from __future__ import annotations

import ast
import io
import keyword
import math
import re
import tokenize
import warnings
from dataclasses import replace
from typing import Any

from .._result import Fix
from .._toolcalls import MARKUP_ONLY, ToolCall, two_ways
from ._base import Ctx, cut_call, json_run, more_after
from ._context import ALPACA_LINE, head_name
from ._pyliteral import simple_call_args
from ._schema import Tools, _types

__all__ = ["read_list", "read_lines", "pythonic_reader", "pythonic_at", "comment_after", "quoted_calls",
           "object_by_position",
           "BY_POSITION", "positional_object", "paren_end",
           "joined_lists", "read_raven"]

# a name may hold hyphens between its words (an MCP tool's: weather-forecast), as tools are named,
# and its underscores escaped as Markdown escapes them (solve\_quadratic: Mistral's, Mixtral's)
_WORD = r"(?:[^\W\d]|\\_)(?:\w|\\_)*"  # (in any script, as Python's names: 获取(城市="北京"))
_NAME = _WORD + r"(?:-" + _WORD + r")*(?:\." + _WORD + r"(?:-" + _WORD + r")*)*"
_HEAD = re.compile(r"(" + _NAME + r")[ \t]*\(")
# the name written as a string ('get_weather'(city="Paris"), as Mistral's small models and DBRX
# write their lists): Python would call a string, so the only reading is the call of that name
_QUOTED_HEAD = re.compile(r"'(" + _NAME + r")'[ \t]*\(|\"(" + _NAME + r")\"[ \t]*\(")
_MD_UNDERSCORE = "\\_"
_SPECIAL = re.compile(r"[\"'()\[\]{}#]")
_PREFIX = re.compile(r"[rRuUbBfF]{0,2}")  # (a string's prefix)
_CLOSE = {")": "(", "]": "[", "}": "{"}
_BLANK = re.compile(r"\s*")


def paren_end(text: str, p: int, limit: int) -> tuple[int | None, bool]:
    """The end of the bracketed group opened at ``p`` (past its closer; None when cut), and
    whether it writes a string right after another (``'It''s'``, which Python joins; with
    blanks or lines between, ``"a\\n"`` then ``"b"``, the joining is meant)."""
    stack = [text[p]]
    k = p + 1
    search = _SPECIAL.search
    after_string, joined = -1, False
    while True:
        m = search(text, k, limit)
        if m is None:
            return None, joined
        k = m.start()
        c = text[k]
        if c in "\"'":
            if 0 <= after_string and k - after_string <= 2 and _PREFIX.fullmatch(text, after_string, k):
                joined = True  # ('It''s': one string written right after another)
            q = c * 3 if text.startswith(c * 3, k) else c
            j = k + len(q)
            while True:
                n = text.find(q, j, limit)
                if n < 0:
                    return None, joined
                b = text.find("\\", j, n)  # (only up to the quote: a text of many strings stays linear)
                if 0 <= b < n:
                    j = b + 2
                    continue
                k = after_string = n + len(q)
                break
            continue
        if c == "#":
            nl = text.find("\n", k, limit)
            if nl < 0:
                return None, joined
            k = nl
            continue
        if c in "([{":
            stack.append(c)
        else:
            if stack[-1] != _CLOSE[c]:
                return -1, joined  # unbalanced: not Python
            stack.pop()
            if not stack:
                return k + 1, joined
        k += 1


class _NotJson(ValueError):
    """A literal JSON cannot hold."""


def _literal(node: ast.AST) -> Any:
    if isinstance(node, ast.Name) and node.id in ("true", "false", "null"):
        return {"true": True, "false": False, "null": None}[node.id]
    if isinstance(node, ast.Name) and node.id in ("True", "False", "None"):
        return {"True": True, "False": False, "None": None}[node.id]
    if isinstance(node, (ast.List, ast.Tuple)):
        return [_literal(x) for x in node.elts]
    if isinstance(node, ast.Dict):
        out = {}
        given: dict[Any, tuple[ast.AST, ast.AST]] = {}  # each key (True, 1, 1.0: one) and value, as written
        for k, v in zip(node.keys, node.values, strict=True):
            if k is None:
                raise ValueError("a ** inside a dict")
            key = _literal(k)
            if not isinstance(key, (str, int, float, bool)) or key is None:
                raise ValueError("a dict key that is not a string or a number")
            name = key if isinstance(key, str) else str(key).lower() if isinstance(key, bool) else str(key)
            if name in out or key in given:  # {"a": 1, "a": 2}, {1: "x", "1": "y"}, {True: 0, 1: 2}: a guess
                if key in given and _same(given[key], (k, v)):
                    continue  # (the same key and value written again: one reading)
                raise ValueError(f"a dict that gives key {name!r} twice")
            given[key] = (k, v)
            out[name] = _literal(v)
        return out
    if isinstance(node, ast.Constant) and isinstance(node.value, (str, int, float)) or (
            isinstance(node, ast.Constant) and node.value is None):
        if type(node.value) is float and not math.isfinite(node.value):  # 1e400: JSON has no inf
            raise _NotJson("a number too large for a double, which JSON cannot hold")
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)) and \
            isinstance(node.operand, ast.Constant) and type(node.operand.value) in (int, float):
        number = _literal(node.operand)  # (refused when past a double)
        assert isinstance(number, (int, float))
        return -number if isinstance(node.op, ast.USub) else number
    raise ValueError(f"{type(node).__name__.lower()} is not a literal")


BY_POSITION = "passes an argument by position"


def positional_object(raw: str) -> dict[str, Any] | None:
    """The value of a call's one argument passed by position (``raw``: the text in its
    parentheses) when that is an object literal alone with string keys, ``f({"a": 1})``
    (Python's reading, never evaluated); None for anything else."""
    try:
        body = _parse(raw).body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if not isinstance(body, ast.Dict) or not all(isinstance(k, ast.Constant) and isinstance(k.value, str)
                                                 for k in body.keys):
        return None
    try:
        value = _literal(body)
    except (ValueError, RecursionError):  # (a key twice, a value no literal, one JSON cannot hold)
        return None
    return value if isinstance(value, dict) else None


def _same(written: tuple[ast.AST, ...], again: tuple[ast.AST, ...]) -> bool:
    """Whether trees are written alike (compared only when a key comes twice: a dump is costly)."""
    return [ast.dump(t) for t in written] == [ast.dump(t) for t in again]


def _dotted(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return None if base is None else f"{base}.{node.attr}"
    return None


def _parse(source: str) -> ast.Expression:
    with warnings.catch_warnings():  # "\d" in a string: Python warns, the text is still a literal
        warnings.simplefilter("ignore")
        return ast.parse(source, mode="eval")


_LINES = re.compile(r"\r\n|\r|\n")  # (the line breaks Python's own line numbers count)


def _written(lines: list[bytes], kw: ast.keyword) -> str:
    """The argument's name as the model wrote it (``lines``: the source's in UTF-8,
    split once, as the offsets count): Python folds an identifier's characters
    (NFKC: "\ufb01le" is read "file"), a tool's parameter is named by its text."""
    # (a name is short: what follows it on a long line is not decoded once a name)
    rest = lines[kw.lineno - 1][kw.col_offset:kw.col_offset + 1024].decode("utf-8", "replace")
    n = 0
    while n < len(rest) and ("a" + rest[:n + 1]).isidentifier():
        n += 1
    return rest[:n] if n else str(kw.arg)


def _keywords_renamed(source: str) -> tuple[str, dict[str, str]] | None:
    """``source`` (one call) with each argument named by a Python keyword
    (``from=``, ``class=``) renamed to a free identifier, and the names given
    back; None when it has none (or does not tokenize)."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError, ValueError):
        return None
    starts = [0]
    for line in io.StringIO(source).readlines():  # (the lines tokenize read)
        starts.append(starts[-1] + len(line))
    renamed: dict[str, str] = {}
    out, last, depth = [], 0, 0
    for k, tok in enumerate(tokens):
        if tok.type == tokenize.OP and tok.string in "([{":
            depth += 1
        elif tok.type == tokenize.OP and tok.string in ")]}":
            depth -= 1
        elif (tok.type == tokenize.NAME and keyword.iskeyword(tok.string) and depth == 1 and k > 0
              and tokens[k - 1].string in ("(", ",") and k + 1 < len(tokens) and tokens[k + 1].string == "="):
            free = f"_kw{len(renamed)}_{tok.string}"
            while free in source:
                free += "_"
            renamed[free] = tok.string
            a = starts[tok.start[0] - 1] + tok.start[1]
            out += [source[last:a], free]
            last = a + len(tok.string)
    if not renamed:
        return None
    return "".join(out) + source[last:], renamed


def _head(text: str, s: int, limit: int) -> tuple[str, int, bool] | None:
    """The name of the call at ``s`` as written, where its opening parenthesis stands, and
    whether the name was written as a string; None when no call starts there."""
    m = _HEAD.match(text, s, limit)
    if m is not None:
        return m.group(1), m.end() - 1, False
    m = _QUOTED_HEAD.match(text, s, limit) if text[s:s + 1] in ("'", '"') else None
    return None if m is None else (m.group(m.lastindex or 1), m.end() - 1, True)


def pythonic_at(text: str, s: int, limit: int) -> tuple[ToolCall | None, int]:
    """The call ``NAME(...)`` at ``s``: (call, end); (None, s) when none starts there."""
    at = _head(text, s, limit)
    if at is None:
        return None, s
    written, p, quoted = at
    head = head_name(written)  # (Markdown's \_ in a name: an underscore)
    name = head
    if name.endswith(".call"):  # llama 3 built-in tools: brave_search.call(query=...)
        name = name[:-len(".call")]
    e, joined = paren_end(text, p, limit)
    if e == -1:
        return None, s
    raw = text[p + 1:(e - 1 if e is not None else limit)].strip()
    if e is None:
        return cut_call(name, raw, (s, limit), "inside its arguments"), limit
    renamed: dict[str, str] = {}
    as_written = source = written + text[p:e] if quoted else text[s:e]
    escaped = _MD_UNDERSCORE in source and (source := _unescaped(source)) != as_written
    if "-" in head:  # (Python would read a subtraction: the name is read by _HEAD, not by ast)
        source = head.replace("-", "_") + source[len(head):]
    elif not joined and not escaped and (simple := simple_call_args(source)) is not None:
        return _made(name, raw, simple, (s, e), quoted), e  # (the everyday call: read as ast would)
    try:
        tree = _parse(source)
    except SyntaxError as exc:
        # book_flight(from="SFO"): a parameter named as a Python keyword, read under another name
        found = _keywords_renamed(source)
        try:
            if found is None:
                raise exc
            source, renamed = found
            tree = _parse(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return ToolCall(name, raw, None, False, (s, e),
                            f"the call to {name!r} is not valid Python: {exc.msg}"), e
    except (ValueError, RecursionError, MemoryError) as exc:
        return ToolCall(name, raw, None, False, (s, e),
                        f"the call to {name!r} is not valid Python: {type(exc).__name__}"), e
    call = tree.body
    if not isinstance(call, ast.Call) or _dotted(call.func) is None:
        return None, s
    if call.args:
        if quoted and not call.keywords:  # ('Paris' (France): words in brackets, no argument named)
            return None, s
        return ToolCall(name, raw, None, False, (s, e),
                        f"the call to {name!r} {BY_POSITION}; a tool takes named arguments only"), e
    if joined:  # ('Let''s meet': 'Lets meet' to Python; the model meant a quote, or another string)
        return ToolCall(name, raw, None, False, (s, e),
                        f"the call to {name!r} writes a string right after another, which Python joins "
                        "into one (to Python 'Let''s go' is 'Lets go'; where a quote written twice stands for"
                        " one, as in SQL, it is \"Let's go\"): which value was meant cannot be told"), e
    args: dict[str, Any] = {}
    given: dict[str, ast.AST] = {}  # each argument's value as written (its tree)
    lines: list[bytes] | None = None  # (split when a name may be folded: once, not once an argument)
    for kw in call.keywords:
        if kw.arg is None:
            return ToolCall(name, raw, None, False, (s, e),
                            f"the call to {name!r} passes **arguments, which are not read"), e
        if lines is None and not source.isascii():
            lines = [line.encode("utf-8") for line in _LINES.split(source)]
        written = kw.arg if lines is None else _written(lines, kw)
        kw.arg = renamed.get(written, written)
        if kw.arg in given:  # (Python refuses it: "keyword argument repeated"; the same value is one reading)
            if _same((given[kw.arg],), (kw.value,)):
                continue
            return two_ways(name, raw, (s, e), f"the call to {name!r} gives argument {kw.arg!r} twice"), e
        given[kw.arg] = kw.value
        try:
            args[kw.arg] = _literal(kw.value)
        except _NotJson as exc:
            return ToolCall(name, raw, None, False, (s, e), f"argument {kw.arg!r} of {name!r} holds {exc}"), e
        except (ValueError, RecursionError) as exc:
            return ToolCall(name, raw, None, False, (s, e),
                            f"argument {kw.arg!r} of {name!r} is not a literal ({exc}); "
                            "it is never evaluated"), e
    if escaped and _MD_UNDERSCORE in source:  # ("New\_York": an underscore Markdown escaped, or a backslash)
        return ToolCall(name, raw, None, False, (s, e),
                        f"the call to {name!r} is written with Markdown's escapes (\\_ in its name), and its "
                        "arguments hold \\_ too: whether that is an underscore or a backslash and one cannot "
                        "be told"), e
    return _made(name, raw, args, (s, e), quoted), e


def _made(name: str, raw: str, args: dict[str, Any], span: tuple[int, int], quoted: bool) -> ToolCall:
    """The call read ok (its name written as a string: with a fix saying so)."""
    fixes = (Fix("quoted_name", span[0], f"the name {name!r} was written as a string before its arguments"),
             ) if quoted else ()
    return ToolCall(name, raw, args, True, span, fixes=fixes)


def _unescaped(source: str) -> str:
    """``source`` with Markdown's ``\\_`` read as ``_`` outside its strings (in names, where
    Python has no backslash); inside them it stays as written."""
    out: list[str] = []
    k, n = 0, len(source)
    while k < n:
        c = source[k]
        if c in "'\"":
            q = c * 3 if source.startswith(c * 3, k) else c
            j = k + len(q)
            while j < n and not source.startswith(q, j):
                j += 2 if source[j] == "\\" else 1
            out.append(source[k:j + len(q)])
            k = j + len(q)
        elif source.startswith(_MD_UNDERSCORE, k):
            out.append("_")
            k += 2
        else:
            out.append(c)
            k += 1
    return "".join(out)


_KEYWORD = re.compile(r"(?!\d)\w+[ \t]*=(?!=)")  # (what a keyword argument begins with: b=2, été=2)


def argument_after(call: ToolCall, text: str, e: int, limit: int) -> ToolCall:
    """The call read to ``e``; not ok when what follows it (past blanks and a comma) reads as
    an argument of it (``f(a=1), b=2)``)."""
    k = _skip(text, e, limit, ",")
    if not call.ok or k >= limit or _KEYWORD.match(text, k, limit) is None:
        return call
    nl = text.find("\n", k, limit)
    return _closed_early(call, text[k:limit if nl < 0 else nl])


_BUILTIN = re.compile(r"[ \t]*[;,]?\s*([A-Za-z_]\w*)\.call\(")


def builtin_calls(call: ToolCall, text: str, e: int, limit: int) -> tuple[list[ToolCall], int]:
    """Llama 3's built-in tool call read to ``e`` and those written after it (``;``, ``,``
    or a line break between): each one's; one that cannot be read is not ok, never dropped."""
    calls = [argument_after(call, text, e, limit)]
    while calls[-1].ok and (m := _BUILTIN.match(text, e, limit)) is not None:
        nxt, end = pythonic_at(text, m.start(1), limit)
        if nxt is None:
            stop = text.find("\n", m.end(), limit)
            end = limit if stop < 0 else stop
            nxt = ToolCall(m.group(1), text[m.end():end], None, False, (m.start(1), end),
                           f"the call to {m.group(1)!r} after the call to {calls[-1].name!r} cannot be read")
        calls.append(argument_after(nxt, text, end, limit))
        e = end
    return calls, e


def _closed_early(call: ToolCall, stray: str) -> ToolCall:
    """``[f(a=1), b=2)]``: an argument of the call, written after it closed (a ")" too
    early, or one too many): which arguments the model meant cannot be told."""
    return ToolCall(call.name, call.raw_args, None, False, call.span,
                    f"the call to {call.name!r} closes before {stray.strip()[:40]!r}, which reads as an "
                    "argument of it: which arguments the model meant cannot be told")


def _skip(text: str, k: int, limit: int, seps: str) -> int:
    while k < limit and (text[k].isspace() or text[k] in seps):
        k += 1
    return k


def read_list(text: str, i: int, limit: int, ctx: Ctx) -> tuple[list[ToolCall] | None, int]:
    """``[f(..), g(..)]`` at ``i``; None when it is not a list of calls."""
    k = _skip(text, i + 1, limit, "")
    if _head(text, k, limit) is None:
        return None, i + 1
    calls: list[ToolCall] = []
    while True:
        k = _skip(text, k, limit, ",")
        if k >= limit:
            return calls, limit  # the list was cut after its last whole call
        if text[k] == "]":
            return calls, k + 1
        call, e = pythonic_at(text, k, limit)
        if call is None:
            if not calls:
                return None, i + 1
            nl = text.find("\n", k, limit)
            end = limit if nl < 0 else nl  # (what follows on the next lines is read on: a call there too)
            if _KEYWORD.match(text, k, limit) is not None and calls[-1].ok:
                return calls[:-1] + [_closed_early(calls[-1], text[k:end])], end
            return calls + [ToolCall("", text[k:end], None, False, (k, end),
                                     "the list of calls holds something that is not a call")], end
        q = _skip(text, e, limit, "")
        if call.ok and q < limit and text[q] not in ",]":  # [f(a=1)(b=2)], [f(a=1).g()], [f() if x else g()]
            line_end = text.find("\n", q, limit)
            return calls + [ToolCall(call.name, call.raw_args, None, False, call.span,
                                     f"the list's element goes on past the call to {call.name!r} "
                                     f"({text[q:line_end if line_end >= 0 else limit][:40]!r}): it is "
                                     "not a call alone")], limit
        calls.append(call)
        k = e


def joined_lists(text: str, found: list[ToolCall], end: int, limit: int,
                 ctx: Ctx) -> tuple[list[ToolCall], int]:
    """The lists of calls a comma joins to the one read (``found``, ending at ``end``):
    ``[f(a=1)], [g(b=2)]``, on a line or one a line (GPT-3.5's and Claude 2's answers),
    read one after the other, each call with its own span; where they end. A comma not
    followed by another whole list of calls joins nothing (the text after the first list
    then decides, as it does for one list alone)."""
    while True:
        k = _skip(text, end, limit, "")
        if k >= limit or text[k] != ",":
            return found, end
        k = _skip(text, k + 1, limit, "")
        if k >= limit or text[k] != "[":
            return found, end
        more, e = read_list(text, k, limit, ctx)
        # (a whole list of calls: read to its own bracket, every element a call; not one that
        # stopped at something else, [g(b=2), x] or [g(b=2) + 1] + [x], the line's end a "]" too)
        if not more or text[e - 1] != "]" or not all(c.name for c in more) or \
                text[more[-1].span[1]:e - 1].strip(", \t\r\n"):
            return found, end
        found, end = found + more, e


def read_lines(text: str, i: int, limit: int, closed: bool = False) -> list[ToolCall] | None:
    """Calls one after the other (newlines, commas or Python comments between; lists
    of them too), from ``i`` to ``limit``; ``closed``: ``limit`` is the block's closer,
    so text there after the calls is in the block (``f(a=1) or g()``): more of the last
    call's expression, which is then not a call alone."""
    calls, k = lines_of(text, i, limit)
    if calls and k < limit and calls[-1].ok and _KEYWORD.match(text, k, limit) is not None:
        nl = text.find("\n", k, limit)
        calls[-1] = _closed_early(calls[-1], text[k:limit if nl < 0 else nl])
    elif closed and calls and k < limit and calls[-1].ok:
        last = calls[-1]
        calls[-1] = ToolCall(last.name, last.raw_args, None, False, last.span,
                             f"the call to {last.name!r} is followed by {text[k:limit].strip()[:40]!r} "
                             "in its block: not a call alone")
    return calls or None


def bare_calls(text: str, i: int, limit: int) -> tuple[list[ToolCall], int] | None:
    """Calls with no list around them from ``i`` (``f(a=1), g(b=2)``, ``;`` or lines
    between), the last one ending its line (a turn's end token may follow): (calls,
    where the reading stopped); None when text follows a call on its line (a
    sentence that opens with a call: ``f(a=1) is what I would run``)."""
    calls, k = lines_of(text, i, limit)
    if not calls:
        return None
    e = calls[-1].span[1]
    nl = text.find("\n", e, limit)
    rest = text[e:limit if nl < 0 else nl].lstrip(",; \t")
    return (calls, k) if MARKUP_ONLY.fullmatch(rest) is not None else None


# what ends NexusRaven-V2's calls, on their line or a later one: its <bot_end> token, or (a server
# that drops special tokens) the Thought: that follows; after it comes the model's account of them
# (a Thought: on the calls' line is text after a call: no call is read there)
_RAVEN_AFTER = re.compile(r"[,; \t\r\n]*(?:<bot_end>|Thought:)")


def read_raven(text: str, i: int, limit: int, ctx: Ctx) -> tuple[list[ToolCall] | None, int]:
    """NexusRaven-V2's answer at ``i``: ``Call:``, then its calls one after the other (``;``
    between), the last ending its line or followed by ``<bot_end>``; None when text follows
    a call on its line. The model's account after them names the calls again: the reading
    goes on to the end of the text (unless a bare reasoning closer stands in it and the
    reasoning may not be over: ``read_prefilled`` ends the reading there)."""
    k = _skip(text, i + len("Call:"), limit, "")
    token = text.find("<bot_end>", k, limit)
    found = bare_calls(text, k, token if token >= 0 else limit)
    if found is None:
        return None, i + len("Call:")
    calls, end = found
    if _RAVEN_AFTER.match(text, calls[-1].span[1], limit) is not None:
        end = limit
    if len(calls) == 1:  # (the label is the call's, as a marker is)
        calls = [replace(calls[0], span=(i, calls[0].span[1]))]
    return calls, end


def tool_code(text: str, i: int, limit: int) -> list[ToolCall] | None:
    """A ``tool_code`` fence (Gemma's convention) holding only Python calls, one after
    the other; None when it holds anything else (it is code, read as any fence)."""
    found = []
    k = _skip(text, i, limit, "")
    while k < limit:
        call, e = _printed(text, k, limit)
        if call is None:
            return None
        found.append(call)
        k = _skip(text, e, limit, "")
        if k < limit and text[k] in ";,":
            k = _skip(text, k + 1, limit, "")
    return found or None


_PRINT = re.compile(r"print[ \t]*\([ \t]*(?=[A-Za-z_][\w.]*[ \t]*\()")


def _printed(text: str, k: int, limit: int) -> tuple[ToolCall | None, int]:
    """The call at ``k``, or the one call ``print(...)`` there wraps, as Gemini's code
    writes its calls (``print(default_api.f(a=1))``: its result printed). None when
    the print holds more (``print(f(a=1).x)``, two calls): that is code."""
    m = _PRINT.match(text, k, limit)
    if m is None:
        return pythonic_at(text, k, limit)
    call, e = pythonic_at(text, m.end(), limit)
    if call is None:
        return None, k
    e = _skip(text, e, limit, "")
    if e >= limit or text[e] != ")":
        return None, k
    return replace(call, span=(k, e + 1)), e + 1


def lines_of(text: str, i: int, limit: int) -> tuple[list[ToolCall], int]:
    """``read_lines``' calls, and where the reading stopped."""
    calls: list[ToolCall] = []
    k = _skip_code(text, i, limit)
    while k < limit:
        if text[k] == "[":
            found, e = read_list(text, k, limit, Ctx(None, None))
            if found is None:
                break
            calls.extend(found)
        else:
            call, e = pythonic_at(text, k, limit)
            if call is None:
                break
            calls.append(call)
        k = _skip_code(text, e, limit)
    return calls, k


def quoted_calls(text: str, i: int, limit: int) -> tuple[list[ToolCall], int] | None:
    """Calls written inside Python strings, a list of them or one alone, from ``i`` (a
    quote or ``[``): ``['f(a=1)', "g(b='x')"]``, as some models wrap the calls they were
    asked for (Snowflake Arctic, DBRX): each string must hold one call and nothing else
    (a string that holds more, or less, is a call not ok), and the list must end its line.
    (calls, where the reading stopped); None when the text is no such list."""
    listed = text.startswith("[", i)
    k = _skip(text, i + 1, limit, "") if listed else i
    calls: list[ToolCall] = []
    while k < limit and text[k] in "'\"":
        end = _string_end(text, k, limit)
        j = _skip(text, end, limit, "") if end >= 0 else -1
        while 0 <= j < limit and text[j] in "'\"":  # 'f(a=1)' 'g(b=2)': one string to Python, joined
            end = _string_end(text, j, limit)
            j = _skip(text, end, limit, "") if end >= 0 else -1
        if end < 0:
            return None
        try:
            content = ast.literal_eval(text[k:end])
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            return None
        call, ce = pythonic_at(content, _skip(content, 0, len(content), ""), len(content))
        if call is None:
            return None
        if not call.ok or content[ce:].strip():
            why = call.error if not call.ok else \
                f"the string holding the call to {call.name!r} holds more after it: not a call alone"
            call = ToolCall(call.name, call.raw_args, None, False, (k, end), why)
        calls.append(replace(call, span=(k, end)))
        if not listed:
            k = end
            break
        k = _skip(text, end, limit, ",")
    if listed:
        if k >= limit or text[k] != "]":
            return None
        k += 1
    nl = text.find("\n", k, limit)
    return (calls, k) if calls and MARKUP_ONLY.fullmatch(text, k, limit if nl < 0 else nl) else None


def _string_end(text: str, k: int, limit: int) -> int:
    """Past the closing quote of the Python string at ``k`` (one quote, on its line); -1 when
    it does not close there."""
    q = text[k]
    j = k + 1
    while j < limit and text[j] != "\n":
        if text[j] == "\\":
            j += 2
            continue
        if text[j] == q:
            return j + 1
        j += 1
    return -1


def comment_after(text: str, end: int, limit: int) -> str | None:
    """The Python comment after a list of calls on its line (``[f(a=1)]  # Paris``): the
    list is code, not a sentence's; None when its line holds no such comment."""
    k = end
    while k < limit and text[k] in " \t":
        k += 1
    if k >= limit or text[k] != "#":
        return None
    nl = text.find("\n", k, limit)
    return text[k + 1:limit if nl < 0 else nl]


def _skip_code(text: str, k: int, limit: int) -> int:
    """Past blanks, the separators between calls and Python comments (not past a turn
    made up, ``### Instruction:`` or ``### Response:`` alone on its line, which ends the
    message)."""
    while True:
        k = _skip(text, k, limit, ",;")
        if k >= limit or text[k] != "#" or ALPACA_LINE.match(text, k, limit) is not None:
            return k
        nl = text.find("\n", k, limit)
        k = limit if nl < 0 else nl


def pythonic_reader(marker: str, closer: str):  # type: ignore[no-untyped-def]
    """Calls between ``marker`` and ``closer`` (llama4 ``<|python_start|>``, lfm2, olmo3)."""
    def read(text: str, i: int, limit: int, ctx: Ctx) -> tuple[list[ToolCall] | None, int]:
        j = i + len(marker)
        c = ctx.find(text, closer, j, limit)
        body_end = c if c >= 0 else limit
        k = _skip(text, j, body_end, "")
        if text.startswith(("[{", "{"), k) or (text.startswith("[", k) and text[k + 1:k + 2].isspace()
                                                 and text[k:body_end].lstrip("[ \t\n").startswith("{")):
            found, e, any_found = json_run(text, k, body_end)  # LFM2 may write JSON calls too
            found = more_after(found, text, e, body_end, c >= 0)
            calls: list[ToolCall] | None = found if any_found else None
        else:
            calls = read_lines(text, j, body_end, c >= 0)
        if calls is None:
            if c < 0 and _BLANK.fullmatch(text, j, limit) is not None:
                return [], limit
            return None, j
        end = c + len(closer) if c >= 0 else limit
        if len(calls) == 1:
            x = calls[0]
            calls = [replace(x, span=(i, end))]
        return calls, end

    return read


def object_by_position(call: ToolCall, known: Tools) -> ToolCall:
    """``f({"city": "Paris"})``: a Python call refused for passing its one argument by
    position, when that argument is an object whose keys are all the tool's parameters
    (its required ones among them): the model passed the arguments object itself, as
    models used to JSON write a Python call. Read so, with a fix saying it; anything else
    stays not ok (a tool's one object parameter is named: ``f(config={...})``)."""
    if call.ok or BY_POSITION not in (call.error or ""):
        return call
    value = positional_object(call.raw_args)
    schema = known.schemas.get(call.name)
    if not value or not isinstance(schema, dict):
        return call
    required, props = schema.get("required"), known.properties(call.name)
    if any(not _types(p) or "object" in _types(p) for p in props.values()):  # (untyped: any value)
        return call  # (f({"status": "open"}) with a parameter taking an object: which is meant is a guess)
    if not set(value) <= set(props) or (
            isinstance(required, list) and not set(map(str, required)) <= set(value)):
        return call
    why = f"the call to {call.name!r} passed its arguments as one object by position"
    return replace(call, args=value, ok=True, error=None,
                   fixes=(*call.fixes, Fix("positional_object", -1, why)))
