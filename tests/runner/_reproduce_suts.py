"""SUTs for tests/runner/test_reproduce.py, each with the ``drop-reasoning`` fault on (so a plain case
FAILs): a Python callable (named ``_reproduce_suts:dropping`` with tests/runner on the path) and the
reference gateway reached through a URL that names the upstream (``/up/<upstream URL>/v1/...``: a URL
SUT started before the run can still reach the run's mock upstream)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from typing import Any

from harness.events import Event
from harness.net import Request, Responder
from harness.reference.gateway import Gateway
from harness.reference.sdk import reference_sdk


def dropping(request: Any) -> Iterable[Event]:
    """The reference SDK wrapper, losing every reasoning delta."""
    return reference_sdk(dataclasses.replace(request, faults=request.faults | {"drop-reasoning"}))


class RoutedGateway(Gateway):
    """The reference gateway with ``drop-reasoning``, whose upstream is the one its request path names."""

    def __init__(self) -> None:
        super().__init__("http://127.0.0.1:9", faults=("drop-reasoning",))

    async def handle(self, req: Request, resp: Responder) -> None:
        routed = re.fullmatch(r"/up/(https?://[^/]+)(/.*)", req.path)
        if routed is not None:
            self.upstream = routed.group(1)
            req = dataclasses.replace(req, target=routed.group(2))
        await super().handle(req, resp)
