"""Tool calls written inside model text, found and recovered.

Models that call tools through text (rather than a native tool-use API) write
them in several shapes, all found by ``parse_tool_calls(text)``, in order::

    <tool_call name="@json" args='{"cmd":"get","args":{"file":"r.json","path":"a"}}' />
    <tool_call name="read_file">main.go</tool_call>
    <tool_call>{"name": "read_file", "arguments": {"file": "main.go"}}</tool_call>   (Hermes, Qwen)
    {"name": "read_file", "arguments": "{\\"file\\": \\"main.go\\"}"}                (OpenAI; fenced or bare)
    {"type": "function", "function": {"name": ..., "arguments": ...}}
    {"type": "tool_use", "id": ..., "name": ..., "input": {...}}                     (Anthropic)
    [...]                                                                            (lists of those)

Arguments are recovered with :func:`toolmend.normalize_tool_args` (the tool's name selects the field a
bare value belongs in). A call whose arguments cannot be recovered, or that was cut off inside them, is
reported with ``ok=False`` and the reason; a call cut off inside its own name is not a call.

Text that is not a call is left alone: prose that mentions a tag, inline code spans, fenced blocks
in a programming language or introduced as an example ("for example", "the format is", ...), JSON
that is data (other keys beside the call's), tool definitions (a ``description`` or a JSON Schema,
no arguments), transcripts and results, and whatever sits inside ``<think>`` ... ``</think>``.

This module holds the call and its JSON shapes; the tags and the open models' own formats (Hermes,
Qwen3-Coder, DeepSeek, Kimi, GLM, harmony, Mistral, pythonic, Gemma, ...), the scan that finds them
and the typing by the tools' schemas are in ``_formats``.
"""

from __future__ import annotations

import json
import re
import reprlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .._kernels import markers
from .._text import skip_blanks
from ..errors import RecoveryError
from ._jsonish import Member, decode_key, elements, extent, members
from ._result import Cut, Fix, Recovered
from ._strategies import _NOT_JSON, NO_PRIMARY_FIELD, exact_json, json_kind, json_text, normalize_tool_args

if TYPE_CHECKING:
    from ._schemawalk import Problem

__all__ = ["ToolCall", "parse_tool_calls", "call_from_parts", "not_runnable", "plain_call"]


@dataclass(frozen=True)
class ToolCall:
    """One tool call.

    ``raw_args`` is exactly the argument text of this call, whole or cut (the content of an
    arguments string or attribute, decoded; nothing of the message around it), ``args`` the
    recovered value (a dict, or None when not ``ok``), ``span`` the ``(start, end)`` character
    offsets of the call in the text (``(0, 0)`` for calls that came from a provider's response
    object), ``error`` the reason when not ``ok``, ``id`` the provider's call id when there is
    one, and ``cut`` the :class:`~toolmend.Cut` (offsets in ``raw_args``) when the arguments were
    cut off inside a value. A call is ``ok`` only when it is whole. Checked against its tool's
    schema (``tools=``), ``fixes`` holds the coercions made (code ``schema``; code ``tool_name``
    when the name written was ``functions.x`` for the tool ``x``) and ``problems`` every way the
    arguments do not fit (then not ``ok``)."""

    name: str
    raw_args: str
    args: Any
    ok: bool
    span: tuple[int, int]
    error: str | None = None
    id: str | None = None
    cut: Cut | None = None
    fixes: tuple[Fix, ...] = ()
    problems: tuple[Problem, ...] = ()


# -- building calls -------------------------------------------------------------

_new = object.__new__


def ok_call(name: str, raw: str, args: Any, span: tuple[int, int], id: str | None = None) -> ToolCall:
    """``ToolCall(name, raw, args, True, span, None, id)``, built on the hot paths without the frozen
    dataclass's ten ``object.__setattr__`` calls (~1 us of a ~30 us parse of a 30 KB call). ToolCall
    has no slots and no ``__post_init__``; tests/test_toolcalls.py holds the two equal, field for field.
    Arguments that are this call written again, ``{"name": name, "arguments": {...}}``, are not ok: the
    arguments inside or those two keys, which the model meant cannot be told."""
    if type(args) is dict and args.get("name") == name and len(args) <= 3 and _AGAIN_KEYS.issuperset(args) \
            and not _AGAIN_ARGS.isdisjoint(args):
        return ToolCall(name, raw, None, False, span, f"the arguments of {name!r} are its call written again "
                        "(a name and arguments): the arguments inside, or those keys, which is meant cannot "
                        "be told", id)
    call = _new(ToolCall)
    d = call.__dict__
    d["name"], d["raw_args"], d["args"], d["ok"], d["span"] = name, raw, args, True, span
    d["error"], d["id"], d["cut"], d["fixes"], d["problems"] = None, id, None, (), ()
    return call


