"""Provider dialects: emit, observe and strictly validate every reasoning wire variant.

To add a dialect: write ``harness/dialects/<name>.py`` with a subclass of
:class:`~harness.dialects._base.Dialect` (its instance ``DIALECT``; override the optional hooks your
provider does differently) and add its module to ``DIALECT_MODULES`` in ``_registry.py``. An unknown
dialect or variant name raises :class:`~harness._errors.UnknownName`.
"""

from harness.codec import Frame  # where it lives; re-exported: emitters produce frames
from harness.dialects._base import (
    LENIENT,
    READ_ALL,
    Caps,
    Dialect,
    Difference,
    Emitter,
    Fidelity,
    Observer,
    ProviderRules,
    Reading,
    Rejection,
    RequestSpec,
    Transport,
    Variant,
    check_variant,
)
from harness.dialects._request_forms import ROWS as REQUEST_FORMS
from harness.dialects._request_forms import Answer, RequestForm, answer_for

__all__ = [
    "LENIENT",
    "READ_ALL",
    "REQUEST_FORMS",
    "Answer",
    "Caps",
    "Dialect",
    "Difference",
    "Emitter",
    "Fidelity",
    "Frame",
    "Observer",
    "ProviderRules",
    "Reading",
    "Rejection",
    "RequestForm",
    "RequestSpec",
    "Transport",
    "Variant",
    "answer_for",
    "check_variant",
]

from harness.dialects._registry import DIALECT_MODULES, all_variants, dialect_names, get_dialect

__all__ += ["DIALECT_MODULES", "all_variants", "dialect_names", "get_dialect"]
