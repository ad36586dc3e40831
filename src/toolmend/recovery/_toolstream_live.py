"""The stream's live reading: calls reported while the message arrives.

When the caller says whether the prompt opened a reasoning block (``thinking`` True or False),
no later text can turn an earlier call into reasoning. A ``<tool_call>`` with the everyday JSON
body is reported as it comes: ``CallStarted`` once its name is read, ``ArgsDelta`` with each
piece of its arguments a strict JSON reader found valid (certain to start its ``raw_args``),
``CallFinished`` at its ``</tool_call>``, read by ``parse_tool_calls``' own reader. A regular
Qwen3-Coder, Seed-OSS, GLM or LongCat call in its tag (every value closed by its own closer, none
holding a tag of the format) and the token families' calls (Kimi K2, DeepSeek, DSML, Step-3,
MiniMax M2, harmony: ``_livefamilies``) are reported whole at their closer, once what follows
cannot change it (no parameter of its own, no next call whose opener was dropped); the tokens
around them are markup. Prose between calls is shown, and so are inline code spans; a ``<think>``
block is skipped (and harmony's analysis), and with ``thinking=True`` so is all up to a closer.

Anything else that could begin a call (another family's marker, a fence, a JSON or pythonic
line, a body in another shape, arguments no longer valid JSON, an irregular call) ends the live
reading: the rest waits for ``close()``, which reads it from the last call reported on (and shows
the words around its calls). So the calls reported are ``parse_tool_calls(text, thinking=...)``,
one for one, however split (tests/test_tool_stream.py checks it on every corpus message).
"""

from __future__ import annotations

import re
from typing import Any, Callable, Iterable

import regex  # type: ignore[import-untyped]

from .._kernels import markers as marker_kernel
from .._text import skip_blanks
from . import _streamevents
from ._formats._context import QUOTES, TURN_ENDS, shown_below
from ._formats._prose import prose_around
from ._formats._reply import reply_shown
from ._formats._xmlblock import PARAMS_AFTER
from ._guidance import shown_as_guidance
from ._livefamilies import (
    JSON_HEADS,
    QWEN3_CODER,
    SEED_OSS,
    Family,
    call_goes_on,
    first_closer,
    harmony_text,
    literals_for,
    runs_on,
    settle,
)
from ._restated import restated
from ._streamevents import CallStarted, StreamEvent, args_delta, call_events, closing_events, text_delta
from ._toolcalls import (
    _NAME,
    _PLACEHOLDER_NAME,
    NAME_PATTERN,
    ToolCall,
    calls_from,
    marker_reading,
    moved,
)
from ._triggers import PROSE_STOP, TRIGGER, opens_prefilled, opens_with_tool, partial_tail, reads_prefilled

__all__ = ["LiveReading"]

# what str.isspace() is true for (the one-parse reading skips these after the arguments)
_SPACE = r"[\t-\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"
# the head: JSON's own blanks only, which every reader of the body skips (the general
# reader, which takes a body that is not valid JSON, does not skip U+0085 or U+3000)
_HEAD = regex.compile(
    r'<tool_call>[ \t\n\r]*\{[ \t\n\r]*"name"[ \t\n\r]*:[ \t\n\r]*"(' + NAME_PATTERN + ')"'
    r'[ \t\n\r]*,[ \t\n\r]*"arguments"[ \t\n\r]*:[ \t\n\r]*\{')
_HEAD_MAX = 512  # a head longer than this is not the everyday shape
_ARGS_BATCH = 24  # characters of arguments gathered before they are read (a bracket reads at once)
_SHORT = 4096  # a message this short is read whole at a closer (see _text_from)
_CODE_MAX = 16384  # a code span or XML call still open this long is held (its text is kept whole till then)
_AFTER = regex.compile(rf"{_SPACE}*\}}{_SPACE}*</tool_call{_SPACE}*>")
_HERMES_STOPS = ("</tool_call", "<tool_call", "<|im_start|>")  # a tag reader ends the body at these
_TURN_STOPS = tuple(t.lower() for t in TURN_ENDS if t[0] == "<")  # (and a call not closed, at these)
_BLANK_LINE = re.compile(r"\n[ \t]*\n")
_NOT_BLANK = r"^\s"  # (for _wait: any character str.isspace() is false for)
_wakes: dict[str, Callable[[str], Any]] = {}  # the characters a state waits for -> their search
# closers waited for -> their search, and their last characters
_closer_searches: dict[tuple[str, ...], tuple[Callable[[str, int], Any], str]] = {}
_OVER = frozenset({"held", "closed"})  # the stream's own feed takes the deltas
_prose_stop = PROSE_STOP.search
# a token that ends the model's turn (in a call read live, it holds the reading)
_ANY_TURN_END = re.compile("|".join(re.escape(t) for t in TURN_ENDS))


