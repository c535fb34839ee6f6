"""The ``thinkwire`` command line: run, list, serve, record, replay, promote, report, diff, merge. It parses
flags and prints, and every command calls the same public functions users can call from Python, such as
``harness.run`` with the ``RunOptions`` its flags make."""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from harness._cli_output import check_output as _check_output
from harness._cli_output import explained as _explained
from harness._cli_parser import build_parser
from harness._errors import FlagError, ThinkwireError
from harness._signals import Signals as _Signals

if TYPE_CHECKING:
    from harness.catalog import Case
    from harness.runner import RunOptions, RunResult

__all__ = ["build_parser", "main"]


def _use_corpus(args: argparse.Namespace) -> None:
    """``--corpus DIR`` is ``THINKWIRE_CORPUS`` for this process and the workers it starts."""
    if getattr(args, "corpus", None):
        import os

        from harness.recording import ENV

        folder = Path(args.corpus)
        if not folder.is_dir():
            raise FlagError(f"--corpus {args.corpus}: not a directory (the fidelity corpus folder)")
        os.environ[ENV] = str(folder.resolve())


def _cmd_init(args: argparse.Namespace) -> int:
    """A discovery run after ``run``'s preflight (a SUT that cannot be tested: one line, exit 2), the
    draft profile, and the command that runs it."""
    from harness.runner import RunOptions, command_profile, draft_profile, resolve_sut, url_profile

    options = RunOptions(upstream_listen=args.upstream_listen, upstream_url=args.upstream_url)
    if args.sut_cmd:
        sut = command_profile(args.sut_cmd, args.front_door, args.ready)
    elif args.sut_url:
        sut = url_profile(args.sut_url, args.front_door)
    else:
        sut = resolve_sut(args.sut)
    options.address(sut)  # (refused before anything starts: --upstream-url without --upstream-listen)
    given = {"upstream_listen": args.upstream_listen, "upstream_url": args.upstream_url}
    upstream = {k: v for k, v in given.items() if v}
    with _Signals() as stop:
        probes = _probe_until_signal(sut, stop, options)
    if probes is None:
        print(f"thinkwire init: interrupted by {stop.name}; no draft written", file=sys.stderr)
        return 128 + stop.signum
    out = Path(args.out).resolve().parent if args.out else None
    in_draft = sut.origin is None or sut.origin.form not in ("file", "builtin")
    draft = draft_profile(sut, probes, out, upstream if in_draft else None)
    probed = [p for p in probes if p.probed]
    unclaimed = [p for p in probed if not p.claimed]
    if args.out:
        Path(args.out).write_text(draft, encoding="utf-8")
        print(f"draft profile written to {args.out}")
    else:
        print(draft, end="")
    print(
        f"thinkwire init: {len(probed) - len(unclaimed)} of {len(probed)} variants claimed; "
        f"{len(unclaimed)} unclaimed (no request reached their upstream); "
        f"{len(probes) - len(probed)} not run (not for this kind of SUT, or no case plays them)",
        file=sys.stderr,
    )
    print(_next_command(args.out, {} if in_draft else upstream), file=sys.stderr)
    return 0


def _next_command(out: str | None, flags: dict[str, str]) -> str:
    """What to run once the draft is reviewed (``flags``: the upstream settings the draft cannot hold)."""
    import shlex

    extra = [x for key, value in flags.items() for x in ("--" + key.replace("_", "-"), value)]
    if out:
        return "next: " + shlex.join(["thinkwire", "run", "--sut", out, *extra])
    return "next: write the draft to a file (thinkwire init ... --out my-sut.toml), review it, then " + (
        shlex.join(["thinkwire", "run", "--sut", "my-sut.toml", *extra])
    )


def _probe_until_signal(sut: Any, stop: _Signals, options: RunOptions) -> Any:
    """``init``'s discovery run under ``stop``: its probes, or None when SIGINT/SIGTERM ended it (every
    SUT it started is stopped first, as a run's are)."""
    from harness.drivers import run_scope, stop_all
    from harness.runner import RunInterrupted, probe

    with run_scope():  # a marker in every SUT's environment: what still carries it is stopped at the end
        try:
            return probe(sut, options=options)
        except (RunInterrupted, KeyboardInterrupt):
            stop_all()
            stop.signum = stop.signum or signal.SIGINT
            return None
        finally:
            stop.disarm()


