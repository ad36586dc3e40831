"""The scan's token pattern: one regular expression for every marker, fence, code
span, reasoning block, turn end and line that may open a value, and where each of
its alternatives can begin (the marker kernel's start table), made once per format.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, NamedTuple

from ..._kernels import markers
from ._context import ALPACA_HEAD, ASSISTANT_HEAD, HY3_SUFFIX, ROLE_HEAD, TURN_ENDS, TURN_OPENERS

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
    "<longcat_think>": "</longcat_think>",  # (LongCat's)
}
ANALYSIS = "<|channel|>analysis"  # (read as the harmony message it is where harmony is read)
# A closer met by the scan has no opener before it (an opener's block is skipped whole, up
# to its closer): the prompt opened the reasoning, so everything before it was reasoning.
# (not the closers that end other messages or blocks too: harmony's <|end|>, Inkling's <|end_message|>)
BARE_CLOSERS = [c for o, c in REASONING.items() if c not in ("<|end|>", "<channel|>", "<|end_message|>")]
# any of them where it stands (the first ends a reasoning block the prompt opened), in either case,
# ASCII's only (the token pattern's, and the live reading's, which lower-cases the text: "<THİNK>"
# is none)
BARE_CLOSER = re.compile("|".join(re.escape(c) for c in BARE_CLOSERS), re.I | re.A)
# what ends the reasoning the prompt opened, when the caller says it did (thinking=True): any
# reasoning closer, those shared with other blocks too (harmony's <|end|>, Inkling's <|end_message|>)
THINKING_CLOSER = re.compile("|".join(re.escape(c) for c in dict.fromkeys(REASONING.values())), re.I | re.A)
# any reasoning marker, opener or closer: a reading that covers one would move where reasoning is
REASONING_MARK = re.compile("|".join(re.escape(m) for m in dict.fromkeys([*REASONING, *REASONING.values()])),
                            re.I | re.A)


def reasoning_end(text: str, start: int = 0) -> int:
    """Where the reasoning the prompt opened ends: past the first closer from
    ``start`` (read literally: reasoning is not Markdown), or -1 when it has not."""
    m = THINKING_CLOSER.search(text, start)
    return -1 if m is None else m.end()


def reply_text(text: str, start: int = 0) -> str:
    """The text after the reasoning the prompt opened (from ``start``): none when it never closes."""
    end = reasoning_end(text, start)
    return "" if end < 0 else text[end:]


# Kimi K2 ends its reasoning implicitly where its tool section begins
# (or its first call's token, the section's opener left out, as Kimi-K2-Thinking may write it)
IMPLICIT_ENDS = ("<|tool_calls_section_begin|>", "<|tool_call_begin|>")


class _Alt(NamedTuple):
    """One alternative of the token pattern and what it can begin with: its first
    characters, and the two characters it begins with when that is known (None: any
    second character); ``fold``: the pattern's case-insensitivity applies to them."""

    src: str
    firsts: str
    pairs: frozenset[str] | None = None
    fold: bool = False
    name: str = ""
    words: tuple[str, ...] = ()  # (an alternative of words: each is tried where it may begin)

    def sub(self, pair: str) -> str | None:
        """The alternative where the text begins with ``pair``: itself, or of its words only
        those that may begin there (None: it cannot match there)."""
        if not _may_begin(self, pair):
            return None
        if not self.words:
            return self.src
        return _words_src(self.name, [w for w in self.words if _begins(w, pair, self.fold)], self.fold)


def _words_src(name: str, words: list[str], fold: bool) -> str:
    """(in either case, ASCII's only: the live reading lower-cases the text, and "İ" lowered is two
    characters; "<THİNK>" is no opener)"""
    alts = "|".join(re.escape(w) for w in words)
    return f"(?P<{name}>(?a:{alts}))" if fold else f"(?P<{name}>(?-i:{alts}))"


def _words(name: str, words: Iterable[str], fold: bool) -> _Alt:
    """The alternative ``name`` matching one of ``words``, in their order (case-insensitive
    when ``fold``)."""
    words = tuple(words)
    return _Alt(_words_src(name, list(words), fold), "".join(w[0] for w in words),
                frozenset(w[:2] for w in words), fold, name, words)


