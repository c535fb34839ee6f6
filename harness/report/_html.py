"""The HTML report: one self-contained file with inline CSS, a little vanilla JS and no external assets. It is
the report that holds everything results.json keeps, so it can be mailed or archived alone."""

from __future__ import annotations

from collections import defaultdict
from typing import Any
from urllib.parse import quote

from harness.report._causes import Cause, group_causes
from harness.report._common import entry_text, esc, failing_case, outcome
from harness.report._compact import compact_case, compactable
from harness.report._html_passing import PASSING_JS, folded_row, passing_data
from harness.report._svg import timeline_svg
from harness.runner import RunResult
from harness.verdict import CaseResult, Verdict, worst

__all__ = ["render_html"]

_ORDER = ("FAIL", "UNCLEAN", "ERROR", "TIMEOUT", "NON_STRICT", "XFAIL", "UNSUPPORTED", "INFO", "PASS", "N/A")
_ABBR = {"NON_STRICT": "NS", "UNSUPPORTED": "UNS", "UNCLEAN": "UNCL", "TIMEOUT": "T/O", "N/A": "–"}
SHOWN_CHECKS = 8
"""Up to this many check columns are shown when the page opens; more (a whole catalog has about 20)
start collapsed, behind the "check columns" switch, so that the case table fits 1400 px."""


def _cls(word: str) -> str:
    return "v v-" + word.replace("/", "")


