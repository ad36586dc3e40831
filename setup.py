"""Build the Cython kernels in ext/ as toolmend.* extension modules.

Metadata lives in pyproject.toml; this file only declares the extensions.
``TOOLMEND_PURE_PYTHON=1`` builds without them (the py3-none-any wheel).
Without ``TOOLMEND_REQUIRE_COMPILED=1`` a failed compile is a warning, not an
error: the package then runs on its pure-Python twins.
"""

import os

from setuptools import Extension, setup


def _flag(name):
    return os.environ.get(name, "").strip().lower() not in ("", "0", "false", "no")


KERNELS = ["_recover", "_myers", "_jsonscan"]

ext_modules = []
if not _flag("TOOLMEND_PURE_PYTHON"):
    from Cython.Build import cythonize

    optional = not _flag("TOOLMEND_REQUIRE_COMPILED")
    ext_modules = cythonize(
        [Extension(f"toolmend.{name}", [f"ext/{name}.pyx"], optional=optional)
         for name in KERNELS],
        compiler_directives={
            "language_level": 3,
            "boundscheck": False,
            "wraparound": False,
            "freethreading_compatible": True,
        },
    )

setup(ext_modules=ext_modules)
