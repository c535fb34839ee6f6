"""Drivers: start or point at a SUT, carry a case through its front door, record what comes back. Everything
that depends on the kind of SUT lives in this package, so nothing outside it compares a kind's name;
``tests/test_kind_names.py`` keeps it so."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from harness._lazy import lazy_names
from harness._registry import Registry
from harness.drivers._adapter import AdapterDriver
from harness.drivers._base import (
    CaseContext,
    CaseTooBig,
    Driver,
    DriverError,
    DriverTimeout,
    TurnOutcome,
    converse,
)
from harness.drivers._cli import CliDriver
from harness.drivers._cli_rpc import cli_unsupported
from harness.drivers._gateway import GatewayDriver, UrlDriver
from harness.drivers._kinds import KIND_TABLE, KINDS, Abilities
from harness.drivers._profile import (
    MARKUP,
    SUTOrigin,
    SUTProfile,
    load_profile,
    local_paths,
    parse_profile,
    substitute,
)
from harness.drivers._python import (
    AdapterError,
    PythonDriver,
    SUTCallable,
    SUTRequest,
    claims,
    declared_claims,
    load_callable,
    with_declared_claims,
)

__all__ = [
    "DRIVERS",
    "KINDS",
    "KIND_TABLE",
    "MARKUP",
    "Abilities",
    "AdapterDriver",
    "AdapterError",
    "CaseContext",
    "CaseTooBig",
    "CliDriver",
    "Driver",
    "DriverError",
    "DriverTimeout",
    "GatewayDriver",
    "PythonDriver",
    "SUTCallable",
    "SUTOrigin",
    "SUTProfile",
    "SUTRequest",
    "TurnOutcome",
    "UrlDriver",
    "claims",
    "cli_unsupported",
    "converse",
    "declared_claims",
    "load_callable",
    "load_profile",
    "local_paths",
    "make_driver",
    "parse_profile",
    "substitute",
    "with_declared_claims",
]


# To add a SUT kind, write ``harness/drivers/_<kind>.py`` with a class satisfying
# :class:`~harness.drivers._base.Driver`, give the kind its row of ``_kinds.KIND_TABLE``, and register its
# driver here under the same name.
DRIVERS: Registry[Callable[[SUTProfile, SUTCallable | None], Driver]] = Registry("SUT kind")
"""SUT kind (a profile's ``kind``) -> how to make its driver."""
DRIVERS.add("gateway", lambda profile, fn: GatewayDriver(profile))
DRIVERS.add("url", lambda profile, fn: UrlDriver(profile))
DRIVERS.add("python", PythonDriver)
DRIVERS.add("cli", lambda profile, fn: CliDriver(profile))
DRIVERS.add("adapter", lambda profile, fn: AdapterDriver(profile))


def make_driver(profile: SUTProfile, fn: SUTCallable | None = None) -> Driver:
    """The driver for ``profile.kind``; an unknown kind is an :class:`~harness._errors.UnknownName`."""
    return DRIVERS.get(profile.kind)(profile, fn)


# What other harness packages use from this one, loaded on first use (harness._lazy).
if TYPE_CHECKING:
    from harness.drivers._base import DEFAULT_MAX_BYTES
    from harness.drivers._process import become_subreaper, run_scope, stop_all
    from harness.drivers._python import short_traceback

_SHARED = {
    "DEFAULT_MAX_BYTES": "_base",
    "become_subreaper": "_process",
    "run_scope": "_process",
    "short_traceback": "_python",
    "stop_all": "_process",
}
__all__ += [
    "DEFAULT_MAX_BYTES",
    "become_subreaper",
    "run_scope",
    "short_traceback",
    "stop_all",
]
_shared = lazy_names(__name__, _SHARED)


def __getattr__(name: str) -> object:
    if name == "Kind":  # the record's old name, one release
        import warnings

        warnings.warn("harness.drivers.Kind is deprecated; use Abilities", DeprecationWarning, stacklevel=2)
        return Abilities
    return _shared(name)
