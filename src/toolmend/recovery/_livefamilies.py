"""The families whose calls the live reading reports whole at their closer.

Each of these writes a call between tokens of its own, and its reader ends the
call at the first closing token after the marker (a value never runs past
it), so once that token has arrived the call reads the same whatever follows:

    <|tool_call_begin|>functions.NAME:0<|tool_call_argument_begin|>{...}<|tool_call_end|>   kimi_k2
    <｜tool▁call▁begin｜>...<｜tool▁sep｜>...<｜tool▁call▁end｜>                         deepseek v3, r1, v3.1
    <｜DSML｜invoke name=..>...</｜DSML｜invoke>                                        deepseek v3.2, v4
    <steptml:invoke name=..>...</steptml:invoke>                                       step3
    <minimax:tool_call><invoke ...>...</invoke>...</minimax:tool_call>                 minimax_m2 (several)
    <|start|>assistant<|channel|>commentary to=functions.NAME ...<|message|>{...}<|call|>   harmony
    <|open|>call tool="NAME" ...<|close|>call<|sep|>                                   kimi_k3
    <|content_invoke_tool_json|>{...}<|end_message|>                                   inkling
    ]<]minimax[>[<tool_call> ... ]<]minimax[>[</tool_call>                             minimax_m3 (several)
    [TOOL_CALL]{tool => "NAME", args => {--k v}}[/TOOL_CALL]                        minimax_arrows (several)
    <longcat_tool_call>{...}</longcat_tool_call>, <|tool_call|>[...]<|/tool_call|>, <function_call>,
    <|action_start|><|plugin|>, <|START_ACTION|>, <TOOLCALL>, <tool_calls>, <|tools_prefix|>:
        JSON calls in a block
    <|python_start|>[f(a=1)]<|python_end|>, <|tool_call_start|>...<|tool_call_end|>,
    <function_calls>...</function_calls>: Python calls; <|tool_call>call:NAME{...}<tool_call|>,
    <start_function_call>...<end_function_call>: Gemma's

The calls a closer ends are reported when the marker's own reader, run on the
text so far, ends exactly there; a reading that goes on past it (the closer
written inside a string) waits for the next closer, and anything else for the
end of the message.

The tokens around them (Kimi's and DeepSeek's sections, DSML's
``function_calls``) are markup: never shown as text. ``settle`` says which
calls a closer makes certain, checked against the reader itself.

The XML calls in tags (Qwen3-Coder's and Seed-OSS's ``<function=...>``,
GLM's ``<arg_key>``) are read whole at their closer too, when regular:
``QWEN3_CODER``, ``SEED_OSS`` and ``GLM`` are how one starts, the regular
call whole, and its closer. ``Literals`` are what a format's text is
searched for (``literals_for``: made once a format).
"""

from __future__ import annotations

import re
from typing import Any, Iterable, NamedTuple

import regex  # type: ignore[import-untyped]

from .._text import skip_blanks
from ._formats._context import MARKER_CLOSERS, SECTIONS, WRAPPERS as CALL_WRAPPERS
from ._formats._harmony import harmony_message, harmony_tool, models_message
from ._formats._json import SECTION_DROPPED, kimi_name
from ._formats._xml import glm_tags
from ._formats._xmlblock import PARAM_OPENERS, PARAMS_AFTER, past_closers
from ._toolcalls import _NAME, _PLACEHOLDER_NAME, NAME_PATTERN, ToolCall
from ._triggers import dropped_follows

__all__ = ["Family", "FAMILIES", "WRAPPERS", "JsonHead", "JSON_HEADS", "first_closer", "settle",
           "parameter_follows", "runs_on", "section_goes_on", "call_goes_on", "harmony_text", "live_kinds",
           "QWEN3_CODER", "SEED_OSS", "GLM", "Literals", "literals_for"]


