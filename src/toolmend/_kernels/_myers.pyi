"""Type stub of the compiled kernel ``toolmend._kernels._myers`` (built from ``ext/_myers.pyx``).

It mirrors its pure-Python twin ``toolmend._kernels._myers_py``: the same names with the same
signatures, so the types are taken from there (tests/test_kernel_line.py checks it)."""

from toolmend._kernels._myers_py import (
    diff_lines as diff_lines,
    extend_prefixed as extend_prefixed,
    unified_text as unified_text,
)
