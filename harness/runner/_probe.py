"""``thinkwire init``: a short discovery run, one plain case per dialect and variant, and the draft profile it
gives: what the SUT claims, with the evidence line of each variant. Nothing is judged here, so a bug found
during discovery stays a FAIL of the full run."""

from __future__ import annotations

import contextlib
import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from harness._errors import PreflightError
from harness.catalog import Case, expand_all, load_catalog, observed_parses
from harness.dialects import LENIENT
from harness.drivers import Driver, SUTProfile
from harness.runner._options import RunOptions
from harness.runner._preflight import canary_case, stderr_tail
from harness.runner._rounds import Progress
from harness.runner._run import fixed_upstream, run

if TYPE_CHECKING:
    from harness.upstream import LiveUpstream

__all__ = ["VariantProbe", "draft_profile", "preflight", "probe", "probe_cases", "program_name"]

_FIRST = "wire-variants/reasoning-then-answer"


@dataclass(frozen=True, slots=True)
class VariantProbe:
    """One variant's discovery: whether the SUT speaks it (``claimed``) and the line that shows it."""

    dialect: str
    variant: str
    case_id: str
    claimed: bool
    evidence: str
    probed: bool = True  # False: its case does not apply to this SUT's kind (UNSUPPORTED in any run)


def _plainness(case: Case) -> tuple[bool, ...]:
    t = case.turns
    return (
        case.scenario.id == _FIRST,
        case.scenario.category == "wire-variants",
        len(t) == 1 and not t[0].faulted and t[0].cancel is None and t[0].replay is None,
        case.stream and case.chunking == "frames" and case.perturbation == "none",
        case.provider_rules == LENIENT,
    )


def probe_cases(cases: Sequence[Case] | None = None) -> list[Case]:
    """One case per dialect and variant of the catalog: its plainest (a one-turn streamed answer of
    the lenient provider, ``reasoning-then-answer`` first)."""
    best: dict[tuple[str, str], Case] = {}
    for case in expand_all(load_catalog()) if cases is None else cases:
        key = (case.dialect, case.variant)
        if key not in best or _plainness(case) > _plainness(best[key]):
            best[key] = case
    return list(best.values())


def probe(
    sut: SUTProfile, *, progress: Progress | None = None, options: RunOptions | None = None
) -> list[VariantProbe]:
    """Run :func:`probe_cases` through ``sut`` (claiming every dialect, mode and provider for the
    while) and say, per variant, whether the SUT speaks it and what reached its client. ``options``:
    the run settings that still apply (the mock upstream's address, ``upstream_listen``).

    First the preflight ``run`` makes, on the SUT as it was named (its own claims): a SUT that is
    unreachable, never calls the upstream or cannot start raises :class:`PreflightError`, one line,
    and nothing is claimed. The same SUT process then serves the discovery.

    A variant is left unclaimed only where the SUT visibly never speaks it: no request of its case reached
    the mock upstream in the case's dialect. Either nothing came, every request addressed another dialect's
    path, or the front door refused the request. A variant whose request reached the upstream is claimed
    whatever its verdict.
    """
    everything = dataclasses.replace(sut, dialects=None, modes=None, providers=None, unsupported_variants=())
    cases = probe_cases()
    with contextlib.ExitStack() as stack:
        opts, upstream, pool = _discovery_setup(sut, options or RunOptions(), stack)
        preflight(sut, opts, upstream, pool)
        result = run(
            cases, opts, sut=everything, keep_timelines="all", expectations=None, preflight=False,
            progress=progress, upstream=upstream, drivers=pool,
        )  # fmt: skip
    if result.sut_error and not any(r.timeline for r in result.results):
        raise PreflightError(f"init: {result.sut_error}{stderr_tail(result.sut_stderr)}")
    by_id = {c.id: c for c in cases}
    out = []
    for r in result.results:
        case = by_id[r.case_id]
        support = next((f.message for f in r.findings if f.check == "support"), "")
        if support:
            out.append(VariantProbe(case.dialect, case.variant, case.id, False, support, probed=False))
            continue
        reached, evidence = _evidence(r.timeline or [], case.dialect, _own_paths(case))
        out.append(VariantProbe(case.dialect, case.variant, case.id, reached, evidence))
    from harness.dialects import all_variants

    seen = {(p.dialect, p.variant) for p in out}
    out += [
        VariantProbe(v.dialect, v.name, "", False, "no case of the catalog plays it", probed=False)
        for v in all_variants()
        if (v.dialect, v.name) not in seen
    ]
    return out


def _discovery_setup(
    sut: SUTProfile, opts: RunOptions, stack: contextlib.ExitStack
) -> tuple[RunOptions, LiveUpstream, dict[str, Driver]]:
    """The mock upstream (at the options' fixed address, else a free port) and the SUT pool that the
    preflight and the discovery share, both stopped with ``stack``."""
    from harness.upstream import MockUpstream

    upstream, opts = fixed_upstream(opts, sut, stack)
    if upstream is None:
        upstream = stack.enter_context(MockUpstream())
    pool: dict[str, Driver] = {}

    def stop_pool() -> None:
        while pool:
            pool.popitem()[1].stop()

    stack.callback(stop_pool)
    return opts, upstream, pool