def _cmd_list(args: argparse.Namespace) -> int:
    if args.variants:
        from harness.dialects import all_variants

        for v in all_variants():
            print(f"{v.dialect:20} {v.name:18} {v.catalog_id:16} {v.description}")
        return 0
    if args.checks:
        from harness.judge import Check, PairCheck, case_checks, pair_checks

        listed: list[Check | PairCheck] = [*case_checks(), *pair_checks()]  # the order the runner calls them
        for c in listed:
            print(f"{c.name:20} {c.axis.value:8} {c.description}")
        return 0
    if args.faults:
        from harness.reference import FAULTS

        for name, text in FAULTS.items():
            print(f"{name:24} {text}")
        return 0
    from harness.catalog import expand, load_catalog, select

    _use_corpus(args)
    scenarios = load_catalog(extra=args.scenario_dirs)
    if args.by_scenario:
        for s in scenarios:
            seeds = f" seeds={','.join(s.seeds)}" if s.seeds else ""
            print(f"{s.id:60} {s.category:22} {len(expand(s)):4} cases{seeds}  {s.requirement}")
        return 0
    chosen = select([c for s in scenarios for c in expand(s)], args.cases)
    if not chosen:
        raise FlagError(_no_match(args.cases))
    for case in chosen:
        s = case.scenario
        seeds = f" seeds={','.join(s.seeds)}" if s.seeds else ""
        print(f"{case.id}  [{s.category}]{seeds}  {s.requirement}")
    return 0


def _no_match(patterns: Sequence[str] | None, known: Sequence[Case] = ()) -> str:
    """Why ``--cases`` selected nothing; with the ``known`` cases, the ids closest to a mistyped one."""
    import difflib
    import fnmatch

    from harness.catalog import left_out

    msg = f"--cases: no case matches {' '.join(patterns or ['*'])} (see thinkwire list --by-scenario)"
    ids = sorted({c.id for c in known} | {c.scenario.id for c in known})
    for pattern in patterns or ():
        near = difflib.get_close_matches(pattern, ids, n=2, cutoff=0.8)
        if near:
            msg += f"; {pattern}: did you mean {' or '.join(near)}?"
    gone = left_out()
    if gone and any(fnmatch.fnmatch(i, p.split("[")[0]) for p in patterns or ["*"] for i in gone.ids):
        msg += f"; the corpus cases are left out: {gone.reason}"
    return msg


def _builtin_door(sut: str | None, door: str, faults: tuple[str, ...]) -> Any:
    """``--front-door`` with a built-in SUT: its profile behind that door, the fault switches on."""
    from harness.runner import BUILTIN, builtin_behind_door

    if sut is not None and sut not in BUILTIN:
        raise FlagError(f"--front-door {door}: with --sut, only for a built-in SUT ({', '.join(BUILTIN)})")
    return builtin_behind_door(sut or "reference", door, faults)


def _run_options(args: argparse.Namespace) -> RunOptions:
    """The run's settings from its flags (a bad value is a FlagError naming the flag)."""
    from harness.runner import RunOptions, command_profile, url_profile

    if args.durations and not args.shard:
        raise FlagError("--durations: balances shards, so it needs --shard I/N (e.g. --shard 1/3)")
    sut: Any = args.sut
    faults = tuple(args.fault)
    if args.sut_cmd:
        sut = command_profile(args.sut_cmd, args.front_door or "openai-chat", args.ready)
    elif args.sut_url:
        sut = url_profile(args.sut_url, args.front_door or "openai-chat")
    elif args.front_door:
        sut, faults = _builtin_door(args.sut, args.front_door, faults), ()
    return RunOptions(
        sut=sut,
        faults=faults,
        strict=args.strict,
        expectations=args.expectations,
        timeout=args.timeout,
        ready_timeout=args.ready_timeout,
        gate_timeout=args.gate_timeout,
        max_bytes=args.max_bytes,
        preflight=not args.no_preflight,
        repeat=args.repeat,
        concurrency=args.concurrency,
        keep_timelines="all" if args.keep_timelines else "failures",
        scenarios=tuple(args.scenarios),
        front_variant=args.front_variant,
        dialects=args.dialects,
        providers=args.providers,
        shard=args.shard,
        durations=args.durations,
        upstream_listen=args.upstream_listen,
        upstream_url=args.upstream_url,
    )


