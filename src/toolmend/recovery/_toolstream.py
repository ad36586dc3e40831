"""Tool calls found in a streamed model message, as events.

``ToolCallStream(format=None, tools=None)`` takes the message as it arrives
(``feed(delta)``) and answers with events in the shape of OpenAI's streamed
``delta.content`` / ``delta.tool_calls``:

    TextDelta(text)                      text to show the user
    CallStarted(index, id, name)         a call begins (``delta.tool_calls[i]`` with its name)
    ArgsDelta(index, arguments)          a fragment of that call's arguments text
    CallFinished(index, call)            the call whole: the ``ToolCall`` parse_tool_calls gives

``close()`` ends the message and returns the last events; ``finish()`` returns
the calls, exactly the list ``parse_tool_calls`` gives for the whole text.

With ``thinking`` given (True or False), the message is read live, and a
``<tool_call>`` in the everyday JSON shape is reported while it arrives: see
``_toolstream_live``. What follows is the reading with ``thinking=None``.

What is shown and what is held. Text is shown while it cannot be part of a
call: up to the first character that could begin a marker, a call body, a
fence, a reasoning block or a JSON or pythonic value (``<``, ``[``, ``{``,
a backtick, ``~``, ``>``, ``\u25c1``, ``\u273f``, or the start of ``Action:``,
``functools``, ``function call<|role_sep|>``; with ``format="functionary"``,
whose message may open with a bare call name, the opening name is held until
the next line shows whether a ``{`` follows). A tail that could still grow
into such a marker (text ending in ``functo``) is held until it is whole or
proves to be prose. From the first such character on, the rest of the message
is held: the formats differ in where a call ends and whether what follows is
still part of it (a section closer, a second call, a ``</think>`` that turns
everything before it into reasoning), so nothing more is shown before the
message ends. At ``close()`` the whole text is read once by
``parse_tool_calls``; when it holds no call, the held text is shown (nothing
is lost); when it holds calls, each comes as ``CallStarted``, ``ArgsDelta``
(its ``raw_args``) and ``CallFinished``, in order, with the model's words
around them shown in their places and their markup never (``_prose.prose_around``;
the whole message stays in ``text``).

The reasoning rule. A call is never reported finished before the end of the
message: a later bare ``</think>`` makes everything before it reasoning, a
cut call is never ok, and a call finished early could be contradicted by
what follows. So no event is ever contradicted by ``finish()``: the calls
events are those of ``finish()``, one for one. Text shown early can turn out
to be reasoning (a ``</think>`` later in the message); it is never part of a
call.

The cost is linear in the text: each delta is scanned once (a regular
expression over the new text and the few characters held from before), and
the whole text is parsed once, at the end.
"""

from __future__ import annotations

import re
from typing import Any

from ..errors import ToolmendError
from ._formats import FORMATS, _readers, kinds_of
from ._formats._prose import prose_around
from ._formats._reply import reply_shown
from ._formats._schema import read_tools
from ._livefamilies import live_kinds
from ._streamevents import (
    ArgsDelta,
    CallFinished,
    CallStarted,
    StreamEvent,
    TextDelta,
    closing_events,
    shown,
    text_delta,
)
from ._toolcalls import ToolCall, calls_from, check_thinking
from ._toolstream_live import LiveReading
from ._triggers import TRIGGER, opens_prefilled, opens_with_tool, partial_tail, reads_prefilled

__all__ = ["ToolCallStream", "TextDelta", "CallStarted", "ArgsDelta", "CallFinished", "StreamEvent"]



# Functionary v3.2 (forced): the message may open with a call's bare name, a newline and its "{"
# ([ \t\n]*[A-Za-z_][\w.-]{0,127}[ \t]*\n[ \t]*\{), read a delta at a time (see _head_read)
_TABS = re.compile(r"[ \t]*")
# (by state: 1 is the name; a carriage return may stand before the name's line break: 4 is after it)
_HEAD_BLANKS = (re.compile(r"[ \t\r\n]*"), None, _TABS, _TABS, re.compile(""))
_NAME_RUN = re.compile(r"[\w.-]*")
_NAME_MAX = 128


