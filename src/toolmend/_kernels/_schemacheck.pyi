"""Type stub of the compiled kernel ``toolmend._kernels._schemacheck`` (built from ``ext/_schemacheck.pyx``).

It mirrors its pure-Python twin ``toolmend._kernels._schemacheck_py``: the same names with the same
signatures, so the types are taken from there (tests/test_kernel_line.py checks it)."""

from toolmend._kernels._schemacheck_py import (
    ALWAYS as ALWAYS,
)
from toolmend._kernels._schemacheck_py import (
    CALL as CALL,
)
from toolmend._kernels._schemacheck_py import (
    CHECK_DEPTH as CHECK_DEPTH,
)
from toolmend._kernels._schemacheck_py import (
    CHECKS as CHECKS,
)
from toolmend._kernels._schemacheck_py import (
    KIND_ARRAY as KIND_ARRAY,
)
from toolmend._kernels._schemacheck_py import (
    KIND_BOOL as KIND_BOOL,
)
from toolmend._kernels._schemacheck_py import (
    KIND_FLOAT as KIND_FLOAT,
)
from toolmend._kernels._schemacheck_py import (
    KIND_INT as KIND_INT,
)
from toolmend._kernels._schemacheck_py import (
    KIND_NULL as KIND_NULL,
)
from toolmend._kernels._schemacheck_py import (
    KIND_OBJECT as KIND_OBJECT,
)
from toolmend._kernels._schemacheck_py import (
    KIND_STRING as KIND_STRING,
)
from toolmend._kernels._schemacheck_py import (
    NEVER as NEVER,
)
from toolmend._kernels._schemacheck_py import (
    make_checker as make_checker,
)