def _check_run_args(args: argparse.Namespace) -> tuple[RunOptions, list[Case]]:
    """Everything ``run`` can refuse, refused before the first case: the settings, the SUT profile,
    the cases, and the output paths writable (a run of minutes must not end in a traceback about its
    report). Returns the run's options and cases."""
    from harness.runner import load_cases

    options = _run_options(args)
    profile = options.resolve().profile  # raises ProfileError naming the file and field, FlagError the flag
    scenarios = [*options.scenarios, *profile.scenarios]
    cases = load_cases(args.cases, scenarios=scenarios)
    if not cases:
        raise FlagError(_no_match(args.cases, load_cases(scenarios=scenarios)))
    if args.report:
        _check_output("--report", Path(args.report), directory=True)
    if args.junit:
        _check_output("--junit", Path(args.junit), directory=False)
    if args.write_expectations:
        _check_output("--write-expectations", Path(args.write_expectations), directory=False)
    return options, cases


def _run_until_signal(
    cases: list[Case], options: RunOptions, quiet: bool, stop: _Signals
) -> RunResult | None:
    """The run itself, under ``stop``: a RunResult (``interrupted`` set when a signal ended it early),
    None when a signal came before any case."""
    from harness.drivers import run_scope, stop_all
    from harness.report import Progress
    from harness.runner import RunInterrupted, RunResult, run

    result: RunResult | None = None
    with run_scope(), contextlib.ExitStack() as mock:  # run_scope: a marker in every SUT's environment,
        upstream, options = _fixed_upstream(options, mock)  # what still carries it is stopped at the end
        try:
            result = run(cases, options, progress=Progress(quiet=quiet), upstream=upstream)
        except RunInterrupted as exc:
            result = exc.result
            stop.signum = stop.signum or signal.SIGINT  # (a KeyboardInterrupt from outside our handler)
        except KeyboardInterrupt:
            stop_all()
            stop.signum = stop.signum or signal.SIGINT
        finally:
            stop.disarm()
    if stop.signum and result is None:  # stopped before the first case (e.g. during preflight): an
        result = RunResult(sut=options.resolve().profile.name)  # empty partial report says what happened
    if stop.signum and result is not None:
        result.interrupted = stop.name
    return result


def _fixed_upstream(options: RunOptions, stack: contextlib.ExitStack) -> tuple[Any, RunOptions]:
    """The mock upstream at ``--upstream-listen`` (or the profile's ``upstream_listen``), started now,
    before any SUT, and said in one line: where it listens and the URL the SUT is told; (None,
    ``options``) when the run picks a free port itself. A port that cannot be bound is a FlagError."""
    from harness.runner import fixed_upstream

    upstream, options = fixed_upstream(options, options.resolve().profile, stack)
    if upstream is not None:
        address = options.address(options.resolve().profile)
        assert address is not None
        print(
            f"thinkwire: mock upstream listening on {address.listen}; the SUT is told {address.url}",
            file=sys.stderr,
        )
    return upstream, options


def _cmd_run(args: argparse.Namespace) -> int:
    from harness._errors import PreflightError

    _use_corpus(args)
    options, cases = _check_run_args(args)  # everything refusable, refused before the first case
    with _Signals() as stop:
        try:
            result = _run_until_signal(cases, options, args.quiet, stop)
        except PreflightError as exc:
            raise ThinkwireError(_explained(args, str(exc), exc.detail, "preflight.txt")) from None
        if stop.signum or result is None:  # (None: a signal came before any result)
            return _interrupted(args, result, stop)
        return _finish_run(args, result)


