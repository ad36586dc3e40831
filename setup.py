"""Build the Cython kernels in ext/ as toolmend._kernels.* extension modules.

Metadata lives in pyproject.toml; this file only declares the extensions.
``TOOLMEND_PURE_PYTHON=1`` builds without them (the py3-none-any wheel), and
so does any interpreter other than CPython (PyPy & co. run the pure twins).
Without ``TOOLMEND_REQUIRE_COMPILED=1`` a failed compile (no compiler, no
Cython) is a warning, not an error: the package then runs on its pure-Python
twins.
"""

import os
import platform
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


def _flag(name):
    return os.environ.get(name, "").strip().lower() not in ("", "0", "false", "no")


KERNELS = ["_recover", "_myers", "_jsonscan", "_markers", "_schemacheck"]
REQUIRE_COMPILED = _flag("TOOLMEND_REQUIRE_COMPILED")


def _warn(message):
    print(f"toolmend: WARNING: {message}; installing the pure-Python twins "
          "(set TOOLMEND_REQUIRE_COMPILED=1 to make this an error)", file=sys.stderr)


def _strip_flags():
    """Linker flags that leave the symbol tables and debug information out of
    the shared objects (the interpreter's own CFLAGS hold ``-g``): a third of
    the size on Linux. ``TOOLMEND_KEEP_SYMBOLS=1`` keeps them, for a debugger.
    MSVC keeps debug information in a separate .pdb, never in the .pyd."""
    if _flag("TOOLMEND_KEEP_SYMBOLS"):
        return []
    if sys.platform.startswith("linux") or sys.platform.startswith("freebsd"):
        return ["-s"]  # gcc and clang: strip all symbols at link time
    if sys.platform == "darwin":
        return ["-Wl,-S,-x"]  # ld64: no debug information, no local symbols
    return []


def _jobs():
    """Kernels built at once: one per CPU (each is translated and compiled on
    its own), unless the build says otherwise."""
    return max(1, min(len(KERNELS), os.cpu_count() or 1))


class _BuildExt(build_ext):
    """build_ext compiling the kernels in parallel when not told otherwise
    (``--parallel`` / ``-j``): the C compiles dominate an install."""

    def finalize_options(self):
        super().finalize_options()
        if not self.parallel:
            self.parallel = _jobs()


def _compiler_fails():
    """Why the C compiler the build would use cannot compile a trivial file,
    or None when it can: asked before Cython translates the kernels, which
    takes longer than the rest of an install and is wasted without one."""
    import tempfile
    from distutils.ccompiler import new_compiler  # setuptools' copy (imported above)
    from distutils.errors import CCompilerError, DistutilsError
    from distutils.sysconfig import customize_compiler

    with tempfile.TemporaryDirectory() as tmp:
        source = os.path.join(tmp, "probe.c")
        with open(source, "w") as f:
            f.write("int toolmend_probe(void) { return 0; }\n")
        try:
            compiler = new_compiler()
            customize_compiler(compiler)
            compiler.compile([source], output_dir=tmp)
        except (CCompilerError, DistutilsError, OSError) as exc:
            return str(exc).strip() or type(exc).__name__
    return None


def _extensions():
    if _flag("TOOLMEND_PURE_PYTHON"):
        return []
    if platform.python_implementation() != "CPython":
        if REQUIRE_COMPILED:
            raise SystemExit("toolmend: TOOLMEND_REQUIRE_COMPILED=1, but the compiled kernels "
                             f"are built for CPython only, not {platform.python_implementation()}")
        return []
    if not REQUIRE_COMPILED:  # (required: the compile itself says what is wrong)
        failed = _compiler_fails()
        if failed is not None:
            _warn(f"no working C compiler ({failed})")
            return []
    try:
        from Cython.Build import cythonize
    except ImportError:
        if REQUIRE_COMPILED:
            raise
        _warn("Cython is not available")
        return []
    extensions = [
        Extension(f"toolmend._kernels.{name}", [f"ext/{name}.pyx"],
                  optional=not REQUIRE_COMPILED, extra_link_args=_strip_flags())
        for name in KERNELS
    ]
    try:
        built = cythonize(
            extensions,
            nthreads=_jobs(),
            compiler_directives={
                "language_level": 3,
                "boundscheck": False,
                "wraparound": False,
                "freethreading_compatible": True,
            },
        )
    except Exception as exc:  # a Cython failure: the twins still work
        if REQUIRE_COMPILED:
            raise
        _warn(f"Cython could not translate the kernels ({exc})")
        return []
    # cythonize() builds new Extension objects and drops `optional`: put it
    # back, so that a failed C compile falls back instead of failing the install.
    for ext in built:
        ext.optional = not REQUIRE_COMPILED
    return built


setup(ext_modules=_extensions(), cmdclass={"build_ext": _BuildExt})