# the members of a call written again as its own arguments ({"name": .., "arguments": ..}, an id or a
# type beside them; the readers' wider check of an envelope's shapes, with the tools', is _base's)
_AGAIN_ARGS = frozenset(("arguments", "parameters"))
_AGAIN_KEYS = _AGAIN_ARGS | {"name", "id", "type"}

# what a call that writes no arguments is told (with tools=, one to a tool that takes none is ok)
NO_ARGUMENTS = "an empty object would be a guess"

# what stands in for a name or arguments in a description of the format, not in a call
# (a template's {{ args }}, not JSON's members in doubled braces: {{"a": 1}} is arguments written badly)
_PLACEHOLDER_ARGS = re.compile(r"\s*(?:\.\.\.|\u2026|\{\s*(?:\.\.\.|\u2026)\s*\}|\[\s*(?:\.\.\.|\u2026)\s*\]|"
                               r"<[^<>{}]*>|\{\{(?![^{}]*\"[^\"{}]*\"\s*:)[^{}]*\}\}|"
                               r"[A-Z_]*(?:ARGS?|ARGUMENTS|JSON|PARAMS?|PARAMETERS|INPUT)[A-Z_]*)\s*\Z")
_PLACEHOLDER_NAME = re.compile(r"(?:[A-Z_]*_NAME|TOOL|FUNCTION|NAME|\.\.\.|<[^<>]*>|\{\{[^{}]*\}\})\Z")


def _is_placeholder(name: str, raw: Any) -> bool:
    """``name="TOOL_NAME"``, ``args='{...}'``, ``"arguments": JSON_ARGS``: the format, not a call."""
    if _PLACEHOLDER_NAME.match(name):
        return True
    if isinstance(raw, str) and raw[:1] in "\"'":
        raw = decode_key(raw)
    return isinstance(raw, str) and bool(_PLACEHOLDER_ARGS.match(raw))


def moved(calls: Iterable[ToolCall], by: int) -> list[ToolCall]:
    """``calls`` read in a text ``by`` characters into the message, their spans the message's (as ok_call)."""
    if not by:
        return list(calls)
    out = []
    for c in calls:
        m = _new(ToolCall)
        d = m.__dict__
        d.update(c.__dict__)
        d["span"] = (c.span[0] + by, c.span[1] + by)
        out.append(m)
    return out


# a special token: <|im_end|>, <｜end▁of▁sentence｜>, and those written otherwise (Gemma 4's
# <turn|>, MiniMax's [e~[); a tag (</s>, <end_of_turn>) is not one
SPECIAL_TOKEN = r"<\|[^|<>\s]{1,40}\|>|<\uff5c[^\uff5c<>]{1,40}\uff5c>|<turn\|>|\[e~\["
# what may follow a call's arguments inside its bounds: blanks, special tokens and tags
# (<|im_end|>, </s>, </function>), after a lone ";" or ".", or a fence's closing ticks
MARKUP_ONLY = re.compile(r"[;.]?(?:\s|" + SPECIAL_TOKEN + r"|</?[A-Za-z_][\w:.-]{0,40}>|```)*")