class Family(NamedTuple):
    """How one family's call ends, and what stands around it."""

    closers: tuple[str, ...]  # the first of these after the marker ends the call
    kept: tuple[str, ...] = ()  # closers that end it without being part of it (harmony's next <|start|>)
    wrappers: tuple[tuple[str, bool], ...] = ()  # tokens around the calls: (token, opens)
    messages: bool = False  # harmony: a message that is no call (analysis, final) ends there too
    tags_inside: bool = False  # a tag after the marker makes it a wrapper (<tool_calls><tool_call>...)
    # a call whose body is no JSON is reported at its closer only in this form, every value
    # closed (LongCat's GLM-style one: another waits for the end, as GLM's own does)
    regular: Any = None
    # a kept closer ends the call before the blanks in front of it (DSML's next invoke)
    blanks_before_kept: bool = False

    def call_end(self, work: str, k: int, closer: str, floor: int) -> int:
        """Where a call ends whose ``closer`` stands at ``k`` in ``work``: past it, or before a
        kept one (and before the blanks in front of it, not before ``floor``)."""
        if closer not in self.kept:
            return k + len(closer)
        while self.blanks_before_kept and k > floor and work[k - 1].isspace():
            k -= 1
        return k


_HARMONY = Family(("<|call|>", "<|end|>", "<|return|>", "<|start|>"), ("<|start|>",), messages=True)
_B, _U = "\uff5c", "\u2581"  # DeepSeek's and Step's fullwidth bar, and the word joiner in their tokens

def _sections(*openers: str) -> tuple[tuple[str, bool], ...]:
    """The wrappers of a family whose calls stand in these sections (``SECTIONS``)."""
    return tuple(w for o in openers for w in ((o, True), (SECTIONS[o], False)))


_DSML_AFTER = (f"<{_B}DSML{_B}invoke", f"</{_B}DSML{_B}function_calls>", f"</{_B}DSML{_B}tool_calls>")

# marker (as the model writes it) -> its family
FAMILIES: dict[str, Family] = {
    "<|tool_call_begin|>": Family(("<|tool_call_end|>",), wrappers=_sections("<|tool_calls_section_begin|>")),
    f"<{_B}tool{_U}call{_U}begin{_B}>": Family((f"<{_B}tool{_U}call{_U}end{_B}>",),
                                               wrappers=_sections(f"<{_B}tool{_U}calls{_U}begin{_B}>")),
    # (DSML's invokes stand in a block: a parameter after an invoke's end, inside the block, makes
    # the call not ok, so a call is whole once the next invoke or the block's end has come)
    f"<{_B}DSML{_B}invoke": Family(_DSML_AFTER, _DSML_AFTER, wrappers=_sections(
        f"<{_B}DSML{_B}function_calls>", f"<{_B}DSML{_B}tool_calls>"), blanks_before_kept=True),
    "<steptml:invoke": Family(("</steptml:invoke>",), wrappers=(
        (f"<{_B}tool_calls_begin{_B}>", True), (f"<{_B}tool_call_begin{_B}>function<{_B}tool_sep{_B}>", True),
        (f"<{_B}tool_call_end{_B}>", False), (f"<{_B}tool_calls_end{_B}>", False))),
    "<minimax:tool_call>": Family(("</minimax:tool_call>",)),  # its calls: the <invoke>s in it
    "<tool_calls>": Family(("</tool_calls>",), wrappers=(("</tool_calls>", False),), tags_inside=True),
    "[TOOL_CALLS]": Family(()),  # no closer: a call in another shape waits for the end
    "<|start|>": _HARMONY,
    "<|channel|>": _HARMONY,
    # Kimi K3's XTML call, in its tools section; Inkling's block; MiniMax M3's block (its invokes;
    # the models write its closer with the namespace token or without). (Not Solar Open 2's: an
    # argument's token after its end says a value held that end, so the text after it decides)
    '<|open|>call tool="': Family(MARKER_CLOSERS['<|open|>call tool="'],
                                  wrappers=_sections("<|open|>tools<|sep|>")),
    "<|content_invoke_tool_json|>": Family(MARKER_CLOSERS["<|content_invoke_tool_json|>"]),
    "[TOOL_CALL]": Family(MARKER_CLOSERS["[TOOL_CALL]"]),  # (MiniMax's hash arrows, read whole)
    "]<]minimax[>[<tool_call>": Family(("]<]minimax[>[</tool_call>", "</tool_call>")),
}

