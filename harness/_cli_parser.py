"""The ``thinkwire`` command line's grammar: every sub-command, its flags, their help and placeholders. It is
kept apart from ``harness.cli``, which acts on the parsed flags, so that what a user can type is read in
one place. A sub-command owned by another package adds its own parser from here."""

from __future__ import annotations

import argparse
import sys
from typing import Any

__all__ = ["build_parser"]


class _Parser(argparse.ArgumentParser):
    """argparse's parser, whose refusal of a flag it does not know names the sub-command's closest flags
    (``--concurency``: did you mean --concurrency?). Python 3.14's ``suggest_on_error`` does this for
    sub-command names only, and not on 3.11."""

    def parse_args(self, args: Any = None, namespace: Any = None) -> Any:
        parsed, extra = self.parse_known_args(args, namespace)
        if extra:
            parser = self._command(parsed)  # (its usage line is the one to show)
            flags = [
                flag
                for action in parser._actions
                if action.help != argparse.SUPPRESS
                for flag in action.option_strings
                if flag.startswith("--")
            ]
            parser.error(f"unrecognized arguments: {' '.join(extra)}{_suggest(extra, flags)}")
        return parsed

    def _command(self, parsed: argparse.Namespace) -> argparse.ArgumentParser:
        """The parser of the sub-command ``parsed`` names (this one without one)."""
        command = getattr(parsed, "command", None)
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction) and command in action.choices:
                chosen: argparse.ArgumentParser = action.choices[command]
                return chosen
        return self


def _suggest(extra: list[str], flags: list[str]) -> str:
    """``; did you mean --x?`` for each unknown ``--flag`` (its ``=value`` aside) close to a known one."""
    import difflib

    said = []
    for word in extra:
        name = word.split("=", 1)[0]
        if not name.startswith("--") or name in flags:
            continue
        near = difflib.get_close_matches(name, flags, n=2, cutoff=0.75)
        if near:
            said.append(f"{name}: did you mean {' or '.join(near)}?")
    return "; " + "; ".join(said) if said else ""


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="thinkwire",
        description="Conformance test harness for LLM reasoning (thinking) streams.",
    )
    parser.add_argument("--version", action="version", version="thinkwire 0.1.0")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    _add_run_parser(sub)
    _add_init_parser(sub)

    _add_list_parser(sub)
    _add_serve_parser(sub)
    rec = sub.add_parser(
        "record", help="transparent recording proxy: forward each chunk as it arrives, write a cassette"
    )
    rec.add_argument(
        "--upstream", required=True, metavar="URL", help="base URL of the real provider or gateway"
    )
    rec.add_argument(
        "--listen", default="127.0.0.1:0", metavar="HOST:PORT", help="where to listen (127.0.0.1 only)"
    )
    rec.add_argument("--out", required=True, metavar="FILE", help="cassette path, e.g. recordings/NAME.jsonl")
    how = rec.add_mutually_exclusive_group()
    how.add_argument("--append", action="store_true", help="add to an existing cassette")
    how.add_argument("--force", action="store_true", help="replace an existing cassette")
    rec.add_argument(
        "--dialect", metavar="DIALECT", help="dialect name for the header (guessed from the path otherwise)"
    )
    rec.add_argument(
        "--redact-header",
        action="append",
        default=[],
        metavar="REGEX",
        help="extra header-name regex to redact",
    )
    rec.add_argument(
        "--redact-query",
        action="append",
        default=[],
        metavar="REGEX",
        help="extra query-name regex to redact",
    )
    rec.add_argument(
        "--redact-json", action="append", default=[], metavar="PATH", help="extra dotted JSON path to redact"
    )
    rec.add_argument(
        "--redact-value", action="append", default=[], metavar="REGEX", help="extra value regex to redact"
    )
    _add_server_flags(rec, port=False)

    rep = sub.add_parser("replay", help="serve a cassette as a mock upstream")
    rep.add_argument("cassette", help="the cassette to serve, e.g. recordings/NAME.jsonl")
    rep.add_argument(
        "--timing", default="none", metavar="HOW", help="recorded | none | xN (N times faster)"
    )
    rep.add_argument(
        "--rechunk", metavar="CHUNKER", help="re-split with a chunker (bytes, utf8-split, random:SEED ...)"
    )
    _add_server_flags(rep)

    _add_promote_parser(sub)

    from harness import _cli_corpus as _corpus_cli
    from harness import _cli_diff as _diff_cli
    from harness import _cli_merge as _merge
    from harness import _cli_report as _cli
    from harness.recording import add_import_parser

    _add_show_parser(sub)
    add_import_parser(sub)
    _corpus_cli.add_parser(sub)
    _cli.add_parser(sub)
    _diff_cli.add_parser(sub)
    _merge.add_parser(sub)
    return parser


