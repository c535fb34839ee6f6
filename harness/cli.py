"""The ``thinkwire`` command line: run, list, serve, record, replay, promote, report, diff, merge.

Rule: argument parsing and printing only (with the refusals a flag earns before anything starts, and
SIGINT/SIGTERM turned into a partial report); every command calls the same public functions users can
call from Python (``harness.suite.run`` with the ``RunOptions`` its flags make ...). Exit code 0 only
when no unexpected failure remains.
"""

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
from harness._errors import FlagError, ThinkwireError
from harness._signals import Signals as _Signals

if TYPE_CHECKING:
    from harness.suite import Case, RunOptions, RunResult

__all__ = ["main"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="thinkwire",
        description="Conformance test harness for LLM reasoning (thinking) streams.",
    )
    parser.add_argument("--version", action="version", version="thinkwire 0.1.0")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    _add_run_parser(sub)

    ls = sub.add_parser("list", help="print the catalog: case ids, requirement, axes")
    ls.add_argument("--variants", action="store_true", help="list every wire variant instead")
    ls.add_argument("--scenarios", action="store_true", help="one line per scenario instead of per case")
    ls.add_argument("--checks", action="store_true", help="list the checks")
    ls.add_argument("--faults", action="store_true", help="list the reference SUTs' fault switches")
    ls.add_argument("--cases", action="append", help="glob of case or scenario ids")
    ls.add_argument(
        "--scenarios-dir", dest="scenario_dirs", action="append", default=[], metavar="DIR",
        help="a directory of your own scenarios, listed with the catalog (repeatable)",
    )

    serve = sub.add_parser("serve", help="run the mock upstream standalone until SIGTERM / Ctrl-C")
    serve.add_argument("--dialect", default="openai-chat")
    serve.add_argument("--variant")
    serve.add_argument("--scenario", help="serve this scenario's conversation instead of a canned turn")
    serve.add_argument("--profile", default="lenient", help="provider profile (strict validation)")
    serve.add_argument("--catalog", action="store_true", help="serve every case, any per request")
    serve.add_argument("--cases", action="append", help="with --catalog: glob of case or scenario ids")
    serve.add_argument("--scenarios", metavar="DIR", help="with --catalog: a scenarios dir of your own")
    _add_server_flags(serve)
    rec = sub.add_parser(
        "record", help="transparent recording proxy: forward each chunk as it arrives, write a cassette"
    )
    rec.add_argument("--upstream", required=True, help="base URL of the real provider or gateway")
    rec.add_argument("--listen", default="127.0.0.1:0", help="HOST:PORT to listen on (127.0.0.1 only)")
    rec.add_argument("--out", required=True, help="cassette path, e.g. recordings/NAME.jsonl")
    how = rec.add_mutually_exclusive_group()
    how.add_argument("--append", action="store_true", help="add to an existing cassette")
    how.add_argument("--force", action="store_true", help="replace an existing cassette")
    rec.add_argument("--dialect", help="dialect name for the header (guessed from the path otherwise)")
    rec.add_argument("--redact-header", action="append", default=[], help="extra header-name regex to redact")
    rec.add_argument("--redact-query", action="append", default=[], help="extra query-name regex to redact")
    rec.add_argument("--redact-json", action="append", default=[], help="extra dotted JSON path to redact")
    rec.add_argument("--redact-value", action="append", default=[], help="extra value regex to redact")
    _add_server_flags(rec, port=False)

    rep = sub.add_parser("replay", help="serve a cassette as a mock upstream")
    rep.add_argument("cassette")
    rep.add_argument("--timing", default="none", help="recorded | none | xN (N times faster)")
    rep.add_argument("--rechunk", help="re-split with a chunker (bytes, utf8-split, random:SEED ...)")
    _add_server_flags(rep)

    pro = sub.add_parser("promote", help="turn a cassette into a scenario file under scenarios/")
    pro.add_argument("cassette")
    pro.add_argument("--id", required=True, help="scenario id, e.g. recorded/my-gateway-split-utf8")
    pro.add_argument("--force", action="store_true", help="overwrite an existing scenario")

    from harness.recording import _import_cli
    from harness.report import _cli, _diff_cli, _merge

    _import_cli.add_parser(sub)
    _cli.add_parser(sub)
    _diff_cli.add_parser(sub)
    _merge.add_parser(sub)
    return parser