def call_from_parts(name: str, raw: Any, span: tuple[int, int], id: str | None = None, *,
                    cut: bool = False, bare: bool = True) -> ToolCall:
    """A ToolCall for ``name`` with arguments ``raw`` (text, or an already
    parsed value); ``cut`` says the text ran out inside or right after them;
    ``bare``: a bare value is an argument the format allows (a tag's body,
    ReAct's input), wrapped into the tool's one field; where the format writes
    JSON, bare text is arguments that are not JSON."""
    if isinstance(raw, dict):
        try:  # the arguments must be what JSON can hold: no cycle, no set, no object
            return ok_call(name, json_text(raw, True), raw, span, id)
        except RecoveryError as exc:
            return ToolCall(name, _dumps(raw), None, False, span,
                            f"the arguments of {name!r}: {exc}", id)
    if raw is None:
        raw = ""
    if not isinstance(raw, str):
        return ToolCall(name, _dumps(raw), None, False, span,
                        f"the arguments of {name!r} must be an object, not {json_kind(raw, True)}", id)
    r = normalize_tool_args(raw, name)
    if r.ok and r.strategy == "parse":
        return ok_call(name, raw, r.value, span, id)
    if not bare and (r.strategy == "wrap_plain" or NO_PRIMARY_FIELD in (r.error or "")):
        return ToolCall(name, raw, None, False, span,
                        f"the arguments of {name!r} are not JSON ({raw.strip()[:40]!r}), as its format "
                        "writes them", id)
    if r.cut is not None:
        # the text ends inside a value (a string, a number, after a comma...):
        # whatever a repair makes of it, the call is not whole (Recovered.cut)
        return ToolCall(name, raw, None, False, span,
                        f"the arguments of {name!r} were {r.cut.message}; the call is not whole "
                        "and is not run", id, r.cut)
    why = not_runnable(name, raw, r)
    if why is not None:
        return ToolCall(name, raw, None, False, span, why, id)
    prose = next((f for f in r.fixes if f.code == "prose"), None) if r.ok else None
    if cut:
        if not r.ok:
            return ToolCall(name, raw, None, False, span, f"the call was cut off: {r.error}", id)
        written = raw if prose is None else raw[:prose.offset]  # (less the markup after it)
        if any(f.code == "truncated" for f in r.fixes) or not written.rstrip().endswith(("}", "]")):
            # the call stops and its arguments never closed (or are not JSON, so
            # where they stop cannot be told): another argument may follow
            return ToolCall(name, raw, None, False, span,
                            f"the arguments of {name!r} are cut off before they close; the call is "
                            "not whole", id)
    if r.ok and r.strategy == "wrap_plain":
        # (a bare value put in a field the tool-name table names, not the model: said in fixes)
        field = next(iter(r.value))
        return ToolCall(name, raw, r.value, True, span, None, id, fixes=(Fix(
            "wrap_plain", 0, f"bare value wrapped into {field!r}, the field the tool-name table gives "
                             f"{name!r} (no schema said it)"),))
    return ToolCall(name, raw, r.value if r.ok else None, r.ok, span, r.error, id)


def not_runnable(name: str, raw: str, r: Recovered) -> str | None:
    """Why arguments ``raw`` recovered as ``r`` are no call to run, though the repair read them (None:
    they are one): a value the model never wrote in a place it left empty or could not write, values
    left out, or text after the JSON that is more of them. ``call_from_parts`` and ``run_tool`` alike."""
    if not r.ok:
        return None
    missing = next((f for f in r.fixes if f.code == "value"), None)
    if missing is not None:  # {"cmd": "ls", "force": }: null in its place is a value never written
        return (f"the arguments of {name!r} give a key no value at offset {missing.offset}; the call is not "
                "run with null in its place")
    elided = next((f for f in r.fixes if f.code == "ellipsis"), None)
    if elided is not None:  # [1, 2, ...]: the model left values out; the call without them is another
        return (f"the arguments of {name!r} leave values out ('...') at offset {elided.offset}; the call is "
                "not run with what is written")
    nan = next((f for f in r.fixes if f.code == "nan"), None)
    if nan is not None:  # NaN, Infinity, 1e400: null in its place would be a value never written
        return (f"the arguments of {name!r} hold a number JSON cannot carry at offset {nan.offset} "
                f"({nan.message}); the call is not run with another value in its place")
    prose = next((f for f in r.fixes if f.code == "prose"), None)
    if prose is not None and MARKUP_ONLY.fullmatch(raw, prose.offset) is None:
        # within the call's own bounds, text after its arguments is more of them
        # ({"path": "x"} recursive=true): the call without it is not the one written
        return (f"the arguments of {name!r} go on past their JSON at offset {prose.offset} "
                f"({raw[prose.offset:].strip()[:40]!r}): the call without that text is a guess")
    return None


def two_ways(name: str, raw: str, span: tuple[int, int], what: str, id: str | None = None) -> ToolCall:
    """A call written two ways (``what``: two names, two sets of arguments):
    not ok, since taking either reading would be a guess."""
    return ToolCall(name, raw, None, False, span, f"{what}; which one the model meant cannot be told", id)


def cut_call(name: str, raw: str, span: tuple[int, int], why: str, id: str | None = None) -> ToolCall:
    """A call whose message ended inside its arguments: not ok, ``why`` said,
    with where its arguments were cut when recovery can tell."""
    found = normalize_tool_args(raw, name).cut if raw.strip() else None
    if found is not None:
        why = f"{why} ({found.message} of its arguments)"
    return ToolCall(name, raw, None, False, span, why, id, found)


