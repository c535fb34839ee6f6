"""The bundled reference SUTs: a correct gateway, SDK wrapper and agent CLI, each with fault switches, the
mutants, that reproduce real bug classes. They let the suite prove that every check catches its bug.

``gateway`` runs as ``python -m harness.reference.gateway``, ``sdk`` as
``harness.reference.sdk:reference_sdk`` and ``agent`` as ``python -m harness.reference.agent``. The fault
switches and their event filters live in ``_faults``, the byte-side ones, parser mutants and
``break-utf8``, in ``_parser_mutants``."""

from harness.reference._faults import (
    CLI_FAULTS,
    FAULTS,
    GATEWAY_FAULTS,
    SDK_FAULTS,
    FaultFilter,
    check_faults,
    own_process_faults,
)

__all__ = [
    "CLI_FAULTS",
    "FAULTS",
    "GATEWAY_FAULTS",
    "SDK_FAULTS",
    "FaultFilter",
    "check_faults",
    "own_process_faults",
]
