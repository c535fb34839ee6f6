"""Drivers: start or point at a SUT, carry a case through its front door, record what comes back.

To add a SUT kind: write ``harness/drivers/_<kind>.py`` with a class satisfying
:class:`~harness.drivers._base.Driver` and add it to :func:`make_driver`.
"""

from __future__ import annotations

from harness.drivers._base import CaseContext, Driver, DriverError, DriverTimeout, TurnOutcome, converse
from harness.drivers._cli import CliDriver
from harness.drivers._gateway import GatewayDriver, UrlDriver
from harness.drivers._profile import KINDS, SUTProfile, load_profile, parse_profile, substitute
from harness.drivers._python import PythonDriver, SUTCallable, SUTRequest, load_callable

__all__ = [
    "KINDS",
    "CaseContext",
    "CliDriver",
    "Driver",
    "DriverError",
    "DriverTimeout",
    "GatewayDriver",
    "PythonDriver",
    "SUTCallable",
    "SUTProfile",
    "SUTRequest",
    "TurnOutcome",
    "UrlDriver",
    "converse",
    "load_callable",
    "load_profile",
    "make_driver",
    "parse_profile",
    "substitute",
]


def make_driver(profile: SUTProfile, fn: SUTCallable | None = None) -> Driver:
    if profile.kind == "gateway":
        return GatewayDriver(profile)
    if profile.kind == "url":
        return UrlDriver(profile)
    if profile.kind == "python":
        return PythonDriver(profile, fn)
    return CliDriver(profile)
