"""``RunOptions``: every setting of one run as one frozen value, from the command line through ``run()``. One
value passes down instead of ambient strings, so each setting is declared once, here."""

from __future__ import annotations

import dataclasses
import math
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from harness._errors import FlagError, closest
from harness.catalog import Expectations, load_expectations
from harness.drivers import SUTCallable, SUTProfile
from harness.runner._listen import Address, check_listen, check_upstream_url
from harness.runner._shard import Shard, load_durations, parse_shard
from harness.runner._sut import SUTSpec, resolve_sut

__all__ = ["Keep", "ResolvedSUT", "RunOptions"]

Keep = Literal["all", "failures", "none"]
"""Which results carry their serialised timeline: every one (reports need them), only those that did
not pass (what printing failures needs, at a fraction of the cost), none."""

_OVERRIDES = ("timeout", "ready_timeout", "gate_timeout", "max_bytes")
"""Settings that, when given, replace the profile's field of the same name."""


def _seconds(flag: str, value: Any) -> float | None:
    if value is None:
        return None
    number = isinstance(value, int | float) and not isinstance(value, bool)
    if not number or not math.isfinite(value) or value <= 0:
        shown = f"{value:g}" if isinstance(value, float) else repr(value)
        raise FlagError(f"{flag}: expected a number of seconds > 0, got {shown} (e.g. {flag} 30)")
    return float(value)