class JsonHead(NamedTuple):
    """A call whose arguments are JSON after a head of its family's tokens:
    streamed as they come, as a ``<tool_call>``'s are."""

    head: Any  # up to the arguments' "{" (partial matching): the name, or the call id it is read from
    after: Any  # what may follow the arguments, up to the call's closer (None: no closer, the call
    #             ends with its arguments and is finished at the end of the message)
    stops: tuple[str, ...]  # what the reader ends the arguments at, even inside a string (lower case)
    from_id: bool = False  # the head's group is Kimi's call id, functions.NAME:IDX
    id_group: int = 0  # the group holding the call id the reader keeps (Mistral's [CALL_ID])

    def name_of(self, m: Any) -> tuple[str, str | None] | None:
        """(the name, the call id) the reader gives for the head ``m``, or None
        for a name read another way (the call is then read whole at its closer)."""
        got = m.group(1)
        name = got
        if self.from_id:  # (read_kimi's rule)
            name = kimi_name(got)
        if not _NAME.match(name) or _PLACEHOLDER_NAME.match(name):
            return None
        if name == "function" and not self.from_id:
            return None  # DeepSeek V3's head, not V3.1's
        return name, got if self.from_id else (m.group(self.id_group) if self.id_group else None)


_SPACE = r"[\t-\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"  # str.isspace()
_WS = r"[ \t\n\r]*"  # JSON's blanks, which every reader skips
_DS_BEGIN, _DS_SEP, _DS_END = (f"<{_B}tool{_U}call{_U}begin{_B}>", f"<{_B}tool{_U}sep{_B}>",
                               f"<{_B}tool{_U}call{_U}end{_B}>")
_NAME_RE = f"({NAME_PATTERN})"

# marker -> the heads its calls' JSON arguments may follow (tried in order)
JSON_HEADS: dict[str, tuple[JsonHead, ...]] = {
    "<|tool_call_begin|>": (JsonHead(
        regex.compile(r"<\|tool_call_begin\|>" + _WS + r"([^\s<]{1,160})" + _WS
                      + r"<\|tool_call_argument_begin\|>" + _WS + r"\{"),
        regex.compile(_SPACE + r"*<\|tool_call_end\|>"), ("<|tool_call_end|>",), from_id=True),),
    _DS_BEGIN: (
        # V3.1: <｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{...}<｜tool▁call▁end｜>
        JsonHead(regex.compile(re.escape(_DS_BEGIN) + _WS + _NAME_RE + _WS + re.escape(_DS_SEP) + _WS
                               + r"\{"),
                 regex.compile(_SPACE + "*" + re.escape(_DS_END)), (_DS_END,)),
        # V3 and R1: ...function<｜tool▁sep｜>NAME\n```json\n{...}\n```<｜tool▁call▁end｜> (no token
        # in the fence's info: the call's end there ends it before its arguments)
        JsonHead(regex.compile(re.escape(_DS_BEGIN) + "function" + re.escape(_DS_SEP) + r"[ \t]*" + _NAME_RE
                               + r"[ \t]*\n" + _WS + r"```[^\n`<]*\n" + _WS + r"\{"),
                 regex.compile(_SPACE + "*```" + _WS + re.escape(_DS_END)), ("```", _DS_END)),
    ),
    # Mistral v11+: [TOOL_CALLS]NAME[CALL_ID]ID[ARGS]{...} (read_mistral's own head; an id with no
    # [ARGS] after it is read whole: where it ends, a "{" in it or the arguments', the line tells)
    "[TOOL_CALLS]": (JsonHead(
        regex.compile(r"\[TOOL_CALLS\]" + _WS + _NAME_RE + r"(?:\[CALL_ID\]([^\[\s]{0,64})\[ARGS\]|\[ARGS\])?"
                      r"[ \t]*\{"), None, (), id_group=2),),
}

