"""Calls shown by a model that says it cannot make them.

A model answering in prose often says it has no way to run anything ("I don't
have the ability to execute code", "I will simulate the function call") and
then writes the calls it would make, as guidance for the user ("Here's how you
would make the requests:"). Run, they do what the model said it would not do.
A bare call (no family's marker opens it: a marker is written to make a call)
after such a sentence is not ok, with the sentence in its reason; the last such
sentence before each call decides, and a call after the model goes on to make a
call itself ("I can't run code, so I'll call the interpreter:") stays ok. Words
in the model's reasoning or inside a call's own arguments are not its saying so.

The text before the last call is searched once for such sentences, and each
line holding calls once for a marker: linear in the text and the calls.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import replace
from typing import TYPE_CHECKING

from ._formats._tokens import REASONING
from ._restated import bare_calls

if TYPE_CHECKING:
    from ._toolcalls import ToolCall

__all__ = ["shown_as_guidance"]

_S = r"[ \t]+"
# what the model says it cannot run: code, functions, tools, calls, API requests ("the search function")
_OBJECT = (_S + r"(?:the|any|these|this|such|those)?[ \t]*(?:[\w.\-]+" + _S + r")?"
           r"(?:python|actual|real|external|provided|given|real-time|live)?[ \t]*"
           r"(?:function" + _S + r"calls?|functions?|tool" + _S + r"calls?|tools?|api" + _S
           + r"(?:calls?|requests?)|apis?|code|calls?|requests?)\b"
           # ("I can't call functions in parallel": it can, one at a time)
           r"(?![ \t]+(?:in" + _S + r"parallel|simultaneously|concurrently|at" + _S + r"once|at" + _S + r"the"
           + _S + r"same" + _S + r"time)\b)")
# the model saying it cannot run calls, itself the subject: "I cannot execute functions", "I don't
# have the ability to run code", "I'm unable to call the tools", "I lack the means to execute code",
# "I'm not capable of executing functions", "I will simulate the function call" ("the API cannot
# run code", "I see the tool cannot run" are not the model's own)
_CANNOT = re.compile(
    r"\bI(?:" + _S + r"(?:really|simply|currently|actually|just|also|still|unfortunately|do|personally)"
    # ("I'm just a language model and can't run code": the same subject, and right before the words)
    r"|(?:'m|\u2019m|" + _S + r"am)\b[^.!?\n]{0,60}?" + _S + r"and)?"
    r"(?P<cannot>[ \t]*(?:cannot|can[ \t]?not|can't|can\u2019t)|(?:'m|\u2019m|" + _S + r"am)" + _S
    + r"(?:unable|not" + _S + r"able)" + _S + r"to|(?:'m|\u2019m|" + _S + r"am)" + _S + r"not" + _S
    + r"capable" + _S + r"of|" + _S + r"(?:do" + _S + r"not|don't|don\u2019t)" + _S + r"have" + _S
    + r"(?:the" + _S + r")?(?:ability|capability|capacity|means|access)" + _S + r"to|" + _S + r"lack" + _S
    + r"(?:the" + _S + r")?(?:ability|capability|capacity|means)" + _S + r"to|" + _S + r"have" + _S
    + r"no" + _S + r"(?:way|ability|means)" + _S + r"to)"
    r"(?:" + _S + r"(?:actually|directly|really|myself|truly))?" + _S
    + r"(?:execute|run|call|invoke|perform|make|executing|running|calling|invoking|performing|making)"
    + _OBJECT + r"|\bI(?P<simulate>'ll|\u2019ll|" + _S + r"will)" + _S + r"simulate" + _OBJECT
    # ("I don't have access to tools", "... to a weather tool": none to call)
    + r"|\bI" + _S + r"(?P<access>do" + _S + r"not|don't|don\u2019t)" + _S + r"have" + _S + r"(?:any" + _S
    + r")?access" + _S + r"to" + _S + r"(?:an?" + _S + r"|any" + _S + r"|the" + _S + r")?(?:[\w.\-]+" + _S
    + r")?(?:tools?|functions?|apis?)\b", re.I)
_REASONING_ENDS = tuple(dict.fromkeys(REASONING.values()))
# a word every such sentence holds, in lower case (a first look: most texts hold none; finding
# them in the text lowered costs a tenth of a search that folds case)
_MAY_SAY = ("not", "n't", "n\u2019t", "unable", "lack", "have no", "simulate")
# the model making a call itself after saying so: "so I'll call the tool", "let me use the search
# tool instead", "let's use the python tool" (the model the subject: "try calling the function" is
# the user's)
_OWN_CALL = re.compile(
    r"\b(?:(?:let" + _S + r"me|let's|let\u2019s|I'll|I\u2019ll|I" + _S + r"will|I" + _S + r"can|I'm" + _S
    + r"going" + _S + r"to|I" + _S + r"am" + _S + r"going" + _S + r"to)(?:" + _S + r"(?:now|instead|go"
    + _S + r"ahead" + _S + r"and|simply|just))?" + _S + r"(?:use|call|run|invoke))"
    + _S + r"(?:the|a|an|this|that|my)?[ \t]*(?:[\w.\-]+" + _S + r"){0,2}?"
    r"(?:tool|function|api|interpreter)s?\b", re.I)


def _said(text: str, end: int, calls: list[ToolCall]) -> tuple[list[re.Match[str]], list[int]]:
    """Where before ``end`` the model says it cannot run calls (not in its reasoning, not in a
    call's own arguments), and where it says it makes a call itself."""
    low = text[:end].lower()
    for word in _MAY_SAY:
        if word in low:
            break
    else:
        return [], []
    spans = sorted(c.span for c in calls if c.span != (0, 0))
    # (what the model reasoned before its answer is not said to the user: "I can't run code, so
    # the tool is needed" in its reasoning is no such sentence; a closer in a call's arguments
    # ends no reasoning)
    start = 0
    for closer in _REASONING_ENDS:
        k = text.rfind(closer, 0, end)
        while k >= 0 and _inside(spans, k):
            k = text.rfind(closer, 0, k)
        start = max(start, k + len(closer) if k >= 0 else 0)
    # (words inside a call, its arguments': "Sorry, I cannot run code.", "using the f tool")
    said = [m for m in _CANNOT.finditer(text, start, end) if not _inside(spans, m.start())]
    own = [m.start() for m in _OWN_CALL.finditer(text, said[0].end(), end)
           if not _inside(spans, m.start())] if said else []
    return said, own


def _inside(spans: list[tuple[int, int]], k: int) -> bool:
    """``k`` stands inside one of the calls' ``spans`` (sorted)."""
    j = bisect.bisect_right(spans, (k, _FAR)) - 1
    return j >= 0 and spans[j][0] <= k < spans[j][1]


_FAR = 1 << 62  # (past any span's end: bisect finds the last span starting at or before k)


def shown_as_guidance(text: str, calls: list[ToolCall]) -> list[ToolCall]:
    """``calls`` with each bare ok call after the model says it cannot run calls made not
    ok (unless the model said it makes a call itself after that); the list itself when
    none is."""
    last = -1
    for call in calls:  # (a loop: this runs on every message; a call a tag opens is never bare)
        if call.ok and call.span[0] > last and call.span != (0, 0) and text[call.span[0]] != "<":
            last = call.span[0]
    said, own = _said(text, last, calls) if last >= 0 else ([], [])
    if not said:
        return calls
    made = [i for i, c in enumerate(calls) if c.ok and c.span != (0, 0)]
    bare = dict(zip(made, bare_calls(text, [calls[i].span for i in made]), strict=True))
    out = list(calls)
    starts = [m.start() for m in said]
    for i in made:
        call = calls[i]
        k = bisect.bisect_right(starts, call.span[0]) - 1 if bare[i] else -1
        if k < 0:
            continue
        words = said[k]  # (the last such sentence before the call)
        o = bisect.bisect_left(own, words.end())
        if words.end() > call.span[0] or (o < len(own) and own[o] < call.span[0]):
            continue  # (the model went on to make a call itself)
        out[i] = replace(call, args=None, ok=False, error=(
            f"the text says {words.group()!r} before the call to {call.name!r}: the call is shown as "
            "guidance, and whether to run it is a guess"))
    return out
