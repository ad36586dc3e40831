"""Run the command line in this process, with bytes in and bytes out."""

from __future__ import annotations

import io
import sys
from dataclasses import dataclass

from toolmend.cli import main


@dataclass
class Run:
    rc: int
    out: bytes
    err: str

    @property
    def text(self) -> str:
        return self.out.decode("utf-8", "replace")


def cli(*args: str, stdin: bytes | str = b"") -> Run:
    """``toolmend ARGS`` with ``stdin``; the exit status and what it wrote."""
    if isinstance(stdin, str):
        stdin = stdin.encode("utf-8")
    out, err = io.BytesIO(), io.BytesIO()
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    sys.stdout = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    sys.stderr = io.TextIOWrapper(err, encoding="utf-8", write_through=True)
    try:
        rc = main(list(args))
        sys.stdout.flush()
        sys.stderr.flush()
        return Run(rc, out.getvalue(), err.getvalue().decode("utf-8", "replace"))
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
