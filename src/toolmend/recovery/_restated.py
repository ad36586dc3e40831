"""A call written again after prose: a restatement, or a second call?

A model that explains its answer often writes the call again below it ("So,
the function call would be: ``[f(a=1)]``"), and a small model that rambles on
writes it a third and a fourth time. Each copy reads as a call, and running them
all runs the tool as many times. Whether the model meant the same call twice
or showed the one it made cannot be told from the text, so a copy (the same
tool, the same arguments) with sentences between it and the call it repeats is
not ok, with that reason: never silently run twice, never silently dropped.

Only a bare copy is in doubt: a Python call or a JSON object with no marker of
its family before it (in a list or a fence, or alone on its line). A family's
marker (``<tool_call>``, ``[TOOL_CALLS]``, ``<|python_start|>``...) is written to
make a call, not to show one, so "Now another bbox call: <tool_call>..." is a
second call. Copies with no sentence between them (``[roll(), roll()]``) are a
model asking twice, and stay ok too.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import orjson

if TYPE_CHECKING:
    from ._toolcalls import ToolCall

__all__ = ["restated"]

# where a bare call starts: a JSON object, or a Python call's name ("functools[", "Action:" and
# the tags and tokens of the families are markers)
_BARE = re.compile(r"\{|[^\W\d][\w.\\-]*[ \t]*\(")
# what stands between calls as markup, not words: tags and tokens (<|message|>,
# <｜tool▁sep｜>, [TOOL_CALLS]), a fence's line, a harmony header's recipient
_MARKUP = re.compile(r"<[^<>\n]{0,80}>|\[[A-Z_]{2,32}\]|```[\w+-]*|\bto=[\w.:-]+")
# a sentence: three words in a row (a header's "Action Input:" or a role's name is not
# one), or a run of CJK characters, which has no blanks between its words
_SENTENCE = re.compile(r"[^\W\d_]{2,}[ \t]+[^\W\d_]+[,;]?[ \t]+[^\W\d_]{2,}|"
                       r"[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]{3}")


def _said_between(text: str, calls: list[ToolCall], j: int, i: int) -> bool:
    """Whether a sentence stands between calls ``j`` and ``i`` (outside every call)."""
    for k in range(j, i):
        a, b = calls[k].span[1], calls[k + 1].span[0]
        if b - a > 8 and _SENTENCE.search(_MARKUP.sub(" ", text[a:b])) is not None:
            return True
    return False


def _key(args: Any) -> bytes:
    try:  # (True and 1, 1 and 1.0 are not the same argument: compared as written in JSON)
        return orjson.dumps(args, option=orjson.OPT_SORT_KEYS)
    except (TypeError, orjson.JSONEncodeError):
        return repr(args).encode()


def restated(text: str, calls: list[ToolCall]) -> list[ToolCall]:
    """``calls`` with each bare ok call that repeats an earlier ok one (same name,
    same arguments) after a sentence made not ok; the list itself when none does."""
    earlier: dict[str, list[int]] = {}  # a tool's name -> the ok calls to it so far
    keys: dict[int, bytes] = {}  # (each call's arguments as JSON, made when first compared)
    out = calls
    for i, call in enumerate(calls):
        if not call.ok or call.span == (0, 0):
            continue
        seen = earlier.setdefault(call.name, [])
        if seen and _BARE.match(text, call.span[0]) is not None:
            key = keys[i] = _key(call.args)
            for j in seen:
                if (keys.get(j) or keys.setdefault(j, _key(calls[j].args))) == key and \
                        _said_between(text, calls, j, i):
                    if out is calls:
                        out = list(calls)
                    out[i] = replace(call, args=None, ok=False, error=(
                        f"the call to {call.name!r} repeats call {j} (the same arguments) after text "
                        "between them: whether the text shows that call again or asks for it a second "
                        "time cannot be told"))
                    break
        seen.append(i)
    return out
