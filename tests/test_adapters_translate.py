"""The tool adapters translate only: they call the libraries' public faces.

The ``@json`` and ``@diff`` adapters read arguments, call ``toolmend.json``
or ``toolmend.diff`` and lay out the output; what they need that is library
work (values written under a cap, spans, the tree patch, line counts) lives
in the library, behind its face. Scanned with ``ast``: every import,
top-level or inside a function.
"""

from __future__ import annotations

import ast
import pathlib

import pytest

import toolmend

TOOLS = pathlib.Path(toolmend.__file__).parent / "tools"
ADAPTERS = ["_json_tool.py", "_diff_tool.py", "_diff_apply.py", "_diff_io.py"]
FACES = {"toolmend.json", "toolmend.diff", "toolmend.recovery"}
#: what else an adapter may import from the package: errors, the text helpers, its siblings
SHARED = {"toolmend.errors", "toolmend._text"}


def _imports(source: str, package: str) -> list[tuple[int, str]]:
    """(line, absolute module) of every import in ``source``, a module of ``package``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            if module in ("toolmend", "toolmend.tools") or not node.module:
                # "from .. import json": the names are modules
                found.extend((node.lineno, f"{module}.{a.name}") for a in node.names)
            else:
                found.append((node.lineno, module))
    return found


def _wrong(module: str) -> bool:
    if not module.startswith("toolmend"):
        return False  # the standard library
    if module in FACES or module in SHARED:
        return False
    return not module.startswith("toolmend.tools.")


def test_the_scan_sees_relative_and_nested_imports():
    source = ("from ..json import get\nfrom ..json._verbs import single\nfrom .._kernels import x\n"
              "from . import _runner\nfrom ._output import cap_text\n"
              "def f():\n    import toolmend.diff._patch\n    from .. import diff\n")
    found = _imports(source, "toolmend.tools")
    assert [m for _, m in found] == [
        "toolmend.json", "toolmend.json._verbs", "toolmend._kernels", "toolmend.tools._runner",
        "toolmend.tools._output", "toolmend.diff._patch", "toolmend.diff"]
    assert [m for _, m in found if _wrong(m)] == [
        "toolmend.json._verbs", "toolmend._kernels", "toolmend.diff._patch"]


@pytest.mark.parametrize("name", ADAPTERS)
def test_an_adapter_imports_only_the_public_faces(name):
    found = _imports((TOOLS / name).read_text(encoding="utf-8"), "toolmend.tools")
    assert [f"{name}:{line} {m}" for line, m in found if _wrong(m)] == []