# JSON blocks, Python calls, Gemma's calls: ended by their family's closer (a closer inside a
# string is waited past), as the scan's table has it
_BLOCKS = ("<longcat_tool_call>", "<|tool_call|>", "<function_call>", "<|action_start|><|plugin|>",
           "<|START_ACTION|>", "<TOOLCALL>", "<toolcall>", "<|tools_prefix|>", "<|python_start|>",
           "<|tool_call_start|>", "<function_calls>", "<|tool_call>", "<start_function_call>")
FAMILIES.update({marker: Family(MARKER_CLOSERS[marker]) for marker in _BLOCKS})

# wrapper token -> (the marker of its family, whether it opens)
WRAPPERS: dict[str, tuple[str, bool]] = {
    token: (marker, opens) for marker, fam in FAMILIES.items() for token, opens in fam.wrappers}


def first_closer(work: str, fam: Family, start: int) -> tuple[int, str]:
    """Where the first of ``fam``'s closers stands in ``work`` from ``start``,
    and which (-1 and "" when none has arrived)."""
    at, which = -1, ""
    for c in fam.closers:
        k = work.find(c, start, at + len(c) if at >= 0 else len(work))
        if k >= 0 and (at < 0 or k < at):
            at, which = k, c
    return at, which


def settle(found: list[ToolCall], read: list[ToolCall] | None, read_end: int,
           stop: int) -> list[ToolCall] | None:
    """The calls that the marker's closer, ending at ``stop``, makes certain:
    ``read`` and ``read_end`` are the marker's reader's reading of the text so
    far and a NUL, ``found`` the scan's from the marker (it holds them first,
    checked with tools). None when
    the reader does not end there (a broken call, text after the calls): the
    calls wait for the end of the message. [] for a message that is no call
    (harmony's analysis)."""
    if read is None or read_end != stop or any("\x00" in c.raw_args or c.span[1] > stop for c in read):
        return None  # (a call cut where the text so far stops holds the character added)
    n = len(read)
    if len(found) < n or [(c.span, c.raw_args) for c in found[:n]] != [(c.span, c.raw_args) for c in read]:
        return None
    return found[:n]


def harmony_text(whole: str, at: int, stop: int) -> tuple[str, int, int] | None:
    """A harmony message that is no call, ending at ``stop``: (its channel,
    its text's start and end); None for anything else."""
    msg = harmony_message(whole, at, len(whole))
    if msg is None:
        return None
    channel, _, a, b, end, closed = msg
    if not closed or end != stop or harmony_tool(whole, at, msg) is not None or \
            not models_message(whole, at, msg):  # (another's message: the model's turn is over)
        return None
    return channel, a, b



def live_kinds(kinds: frozenset[str]) -> bool:
    """A format the live reading serves: no call name may open the message
    (Functionary's bare first call, GLM-4's). Calls are reported early in the
    tags (Hermes' JSON body, Qwen3-Coder, Seed-OSS, GLM) and in the token
    families read here; in the other formats the reading shows the text and
    skips the reasoning, and the calls come at the end."""
    return "name_head" not in kinds

# Qwen3-Coder's call inside a <tool_call> tag, regular: each parameter closed by its own
# </parameter>, no value holding a tag of the format. Read whole at its </tool_call>, such a
# call is final (its reader finds every closer inside it); one that is not waits for close()
# (a value whose </parameter> was dropped is read differently when a later one is written).
_XML_VALUE = r"[^<]*(?:<(?!/?(?:parameter|function|tool_call|seed:))[^<]*)*"


def _xml_call(opener: str, closer: str) -> tuple[Any, re.Pattern[str], str]:
    """How a Qwen3-Coder call in ``opener`` ... ``closer`` starts, the regular
    one whole, and its closer."""
    o = re.escape(opener)
    return (regex.compile(o + r"[ \t\n\r]*<function="),
            re.compile(o + r"[ \t\n\r]*<function=[^>\n<]{1,128}>[ \t\n\r]*"
                       r"(?:<parameter=[^>\n<]{1,128}>" + _XML_VALUE + r"</parameter>[ \t\n\r]*)*"
                       r"</function>[ \t\n\r]*" + re.escape(closer)), closer)