def _interrupted(args: argparse.Namespace, result: RunResult | None, stop: _Signals) -> int:
    """One line, the partial report (cases not run are absent), exit 128 + signal number."""
    where = ""
    if result is not None and (args.report or args.junit):
        _write_reports(args, result)
        where = f"; partial report in {args.report or args.junit}"
    done = len(result.results) if result is not None else 0
    end_bar = "" if args.quiet else "\n"  # the progress line is left open
    print(f"{end_bar}thinkwire: interrupted by {stop.name} after {done} case(s){where}", file=sys.stderr)
    return 128 + stop.signum


def _write_reports(args: argparse.Namespace, result: RunResult) -> None:
    if args.report:
        from harness.report import write_reports

        write_reports(result, Path(args.report))
    if args.junit:
        from harness.report import SWIMLANES, write_junit

        write_junit(result, Path(args.junit), Path(args.report) / SWIMLANES if args.report else None)


def _finish_run(args: argparse.Namespace, result: RunResult) -> int:
    """The run ran out: failures, summary, expectations and reports, as always."""
    from harness.catalog import corpus_left_out, write_expectations
    from harness.report import print_failures, print_summary

    result.left_out.update(corpus_left_out(args.cases))  # (run() was handed Case objects: it cannot)

    if result.sut_error:
        from harness.runner import stderr_tail

        detail = next((r.error for r in result.results if r.error), "")
        tail = "" if args.verbose else stderr_tail(result.sut_stderr)  # (-v prints all of it above)
        said = _explained(args, result.sut_error, detail, "sut-start.txt")
        print(f"thinkwire: {said}{tail}", file=sys.stderr)
    if result.exit_code != 2:  # (nothing could run: the one line says why, not N copies of it)
        print_failures(result)
        print_summary(result)
    if args.write_expectations:
        n = write_expectations(result.results, Path(args.write_expectations))
        print(f"wrote {n} expectation(s) to {args.write_expectations}")
    _write_reports(args, result)
    if args.report:
        print(f"report written to {args.report}")
    return result.exit_code


def _lifecycle(args: argparse.Namespace) -> dict[str, Any]:
    out: dict[str, Any] = {"port_file": Path(args.port_file) if args.port_file else None}
    if args.grace is not None:
        out["grace"] = args.grace
    return out


def _cmd_serve(args: argparse.Namespace) -> int:
    from harness.upstream import demo_conversation, serve_forever

    if args.catalog or args.scenario:
        from harness.catalog import scenario_conversation, serve_catalog

        if args.catalog:
            root = Path(args.scenarios) if args.scenarios else None
            return serve_catalog(args.cases, root, port=args.port, **_lifecycle(args))
        conversation = scenario_conversation(args.scenario, args.dialect, args.variant, args.provider_rules)
    else:
        conversation = demo_conversation(args.dialect, args.variant, args.provider_rules)
    return serve_forever(conversation, port=args.port, **_lifecycle(args))


def _warn(cassette: Any) -> None:
    for w in cassette.warnings:
        print(f"thinkwire: warning: {w}", file=sys.stderr)


def _cmd_replay(args: argparse.Namespace) -> int:
    from harness.recording import conversation_from_cassette, read_cassette
    from harness.upstream import serve_forever

    cassette = read_cassette(Path(args.cassette))
    _warn(cassette)
    conv = conversation_from_cassette(cassette, timing=args.timing, rechunk=args.rechunk)
    if not conv.scripts:
        print(
            f"thinkwire: warning: {args.cassette} holds no exchange: every request will be answered 500",
            file=sys.stderr,
        )
    return serve_forever(conv, port=args.port, label="replay", **_lifecycle(args))


def _cmd_promote(args: argparse.Namespace) -> int:
    from harness.catalog import promote

    target = promote(
        Path(args.cassette), args.id, out=Path(args.out) if args.out else None, force=args.force
    )
    print(f"wrote {target}")
    return 0


