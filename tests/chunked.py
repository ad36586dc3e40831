"""Corpus tests a chunk of cases at a time.

pytest spends over a millisecond on each test it runs (its hooks, reports and
fixtures): more than most corpus cases take. The corpora of thousands of cases
(the serving stacks' parser cases, every corpus message streamed) run as tests
of CHUNK consecutive cases each. Every case of a chunk is checked, whatever
the others do, and a failing chunk names each case that failed with its error.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import pytest

T = TypeVar("T")

#: consecutive cases in one test
CHUNK = 25


def chunks(cases: Sequence[T], name: Callable[[int, T], str]) -> list[Any]:
    """A ``pytest.param`` for each run of CHUNK consecutive cases, holding
    them as ``(index, case)`` pairs; its id names its first case and how many
    follow it (``name(index, case)``: a case's name)."""
    params = []
    for a in range(0, len(cases), CHUNK):
        part = [(i, cases[i]) for i in range(a, min(a + CHUNK, len(cases)))]
        params.append(pytest.param(part, id=f"{name(*part[0])}+{len(part) - 1}"))
    return params


def check_each(part: Sequence[tuple[int, T]], check: Callable[[int, T], object],
               name: Callable[[int, T], str]) -> None:
    """Run ``check(index, case)`` on every case of ``part``; fail naming each
    case that failed (an assertion, a pytest.fail, any exception) with its error."""
    failed = []
    for i, case in part:
        try:
            check(i, case)
        except (Exception, pytest.fail.Exception) as exc:  # (pytest's Failed is no Exception)
            failed.append(f"{name(i, case)}: {type(exc).__name__}: {exc}")
    if failed:
        pytest.fail(f"{len(failed)} of the {len(part)} cases failed:\n\n" + "\n\n".join(failed),
                    pytrace=False)