def _bytes(flag: str, value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise FlagError(f"{flag}: expected a number of bytes >= 1, got {value!r}")
    return value


def _count(what: str) -> Callable[[str, Any], int]:
    def check(flag: str, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise FlagError(f"{flag}: expected a number of {what} >= 1, got {value!r} (e.g. {flag} 2)")
        return value

    return check


def _lanes(flag: str, value: Any) -> int | None:
    return None if value is None else _count("cases in flight")(flag, value)


def _keep(flag: str, value: Any) -> Keep:
    """The one vocabulary; True / False (the old spelling of ``run(keep_timelines=...)``) still read."""
    if value is True or value is False:
        return "all" if value else "none"
    if value not in ("all", "failures", "none"):
        raise FlagError(f"{flag}: expected 'all', 'failures' or 'none', got {value!r}")
    kept: Keep = value
    return kept


def _faults(flag: str, value: Any) -> tuple[str, ...]:
    return (value,) if isinstance(value, str) else tuple(value)


def _names(what: str, known: Callable[[], Sequence[str]]) -> Callable[[str, Any], tuple[str, ...] | None]:
    """A list of names (or one string, comma-separated), each one of ``known()``."""

    def check(flag: str, value: Any) -> tuple[str, ...] | None:
        if value is None:
            return None
        items = [value] if isinstance(value, str) else list(value)
        names = tuple(n.strip() for item in items for n in str(item).split(",") if n.strip())
        options = list(known())
        for name in names:
            if name not in options:
                raise FlagError(f"{flag}: unknown {what} {name!r} ({closest(name, options)})")
        return names

    return check


def _dialects() -> Sequence[str]:
    from harness.dialects import dialect_names

    return dialect_names()


def _providers() -> Sequence[str]:
    from harness.dialects import provider_names

    return provider_names()


def _variant(flag: str, value: Any) -> str | None:
    return None if value is None else str(value)


def _paths(flag: str, value: Any) -> tuple[str | Path, ...]:
    return (value,) if isinstance(value, str | Path) else tuple(value)


def _meta(
    flag: str, check: Callable[[str, Any], Any] | None = None, *, reproduce: bool = False
) -> dict[str, Any]:
    """A field's flag (named in its errors and reproduce lines), its check, and whether a reproduce
    line repeats it."""
    return {"flag": flag, "check": check, "reproduce": reproduce}


def _declared(flag: str, value: Any) -> tuple[str | Path, ...]:
    """Directories of variant files, each read and added to its dialect now (before a case or a variant
    name is checked); a wrong file is a ScenarioError naming the file, the field and the fix."""
    from harness.dialects import declare_dir

    dirs = _paths(flag, value)
    for d in dirs:
        declare_dir(d)
    return dirs


def _importable(profile: SUTProfile) -> SUTCallable | None:
    """A python profile's callable, imported now to read what it declares; None when it cannot be
    (the preflight then reports why, as before)."""
    if profile.callable is None:
        return None
    from harness.drivers import DriverError, load_callable

    try:
        return load_callable(profile.callable, profile.sys_path)
    except DriverError:
        return None


@dataclass(frozen=True, slots=True)
class ResolvedSUT:
    """What a run's options name: the profile (with the options' timeouts and byte cap in it), the
    Python callable when one was given as an object, and the expectations to apply. Beside them, what the
    run reads of its options per case, computed once: the mock upstream's fixed address (None: a free
    port) and the flags a reproduce line repeats."""

    profile: SUTProfile
    fn: SUTCallable | None
    expectations: Expectations
    address: Address | None = None
    flags: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class RunOptions:
    """The settings of one run (every field has the default ``thinkwire run`` has).

    ``sut``: a profile, a built-in name, a profile path, a URL, ``module:callable`` or a Python callable
    (None: the reference gateway); ``faults``: fault switches of a built-in SUT; ``strict``: NON_STRICT
    counts as failure; ``expectations``: a file (or loaded Expectations) of known results (None: the
    profile's own); ``timeout``: each case's wall-clock budget over all its turns (None: the profile's);
    ``ready_timeout``: how long a started SUT may take to become ready; ``gate_timeout``: what a gate
    waits for the client (None: from the warm-up's latency); ``max_bytes``: what one case may read from
    the SUT; ``preflight``: the canary case first; ``repeat``: runs of every case (a case whose runs
    disagree is flaky); ``concurrency``: cases in flight at once
    through the one SUT (None: ``_concurrent.default_concurrency``; 1: one at a time; the verdicts are the
    same, so a reproduce line leaves it out); ``keep_timelines``: see :data:`Keep`;
    ``scenarios``: directories of a team's own scenarios, added to the catalog's; ``variants``: directories
    of its variant files (docs/writing-a-variant.md), added to their dialects; ``front_variant``,
    ``dialects``, ``providers``: the SUT's claims, replacing its profile's (``_claims``: what it does
    not claim is left out of the run); ``shard``: only share I of N of the claimed cases (``"I/N"``,
    ``_shard.split``); ``durations``: a results.json (or ``{case id: seconds}``) whose durations balance
    the shards; ``upstream_listen``: ``HOST:PORT`` where the mock upstream listens, for a SUT configured
    with that address (None: a free port on 127.0.0.1, told to a SUT thinkwire starts), and
    ``upstream_url``: the URL the SUT is told (``{upstream}``; default ``http://HOST:PORT``); both
    replace the profile's keys of the same names (:meth:`address`).

    Each setting is one field, declared with its default, its command-line flag, the check that refuses a
    bad value, and whether a reproduce line repeats it. A bad value is a :class:`FlagError` naming the
    flag, raised when the value is made. To add a setting, add a field: ``run(**settings)`` and the pytest
    plugin's ``thinkwire`` marker take it from there, and the command line gives it a flag in
    ``cli.build_parser``. How the settings bear on the SUT, its profile's timeouts, the byte cap and the
    expectations, is resolved once, in :meth:`resolve`.
    """

    sut: SUTSpec = field(default=None, metadata=_meta("--sut"))
    faults: tuple[str, ...] = field(default=(), metadata=_meta("--fault", _faults))
    strict: bool = field(default=False, metadata=_meta("--strict", reproduce=True))
    expectations: Expectations | str | Path | None = field(
        default=None, metadata=_meta("--expectations", reproduce=True)
    )
    timeout: float | None = field(default=None, metadata=_meta("--timeout", _seconds, reproduce=True))
    ready_timeout: float | None = field(
        default=None, metadata=_meta("--ready-timeout", _seconds, reproduce=True)
    )
    gate_timeout: float | None = field(
        default=None, metadata=_meta("--gate-timeout", _seconds, reproduce=True)
    )
    max_bytes: int | None = field(default=None, metadata=_meta("--max-bytes", _bytes, reproduce=True))
    preflight: bool = field(default=True, metadata=_meta("--no-preflight", reproduce=True))
    repeat: int = field(default=1, metadata=_meta("--repeat", _count("runs")))
    concurrency: int | None = field(default=None, metadata=_meta("--concurrency", _lanes))
    keep_timelines: Keep = field(default="all", metadata=_meta("keep_timelines", _keep))
    scenarios: tuple[str | Path, ...] = field(
        default=(), metadata=_meta("--scenarios-dir", _paths, reproduce=True)
    )
    variants: tuple[str | Path, ...] = field(
        default=(), metadata=_meta("--variants-dir", _declared, reproduce=True)
    )
    front_variant: str | None = field(
        default=None, metadata=_meta("--front-variant", _variant, reproduce=True)
    )
    dialects: tuple[str, ...] | None = field(
        default=None, metadata=_meta("--dialects", _names("dialect", _dialects), reproduce=True)
    )
    providers: tuple[str, ...] | None = field(
        default=None, metadata=_meta("--providers", _names("provider", _providers), reproduce=True)
    )
    shard: Shard | str | None = field(default=None, metadata=_meta("--shard", parse_shard))
    durations: Mapping[str, float] | str | Path | None = field(
        default=None, metadata=_meta("--durations", load_durations)
    )
    upstream_listen: str | None = field(
        default=None, metadata=_meta("--upstream-listen", check_listen, reproduce=True)
    )
    upstream_url: str | None = field(
        default=None, metadata=_meta("--upstream-url", check_upstream_url, reproduce=True)
    )

    def __post_init__(self) -> None:
        """Each given value checked (a default is known good), and kept in the form its check returns
        (``object.__setattr__``: how a frozen dataclass sets its own field while it is made)."""
        given = self.settings()
        for f in dataclasses.fields(self):
            check, value = f.metadata["check"], given[f.name]
            if check is not None and value is not f.default:
                object.__setattr__(self, f.name, check(f.metadata["flag"], value))

    @classmethod
    def build(cls, base: RunOptions | None = None, **settings: Any) -> RunOptions:
        """``base`` (default: all defaults) with ``settings`` (``run()``'s keyword arguments) applied;
        an unknown name is a TypeError naming the closest setting."""
        if "jobs" in settings:  # -j's pytest-xdist workers are gone: one release as concurrency's alias
            warnings.warn(
                "run setting 'jobs' is deprecated; use concurrency", DeprecationWarning, stacklevel=3
            )
            jobs = settings.pop("jobs")
            settings.setdefault("concurrency", jobs)
        names = [f.name for f in dataclasses.fields(cls)]
        for name in settings:
            if name not in names:
                raise TypeError(f"unknown run setting {name!r}: {closest(name, names)}")
        return dataclasses.replace(base, **settings) if base is not None else cls(**settings)

    def resolve(self) -> ResolvedSUT:
        """The SUT these options name, resolved once: its profile with ``timeout``, ``ready_timeout``,
        ``gate_timeout`` and ``max_bytes`` put in when given (so every driver, the preflight and a
        Python SUT's HTTP client see the same figures), and the expectations loaded."""
        sut = self.sut
        fn = sut if callable(sut) and not isinstance(sut, SUTProfile | str) else None
        profile = resolve_sut(sut, self.faults)
        _declared("variants_dir", profile.variants_dir)  # the profile's own variant files
        given = {name: v for name, v in self.settings().items() if name in _OVERRIDES and v is not None}
        if given:
            profile = dataclasses.replace(profile, **given)
        profile = self._claims(profile, fn)
        expectations = self.expectations
        if isinstance(expectations, str | Path):
            expectations = load_expectations(Path(expectations))
        elif expectations is None:
            expectations = load_expectations(Path(profile.expectations)) if profile.expectations else None
        return ResolvedSUT(
            profile, fn, expectations or Expectations(), self.address(profile), tuple(self.reproduce_flags())
        )

    def _claims(self, profile: SUTProfile, fn: SUTCallable | None) -> SUTProfile:
        """``profile`` with the claims a Python callable declares where it is defined (where the
        profile says nothing) and those of the flags (which win)."""
        from harness.drivers import with_declared_claims

        claims: dict[str, Any] = {}
        fn = fn if fn is not None else _importable(profile)
        if fn is not None:
            profile = with_declared_claims(profile, fn)
        if self.dialects is not None:
            claims["dialects"] = self.dialects
        if self.providers is not None:
            claims["providers"] = self.providers
        if self.front_variant is not None:
            from harness.dialects import get_dialect

            variants = list(get_dialect(profile.front_door).variants)
            if self.front_variant not in variants:
                raise FlagError(
                    f"--front-variant: unknown variant {self.front_variant!r} of front door "
                    f"{profile.front_door} ({closest(self.front_variant, variants)})"
                )
            claims |= {"front_variant": self.front_variant, "front_variant_pinned": True}
        return dataclasses.replace(profile, **claims) if claims else profile

    def address(self, profile: SUTProfile) -> Address | None:
        """Where the mock upstream listens and what the SUT is told, from these options, else from the
        profile's ``upstream_listen`` / ``upstream_url``; None: a free port, as every run had."""
        listen = self.upstream_listen or profile.upstream_listen
        url = self.upstream_url or (profile.upstream_url if not self.upstream_listen else None)
        if listen is None:
            if url is not None:
                raise FlagError(
                    f"--upstream-url {url}: needs --upstream-listen HOST:PORT (where the mock listens; "
                    "the URL is what the SUT is told)"
                )
            return None
        return Address.of(listen, url)

    def bound(self, address: Address) -> RunOptions:
        """These options with the mock upstream's address as it was bound (its port picked when 0;
        the URL given only when it is not the default)."""
        default = Address.of(address.listen, None).url
        url = address.url if address.url != default else None
        return dataclasses.replace(self, upstream_listen=address.listen, upstream_url=url)

    def bound_sut(self, address: Address, sut: ResolvedSUT) -> tuple[RunOptions, ResolvedSUT]:
        """:meth:`bound`, with ``sut`` (which these options resolved) naming the address and the
        reproduce flags the bound options give."""
        opts = self.bound(address)
        sut = dataclasses.replace(sut, address=opts.address(sut.profile), flags=tuple(opts.reproduce_flags()))
        return opts, sut

    def reproduce_flags(self) -> list[str]:
        """The flags a reproduce line repeats: the settings given that bear on a case's verdict."""
        out: list[str] = []
        given = self.settings()
        for f in dataclasses.fields(self):
            value = given[f.name]
            if not f.metadata["reproduce"] or value == f.default:
                continue
            flag = f.metadata["flag"]
            if isinstance(value, bool):
                out.append(flag)  # --strict; --no-preflight (its default is True)
            elif isinstance(value, Expectations):
                out += [flag, value.source] if value.source else []
            elif isinstance(value, tuple):
                out += [x for item in value for x in (flag, str(item))]
            else:
                out += [flag, f"{value:g}" if isinstance(value, float) else str(value)]
        return out

    def settings(self) -> dict[str, Any]:
        """The fields as keyword arguments (what ``run(**settings)`` takes), each named here: a new field
        is added here too (``tests/runner/test_options.py`` holds the two lists equal)."""
        return {
            "sut": self.sut,
            "faults": self.faults,
            "strict": self.strict,
            "expectations": self.expectations,
            "timeout": self.timeout,
            "ready_timeout": self.ready_timeout,
            "gate_timeout": self.gate_timeout,
            "max_bytes": self.max_bytes,
            "preflight": self.preflight,
            "repeat": self.repeat,
            "concurrency": self.concurrency,
            "keep_timelines": self.keep_timelines,
            "scenarios": self.scenarios,
            "variants": self.variants,
            "front_variant": self.front_variant,
            "dialects": self.dialects,
            "providers": self.providers,
            "shard": self.shard,
            "durations": self.durations,
            "upstream_listen": self.upstream_listen,
            "upstream_url": self.upstream_url,
        }
