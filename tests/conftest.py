"""Shared fixtures: the kernels, each build side by side.

The suite runs once per mode (``TOOLMEND_PURE_PYTHON=1`` selects the pure
twins for the whole package). Tests of a kernel itself take one fixture idiom,
made here for each kernel (``recover``, ``myers``, ``jsonscan``):

    <name>_kernel   each available build in turn (compiled, then pure)
    <name>_twins    (compiled, pure) together, to compare them; skipped where
                    the compiled kernels are not built
"""

from __future__ import annotations

import importlib
from types import ModuleType

import pytest

KERNELS = ("recover", "myers", "jsonscan")


def kernel_builds(name: str) -> list[ModuleType]:
    """The builds of kernel ``name`` importable here: compiled (if built), pure."""
    builds = [importlib.import_module(f"toolmend._kernels._{name}_py")]
    try:
        builds.insert(0, importlib.import_module(f"toolmend._kernels._{name}"))
    except ImportError:
        pass
    return builds


def build_id(module: ModuleType) -> str:
    return "pure" if module.__name__.endswith("_py") else "compiled"


def _each_build(name: str):  # noqa: ANN202 - a fixture factory
    @pytest.fixture(scope="session", params=kernel_builds(name), ids=build_id)
    def fixture(request: pytest.FixtureRequest) -> ModuleType:
        return request.param  # type: ignore[no-any-return]

    return fixture


def _both_builds(name: str):  # noqa: ANN202 - a fixture factory
    @pytest.fixture(scope="session")
    def fixture() -> tuple[ModuleType, ModuleType]:
        builds = kernel_builds(name)
        if len(builds) < 2:
            pytest.skip("the compiled kernels are not built")
        return builds[0], builds[1]

    return fixture


for _name in KERNELS:
    globals()[f"{_name}_kernel"] = _each_build(_name)
    globals()[f"{_name}_twins"] = _both_builds(_name)


# ---------------------------------------------------------------------------
# --shard K/N: every N-th test from the K-th, so that N processes share a run


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--shard", default=None, metavar="K/N",
                     help="run only the K-th of N interleaved shares of the collected tests "
                          "(1 <= K <= N): N processes with --shard 1/N ... N/N run the suite once")
    parser.addoption("--builds-tested-elsewhere", action="store_true",
                     help="leave out the tests marked builds_side_by_side (each takes every build of "
                          "a kernel itself, or none, so they give the same result in either mode): for "
                          "a run in the pure mode beside one in the compiled mode, which runs them")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "builds_side_by_side: the test's result is the same in either mode: it takes each "
                   "build of a kernel itself (the twin modules, never the package's choice of one), or it "
                   "reaches no kernel (the package's sources read as text, a pattern of the standard re)")


def _shard(value: str) -> tuple[int, int]:
    try:
        k, n = (int(part) for part in value.split("/"))
    except ValueError:
        raise pytest.UsageError(f"--shard {value!r}: expected K/N, e.g. 1/2") from None
    if not 1 <= k <= n:
        raise pytest.UsageError(f"--shard {value!r}: K must be between 1 and N")
    return k, n


def _keep(config: pytest.Config, items: list[pytest.Item], kept: list[bool]) -> None:
    """Keep the items ``kept`` says (one flag each, in order); the others are deselected."""
    config.hook.pytest_deselected(items=[item for item, k in zip(items, kept, strict=True) if not k])
    items[:] = [item for item, k in zip(items, kept, strict=True) if k]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--builds-tested-elsewhere"):
        if len(kernel_builds("jsonscan")) < 2:
            raise pytest.UsageError("--builds-tested-elsewhere: the compiled kernels are not built here, "
                                    "so no other run tests the builds side by side")
        _keep(config, items, [item.get_closest_marker("builds_side_by_side") is None for item in items])
    value = config.getoption("--shard")
    if value is not None:
        k, n = _shard(value)
        _keep(config, items, [i % n == k - 1 for i in range(len(items))])