def _opens_with_name(format: str) -> bool:
    return "name_head" in FORMATS.get(format, frozenset())


class ToolCallStream:
    """The tool calls of a model message that arrives in pieces (see the module's text).

    ``format``, ``tools`` and ``thinking`` are those of :func:`parse_tool_calls`.
    ``feed(delta)`` returns the events the delta makes certain; ``close()`` the
    last ones; ``finish()`` the calls. ``text`` is everything fed so far. With
    ``thinking`` given (True or False), calls are reported as they arrive (the
    live reading, ``_toolstream_live``); with None, at the end."""

    # the state a stream starts in: class values, which an instance shadows as they change
    # (a stream is made per message: this keeps making one cheap)
    _live: LiveReading | None = None
    _pending = ""  # fed, not shown, not yet known to be held (a partial word marker)
    _held = False  # a trigger was met: the rest waits for the end
    _shown = 0  # characters shown as text
    _calls: list[ToolCall] | None = None
    _head = False  # the message may open with a bare call name: held until that is decided
    _head_state = 0  # where the text so far stands in that name's head (see _head_read)
    _head_name = 0  # the name's characters read so far
    _tool_head: frozenset[str] | None = None  # the message may open with GLM-4's call of one of these
    _opening: frozenset[str] | None = None  # the message may open with a call whose opener the prompt
    # held (a format of these kinds reads one: opens_prefilled): held until that is decided

    def __init__(self, format: str | None = None, tools: Any = None, thinking: bool | None = None) -> None:
        # an unknown format or a wrong thinking is refused now, not at the end
        kinds = kinds_of(format)
        check_thinking(thinking, "ToolCallStream")
        self._known: frozenset[str] | None = None  # the tools' names (None: no tools given)
        if tools is not None:  # tools that are no tool definitions are refused now too
            from ._toolschema import unwrap_response

            self._known = frozenset(read_tools(unwrap_response(tools)).schemas)
        self._format, self._tools, self._thinking = format, tools, thinking
        self._parts: list[str] = []
        if thinking is not None and live_kinds(kinds):
            # the live reading takes the deltas itself (its feed is this stream's until it
            # holds); what it does not read (a held rest, a refusal) comes back to feed here
            live = self._live = LiveReading(format, tools, thinking, kinds, _readers(kinds)[0], self)
            self.feed = live.feed  # type: ignore[method-assign]
        elif format is not None and _opens_with_name(format):
            self._head = True
        else:
            if reads_prefilled(kinds):
                self._opening = kinds
            if format is None and self._known:
                self._tool_head = self._known  # (GLM-4's call known by a tool's name)

    @property
    def text(self) -> str:
        """Every character fed so far."""
        if len(self._parts) > 1:
            self._parts[:] = ["".join(self._parts)]
        return self._parts[0] if self._parts else ""

    def feed(self, delta: str) -> list[StreamEvent]:
        """Take the next piece of the message; the text it makes safe to show."""
        if self._calls is None and type(delta) is str:
            if self._held:  # the common case, held
                self._parts.append(delta)
                return []
            if self._live is not None and delta:
                return self._live.feed(delta)  # (it appends the delta, and says when it holds)
        if not isinstance(delta, str):
            raise TypeError(f"ToolCallStream.feed: the delta must be str, not {type(delta).__name__}")
        if type(delta) is not str:  # a str subclass: its text, read as any delta is
            return self.feed(str(delta))
        if self._calls is not None:
            raise ToolmendError("ToolCallStream.feed: the stream is closed (close() or finish() was called)")
        if not delta:
            return []
        self._parts.append(delta)
        if self._held:
            return []
        if self._head or self._opening is not None or self._tool_head is not None:
            opens = self._opens(delta)
            if opens is None:
                return []  # (the text so far, all held, is in _parts)
            self._head, self._opening, self._tool_head = False, None, None
            if opens:
                self._held = True
                return []
            text = self.text  # no head: everything so far, nothing of it shown yet
        else:
            text = self._pending + delta
        m = TRIGGER.search(text)
        keep = partial_tail(text)
        if m is not None and len(text) - keep >= m.start():  # (a word marker may start before it)
            self._held = True
            self._pending = ""
            return self._show(text[:m.start()])
        self._pending = text[len(text) - keep:] if keep else ""
        return self._show(text[:len(text) - keep])

    def _opens(self, delta: str) -> bool | None:
        """Whether the message opens with a call that no marker begins (a bare name,
        an opener the prompt held, a tool's name): None while the text so far may
        still become one."""
        if self._head:  # (a format opening with a name opens with no other such call)
            return self._head_read(delta)
        text = self.text
        found = (opens_prefilled(text, self._opening) if self._opening is not None else False,
                 opens_with_tool(text, self._tool_head) if self._tool_head is not None else False)
        return True if True in found else None if None in found else False

    def _head_read(self, delta: str) -> bool | None:
        """Read ``delta`` into the bare call name the message may open with
        (blanks, a name, blanks, a line break, blanks, then the arguments'
        "{"; a carriage return may stand before the line break, as the scan
        reads it): True once the "{" is read, None while the text may still become
        that, False when it cannot. Where the text so far stands in that is
        kept, so each delta is read once (the blanks may run long)."""
        i, n = 0, len(delta)
        state, name = self._head_state, self._head_name
        while i < n:
            if state != 1:  # blanks: before the name (0), after it (2), on the next line (3)
                i = _HEAD_BLANKS[state].match(delta, i).end()  # type: ignore[union-attr]
                if i >= n:
                    break
                c = delta[i]
                if state == 3:
                    return c == "{"
                if state == 2 or state == 4:
                    if c == "\r" and state == 2:
                        state, i = 4, i + 1
                        continue
                    if c != "\n":
                        return False
                    state, i = 3, i + 1
                elif c.isascii() and (c.isalpha() or c == "_"):
                    state, name, i = 1, 1, i + 1
                else:
                    return False
                continue
            end = _NAME_RUN.match(delta, i).end()  # type: ignore[union-attr]
            name += end - i
            if name > _NAME_MAX:
                return False
            i = end
            if i < n:
                if delta[i] == "\n":
                    state, i = 3, i + 1
                elif delta[i] in " \t\r":
                    state = 2  # (a carriage return is read there)
                else:
                    return False
        self._head_state, self._head_name = state, name
        return None

    def _live_held(self) -> None:
        """The live reading holds: the rest waits for close(), appended by ``feed``
        (a caller may keep the live feed bound: it still works)."""
        self._held = True
        self.feed = self._feed_held  # type: ignore[method-assign]

    def _feed_held(self, delta: str) -> list[StreamEvent]:
        """``feed`` once the rest waits for close(): the delta kept."""
        if type(delta) is str and self._calls is None:
            self._parts.append(delta)
            return []
        return ToolCallStream.feed(self, delta)  # a refusal

    def _show(self, text: str) -> list[StreamEvent]:
        if not text:
            return []
        self._shown += len(text)
        return [text_delta(text)]

    def close(self) -> list[StreamEvent]:
        """End the message: the last events (held text, or the calls, in order)."""
        if self._calls is not None:
            return []
        whole = self.text
        if self._live is not None:
            last, self._calls = self._live.close(whole)
            self.__dict__.pop("feed", None)
            return last
        hidden: list[tuple[int, int]] = []  # (where the reasoning stands: never shown)
        calls = self._calls = calls_from(whole, self._format, self._tools, self._thinking, 0, False, hidden)
        if not calls:  # (the reasoning the scan reads is never shown)
            pieces = reply_shown(whole, self._shown, self._format, self._thinking)
            return [event for piece in pieces for event in self._show(piece)]
        # (the prose around the calls shown in its place; their markup never)
        events = closing_events(whole, calls, 0, None,
                                lambda calls: prose_around(whole, self._shown, calls, 0, hidden))
        self._shown += shown(events)
        return events

    def finish(self) -> list[ToolCall]:
        """The calls of the whole message, as ``parse_tool_calls`` gives them
        (closing the stream first if ``close()`` was not called)."""
        if self._calls is None:
            self.close()
        assert self._calls is not None
        return list(self._calls)

    @property
    def shown(self) -> int:
        """How many characters of ``text`` were shown as ``TextDelta`` so far."""
        return self._live.shown if self._live is not None else self._shown