def _cut_string(raw: str) -> str:
    """A quoted arguments string cut before its closing quote, decoded as far as it goes."""
    body = raw[1:]
    if raw[:1] == "'":
        return body.replace("\\'", "'")
    for drop in range(0, 7):  # (a cut escape, left out, is at most "\\uXXX")
        if drop > len(body):
            break
        try:
            value = json.loads('"' + body[:len(body) - drop] + '"')
        except ValueError:
            continue
        return value if isinstance(value, str) else body
    return body


def _dumps(value: Any) -> str:
    """The arguments as text for ``raw_args``: JSON, or a bounded repr of
    what JSON cannot hold (a cycle, a set, nesting past Python's reach)."""
    try:
        return json_text(value, True)
    except ValueError:  # RecoveryError
        pass
    try:
        return reprlib.repr(value)
    except ValueError:  # (an int past the digits Python writes out)
        return f"<{type(value).__name__} JSON cannot write>"




# -- call shapes in JSON ------------------------------------------------------------

# a tool's name: a letter (any script's), "_" or "@", then word characters and ".:@/-"
NAME_PATTERN = r"(?:[^\W\d]|@)[\w.:@/-]{0,127}"
_NAME = re.compile(NAME_PATTERN + r"\Z")
_OPENAI_KEYS = frozenset({"name", "arguments", "id", "type", "call_id", "index"})
_WRAPPER_KEYS = frozenset({"id", "type", "function", "index", "call_id"})
_FUNCTION_KEYS = frozenset({"name", "arguments"})
_ANTHROPIC_KEYS = frozenset({"type", "id", "name", "input", "cache_control", "caller"})
_LLAMA_KEYS = frozenset({"name", "parameters"})
_LANGCHAIN_KEYS = frozenset({"action", "action_input"})  # its structured chat and JSON chat agents
_TEXT_BLOCK_KEYS = frozenset({"type", "text", "citations", "cache_control"})
# inside a <tool_call> tag the tag already says it is a call
_NAME_KEYS = ("name", "tool", "tool_name", "function")
# the members that make an object a call: one written twice leaves two calls to choose from
_CALL_KEYS = ("name", "arguments", "args", "parameters", "input", "function", "id", "tool", "tool_name")
_TWICE_KEYS = (*_CALL_KEYS, "action", "action_input")  # (and LangChain's: one written twice, two calls)
_ARG_KEYS = ("arguments", "args", "parameters", "input")


def _is_schema(value: Any) -> bool:
    return isinstance(value, dict) and ("properties" in value or value.get("type") == "object"
                                        or "$schema" in value)


@dataclass
class _Shape:
    """What a JSON object says about being a call: the name, the arguments
    (their member, for the text as written) and the id."""

    name: str | None
    args: Member | None
    container: str          # "" for the object itself, "function" for the wrapper
    id: str | None = None
    #: members beside the name, the arguments and an id or type (a lenient reading's)
    others: tuple[str, ...] = ()


class _Obj:
    """An object read as far as it goes: members with their text, the
    scalars among them decoded."""

    def __init__(self, text: str, i: int, limit: int) -> None:
        scan = members(text, i, limit)
        self.text = text
        self.closed = scan.closed and not scan.broken
        self.end = scan.end
        self.broken = scan.broken
        # each key's first member; the keys written more than once
        self.items: dict[str, Member] = {}
        self.twice: set[str] = set()
        self.subs: dict[str, _Obj | None] = {}  # the objects members hold, read when asked for
        for m in scan.items:
            if m.key in self.items:
                self.twice.add(m.key)
            else:
                self.items[m.key] = m

    def scalar(self, key: str, bare: bool = False) -> Any:
        """The complete string value of ``key`` (None when missing, cut or not a string)."""
        m = self.items.get(key)
        if m is None or m.end is None:
            return None
        raw = self.text[m.start:m.end]
        if raw[:1] in "\"'":
            return decode_key(raw)
        if bare and _NAME.match(raw) and raw.lower() not in ("true", "false", "null", "none"):
            return raw  # {name: bash, ...}
        return None

    def sub(self, key: str) -> _Obj | None:
        """The object ``key`` holds (None: none), read once however often it is asked for."""
        if key not in self.subs:
            m = self.items.get(key)
            self.subs[key] = None if m is None or self.text[m.start:m.start + 1] != "{" else \
                _Obj(self.text, m.start, m.end if m.end is not None else len(self.text))
        return self.subs[key]