def preflight(sut: SUTProfile, opts: RunOptions, upstream: LiveUpstream, pool: dict[str, Driver]) -> None:
    """``run``'s preflight on ``sut`` (its canary case, on its own claims), leaving the started SUT in
    ``pool``; a SUT that cannot be tested raises :class:`PreflightError`, one line."""
    result = run(
        [canary_case(sut)], opts, sut=sut, keep_timelines="none", expectations=None, preflight=True,
        upstream=upstream, drivers=pool,
    )  # fmt: skip
    if result.sut_error:
        raise PreflightError(f"init: {result.sut_error}{stderr_tail(result.sut_stderr)}")


def _own_paths(case: Case) -> tuple[str, ...]:
    from harness.dialects import get_dialect

    return get_dialect(case.dialect).variants[case.variant].paths


def _evidence(
    timeline: list[dict[str, Any]], dialect: str, own: tuple[str, ...] = ()
) -> tuple[bool, str]:
    """(a request reached the upstream, the evidence line) of one case's serialised timeline; ``own``:
    the path suffixes of the variant's own endpoint, which a request must address to reach it."""
    requests = [e for e in timeline if e["side"] == "upstream" and e["act"] == "request"]

    errors = [
        str(e["info"].get("error", ""))
        for e in timeline
        if e["side"] == "upstream" and e["act"] == "server-error"
    ]
    elsewhere = [e for e in errors if " addresses " in e]  # the mock's 404: another dialect's path
    statuses = [e["info"].get("status") for e in timeline if e["side"] == "client" and e["act"] == "status"]
    status = statuses[0] if statuses else None
    reasoning = "".join(
        e["event"].get("text", "")
        for e in timeline
        if e["side"] == "client" and e["act"] == "event" and e["event"].get("type") == "ReasoningDelta"
    )
    text = "".join(
        e["event"].get("text", "")
        for e in timeline
        if e["side"] == "client" and e["act"] == "event" and e["event"].get("type") == "TextDelta"
    )
    if not requests or len(elsewhere) == len(requests):
        why = f"the front door answered {status}" if status is not None else "no answer"
        if elsewhere:
            why = "its requests addressed another dialect: " + elsewhere[0].split(" addresses ", 1)[1]
        return False, f"no request reached the {dialect} upstream ({why})"
    paths = [str(e["info"].get("path", "")).split("?", 1)[0] for e in requests]
    if own and not any(p.endswith(own) for p in paths):
        return False, (
            f"no request reached the variant's own endpoint (*{' / *'.join(own)}): its requests addressed "
            f"{paths[0]}"
        )
    got = f"reasoning {reasoning[:40]!r}" if reasoning else "no reasoning"
    return True, f"upstream reached; the client got {got}, text {text[:30]!r} (status {status})"


def draft_profile(
    sut: SUTProfile,
    probes: Sequence[VariantProbe],
    out_dir: Path | None = None,
    upstream: dict[str, str] | None = None,
) -> str:
    """The draft profile (TOML): how to start the SUT, what it claims, and each variant's evidence. A
    SUT named by a profile file keeps that file, comments and all, with its claims replaced (and its
    relative paths made to name the same files from ``out_dir``, where the draft is written); a
    built-in keeps its whole definition; a command line or URL gets the fields it was given, named
    after its program (:func:`program_name`), and ``upstream``'s keys (``upstream_listen``,
    ``upstream_url``: the mock's fixed address the discovery used)."""
    upstream = upstream or {}
    claimed = [p for p in probes if p.claimed]
    dialects = sorted({p.dialect for p in claimed})
    unsupported = sorted(
        f"{p.dialect}:{p.variant}" for p in probes if p.probed and not p.claimed and p.dialect in dialects
    )
    claims = [
        f"dialects = [{', '.join(_q(d) for d in dialects)}]",
        f"unsupported_variants = [{', '.join(_q(u) for u in unsupported)}]",
        observed_parses(probes),
    ]
    head = [
        "# Draft SUT profile written by `thinkwire init` from a discovery run (one case per variant).",
        "# Review it: a claimed variant is one whose request reached the upstream, whatever its verdict.",
    ]
    mark = {(True, True): "claimed  ", (True, False): "unclaimed", (False, False): "not run  "}
    shown = ["", "# What each variant showed:"] + [
        f"#   {mark[p.probed, p.claimed]} {p.dialect}:{p.variant}: {p.evidence}"
        for p in sorted(probes, key=lambda p: (p.dialect, p.variant))
    ]
    origin = sut.origin
    if origin is not None and origin.form == "file":
        source = Path(origin.value)
        body = _file_with_claims(source.read_text(encoding="utf-8"), claims)
        body = _relocated(body, source.resolve().parent, (out_dir or Path.cwd()).resolve())
        return "\n".join([*head, body.rstrip("\n"), *shown]) + "\n"
    if origin is not None and origin.form == "builtin":
        from harness.runner._builtin import BUILTIN

        data = {k: v for k, v in BUILTIN[origin.value].items() if k not in _CLAIMS}
        return "\n".join(head + [f"{k} = {_value(v)}" for k, v in data.items()] + claims + shown) + "\n"
    lines = [*head, f"name = {_q(program_name(sut))}", f"kind = {_q(sut.kind)}"]
    if sut.command:
        lines.append(f"command = [{', '.join(_q(w) for w in sut.command)}]")
    if origin is not None and origin.given_url:  # (--sut-url)
        lines.append(f"url = {_q(origin.given_url)}")
    if sut.callable:
        lines.append(f"callable = {_q(sut.callable)}")
    if origin is not None and origin.ready:
        lines.append(f"ready = {_q(origin.ready)}")
    lines.append(f"front_door = {_q(sut.front_door)}")
    if sut.input != "argv":
        lines.append(f"input = {_q(sut.input)}")
    if sut.models:
        lines.append("models = { " + ", ".join(f"{_q(k)} = {_q(v)}" for k, v in sut.models.items()) + " }")
    lines += [f"{key} = {_q(value)}" for key, value in upstream.items()]
    return "\n".join(lines + claims + shown) + "\n"


