"""The ``thinkwire`` command line: run, list, serve, record, replay, promote, report.

Rule: argument parsing and printing only; every command calls the same public functions users can
call from Python (``harness.suite.run`` ...). Exit code 0 only when no unexpected failure remains.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from harness._errors import ThinkwireError

if TYPE_CHECKING:
    from harness.suite import RunResult

__all__ = ["main"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="thinkwire",
        description="Conformance test harness for LLM reasoning (thinking) streams.",
    )
    parser.add_argument("--version", action="version", version="thinkwire 0.1.0")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    run = sub.add_parser(
        "run", help="run the conformance suite against a SUT (default: the reference gateway)"
    )
    who = run.add_mutually_exclusive_group()
    who.add_argument("--sut", help="SUT profile TOML, or a built-in: reference, reference-sdk, reference-cli")
    who.add_argument("--sut-cmd", help="a gateway command line ({upstream}, {port}, {tmp} are substituted)")
    who.add_argument("--sut-url", help="URL of a SUT that is already running")
    run.add_argument(
        "--front-door", default="openai-chat", help="dialect the SUT speaks (with --sut-cmd/--sut-url)"
    )
    run.add_argument("--ready", help="readiness URL (with --sut-cmd); default {url}/health")
    run.add_argument("--fault", action="append", default=[], help="fault switch for a built-in reference SUT")
    run.add_argument("--cases", action="append", help="glob of case or scenario ids (repeatable)")
    run.add_argument("--strict", action="store_true", help="NON_STRICT counts as failure")
    run.add_argument("--expectations", help="expectations TOML (case id -> expected verdict)")
    run.add_argument(
        "--write-expectations", metavar="FILE", help="write this run's non-passing cases as expectations"
    )
    run.add_argument("--report", metavar="DIR", help="write results.json, summary.md and report.html here")
    run.add_argument("--junit", metavar="FILE", help="write JUnit XML")
    run.add_argument("-j", "--jobs", type=int, default=1, help="parallel workers (pytest-xdist)")
    run.add_argument("--timeout", type=float, help="per-case timeout in seconds")
    run.add_argument(
        "--ready-timeout",
        type=_seconds,
        metavar="S",
        help="how long a started SUT may take to become ready (default: the profile's, else 15)",
    )
    run.add_argument("-q", "--quiet", action="store_true", help="no progress bar")

    ls = sub.add_parser("list", help="print the catalog: case ids, requirement, axes")
    ls.add_argument("--variants", action="store_true", help="list every wire variant instead")
    ls.add_argument("--scenarios", action="store_true", help="one line per scenario instead of per case")
    ls.add_argument("--checks", action="store_true", help="list the checks")
    ls.add_argument("--faults", action="store_true", help="list the reference SUTs' fault switches")
    ls.add_argument("--cases", action="append", help="glob of case or scenario ids")

    serve = sub.add_parser("serve", help="run the mock upstream standalone until interrupted")
    serve.add_argument("--dialect", default="openai-chat")
    serve.add_argument("--variant")
    serve.add_argument("--scenario", help="serve this scenario's conversation instead of a canned turn")
    serve.add_argument("--port", type=int, default=0)
    serve.add_argument("--profile", default="lenient", help="provider profile (strict validation)")
    rec = sub.add_parser(
        "record", help="transparent recording proxy: forward each chunk as it arrives, write a cassette"
    )
    rec.add_argument("--upstream", required=True, help="base URL of the real provider or gateway")
    rec.add_argument("--listen", default="127.0.0.1:0", help="HOST:PORT to listen on (127.0.0.1 only)")
    rec.add_argument("--out", required=True, help="cassette path, e.g. recordings/NAME.jsonl")
    rec.add_argument("--dialect", help="dialect name for the header (guessed from the path otherwise)")
    rec.add_argument("--redact-header", action="append", default=[], help="extra header-name regex to redact")
    rec.add_argument("--redact-json", action="append", default=[], help="extra dotted JSON path to redact")

    rep = sub.add_parser("replay", help="serve a cassette as a mock upstream")
    rep.add_argument("cassette")
    rep.add_argument("--port", type=int, default=0)
    rep.add_argument("--timing", default="none", help="recorded | none | xN (N times faster)")
    rep.add_argument("--rechunk", help="re-split with a chunker (bytes, utf8-split, random:SEED ...)")

    pro = sub.add_parser("promote", help="turn a cassette into a scenario file under scenarios/")
    pro.add_argument("cassette")
    pro.add_argument("--id", required=True, help="scenario id, e.g. recorded/my-gateway-split-utf8")
    pro.add_argument("--force", action="store_true", help="overwrite an existing scenario")

    from harness.report._cli import add_parser as add_report_parser

    add_report_parser(sub)
    return parser


def _cmd_list(args: argparse.Namespace) -> int:
    if args.variants:
        from harness.dialects import all_variants

        for v in all_variants():
            print(f"{v.dialect:20} {v.name:18} {v.catalog_id:16} {v.description}")
        return 0
    if args.checks:
        from harness.suite.checks import CHECKS
        from harness.suite.checks._parity import DESCRIPTION

        for name, c in CHECKS.items():
            print(f"{name:20} {c.axis.value:8} {c.description}")
        print(f"{'parity':20} {'stream':8} {DESCRIPTION}")
        return 0
    if args.faults:
        from harness.reference._faults import FAULTS

        for name, text in FAULTS.items():
            print(f"{name:24} {text}")
        return 0
    from harness.suite import expand, load_catalog, select

    scenarios = load_catalog()
    if args.scenarios:
        for s in scenarios:
            seeds = f" seeds={','.join(s.seeds)}" if s.seeds else ""
            print(f"{s.id:60} {s.category:22} {len(expand(s)):4} cases{seeds}  {s.requirement}")
        return 0
    for case in select([c for s in scenarios for c in expand(s)], args.cases):
        s = case.scenario
        seeds = f" seeds={','.join(s.seeds)}" if s.seeds else ""
        print(f"{case.id}  [{s.category}]{seeds}  {s.requirement}")
    return 0


def _seconds(text: str) -> float:
    """A positive number of seconds (argparse type)."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}")
    return value


