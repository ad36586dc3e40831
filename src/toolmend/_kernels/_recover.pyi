"""Type stub of the compiled kernel ``toolmend._kernels._recover`` (built from ``ext/_recover.pyx``).

It mirrors its pure-Python twin ``toolmend._kernels._recover_py``, the reference: the same names
with the same signatures, so the types are taken from there (tests/test_kernel_line.py checks it)."""

from toolmend._kernels._recover_py import (
    Refused as Refused,
)
from toolmend._kernels._recover_py import (
    make_loads as make_loads,
)
from toolmend._kernels._recover_py import (
    normalize_structural_quotes as normalize_structural_quotes,
)
from toolmend._kernels._recover_py import (
    parse_object_literal as parse_object_literal,
)
from toolmend._kernels._recover_py import (
    recover_text as recover_text,
)
from toolmend._kernels._recover_py import (
    recover_value as recover_value,
)
from toolmend._kernels._recover_py import (
    repair_json as repair_json,
)
from toolmend._kernels._recover_py import (
    strip_comments as strip_comments,
)