# The failures grouped by cause and the SUT x case matrix are always in the page. Each case that did not
# pass (or kept its whole timeline) has its row, and its detail in a text ``<script>`` until the case is
# opened: findings, reproduce line, raw frames, the swimlane with the evidence marked. A passing case is
# compact data (``_html_passing``): the page's script makes its row when its category is unfolded, a
# filter or a link asks for it.
def render_html(run: RunResult, title: str = "") -> str:
    """The report page as one string."""
    checks = _check_names([compact_case(r) if compactable(r) else r for r in run.results])
    groups: dict[str, list[tuple[int, CaseResult]]] = defaultdict(list)
    for i, r in enumerate(run.results):
        groups[r.category or "(none)"].append((i, r))
    cats = sorted(groups)
    body, templates, passing = _matrix(groups, cats, checks)
    words: dict[str, int] = defaultdict(int)
    for r in run.results:
        words[outcome(r)] += 1
    present = [w for w in _ORDER if words.get(w)]
    counts = "".join(f'<span class="{_cls(w)} count">{w} {words[w]}</span>' for w in present)
    bad = len(run.unexpected)
    banner = (
        '<span class="banner ok">OK: no unexpected results</span>'
        if run.exit_code == 0
        else f'<span class="banner bad">FAILED: {bad} unexpected result(s)</span>'
    )
    verdict_opts = '<option value="">all verdicts</option><option value="unexpected">unexpected only</option>'
    verdict_opts += "".join(f'<option value="{esc(w)}">{esc(w)}</option>' for w in present)
    cat_opts = '<option value="">all categories</option>' + "".join(
        f'<option value="{esc(c)}">{esc(c)}</option>' for c in sorted(groups)
    )
    head_checks = "".join(f'<th class="check" title="{esc(c)}"><span>{esc(c)}</span></th>' for c in checks)
    shown, switch = _check_switch(checks)
    strict = " · strict" if run.strict else ""
    dur = f"{run.duration_s:.1f}s"
    page_title = title or f"thinkwire report: {run.sut}"
    sut_error = f'<pre class="error">SUT error: {esc(run.sut_error, False)}</pre>' if run.sut_error else ""
    if run.interrupted:
        sut_error += f'<p class="error">Interrupted by {esc(run.interrupted)}: only these cases were run.</p>'
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{esc(page_title)}</title>
<style>{_CSS}</style></head>
<body>
<header>
<h1>thinkwire report</h1>
<p class="meta">SUT <code>{esc(run.sut)}</code> · {len(run.results)} case(s) · {dur}{strict} · {banner}</p>
<p class="counts">{counts}</p>
{sut_error}
</header>
{_causes(group_causes(r for r in run.results if failing_case(r)))}
<form class="filters" id="filters" onsubmit="return false">
<label>verdict <select id="f-verdict">{verdict_opts}</select></label>
<label>category <select id="f-cat">{cat_opts}</select></label>
<label>case id <input id="f-text" type="search" placeholder="contains…" size="34"></label>
{switch}
<span id="f-shown">{len(run.results)} shown</span>
</form>
<table id="matrix"{"" if shown else ' class="checks-off"'}>
<thead><tr><th class="id">case</th><th>stream</th><th>cleanup</th><th>status</th>{head_checks}</tr></thead>
<tbody>
{chr(10).join(body)}
</tbody></table>
<div id="templates">
{chr(10).join(templates)}
</div>
{passing_data(passing, checks, cats)}
<script>{_JS}</script>
</body></html>
"""


def _matrix(
    groups: dict[str, list[tuple[int, CaseResult]]], cats: list[str], checks: list[str]
) -> tuple[list[str], list[str], list[tuple[int, CaseResult]]]:
    """The case table's rows by category, the detail templates of the cases that have a row, and the
    passing cases (with their place in the run) folded under their category instead."""
    ncols = 4 + len(checks)
    body: list[str] = []
    templates: list[str] = []
    passing: list[tuple[int, CaseResult]] = []
    for g, cat in enumerate(cats):
        rows = groups[cat]
        nbad = sum(r.unexpected for _, r in rows)
        body.append(
            f'<tr class="cat" data-cat="{esc(cat)}"><th colspan="{ncols}">{esc(cat)} '
            f'<span class="n">{len(rows)} case(s){f", {nbad} unexpected" if nbad else ""}</span></th></tr>'
        )
        folded = [(i, r) for i, r in rows if compactable(r)]
        for i, r in rows:
            if compactable(r):
                continue
            body.append(_row(i, r, checks))
            body.append(f'<tr class="detail" id="detail-{i}" hidden><td colspan="{ncols}"></td></tr>')
            # Script text is never parsed into DOM until the case is opened; inert <template>s of 500 cases
            # made opening the page about twice as slow.
            templates.append(f'<script type="text/x-thinkwire-case" id="tpl-{i}">{_detail(r)}</script>')
        if folded:
            body.append(folded_row(g, cat, len(folded), ncols))
            passing += folded
    return body, templates, passing


def _check_switch(checks: list[str]) -> tuple[bool, str]:
    """Whether the check columns start shown (up to :data:`SHOWN_CHECKS`), and their switch."""
    shown = len(checks) <= SHOWN_CHECKS
    switch = (
        f'<label title="one column per check: its verdict for each case"><input type="checkbox" '
        f'id="f-checks"{" checked" if shown else ""}> {len(checks)} check columns</label>'
        if checks
        else ""
    )
    return shown, switch


def _causes(causes: list[Cause]) -> str:
    """The failures by cause: a <details> per cause (count, check, normalised message), its cases as
    links that open them (``#case=ID``)."""
    if not causes:
        return ""
    total = len({r.case_id for c in causes for r in c.cases})
    items = []
    for c in causes:
        links = "".join(
            f'<li><a class="case-link" href="#case={esc(quote(r.case_id, safe=""))}">{esc(r.case_id)}</a>'
            + (" <span class=\"tag xfail\">expected</span>" if outcome(r) == "XFAIL" else "")
            + "</li>"
            for r in c.cases
        )
        items.append(
            f'<details class="cause" data-check="{esc(c.check)}"><summary><span class="cnt">{c.count}</span> '
            f'<b>[{esc(c.check)}]</b> {esc(c.headline, False)}</summary>'
            f'<p class="example">e.g. {esc(c.example, False)}</p><ul>{links}</ul></details>'
        )
    return (
        f'<section id="causes"><h2>Failures by cause <span class="n">{len(causes)} cause(s) in '
        f"{total} case(s)</span></h2>{''.join(items)}</section>"
    )


def _check_names(results: list[CaseResult]) -> list[str]:
    seen: dict[str, None] = {}
    for r in results:
        for f in r.findings:
            seen.setdefault(f.check, None)
    return list(seen)


def _row(i: int, r: CaseResult, checks: list[str]) -> str:
    word = outcome(r)
    by_check: dict[str, list[Any]] = defaultdict(list)
    for f in r.findings:
        by_check[f.check].append(f)
    words = {word, r.stream.value, r.cleanup.value, r.status.value}
    cells = [
        f'<td class="id"><a href="#case={esc(r.case_id)}">{esc(r.case_id)}</a>'
        + (' <span class="tag">unexpected</span>' if r.unexpected else "")
        + (' <span class="tag xfail">expected</span>' if word == "XFAIL" else "")
        + "</td>",
        _vcell(r.stream.value, ""),
        _vcell(r.cleanup.value, ""),
        _vcell(r.status.value, r.error),
    ]
    for c in checks:
        fs = by_check.get(c)
        if not fs:
            cells.append('<td class="v none c"></td>')
            continue
        verdicts = [f.verdict for f in fs]
        v = worst(verdicts, default=Verdict.INFO if Verdict.INFO in verdicts else Verdict.NOT_APPLICABLE)
        words.add(v.value)
        cells.append(_vcell(v.value, "; ".join(f.message for f in fs if f.message), short=True, check=True))
    return (
        f'<tr class="case" id="row-{i}" data-i="{i}" data-case="{esc(r.case_id)}" '
        f'data-cat="{esc(r.category or "(none)")}" data-outcome="{word}" '
        f'data-words="{esc(" ".join(sorted(words)))}" data-unexpected="{int(r.unexpected)}">'
        + "".join(cells)
        + "</tr>"
    )


def _vcell(word: str, title: str, short: bool = False, check: bool = False) -> str:
    text = _ABBR.get(word, word) if short else word
    said = word + (": " + title if title else "")
    t = f' title="{esc(said)}"' if said != text else ""  # (500 rows x 20 cells: only what adds to the text)
    return f'<td class="{_cls(word)}{" c" if check else ""}"{t}>{esc(text)}</td>'


def _detail(r: CaseResult) -> str:
    parts = [f'<div class="detail-body" data-case="{esc(r.case_id)}">']
    parts.append(f'<h3>{esc(r.case_id)} <span class="{_cls(outcome(r))}">{esc(outcome(r))}</span></h3>')
    parts.append(f'<p class="req">→ {esc(r.requirement)}</p>')
    axes = " ".join(f"<code>{esc(k)}={esc(v)}</code>" for k, v in r.axes.items())
    parts.append(
        f'<p class="meta">scenario <code>{esc(r.scenario_id)}</code> · {r.duration_s * 1000:.1f} ms'
        f" · stream {esc(r.stream.value)} · cleanup {esc(r.cleanup.value)} · status {esc(r.status.value)}"
        + (f" · {axes}" if axes else "")
        + "</p>"
    )
    if r.expected:
        exp = ", ".join(f"{k}={v}" for k, v in r.expected.items())
        parts.append(f'<p class="expect">expectations file: {esc(exp)} — {esc(r.expected_reason)}</p>')
    if r.error:
        parts.append(f'<pre class="error">{esc(r.status.value)}: {esc(r.error, False)}</pre>')
    if r.findings:
        parts.append(
            '<table class="findings"><thead><tr><th>check</th><th>axis</th><th>verdict</th>'
            "<th>message</th><th>evidence</th></tr></thead><tbody>"
        )
        for f in sorted(r.findings, key=lambda f: not f.failed):
            ev = " ".join(f'<a href="#" data-ev="{n}">#{n}</a>' for n in f.evidence)
            ea = ""
            if f.expected or f.actual:
                ea = (
                    f'<div class="ea"><b>Expected:</b> <code>{esc(f.expected, False)}</code><br>'
                    f"<b>Actual:</b> <code>{esc(f.actual, False)}</code></div>"
                )
            parts.append(
                f'<tr class="{"failed" if f.failed else ""}"><td>{esc(f.check)}</td>'
                f"<td>{esc(f.axis.value)}</td>"
                f'<td class="{_cls(f.verdict.value)}">{esc(f.verdict.value)}</td>'
                f"<td>{esc(f.message, False)}{ea}</td><td>{ev}</td></tr>"
            )
        parts.append("</tbody></table>")
    parts.append(f'<p class="repro">reproduce: <code>{esc(r.reproduce, False)}</code></p>')
    if r.timeline or r.timeline_summary is None:
        parts.append(f'<div class="svgwrap">{timeline_svg(r)}</div>')
        parts.append(_frames(r))
    else:
        parts.append(_summary(r.timeline_summary))
    parts.append("</div>")
    return "".join(parts)


def _summary(summary: dict[str, Any]) -> str:
    """A passing case's summarised timeline: one row per side, act, what and turn."""
    rows = "".join(
        f"<tr><td>{esc(row['side'])}</td><td>{esc(row['act'])}</td><td>{esc(row['what'])}</td>"
        f"<td>{row['turn']}</td><td>{row['n']}</td><td>{row['bytes']}</td>"
        f"<td>{float(row['first_ms']):.2f} – {float(row['last_ms']):.2f}</td></tr>"
        for row in summary.get("rows", ())
    )
    return (
        f'<details class="frames summary"><summary>timeline summarised: {summary.get("entries", 0)} entries '
        f'over {float(summary.get("duration_ms", 0)):.1f} ms (the case passed; '
        "<code>--keep-timelines</code> keeps every entry)</summary>"
        '<table class="frames"><thead><tr><th>side</th><th>act</th><th>what</th><th>turn</th><th>n</th>'
        f"<th>bytes</th><th>ms</th></tr></thead><tbody>{rows}</tbody></table></details>"
    )


def _frames(r: CaseResult) -> str:
    if not r.timeline:
        return '<p class="meta">no timeline recorded</p>'
    evidence = {n for f in r.failing() for n in f.evidence}
    rows = []
    for n, e in enumerate(r.timeline):
        side = str(e.get("side", ""))
        col = {"upstream": 0, "client": 1}.get(side, 2)
        content = (
            f'<span class="act">{esc(e.get("act", ""))}</span>'
            + (f' <span class="act">turn {esc(e.get("turn"))}</span>' if e.get("turn") else "")
            + f"<pre>{esc(entry_text(e), False)}</pre>"
        )
        cells = ["<td></td>"] * 3
        cells[col] = f'<td class="side-{esc(side)}">{content if col < 2 else esc(side) + " " + content}</td>'
        rows.append(
            f'<tr id="ev-{esc(r.case_id)}-{n}" data-n="{n}" class="{"evidence" if n in evidence else ""}">'
            f'<td class="n">#{n}</td><td class="t">{float(e.get("t_ms", 0)):.2f}</td>{"".join(cells)}</tr>'
        )
    return (
        f'<details class="frames" open><summary>raw frames ({len(r.timeline)} entries)</summary>'
        '<table class="frames"><thead><tr><th>#</th><th>ms</th><th>upstream</th><th>client</th>'
        "<th>sut / harness</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table></details>"
    )


_CSS = """
body{font:14px/1.4 system-ui,-apple-system,Segoe UI,sans-serif;margin:0;color:#222;background:#fff}
header{padding:12px 20px;background:#2d3436;color:#fff}
header h1{margin:0 0 4px;font-size:20px}
header code{color:#ffeaa7}
.meta{margin:2px 0;color:inherit}
.detail-body .meta{color:#555}
.counts .count{display:inline-block;margin:2px 6px 2px 0;padding:2px 8px;border-radius:10px;font-weight:600}
.banner{padding:2px 8px;border-radius:4px;font-weight:700}
.banner.ok{background:#00795f;color:#fff}.banner.bad{background:#d63031;color:#fff}
.filters{padding:8px 20px;background:#f1f2f6;position:sticky;top:0;z-index:2;border-bottom:1px solid #ccc}
.filters label{margin-right:14px}
#f-shown{color:#555}
table#matrix{border-collapse:collapse;margin:8px 20px;font-size:13px}
#matrix>*>tr>th,#matrix>*>tr>td{border:1px solid #dfe4ea;padding:2px 6px;text-align:center;white-space:nowrap}
#matrix>tbody>tr>td.id{text-align:left;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px;
 white-space:normal;overflow-wrap:anywhere;min-width:22em;max-width:46em}
#matrix.checks-off th.check,#matrix.checks-off td.c{display:none}
#matrix>thead>tr>th{background:#f1f2f6;position:sticky;top:41px;z-index:1}
#matrix th.check{vertical-align:bottom;height:110px;padding:2px}
#matrix th.check span{writing-mode:vertical-rl;transform:rotate(180deg);font-weight:500}
#matrix>tbody>tr.cat>th{text-align:left;background:#dfe6e9;font-size:14px}
#matrix tr.cat .n{font-weight:400;color:#555;font-size:12px}
#matrix tr.case{cursor:pointer}
#matrix tr.case:hover>td{filter:brightness(.95)}
#matrix tr.case.open td.id{font-weight:700}
#matrix tr.detail>td{text-align:left;white-space:normal;background:#fcfcfd;padding:8px 14px}
.tag{font:11px system-ui,sans-serif;background:#d63031;color:#fff;border-radius:3px;padding:0 4px}
.tag.xfail{background:#636e72;color:#fff}
.v-PASS{background:#55efc4;color:#1e272e}.v-FAIL{background:#ff7675;color:#000;font-weight:700}
.v-UNCLEAN{background:#fab1a0;color:#1e272e;font-weight:700}
.v-NON_STRICT{background:#fdcb6e;color:#1e272e;box-shadow:inset 0 0 0 1px #b7791f}
.v-INFO{background:#c7ecee;color:#1e272e}.v-UNSUPPORTED{background:#dfe6e9;color:#4b5457}
.v-NA{background:#fff;color:#636e72}.v-OK{background:#f5f6fa;color:#636e72}
.v-ERROR{background:#5f4fd6;color:#fff;font-weight:700}.v-TIMEOUT{background:#b71c64;color:#fff;font-weight:700}
.v-XFAIL{color:#2d3436;
 background:repeating-linear-gradient(45deg,#ffd6d6,#ffd6d6 5px,#f1f2f6 5px,#f1f2f6 10px)}
td.none{background:#fff}
.req{font-weight:600;margin:4px 0}
.expect{background:#f1f2f6;padding:4px 8px}
pre{margin:0;white-space:pre-wrap;word-break:break-all;font:12px/1.35 ui-monospace,Menlo,Consolas,monospace}
pre.error{background:#ffeaea;border-left:4px solid #d63031;padding:6px;color:#2d3436;margin:6px 0}
header pre.error{margin:6px 0}
table.findings,table.frames{border-collapse:collapse;margin:6px 0;width:100%;font-size:12px}
table.findings td,table.findings th,table.frames td,table.frames th{border:1px solid #dfe4ea;padding:2px 6px;
 text-align:left;vertical-align:top;white-space:normal}
table.findings tr.failed td:first-child{border-left:4px solid #d63031}
.ea{margin-top:2px}.ea code{background:#f1f2f6;white-space:pre-wrap}
.repro code{background:#2d3436;color:#dfe6e9;padding:2px 6px;border-radius:3px;user-select:all}
.svgwrap{overflow-x:auto;margin:6px 0;border:1px solid #dfe4ea;background:#fff}
table.frames td{width:32%}table.frames td.n,table.frames td.t{width:3%;white-space:nowrap;color:#636e72}
table.frames tr.evidence td{background:#ffeaa7}
table.frames tr.flash td{outline:2px solid #e17055}
.act{font:11px system-ui,sans-serif;background:#dfe6e9;color:#222;border-radius:3px;padding:0 4px}
td.side-upstream .act{background:#d6eaff;color:#222}td.side-client .act{background:#e6dcf5;color:#222}
#causes{margin:8px 20px}#causes h2{font-size:16px;margin:4px 0}#causes h2 .n{font-weight:400;color:#555}
details.cause{border-left:4px solid #d63031;background:#fff5f5;margin:3px 0;padding:2px 8px}
details.cause summary{cursor:pointer}details.cause .cnt{display:inline-block;min-width:2.5em;font-weight:700}
details.cause ul{margin:2px 0 4px;columns:2;font:12px ui-monospace,Menlo,Consolas,monospace}
details.cause .example{margin:2px 0;color:#555;font-size:12px}
#matrix>tbody>tr.more>td{text-align:left;background:#f7fdfb;font-size:12px}
table.findings tr.quiet td{color:#555}
"""

_JS = (
    r"""
(function(){
  var rows=[].slice.call(document.querySelectorAll('#matrix tr.case'));
"""
    + PASSING_JS
    + r"""
  function open(tr,show){
    var i=tr.getAttribute('data-i'),d=document.getElementById('detail-'+i);
    if(show===undefined)show=d.hidden;
    if(show&&!d.firstChild.firstChild)d.firstChild.innerHTML=template(i);
    d.hidden=!show;tr.classList.toggle('open',show);
    return d;
  }
  function wire(tr){
    tr.addEventListener('click',function(e){
      e.preventDefault();
      var d=open(tr);
      if(!d.hidden)history.replaceState(null,'','#case='+encodeURIComponent(tr.getAttribute('data-case')));
    });
  }
  rows.forEach(wire);
  var fv=document.getElementById('f-verdict'),fc=document.getElementById('f-cat'),
      ft=document.getElementById('f-text'),shown=document.getElementById('f-shown');
  document.addEventListener('click',function(e){
    var more=e.target.closest&&e.target.closest('a[data-more]');
    if(more){e.preventDefault();unfold(+more.getAttribute('data-more'));filter();return;}
    var a=e.target.closest&&e.target.closest('a[data-ev]');
    if(!a)return;
    e.preventDefault();
    var body=a.closest('.detail-body'),n=a.getAttribute('data-ev');
    var tr=body&&body.querySelector('table.frames tr[data-n="'+n+'"]');
    if(tr){tr.scrollIntoView({block:'center'});tr.classList.add('flash');
      setTimeout(function(){tr.classList.remove('flash');},1500);}
  });
  function filter(){
    var v=fv.value,c=fc.value,t=ft.value.trim().toLowerCase(),n=0,cats={},folded=0;
    if(v||t)P.cases.forEach(function(p,k){if(matches(p,v,c,t))make(k);});
    rows.forEach(function(tr){
      var ok=(!c||tr.getAttribute('data-cat')===c)
        &&(!t||tr.getAttribute('data-case').toLowerCase().indexOf(t)>=0)
        &&(!v||(v==='unexpected'?tr.getAttribute('data-unexpected')==='1'
               :(' '+tr.getAttribute('data-words')+' ').indexOf(' '+v+' ')>=0));
      tr.hidden=!ok;
      if(!ok)open(tr,false);
      if(ok){n++;cats[tr.getAttribute('data-cat')]=1;}
    });
    [].forEach.call(document.querySelectorAll('#matrix tr.more'),function(m){
      var g=+m.id.slice(5),left=P.cases.filter(function(p,k){return p.g===g&&!made[k];}).length;
      m.hidden=!left||!!(v||t)||!!(c&&m.getAttribute('data-cat')!==c);
      if(!m.hidden){cats[m.getAttribute('data-cat')]=1;folded+=left;}
      m.querySelector('a').textContent=left+' passing case(s) folded: show';
    });
    [].forEach.call(document.querySelectorAll('#matrix tr.cat'),function(h){
      h.hidden=!cats[h.getAttribute('data-cat')];
    });
    var total=rows.length+P.cases.length-Object.keys(made).length;
    shown.textContent=n+' of '+total+' shown'+(folded?', '+folded+' passing folded':'');
  }
  [fv,fc].forEach(function(el){el.addEventListener('change',filter);});
  var fk=document.getElementById('f-checks');
  if(fk)fk.addEventListener('change',function(){
    document.getElementById('matrix').classList.toggle('checks-off',!fk.checked);
  });
  ft.addEventListener('input',filter);
  function byHash(){
    var m=/^#case=(.+)$/.exec(location.hash),id=m&&decodeURIComponent(m[1]),hit=null;
    if(id)rows.forEach(function(tr){if(tr.getAttribute('data-case')===id)hit=tr;});
    if(id&&!hit)P.cases.forEach(function(p,k){if(p.i===id)hit=make(k);});
    return hit;
  }
  window.addEventListener('hashchange',function(){
    var tr=byHash();
    if(tr){if(tr.hidden){fv.value='';fc.value='';ft.value='';filter();}
      open(tr,true);tr.scrollIntoView();}
  });
  var target=byHash(),m=target;
  ['tr.case[data-unexpected="1"][data-outcome="FAIL"]','tr.case[data-unexpected="1"]',
   'tr.case[data-outcome="FAIL"]'].forEach(function(sel){
    target=target||document.querySelector('#matrix '+sel);
  });
  if(target){
    open(target,true);
    if(m&&target.getBoundingClientRect().top>window.innerHeight*0.6)target.scrollIntoView();
  }
  filter();
  document.documentElement.setAttribute('data-ready-ms',Math.round(performance.now()));
})();
"""
)