def _profile_from_flags(args: argparse.Namespace) -> Any:
    from harness.drivers import parse_profile

    if getattr(args, "ready_timeout", None) is not None and not args.sut_cmd and not args.sut_url:
        import dataclasses

        from harness.suite import resolve_sut

        profile = resolve_sut(args.sut, args.fault)
        return dataclasses.replace(profile, ready_timeout=args.ready_timeout)
    if args.sut_cmd:
        data = {
            "kind": "gateway",
            "command": args.sut_cmd,
            "front_door": args.front_door,
            "name": args.sut_cmd,
        }
        if args.ready:
            data["ready"] = args.ready
        if getattr(args, "ready_timeout", None) is not None:
            data["ready_timeout"] = args.ready_timeout
        return parse_profile(data)
    if args.sut_url:
        return parse_profile(
            {"kind": "url", "url": args.sut_url, "front_door": args.front_door, "name": args.sut_url}
        )
    return args.sut


class _Signals:
    """SIGINT and SIGTERM during ``thinkwire run``: the first one stops the run (KeyboardInterrupt in
    the main thread, where the runner turns it into a partial, ``interrupted`` result after stopping
    every SUT); later ones, and any after ``disarm()``, are only remembered, so cleanup and the
    partial report are never cut short. Outside the main thread (embedded use) nothing is installed."""

    def __init__(self) -> None:
        self.signum = 0
        self.armed = True
        self._previous: dict[int, Any] = {}

    def __enter__(self) -> _Signals:
        if threading.current_thread() is threading.main_thread():
            self._previous = {s: signal.signal(s, self._handle) for s in (signal.SIGINT, signal.SIGTERM)}
        return self

    def __exit__(self, *exc: object) -> None:
        for s, previous in self._previous.items():
            signal.signal(s, previous)

    def _handle(self, signum: int, frame: object) -> None:
        if self.signum:
            return
        self.signum = signum
        if self.armed:
            raise KeyboardInterrupt

    def disarm(self) -> None:
        self.armed = False

    @property
    def name(self) -> str:
        return signal.Signals(self.signum).name if self.signum else ""


