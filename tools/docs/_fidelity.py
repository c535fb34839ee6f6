"""``nox -s fidelity``: the mock against the real recorded corpus, written to docs/fidelity.md and the corpus
table of recordings/README.md, both from ``tools.fidelity``. It only renders; the comparison is
``tools.fidelity``'s."""

from __future__ import annotations

import sys
from collections import Counter, defaultdict
from pathlib import Path

from harness.recording._corpus import ENV, Wanted, manifest_path, read_manifest
from tools.fidelity import KEPT, RULES, SDK_HEADERS, Difference, FidelityReport, compare_corpus
from tools.fidelity._compare import ExchangeReport
from tools.fidelity._corpus import CorpusAbsent, CorpusFile
from tools.fidelity._uncovered import coverage

__all__ = ["CORRECTIONS", "main", "render", "render_corpus_table", "render_variants", "update_readme"]

BEGIN, END = "<!-- corpus:begin (nox -s fidelity) -->", "<!-- corpus:end -->"
# Corrections to the project's wire-format notes.
CORRECTIONS: tuple[tuple[str, str], ...] = (
    (
        "§4.1: `usage.output_tokens_details.thinking_tokens` is in the SDK's types",
        "The real API sends it in `message_delta.usage` (and a whole body's `usage`) since about 2026-05, "
        "`thinking_tokens: 0` without thinking; never in `message_start` (anthropic-tool-thinking-stream; "
        "pydantic-ai 2026-07 recordings). Earlier recordings lack it.",
    ),
    (
        "§1.2 / §5: Gemini `streamGenerateContent` is listed with `?alt=sse` only",
        "Without `?alt=sse` the real API streams a JSON array, `application/json; charset=UTF-8`, each "
        "element pretty-printed with a 2-space indent, separated by `\\n,\\r\\n`, closed by `\\n]` "
        "(gemini-thoughts-array, gemini-tools-array).",
    ),
    (
        "§5.1: the functionCall frame shape was marked (guess)",
        'Recorded: `{"functionCall": {"name": ..., "args": {...}}, "thoughtSignature": ...}` with '
        'usageMetadata on every frame and a final `{"text": ""}` frame carrying `finishReason` '
        "(Gemini 3); Gemini 2.5 puts `finishReason` on the last content frame.",
    ),
    (
        "§5 request side: field names",
        "The API reads protobuf JSON: snake_case names are accepted as well (`function_call`, "
        "`function_response`, `parameters_json_schema` in recorded requests answered 200).",
    ),
    (
        "§3 (Responses) `store`",
        "`store` defaults to true: a request without it gets `\"store\": true` echoed "
        "(openai-responses-summary-stream, o3-mini).",
    ),
    (
        "§2 (chat) `stream_options.include_usage`",
        "Provider-dependent: OpenAI sends `\"usage\": null` on every chunk and a `choices: []` usage chunk "
        "only when asked; DeepSeek puts usage on the finish chunk; OpenRouter's usage chunk carries one "
        "role choice, not `choices: []`; Groq without the option sends usage only inside `x_groq`.",
    ),
    (
        "§4.2 Anthropic frames",
        "Every data JSON but the ping's carries 0-15 spaces before its closing brace; the ping is "
        "`{\"type\": \"ping\"}` (with a space); an empty `thinking_delta` precedes `signature_delta`; a "
        "tool_use block's first `input_json_delta` is `\"partial_json\": \"\"`; the content type is "
        "`text/event-stream; charset=utf-8` and the official SDK reads the `request-id` header.",
    ),
)
"""Facts the corpus contradicts or sharpens in /work/shared/wire-formats.md (which this project does not
edit here): ``(where, what the recordings show)``."""


def _source(cf: CorpusFile) -> str:
    url = f"https://github.com/{cf.repo}/blob/{cf.commit}/{cf.source_path}"
    return f"[{cf.repo}]({url}) `{cf.source_path}` @ `{cf.commit[:12]}`"


def render_corpus_table(report: FidelityReport) -> str:
    files: dict[str, tuple[CorpusFile, list[ExchangeReport]]] = {}
    for er in report.exchanges:
        files.setdefault(er.cx.file.name, (er.cx.file, []))[1].append(er)
    lines = [
        "| file | dialect | exchanges | source (repository, path, commit) | license | mock variant / "
        "provider rules |",
        "|---|---|---|---|---|---|",
    ]
    for name, (cf, ers) in sorted(files.items()):
        modes = sorted({"stream" if seen_stream(er) else "whole" for er in ers})
        trimmed = ", trimmed" if cf.trimmed else ""
        lines.append(
            f"| `{name}.jsonl` | {ers[0].cx.dialect} | {len(ers)} ({'/'.join(modes)}{trimmed}) | "
            f"{_source(cf)} | {cf.license} | {cf.variant} / {cf.provider_rules} |"
        )
    return "\n".join(lines)


def seen_stream(er: ExchangeReport) -> bool:
    from tools.fidelity._compare import _is_stream

    return _is_stream(er.cx)