_RUNNERS = re.compile(
    r"(python[\d.]*|pypy[\d.]*|\{python\}|node|deno|bun|ruby|perl|php|java|(ba)?sh|uvx?|npx)"
)
"""Programs that run the SUT's program, named by a later word (``python gw.py``, ``node dist/gw.js``)."""


def program_name(sut: SUTProfile) -> str:
    """The name a draft gives the SUT: its program's (``gw`` for ``python ./gw.py --port {port}``, the
    module of ``python -m pkg.gw``, ``my-gateway`` for ``/usr/bin/my-gateway --flag``), never its whole
    command line; a URL SUT keeps its URL, any other its name."""
    words = list(sut.command)
    if not words:
        return sut.name
    first = Path(words[0]).name
    if not _RUNNERS.fullmatch(first):
        return first
    rest = iter(words[1:])
    for word in rest:
        if word == "-m":
            return next(rest, first).rsplit(".", 1)[-1]
        if word in ("run", "exec") or word.startswith("-"):  # (uv run x.py, node --flag x.js)
            continue
        return Path(word).stem if Path(word).suffix else Path(word).name
    return first


_CLAIMS = ("dialects", "unsupported_variants", "parses")
"""The claims a discovery run finds (a profile's ``modes`` and ``providers`` stay as they were)."""


def _file_with_claims(text: str, claims: Sequence[str]) -> str:
    """A profile file's text with its top-level claims (one line or a multi-line array each) turned into
    comments (``# before init: ...``, beside the comments that explained them) and the discovered
    ``claims`` put where its top-level keys end (before its first table)."""
    out: list[str] = []
    depth = 0  # open brackets of a claim being commented out
    top = True
    placed = False
    for line in text.splitlines():
        if depth:
            depth += line.count("[") - line.count("]")
            out.append("#   " + line)
            continue
        key = line.split("=", 1)[0].strip()
        if top and "=" in line and key in _CLAIMS:
            value = line.split("=", 1)[1]
            depth = max(value.count("[") - value.count("]"), 0)
            out.append("# before init: " + line)
            continue
        if top and line.lstrip().startswith("["):  # the first table: the top-level keys end here
            top, placed = False, True
            out += [*claims, ""]
        out.append(line)
    if not placed:
        out += claims
    return "\n".join(out) + "\n"


_PATH_KEYS = re.compile(r"^(expectations|sys_path|scenarios)\s*=(.*)$")
_QUOTED = re.compile(r'"([^"]*)"')


def _relocated(text: str, source: Path, out: Path) -> str:
    """``text`` (a profile of the ``source`` directory) written to ``out``: ``{profile_dir}`` and the
    relative paths of the keys read relative to the profile become ``source``'s absolute ones, so that
    they name the same files from there."""
    if source == out:
        return text
    where = source.as_posix()

    def path(m: re.Match[str]) -> str:
        word = m.group(1)
        return m.group(0) if word.startswith(("/", "{")) else _q(f"{where}/{word}")

    lines = []
    for line in text.replace("{profile_dir}", where).splitlines():
        m = _PATH_KEYS.match(line)
        lines.append(f"{m.group(1)} ={_QUOTED.sub(path, m.group(2))}" if m else line)
    return "\n".join(lines) + "\n"


def _value(v: Any) -> str:
    """A built-in profile's value as TOML (strings, numbers, booleans, lists and tables of them)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, str):
        return _q(v)
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_q(str(k))} = {_value(x)}" for k, x in v.items()) + " }"
    return "[" + ", ".join(_value(x) for x in v) + "]"


def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