def _run_until_signal(args: argparse.Namespace, stop: _Signals) -> RunResult | int | None:
    """The run itself, under ``stop``: a RunResult (``interrupted`` set when a signal ended it early),
    None when a signal came before any case; the exit code 2 when no case matches."""
    from harness.drivers._process import run_scope, stop_all
    from harness.report._console import Progress
    from harness.suite import RunInterrupted, load_cases, run

    result: RunResult | None = None
    with run_scope():  # a marker in every SUT's environment: what still carries it is stopped at the end
        try:
            if args.jobs and args.jobs > 1:
                from harness.suite._parallel import run_parallel

                result = run_parallel(args, Progress(enabled=not args.quiet))
            else:
                cases = load_cases(args.cases)
                if not cases:
                    print(f"thinkwire: no case matches {args.cases}", file=sys.stderr)
                    return 2
                result = run(
                    cases,
                    sut=_profile_from_flags(args),
                    faults=args.fault,  # type: ignore[arg-type]
                    strict=args.strict,
                    expectations=args.expectations,
                    progress=Progress(enabled=not args.quiet),
                    timeout=args.timeout,
                    keep_timelines=True if args.report else "failures",
                )
        except RunInterrupted as exc:
            result = exc.result
            stop.signum = stop.signum or signal.SIGINT  # (a KeyboardInterrupt from outside our handler)
        except KeyboardInterrupt:
            stop_all()
            stop.signum = stop.signum or signal.SIGINT
        finally:
            stop.disarm()
    if stop.signum and result is not None:
        result.interrupted = stop.name
    return result


def _cmd_run(args: argparse.Namespace) -> int:
    with _Signals() as stop:
        result = _run_until_signal(args, stop)
        if isinstance(result, int):
            return result
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
        from harness.report import write_junit

        write_junit(result, Path(args.junit))


def _finish_run(args: argparse.Namespace, result: RunResult) -> int:
    """The run ran out: failures, summary, expectations and reports, as always."""
    from harness.report._console import print_failures, print_summary
    from harness.suite import write_expectations

    if result.sut_error:
        print(f"thinkwire: {result.sut_error}", file=sys.stderr)
    print_failures(result)
    print_summary(result)
    if args.write_expectations:
        n = write_expectations(result.results, Path(args.write_expectations))
        print(f"wrote {n} expectation(s) to {args.write_expectations}")
    if args.report:
        from harness.report import write_reports

        write_reports(result, Path(args.report))
        print(f"report written to {args.report}")
    if args.junit:
        from harness.report import write_junit

        write_junit(result, Path(args.junit))
    return result.exit_code


def _cmd_serve(args: argparse.Namespace) -> int:
    from harness.upstream import demo_conversation, serve_forever

    if args.scenario:
        from harness.suite import expand, load_catalog

        matches = [
            c
            for s in load_catalog()
            if s.id == args.scenario
            for c in expand(s)
            if c.dialect == args.dialect and (args.variant is None or c.variant == args.variant)
        ]
        if not matches:
            print(f"thinkwire: no case of scenario {args.scenario!r} for {args.dialect}", file=sys.stderr)
            return 2
        conversation = matches[0].conversation()
    else:
        from harness.dialects import get_dialect

        variant = args.variant or get_dialect(args.dialect).default_variant
        conversation = demo_conversation(args.dialect, variant, args.profile)
    serve_forever(conversation, port=args.port)
    return 0


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
            from harness.recording import conversation_from_cassette, read_cassette
            from harness.upstream import serve_forever

            conv = conversation_from_cassette(
                read_cassette(Path(args.cassette)), timing=args.timing, rechunk=args.rechunk
            )
            serve_forever(conv, port=args.port)
            return 0
        if args.command == "promote":
            from harness.suite._promote import promote

            target = promote(Path(args.cassette), args.id, force=args.force)
            print(f"wrote {target}")
            return 0
        if args.command == "record":
            from harness.recording import Redactor, record_forever

            host, _, port = args.listen.rpartition(":")
            if host not in ("127.0.0.1", "localhost", "::1", "[::1]"):
                print("thinkwire: --listen must be a loopback address", file=sys.stderr)
                return 2
            record_forever(
                args.upstream,
                Path(args.out),
                port=int(port or 0),
                dialect=args.dialect,
                redactor=Redactor(args.redact_header, args.redact_json),
            )
            return 0
        if args.command == "report":
            from harness.report._cli import run as report_run

            return report_run(args)
    except ThinkwireError as exc:
        print(f"thinkwire: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    parser.error(f"unknown command {args.command!r}")
    return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