def _dialect_section(dialect: str, ers: list[ExchangeReport], report: FidelityReport) -> list[str]:
    kinds: Counter[str] = Counter()
    mock: Counter[str] = Counter()
    fields = 0
    for er in ers:
        kinds.update(er.kinds)
        mock.update(er.mock_kinds)
        fields += er.fields
    out = [f"## {dialect}", ""]
    files = sorted({er.cx.file.name for er in ers})
    names = ", ".join(f"`{f}`" for f in files)
    out.append(f"Corpus files ({len(files)}, {len(ers)} exchanges): {names}.")
    out.append("")
    out.append(f"Event kinds compared ({len(kinds)}; recorded count / mock count), {fields} field paths:")
    out.append("")
    out.append("| kind | recorded | mock |")
    out.append("|---|---|---|")
    for kind in sorted(set(kinds) | set(mock)):
        cell = kind.replace("|", "\\|")  # a Gemini kind's finish marker, not a column
        out.append(f"| `{cell}` | {kinds[kind]} | {mock[kind]} |")
    out.append("")
    headers = [("content-type", "every client")] + [
        (h, where) for h, where in SDK_HEADERS.get(dialect, ())
    ]
    recorded = sorted({(er.cx.exchange.header("content-type") or "") for er in ers})
    out.append(
        "Headers compared: "
        + ", ".join(f"`{h}` ({where})" for h, where in headers)
        + "; recorded content types: "
        + ", ".join(f"`{c}`" for c in recorded)
        + "."
    )
    out.append("")
    rules = [r for r in RULES if r.dialect == dialect]
    if rules:
        out += ["| rule | evidence | recorded exchanges | mock answers |", "|---|---|---|---|"]
        for r in rules:
            applied = ers
            broken_real = [x for x in report.contradicted if x.startswith(r.name + ":")]
            broken_mock = [
                d for er in ers for d in er.differences if d.aspect == "rule" and d.subject == r.name
            ]
            out.append(
                f"| {r.says} | {r.evidence} | {'holds' if not broken_real else f'{len(broken_real)} broken'} "
                f"on {len(applied)} | {'holds' if not broken_mock else f'{len(broken_mock)} broken'} |"
            )
        out.append("")
    by_reason: dict[str, list[Difference]] = defaultdict(list)
    for row, diffs in report.explained.items():
        if row.dialect == dialect:
            by_reason[row.reason] += diffs
    out.append(f"Differences the mock keeps ({sum(len(d) for d in by_reason.values())}, by reason):")
    out.append("")
    if not by_reason:
        out.append("None.")
    for reason, diffs in by_reason.items():
        what = sorted({f"{d.aspect} `{d.subject}` {d.detail}".replace("|", "\\|") for d in diffs})
        wheres = sorted({d.where for d in diffs})
        out.append(
            f"- **{reason}** ({len(diffs)}: " + "; ".join(what[:5]) + (" ..." if len(what) > 5 else "")
            + "; in " + ", ".join(f"`{w}`" for w in wheres[:6]) + (" ..." if len(wheres) > 6 else "") + ")"
        )
    unexplained = [d for d in report.unexplained if d.dialect == dialect]
    out += ["", f"Unexplained differences: {len(unexplained)}."]
    out += [f"- {d.where}: {d.aspect} `{d.subject}` {d.detail}" for d in unexplained]
    out.append("")
    return out


