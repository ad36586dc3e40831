"""Type stub of the compiled kernel ``toolmend._kernels._schemacheck`` (built from ``ext/_schemacheck.pyx``).

It mirrors its pure-Python twin ``toolmend._kernels._schemacheck_py``: the same names with the same
signatures, so the types are taken from there (tests/test_kernel_line.py checks it)."""

from toolmend._kernels._schemacheck_py import (
    ALWAYS as ALWAYS,
    CALL as CALL,
    CHECK_DEPTH as CHECK_DEPTH,
    CHECKS as CHECKS,
    KIND_ARRAY as KIND_ARRAY,
    KIND_BOOL as KIND_BOOL,
    KIND_FLOAT as KIND_FLOAT,
    KIND_INT as KIND_INT,
    KIND_NULL as KIND_NULL,
    KIND_OBJECT as KIND_OBJECT,
    KIND_STRING as KIND_STRING,
    NEVER as NEVER,
    make_checker as make_checker,
)