def _add_run_parser(sub: Any) -> None:
    """``thinkwire run``'s flags: one for each RunOptions field (harness.suite._options), plus the
    outputs (reports, JUnit, expectations written) and the progress display."""
    run = sub.add_parser(
        "run", help="run the conformance suite against a SUT (default: the reference gateway)"
    )
    who = run.add_mutually_exclusive_group()
    who.add_argument(
        "--sut",
        help="SUT profile TOML, a Python module:callable, or a built-in: reference, reference-sdk, "
        "reference-cli",
    )
    who.add_argument("--sut-cmd", help="a gateway command line ({upstream}, {port}, {tmp} are substituted)")
    who.add_argument("--sut-url", help="URL of a SUT that is already running")
    run.add_argument(
        "--front-door", default="openai-chat", help="dialect the SUT speaks (with --sut-cmd/--sut-url)"
    )
    run.add_argument("--ready", help="readiness URL (with --sut-cmd); default {url}/health")
    run.add_argument("--fault", action="append", default=[], help="fault switch for a built-in reference SUT")
    run.add_argument("--cases", action="append", help="glob of case or scenario ids (repeatable)")
    run.add_argument(
        "--scenarios",
        action="append",
        default=[],
        metavar="DIR",
        help="a directory of your own scenarios, added to the catalog (repeatable)",
    )
    _add_shard_flags(run)
    run.add_argument("--strict", action="store_true", help="NON_STRICT counts as failure")
    run.add_argument("--expectations", help="expectations TOML (case id -> expected verdict)")
    run.add_argument(
        "--write-expectations", metavar="FILE", help="write this run's non-passing cases as expectations"
    )
    run.add_argument("--report", metavar="DIR", help="write results.json, summary.md and report.html here")
    run.add_argument("--junit", metavar="FILE", help="write JUnit XML")
    run.add_argument("--keep-timelines", action="store_true", help="keep passing cases' whole timelines too")
    run.add_argument("-j", "--jobs", type=int, default=1, help="parallel workers (pytest-xdist)")
    run.add_argument(
        "--concurrency", type=int, metavar="N",
        help="cases in flight at once through the one SUT (default: 8 for a gateway or URL; 1 in-process)",
    )
    run.add_argument(
        "--timeout", type=float, help="each case's wall-clock budget in seconds, over all its turns"
    )
    run.add_argument(
        "--gate-timeout",
        type=float,
        help="seconds a gate waits for the client (default: from the SUT's warm-up latency)",
    )
    run.add_argument("--max-bytes", type=int, help="bytes one case may read from the SUT (default 64 MiB)")
    run.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="run every case N times; cases whose verdicts differ are FLAKY (exit 3)",
    )
    run.add_argument(
        "--ready-timeout",
        type=float,
        metavar="S",
        help="how long a started SUT may take to become ready (default: the profile's, else 15)",
    )
    run.add_argument(
        "--no-preflight",
        action="store_true",
        help="skip the canary case (a SUT that cannot be tested then gives one ERROR/TIMEOUT per case)",
    )
    run.add_argument(
        "-q", "--quiet", action="store_true", help="no progress bar: one line a minute, then the summary"
    )
    run.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="print the whole traceback and timeline of a failed preflight or SUT start",
    )


def _add_shard_flags(run: argparse.ArgumentParser) -> None:
    """``--shard`` and ``--durations``: one machine's share of the run (``harness.suite._shard``)."""
    run.add_argument(
        "--shard", metavar="I/N",
        help="run share I of N of the selected cases (the same split on every machine; join the shards' "
        "reports with thinkwire merge)",
    )
    run.add_argument(
        "--durations", metavar="FILE",
        help="with --shard: balance the shares by the case durations of an earlier run's results.json",
    )


def _cmd_list(args: argparse.Namespace) -> int:
    if args.variants:
        from harness.dialects import all_variants

        for v in all_variants():
            print(f"{v.dialect:20} {v.name:18} {v.catalog_id:16} {v.description}")
        return 0
    if args.checks:
        from harness.suite.checks import Check, PairCheck, case_checks, pair_checks

        listed: list[Check | PairCheck] = [*case_checks(), *pair_checks()]  # the order the runner calls them
        for c in listed:
            print(f"{c.name:20} {c.axis.value:8} {c.description}")
        return 0
    if args.faults:
        from harness.reference._faults import FAULTS

        for name, text in FAULTS.items():
            print(f"{name:24} {text}")
        return 0
    from harness.suite import expand, load_catalog, select

    scenarios = load_catalog(extra=args.scenario_dirs)
    if args.scenarios:
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


def _no_match(patterns: Sequence[str] | None) -> str:
    return f"--cases: no case matches {' '.join(patterns or ['*'])} (see thinkwire list --scenarios)"


