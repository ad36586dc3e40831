"""The kernels: chosen once, at import, between the compiled extensions and
their pure-Python twins.

Each kernel is a pair that sorts together: ``_recover`` (compiled from
``ext/_recover.pyx``) and ``_recover_py``; ``_myers`` / ``_myers_py``;
``_jsonscan`` / ``_jsonscan_py``; ``_markers`` / ``_markers_py``; ``_schemacheck`` /
``_schemacheck_py``. The pure twin is the reference: its header
names the few entry points the layers above call, both twins export exactly
those with the same signatures and give the same results
(tests/test_kernel_line.py), and the ``.pyi`` stubs describe the compiled ones.
A compiled kernel imports no twin and nothing above ``_kernels``.

``TOOLMEND_PURE_PYTHON=1`` forces the pure-Python twins. Otherwise a missing
or broken extension falls back to the twin silently, unless
``TOOLMEND_REQUIRE_COMPILED=1``, which turns that into an ImportError (CI
uses it to prove the wheel really carries its extensions).
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import TYPE_CHECKING


def _flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() not in ("", "0", "false", "no")


FORCE_PURE = _flag("TOOLMEND_PURE_PYTHON")
REQUIRE_COMPILED = _flag("TOOLMEND_REQUIRE_COMPILED")

if FORCE_PURE and REQUIRE_COMPILED:
    raise ImportError(
        "toolmend: TOOLMEND_PURE_PYTHON and TOOLMEND_REQUIRE_COMPILED are both set; "
        "unset one of them"
    )


def _load(name: str) -> tuple[ModuleType, bool]:
    """Return (module, compiled) for kernel ``name`` (e.g. "_recover")."""
    if not FORCE_PURE:
        try:
            return importlib.import_module(f"{__name__}.{name}"), True
        except ImportError as exc:
            if REQUIRE_COMPILED:
                raise ImportError(
                    f"toolmend: the compiled extension {__name__}.{name} is not available "
                    f"({exc}); TOOLMEND_REQUIRE_COMPILED=1 forbids the pure-Python fallback"
                ) from exc
    return importlib.import_module(f"{__name__}.{name}_py"), False


__all__ = ["recover", "myers", "jsonscan", "markers", "schemacheck", "compiled"]

if TYPE_CHECKING:
    # Type checkers see the pure twins: the compiled kernels mirror them
    # (same functions, same signatures; their .pyi stubs say so).
    from . import (
        _jsonscan_py as jsonscan,
        _markers_py as markers,
        _myers_py as myers,
        _recover_py as recover,
        _schemacheck_py as schemacheck,
    )

    _recover_compiled = _myers_compiled = _jsonscan_compiled = _markers_compiled = False
    _schemacheck_compiled = False
else:
    recover, _recover_compiled = _load("_recover")
    myers, _myers_compiled = _load("_myers")
    jsonscan, _jsonscan_compiled = _load("_jsonscan")
    markers, _markers_compiled = _load("_markers")
    schemacheck, _schemacheck_compiled = _load("_schemacheck")

#: True when every kernel is the compiled one.
compiled: bool = (_recover_compiled and _myers_compiled and _jsonscan_compiled and _markers_compiled
                  and _schemacheck_compiled)
