"""The events of a streamed message (``ToolCallStream``), in the shape of
OpenAI's streamed ``delta.content`` / ``delta.tool_calls``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Union

from ._toolcalls import ToolCall

__all__ = ["TextDelta", "CallStarted", "ArgsDelta", "CallFinished", "StreamEvent", "call_events",
           "text_delta", "args_delta", "closing_events", "shown", "Prose"]


@dataclass(frozen=True)
class TextDelta:
    """Text to show the user (OpenAI's ``delta.content``); never part of a call."""

    text: str

    def openai_delta(self) -> dict[str, Any]:
        return {"content": self.text}


@dataclass(frozen=True)
class CallStarted:
    """Call ``index`` (0, 1, ... in the message's order) begins: its ``name`` and
    the provider's ``id`` when the format writes one (else None)."""

    index: int
    id: str | None
    name: str

    def openai_delta(self) -> dict[str, Any]:
        return {"tool_calls": [{"index": self.index, "id": self.id, "type": "function",
                                "function": {"name": self.name, "arguments": ""}}]}


@dataclass(frozen=True)
class ArgsDelta:
    """A fragment of call ``index``'s arguments text (the fragments joined are
    its ``raw_args``)."""

    index: int
    arguments: str

    def openai_delta(self) -> dict[str, Any]:
        return {"tool_calls": [{"index": self.index, "function": {"arguments": self.arguments}}]}


@dataclass(frozen=True)
class CallFinished:
    """Call ``index`` is whole: ``call`` is the :class:`ToolCall` (``ok``,
    ``args``, ``error``, ``span``...) that ``parse_tool_calls`` gives for it."""

    index: int
    call: ToolCall


StreamEvent = Union[TextDelta, CallStarted, ArgsDelta, CallFinished]

_new = object.__new__


def shown(events: list[StreamEvent]) -> int:
    """How many characters ``events`` show as text."""
    return sum(len(e.text) for e in events if isinstance(e, TextDelta))


def text_delta(text: str) -> TextDelta:
    """``TextDelta(text)``, built on the stream's hot path without the frozen
    dataclass's ``object.__setattr__`` (a third of a delta's cost in prose);
    tests/test_tool_stream.py holds the two equal."""
    event = _new(TextDelta)
    event.__dict__["text"] = text
    return event


def args_delta(index: int, arguments: str) -> ArgsDelta:
    """``ArgsDelta(index, arguments)``, built the same way."""
    event = _new(ArgsDelta)
    d = event.__dict__
    d["index"], d["arguments"] = index, arguments
    return event


def call_events(index: int, call: ToolCall, sent: str | None = None) -> list[StreamEvent]:
    """The events that report ``call`` whole: its start (``sent`` None), or,
    when it was started with ``sent`` of its arguments already passed on, the
    rest of them; then its end."""
    events: list[StreamEvent] = []
    if sent is None:
        events.append(CallStarted(index, call.id, call.name))
        sent = ""
    if len(call.raw_args) > len(sent) and call.raw_args.startswith(sent):
        events.append(ArgsDelta(index, call.raw_args[len(sent):]))
    events.append(CallFinished(index, call))
    return events


# where the prose around the calls stands: (the index of the call it stands before, start, end)
Prose = Callable[[list[ToolCall]], "list[tuple[int, int, int]]"]


def closing_events(whole: str, calls: list[ToolCall], first: int,
                   started: tuple[int, str, str | None, str] | None,
                   prose: Prose | None = None) -> list[StreamEvent]:
    """The events of ``calls[first:]``, the calls read at a message's end. ``started``: the call
    begun live and not finished (where, its name and id, the arguments' text passed on); when
    the whole text's reading does not hold it (a run of calls that a placeholder after it shows
    to be the format described), it goes into ``calls`` not ok, never finished as the next one.
    ``prose``: the model's words around those calls, each piece shown in its place."""
    events: list[StreamEvent] = []
    sent = None
    if started is not None:
        at, name, ident, sent = started
        nxt = calls[first] if len(calls) > first else None  # (the call started, read whole: from ``at`` on,
        if nxt is None or nxt.name != name or not nxt.raw_args.startswith(sent) or nxt.span[0] < at:
            calls.insert(first, _not_held(whole, at, name, sent, ident))  # its name, what was sent)
    pieces = prose(calls) if prose is not None and len(calls) > first else []
    for i, call in enumerate(calls[first:], first):
        while pieces and pieces[0][0] <= i:
            _, a, b = pieces.pop(0)
            events.append(text_delta(whole[a:b]))
        events += call_events(i, call, sent if i == first else None)
    return events + [text_delta(whole[a:b]) for _, a, b in pieces]


def _not_held(whole: str, at: int, name: str, sent: str, ident: str | None) -> ToolCall:
    """The call started at ``at`` that the whole text's reading does not hold (a run of calls that a
    placeholder after it shows to be the format described): finished not ok, never as the next call."""
    k = whole.find(sent, at)
    return ToolCall(name, sent, None, False, (at, k + len(sent) if k >= 0 else at),
                    f"the call to {name!r} started here is not one the whole message makes (what follows "
                    "it shows the format, not calls): it is not run", ident)
