"""``nox -s sdks``: run the catalog against each official SDK profile, write each profile's expectations file
and docs/sdk-results.md. Whatever the SDK does is the result, and no case is weakened to make an SDK pass."""

from __future__ import annotations

import fnmatch
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from harness.catalog import Case
    from harness.drivers import SUTProfile
    from harness.runner import RunResult

__all__ = ["CAUSES", "CHANGED", "annotate", "cause", "claimed_cases", "main", "record_profile"]

PROFILES = ("sdk-openai-chat", "sdk-openai-responses", "sdk-anthropic-messages")

_OPENAI_BOM = (
    "openai SDK SSEDecoder keeps a leading UTF-8 BOM: the first field name reads '\\ufeffdata', so the "
    "first event (here the first reasoning chunk) is lost"
)
_NO_TERMINATOR = (
    "the SDK ends its iteration at EOF without the terminator and raises nothing: a stream cut before "
    "its terminator looks complete"
)
_DETAILS = (
    "reasoning_details is an untyped extra of the openai SDK: the usage this profile models reads the "
    "reasoning text and sends it back as reasoning_content, so the details (signatures, server-tool "
    "records, MiniMax's reasoning_split text) do not come back"
)
# A framing case an SDK's own SSE parser mishandles is a failure, recorded with its explanation: the
# measured decoder deviation.
CAUSES: dict[str, tuple[tuple[str, str], ...]] = {
    "sdk-openai-chat": (
        ("sse-framing/bom*", _OPENAI_BOM),
        ("sse-framing/unterminated*", "[DONE] never dispatched; " + _NO_TERMINATOR),
        (
            "sse-framing/perturbations*event-only*",
            "openai SDK dispatches a data-less 'event: ping' block with empty data and json-parses it",
        ),
        ("tools-passback/minimax-interleaved-thinking*reasoning_details*", _DETAILS),
        ("tools-passback/openrouter-*", _DETAILS),
        (
            "tools-passback/vllm-reasoning-field*",
            "the usage this profile models reads delta.reasoning and sends it back as reasoning_content, "
            "which vLLM >= 0.20 drops before its chat template runs (vllm-project/vllm#38488)",
        ),
    ),
    "sdk-openai-responses": (
        ("sse-framing/unterminated*", "response.completed never dispatched; " + _NO_TERMINATOR),
        (
            "sse-framing/perturbations*event-only*",
            "openai SDK dispatches a data-less 'event: ping' block with empty data and json-parses it",
        ),
    ),
    "sdk-anthropic-messages": (
        ("sse-framing/unterminated*", "message_stop never dispatched; " + _NO_TERMINATOR),
        (
            "sse-framing/bom*",
            "the SDK's SSE decoder keeps a leading BOM in the first field name ('\\ufeffevent' is not "
            "'event', anthropic 2.17 _streaming.py:429), so message_start has no event name and is skipped "
            "(_streaming.py:98): its user never gets the message id, the model or message_start's usage",
        ),
    ),
}
"""Measured root causes of SDK failures, by profile and case-id glob: the expectation's reason."""

CHANGED: tuple[str, ...] = (
    "sdk-openai-chat: 64 rows FAIL -> PASS, none a bug lost: every in-band markup case (<think>, "
    "<mm:think>, harmony channels, Gemini's <thought>: inline-think-leading, raw-reasoning-markup, "
    "reasoning-then-answer, gated-reasoning, reasoning-before-tool-call, stream-nonstream-parity, and the "
    "markup passback loops gemini-openai-thought-signature, gemini-parallel-calls, "
    "minimax-interleaved-thinking) FAILed channel-separation alone, 'reasoning delivered as answer text'. "
    "The SDK parses no markup (ChoiceDelta.content is a plain string, openai 3.63.0 "
    "types/chat/chat_completion_chunk.py:115, handed on as it came, lib/streaming/chat/_completions.py:"
    "511-517), so its profile now claims parses = [] and the cases judge it as a relay (issue 45 item "
    "3): each delivers the content byte for byte, markup intact, and sends it back as it came; the FAIL "
    "was thinkwire's, judging unclaimed markup as reasoning",
    "sdk-anthropic-messages: the 4 sse-framing/bom rows PASS -> FAIL (recorded with the merge of issue 46 "
    "item 7, shown here for the first time): the SDK's decoder keeps the BOM in the first field name and "
    "skips the unnamed message_start, and the adapter now reports it (cause in the rows below)",
    "sdk-openai-chat: 4 rows NON_STRICT -> FAIL (issue 46 item 5): openrouter-openai-encrypted and "
    "vllm-reasoning-field (streamed and not). The loss is the one recorded before (the details do not come "
    "back; reasoning goes back in reasoning_content, which vLLM >= 0.20 drops): the provider answers 200, "
    "but its documentation says that reasoning must come back, so passback-fidelity FAILs and cites it. "
    "10 new cases (the flat-mirror and openrouter-items variants) PASS",
    "sdk-openai-responses: no verdict changed. Every recorded reason that quotes the SDK's version now "
    "reads openai 3.63.0 (the installed release) where it read 3.60.0; the failing line is the same",
    "sdk-anthropic-messages: 2 new cases PASS (tools-passback/anthropic-unasked-thinking, streamed and not: "
    "a Claude model that thinks by default, issue 46 item 1); the SDK's stream types match the new "
    "front-door schema rows (tests/dialects/test_event_fields.py); no other row moved on the three SDKs",
)
"""What the last regeneration changed against the expectations recorded before it, and why."""


