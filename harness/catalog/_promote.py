"""``thinkwire promote CASSETTE --id ID``: a frame seen in the wild becomes a permanent case. The recorded
bytes become both the case's expectation and its replayed answer."""

from __future__ import annotations

import json
import re
from pathlib import Path

from harness._errors import CassetteError
from harness.events import (
    End,
    Event,
    ReasoningDelta,
    ReasoningSignature,
    RedactedReasoning,
    TextDelta,
    ToolCallDelta,
    Usage,
    coalesce,
)
from harness.recording import Cassette, detect_dialect, read_cassette

__all__ = ["check_id", "promote", "scenario_toml"]

_SEGMENT = re.compile(r"[a-z0-9][a-z0-9._-]*")


def _q(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


def _step(ev: Event) -> str | None:
    if isinstance(ev, ReasoningDelta):
        return f"{{ reasoning = {_q(ev.text)} }}"
    if isinstance(ev, TextDelta):
        return f"{{ text = {_q(ev.text)} }}"
    if isinstance(ev, ReasoningSignature):
        return f"{{ signature = {_q(ev.value)} }}"
    if isinstance(ev, RedactedReasoning):
        return f"{{ redacted = {_q(ev.data)} }}"
    if isinstance(ev, ToolCallDelta):
        return (
            f"{{ tool_call = {{ id = {_q(ev.id or '')}, name = {_q(ev.name or '')}, "
            f"arguments = {_q(ev.arguments)} }} }}"
        )
    if isinstance(ev, Usage):
        parts = [
            f"{k} = {v}"
            for k, v in (
                ("input_tokens", ev.input_tokens),
                ("output_tokens", ev.output_tokens),
                ("reasoning_tokens", ev.reasoning_tokens),
                ("total_tokens", ev.total_tokens),
            )
            if v is not None
        ]
        return f"{{ usage = {{ {', '.join(parts)} }} }}" if parts else None
    if isinstance(ev, End):
        return f"{{ end = {_q(ev.reason)} }}"
    return None


def scenario_toml(
    cassette: Cassette, cassette_ref: str, *, description: str = "", variant: str | None = None
) -> str:
    from harness.dialects import get_dialect

    dialects = set()
    turns: list[str] = []
    any_error = False
    if not cassette.exchanges:
        raise CassetteError(f"{cassette.path}: holds no exchange (header only): record at least one request")
    for i, ex in enumerate(cassette.exchanges):
        if not ex.complete and ex.status < 400:
            raise CassetteError(
                f"{cassette.path}: exchange {i} ended {ex.end!r}, not 'complete': promote needs whole "
                "exchanges; re-record it (or remove its lines)"
            )
        dialect = cassette.dialect or detect_dialect(ex.path)
        if dialect is None:
            raise CassetteError(f"{cassette.path}: exchange {i}: unknown dialect; set it in the header line")
        dialects.add(dialect)
        if ex.status >= 400:
            any_error = True
            steps = [
                f"{{ http_error = {{ status = {ex.status}, "
                f"body = {_q(ex.body.decode(errors='replace'))} }} }}"
            ]
        else:
            d = get_dialect(dialect)
            obs = d.observer()
            events: list[Event] = []
            for c in ex.chunks:
                events += obs.feed(c.data)
            events += obs.end()
            steps = [s for s in (_step(e) for e in coalesce(events)) if s]
            if not steps:
                raise CassetteError(
                    f"{cassette.path}: exchange {i}: the {dialect} observer decoded no events"
                )
        user = '\nuser = "(recorded)"' if i == 0 else ""
        turns.append(
            f"[[turns]]{user}\nreplay = {{ cassette = {_q(cassette_ref)}, exchange = {i} }}\nsteps = [\n  "
            + ",\n  ".join(steps)
            + ",\n]\n"
        )
    dialect = sorted(dialects)[0]
    variant = variant or _variant_for(dialect, turns)
    default = f"Replays the recorded exchange(s) of {cassette_ref} byte for byte."
    head = [
        f"description = {_q(description or default)}",
        'requirement = "The SUT MUST deliver what the recorded upstream sent, with its original framing '
        + ('and chunk boundaries, and surface its error."' if any_error else 'and chunk boundaries."'),
        'category = "sse-framing"',
        'seeds = ["recorded"]',
        f"dialects = {json.dumps(sorted(dialects))}",
        f'variants = ["{variant}"]',
    ]
    if any_error:
        head.append('expect = { outcome = "error" }')
    return "\n".join(head) + "\n\n" + "\n".join(turns)


def _variant_for(dialect: str, turns: list[str]) -> str:
    """The first variant of the dialect that can carry what was recorded (replay ignores the variant,
    but the case id and the capability filter use it)."""
    import tomllib

    from harness.catalog._case import needed_caps
    from harness.catalog._scenario import parse_scenario
    from harness.dialects import get_dialect

    d = get_dialect(dialect)
    probe = (
        'description = "p"\nrequirement = "MUST"\ncategory = "sse-framing"\n'
        f'dialects = ["{dialect}"]\n\n' + "\n".join(turns)
    )
    need = needed_caps(parse_scenario(tomllib.loads(probe), sid="probe", file="<promote>"))
    for name, v in d.variants.items():
        if need <= v.caps:
            return name
    return d.default_variant


def check_id(scenario_id: str, root: Path) -> Path:
    """The scenario file for ``scenario_id``, proven to lie inside ``root``; a ``FlagError`` for
    anything else (``..``, an absolute path, a backslash, upper case, an empty segment, a suffix)."""
    from harness._errors import FlagError

    segments = scenario_id.split("/")
    bad = next((s for s in segments if not _SEGMENT.fullmatch(s) or s in (".", "..")), None)
    if bad is not None or scenario_id.endswith(".toml"):
        raise FlagError(
            f"--id {scenario_id!r}: expected a relative slug path inside the catalog (lower-case "
            "segments of a-z, 0-9, '.', '_', '-' joined by '/', no '..', no '.toml'), "
            "e.g. recorded/my-gateway-split-utf8"
        )
    target = (root / f"{scenario_id}.toml").resolve()
    if not target.is_relative_to(root.resolve()):  # a symlinked folder pointing out, say
        raise FlagError(f"--id {scenario_id!r}: resolves outside the catalog {root}; choose another id")
    return target


def _inside_package(path: Path) -> bool:
    package = Path(__file__).resolve().parents[1]  # the harness package
    return path.resolve().is_relative_to(package)


def _root(out: Path | None) -> Path:
    """Where the scenario goes: ``--out DIR``, else the catalog of a checkout; never into the installed
    package (a ``FlagError``)."""
    from harness._errors import FlagError
    from harness.catalog._scenario import catalog_dir

    if out is None:
        root = catalog_dir()
        if _inside_package(root):
            raise FlagError(
                "--out DIR is required outside a checkout: the catalog inside the installed package is not "
                "yours to write; promote into a directory of your own and run it with --scenarios-dir DIR"
            )
        return root
    if _inside_package(out):
        raise FlagError(f"--out {out}: inside the installed thinkwire package; choose a folder of your own")
    return out


def promote(
    cassette_path: Path,
    scenario_id: str,
    *,
    out: Path | None = None,
    root: Path | None = None,
    force: bool = False,
) -> Path:
    """Write the scenario for ``cassette_path`` as ``scenario_id`` under ``out`` (default: the catalog
    of a checkout). The cassette is copied beside the scenario file (``ID.jsonl``) and referenced
    relatively, unless it already lies in the checkout whose catalog is written (then the reference is
    relative to the checkout, as the bundled ``recordings/`` are).

    The scenario's steps are the events the dialect observer decodes from the recorded bytes, the
    expectation. Each turn replays the recorded exchange byte for byte, so the original framing and chunk
    boundaries are the case's perturbation. The id is a relative slug path: the file lands inside the
    catalog or not at all. A cassette with no exchange, or with an exchange the recorder truncated, is
    refused.
    """
    import shutil

    from harness.catalog._scenario import load_scenario

    root = root or _root(out)
    target = check_id(scenario_id, root)
    if target.exists() and not force:
        raise CassetteError(f"{target} exists: choose another --id or pass --force")
    cassette = read_cassette(cassette_path)
    beside = target.with_suffix(".jsonl")
    ref: str | None = None
    if out is None:
        try:
            ref = cassette_path.resolve().relative_to(root.parent.resolve()).as_posix()
        except ValueError:
            ref = None
    copy = ref is None and beside.resolve() != cassette_path.resolve()
    if copy and beside.exists() and not force:
        raise CassetteError(f"{beside} exists: choose another --id or pass --force")
    text = scenario_toml(cassette, ref or beside.name)  # refuses a bad cassette before anything is written
    target.parent.mkdir(parents=True, exist_ok=True)
    if copy:
        shutil.copyfile(cassette_path, beside)
    target.write_text(text, encoding="utf-8")
    load_scenario(target, root)  # the promoted file must load
    return target
