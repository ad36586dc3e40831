"""A pytest plugin that makes one compiled kernel slower, to show the gate catches it.

    pytest bench -p slowdown --slow-kernel jsonscan --slow-fraction 0.2

Every public function of the kernel (``toolmend._kernels.<name>``: jsonscan, myers,
markers, recover) is wrapped so that each call spins, after it returns, for
``fraction`` of the CPU time the call took: the kernel's own work costs that much
more, as a real regression in it would. The layers above look the kernel's
functions up on the module at each call, so the wrappers are what they call.
(``recover`` builds ``loads`` at import from its own functions; its hot path is
not reached this way.) Nothing else changes; the run is expected to end with
the gate's exit status 6 and the pairs that regressed named.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("slowdown", "make one kernel slower (a check of the gate itself)")
    group.addoption("--slow-kernel", default="jsonscan",
                    help="the kernel to slow down: jsonscan, myers, markers or recover")
    group.addoption("--slow-fraction", type=float, default=0.2,
                    help="extra CPU time per call, as a fraction of the call's own (0.2: 20%%)")


def _slowed(fn: Callable[..., Any], fraction: float) -> Callable[..., Any]:
    clock = time.thread_time

    @functools.wraps(fn)
    def slow(*args: Any, **kwargs: Any) -> Any:
        start = clock()
        try:
            return fn(*args, **kwargs)
        finally:
            until = clock() + fraction * (clock() - start)
            while clock() < until:
                pass

    return slow


def pytest_configure(config: pytest.Config) -> None:
    import toolmend._kernels as kernels

    name = config.getoption("--slow-kernel")
    fraction = config.getoption("--slow-fraction")
    module = getattr(kernels, name, None)
    if module is None or name not in kernels.__all__:
        raise pytest.UsageError(f"--slow-kernel {name!r}: not one of {', '.join(kernels.__all__[:-1])}")
    if fraction <= 0:
        raise pytest.UsageError(f"--slow-fraction {fraction}: must be above 0")
    wrapped = []
    for attr in dir(module):
        fn = getattr(module, attr)
        if attr.startswith("_") or isinstance(fn, type) or not callable(fn):
            continue
        setattr(module, attr, _slowed(fn, fraction))
        wrapped.append(attr)
    config.stash[_KEY] = f"kernel {module.__name__} slowed by {fraction:.0%}: {', '.join(wrapped)}"


_KEY = pytest.StashKey[str]()


def pytest_report_header(config: pytest.Config) -> str:
    return config.stash.get(_KEY, "")


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    terminalreporter.write_line(config.stash.get(_KEY, ""), yellow=True)