def _cmd_record(args: argparse.Namespace) -> int:
    from harness.recording import Redactor, parse_listen, record_forever

    _, port = parse_listen(args.listen)
    return record_forever(
        args.upstream,
        Path(args.out),
        port=port,
        dialect=args.dialect,
        redactor=Redactor(args.redact_header, args.redact_json, args.redact_query, args.redact_value),
        mode="a" if args.append else "w" if args.force else "x",
        **_lifecycle(args),
    )


def _cmd_show(args: argparse.Namespace) -> int:
    """``thinkwire show``: the case run again as ``run`` would, every timeline kept, then printed."""
    import shlex

    from harness.report import render_show

    flags = list(args.flags)
    ran = build_parser().parse_args(["run", *flags])  # the run's flags: errors name the flag (exit 2)
    report = args.report or ran.report
    if report:
        line = _stored_reproduce(Path(report), args.case)
        argv = shlex.split(line)
        if argv[:2] != ["thinkwire", "run"]:
            raise FlagError(f"--report {report}: {args.case} cannot be run again from its line: {line}")
        ran = build_parser().parse_args([*argv[1:], *[f for f in flags if f not in ("--report", report)]])
    ran.report = ran.junit = ran.write_expectations = None
    ran.keep_timelines, ran.repeat, ran.concurrency = True, 1, None
    ran.cases = [args.case]
    options, cases = _check_run_args(ran)
    if len(cases) != 1:
        shown = ", ".join(c.id for c in cases[:4]) + (", ..." if len(cases) > 4 else "")
        raise FlagError(f"show: {args.case!r} matches {len(cases)} cases; name one: {shown}")
    with _Signals() as stop:
        result = _run_until_signal(cases, options, True, stop)
    if result is None or not result.results:
        return 128 + stop.signum if stop.signum else 2
    print(render_show(result.results[0], cases[0]), end="")
    return result.exit_code


def _stored_reproduce(report: Path, case_id: str) -> str:
    """The reproduce line ``report``'s results.json holds for ``case_id`` (a FlagError when absent)."""
    from harness.report import ResultsError, load_results

    try:
        stored = load_results(report / "results.json")
    except (OSError, ResultsError) as exc:
        raise FlagError(f"--report {report}: cannot read results.json: {exc}") from None
    for r in stored.results:
        if r.case_id == case_id:
            return r.reproduce
    raise FlagError(f"--report {report}: no case {case_id!r} in its results.json")


# Exit code 0 only when no unexpected failure remains. A flag that earns a refusal is refused before
# anything starts, and SIGINT or SIGTERM turns into a partial report.
def main(argv: Sequence[str] | None = None) -> int:
    if argv is None:  # the program itself (not embedded): detached SUT descendants are re-parented
        from harness.drivers import become_subreaper  # here, where they can be found

        become_subreaper()
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    try:
        if args.command == "list":
            return _cmd_list(args)
        if args.command == "run":
            return _cmd_run(args)
        if args.command == "init":
            return _cmd_init(args)
        if args.command == "serve":
            return _cmd_serve(args)
        if args.command == "replay":
            return _cmd_replay(args)
        if args.command == "promote":
            return _cmd_promote(args)
        if args.command == "record":
            return _cmd_record(args)
        if args.command == "show":
            return _cmd_show(args)
        if args.command == "import":
            from harness.recording import run_import

            return run_import(args)
        if args.command == "corpus":
            from harness import _cli_corpus as _corpus_cli

            return _corpus_cli.run(args)
        if args.command == "merge":
            from harness import _cli_merge as _merge

            return _merge.run(args)
        if args.command in ("report", "diff"):
            from harness import _cli_diff as _diff_cli
            from harness import _cli_report as _cli

            return _cli.run(args) if args.command == "report" else _diff_cli.run(args)
    except ThinkwireError as exc:
        print(f"thinkwire: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # ``thinkwire list | head -1``: the reader left; no traceback
        import os

        with contextlib.suppress(OSError):  # stdout's buffered rest must not fail again at exit
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # as a process killed by SIGPIPE
    parser.error(f"unknown command {args.command!r}")
    return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
