"""Output an agent reads, capped in bytes while it is produced.

The cap is enforced as text is written, so a huge result never exists as one
big string first. Cuts fall on a character boundary, and room is kept for a
closing notice that says what was left out and how to narrow the request.
"""

from __future__ import annotations

__all__ = ["CappedOutput", "cap_text", "NOTICE_ROOM"]

NOTICE_ROOM = 512  # bytes kept free for the truncation notice


class CappedOutput:
    """Accumulates text up to ``limit`` UTF-8 bytes (notice included)."""

    __slots__ = ("limit", "_budget", "_parts", "_size", "truncated")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._budget = max(0, limit - NOTICE_ROOM)
        self._parts: list[str] = []
        self._size = 0
        self.truncated = False

    @property
    def full(self) -> bool:
        return self.truncated

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
        """The text; when it was cut, followed by ``notice`` (trimmed to fit)."""
        body = "".join(self._parts)
        if not self.truncated or not notice:
            return body
        sep = "" if not body or body.endswith("\n") else "\n"
        room = max(0, self.limit - self._size - len(sep))
        return body + sep + notice.encode("utf-8")[:room].decode("utf-8", "ignore")


def cap_text(text: str, limit: int, notice: str) -> tuple[str, bool]:
    """Cap an already-built text (for small results); returns (text, truncated)."""
    out = CappedOutput(limit)
    out.write(text)
    return out.getvalue(notice), out.truncated
