"""A call written again after prose: a restatement, or a second call?

A model that explains its answer often writes the call again below it ("So,
the function call would be: ``[f(a=1)]``"), and a small model that rambles on
writes it a third and a fourth time. Each copy reads as a call, and running them
all runs the tool as many times. Whether the model meant the same call twice
or showed the one it made cannot be told from the text, so a copy (the same
tool, the same arguments, the same id or none) with a sentence between it and
the last ok call it repeats is not ok, with that reason: never silently run
twice, never silently dropped.

Only a bare copy is in doubt: a Python call or a JSON object that no marker of
its family opens (in a list or a fence, or alone on its line). A family's marker
(``<tool_call>``, ``[TOOL_CALLS]``, ``<|python_tag|>``, a ``tool_code`` fence,
``Action:``...) is written to make a call, not to show one, so "Now another bbox
call: <tool_call>..." is a second call. Copies with no sentence between them
(``[roll(), roll()]``, a comment after each on its line) are a model asking
twice, and stay ok too. A bare call written again with other arguments under a
line saying it changes the call above ("you would modify the function call to
include it:", in bold or not) is a revision the model offered: both are not ok
(``revised``), and when they stand in lists, every call of the list below and
those of the list above of the tools it calls.

The cost is linear in the text and the calls: each call is compared with the
last ok one of its name and arguments only, a call's arguments are written out
once (only when another call has its name), and the text between two calls is
read once (only when a copy was found). The stream's reading applies it once to
the message's calls, as the whole text's reading does.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

import orjson

if TYPE_CHECKING:
    from ._toolcalls import ToolCall

__all__ = ["restated"]

# where a bare call starts: a JSON object (not MiniMax's {tool => ...}: its block's), a name and its
# arguments as a list or a tuple, or a Python call's name, in a string too ("f(a=1)": a span that
# starts at a family's tag or token, "functools[" or "Action:" is a marker's)
_BARE = re.compile(r"\{(?![ \t\r\n]*[\"']?tool[\"']?[ \t]*=>)|\[(?![A-Z_]{2,32}\])|\(|"  # ([..], (..): a pair
                   r"[\"']?[^\W\d][\w.\\-]*[\"']?[ \t]*\(")
# a marker on the call's line before it, or on the line above (a fence's): a tag or token's
# end (not an emphasis tag's: "<b>Corrected call:</b>"), Mistral's [TOOL_CALLS], functools, ReAct's
# and Cohere's Action, xLAM's "tool_calls", Gemma's tool_code fence
_LED = re.compile("".join(f"(?<!<{t})(?<!</{t})" for t in ("b", "strong", "em", "i", "u", "code"))
                  + r'>|\[TOOL_CALLS\]|functools|\bAction\b|"tool_calls"|\btool_code\b')
# what stands between calls as markup, not words: tags and tokens (<|message|>,
# <｜tool▁sep｜>, [TOOL_CALLS]), a fence's line, a harmony header's recipient
_MARKUP = re.compile(r"<[^<>\n]{0,80}>|\[[A-Z_]{2,32}\]|```[\w+-]*|\bto=[\w.:-]+")
# a comment after the call on its line: the code's, said of that call
_TRAILING_COMMENT = re.compile(r"[ \t]*#[^\n]*")
# a sentence: three words in a row (a header's "Action Input:" or a role's name is not one),
# the first from a word's start (one try a run of letters: linear), or a run of Thai, CJK or
# Hangul, which have no blanks between their words
_SENTENCE = re.compile(r"(?<![^\W\d_])[^\W\d_]{2,}[^\S\r\n]+[^\W\d_]+[,;]?[^\S\r\n]+[^\W\d_]{2,}|"
                       r"[\u0e00-\u0e7f\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]{3}")
# a label alone on its line ("Output:", "Function call:"): the copy below it is presented, as after
# a sentence
_LABEL = re.compile(r"(?m)^[^\S\r\n]*[*_]{0,3}[^\W\d_]+(?:[^\S\r\n][^\W\d_]+)?[*_]{0,3}[^\S\r\n]*:[*_]{0,3}"
                    r"[^\S\r\n]*\r?$")  # (in bold too: "**Output:**")


def bare_calls(text: str, spans: list[tuple[int, int]]) -> list[bool]:
    """Whether each call (``spans``, in the text's order) stands bare: a bare call's start
    (``_BARE``) and no family's marker on its line before it or on the line above (``_LED``),
    nor a call a marker led right before it, only separators between them (the calls of one
    block: ``<tool_calls>`` then a call a line, ``<tool_call>[{..},\n{..}]``). One pass: each
    line and the line above it are searched once for a marker, however many calls stand on
    them (linear), and never the text of the calls before (a ``>`` in an argument is no tag's)."""
    out: list[bool] = []
    line = above = searched = prev = prev_end = -1
    led = False
    for start, end in spans:
        # (the block a marker opened goes on: a led call right before it, only separators between)
        carried = bool(out) and not out[-1] and prev_end <= start and _BARE.match(text, prev) is not None \
            and not text[prev_end:start].strip(_SEPARATORS)
        if line < 0 or start < prev:
            line, new = text.rfind("\n", 0, start) + 1, True
        else:
            nl = text.rfind("\n", prev, start)
            new = nl >= 0
            line = nl + 1 if new else line
        if new:
            above = text.rfind("\n", 0, max(line - 1, 0)) + 1 if line else line
            searched, led = above, False
        # (a few characters back: a marker the last call's start cut; none inside that call)
        lo = max(above, searched - 20, prev_end if prev_end <= start else -1)
        if not led and lo < start:
            led = _LED.search(text, lo, start) is not None
            searched = start
        prev, prev_end = start, end
        out.append(not carried and not led and _BARE.match(text, start) is not None)
    return out


def _sentence_between(text: str, a: int, b: int) -> bool:
    """Whether a sentence stands in ``text[a:b]``, the text between two calls."""
    if b - a <= 8:
        return False
    gap = text[a:b]
    comment = _TRAILING_COMMENT.match(gap)
    if comment is not None:
        gap = gap[comment.end():]
    gap = _MARKUP.sub(" ", gap)
    return _SENTENCE.search(gap) is not None or _LABEL.search(gap) is not None


# the line a call is written under when it changes the call above: a verb doing it to the call
# ("you would modify the function call to include it:") or the call so done ("Corrected call:");
# "update the second call", "updated data" are no revision
_REVISES = re.compile(r"\b(?:(?:modify|modifying|change|changing|adjust|adjusting|update|updating|amend|"
                      r"amending|correct|correcting|revise|revising|fix|fixing)[ \t]+(?:the|this|that|my|"
                      r"your|our|its)|correct|modified|changed|adjusted|updated|amended|corrected|revised|"
                      r"fixed|(?:corrected|revised|updated|modified|fixed|amended|adjusted|changed)[ \t]+"
                      r"(?:version|form)[ \t]+of[ \t]+(?:the|this|that|my|your|our|its))"
                      r"[ \t]+(?:(?:function|tool|api)[ \t]+)?calls?\b", re.I)
#: a line longer than this is read by its end only (the words before the colon say it)
_REVISES_SPAN = 240


def _revises(text: str, a: int, b: int) -> str | None:
    """The line in ``text[a:b]`` (the text between two calls) that presents the second as a
    change of the first, the last line before the second and ending in a colon, the call on
    a line below it (blanks, a list's bracket or a fence's line between); else None."""
    k = b
    while True:  # back over what may stand between that line and the call (linear: no regex)
        while k > a and text[k - 1] in " \t\r\n[(":
            k -= 1
        start = max(a, text.rfind("\n", a, k) + 1)
        if start == a or not text[start:k].lstrip().startswith("```"):
            break
        k = start  # (a fence's line)
    if "\n" not in text[k:b]:
        return None
    line = text[start:k].strip()
    # (in bold or code or not: "**Corrected call:**", "__Corrected call:__", "<b>Corrected call:</b>")
    core = _EMPHASIS_TAG.sub("", line[-_REVISES_SPAN - 40:]).strip("*_` \t")
    if not core.endswith(":") or _REVISES.search(core[-_REVISES_SPAN:]) is None:
        return None
    return line


_EMPHASIS_TAG = re.compile(r"</?(?:b|strong|em|i|u|code)>", re.I)


def _key(call: ToolCall) -> bytes:
    try:  # (True and 1, 1 and 1.0 are not the same argument: compared as written in JSON)
        written = orjson.dumps(call.args, option=orjson.OPT_SORT_KEYS)
    except (TypeError, orjson.JSONEncodeError):
        written = repr(call.args).encode()
    return written + b"\x00" + (call.id or "").encode()


def restated(text: str, calls: list[ToolCall]) -> list[ToolCall]:
    """``calls`` with each bare ok call that repeats the last ok one of its name and
    arguments with a sentence between them made not ok, bare calls written again
    changed under a line saying so (``revised``) and bare calls offered as choices
    (``offered``); the list itself when none is."""
    if not any(c.ok and _BARE.match(text, c.span[0]) is not None for c in calls):
        return calls  # (only a bare ok call is ever changed: calls a tag or token opens are not)
    return _copies(text, offered(text, revised(text, calls)))


# what says that what follows is another choice than what stands before it: "or", "Alternatively:",
# "Another option:", "Option 2:" (both are offered: neither is made)
ALTERNATIVE = re.compile(r"\s*(?:or\b|alternatively|instead|otherwise|another (?:option|way|choice)\b|"
                         r"(?:option|choice|alternative) ?(?:\d+|[b-z]|two)\b)", re.I)
#: a gap between two calls longer than this holds more than the word offering the second
_CHOICE_GAP = 240


def one_of_them(calls: list[ToolCall]) -> list[ToolCall]:
    """``calls`` not ok: one of two the model offered ("[f(a=1)]  # or", or a line "Or:",
    then ``[f(a=2)]``), which one is meant cannot be told."""
    return [replace(c, args=None, ok=False, cut=None, fixes=(), problems=(), error=(
        f"the call to {c.name!r} is one of two choices the model offered (an 'or' between "
        "them): which one is meant cannot be told")) for c in calls]


def _offers_choice(text: str, a: int, b: int) -> bool:
    """``text[a:b]``, between two calls, is one line offering the second as another choice
    (``Or:``, ``**Alternatively:**``, a comment ``# or`` after the first), with blanks, a
    list's brackets and fence lines around it."""
    if b - a > _CHOICE_GAP or a >= b:
        return False
    words = [line for line in (raw.strip(_SEPARATORS + "#*_>") for raw in text[a:b].splitlines())
             if line and not line.startswith("```")]
    return len(words) == 1 and ALTERNATIVE.match(words[0]) is not None


def _comment_offers(text: str, end: int) -> bool:
    """The rest of the line after ``end`` (a call's) is a comment saying "or" (``# or this one``)."""
    nl = text.find("\n", end, end + _CHOICE_GAP)
    rest = text[end:nl if nl >= 0 else min(len(text), end + _CHOICE_GAP)].lstrip(_SEPARATORS)
    return rest.startswith("#") and ALTERNATIVE.match(rest.lstrip("#")) is not None


def offered(text: str, calls: list[ToolCall]) -> list[ToolCall]:
    """``calls`` with bare ok calls written as choices made not ok: a line offering the
    calls below it as another choice than those above it (``Or:``, ``# or`` after those
    above), or a comment saying so after calls written together (``[f(a=1)]`` then
    ``[f(a=2)]  # or this one``), the calls of the groups (a list's, calls with only
    separators between them) bare. Linear: the groups are found in one pass, each gap
    between two calls read once, and only when short."""
    groups: list[list[int]] = []  # runs of calls with only separators between them
    for i, call in enumerate(calls):
        prev = calls[i - 1] if i else None
        if prev is not None and prev.span[1] <= call.span[0] and \
                not text[prev.span[1]:call.span[0]].strip(_SEPARATORS):
            groups[-1].append(i)
        else:
            groups.append([i])
    choices = [above + below for above, below in zip(groups, groups[1:], strict=False)
               if calls[above[-1]].span[1] <= calls[below[0]].span[0]
               and _offers_choice(text, calls[above[-1]].span[1], calls[below[0]].span[0])]
    choices += [group for group in groups
                if len(group) > 1 and _comment_offers(text, calls[group[-1]].span[1])]
    out = calls
    bare: list[bool] = []
    for marked in choices:
        if not any(calls[k].ok for k in marked):
            continue  # (one may be not ok already: "[f(a=1)]  # or")
        if not bare:
            bare = bare_calls(text, [c.span for c in calls])
        if not all(bare[k] for k in marked):
            continue  # (a call a family's marker opens is made: the choice is not the reading's to undo)
        if out is calls:
            out = list(calls)
        for k in marked:
            if out[k].ok:
                out[k] = one_of_them([calls[k]])[0]
    return out


def revised(text: str, calls: list[ToolCall]) -> list[ToolCall]:
    """``calls`` with a bare call written under a line presenting it as a change of the
    bare ok call of the same tool above it ("If the parameter is required, you would
    modify the function call to include it as well:") made not ok, the two of them, the
    copies of the one changed and every call of a chain of such changes; under the line a
    list of calls that is not the list above it again makes every call of it not ok, and
    those of the list above of the tools it calls: the model offered a changed call, and
    which it meant cannot be told. (All are bare: the live reading holds such calls to the
    message's end.) Linear: each call's arguments are written out once, and each list is
    compared with the one above it once."""
    revisions: dict[int, str] = {}  # a call's index -> the line above it that revises
    for i in range(1, len(calls)):
        call, prev = calls[i], calls[i - 1]
        if call.ok and call.span[0] >= prev.span[1] and text.find("\n", prev.span[1], call.span[0]) >= 0:
            line = _revises(text, prev.span[1], call.span[0])
            if line is not None:
                revisions[i] = line
    if not revisions:
        return calls
    out = list(calls)
    bare = bare_calls(text, [c.span for c in calls])
    keys: dict[int, bytes] = {}
    last: dict[str, int] = {}  # a tool's name -> its last call so far
    unmarked: dict[tuple[str, bytes], list[int]] = {}  # ok bare calls so far, by name and arguments

    def key(k: int) -> bytes:
        if k not in keys:
            keys[k] = _key(calls[k])
        return keys[k]

    for i, call in enumerate(calls):
        line = revisions.get(i)
        if line is not None and bare[i]:
            # the calls under the line (a list of them) and those they change: the list's right above
            # of the same tools, else the last call of the tool (a chain's); the same calls again
            # are copies, restated's
            below = _group(text, calls, i, 1)
            tools = {calls[k].name for k in below}
            above = [k for k in _group(text, calls, i - 1, -1)
                     if calls[k].name in tools and calls[k].ok and bare[k]]
            j = last.get(call.name, -1)
            if not above and j >= 0 and calls[j].ok and bare[j]:
                above = [j]
            common = {calls[k].name for k in above}
            if above and sorted((calls[k].name, key(k)) for k in below if calls[k].name in common) != \
                    sorted((calls[k].name, key(k)) for k in above):
                why = _changed(sorted(tools), line)
                copies = [c for j in above for c in unmarked.pop((calls[j].name, key(j)), [])]
                for k in [*above, *copies, *below]:  # (the calls changed, their copies above, those under)
                    if out[k].ok and bare[k]:
                        out[k] = replace(calls[k], args=None, ok=False, error=why)
        if call.ok and bare[i]:
            unmarked.setdefault((call.name, key(i)), []).append(i)
        last[call.name] = i
    return out


def _changed(tools: list[str], line: str) -> str:
    """The reason a call written again, changed, under ``line`` is not ok."""
    said = line if len(line) <= 80 else "..." + line[-77:]
    named = ", ".join(repr(n) for n in tools)
    return (f"the call{'s' if len(tools) > 1 else ''} to {named} {'are' if len(tools) > 1 else 'is'} written "
            f"again, changed, under {said!r}: which of the readings the model meant cannot be told")


_SEPARATORS = " \t\r\n,;[]()"


def _group(text: str, calls: list[ToolCall], i: int, step: int) -> list[int]:
    """The calls written with the one at ``i`` as one group, going the way of ``step``
    (-1: those before it, 1: those after it): only separators between them (a list's
    comma and brackets, blanks), no words."""
    out = [i]
    k = i + step
    while 0 <= k < len(calls):
        a, b = (calls[k].span[1], calls[k + 1].span[0]) if step < 0 else \
            (calls[k - 1].span[1], calls[k].span[0])
        if a > b or text[a:b].strip(_SEPARATORS):
            break
        out.append(k)
        k += step
    return out


def _copies(text: str, calls: list[ToolCall]) -> list[ToolCall]:
    """restated's reading of copies."""
    counts: dict[str, int] = {}
    for call in calls:
        if call.ok and call.span != (0, 0):
            counts[call.name] = counts.get(call.name, 0) + 1
    keys = {i: (call.name, _key(call)) for i, call in enumerate(calls)  # (only a name met twice)
            if call.ok and call.span != (0, 0) and counts[call.name] > 1}
    if len(set(keys.values())) == len(keys):
        return calls
    said = [0]  # how many of the gaps before each call hold a sentence
    for k in range(1, len(calls)):
        said.append(said[-1] + _sentence_between(text, calls[k - 1].span[1], calls[k].span[0]))
    last: dict[tuple[str, bytes], int] = {}  # (name, arguments) -> the last ok call of them
    out = calls
    bare: list[bool] = []  # (each call's line searched once, when a copy is first met)
    for i, key in keys.items():
        j = last.get(key, -1)
        if j >= 0 and said[i] > said[j] and not bare:
            bare = bare_calls(text, [c.span for c in calls])
        if j >= 0 and said[i] > said[j] and bare[i]:
            call = calls[i]
            if out is calls:
                out = list(calls)
            out[i] = replace(call, args=None, ok=False, error=(
                f"the call to {call.name!r} repeats the one at character {calls[j].span[0]} (the same "
                "arguments) after text between them: whether the text shows that call again or asks "
                "for it a second time cannot be told"))
        else:
            last[key] = i
    return out
