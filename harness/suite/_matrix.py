"""The detection matrix: every fault switch of the reference SUTs, the check designed to catch it, and
the cases that show it. The test suite asserts each mutant is caught by its check and by no unrelated
one; ``python -m harness.suite._matrix docs/detection-matrix.md`` (nox -s matrix) writes the table.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from harness.suite._runner import RunResult, run
from harness.suite._verdict import Status

__all__ = ["MATRIX", "Mutant", "detect", "render"]


@dataclass(frozen=True, slots=True)
class Mutant:
    fault: str
    sut: str  # built-in reference SUT
    check: str  # the check designed for this bug class
    cases: tuple[str, ...]
    also: frozenset[str] = frozenset()  # other checks the same bug legitimately trips

    @property
    def id(self) -> str:
        return f"{self.sut}+{self.fault}"


def _c(*ids: str) -> tuple[str, ...]:
    return ids


CHAT = "openai-chat:reasoning_content/frames"
MATRIX: tuple[Mutant, ...] = (
    Mutant(
        "drop-reasoning",
        "reference",
        "delivery",
        _c(
            f"wire-variants/reasoning-then-answer[{CHAT}]",
            "wire-variants/reasoning-then-answer[anthropic-messages:thinking/frames]",
        ),
    ),
    Mutant(
        "buffer-reasoning",
        "reference",
        "incremental",
        _c(
            f"incrementality/gated-reasoning[{CHAT}]",
            "incrementality/gated-reasoning[openai-responses:summary/frames]",
        ),
    ),
    Mutant(
        "replay-done",
        "reference",
        "no-duplication",
        _c("ordering-duplication/done-event-repeats[openai-responses:summary/frames]"),
    ),
    Mutant(
        "reasoning-into-content",
        "reference",
        "channel-separation",
        _c(f"wire-variants/reasoning-then-answer[{CHAT}]"),
    ),
    Mutant(
        "non-leading-think",
        "reference",
        "channel-separation",
        _c(f"wire-variants/inline-think-not-leading[{CHAT}]"),
    ),
    Mutant(
        "ignore-alias",
        "reference",
        "incremental",
        _c(
            "incrementality/reasoning-delta-alias[openai-responses:alias-string/frames]",
            "incrementality/reasoning-delta-alias[openai-responses:alias-object/frames]",
        ),
    ),
    Mutant(
        "lose-passback",
        "reference",
        "passback",
        _c(
            f"tools-passback/deepseek-reasoning-content[{CHAT}]",
            "tools-passback/anthropic-thinking-blocks[anthropic-messages:thinking/frames]",
            "tools-passback/responses-reasoning-item[openai-responses:summary/frames]",
            "tools-passback/gemini-thought-signature[gemini:signature/frames]",
        ),
    ),
    Mutant(
        "hide-upstream-error",
        "reference",
        "error-propagation",
        _c(f"errors-cancellation/upstream-http-error[{CHAT}]"),
    ),
    Mutant(
        "swallow-stream-error",
        "reference",
        "error-propagation",
        _c(
            f"errors-cancellation/mid-stream-error[{CHAT}]",
            "errors-cancellation/mid-stream-error[anthropic-messages:thinking/frames]",
        ),
    ),
    Mutant(
        "keep-upstream-open", "reference", "cancellation", _c(f"errors-cancellation/client-cancel[{CHAT}]")
    ),
    Mutant(
        "tools-before-reasoning",
        "reference",
        "ordering",
        _c(f"ordering-duplication/reasoning-before-tool-call[{CHAT}]"),
        frozenset({"incremental"}),
    ),
    Mutant("drop-reasoning-tokens", "reference", "usage", _c(f"wire-variants/reasoning-tokens[{CHAT}]")),
    Mutant(
        "break-utf8",
        "reference",
        "utf8-integrity",
        _c("sse-framing/split-utf8[openai-chat:reasoning_content/bytes]"),
    ),
    Mutant("double-done", "reference", "termination", _c(f"wire-variants/reasoning-then-answer[{CHAT}]")),
    Mutant(
        "nonstream-inline-think",
        "reference",
        "parity",
        _c(
            f"ordering-duplication/stream-nonstream-parity[{CHAT}]",
            f"ordering-duplication/stream-nonstream-parity[{CHAT}/nonstream]",
        ),
        frozenset({"channel-separation", "delivery"}),
    ),
    Mutant("drop-reasoning", "reference-sdk", "delivery", _c(f"wire-variants/reasoning-then-answer[{CHAT}]")),
    Mutant(
        "lose-passback", "reference-sdk", "passback", _c(f"tools-passback/deepseek-reasoning-content[{CHAT}]")
    ),
    Mutant("leak-child", "reference-cli", "cleanup", _c(f"cleanup/tool-round-trip[{CHAT}]")),
    Mutant("early-rmdir", "reference-cli", "cleanup", _c(f"cleanup/tool-round-trip[{CHAT}]")),
    Mutant("leave-dir", "reference-cli", "cleanup", _c(f"cleanup/tool-round-trip[{CHAT}]")),
    Mutant("pi-thinking-at-end", "reference-cli", "incremental", _c(f"timing/pi-thinking-delta[{CHAT}]")),
    Mutant("drop-reasoning", "reference-cli", "delivery", _c(f"cleanup/tool-round-trip[{CHAT}]")),
)


def failing_checks(result: RunResult) -> set[str]:
    out: set[str] = set()
    for r in result.results:
        if r.status != Status.OK:
            out.add(f"status:{r.status.value}")
        out.update(f.check for f in r.failing())
    return out


def detect(m: Mutant) -> tuple[RunResult, set[str]]:
    result = run(list(m.cases), sut=m.sut, faults=[m.fault], expectations=None, keep_timelines=False)
    return result, failing_checks(result)


def render(rows: list[tuple[Mutant, set[str]]]) -> str:
    lines = [
        "# Detection matrix",
        "",
        "Generated by `nox -s matrix` (`python -m harness.suite._matrix docs/detection-matrix.md`).",
        "Each row runs a reference SUT with one fault switch over the listed cases. *Caught* means the",
        "check designed for that bug class failed; *unrelated* lists any other check that failed (it must",
        "be empty). The same cases pass against the reference SUT without faults (tests/suts).",
        "",
        "| SUT | fault switch | designed check | caught | failing checks | unrelated | cases |",
        "|---|---|---|---|---|---|---|",
    ]
    for m, failing in rows:
        unrelated = sorted(failing - {m.check} - m.also)
        lines.append(
            f"| {m.sut} | `{m.fault}` | {m.check} | {'yes' if m.check in failing else '**NO**'} | "
            f"{', '.join(sorted(failing)) or '-'} | {', '.join(unrelated) or '-'} | "
            + "<br>".join(f"`{c}`" for c in m.cases)
            + " |"
        )
    caught = sum(1 for m, f in rows if m.check in f and not (f - {m.check} - m.also))
    lines += [
        "",
        f"{caught} of {len(rows)} mutants caught by their designed check and no unrelated check.",
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    rows = []
    for m in MATRIX:
        _, failing = detect(m)
        rows.append((m, failing))
        sys.stderr.write(f"{m.id:40} {m.check:20} {sorted(failing)}\n")
    text = render(rows)
    if argv:
        Path(argv[0]).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0 if all(m.check in f and not (f - {m.check} - m.also) for m, f in rows) else 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