def parameter_follows(work: str, k: int) -> bool | None:
    """After a call's closer (ending at ``k``): a parameter's opening tag follows, past blanks and
    its block's closers (True: the scan's ``parameter_past`` makes the call not ok), something
    else (False), or what follows is not known yet (None)."""
    b = past_closers(work, k, len(work))[1]
    return _told(work[b:b + _TAG_LONGEST], PARAM_OPENERS, (*PARAM_OPENERS, *PARAMS_AFTER))


def runs_on(work: str, k: int, kinds: frozenset[str], params: bool = True, final: bool = False,
            marker: str = "", in_section: bool = False) -> bool | None:
    """After a call's closer (ending at ``k``): what follows changes the whole text's reading of
    it (True): a parameter of its format (``parameter_follows``, with ``params``) or the next call
    with its opener dropped (``dropped_follows``); something else (False); not known yet (None).
    ``final``: the text is whole (the message ended): a tail that could have grown into either is
    neither. ``marker``: the call's (Kimi's and DeepSeek's calls, ``in_section`` or not, see
    ``call_goes_on``)."""
    ran_on = parameter_follows(work, k) if params else False
    if ran_on is False:
        ran_on = dropped_follows(work, k, kinds)
    if ran_on is False and marker in SECTION_DROPPED:  # (Kimi's, DeepSeek's: see call_goes_on)
        goes_on = call_goes_on(work, k, marker, in_section)
        ran_on = None if goes_on is None else not goes_on
    return False if final and ran_on is None else ran_on


def _told(rest: str, hits: tuple[str, ...], partial: tuple[str, ...]) -> bool | None:
    """``rest`` (what follows, as far as it has come) opens with one of ``hits`` (True), with
    none of them nor what may still become one of ``partial`` (False), or not known yet (None)."""
    if rest.startswith(hits):
        return True
    return None if not rest or any(t.startswith(rest) for t in partial) else False


_TAG_LONGEST = max(map(len, (*PARAM_OPENERS, *PARAMS_AFTER)))
_SECTION_ENDS = tuple(SECTIONS.values())


def call_goes_on(work: str, k: int, marker: str, in_section: bool) -> bool | None:
    """After a token family's call whose arguments are JSON (ending at ``k``): in its section,
    ``section_goes_on``; else whether what follows is no next call with its opening token
    dropped (``functions.g:1<|tool_call_argument_begin|>``, which the scan reads: False), or
    not known yet (None)."""
    if in_section:
        return section_goes_on(work, k, marker)
    head = _SECTION_DROPPED.get(marker)
    if head is None:
        return True
    m = head.match(work, skip_blanks(work, k, len(work)), partial=True)
    return True if m is None else None if m.partial else False


_SECTION_DROPPED = {marker: regex.compile(pattern) for marker, pattern in SECTION_DROPPED.items()}


def section_goes_on(work: str, k: int, marker: str) -> bool | None:
    """After a call's end (at ``k``) in a section: another call's ``marker`` or the section's
    end follows (True), something else (False: the scan's reader makes it an entry not ok), or
    not known yet (None)."""
    tokens = (marker, *_SECTION_ENDS)
    b = skip_blanks(work, k, len(work))
    return _told(work[b:b + 40], tokens, tokens)


