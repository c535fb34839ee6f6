"""Provider dialects, a subpackage or module per provider wire: each emits, observes and strictly validates
every reasoning wire variant of its provider. The package is separate so that the mock, the drivers and the
checks meet a provider through one interface and never through its bytes."""

from typing import TYPE_CHECKING

from harness._lazy import lazy_names
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
from harness.dialects._loss import NeededLoss
from harness.dialects._request_forms import ROWS as REQUEST_FORMS
from harness.dialects._request_forms import Answer, RequestForm, answer_for, applied_defaults

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
    "NeededLoss",
    "Observer",
    "ProviderRules",
    "Reading",
    "Rejection",
    "RequestForm",
    "RequestSpec",
    "Transport",
    "Variant",
    "answer_for",
    "applied_defaults",
    "check_variant",
]

# To add a dialect, write a package ``harness/dialects/<name>/``, or one module for a small wire, with a
# subclass of :class:`~harness.dialects._base.Dialect` whose instance is ``DIALECT``; override the optional
# hooks the provider does differently, and add the module to ``DIALECT_MODULES`` in ``_registry.py``. A
# variant is one :class:`Variant` row (a Chat one may be a TOML file: ``declare_dir``). An unknown dialect
# or variant name raises :class:`~harness._errors.UnknownName`.
from harness.dialects._registry import (
    DIALECT_MODULES,
    all_variants,
    declare_dir,
    dialect_names,
    find_variant,
    get_dialect,
)

__all__ += ["DIALECT_MODULES", "all_variants", "declare_dir", "dialect_names", "find_variant", "get_dialect"]

# What other harness packages use from this one, loaded on first use (harness._lazy).
if TYPE_CHECKING:
    from harness.dialects._carriers import (
        CALL_SIGNATURES,
        CARRIERS,
        CarrierSpec,
        list_text,
        parse_carriers,
        server_tool_call,
    )
    from harness.dialects._providers import PROVIDERS, Provider, provider_names, provider_of
    from harness.dialects._senders import senders_of
    from harness.dialects._think import HARMONY
    from harness.dialects.openai_chat._wire import Reader

_SHARED = {
    "CALL_SIGNATURES": "_carriers",
    "CARRIERS": "_carriers",
    "CarrierSpec": "_carriers",
    "HARMONY": "_think",
    "PROVIDERS": "_providers",
    "Provider": "_providers",
    "Reader": "openai_chat._wire",
    "list_text": "_carriers",
    "parse_carriers": "_carriers",
    "provider_names": "_providers",
    "provider_of": "_providers",
    "senders_of": "_senders",
    "server_tool_call": "_carriers",
}
__all__ += [
    "CALL_SIGNATURES",
    "CARRIERS",
    "HARMONY",
    "PROVIDERS",
    "CarrierSpec",
    "Provider",
    "Reader",
    "list_text",
    "parse_carriers",
    "provider_names",
    "provider_of",
    "senders_of",
    "server_tool_call",
]
__getattr__ = lazy_names(__name__, _SHARED)
