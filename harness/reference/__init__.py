"""The bundled reference SUTs: a correct gateway, SDK wrapper and agent CLI, each with fault switches
(mutants) that reproduce real bug classes so the suite can prove every check catches its bug.

``gateway`` (``python -m harness.reference.gateway``), ``sdk`` (``harness.reference.sdk:reference_sdk``),
``agent`` (``python -m harness.reference.agent``); the fault switches and their event filters in
``_faults``, the byte-side ones (parser mutants, ``break-utf8``) in ``_parser_mutants``.
"""

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
