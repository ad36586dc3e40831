"""Type stub of the compiled kernel ``toolmend._kernels._jsonscan`` (built from ``ext/_jsonscan.pyx``).

It mirrors its pure-Python twin ``toolmend._kernels._jsonscan_py``: the same names with the same
signatures, so the types are taken from there (tests/test_kernel_line.py checks it)."""

from toolmend._kernels._jsonscan_py import (
    E_ARRAY as E_ARRAY,
)
from toolmend._kernels._jsonscan_py import (
    E_COLON as E_COLON,
)
from toolmend._kernels._jsonscan_py import (
    E_CONTROL as E_CONTROL,
)
from toolmend._kernels._jsonscan_py import (
    E_ESCAPE as E_ESCAPE,
)
from toolmend._kernels._jsonscan_py import (
    E_KEY as E_KEY,
)
from toolmend._kernels._jsonscan_py import (
    E_NUMBER as E_NUMBER,
)
from toolmend._kernels._jsonscan_py import (
    E_OBJECT as E_OBJECT,
)
from toolmend._kernels._jsonscan_py import (
    E_STRING as E_STRING,
)
from toolmend._kernels._jsonscan_py import (
    E_TRAILING as E_TRAILING,
)
from toolmend._kernels._jsonscan_py import (
    E_UTF8 as E_UTF8,
)
from toolmend._kernels._jsonscan_py import (
    E_VALUE as E_VALUE,
)
from toolmend._kernels._jsonscan_py import (
    INDEX_DEPTH as INDEX_DEPTH,
)
from toolmend._kernels._jsonscan_py import (
    INDEX_DIGITS as INDEX_DIGITS,
)
from toolmend._kernels._jsonscan_py import (
    INDEX_SPAN as INDEX_SPAN,
)
from toolmend._kernels._jsonscan_py import (
    OK as OK,
)
from toolmend._kernels._jsonscan_py import (
    load_exact as load_exact,
)
from toolmend._kernels._jsonscan_py import (
    lookup as lookup,
)
from toolmend._kernels._jsonscan_py import (
    lookup_many as lookup_many,
)
from toolmend._kernels._jsonscan_py import (
    members as members,
)
from toolmend._kernels._jsonscan_py import (
    reformat as reformat,
)
from toolmend._kernels._jsonscan_py import (
    scan as scan,
)
from toolmend._kernels._jsonscan_py import (
    scan_index as scan_index,
)
from toolmend._kernels._jsonscan_py import (
    skip_space as skip_space,
)
from toolmend._kernels._jsonscan_py import (
    summary as summary,
)
from toolmend._kernels._jsonscan_py import (
    value_end as value_end,
)
