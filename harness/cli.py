"""The ``thinkwire`` command line: run, list, serve, record, replay, promote, report.

Rule: argument parsing and printing only; every command calls the same public functions users can
call from Python (``harness.suite.run`` ...). Exit code 0 only when no unexpected failure remains.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from harness._errors import ThinkwireError

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
    chosen = select([c for s in scenarios for c in expand(s)], args.cases)
    if not chosen:
        raise ThinkwireError(_no_match(args.cases))
    for case in chosen:
        s = case.scenario
        seeds = f" seeds={','.join(s.seeds)}" if s.seeds else ""
        print(f"{case.id}  [{s.category}]{seeds}  {s.requirement}")
    return 0


def _no_match(patterns: Sequence[str] | None) -> str:
    return f"--cases: no case matches {' '.join(patterns or ['*'])} (see thinkwire list --scenarios)"


def _profile_from_flags(args: argparse.Namespace) -> Any:
    from harness.drivers import parse_profile

    if args.sut_cmd:
        data = {
            "kind": "gateway",
            "command": args.sut_cmd,
            "front_door": args.front_door,
            "name": args.sut_cmd,
        }
        if args.ready:
            data["ready"] = args.ready
        return parse_profile(data, source="--sut-cmd")
    if args.sut_url:
        return parse_profile(
            {"kind": "url", "url": args.sut_url, "front_door": args.front_door, "name": args.sut_url},
            source="--sut-url",
        )
    return args.sut


def _check_run_args(args: argparse.Namespace) -> None:
    """Everything ``run`` can refuse, refused before the first case: numbers in range, the SUT profile,
    and the output paths writable (a run of minutes must not end in a traceback about its report)."""
    import math

    if args.timeout is not None and not (args.timeout > 0 and math.isfinite(args.timeout)):
        raise ThinkwireError(
            f"--timeout: expected a number of seconds > 0, got {args.timeout:g} (e.g. --timeout 30)"
        )
    if args.jobs < 1:
        raise ThinkwireError(f"-j/--jobs: expected a number of workers >= 1, got {args.jobs} (e.g. -j 2)")
    from harness.suite._runner import resolve_sut

    resolve_sut(_profile_from_flags(args), args.fault)  # raises ProfileError naming the file and field
    if args.report:
        _check_output("--report", Path(args.report), directory=True)
    if args.junit:
        _check_output("--junit", Path(args.junit), directory=False)
    if args.write_expectations:
        _check_output("--write-expectations", Path(args.write_expectations), directory=False)


def _check_output(flag: str, path: Path, *, directory: bool) -> None:
    """Can ``path`` (a directory, or a file) be written? Probed by creating what is missing, writing a
    probe file in the directory, and removing both again."""
    import contextlib
    import os
    import tempfile

    if directory and path.exists() and not path.is_dir():
        raise ThinkwireError(
            f"{flag}: {path} is an existing file; expected a directory (name a new or existing directory)"
        )
    if not directory and path.is_dir():
        raise ThinkwireError(f"{flag}: {path} is a directory; expected a file path (e.g. {path / 'out.xml'})")
    folder = path if directory else path.parent
    missing = []
    probe = folder
    while not probe.exists() and probe != probe.parent:
        missing.append(probe)
        probe = probe.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(prefix=".thinkwire-probe-", dir=folder)
        os.close(fd)
        os.unlink(name)
        if not directory and path.exists() and not os.access(path, os.W_OK):
            raise PermissionError(f"{path} is not writable")
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise ThinkwireError(f"{flag}: cannot write to {path}: {reason} (choose a writable path)") from None
    finally:
        for d in missing:  # deepest first: leave the file system as it was
            with contextlib.suppress(OSError):
                d.rmdir()


def _cmd_run(args: argparse.Namespace) -> int:
    from harness.report._console import Progress, print_failures, print_summary
    from harness.suite import load_cases, run, write_expectations

    _check_run_args(args)
    cases = load_cases(args.cases)
    if not cases:
        raise ThinkwireError(_no_match(args.cases))
    if args.jobs > 1:
        from harness.suite._parallel import run_parallel

        result = run_parallel(args, Progress(enabled=not args.quiet))
    else:
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
    except BrokenPipeError:  # ``thinkwire list | head -1``: the reader left; no traceback
        import os

        with contextlib.suppress(OSError):  # stdout's buffered rest must not fail again at exit
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # as a process killed by SIGPIPE
    parser.error(f"unknown command {args.command!r}")
    return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
