"""A missing extension falls back to the pure twins silently, unless
TOOLMEND_REQUIRE_COMPILED=1 makes the import fail loudly."""

from __future__ import annotations

import os
import subprocess
import sys

# Hides the compiled kernels from the import system, as on a platform
# without a wheel, then imports toolmend and reports what it got.
PROBE = r"""
import importlib.abc, sys

class HideKernels(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name in ("toolmend._kernels._recover", "toolmend._kernels._myers",
                    "toolmend._kernels._jsonscan", "toolmend._kernels._markers",
                    "toolmend._kernels._schemacheck"):
            raise ImportError(f"no module named {name!r} (hidden by the test)")
        return None

sys.meta_path.insert(0, HideKernels())
import toolmend
print("compiled" if toolmend.compiled else "pure", toolmend.loads("{a: 1,}"))
"""


def _probe(**env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("TOOLMEND_")}
    return subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                          env={**clean, **env}, timeout=60)


def test_missing_extension_falls_back_silently():
    run = _probe()
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["pure", "{'a':", "1}"]
    assert run.stderr == ""


def test_require_compiled_makes_a_missing_extension_fail_loudly():
    run = _probe(TOOLMEND_REQUIRE_COMPILED="1")
    assert run.returncode != 0
    assert "TOOLMEND_REQUIRE_COMPILED=1 forbids the pure-Python fallback" in run.stderr


def test_pure_python_forces_the_twins():
    run = subprocess.run([sys.executable, "-c", "import toolmend; print(toolmend.compiled)"],
                         capture_output=True, text=True, timeout=60,
                         env={**os.environ, "TOOLMEND_PURE_PYTHON": "1",
                              "TOOLMEND_REQUIRE_COMPILED": ""})
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "False"
