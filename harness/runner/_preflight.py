"""Preflight and warm-up: one canary case through the SUT's front door before any case is judged. A SUT that
cannot be tested at all stops the run with one line, :class:`PreflightError`, instead of hundreds of empty
verdicts."""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import replace as dc_replace
from typing import TYPE_CHECKING, Any

from harness._errors import PreflightError
from harness.catalog import Case, expand_all, left_out_reason, load_catalog
from harness.dialects import LENIENT
from harness.drivers import Driver, DriverError, SUTProfile, substitute
from harness.runner._case_run import run_case
from harness.runner._gate_budget import relay_time
from harness.runner._state import Limits
from harness.verdict import Status

if TYPE_CHECKING:
    from harness.upstream import LiveUpstream

__all__ = [
    "address",
    "canary_case",
    "check_sut",
    "explain",
    "first_line",
    "stderr_hint",
    "stderr_tail",
]


def stderr_hint(exc: DriverError) -> str:
    """The last line the SUT wrote to stderr, for a one-line error."""
    lines = [ln for ln in (exc.stderr or "").splitlines() if ln.strip()]
    return f" (its stderr ends: {lines[-1].strip()[:200]})" if lines else ""


def stderr_tail(stderr: str, n: int = 8) -> str:
    """The last ``n`` non-blank lines of a SUT's stderr, indented under the line that says it could not
    start ("" when it wrote nothing): why it exited, without ``-v``."""
    lines = [ln.rstrip()[:300] for ln in stderr.splitlines() if ln.strip()][-n:]
    if not lines:
        return ""
    return "\n  its stderr ends:" + "".join(f"\n  | {ln}" for ln in lines)


def first_line(exc: BaseException) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


_PLAINEST = "wire-variants/reasoning-then-answer"
"""The scenario a canary comes from when the SUT claims one of its plain cases."""


def canary_case(profile: SUTProfile, catalog: Sequence[Case] | None = None) -> Case:
    """The case preflight and warm-up send: a plain one-turn streamed answer the SUT claims. Without a
    ``catalog`` the plainest scenario's file is read first, and the whole catalog only when the SUT
    claims none of its plain cases."""
    if catalog is None:
        first = _canary(profile, expand_all(load_catalog(only=[_PLAINEST])), plainest_only=True)
        return first or _canary(profile, expand_all(load_catalog())) or _no_canary(profile)
    return _canary(profile, list(catalog)) or _no_canary(profile)


def _no_canary(profile: SUTProfile) -> Case:
    raise PreflightError(f"the SUT {profile.name!r} claims no case of the catalog (check its dialects)")


def _canary(profile: SUTProfile, cases: list[Case], plainest_only: bool = False) -> Case | None:
    """The plainest case of ``cases`` the SUT claims (``plainest_only``: of the plainest scenario's
    plain cases, or None)."""
    streams = profile.modes is None or "stream" in profile.modes  # (a nonstream-only SUT: a whole answer)

    def plain(c: Case) -> bool:
        t = c.turns
        return (
            len(t) == 1
            and not t[0].faulted
            and t[0].cancel is None
            and t[0].replay is None
            and c.stream == streams
            and c.chunking == "frames"
            and c.perturbation == "none"
            and c.provider_rules == LENIENT
        )

    claimed = [
        c
        for c in cases
        if profile.claims(c.dialect, c.variant)
        and c.scenario.for_kind(profile.kind)
        and not left_out_reason(c, profile)
    ]
    for c in claimed:  # the plainest: reasoning then an answer, in the SUT's first claimed variant
        if plain(c) and c.scenario.id == _PLAINEST:
            return c
    if plainest_only:
        return None
    for c in claimed:
        if plain(c) and c.scenario.category == "wire-variants":
            return c
    for c in claimed:
        if plain(c):
            return c
    return claimed[0] if claimed else None


def address(profile: SUTProfile, driver: Driver) -> str:
    """Where the SUT is reached: the URL (a gateway's with the port picked when it started; a URL
    SUT's as given), a Python SUT's callable, a CLI's command."""
    url = driver.base_url
    if profile.abilities.at_url and url:
        return str(url)
    if profile.abilities.in_process:
        return profile.callable or profile.name
    values = {**profile.run_values(), **driver.values}  # as it was started
    return shlex.join(substitute(word, values) for word in profile.command[:3])