def _shape(obj: _Obj, lenient: bool) -> _Shape | None:
    """The call an object stands for, or None when it is not one (data, a definition...)."""
    keys = set(obj.items)
    kind = obj.scalar("type")
    if kind == "tool_use" and keys <= _ANTHROPIC_KEYS and "name" in keys:
        return _Shape(obj.scalar("name", lenient), obj.items.get("input"), "", obj.scalar("id"))
    if "function" in keys and keys <= _WRAPPER_KEYS and kind in (None, "function"):
        fn = obj.sub("function")
        if fn is None or not set(fn.items) <= _FUNCTION_KEYS or "name" not in fn.items:
            return None
        if "arguments" not in fn.items and fn.closed:
            return None  # a definition names its function without arguments
        return _Shape(fn.scalar("name"), fn.items.get("arguments"), "function", obj.scalar("id"))
    if keys <= _OPENAI_KEYS and "name" in keys and kind in (None, "function") and (
            "arguments" in keys or (lenient or not obj.closed) and keys <= {"name", "id"}):
        return _Shape(obj.scalar("name", lenient), obj.items.get("arguments"), "", obj.scalar("id"))
    if keys == _LANGCHAIN_KEYS:  # LangChain's agents: the action "Final Answer" is the reply, no call
        action = obj.scalar("action")
        return None if action is not None and action.strip().lower() == "final answer" else \
            _Shape(action, obj.items.get("action_input"), "")
    if keys == _LLAMA_KEYS or (keys == {"name"} and not obj.closed) or (
            kind == "function" and keys == _LLAMA_KEYS | {"type"}):  # (Llama 3.3 writes "type" too)
        return _Shape(obj.scalar("name", lenient), obj.items.get("parameters"), "")
    if lenient:
        name = next((obj.scalar(k, True) for k in _NAME_KEYS if obj.scalar(k, True) is not None), None)
        args = next((obj.items[k] for k in _ARG_KEYS if k in obj.items), None)
        others = tuple(k for k in obj.items if k not in _CALL_KEYS and k not in _OPENAI_KEYS
                       and k != "tool_call_id")  # (Command R's id)
        return _Shape(name, args, "", obj.scalar("id"), others)
    return None


def _is_text_block(obj: _Obj) -> bool:
    return obj.scalar("type") == "text" and set(obj.items) <= _TEXT_BLOCK_KEYS


def _json_calls(text: str, i: int, limit: int, lenient: bool,
                known: tuple[int, int] | None = None) -> tuple[list[ToolCall] | None, int]:
    """The calls in the JSON value at ``i`` (None: not calls), where the scan goes on; ``known``: its span."""
    end = known[1] if known is not None and known[0] == i else extent(text, i, limit)
    stop = limit if end is None else end
    if text[i] == "[":
        scan = elements(text, i, limit)
        calls: list[ToolCall] = []
        for el in scan.items:
            if text[el.start] != "{":
                return None, stop
            plain = _plain_call(text, el.start, el.end, lenient) if el.end is not None else None
            if plain is not None:
                calls.append(plain)
                continue
            el_stop = el.end if el.end is not None else stop
            obj = _Obj(text, el.start, el_stop)
            cut_open = el.end is None and calls and not (obj.items or obj.broken or obj.closed)
            if _is_text_block(obj) or cut_open:
                continue  # (a text block; the text cut in the next call's opening, the calls before it whole)
            # (the element's text is all a call may read: a member cut inside it ends there)
            found = _object_call(obj, el.start, el.end, el_stop, lenient)
            if found is None:
                return None, stop
            if found is not _NO_CALL:
                calls.append(found)
        if not calls and not (scan.items and not scan.closed):
            return None, stop
        return calls, stop
    plain = _plain_call(text, i, end, lenient) if end is not None else None
    if plain is not None:
        return [plain], stop
    obj = _Obj(text, i, stop)
    held = obj.items.get("tool_calls") if _xlam_keys(obj) else None
    if held is not None and held.start < len(text) and text[held.start] == "[":  # ({"tool_calls": cut there)
        # {"tool_calls": [...]} alone, or after xLAM's "thought" (its format: {"thought": "..", "tool_calls":
        # [..]}): its calls; beside other members, a message's data
        inner = (held.start, held.end) if held.end is not None else None
        inner_end = held.end if held.end is not None else stop
        found_calls, _ = _json_calls(text, held.start, inner_end, lenient, inner)
        return found_calls, stop
    found = _object_call(obj, i, end, stop, lenient)
    if found is None:
        return None, stop
    return ([] if found is _NO_CALL else [found]), stop