ROLE_PAIRS = frozenset({"<|", "<s", "<\uff5c", "]~"})
_ALTS_ETC = (
    # (what follows the language on its line starts with a blank after it: no two quantifiers may
    # take the same characters, so a long word the line does not end with is tried once, not in
    # every split of it)
    _Alt(r"(?P<fence>^[ \t]*(?P<ticks>`{3,}|~{3,})[ \t]*(?P<lang>[^\s`]*)"
         r"(?:(?<![ \t`])[ \t][^\n`]*)?\r?(?:\n|\Z))", " \t`~"),
    _Alt(r"(?P<tick>`+)", "`"),
    _words("think", sorted(REASONING, key=len, reverse=True), True),
    _words("close", BARE_CLOSERS, True),
    _words("resp", ["<tool_response>"], True),
    _words("comment", ["<!--"], True),
    # (HTML's <code> and <pre> too)
    _Alt(r"(?P<example>(?a:<(?:examples?|code|pre)>))", "<", frozenset({"<e", "<c", "<p"}), True),
    # (every role head begins with one of ROLE_PAIRS: tests/test_token_search.py checks; the
    # instruction head opens its line, after a few blanks)
    _Alt("(?P<role>(?-i:" + "|".join((ROLE_HEAD.pattern, ASSISTANT_HEAD.pattern, ALPACA_HEAD)) + "))",
         "<# \t]",
         ROLE_PAIRS | {"##", " #", "\t#", "  ", " \t", "\t ", "\t\t"}),
    _words("eot", TURN_ENDS, False),
    _words("turn", TURN_OPENERS, False),
)
_FENCE_ETC = "|".join(a.src for a in _ALTS_ETC)
_TAG = _Alt(r"(?P<tag><tool_call(?=[\s>/]|\Z))", "<", frozenset({"<t"}), True)
_JSON = r"(?P<json>^[ \t]*NOT_MARKER[\[{])"
# llama3_json forced: a {"name": ...} object anywhere, prose before and after (as its parsers read it)
_JSON_INLINE = r"(?P<json>^[ \t]*NOT_MARKER[\[{]|\{(?=\s*\"name\"\s*:))"
# (its first call on the next line too; a name's underscores Markdown-escaped, solve\_it)
# (the name written as a string too: ['f'(a=1)], see _pythonic._QUOTED_HEAD)
_PY = _Alt(r"(?P<py>^[ \t]*\[(?=[ \t]*(?:\r?\n[ \t]*)?(?:'_N'|\"_N\"|_N)[ \t]*\())".replace(
    "_N", r"[^\W\d](?:[\w.-]|\\_)*"), " \t[")
# the format named: a list of calls inside a sentence too (not an index, arr[idx(k=1)], nor a
# list inside a string)
_PY_INLINE = _Alt(_PY.src.replace("^[ \\t]*", "(?<![A-Za-z0-9_)\\]\"'])", 1), "[")
_ARROW = _Alt(r"(?P<arrow>^>>>(?=[ \t]*[A-Za-z_]))", ">", frozenset({">>"}))

# what an anchored alternative starts with, after a line's spaces and tabs
LINE_FIRSTS = frozenset("`~[{>#")
LINE_OPENERS = LINE_FIRSTS | frozenset(" \t\n")  # what a line that may hold one starts with


class TokenSearch:
    """The scan's token pattern, and where its alternatives can begin: a line
    start (the anchored ones: fences, JSON and pythonic lines, ``>>>``), a
    character of ``firsts`` (``<``, ``[``, a backtick, ...), or one of
    ``words``, the markers that begin with a letter (``Action:``,
    ``functools``). A search of the whole pattern tries its hundred
    alternatives at every character of the text (~0.2 us each: 7 ms for 30 KB
    of prose); ``Scanner.next_token`` tries them only where the marker
    kernel's ``next_start`` stops, and finds the same leftmost match. There,
    ``match`` tries only the alternatives that may begin with the two
    characters at hand, in the pattern's order (the first that matches is the
    whole pattern's match): a dozen at a ``<`` instead of a hundred."""

    def __init__(self, alts: list[_Alt], firsts: str, words: tuple[str, ...]) -> None:
        self.alts = alts
        self.pattern = re.compile("|".join(a.src for a in alts), re.M | re.I)
        self.whole = self.pattern.match
        # a line break counts only where an anchored alternative may begin after it (past a
        # run of blank lines, the next character is one they start with: _anchored reads it)
        self.starts = _start_table(firsts, "".join(sorted(LINE_FIRSTS)), words)
        # two characters -> the match of the alternatives that may begin with them (None: none
        # may); the patterns made once for each set of alternatives
        self.by_pair: dict[str, Any] = {}
        self.by_source: dict[str, Any] = {}
        # the second characters the alternatives are told apart by; any other one beyond
        # ASCII picks what "\uffff" picks (a text of ten thousand such pairs is not a
        # thousand reckonings)
        self.seconds = frozenset(q[1] for a in alts if a.pairs for q in a.pairs if len(q) > 1) | {
            w[1] for a in alts for w in a.words if len(w) > 1}

    def match(self, text: str, p: int, limit: int) -> re.Match[str] | None:
        """``pattern.match(text, p, limit)``, trying only the alternatives that may begin there."""
        if p + 2 > limit:
            return self.whole(text, p, limit)
        sub = self.by_pair.get(text[p:p + 2], UNSEEN)
        if sub is UNSEEN:
            sub = self.matcher(text[p:p + 2])
        return None if sub is None else sub(text, p, limit)

    def matcher(self, pair: str) -> Any:
        """The match of the alternatives (and of their words) that may begin with ``pair``, in
        the pattern's order (None: none may), made once for each set of them."""
        like = pair if pair[1].isascii() or pair[1] in self.seconds else pair[0] + "\uffff"
        found = self.by_pair.get(like, UNSEEN)
        if found is UNSEEN:
            source = "|".join(sub for sub in (a.sub(like) for a in self.alts) if sub is not None)
            found = self.by_source.get(source, UNSEEN)
            if found is UNSEEN:
                found = self.by_source[source] = re.compile(source, re.M | re.I).match if source else None
            self.by_pair[like] = found
        if len(self.by_pair) < _PAIRS_KEPT:  # (a text of many odd pairs is not remembered whole)
            self.by_pair[pair] = found
        return found


