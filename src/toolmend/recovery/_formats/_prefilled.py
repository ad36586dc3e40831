"""The call a reply opens with when its family's opener was the prompt's (``PREFILLED``:
GLM's name then ``<arg_key>``, Gemma 4's ``call:NAME{``, MiniMax M2's ``<invoke name=``,
harmony's recipient), or when its label only ever opens an answer (NexusRaven-V2's
``Call:``, the model's own): read as if the opener stood before it. The scan looks here at
the reply's start and where a bare reasoning closer ends the reasoning the prompt opened.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from .._toolcalls import ToolCall
from ._base import Ctx
from ._context import PREFILLED, PREFILLED_OPENERS
from ._pythonic import read_raven
from ._tokens import BARE_CLOSER
from ._xml import read_glm

if TYPE_CHECKING:
    from ._scan import Scanner

__all__ = ["read_prefilled"]

# the readers of the bodies that no family's marker opens (the others are their marker's)
_OWN_READERS: dict[str, Any] = {"glm": read_glm, "nexusraven": read_raven}


def read_prefilled(scanner: Scanner, calls: list[ToolCall], at: int = 0) -> int:
    """The call the reply opens with at ``at`` (the text's start, or where its reasoning
    ended) when its family's opener was the prompt's, or its label opens answers only
    (``PREFILLED``), added to ``calls``: read as if the opener stood before it, and where
    the scan goes on (``at``: the reply opens with no such call)."""
    text = scanner.text
    m = PREFILLED.match(text, at)
    if m is None or m.lastgroup not in scanner.kinds:
        return at
    (marker, opener), k = PREFILLED_OPENERS[m.lastgroup], m.start(m.lastgroup)
    virtual = opener + text[k:]
    ctx = Ctx(scanner.ctx.tools, scanner.ctx.fmt)  # (its searches remembered are the virtual text's)
    read = _OWN_READERS.get(m.lastgroup) or scanner.readers[marker]
    found, end = read(virtual, 0, len(virtual), ctx)
    if not found:
        return at
    shift = k - len(opener)  # (the opener was not written: a span starts at the body)
    found = [replace(c, span=(max(k, c.span[0] + shift), c.span[1] + shift)) for c in found]
    b = max(end + shift, k)
    if m.lastgroup == "nexusraven" and not scanner.reasoning_over and b > found[-1].span[1]:
        # (NexusRaven's account of its calls, read on past them: a bare closer there may end the
        # reasoning the prompt opened, as one the scan meets does, so the scan goes on from it)
        q = BARE_CLOSER.search(text, found[-1].span[1], b)
        b = b if q is None else q.start()
    return scanner._past_closer(k, b, found, calls, False)