def render(report: FidelityReport) -> str:
    """The page says, per dialect, which corpus files were compared, which event kinds and how many fields,
    the request-dependent rules with their result on the recordings and on the mock, every difference the
    mock keeps with its reason, and the unexplained ones. There should be none, since the test suite fails
    on them. The recordings the corpus lacks, ``[wanted.NAME]`` in the manifest, are listed as wanted."""
    by_dialect: dict[str, list[ExchangeReport]] = defaultdict(list)
    for er in report.exchanges:
        by_dialect[er.cx.dialect].append(er)
    explained = sum(len(d) for d in report.explained.values())
    out = [
        "# Mock fidelity",
        "",
        "<!-- Generated by `nox -s fidelity` (python -m tools.docs._fidelity docs/fidelity.md): "
        "do not edit. -->",
        "",
        "thinkwire's verdicts are only as good as its mock. This page compares the mock upstream with real "
        "recorded traffic: the corpus (imported with `thinkwire import` from public test cassettes, each "
        "file's source, commit, license and sha256 in `recordings/corpus/corpus.toml`, the table in "
        "`recordings/README.md`; the data is kept outside the project, at `$THINKWIRE_CORPUS` or "
        "`../shared/corpus`, and `thinkwire corpus fetch` rebuilds it). For every "
        "recorded exchange the mock answers the *same request* with the *same content* (the recording "
        "decoded by the dialect's observer, emitted by thinkwire's emitter in the variant and provider "
        "rules that play that provider), and `tools.fidelity` compares the two: status, framing "
        "(line ends, `event:` lines, padding, the JSON-array separator), the headers clients read "
        "(content type, and the request-id header each official SDK reads), the event grammar (which kinds, "
        "in which order), the fields of each kind with their JSON types (nothing the recording never "
        "has, nothing it always has missing), and request-dependent rules checked on the recordings and on "
        "the mock. `tests/fidelity` fails on any unexplained difference, on a rule a recording breaks, and "
        "on a row of the kept-differences table that explains nothing.",
        "",
        f"**{len(report.exchanges)} exchanges, {len(by_dialect)} dialects; {explained} differences kept "
        f"on purpose ({len(report.explained)} reasons); {len(report.unexplained)} unexplained; "
        f"{len(report.contradicted)} rules contradicted by a recording.**",
        "",
        "| dialect | files | exchanges | kinds | fields | kept | unexplained |",
        "|---|---|---|---|---|---|---|",
    ]
    for dialect, ers in sorted(by_dialect.items()):
        kinds = {k for er in ers for k in er.kinds}
        kept = sum(1 for er in ers for d in er.differences) - sum(
            1 for d in report.unexplained if d.dialect == dialect
        )
        out.append(
            f"| {dialect} | {len({er.cx.file.name for er in ers})} | {len(ers)} | {len(kinds)} | "
            f"{sum(er.fields for er in ers)} | {kept} | "
            f"{sum(1 for d in report.unexplained if d.dialect == dialect)} |"
        )
    out += ["", *render_variants(report), ""]
    for dialect, ers in sorted(by_dialect.items()):
        out += _dialect_section(dialect, ers, report)
    out += ["## Corpus", "", render_corpus_table(report), ""]
    out += ["## What the corpus says about the wire-format notes", ""]
    out += [f"- **{where}**: {what}" for where, what in CORRECTIONS]
    out.append("")
    return "\n".join(out)


def render_variants(report: FidelityReport) -> list[str]:
    """Every wire variant of every dialect: the corpus files its emitter was compared with, or why none
    (``tools.fidelity._uncovered``)."""
    cov = coverage(er.cx for er in report.exchanges)
    out = [
        f"Wire variants compared: {len(cov.covered)} of {len(cov.covered) + len(cov.uncovered)} "
        "(each variant's emitter answers the recordings its provider made); the others, with why no "
        "recording plays them:",
        "",
        "| dialect | variant | compared with |",
        "|---|---|---|",
    ]
    rows = {**{k: ", ".join(f"`{n}`" for n in v) for k, v in cov.covered.items()}, **cov.uncovered}
    wanted: dict[tuple[str, str], list[Wanted]] = defaultdict(list)
    for w in read_manifest().wanted:
        wanted[(w.dialect, w.variant)].append(w)
    for key, ws in wanted.items():
        if key in cov.uncovered:
            rows[key] += "; **wanted:** " + "; ".join(f"`{w.name}` ({w.why})" for w in ws)
    out += [f"| {d} | {v} | {rows[(d, v)]} |" for d, v in sorted(rows)]
    return out


def update_readme(readme: Path, table: str) -> bool:
    """Replace the corpus table between the markers; True when the file changed.

    The table sits between the README's ``corpus`` markers.
    """
    text = readme.read_text(encoding="utf-8")
    if BEGIN not in text or END not in text:
        raise SystemExit(f"{readme}: the corpus markers {BEGIN!r} / {END!r} are missing")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    new = f"{head}{BEGIN}\n{table}\n{END}{tail}"
    if new != text:
        readme.write_text(new, encoding="utf-8")
    return new != text


def main(argv: list[str] | None = None) -> int:
    """``python -m tools.docs._fidelity [PAGE] [--corpus DIR]``.

    The corpus is read where ``harness.recording._corpus`` finds it, and ``--corpus DIR`` sets it. Without
    one this exits 1 saying where it was looked for.
    """
    import os

    args = list(sys.argv[1:] if argv is None else argv)
    if "--corpus" in args:
        i = args.index("--corpus")
        os.environ[ENV] = args[i + 1] if i + 1 < len(args) else ""
        del args[i : i + 2]
    target = Path(args[0] if args else "docs/fidelity.md")
    try:
        report = compare_corpus()
    except CorpusAbsent as exc:
        print(f"nox -s fidelity: {exc}", file=sys.stderr)
        return 1
    target.write_text(render(report), encoding="utf-8")
    update_readme(manifest_path().parent.parent / "README.md", render_corpus_table(report))
    print(
        f"{target}: {len(report.exchanges)} exchanges, {len(report.unexplained)} unexplained, "
        f"{sum(len(d) for d in report.explained.values())} kept ({len(KEPT)} rows, {len(report.stale)} stale)"
    )
    cov = coverage(er.cx for er in report.exchanges)
    if cov.missing or cov.stale:
        print(f"variants without a recording or a reason: {cov.missing}; stale rows: {cov.stale}")
    return 1 if report.unexplained or report.stale or report.contradicted or cov.missing or cov.stale else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