def _xlam_keys(obj: _Obj) -> bool:
    """The object's members are ``tool_calls`` alone, or a ``thought`` string and then ``tool_calls``."""
    keys = list(obj.items)
    if obj.twice or keys[-1:] != ["tool_calls"]:
        return False
    if len(keys) == 1:
        return True
    return keys == ["thought", "tool_calls"] and obj.scalar("thought") is not None


_NO_CALL: Any = object()  # a call so cut off that nothing can be reported
BROKEN_BEFORE_NAME = "the call object breaks before its name"  # (json_run's last call, one a reader may drop)
_call_body = markers.call_body  # the members of a plain call object (the marker kernel)


def _plain_call(text: str, i: int, end: int, lenient: bool) -> ToolCall | None:
    """The everyday call object ``text[i:end]`` read with one parse of its arguments: ``{"name": "...",
    "arguments": {...}}`` (an ``"id"`` string may come before the arguments; ``"parameters"`` with the
    name alone), valid JSON as written. None for anything else, which ``_object_call`` reads (the same)."""
    found = _call_body(text, i, end)
    if found is None:
        return None
    name_start, name_end, id_start, id_end, by_parameters, k, args_end = found
    if by_parameters and id_start >= 0:
        return None
    return plain_call(text, name_start, name_end, id_start, id_end, k, args_end, (i, end), lenient)


#: whether a call may name each name met (a tool's name, no placeholder): a model calls
#: a few tools many times, so each name is matched once, up to a bound (and only names a
#: tool can have are kept: a 1 MB "name" stays the caller's)
_CALLABLE: dict[str, bool] = {}


def _callable_name(name: str) -> bool:
    ok = _NAME.match(name) is not None and _PLACEHOLDER_NAME.match(name) is None
    if ok and len(_CALLABLE) < 4096:
        _CALLABLE[name] = ok
    return ok


def plain_call(text: str, n0: int, n1: int, id0: int, id1: int, k: int, args_end: int,
               span: tuple[int, int], lenient: bool = True) -> ToolCall | None:
    """The call whose members the marker kernel found (``call_body``, ``tag_body``):
    the quoted name ``text[n0:n1]`` and id ``text[id0:id1]`` (-1, -1 when absent), the arguments' text
    ``text[k:args_end]``. It runs from their member's colon to the object's
    closing brace and must parse as one JSON object, so no other member is in
    the object and no key is written twice; None when it does not, or when
    the name is none (or a placeholder's): the general reader takes those."""
    if n0 < 0 or text[k] != "{":
        return None
    called = text[n0 + 1:n1 - 1]
    if "\\" in called or text[n0] != '"':
        called = decode_key(text[n0:n1])
    nameable = _CALLABLE.get(called)
    if nameable is None:
        nameable = _callable_name(called)
    if not nameable:
        return None
    raw = text[k:args_end]
    if not lenient and ("properties" in raw or "\\u" in raw):
        return None  # perhaps a tool's definition: _object_call tells
    args = exact_json(raw)  # (valid JSON is no placeholder of arguments: {...}, {{args}} are not)
    if args is _NOT_JSON:
        return None
    return ok_call(called, raw, args, span, decode_key(text[id0:id1]) if id0 >= 0 else None)


def _torn(obj: _Obj, start: int, limit: int) -> ToolCall | None:
    """The entry, to ``limit``, for a call object broken before its name, not cut (None: it may be cut): no
    member where one belongs (``{name": ..``), or quotes unpaired (``{"name": f", ..}``, members closed)."""
    if obj.end is None or not (obj.broken or obj.closed):
        return None
    return ToolCall("", obj.text[start:limit].strip(), None, False, (start, limit),
                    f"{BROKEN_BEFORE_NAME} (offset {obj.end - start} of it: a quote dropped?)")


