"""Type stub of the compiled kernel ``toolmend._kernels._recover`` (built from ``ext/_recover.pyx``).

It mirrors its pure-Python twin ``toolmend._kernels._recover_py``: the same names with the same
signatures, so the types are taken from there (tests/test_kernel_api.py checks it)."""

from toolmend._kernels._recover_py import (
    STEP_NAMES as STEP_NAMES,
)
from toolmend._kernels._recover_py import (
    convert_single_quotes as convert_single_quotes,
)
from toolmend._kernels._recover_py import (
    make_loads as make_loads,
)
from toolmend._kernels._recover_py import (
    maybe_json as maybe_json,
)
from toolmend._kernels._recover_py import (
    needs_exact as needs_exact,
)
from toolmend._kernels._recover_py import (
    normalize_structural_quotes as normalize_structural_quotes,
)
from toolmend._kernels._recover_py import (
    parse_object_literal as parse_object_literal,
)
from toolmend._kernels._recover_py import (
    quote_bare_keys as quote_bare_keys,
)
from toolmend._kernels._recover_py import (
    recover_text as recover_text,
)
from toolmend._kernels._recover_py import (
    recover_value as recover_value,
)
from toolmend._kernels._recover_py import (
    remove_trailing_commas as remove_trailing_commas,
)
from toolmend._kernels._recover_py import (
    repair as repair,
)
from toolmend._kernels._recover_py import (
    repair_json as repair_json,
)
from toolmend._kernels._recover_py import (
    strip_comments as strip_comments,
)