class LiveReading:
    """The live reading of one message (see the module): ``feed`` the text newly added, ``close``."""

    # The reading's state at its start: class values, which an instance shadows as it
    # changes them (a stream is made per message: this keeps making one cheap).
    state = "text"  # what the text at ``at`` is read as (see _STEPS; "reasoning" with thinking=True)
    work = ""  # text not yet read, from ``at``
    at = 0
    line_blank = True  # only spaces and tabs since the last line break (or the start)
    searched = 0  # how far into ``work`` a search of the current state has looked
    lead = 0  # where the message's first character other than a blank may be (thinking=True)
    start = 0  # where the calls not yet reported begin to be read
    floor = 0  # where the words that may frame a call begin (after a call, after reasoning: the scan's)
    closer: re.Pattern[str] | None = None  # the open <think> block's closer
    closer_ends = ""  # its last character, in either case
    # what the state waits for (see _wait): characters, most, closers, how far back they may start
    wake: tuple[Callable[[str], Any], int, Callable[[str, int], Any] | None, int] | None = None
    ticks = 0  # the open inline code span's backticks
    # the call being read: its tag's start, name, call id (Kimi's functions.NAME:IDX), what
    # ends it after its arguments, their reader, the text passed on and not yet
    regular, end = QWEN3_CODER[1:]  # (an XML call's regular shape, and its closer)
    tag_start, name = 0, ""
    ident: str | None = None
    after: Any = _AFTER
    args: marker_kernel.JsonPrefix | None = None
    args_held: list[str]  # read valid, not yet passed on (trailing blanks): set per call by _start_args
    open_call, shown = False, 0  # (a CallStarted was sent for a call not yet finished; characters shown)
    # a family's call being read whole (see _livefamilies): its marker and family
    marker = ""
    family: Family | None = None
    section = 0  # how many family wrappers are open (Kimi's section, ...): blanks are markup
    # where markup not shown began (a wrapper, no call read in it yet), or -1: what
    # follows it must be a call, else the rest waits for close(), which shows it all
    quiet = -1
    final = False  # the message ended: what follows a call's closer is whole (see close)
    # the whole text's reading from a point: (the text's end, its calls, the first not passed)
    read_ahead: tuple[int, list[ToolCall], int] | None = None

    def __init__(self, format: str | None, tools: Any, thinking: bool, kinds: frozenset[str],
                 markers: Iterable[str], stream: Any) -> None:
        self.format, self.tools, self.thinking, self.kinds = format, tools, thinking, kinds
        # the tools' names: a call to any other is not ok, so it is not started live
        self.known: frozenset[str] | None = stream._known
        self.lit = literals_for(kinds, markers)
        if thinking:
            self.state = "reasoning"
        elif reads_prefilled(kinds):
            self.state = "opening"
        self.committed: list[ToolCall] = []
        self.args_sent: list[str] = []  # the arguments' text passed on
        # the ToolCallStream read for: the deltas are appended to its ``_parts``; its ``text``
        # is the whole text so far; its class ``feed`` takes what this one does not read (the
        # rest of a held message, a refusal); ``_live_held()`` tells it the rest waits for close()
        self.stream, self.add = stream, stream._parts.append

    # -- feeding -------------------------------------------------------------

    def feed(self, delta: str) -> list[StreamEvent]:
        """Read ``delta``, the text newly added (the stream's ``feed`` while
        the reading goes on: one call a delta, the common cases first)."""
        wake = self.wake
        if wake is not None:  # the state waits (see _wait): most deltas only add to work
            if type(delta) is not str or not delta:
                return self._refer(delta)
            self.add(delta)
            work = self.work = self.work + delta
            n = len(work)
            if n <= wake[1] and (wake[0](delta) is None or (
                    wake[2] is not None and wake[2](work, n - len(delta) - wake[3]) is None)):
                return []
            self.wake = None
            return self._run([])
        state = self.state
        if state == "held" and type(delta) is str:  # the rest waits for close(): kept
            self.add(delta)  # (a caller that bound this feed keeps it after the hold)
            return []
        if type(delta) is not str or not delta or state in _OVER:
            return self._refer(delta)
        self.add(delta)
        if state == "text" and not self.work and _prose_stop(delta) is None:
            return [self._shown_text(delta)]  # the common case in text: prose, shown as it comes
        self.work = self.work + delta if self.work else delta
        return self._run([])

    def _text_from(self, p: int) -> tuple[str, int]:
        """The text from just before ``p`` (one character, where there is one: what the scan
        reads at a line's start) to its end, and where it begins: a reading at a closer reads
        the call's text, not the whole message again (a message of many calls stays linear).
        Joined from the stream's deltas, the last ones back to ``p``."""
        parts = self.stream._parts
        base = self.at + len(self.work)  # (the text's length so far)
        if base <= _SHORT:  # a short message: read whole (joined once, kept joined)
            return self.stream.text, 0
        k = len(parts)
        while k and base >= p:
            k -= 1
            base -= len(parts[k])
        return "".join(parts[k:]), base

    def _shown(self) -> bool:
        """What stands at ``at`` follows words that frame it as shown (``shown_below``)."""
        tail, base = self._text_from(max(0, self.at - 400))
        return shown_below(tail, self.at - base, max(0, self.floor - base))

    def _char_before(self) -> str:
        """The character before ``at`` (there is one)."""
        tail, base = self._text_from(self.at)
        return tail[self.at - 1 - base]

    def _refer(self, delta: Any) -> list[StreamEvent]:
        """A delta not read here (a held message's rest, a refusal), to the stream's ``feed``."""
        return type(self.stream).feed(self.stream, delta)  # type: ignore[no-any-return]

    def _run(self, events: list[StreamEvent]) -> list[StreamEvent]:
        """The states' steps on ``work`` until one waits for more text."""
        while self.work and _STEPS[self.state](self, events):
            if self.state == "held":
                break
        if self.state == "held":
            self.wake = None
            self.stream._live_held()
        return events

    def _advance(self, n: int) -> None:
        self.work = self.work[n:]
        self.at += n
        self.searched = 0

    def _show(self, events: list[StreamEvent], n: int) -> None:
        """Show the first ``n`` characters of ``work`` as text."""
        if n <= 0:
            return
        work = self.work
        self.work = work[n:] if n < len(work) else ""
        events.append(self._shown_text(work[:n] if n < len(work) else work))

    def _shown_text(self, chunk: str) -> StreamEvent:
        """``chunk``, the text at ``at`` (no longer in ``work``), shown; the reading past it."""
        nl = chunk.rfind("\n")
        if nl >= 0 or self.line_blank:  # (a line with text on it stays one)
            self.line_blank = not chunk[nl + 1:].strip(" \t")
        self.shown += len(chunk)
        self.at += len(chunk)
        self.searched = 0
        return text_delta(chunk)

    def _hold(self) -> bool:
        self.state = "held"  # (_run tells the stream)
        return False

    def _read_on(self, reported: bool = True) -> bool:
        """Done up to ``at`` (a call reported, the reasoning over): what follows is read next
        (and close() reads from there, unless nothing was ``reported``: then from where it did)."""
        self.start = self.at if reported else self.start
        self.floor, self.quiet = self.at, -1
        self.state, self.line_blank = ("section" if self.section else "text"), False
        return True

    def _wait(self, chars: str, most: int, closers: tuple[str, ...] = ()) -> bool:
        """Wait, and read again only once a delta brings one of ``chars`` (what can end the wait:
        "{" for a head...) or ``work`` passes ``most`` characters: most deltas then cost a
        concatenation. With ``closers`` (the state waits for one of them; ``chars`` "" for the
        closers' last characters), such a delta wakes the state only when one of the closers ends
        in it too. ``chars`` beginning with "^" is a regex class of those that do not end it (a run
        of blanks, of backticks: any other does)."""
        found, ends = _closer_searches.get(closers) or (None, "")
        if closers and found is None:
            found = re.compile("|".join(re.escape(c) for c in closers)).search
            ends = _closer_searches.setdefault(closers, (found, "".join(sorted({c[-1] for c in closers}))))[1]
        chars = chars or ends
        search = _wakes.get(chars)
        if search is None:
            cls = chars if chars[0] == "^" else re.escape(chars)
            search = _wakes[chars] = re.compile("[" + cls + "]").search
        self.wake = (search, most, found, max(len(c) for c in closers) - 1 if closers else 0)
        return False

    def _opening(self, events: list[StreamEvent]) -> bool:
        """The message's start, where a format's call may stand without its opener
        (the prompt held it: ``PREFILLED``): such a text waits for close(), where
        the whole text is read; any other is read as text."""
        found = (opens_prefilled(self.work, self.kinds),  # (and GLM-4's call known by a tool's name)
                 opens_with_tool(self.work, self.known) if self.format is None and self.known else False)
        if True in found:
            return self._hold()
        if None in found:
            return False  # (it may still become one)
        self.state = "text"
        return True

    def _reasoning(self, events: list[StreamEvent]) -> bool:
        """thinking=True: everything up to the first closer is reasoning (a message opening
        with a token may hold the prompt: the whole text says where its reply is)."""
        if self.at == self.lead and self.work.lstrip()[:1] in ("<", "[", "]", ""):  # (the message's start)
            if self.work.strip():
                return self._hold()
            self._advance(len(self.work))  # blanks alone: its first character is still to come
            self.lead = self.at
            return False
        m = self.lit.closers.search(self.work)
        if m is None:
            keep = min(len(self.work), self.lit.longest)  # a closer may be cut at the end
            self._advance(len(self.work) - keep)
            return self._wait(self.lit.closer_ends, _CODE_MAX)
        self._advance(m.end())
        self.state = "after_think" if self._read_on() and self.state == "text" else self.state
        return True

    def _text(self, events: list[StreamEvent]) -> bool:
        m = TRIGGER.search(self.work)
        keep = partial_tail(self.work)
        if m is None or len(self.work) - keep < m.start():  # a word marker may start before it
            self._show(events, len(self.work) - keep)
            return False
        self._show(events, m.start())
        self.state = "decide"
        return True

    def _decide(self, events: list[StreamEvent]) -> bool:
        """What the character at the start of ``work`` (one the trigger found) begins."""
        lit = self.lit
        w = self.work[:lit.longest + 1]
        low = w.lower()
        if low in lit.prefixes:
            return False  # the end of the text so far: it may still become one
        found = lit.longest_at(low)
        if found is not None and self.at and self._char_before() in QUOTES:
            return self._hold()  # a marker after a quotation mark: whether the quote closes, the end tells
        if found is not None and self.at and self._shown():
            return self._hold()  # after "For example:", under "## Example"...: shown, the whole text says
        if found is not None:
            if (w.startswith("<tool_call>") and (lit.hermes or lit.tagged)) or \
                    (w.startswith("<seed:tool_call>") and SEED_OSS in lit.tagged):
                self.state, self.searched = "head", 0
                return True
            fam = lit.families.get(found)
            if fam is not None and w.startswith(fam[0]):  # the markers are matched as written
                if w[0] == "[" and self.line_blank and self.at and self._char_before() != "\n":
                    return self._hold()  # "  [TOOL_CALLS]": a JSON line to the scan, read at the end
                self.marker, self.family = fam
                self.state, self.searched = ("jhead" if fam[0] in JSON_HEADS else "family"), 0
                return True
            wrapper = lit.wrappers.get(found)
            if wrapper is not None and w.startswith(wrapper[0]):
                if self.quiet < 0 and (wrapper[1] or not self.section):
                    self.quiet = self.at  # (a section's closer after its calls is their markup)
                self.section = self.section + 1 if wrapper[1] else max(0, self.section - 1)
                self._advance(len(found))
                self.state = "section"
                return True
        if self.quiet >= 0:
            return self._hold()  # after a wrapper, only calls are read live
        if found is not None:
            closer = lit.openers.get(found)
            if closer is None:
                return self._hold()  # another family's marker, a tool result, a closer
            self.closer = re.compile(re.escape(closer), re.I)
            self.closer_ends = closer[-1].lower() + closer[-1].upper()  # (its last character)
            self._advance(len(found))
            self.state = "think"
            return True
        c = w[0]
        if c == "`":
            run = len(self.work) - len(self.work.lstrip("`"))
            if run == len(self.work):  # the run may go on: read again once it ends
                return self._hold() if run > _CODE_MAX else self._wait("^`", _CODE_MAX)
            if self.line_blank and run >= 3:
                return self._hold()  # a fence
            self.ticks, self.state = run, "code"
            return True
        if c in "[{~>" and self.line_blank:
            return self._hold()  # a JSON or pythonic line, a fence, Functionary's >>>
        if (c == "{" and "json_inline" in self.kinds) or (c == "[" and "pythonic_inline" in self.kinds):
            return self._hold()  # (the format named reads these inside a sentence too)
        if c == "<" and w[1:2] in ("|", "\uff5c"):
            return self._hold()  # a special token (a section's wrapper, <|im_end|>): never prose
        self.state = "text"
        n = 1  # a character that begins nothing here
        if low[1:2] == low[0] and low[:2] not in lit.prefixes and lit.longest_at(low[:2]) is None:
            # a run of it ("{{{{", "<<<<"): no literal begins with two, so neither does any of
            # the run but its last character: shown at once, not a step a character
            n = max(1, len(self.work) - len(self.work.lstrip(c)) - 1)
        self._show(events, n)
        return True

    def _think(self, events: list[StreamEvent]) -> bool:
        """Inside a <think> block the model opened: reasoning up to its closer."""
        assert self.closer is not None
        m = self.closer.search(self.work)
        if m is None:
            self._advance(max(0, len(self.work) - self.lit.longest))
            return self._wait(self.closer_ends, _CODE_MAX)
        self._advance(m.end())
        self.floor = self.at  # (reasoning frames nothing after it)
        self.state, self.line_blank = "after_think", False
        return True

    def _after_think(self, events: list[StreamEvent]) -> bool:
        self._show(events, skip_blanks(self.work, 0, len(self.work)))  # blanks: no call's, shown as they come
        if not self.work:
            return False
        head = opens_with_tool(self.work, self.known) if self.format is None and self.known else False
        # (a call whose opener the model left out after its reasoning: </think>call:NAME{...})
        body = opens_prefilled(self.work, self.kinds) if reads_prefilled(self.kinds) else False
        if self.work[0] in "{[" or head or body:
            return self._hold()  # </think>{"name": ...}, get_weather(...): a call read right after it
        undecided = head is None or body is None  # (it may still become one)
        self.state = self.state if undecided else "text"
        return not undecided

    def _code(self, events: list[StreamEvent]) -> bool:
        """Inline code: to a closing run of as many backticks (the opening run alone: a blank line first)."""
        n = self.ticks
        closing = re.compile(r"(?<!`)" + "`" * n + r"(?!`)")
        work = self.work
        m = closing.search(work, max(n, self.searched))
        # a blank line may begin on the last line searched (with none there, not before it)
        nl = work.rfind("\n", n, self.searched)
        blank = _BLANK_LINE.search(work, nl if nl >= 0 else max(n, self.searched))
        if blank is not None and (m is None or blank.start() < m.start()):
            self.state = "text"
            self._show(events, n)
            return True
        if m is None or m.end() == len(work):  # not yet, or the run may go on
            if len(work) > _CODE_MAX:
                return self._hold()  # a span this long waits for close(): each delta stays cheap
            self.searched = max(n, len(work) - n - 1)
            return False
        self.state = "text"
        self._show(events, m.end())
        self.line_blank = False
        return True

    def _section(self, events: list[StreamEvent]) -> bool:
        """After a wrapper token or a call inside one: the blanks before the next token are markup;
        anything else is text again (held when no call came since the wrapper: close() shows it all)."""
        work = self.work
        k = len(work) - len(work.lstrip())
        if k == len(work):  # blanks so far: what follows decides (read again once it comes)
            return self._hold() if k > _CODE_MAX else self._wait(_NOT_BLANK, _CODE_MAX)
        if work[k] == "<":
            self._advance(k)
            self.state = "decide"
            return True
        if self.quiet >= 0:
            return self._hold()
        self.state = "text"
        return True

    def _family(self, events: list[StreamEvent]) -> bool:
        """A family's call (see _livefamilies): reported whole once its closer has arrived and
        its reader, run on the text so far, ends it there."""
        fam = self.family
        assert fam is not None
        if not fam.closers:
            return self._hold()  # no closer (Mistral's): a call in another shape waits for the end
        if fam.tags_inside and not self.searched:
            work = self.work
            k = skip_blanks(work, len(self.marker), len(work))
            if k == len(work):  # blanks so far: read again once something else comes
                return self._hold() if k > _CODE_MAX else self._wait(_NOT_BLANK, _CODE_MAX)
            if work[k] == "<":  # <tool_calls><tool_call>...: the tags inside are the calls
                if self.quiet < 0:
                    self.quiet = self.at
                self.section += 1
                self._advance(len(self.marker))
                self.state = "section"
                return True
        k, closer = first_closer(self.work, fam, max(len(self.marker), self.searched))
        if k < 0:
            if len(self.work) > _CODE_MAX:
                return self._hold()  # a call this long waits for close(): each delta stays cheap
            longest = max(len(c) for c in fam.closers)
            self.searched = max(len(self.marker), len(self.work) - longest + 1)
            return self._wait("", _CODE_MAX, fam.closers)
        shut = k + len(closer)
        if fam.regular is not None and self.work[skip_blanks(self.work, len(self.marker), k)] != "{" and \
                fam.regular.fullmatch(self.work, 0, shut) is None:
            return self._hold()  # (a value without its closer: what it holds is known at the end)
        ran_on = runs_on(self.work, shut, self.kinds, closer in PARAMS_AFTER, self.final, self.marker,
                         bool(self.section))  # (a parameter of its format after it, the next call...)
        if ran_on is not False:
            return self._hold() if ran_on or len(self.work) > _CODE_MAX else self._wait(_NOT_BLANK, _CODE_MAX)
        end = self.at + fam.call_end(self.work, k, closer, len(self.marker))
        # read as if the text went on: a call cut where the text stops (its value
        # running to the end) would end there too, and holds the character added
        tail, base = self._text_from(self.at)
        whole = tail + "\x00"
        at, stop = self.at - base, end - base  # (in the tail)
        if _ANY_TURN_END.search(whole, at, stop) is not None:
            return self._hold()  # a turn end inside: which calls are this turn's, the whole text says
        read, read_end = marker_reading(whole, at, self.marker, self.format, self.tools)
        if read is not None and read_end > stop:  # the closer is inside the call: wait for the next one
            self.searched = end - self.at  # (held for a kept one, found again each delta, and past
            held = closer in fam.kept or end - self.at > _SHORT  # _SHORT: each would read it all again)
            return self._hold() if held else self._wait("", _CODE_MAX, fam.closers)
        if not read or self.tools is None:  # the scan's calls from the marker are its reader's
            found = read or []
        else:  # and checked against the tools
            found = calls_from(whole, self.format, self.tools, self.thinking, at)
        calls = settle(found, read, read_end, stop)
        if calls and not all(c.ok and not _PLACEHOLDER_NAME.match(c.name) for c in calls):
            return self._hold()  # what is wrong with a call may change with the text after it (NAME: no call)
        if not calls:
            said = harmony_text(whole, at, stop) if fam.messages and calls == [] else None
            if said is None or self.quiet >= 0:
                return self._hold()
            channel, a, b = said
            if channel == "analysis" and closer not in ("<|end|>", "<|return|>"):
                return self._hold()  # reasoning ends at its <|end|>: until then what it holds is its own
            if channel != "analysis" and b > a:  # the final answer, or a preamble: text to show
                self._advance(a - at)
                self._show(events, b - a)
        for call in moved(calls or (), base):
            events += call_events(len(self.committed), call)
            self.committed.append(call)
        self._advance(end - self.at)
        if not calls and said is not None and said[0] == "analysis" and not self.section:
            # (the reasoning over, the reply may open with a call its opener left out: as after
            # </think>, read at the end from before the reasoning, as the scan reads it)
            self.floor, self.quiet, self.state, self.line_blank = self.at, -1, "after_think", False
            return True
        return self._read_on(bool(calls))  # (a message without calls: read again at close, as the scan does)

    def _match(self, pattern: Any) -> Any:
        """``pattern`` at the start of ``work``: the match, or None while the text so far may
        still become one (the state is held when it cannot)."""
        m = pattern.match(self.work, partial=True)
        if m is None or (m.partial and len(self.work) > _HEAD_MAX):
            self.state = "held"
            return None
        return None if m.partial else m

    def _head(self, events: list[StreamEvent]) -> bool:
        """After ``<tool_call>``: which shape the body takes."""
        work = self.work
        k = self.searched or work.find(">") + 1
        while k < len(work) and work[k] in " \t\n\r":
            k += 1
        if k >= len(work):  # the body has not begun: its blanks are not read again (``searched``)
            self.searched = k
            return self._hold() if k > _HEAD_MAX else False  # (no everyday head is that long)
        waiting = False
        # an XML call's body starts with a tag or (GLM's) a name: a "{" starts none
        for start, regular, end in (self.lit.tagged if work[k] != "{" else ()):
            x = start.match(work, partial=True)
            if x is not None and not x.partial:
                self.regular, self.end, self.state, self.searched = regular, end, "tagged", 0
                return True
            waiting = waiting or x is not None
        m = _HEAD.match(work, partial=True) if self.lit.hermes else None
        if m is None or m.partial:
            if (waiting or m is not None) and len(self.work) <= _HEAD_MAX:
                # a shape may still follow (Hermes' head ends with its arguments' "{")
                return self._wait("{", _HEAD_MAX) if work[k] == "{" else False
            return self._hold()
        name = m.group(1)
        if not _NAME.match(name) or _PLACEHOLDER_NAME.match(name) or (self.known is not None
                                                                     and name not in self.known):
            return self._hold()
        self.marker = "<tool_call>"
        self._start_args(events, m.end(), name, None, _AFTER, _HERMES_STOPS)
        return True

    def _jhead(self, events: list[StreamEvent]) -> bool:
        """A token family's call whose arguments are JSON (Kimi's, DeepSeek's): after its head they
        are streamed as a ``<tool_call>``'s are; a head in another shape is read whole at its closer."""
        waiting = False
        for jh in JSON_HEADS[self.marker]:
            m = jh.head.match(self.work, partial=True)
            if m is not None and not m.partial:
                named = jh.name_of(m)
                if named is None or (self.known is not None and named[0] not in self.known):
                    break
                self._start_args(events, m.end(), named[0], named[1], jh.after, jh.stops)
                return True
            waiting = waiting or m is not None
        else:
            if waiting and len(self.work) <= _HEAD_MAX:
                # a head may still follow (it ends with the arguments' "{", its tokens with ">")
                return self._wait("{>", _HEAD_MAX)
        self.state = "family"
        return True

    def _start_args(self, events: list[StreamEvent], head_end: int, name: str, ident: str | None,
                    after: Any, stops: tuple[str, ...]) -> None:
        """The call is started: its arguments begin at the "{" ending its head."""
        self.tag_start, self.name, self.ident, self.after = self.at, name, ident, after
        events.append(CallStarted(len(self.committed), ident, name))
        self.open_call = True
        self.args, self.args_sent, self.args_held = marker_kernel.JsonPrefix(stops + _TURN_STOPS), [], []
        self._advance(head_end - 1)
        self.state = "args"

    def _tagged(self, events: list[StreamEvent]) -> bool:
        """A Qwen3-Coder, Seed-OSS or GLM call: reported whole at its closer when regular (and
        what follows the closer is no parameter of the call's, which would make it not ok)."""
        k = self.work.find(self.end, max(0, self.searched - len(self.end)))
        if k < 0:
            self.searched = len(self.work)
            return self._hold() if len(self.work) > _CODE_MAX else self._wait("", _CODE_MAX, (self.end,))
        size = k + len(self.end)
        if not self.regular.fullmatch(self.work, 0, size):
            return self._hold()
        ran_on = runs_on(self.work, size, self.kinds, final=self.final)  # (see _family)
        if ran_on is not False:
            return self._hold() if ran_on or len(self.work) > _CODE_MAX else self._wait(_NOT_BLANK, _CODE_MAX)
        call = self._call_at(self.at)
        if call is None or call.span != (self.at, self.at + size) or not call.ok:
            return self._hold()  # (a call not ok runs to its family's closer, which may come later)
        events += call_events(len(self.committed), call)
        self.committed.append(call)
        self._advance(size)
        return self._read_on()

    def _call_at(self, p: int) -> ToolCall | None:
        """The first call the whole text's reading finds from ``p`` on, or None; the reading is
        kept for the text fed so far (a delta of many calls read again a call was quadratic)."""
        end = self.at + len(self.work)
        ahead = self.read_ahead
        if ahead is None or ahead[0] != end or (ahead[2] < len(ahead[1]) and ahead[1][ahead[2]].span[0] > p):
            tail, base = self._text_from(p)
            ahead = (end, moved(calls_from(tail, self.format, self.tools, self.thinking, p - base), base), 0)
        found, i = ahead[1], ahead[2]
        while i < len(found) and found[i].span[1] <= p:
            i += 1  # (calls passed: committed, or before p)
        self.read_ahead = (end, found, i)
        return found[i] if i < len(found) else None

    def _args(self, events: list[StreamEvent]) -> bool:
        assert self.args is not None
        read = self.args.feed(self.work)  # the reader keeps what it could not read yet
        self.at += len(self.work)
        self.work = ""
        if self.args.done:  # what follows the arguments is read here again
            self.work, self.args.buf = self.args.buf, ""
            self.at -= len(self.work)
        sent = read.rstrip()  # a cut message's arguments end at their last non-blank character
        if sent:
            trail = len(read) - len(sent)
            if self.args_held:  # the blanks held before it go with it
                sent = "".join(self.args_held) + sent
                self.args_held = []
            self.args_sent.append(sent)
            events.append(args_delta(len(self.committed), sent))
            if trail:
                self.args_held = [read[-trail:]]
        elif read:  # blanks only: kept apart, not read again with the next ones
            self.args_held.append(read)
        if self.args.failed:
            return self._hold()
        if self.args.done:
            if self.after is None:
                return self._hold()  # no closer: the call is finished at the end of the message
            self.state = "after"
            return True
        return self._wait("}]", _ARGS_BATCH)  # a few tokens at a time, and at their end

    def _after(self, events: list[StreamEvent]) -> bool:
        m = self._match(self.after)
        if m is None:
            return False if self.state == "held" else self._wait(">", _HEAD_MAX)  # (it ends with ">")
        end = self.at + m.end()
        goes_on = call_goes_on(self.work, m.end(), self.marker, bool(self.section))
        if not goes_on:  # (in a section: text that is no call after it, an entry not ok: close() reads it)
            return self._hold() if goes_on is False or len(self.work) > _CODE_MAX else \
                self._wait(_NOT_BLANK, _CODE_MAX)
        if self.tools is None:  # the scan's call there is its reader's
            tail, base = self._text_from(self.tag_start)
            found = marker_reading(tail, self.tag_start - base, self.marker, self.format, None)[0]
            call = moved(found[:1], base)[0] if found else None
        else:  # and checked against the tools
            call = self._call_at(self.tag_start)
        if call is None or not call.ok or call.span != (self.tag_start, end) or call.name != self.name or \
                call.id != self.ident or call.raw_args != "".join(self.args_sent):
            return self._hold()  # close() reads it whole and finishes it (one not ok may run on)
        events += call_events(len(self.committed), call, call.raw_args)  # (its arguments all passed on)
        self.committed.append(call)
        self.open_call = False
        self._advance(m.end())
        return self._read_on()

    # -- the end -------------------------------------------------------------

    def close(self, whole: str) -> tuple[list[StreamEvent], list[ToolCall]]:
        """The last events and every call of the message."""
        self.final = self.wake is not None and self.state in ("family", "tagged")  # (read again, whole)
        first_events = self._run([]) if self.final else []
        hidden: list[tuple[int, int]] = []  # (where the reasoning stands in the rest: never shown)
        # (all read: shown, skipped or reported; what is left, a marker cut, functo..., blanks, is no call;
        # a bare call may repeat one reported, or be shown after the model says it cannot call)
        rest = [] if self.state == "text" or (self.state == "section" and not self.work.strip()) else \
            calls_from(whole, self.format, self.tools, self.thinking, self.start, bool(self.committed),
                       hidden)
        calls = shown_as_guidance(whole, restated(whole, self.committed + rest))
        first = len(self.committed)
        started = (self.tag_start, self.name, self.ident, "".join(self.args_sent)) if self.open_call else None
        a, words = self.quiet if self.quiet >= 0 else self.at, self.state not in ("reasoning", "think")
        last = closing_events(whole, calls, first, started,  # (the words around them too)
                              (lambda calls: prose_around(whole, a, calls, first, hidden)) if words else None)
        if len(calls) == first and not self.open_call and words:  # (held at the start: reasoning is no text)
            last += map(text_delta, reply_shown(whole, a, self.format, self.thinking, bool(self.committed)))
        self.shown += _streamevents.shown(last)
        self.state, self.wake = "closed", None  # (a feed kept bound refuses what follows)
        return first_events + last, calls


# what each state reads (``feed`` runs them until one waits for more text)
_STEPS: dict[str, Callable[[LiveReading, list[StreamEvent]], bool]] = {
    state: getattr(LiveReading, "_" + state) for state in (
        "opening", "reasoning", "text", "decide", "think", "after_think", "code", "head", "args", "after",
        "tagged", "section", "family", "jhead")}