def _object_call(obj: _Obj, start: int, end: int | None, limit: int, lenient: bool) -> Any:
    """A ToolCall, None (not a call) or _NO_CALL (a call cut inside its name)."""
    shape = _shape(obj, lenient)
    text = obj.text
    if shape is None:
        return None
    span = (start, end if end is not None else limit)
    if shape.name is None:
        name_member = obj.items.get("name") or (obj.sub("function").items.get("name")  # type: ignore[union-attr]
                                                if shape.container else None)
        if name_member is not None and name_member.end is None or end is None:
            # (broken, not cut: an entry in its place, so that the calls beside it never pass for all
            # there are, in a bare list too; cut, no call yet)
            return _torn(obj, start, span[1]) or _NO_CALL
        return ToolCall("", text[start:span[1]].strip(), None, False, span,
                        "a tool call without a tool name") if lenient else None
    if not _NAME.match(shape.name):
        if lenient and shape.name.strip() and not _is_placeholder(shape.name, None):
            return ToolCall(shape.name, text[start:span[1]].strip(), None, False, span,
                            f"{shape.name!r} is not a tool's name (a letter, \"_\" or \"@\", then letters, "
                            "digits and \"_.:@/-\")", shape.id)
        return None
    args_text = text[shape.args.start:shape.args.end or limit] if shape.args else None
    if _is_placeholder(shape.name, args_text):
        if lenient and not _PLACEHOLDER_NAME.match(shape.name):  # a call marker holds it: say what it is
            return ToolCall(shape.name, text[start:span[1]].strip(), None, False, span,
                            f"the call to {shape.name!r} gives a placeholder for its arguments "
                            f"({(args_text or '').strip()[:40]!r}), not values", shape.id)
        return None
    cut = end is None or not obj.closed
    m = shape.args
    fn = obj.sub("function") if shape.container else None
    written = text[m.start:m.end if m.end is not None else limit].rstrip() if m is not None else ""
    twice = next((k for k in _TWICE_KEYS if k in obj.twice or (fn is not None and k in fn.twice)), None)
    if twice is not None:  # two readings: neither is taken
        return two_ways(shape.name, written, span, f"the call writes {twice!r} twice", shape.id)
    clash = _two_keys(obj)
    if clash is not None:
        return two_ways(shape.name, written, span, f"the call writes both {clash[0]!r} and {clash[1]!r}",
                        shape.id)
    broken = obj if obj.broken else fn if fn is not None and fn.broken else None
    if broken is not None and broken.end is not None:  # a member that is no member: not a whole call
        at = broken.end
        return ToolCall(shape.name, written, None, False, span,
                        f"the call object breaks at offset {at - start} of it: {text[at]!r} where a member "
                        "belongs (a closing brace missing?); what follows in it, perhaps another call, "
                        "is not read", shape.id)
    if m is not None and shape.others:  # {"name": .., "arguments": {..}, "recursive": true}
        held = ", ".join(map(repr, shape.others[:3]))
        return ToolCall(shape.name, written, None, False, span,
                        f"the call to {shape.name!r} holds {held} beside its name and arguments: whether "
                        "that is more of its arguments is a guess", shape.id)
    if m is None:
        if cut:
            return ToolCall(shape.name, "", None, False, span,
                            "the call was cut off before its arguments", shape.id)
        # no arguments member at all: an empty object would be a guess (the
        # serving stacks drop such a call); a tool without parameters is sent {}
        others = [k for k in obj.items if k not in _OPENAI_KEYS and k not in _NAME_KEYS and k != "type"]
        if others:  # {"name": "now", "params": {...}}: arguments written under another name
            return ToolCall(shape.name, "", None, False, span,
                            f"the call to {shape.name!r} holds {', '.join(map(repr, others[:3]))} beside its "
                            "name and no arguments member: which holds its arguments is a guess", shape.id)
        return ToolCall(shape.name, "", None, False, span,
                        f"the call to {shape.name!r} names no arguments; {NO_ARGUMENTS} "
                        "(a call without parameters writes \"arguments\": {})", shape.id)
    raw = text[m.start:m.end if m.end is not None else limit]
    if m.end is None:
        raw = raw.rstrip()
    if raw[:1] in "\"'":
        if m.end is None:
            return cut_call(shape.name, _cut_string(raw), span,
                            "the call was cut off inside its arguments string; it is not whole", shape.id)
        return call_from_parts(shape.name, decode_key(raw), span, shape.id)
    if raw[:1] not in "{[":
        if m.end is None:
            return ToolCall(shape.name, raw, None, False, span,
                            "the call was cut off inside its arguments; it is not whole", shape.id)
        r = normalize_tool_args(raw)
        if r.ok and isinstance(r.value, str):
            return call_from_parts(shape.name, r.value, span, shape.id)
        if r.ok and r.value is None and lenient:
            return call_from_parts(shape.name, "", span, shape.id)
        return ToolCall(shape.name, raw, None, False, span,
                        f"the arguments of {shape.name!r} must be an object, not {raw!r}", shape.id)
    if not lenient and ("properties" in raw or "\\u" in raw) and _is_schema_text(raw):
        return None  # (a schema names its "properties": a text without the word is none)
    if end is None and m.end is not None and not obj.closed:
        q = _skip_ws(text, m.end, limit)
        if q < limit and text[q] == ",":  # {"name": "g", "arguments": {..}, <cut>: a member was to follow
            return ToolCall(shape.name, raw, None, False, span,
                            "the call was cut off after its arguments, where another member of it followed: "
                            "it is not whole", shape.id)
    return call_from_parts(shape.name, raw, span, shape.id, cut=m.end is None)