def check_sut(profile: SUTProfile, driver: Driver, upstream: LiveUpstream, limits: Limits) -> None:
    """One canary case through the front door; then, for gateway/url SUTs, a warm-up that measures
    the first-byte latency the gates' timeout derives from (into ``limits.measured``).

    A SUT that is unreachable, never calls the mock upstream, cannot be imported, raises before calling it
    or hangs is such a SUT. A gateway or url SUT is warmed up, and its first-byte latency sets the gates'
    timeout, since slow is not buffering.
    """
    from harness.upstream import ClientSide

    canary = canary_case(profile)
    # a SUT whose first call also starts it (a python SUT imports its SDK then: the anthropic SDK's
    # import alone took >10 s on a loaded 2-core machine) has a case's budget plus its ready_timeout
    cold = profile.ready_timeout if profile.abilities.cold_start else 0.0
    asked = limits.settings
    starting = Limits(dc_replace(asked, timeout=asked.timeout + cold), limits.measured, limits.live)
    result, view, _ = run_case(canary, profile, driver, upstream, ClientSide, starting, "all")
    where = address(profile, driver)
    name = f"the SUT {profile.name!r}" if profile.name != where else "the SUT"
    first = view.turns[0] if view is not None and view.turns else None
    if result.status == Status.TIMEOUT:
        raise PreflightError(
            f"preflight: {name} at {where} did not answer the canary case {canary.id} within "
            f"{starting.settings.timeout:g}s",
            explain(canary.id, result.error, view),
        )
    if first is None or not first.reached:
        if first is not None and first.raised:
            why = f"raised {first.raised[0].info.get('error')} before calling the upstream"
        elif first is not None and not first.observed and first.client_errors:
            errors = "; ".join(str(e.info.get("error", "")) for e in first.client_errors)
            why = f"is unreachable: {errors}"
        elif result.status == Status.ERROR:
            why = f"failed: {first_line(Exception(result.error))}"
        else:
            why = (
                "answered without calling the mock upstream (is its upstream URL configured? the mock "
                f"listens at {upstream.base_url})"
            )
        raise PreflightError(f"preflight: {name} at {where} {why}", explain(canary.id, result.error, view))
    measured = limits.measured
    measured.latency = result.first_byte_s
    measured.relay = relay_time(view) if view is not None else None
    measured.routable = _routable(canary, view)
    if asked.gate_timeout is None and (
        profile.warmup if profile.warmup is not None else profile.abilities.warmup
    ):
        warm, warm_view, _ = run_case(canary, profile, driver, upstream, ClientSide, limits, "none")
        if warm_view is not None and (relay := relay_time(warm_view)) is not None:
            measured.relay = relay
        latency = warm.first_byte_s
        if latency is not None:
            measured.gate_timeout = min(max(1.0, 10 * latency), asked.timeout)
            measured.latency = latency


def _routable(canary: Case, view: Any) -> bool:
    """Did every upstream request of the canary carry its routing token (in the body, or the
    ``x-thinkwire-case`` header)? Only then can a request be told apart from other cases' in flight."""
    requests = [e for e in view.entries if e.side == "upstream" and e.act == "request"]
    token = canary.token
    return bool(requests) and all(
        token.encode() in e.data or token in str(e.info.get("headers", {})) for e in requests
    )


def explain(case_id: str, error: str, view: Any) -> str:
    """The whole story of a failed canary: the harness error (with its traceback), the SUT's own
    tracebacks, and the timeline, one entry a line (what ``PreflightError.detail`` carries)."""
    import json

    from harness.runner._case_run import serialize_timeline

    out = [f"canary case: {case_id}"]
    if error:
        out += ["", "error:", error]
    entries = view.entries if view is not None else []
    for e in entries:
        if e.side == "client" and e.act == "error" and e.info.get("traceback"):
            out += ["", f"the SUT raised (turn {e.turn}):", str(e.info["traceback"])]
    out += ["", "timeline (ms since the first entry):"]
    for item in serialize_timeline(entries):
        out.append(json.dumps(item, ensure_ascii=False, default=str)[:600])
    return "\n".join(out) + "\n"
