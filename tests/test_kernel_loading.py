"""A missing extension falls back to the pure twins silently, unless
TOOLMEND_REQUIRE_COMPILED=1 makes the import fail loudly."""

from __future__ import annotations

import ast
import os
import pathlib
import re
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


# ---------------------------------------------------------------------------
# --builds-tested-elsewhere (tests/conftest.py): the pure-mode run beside a
# compiled-mode one leaves out the tests marked builds_side_by_side, which
# must then give the same result in either mode

TESTS = pathlib.Path(__file__).parent


def _side_by_side_modules() -> list[pathlib.Path]:
    marked = re.compile(r"^pytestmark = pytest\.mark\.builds_side_by_side$", re.M)
    return sorted(p for p in TESTS.glob("test_*.py") if marked.search(p.read_text(encoding="utf-8")))


def test_a_module_marked_side_by_side_never_takes_the_packages_choice_of_build():
    modules = _side_by_side_modules()
    assert {p.name for p in modules} >= {"test_jsonscan_kernels.py", "test_markers_kernel.py"}
    for path in modules:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                assert all(a.name.split(".")[0] != "toolmend" for a in node.names), (path.name, node.lineno)
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("toolmend"):
                # only a twin module itself: toolmend._kernels._<name>_py
                assert node.module == "toolmend._kernels", (path.name, node.lineno)
                assert all(a.name.startswith("_") and a.name.endswith("_py") for a in node.names), \
                    (path.name, node.lineno)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                    node.value.startswith("toolmend."):
                # (importlib.import_module of a compiled kernel by its own name)
                assert re.fullmatch(r"toolmend\._kernels\._[a-z]+", node.value), (path.name, node.lineno)
            elif isinstance(node, ast.Name):
                assert node.id != "toolmend", (path.name, node.lineno)


def test_builds_tested_elsewhere_leaves_out_the_marked_tests_only():
    files = [str(TESTS / "test_markers_kernel.py"), __file__]
    run = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--collect-only", *files]
    every = subprocess.run(run, capture_output=True, text=True, timeout=120, cwd=TESTS.parent)
    rest = subprocess.run(run + ["--builds-tested-elsewhere"], capture_output=True, text=True, timeout=120,
                          cwd=TESTS.parent)
    assert every.returncode == 0, every.stdout + every.stderr
    if rest.returncode != 0:  # (without the compiled kernels no other run tests the builds: refused)
        assert "the compiled kernels are not built here" in rest.stderr, rest.stdout + rest.stderr
        return
    ids = [line for line in every.stdout.splitlines() if "::" in line]
    left = [line for line in rest.stdout.splitlines() if "::" in line]
    assert left == [i for i in ids if "test_markers_kernel.py" not in i]
    assert any("test_markers_kernel.py" in i for i in ids) and left