def _two_keys(obj: _Obj) -> tuple[str, str] | None:
    """Two members that each give the call's arguments (``arguments`` and
    ``parameters``...), or two names that differ: two readings."""
    found = [k for k in _ARG_KEYS if k in obj.items]
    if len(found) > 1:
        return found[0], found[1]
    names = [k for k in _NAME_KEYS if obj.scalar(k, True) is not None]
    if len(names) > 1 and len({obj.scalar(k, True) for k in names}) > 1:
        return names[0], names[1]
    return None


def _is_schema_text(raw: str) -> bool:
    r = normalize_tool_args(raw)
    return r.ok and _is_schema(r.value) and "properties" in r.value


_skip_ws = skip_blanks  # past what str.isspace() says, to a limit

# -- the entry point -------------------------------------------------------------------


def parse_tool_calls(text: str | bytes, *, format: str | None = None, tools: Any = None,
                     thinking: bool | None = None) -> list[ToolCall]:
    """Every tool call in model ``text``, in order, with recovered arguments.

    ``format`` names the family the model writes (see ``FORMATS``; None: every
    family is recognised by its markers); ``tools`` the tools the request
    offered (OpenAI, Anthropic or MCP definitions): with them a parameter
    written as text is typed by its schema, a call to any other tool is not
    ok, and every call's arguments are checked against its tool's schema
    (:func:`toolmend.recovery.check_tool_calls`). Reasoning never yields a
    call: ``<think>`` ... ``</think>``, harmony's analysis channel, ... and
    what ``thinking`` says. True: the prompt opened a reasoning block (the
    chat template ends in ``<think>``), which ends at the message's first
    closer (``</think>``, ``[/THINK]``...; none: no call); False: it did
    not, and a closer with no opener is text; None (unknown): a closer with
    no opener ends the reasoning, so nothing before the last one is a call."""
    if thinking is not None and thinking is not True and thinking is not False:
        check_thinking(thinking, "parse_tool_calls")
    if tools is None:  # (the engine at once: a frame less on every message)
        parse = _engine[0] if _engine else _load_engine()
        return parse(text, format, None, thinking, 0, False)  # type: ignore[no-any-return]
    return calls_from(text, format, tools, thinking, 0)


def check_thinking(thinking: Any, who: str) -> None:
    """``thinking`` is True, False or None; anything else is refused, naming ``who``."""
    if thinking is not None and not isinstance(thinking, bool):
        raise TypeError(f"{who}: thinking must be True, False or None, not {thinking!r}")


def calls_from(text: str | bytes, format: str | None, tools: Any, thinking: bool | None, start: int,
               after_calls: bool = False, hidden: list[tuple[int, int]] | None = None) -> list[ToolCall]:
    """``parse_tool_calls`` from ``start`` on: the end of a call read before, the
    reasoning known to be over (the spans are the whole text's); ``after_calls``:
    the message's calls before ``start`` were read (a stream reported them);
    ``hidden``, a list: where the reasoning stands is added to it."""
    parse = _engine[0] if _engine else _load_engine()
    if tools is not None:
        from ._toolschema import unwrap_response

        tools = unwrap_response(tools)
    calls: list[ToolCall] = parse(text, format, tools, thinking, start, after_calls, hidden)  # (checked)
    return calls


def marker_reading(text: str, at: int, marker: str, format: str | None,
                   tools: Any) -> tuple[list[ToolCall] | None, int]:
    """What the reader of the family ``marker`` at ``at`` reads: its calls (None:
    not a call) and where it ends (the stream checks with it where a call ends)."""
    from ._formats import read_marker

    if tools is not None:
        from ._toolschema import unwrap_response

        tools = unwrap_response(tools)
    return read_marker(text, at, marker, format, tools)


_engine: list[Any] = []  # the formats' engine, imported at the first call (it imports this module)


def _load_engine() -> Any:
    from ._formats import parse

    _engine[:] = [parse]
    return parse
