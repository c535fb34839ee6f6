"""Provider dialects: emit, observe and strictly validate every reasoning wire variant.

To add a dialect: write ``harness/dialects/<name>.py`` with an object satisfying
:class:`~harness.dialects._base.Dialect` (``DIALECT``) and add its module to ``DIALECT_MODULES`` in
``_registry.py``. An unknown dialect or variant name raises :class:`~harness._errors.UnknownName`.
"""

from harness.codec import Frame  # where it lives; re-exported: emitters produce frames
from harness.dialects._base import (
    LENIENT,
    Caps,
    Dialect,
    Difference,
    Emitter,
    Observer,
    ProviderProfile,
    Rejection,
    RequestSpec,
    Transport,
    Variant,
    check_variant,
)

__all__ = [
    "LENIENT",
    "Caps",
    "Dialect",
    "Difference",
    "Emitter",
    "Frame",
    "Observer",
    "ProviderProfile",
    "Rejection",
    "RequestSpec",
    "Transport",
    "Variant",
    "check_variant",
]

from harness.dialects._registry import DIALECT_MODULES, all_variants, dialect_names, get_dialect

__all__ += ["DIALECT_MODULES", "all_variants", "dialect_names", "get_dialect"]