def _add_run_parser(sub: Any) -> None:
    """``thinkwire run``'s flags: one for each RunOptions field (harness.runner._options), plus the
    outputs (reports, JUnit, expectations written) and the progress display."""
    run = sub.add_parser(
        "run", help="run the conformance suite against a SUT (default: the reference gateway)"
    )
    who = run.add_mutually_exclusive_group()
    who.add_argument(
        "--sut",
        metavar="SUT",
        help="SUT profile TOML, a Python module:callable, or a built-in: reference, reference-sdk, "
        "reference-cli",
    )
    who.add_argument(
        "--sut-cmd",
        metavar="COMMAND",
        help="a gateway command line, started in a fresh temp dir ({tmp}); {upstream}, {port}, {tmp}, "
        "{python} are substituted; a word starting with ./ or ../ (and a program path with a /) is "
        "relative to the directory thinkwire was started in",
    )
    who.add_argument(
        "--sut-url", metavar="URL", help="URL of a SUT that is already running (http:// or https://)"
    )
    run.add_argument(
        "--front-door",
        metavar="DIALECT",
        help="dialect the SUT speaks (with --sut-cmd/--sut-url; default openai-chat), or the front door of "
        "the built-in reference gateway to test (openai-chat, anthropic-messages, openai-responses)",
    )
    run.add_argument("--ready", metavar="URL", help="readiness URL (with --sut-cmd); default {url}/health")
    _add_upstream_flags(run)
    _add_claim_flags(run)
    run.add_argument(
        "--fault",
        action="append",
        default=[],
        metavar="NAME",
        help="fault switch for a built-in reference SUT",
    )
    run.add_argument(
        "--cases", action="append", metavar="GLOB", help="glob of case or scenario ids (repeatable)"
    )
    run.add_argument(
        "--scenarios-dir",
        dest="scenarios",
        action="append",
        default=[],
        metavar="DIR",
        help="a directory of your own scenarios, added to the catalog (repeatable)",
    )
    _add_corpus_flag(run)
    _deprecated(run, "--scenarios", "--scenarios-dir", append=True)
    _add_shard_flags(run)
    run.add_argument("--strict", action="store_true", help="NON_STRICT counts as failure")
    run.add_argument(
        "--expectations", metavar="FILE", help="expectations TOML (case id -> expected verdict)"
    )
    run.add_argument(
        "--write-expectations", metavar="FILE", help="write this run's non-passing cases as expectations"
    )
    run.add_argument("--report", metavar="DIR", help="write results.json, summary.md and report.html here")
    run.add_argument("--junit", metavar="FILE", help="write JUnit XML")
    run.add_argument("--keep-timelines", action="store_true", help="keep passing cases' whole timelines too")
    _add_run_limits(run)
    run.add_argument(
        "-q", "--quiet", action="store_true", help="no progress bar: one line a minute, then the summary"
    )
    run.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="print the whole traceback and timeline of a failed preflight or SUT start",
    )


def _add_corpus_flag(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--corpus", metavar="DIR",
        help="the fidelity corpus folder, for the recorded/corpus-* cases (default: $THINKWIRE_CORPUS, "
        "else ../shared/corpus beside a checkout; without one those cases are left out)",
    )  # fmt: skip


def _add_promote_parser(sub: Any) -> None:
    pro = sub.add_parser(
        "promote", help="turn a cassette into a scenario file (with its cassette beside it) under --out DIR"
    )
    pro.add_argument("cassette", help="the cassette to turn into a scenario")
    pro.add_argument(
        "--id", required=True, metavar="ID", help="scenario id, e.g. recorded/my-gateway-split-utf8"
    )
    pro.add_argument(
        "--out", metavar="DIR",
        help="your scenarios directory (run it with --scenarios-dir DIR); required outside a checkout",
    )  # fmt: skip
    pro.add_argument("--force", action="store_true", help="overwrite an existing scenario")


def _add_upstream_flags(p: argparse.ArgumentParser) -> None:
    """Where the mock upstream listens and the URL the SUT is told (a gateway already running)."""
    p.add_argument(
        "--upstream-listen", metavar="HOST:PORT",
        help="bind the mock upstream here (e.g. 127.0.0.1:18080; 0.0.0.0:18080 for a container) for a SUT "
        "configured with that address; every case is served there, told apart by its routing token",
    )
    p.add_argument(
        "--upstream-url", metavar="URL",
        help="with --upstream-listen: the URL the SUT is told ({upstream}; default http://HOST:PORT)",
    )  # fmt: skip


