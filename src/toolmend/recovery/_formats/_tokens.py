"""The scan's token pattern: one regular expression for every marker, fence, code
span, reasoning block, turn end and line that may open a value, and where each of
its alternatives can begin (the marker kernel's start table), made once per format.
"""

from __future__ import annotations

import re

from ..._kernels import markers
from ._context import HY3_SUFFIX, ROLE_HEAD, TURN_ENDS, TURN_OPENERS

_start_table = markers.start_table

# opener -> closer; the openers are matched without regard to case
REASONING = {
    "<think>": "</think>", "<thinking>": "</thinking>", "<reasoning>": "</reasoning>",
    "<seed:think>": "</seed:think>", "\u25c1think\u25b7": "\u25c1/think\u25b7", "[THINK]": "[/THINK]",
    "<|START_THINKING|>": "<|END_THINKING|>", "<|channel>thought": "<channel|>",
    "<|inner_prefix|>": "<|inner_suffix|>", "<|channel|>analysis": "<|end|>",
    f"<think{HY3_SUFFIX}>": f"</think{HY3_SUFFIX}>",  # (Hy3's)
    "<|open|>think<|sep|>": "<|close|>think<|sep|>",  # (Kimi K3's think channel)
    "<|think:start|>": "<|think:end|>",  # (Solar Open 2's)
    "<|content_thinking|>": "<|end_message|>",  # (Inkling's thinking block)
}
ANALYSIS = "<|channel|>analysis"  # (read as the harmony message it is where harmony is read)
# A closer met by the scan has no opener before it (an opener's block is skipped whole, up
# to its closer): the prompt opened the reasoning, so everything before it was reasoning.
# (not the closers that end other messages or blocks too: harmony's <|end|>, Inkling's <|end_message|>)
BARE_CLOSERS = [c for o, c in REASONING.items() if c not in ("<|end|>", "<channel|>", "<|end_message|>")]
# Kimi K2 ends its reasoning implicitly where its tool section begins
# (or its first call's token, the section's opener left out, as Kimi-K2-Thinking may write it)
IMPLICIT_ENDS = ("<|tool_calls_section_begin|>", "<|tool_call_begin|>")


_FENCE_ETC = (
    r"(?P<fence>^[ \t]*(?P<ticks>`{3,}|~{3,})[ \t]*(?P<lang>[^\s`]*)[^\n`]*(?:\n|\Z))"
    r"|(?P<tick>`+)"
    r"|(?P<think>" + "|".join(re.escape(o) for o in sorted(REASONING, key=len, reverse=True)) + ")"
    r"|(?P<close>" + "|".join(re.escape(c) for c in BARE_CLOSERS) + ")"
    r"|(?P<resp><tool_response>)"
    r"|(?P<comment><!--)"
    r"|(?P<example><examples?>)"
    r"|(?P<role>(?-i:" + ROLE_HEAD.pattern + "))"
    r"|(?P<eot>(?-i:" + "|".join(re.escape(t) for t in TURN_ENDS) + "))"
    r"|(?P<turn>(?-i:" + "|".join(re.escape(t) for t in TURN_OPENERS) + "))"
)
_TAG = r"|(?P<tag><tool_call(?=[\s>/]|\Z))"
_JSON = r"|(?P<json>^[ \t]*[\[{])"
# llama3_json forced: a {"name": ...} object anywhere, prose before and after (as its parsers read it)
_JSON_INLINE = r"|(?P<json>^[ \t]*[\[{]|\{(?=\s*\"name\"\s*:))"
_PY = r"|(?P<py>^[ \t]*\[(?=[ \t]*[A-Za-z_][\w.-]*[ \t]*\())"
_ARROW = r"|(?P<arrow>^>>>(?=[ \t]*[A-Za-z_]))"

# what an anchored alternative starts with, after a line's spaces and tabs
LINE_FIRSTS = frozenset("`~[{>")
LINE_OPENERS = LINE_FIRSTS | frozenset(" \t\n")  # what a line that may hold one starts with


class TokenSearch:
    """The scan's token pattern, and where its alternatives can begin: a line
    start (the anchored ones: fences, JSON and pythonic lines, ``>>>``), a
    character of ``firsts`` (``<``, ``[``, a backtick, ...), or one of
    ``words``, the markers that begin with a letter (``Action:``,
    ``functools``). A search of the whole pattern tries its hundred
    alternatives at every character of the text (~0.2 us each: 7 ms for 30 KB
    of prose); ``Scanner.next_token`` tries them only where the marker
    kernel's ``next_start`` stops, and finds the same leftmost match."""

    def __init__(self, pattern: re.Pattern[str], firsts: str, words: tuple[str, ...]) -> None:
        self.pattern = pattern
        self.match = pattern.match
        # a line break counts only where an anchored alternative may begin after it (past a
        # run of blank lines, the next character is one they start with: _anchored reads it)
        self.starts = _start_table(firsts, "".join(sorted(LINE_FIRSTS)), words)


BLANK_RUN = re.compile(r"[ \t\n]*")


_patterns: dict[tuple[frozenset[str], tuple[str, ...]], TokenSearch] = {}


def token_pattern(kinds: frozenset[str], markers: tuple[str, ...]) -> TokenSearch:
    key = (kinds, markers)  # the readers' cache keeps the result per kinds: this runs once per format
    pat = _patterns.get(key)
    if pat is None:
        src = _FENCE_ETC
        # where an unanchored alternative can start: a backtick, ``<tool_response>``,
        # the reasoning markers in either case, the families' markers as written
        firsts = "`<" + "".join(w[0] + w[0].swapcase() for w in (*REASONING, *BARE_CLOSERS))
        words = tuple(m for m in markers if m[0].isalpha())
        if kinds & {"hermes", "glm"}:
            src += _TAG
        if markers:
            alts = "|".join(re.escape(m) for m in sorted(markers, key=len, reverse=True))
            src += r"|(?P<fam>(?-i:" + alts + "))"
            firsts += "".join(m[0] for m in markers if not m[0].isalpha())
        if "arrow" in kinds:
            src += _ARROW
        if "pythonic_inline" in kinds:  # the format named: a list of calls inside a sentence too
            # (not an index, arr[idx(k=1)], nor a list inside a string)
            src += _PY.replace("^[ \\t]*", "(?<![A-Za-z0-9_)\\]\"'])", 1)
            firsts += "["
        elif "pythonic" in kinds:
            src += _PY
        # a line that opens with a marker beginning with a bracket ("  [TOOL_CALLS]...") is the
        # marker's, not a JSON value's
        bracketed = [w for w in (*markers, *REASONING, *BARE_CLOSERS) if w[0] in "[{"]
        not_marker = "(?!" + "|".join(re.escape(w) for w in bracketed) + ")" if bracketed else ""
        if "json_inline" in kinds:
            src += _JSON_INLINE.replace(r"[ \t]*[\[{]", r"[ \t]*" + not_marker + r"[\[{]", 1)
            firsts += "{"
        elif "json" in kinds:
            src += _JSON.replace(r"[ \t]*[\[{]", r"[ \t]*" + not_marker + r"[\[{]", 1)
        assert not any(c.isalpha() for c in firsts)
        pat = _patterns[key] = TokenSearch(re.compile(src, re.M | re.I), firsts, words)
    return pat