def cause(profile: str, case_id: str) -> str | None:
    return next((why for pat, why in CAUSES.get(profile, ()) if fnmatch.fnmatchcase(case_id, pat)), None)


def annotate(path: Path, profile: str, cause_of: Callable[[str, str], str | None]) -> None:
    """Prefix each recorded reason with the measured cause of its case, where one is known."""
    out, case = [], ""
    for line in path.read_text(encoding="utf-8").split("\n"):
        if line.startswith('[cases."'):
            case = line[len('[cases."') : -2]
        elif line.startswith('reason = "') and (why := cause_of(profile, case)):
            why = why.replace("\\", "\\\\").replace('"', "'")  # a TOML basic string
            line = f'reason = "{why}. Seen: {line[len(chr(34)) + 9 :]}'
        out.append(line)
    path.write_text("\n".join(out), encoding="utf-8")


def claimed_cases(profile: SUTProfile) -> list[Case]:
    """The catalog's cases the profile claims (its dialects and variants)."""
    from harness.runner import load_cases

    return [c for c in load_cases() if profile.claims(c.dialect, c.variant)]


def record_profile(
    path: Path, name: str, cause_of: Callable[[str, str], str | None]
) -> tuple[RunResult, int]:
    """Run every case the profile at ``path`` claims, write its expectations beside it (each reason
    prefixed with its known cause) and return the run and how many cases were recorded."""
    from harness.catalog import write_expectations
    from harness.drivers import load_profile
    from harness.runner import run

    profile = load_profile(path)
    result = run(claimed_cases(profile), sut=profile, expectations=None, keep_timelines=False)
    exp_path = Path(profile.expectations or path.with_suffix(".expectations.toml"))
    n = write_expectations(result.results, exp_path)
    annotate(exp_path, name, cause_of)
    return result, n


def main(argv: list[str]) -> int:
    root = Path(__file__).resolve().parents[2]  # the source checkout
    out_doc = Path(argv[0]) if argv else root / "docs" / "sdk-results.md"
    lines = [
        "# Official SDKs under thinkwire",
        "",
        "Generated by `nox -s sdks`. Each SDK is driven through a thin adapter (`harness/sdks/`) that only",
        "maps the SDK's typed events onto canonical events: the SDK's own HTTP client and SSE parser are",
        "what is tested. Failures here are real SDK behaviour, recorded in `profiles/*.expectations.toml`.",
        "",
        *(["What the last regeneration changed:", "", *(f"- {c}." for c in CHANGED), ""] if CHANGED else []),
    ]
    for name in PROFILES:
        result, n = record_profile(root / "profiles" / f"{name}.toml", name, cause)
        counts = Counter(r.status.value if r.status.value != "OK" else r.stream.value for r in result.results)
        by_check = Counter(f.check for r in result.results for f in r.failing())
        lines += [
            f"## {name}",
            "",
            f"{len(result.results)} cases: "
            + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
            + f"; {n} recorded as expected.",
            "",
        ]
        if by_check:
            lines += ["| failing check | cases |", "|---|---:|"]
            lines += [f"| {c} | {k} |" for c, k in by_check.most_common()]
            lines.append("")
            shown = 0
            for r in result.results:
                bad = r.failing()
                if not bad or shown >= 12:
                    continue
                shown += 1
                f = bad[0]
                lines.append(
                    f"- `{r.case_id}` — {f.check}: {f.message}"
                    + (f" (expected {f.expected}; got {_one_line(f.actual)})" if f.expected else "")
                )
            lines.append("")
        framing = [r for r in result.results if r.case_id.startswith("sse-framing/") and r.failing()]
        if framing:
            lines += ["### SSE framing findings (the SDK's own parser)", ""]
            for r in framing:
                f = r.failing()[0]
                why = cause(name, r.case_id)
                lines.append(
                    f"- `{r.case_id}` — {f.check}: {f.message}"
                    + (f" (expected {f.expected}; got {_one_line(f.actual)})" if f.expected else "")
                    + (f". Cause: {why}." if why else "")
                )
            lines.append("")
        sys.stderr.write(f"{name}: {dict(counts)}\n")
    out_doc.write_text("\n".join(lines), encoding="utf-8")
    return 0


def _one_line(actual: str) -> str:
    """A traceback (a sut-error finding's evidence) shown by its exception line, as in a log line."""
    lines = [ln for ln in actual.strip().splitlines() if ln.strip()]
    return lines[-1].strip() if len(lines) > 1 and lines[0].startswith("Traceback") else actual


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
