"""The reference gateway with 20 ms added before every request it answers (``THINKWIRE_BENCH_DELAY_MS``
another figure): a SUT whose time per case is mostly waiting (as a real gateway's is on its provider),
for the concurrency benchmarks.

Run: ``python -m benchmarks._latency_gateway --port PORT --upstream BASE_URL``.
"""

from __future__ import annotations

import asyncio
import os
import sys
from typing import Any

from harness.reference.gateway import Gateway, main

DELAY_S = float(os.environ.get("THINKWIRE_BENCH_DELAY_MS", "20")) / 1000


class LatencyGateway(Gateway):
    async def handle(self, req: Any, resp: Any) -> None:
        await asyncio.sleep(DELAY_S)  # the SUT's own pacing: what the benchmark measures against
        await super().handle(req, resp)


if __name__ == "__main__":
    sys.exit(main(make=LatencyGateway))
