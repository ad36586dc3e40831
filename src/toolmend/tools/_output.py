"""Output an agent reads, capped in bytes while it is produced.

The cap is enforced as text is written, so a huge result never exists as one
big string first. Cuts fall on a character boundary, and room is kept for a
notice that says what was left out and how to narrow the request: it is the
first line of a cut output, and a mark ends it.
"""

from __future__ import annotations

__all__ = ["CappedOutput", "cap_text", "NOTICE_ROOM", "CUT_MARK", "UNLIMITED"]

NOTICE_ROOM = 640  # bytes kept free for the truncation notice and the cut mark
#: The last line of a cut output (the notice at its top says what was left out).
CUT_MARK = "[... cut here: see the note on the first line]"
UNLIMITED = 1 << 62  # a cap no output reaches


class CappedOutput:
    """Accumulates text up to ``limit`` UTF-8 bytes (notice included);
    ``limit=None`` keeps everything (the command line writes whole results)."""

    __slots__ = ("limit", "_budget", "_parts", "_size", "truncated")

    def __init__(self, limit: int | None) -> None:
        self.limit = UNLIMITED if limit is None else limit
        self._budget = max(0, self.limit - NOTICE_ROOM)
        self._parts: list[str] = []
        self._size = 0
        self.truncated = False

    @property
    def size(self) -> int:
        """Bytes written so far."""
        return self._size

    def write(self, text: str) -> bool:
        """Append ``text``; False once the cap is reached (stop producing)."""
        if self.truncated:
            return False
        n = len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))
        room = self._budget - self._size
        if n <= room:
            self._parts.append(text)
            self._size += n
            return True
        if text.isascii():
            cut = text[:room]
        else:
            cut = text.encode("utf-8", "surrogatepass")[:room].decode("utf-8", "ignore")
        self._parts.append(cut)
        self._size += len(cut.encode("utf-8", "surrogatepass"))
        self.truncated = True
        return False

    def getvalue(self, notice: str = "") -> str:
        """The text; when it was cut, ``notice`` comes first (trimmed to fit)
        and a short mark ends the text where it was cut, so a cut result is
        never read as a whole one, from either end."""
        body = "".join(self._parts)
        if not self.truncated or not notice:
            return body
        sep = "" if not body or body.endswith("\n") else "\n"
        room = max(0, self.limit - self._size - len(sep) - len(CUT_MARK) - 1)
        head = notice.encode("utf-8")[:room].decode("utf-8", "ignore")
        return head + "\n" + body + sep + CUT_MARK


def cap_text(text: str, limit: int | None, notice: str) -> tuple[str, bool]:
    """Cap an already-built text (for small results); returns (text, truncated)."""
    out = CappedOutput(limit)
    out.write(text)
    return out.getvalue(notice), out.truncated
