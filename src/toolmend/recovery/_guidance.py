"""Calls shown by a model that says it cannot make them.

A model answering in prose often says it has no way to run anything ("I don't
have the ability to execute code", "I will simulate the function call") and
then writes the calls it would make, as guidance for the user ("Here's how you
would make the requests:"). Run, they do what the model said it would not do.
A bare call (no family's marker opens it: a marker is written to make a call)
after such a sentence is not ok, with the sentence in its reason; one after the
model goes on to make a call itself ("I can't run code, so I'll call the
interpreter:") stays ok.

The text before the last call is searched once, for the first such sentence,
and each line holding calls once for a marker: linear in the text and the calls.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from ._formats._tokens import REASONING
from ._restated import bare_calls

if TYPE_CHECKING:
    from ._toolcalls import ToolCall

__all__ = ["shown_as_guidance"]

_OBJECT = (r"[ \t]+(?:the[ \t]+|any[ \t]+|these[ \t]+|this[ \t]+|such[ \t]+)?"
           r"(?:(?:python|actual|real|external|provided|given)[ \t]+)?"
           r"(?:function[ \t]+calls?|functions?|tool[ \t]+calls?|tools?|api[ \t]+calls?|code|calls?|"
           r"requests?)\b")
# the model saying it cannot run calls: "I cannot execute functions", "I don't have the ability
# to run code", "I'm unable to call the tools", "I will simulate the function call"
_CANNOT = re.compile(
    r"\b(?P<cannot>cannot|can[ \t]?not|can't|can\u2019t|"
    r"(?:am|'m|\u2019m)[ \t]+(?:unable|not[ \t]+able)[ \t]+to|"
    r"(?:do[ \t]+not|don't|don\u2019t)[ \t]+have[ \t]+(?:the[ \t]+)?(?:ability|capability|capacity|means|"
    r"access)[ \t]+to|have[ \t]+no[ \t]+(?:way|ability|means)[ \t]+to)[ \t]+(?:actually[ \t]+|directly[ \t]+|"
    r"really[ \t]+|myself[ \t]+)?(?:execute|run|call|invoke|perform|make)" + _OBJECT
    + r"|\b(?P<simulate>(?:I'll|I[ \t]+will|I\u2019ll|let[ \t]+me)[ \t]+simulate" + _OBJECT + ")", re.I)
_REASONING_ENDS = tuple(dict.fromkeys(REASONING.values()))
# (as written: "Cannot", "NOT" after a sentence's start hold them too, "Unable" opens no first person's)
_NEEDED = ("not", "n't", "n\u2019t", "unable", "have no", "simulate")
# "I" in the clause before the words (the model speaking of itself: "the API cannot run code" is not)
_FIRST_PERSON = re.compile(r"\bI\b|\bI'm\b|\bI\u2019m\b")
# the model making a call itself after saying so: "so I'll call", "but let me use the tool"
_OWN_CALL = re.compile(r"\b(?:let[ \t]+me|I'll|I[ \t]+will|I\u2019ll|I[ \t]+can|I'm[ \t]+going[ \t]+to|"
                       r"I[ \t]+am[ \t]+going[ \t]+to)[ \t]+(?:now[ \t]+|instead[ \t]+)?"
                       r"(?:use|call|run|invoke|execute|make)\b", re.I)


def _disclaimer(text: str, end: int) -> re.Match[str] | None:
    """The first sentence before ``end`` where the model says it cannot run calls."""
    for word in _NEEDED:  # (a look for the words every such sentence holds first: most texts have none)
        if text.find(word, 0, end) >= 0:
            break
    else:
        return None
    # (what the model reasoned before its answer is not said to the user: "I can't run code, so
    # the tool is needed" in its reasoning is no such sentence)
    start = max((k + len(c) for c in _REASONING_ENDS if (k := text.rfind(c, 0, end)) >= 0), default=0)
    for m in _CANNOT.finditer(text, start, end):
        if m.lastgroup == "simulate":
            return m
        clause = max(text.rfind(c, max(0, m.start() - 120), m.start()) for c in ".!?\n")
        if _FIRST_PERSON.search(text, clause + 1, m.start()) is not None:
            return m
    return None


def shown_as_guidance(text: str, calls: list[ToolCall]) -> list[ToolCall]:
    """``calls`` with each bare ok call after the model says it cannot run calls made not
    ok (unless the model made a call itself in between); the list itself when none is."""
    last = -1
    for call in calls:  # (a loop: this runs on every message, most of which say no such thing)
        if call.ok and call.span[0] > last and call.span != (0, 0):
            last = call.span[0]
    said = _disclaimer(text, last) if last >= 0 else None
    if said is None:
        return calls
    made = [i for i, c in enumerate(calls) if c.ok and c.span != (0, 0)]
    bare = dict(zip(made, bare_calls(text, [calls[i].span[0] for i in made]), strict=True))
    own = _OWN_CALL.search(text, said.end(), last)
    until = own.start() if own is not None else last + 1
    words = said.group()
    out = list(calls)
    for i in made:
        call = calls[i]
        if bare[i] and said.end() <= call.span[0] < until:
            out[i] = replace(call, args=None, ok=False, error=(
                f"the text says {words!r} before the call to {call.name!r}: the call is shown as guidance, "
                "and whether to run it is a guess"))
    return out