QWEN3_CODER = _xml_call("<tool_call>", "</tool_call>")
SEED_OSS = _xml_call("<seed:tool_call>", "</seed:tool_call>")
# GLM 4.5-4.7's: <tool_call>NAME<arg_key>k</arg_key><arg_value>v</arg_value>...</tool_call>,
# every value closed, none holding a tag of the format
_GLM_VALUE = r"[^<]*(?:<(?!/?(?:arg_key|arg_value|tool_call|tool_sep))[^<]*)*"
GLM = (regex.compile(r"<tool_call>[ \t]*(?:[^\W\d]|@)"),
        re.compile(r"<tool_call>[ \t]*" + NAME_PATTERN + r"[ \t]*\n?[ \t]*(?:<tool_sep>)?[ \t\n\r]*"
                   r"(?:<arg_key>[^<]{0,256}</arg_key>[ \t\n\r]*<arg_value>" + _GLM_VALUE +
                   r"</arg_value>[ \t\n\r]*)*</tool_call>"), "</tool_call>")
# LongCat writes GLM's form with its tags prefixed
FAMILIES["<longcat_tool_call>"] = Family(("</longcat_tool_call>",), regular=re.compile(
    glm_tags(GLM[1].pattern, "longcat_")))


class Literals:
    """What the scan's token pattern can match at a character, for one
    format (and which tags it reads): every literal (lower case: the family markers are matched as
    written, the others in any case; waiting on either is safe), their
    proper prefixes (a text that may still become one), the reasoning
    openers with their closers, and the wrappers a call's span takes in
    (``<seed:tool_call>`` around ``<function=...>``)."""

    def __init__(self, kinds: frozenset[str], markers: Iterable[str]) -> None:
        from ._formats._context import (
            ROLE_STARTS,
            ROLE_TOKENS,
            SHOWN_TAGS,
            STRING_QUOTES,
            TURN_ENDS,
            TURN_OPENERS,
        )
        from ._formats._tokens import ANALYSIS, BARE_CLOSERS, REASONING, THINKING_CLOSER

        self.hermes = "hermes" in kinds  # <tool_call> tags are read (else one ends the live reading)
        # the XML-style calls in tags this format reads: (how one starts, a regular one, its closer)
        self.tagged = ([QWEN3_CODER, SEED_OSS] if "xml_function" in kinds else []) + \
            ([GLM] if "glm" in kinds else [])

        # (harmony's analysis is a message its reader reads, where harmony is read: as the scan does)
        self.openers = {o.lower(): c for o, c in REASONING.items()
                        if not ("harmony" in kinds and o == ANALYSIS)}
        # the families read whole at their closer, and the tokens around their calls
        self.families = {m.lower(): (m, FAMILIES[m]) for m in markers if m in FAMILIES}
        self.wrappers = {w.lower(): (w, opens) for w, (m, opens) in WRAPPERS.items() if m in markers}
        words = {*self.openers, *(c.lower() for c in BARE_CLOSERS), "<tool_response>", "<!--", "<tool_call",
                 *(t.lower() for t in (*TURN_ENDS, *TURN_OPENERS, *ROLE_TOKENS, *ROLE_STARTS, *SHOWN_TAGS)),
                 "<tool_call>", *(m.lower() for m in markers), *(w.lower() for w in CALL_WRAPPERS),
                 *self.wrappers, *STRING_QUOTES}  # (three quotes: a string in code, which the end decides)
        self.prefixes = frozenset(w[:k] for w in words for k in range(1, len(w)))
        self.longest = max(len(w) for w in words)
        # the longest literal a (lower-cased) text starts with: one match tries them all
        self.word_at = re.compile("|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))).match
        self.closers = THINKING_CLOSER  # what ends the reasoning the prompt opened (the scan's own)
        # their last characters, in either case (what can end that reasoning)
        self.closer_ends = "".join(sorted({e for c in REASONING.values()
                                           for e in (c[-1].lower(), c[-1].upper())}))

    def longest_at(self, low: str) -> str | None:
        """The longest literal ``low`` starts with."""
        m = self.word_at(low)
        return None if m is None else m.group()


_literals: dict[frozenset[str], Literals] = {}


def literals_for(kinds: frozenset[str], markers: Iterable[str]) -> Literals:
    """The literals of a format (``markers``: its readers'), made once per format."""
    found = _literals.get(kinds)
    if found is None:
        found = _literals[kinds] = Literals(kinds, markers)
    return found