def _add_claim_flags(run: argparse.ArgumentParser) -> None:
    """What the SUT claims, for a quick run without a profile (they replace a profile's keys)."""
    run.add_argument(
        "--front-variant", metavar="VARIANT",
        help="the carrier thinkwire's client echoes reasoning back in (default: the one the SUT streamed)",
    )
    run.add_argument(
        "--dialects", action="append", metavar="D[,D...]",
        help="upstream dialects the SUT claims (default with --sut-cmd/--sut-url: its front door's only); "
        "cases of others are left out and listed",
    )
    run.add_argument(
        "--providers", action="append", metavar="P[,P...]",
        help="providers whose variants and rules the SUT claims (e.g. deepseek,openrouter)",
    )


def _add_init_parser(sub: Any) -> None:
    """``thinkwire init``: a discovery run (one case per dialect and variant) -> a draft profile."""
    init = sub.add_parser(
        "init", help="discovery run: one case per dialect and variant, then a draft profile of what it speaks"
    )
    who = init.add_mutually_exclusive_group(required=True)
    who.add_argument("--sut", metavar="SUT", help="SUT profile TOML, a Python module:callable, or a built-in")
    who.add_argument(
        "--sut-cmd", metavar="COMMAND",
        help="a gateway command line, as for run (started in a fresh temp dir, {tmp}; ./ paths are the "
        "start directory's)",
    )  # fmt: skip
    who.add_argument("--sut-url", metavar="URL", help="URL of a SUT that is already running (http:// or https://)")
    init.add_argument(
        "--front-door", default="openai-chat", metavar="DIALECT",
        help="dialect the SUT speaks (with --sut-cmd/--sut-url)",
    )  # fmt: skip
    init.add_argument("--ready", metavar="URL", help="readiness URL (with --sut-cmd); default {url}/health")
    _add_upstream_flags(init)
    init.add_argument("--out", metavar="FILE", help="write the draft profile here (default: print it)")


def _add_list_parser(sub: Any) -> None:
    """``thinkwire list``'s flags: what to list, and which cases."""
    ls = sub.add_parser("list", help="print the catalog: case ids, requirement, axes")
    ls.add_argument("--variants", action="store_true", help="list every wire variant instead")
    ls.add_argument("--by-scenario", action="store_true", help="one line per scenario instead of per case")
    _deprecated(ls, "--scenarios", "--by-scenario", switch=True)
    ls.add_argument("--checks", action="store_true", help="list the checks")
    ls.add_argument("--faults", action="store_true", help="list the reference SUTs' fault switches")
    ls.add_argument("--cases", action="append", metavar="GLOB", help="glob of case or scenario ids")
    ls.add_argument(
        "--scenarios-dir", dest="scenario_dirs", action="append", default=[], metavar="DIR",
        help="a directory of your own scenarios, listed with the catalog (repeatable)",
    )
    _add_corpus_flag(ls)


def _add_serve_parser(sub: Any) -> None:
    """``thinkwire serve``'s flags: the mock upstream standalone, a turn or the catalog."""
    serve = sub.add_parser("serve", help="run the mock upstream standalone until SIGTERM / Ctrl-C")
    serve.add_argument(
        "--dialect", default="openai-chat", metavar="DIALECT",
        help="the wire dialect the mock speaks (default openai-chat; thinkwire list --variants)",
    )
    serve.add_argument(
        "--variant", metavar="VARIANT",
        help="the dialect's wire variant (default: its first; thinkwire list --variants)",
    )
    serve.add_argument(
        "--scenario", metavar="ID", help="serve this scenario's conversation instead of a canned turn"
    )
    serve.add_argument(
        "--provider-rules", default="lenient", metavar="NAME",
        help="the provider rules the mock enforces (strict validation; default lenient)",
    )
    serve.add_argument("--catalog", action="store_true", help="serve every case, any per request")
    serve.add_argument(
        "--cases", action="append", metavar="GLOB", help="with --catalog: glob of case or scenario ids"
    )
    serve.add_argument(
        "--scenarios-dir", dest="scenarios", metavar="DIR", help="with --catalog: a scenarios dir of your own"
    )
    _deprecated(serve, "--scenarios", "--scenarios-dir")
    _deprecated(serve, "--profile", "--provider-rules")
    _add_server_flags(serve)


