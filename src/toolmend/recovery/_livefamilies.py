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

The tokens around them (Kimi's and DeepSeek's sections, DSML's
``function_calls``) are markup: never shown as text. ``settle`` says which
calls a closer makes certain, checked against the reader itself.
"""

from __future__ import annotations

from typing import NamedTuple

from ._formats._json import harmony_message
from ._toolcalls import ToolCall

__all__ = ["Family", "FAMILIES", "WRAPPERS", "first_closer", "settle", "harmony_text"]


class Family(NamedTuple):
    """How one family's call ends, and what stands around it."""

    closers: tuple[str, ...]  # the first of these after the marker ends the call
    kept: tuple[str, ...] = ()  # closers that end it without being part of it (harmony's next <|start|>)
    wrappers: tuple[tuple[str, bool], ...] = ()  # tokens around the calls: (token, opens)
    several: bool = False  # the marker holds several calls up to its closer (MiniMax M2)
    inner: str = ""  # what each of those calls starts with
    messages: bool = False  # harmony: a message that is no call (analysis, final) ends there too


_HARMONY = Family(("<|call|>", "<|end|>", "<|return|>", "<|start|>"), ("<|start|>",), messages=True)
_B, _U = "\uff5c", "\u2581"  # DeepSeek's and Step's fullwidth bar, and the word joiner in their tokens

# marker (as the model writes it) -> its family
FAMILIES: dict[str, Family] = {
    "<|tool_call_begin|>": Family(("<|tool_call_end|>",), wrappers=(
        ("<|tool_calls_section_begin|>", True), ("<|tool_calls_section_end|>", False))),
    f"<{_B}tool{_U}call{_U}begin{_B}>": Family((f"<{_B}tool{_U}call{_U}end{_B}>",), wrappers=(
        (f"<{_B}tool{_U}calls{_U}begin{_B}>", True), (f"<{_B}tool{_U}calls{_U}end{_B}>", False))),
    f"<{_B}DSML{_B}invoke": Family((f"</{_B}DSML{_B}invoke>",), wrappers=(
        (f"<{_B}DSML{_B}function_calls>", True), (f"</{_B}DSML{_B}function_calls>", False),
        (f"<{_B}DSML{_B}tool_calls>", True), (f"</{_B}DSML{_B}tool_calls>", False))),
    "<steptml:invoke": Family(("</steptml:invoke>",), wrappers=(
        (f"<{_B}tool_calls_begin{_B}>", True), (f"<{_B}tool_call_begin{_B}>function<{_B}tool_sep{_B}>", True),
        (f"<{_B}tool_call_end{_B}>", False), (f"<{_B}tool_calls_end{_B}>", False))),
    "<minimax:tool_call>": Family(("</minimax:tool_call>",), several=True, inner="<invoke"),
    "<|start|>": _HARMONY,
    "<|channel|>": _HARMONY,
}

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


def settle(whole: str, found: list[ToolCall], at: int, stop: int, marker: str,
           closer: str) -> list[ToolCall] | None:
    """The calls that the marker at ``at``, read up to its closer (ending at
    ``stop``), makes certain: ``found`` is the reading from ``at`` of the text
    so far. None when the reading does not end there (a value holding the
    closer, a broken call): the call waits for the end of the message."""
    fam = FAMILIES[marker]
    mine = [c for c in found if c.span[0] < stop]
    if not fam.several:
        return mine if len(mine) == 1 and mine[0].span == (at, stop) else None
    # several calls (MiniMax M2's invokes): each its own <invoke> inside the marker's
    # block, only blanks around them up to the closer
    inner = stop - len(closer)
    if not mine or any(c.span[1] > inner or not whole.startswith(fam.inner, c.span[0]) for c in mine):
        return None
    starts = [at + len(marker)] + [c.span[1] for c in mine]
    ends = [c.span[0] for c in mine] + [inner]
    return None if any(whole[a:b].strip() for a, b in zip(starts, ends, strict=True)) else mine


def harmony_text(whole: str, at: int, stop: int) -> tuple[str, int, int] | None:
    """A harmony message that is no call, ending at ``stop``: (its channel,
    its text's start and end); None for anything else."""
    msg = harmony_message(whole, at, len(whole))
    if msg is None:
        return None
    channel, to, a, b, end, closed = msg
    if not closed or end != stop or (to is not None and channel != "analysis"):
        return None
    return channel, a, b
