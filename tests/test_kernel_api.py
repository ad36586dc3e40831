"""The compiled kernels and their pure twins expose the same API, and the
type stubs of the compiled modules name exactly that API."""

from __future__ import annotations

import ast
import importlib
import inspect
import pathlib

import pytest

import toolmend

KERNELS = ["_recover", "_myers", "_jsonscan"]
PACKAGE = pathlib.Path(toolmend.__file__).parent / "_kernels"


def _stub_names(name: str) -> set[str]:
    tree = ast.parse((PACKAGE / f"{name}.pyi").read_text(encoding="utf-8"))
    return {alias.asname or alias.name for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) for alias in node.names}


@pytest.mark.parametrize("name", KERNELS)
def test_stub_names_exist_in_both_twins(name):
    pure = importlib.import_module(f"toolmend._kernels.{name}_py")
    names = _stub_names(name)
    assert names
    for n in names:
        assert hasattr(pure, n), n
    try:
        compiled = importlib.import_module(f"toolmend._kernels.{name}")
    except ImportError:
        pytest.skip("the compiled kernels are not built")
    public = {n for n in dir(compiled) if not n.startswith("_")} - {"orjson", "LiteralError"}
    assert public == names, "the stub and the compiled module disagree"
    for n in names:
        c, p = getattr(compiled, n), getattr(pure, n)
        if callable(p) and not inspect.isclass(p):
            assert callable(c), n
        else:
            assert c == p, n


def test_py_typed_and_stubs_ship():
    assert (PACKAGE.parent / "py.typed").exists()
    for name in KERNELS:
        assert (PACKAGE / f"{name}.pyi").exists()