def _add_run_limits(run: argparse.ArgumentParser) -> None:
    """``thinkwire run``'s bounds and how it spreads the cases: cases in flight, timeouts, bytes,
    repeats, the preflight."""
    run.add_argument(
        "--concurrency", type=int, metavar="N",
        help="cases in flight at once through the one SUT (default: 8 for a gateway or URL; 1 in-process)",
    )
    _deprecated(run, "-j", "--concurrency")  # was pytest-xdist workers: slower (benchmarks/workers.py)
    _deprecated(run, "--jobs", "--concurrency")
    run.add_argument(
        "--timeout",
        type=float,
        metavar="SECONDS",
        help="each case's wall-clock budget in seconds, over all its turns",
    )
    run.add_argument(
        "--gate-timeout",
        type=float,
        metavar="SECONDS",
        help="seconds a gate waits for the client (default: from the SUT's warm-up latency)",
    )
    run.add_argument(
        "--max-bytes", type=int, metavar="BYTES", help="bytes one case may read from the SUT (default 64 MiB)"
    )
    run.add_argument(
        "--repeat",
        type=int,
        default=1,
        metavar="N",
        help="run every case N times; cases whose verdicts differ are FLAKY (exit 3)",
    )
    run.add_argument(
        "--ready-timeout",
        type=float,
        metavar="SECONDS",
        help="how long a started SUT may take to become ready (default: the profile's, else 15)",
    )
    run.add_argument(
        "--no-preflight",
        action="store_true",
        help="skip the canary case (a SUT that cannot be tested then gives one ERROR/TIMEOUT per case)",
    )


def _add_shard_flags(run: argparse.ArgumentParser) -> None:
    """``--shard`` and ``--durations``: one machine's share of the run (``harness.runner._shard``)."""
    run.add_argument(
        "--shard", metavar="I/N",
        help="run share I of N of the selected cases (the same split on every machine; join the shards' "
        "reports with thinkwire merge)",
    )
    run.add_argument(
        "--durations", metavar="FILE",
        help="with --shard: balance the shares by the case durations of an earlier run's results.json",
    )


class _Deprecated(argparse.Action):
    """An old spelling of a flag, kept working (hidden from --help): it warns on stderr, naming the new
    one, then does what the new one does (a switch, an appended value, or a value)."""

    def __init__(self, option_strings: list[str], dest: str, *, new: str, how: str, **kw: Any) -> None:
        super().__init__(option_strings, dest, nargs=0 if how == "switch" else None, **kw)
        self.new, self.how = new, how

    def __call__(self, parser: Any, namespace: Any, values: Any, option_string: str | None = None) -> None:
        print(f"thinkwire: warning: {option_string} is deprecated; use {self.new}", file=sys.stderr)
        if self.how == "switch":
            values = True
        elif self.how == "append":
            values = [*(getattr(namespace, self.dest, None) or []), values]
        setattr(namespace, self.dest, values)


def _deprecated(
    parser: argparse.ArgumentParser, old: str, new: str, *, switch: bool = False, append: bool = False
) -> None:
    """Keep ``old`` as a deprecated alias of the flag ``new`` of ``parser`` (same destination)."""
    target = next(a for a in parser._actions if new in a.option_strings)
    how = "switch" if switch else "append" if append else "value"
    typed: dict[str, Any] = {"type": target.type} if target.type is not None else {}  # -j N: an int
    parser.add_argument(
        old, dest=target.dest, action=_Deprecated, new=new, how=how, help=argparse.SUPPRESS,
        metavar=target.metavar, default=argparse.SUPPRESS, **typed,
    )


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


def _add_show_parser(sub: Any) -> None:
    show = sub.add_parser(
        "show",
        help="run one case again with its whole timeline; print its swimlane and each check's evidence",
        description="Run one case again, keeping its whole timeline (a passing case's too), and print "
        "each check's finding with the entries it cites, what the upstream sent beside what the client "
        "got, and the timeline as a swimlane. Name the SUT with `thinkwire run`'s flags, or give "
        "--report DIR to take them from that run's reproduce line.",
    )
    show.add_argument("case", help="the case id (or a glob matching one case)")
    show.add_argument("--report", metavar="DIR", help="a report directory: run the case as that run did")
    show.add_argument(
        "flags", nargs=argparse.REMAINDER, metavar="RUN FLAGS",
        help="`thinkwire run` flags naming the SUT and the settings (--sut, --strict, --timeout, ...)",
    )
