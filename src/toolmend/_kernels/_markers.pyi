"""Type stub of the compiled kernel ``toolmend._kernels._markers`` (built from ``ext/_markers.pyx``).

It mirrors its pure-Python twin ``toolmend._kernels._markers_py``: the same names with the same
signatures, so the types are taken from there (tests/test_kernel_line.py checks it)."""

from toolmend._kernels._markers_py import (
    extent as extent,
    next_start as next_start,
    skip_space as skip_space,
    start_table as start_table,
    tag_body as tag_body,
)