def _run_options(args: argparse.Namespace) -> RunOptions:
    """The run's settings from its flags (a bad value is a FlagError naming the flag)."""
    from harness.suite import RunOptions
    from harness.suite._sut import command_profile, url_profile

    if args.durations and not args.shard:
        raise FlagError("--durations: balances shards, so it needs --shard I/N (e.g. --shard 1/3)")
    sut: Any = args.sut
    if args.sut_cmd:
        sut = command_profile(args.sut_cmd, args.front_door, args.ready)
    elif args.sut_url:
        sut = url_profile(args.sut_url, args.front_door)
    return RunOptions(
        sut=sut,
        faults=tuple(args.fault),
        strict=args.strict,
        expectations=args.expectations,
        timeout=args.timeout,
        ready_timeout=args.ready_timeout,
        gate_timeout=args.gate_timeout,
        max_bytes=args.max_bytes,
        preflight=not args.no_preflight,
        repeat=args.repeat,
        jobs=args.jobs,
        concurrency=args.concurrency,
        keep_timelines="all" if args.keep_timelines else "failures",
        scenarios=tuple(args.scenarios),
        shard=args.shard,
        durations=args.durations,
    )


def _check_run_args(args: argparse.Namespace) -> tuple[RunOptions, list[Case]]:
    """Everything ``run`` can refuse, refused before the first case: the settings, the SUT profile,
    the cases, and the output paths writable (a run of minutes must not end in a traceback about its
    report). Returns the run's options and cases."""
    from harness.suite import load_cases

    options = _run_options(args)
    profile = options.resolve().profile  # raises ProfileError naming the file and field, FlagError the flag
    cases = load_cases(args.cases, scenarios=[*options.scenarios, *profile.scenarios])
    if not cases:
        raise FlagError(_no_match(args.cases))
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
    from harness.drivers._process import run_scope, stop_all
    from harness.report._console import Progress
    from harness.suite import RunInterrupted, RunResult, run

    result: RunResult | None = None
    with run_scope():  # a marker in every SUT's environment: what still carries it is stopped at the end
        try:
            result = run(cases, options, progress=Progress(quiet=quiet))
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


def _cmd_run(args: argparse.Namespace) -> int:
    from harness._errors import PreflightError

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
    from harness.report._console import print_failures, print_summary
    from harness.suite import write_expectations

    if result.sut_error:
        detail = next((r.error for r in result.results if r.error), "")
        print(f"thinkwire: {_explained(args, result.sut_error, detail, 'sut-start.txt')}", file=sys.stderr)
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


def _add_server_flags(p: argparse.ArgumentParser, *, port: bool = True) -> None:
    """The lifecycle flags serve, replay and record share (``--grace`` defaults to DEFAULT_GRACE in
    harness.net._lifecycle, not imported here: building the parser stays cheap)."""
    if port:
        p.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (0 picks a free one)")
    p.add_argument("--port-file", metavar="PATH", help="write the listening port here once listening")
    p.add_argument(
        "--grace",
        type=float,
        metavar="SECONDS",
        help="time in-flight requests get after SIGTERM / Ctrl-C, then they are cut (default 5)",
    )


def _lifecycle(args: argparse.Namespace) -> dict[str, Any]:
    out: dict[str, Any] = {"port_file": Path(args.port_file) if args.port_file else None}
    if args.grace is not None:
        out["grace"] = args.grace
    return out


def _cmd_serve(args: argparse.Namespace) -> int:
    from harness.upstream import demo_conversation, serve_forever

    if args.catalog or args.scenario:
        from harness.suite._serve_catalog import scenario_conversation, serve_catalog

        if args.catalog:
            root = Path(args.scenarios) if args.scenarios else None
            return serve_catalog(args.cases, root, port=args.port, **_lifecycle(args))
        conversation = scenario_conversation(args.scenario, args.dialect, args.variant, args.profile)
    else:
        conversation = demo_conversation(args.dialect, args.variant, args.profile)
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
    from harness.suite._promote import promote

    target = promote(Path(args.cassette), args.id, force=args.force)
    print(f"wrote {target}")
    return 0


def _cmd_record(args: argparse.Namespace) -> int:
    from harness.recording import Redactor, record_forever
    from harness.recording._proxy import parse_listen

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


def main(argv: Sequence[str] | None = None) -> int:
    if argv is None:  # the program itself (not embedded): detached SUT descendants are re-parented
        from harness.drivers._process import become_subreaper  # here, where they can be found

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
        if args.command == "serve":
            return _cmd_serve(args)
        if args.command == "replay":
            return _cmd_replay(args)
        if args.command == "promote":
            return _cmd_promote(args)
        if args.command == "record":
            return _cmd_record(args)
        if args.command == "import":
            from harness.recording import _import_cli

            return _import_cli.run(args)
        if args.command == "merge":
            from harness.report import _merge

            return _merge.run(args)
        if args.command in ("report", "diff"):
            from harness.report import _cli, _diff_cli

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
