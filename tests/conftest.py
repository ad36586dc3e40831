"""Shared fixtures: both kernel builds side by side.

The suite runs once per mode (``TOOLMEND_PURE_PYTHON=1`` selects the pure
twins for the whole package); tests that compare the twins import both
directly through the ``recover_kernels`` fixture.
"""

from __future__ import annotations

import importlib

import pytest


def _kernels(name: str) -> list[object]:
    mods = [importlib.import_module(f"toolmend.{name}_py")]
    try:
        mods.insert(0, importlib.import_module(f"toolmend.{name}"))
    except ImportError:
        pass
    return mods


@pytest.fixture(scope="session")
def compiled_recover():
    """The compiled recovery kernel, or skip when this build has none."""
    try:
        return importlib.import_module("toolmend._recover")
    except ImportError:
        pytest.skip("the compiled kernels are not built")


@pytest.fixture(scope="session")
def pure_recover():
    return importlib.import_module("toolmend._recover_py")


@pytest.fixture(params=_kernels("_recover"), ids=lambda m: m.__name__.rsplit(".", 1)[-1])
def recover_kernel(request):
    """Each available build of the recovery kernel."""
    return request.param