UNSEEN = object()
_PAIRS_KEPT = 4096


def _same_char(x: str, y: str, fold: bool) -> bool:
    """The text's ``x`` may match the pattern's ``y``; with ``fold``, as re.IGNORECASE
    matches (a letter's other case; a non-ASCII letter may fold to an ASCII one,
    the long s to "s", the Kelvin sign to "k": taken as may)."""
    return x == y or (fold and y.isalpha() and (x.lower() == y.lower() or not x.isascii() or not y.isascii()))


def _begins(word: str, pair: str, fold: bool) -> bool:
    """``word`` (its first two characters) may begin where the text begins with ``pair``."""
    return _same_char(pair[0], word[0], fold) and (len(word) < 2 or _same_char(pair[1], word[1], fold))


def _may_begin(alt: _Alt, pair: str) -> bool:
    """The alternative may match where the text begins with the two characters ``pair``."""
    if not any(_same_char(pair[0], f, alt.fold) for f in alt.firsts):
        return False
    return alt.pairs is None or any(_begins(q, pair, alt.fold) for q in alt.pairs)


BLANK_RUN = re.compile(r"[ \t\n]*")


_patterns: dict[tuple[frozenset[str], tuple[str, ...]], TokenSearch] = {}


def token_pattern(kinds: frozenset[str], markers: tuple[str, ...]) -> TokenSearch:
    key = (kinds, markers)  # the readers' cache keeps the result per kinds: this runs once per format
    pat = _patterns.get(key)
    if pat is None:
        alts = list(_ALTS_ETC)
        # where an unanchored alternative can start: a backtick, ``<tool_response>``, MiniMax's
        # role tokens, the reasoning markers in either case, the families' markers as written
        firsts = "`<]" + "".join(w[0] + w[0].swapcase() for w in (*REASONING, *BARE_CLOSERS))
        words = tuple(m for m in markers if m[0].isalpha())
        if kinds & {"hermes", "glm"}:
            alts.append(_TAG)
        if markers:
            alts.append(_words("fam", sorted(markers, key=len, reverse=True), False))
            firsts += "".join(m[0] for m in markers if not m[0].isalpha())
        if "arrow" in kinds:
            alts.append(_ARROW)
        if "pythonic_inline" in kinds:
            alts.append(_PY_INLINE)
            firsts += "["
        elif "pythonic" in kinds:
            alts.append(_PY)
        # a line that opens with a marker beginning with a bracket ("  [TOOL_CALLS]...") is the
        # marker's, not a JSON value's
        bracketed = [w for w in (*markers, *REASONING, *BARE_CLOSERS) if w[0] in "[{"]
        not_marker = "(?!" + "|".join(re.escape(w) for w in bracketed) + ")" if bracketed else ""
        if "json_inline" in kinds:
            alts.append(_Alt(_JSON_INLINE.replace("NOT_MARKER", not_marker), " \t[{"))
            firsts += "{"
        elif "json" in kinds:
            alts.append(_Alt(_JSON.replace("NOT_MARKER", not_marker), " \t[{"))
        assert not any(c.isalpha() for c in firsts)
        pat = _patterns[key] = TokenSearch(alts, firsts, words)
    return pat
