"""The HTML report's passing cases: compact data in one JSON script element, which the page's script turns
into a case's row when its category is unfolded, a filter or a link asks for it, and into its detail when it
is opened. A passing case is shown from what results.json keeps of it (``_compact``), nothing more."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from harness.report._common import esc, outcome
from harness.report._compact import compact_case, reproduce_line, reproduce_template
from harness.verdict import CaseResult, Verdict, worst

__all__ = ["CODES", "PASSING_JS", "folded_row", "passing_data"]

CODES = {
    Verdict.PASS: "P",
    Verdict.NOT_APPLICABLE: "-",
    Verdict.INFO: "I",
    Verdict.UNSUPPORTED: "U",
    Verdict.NON_STRICT: "S",
    Verdict.FAIL: "F",
    Verdict.UNCLEAN: "C",
}
"""One character per check column of a passing case's row: its verdict there (a space: no finding)."""


def passing_data(cases: Sequence[tuple[int, CaseResult]], checks: list[str], cats: list[str]) -> str:
    """The ``<script type="application/json" id="passing">`` element of the compactable ``cases`` (each with
    its place in the run, which its row's id keeps), "" when there is none."""
    if not cases:
        return ""
    template = reproduce_template([r for _, r in cases])
    data: dict[str, Any] = {
        "checks": checks,
        "cats": cats,
        "rep": template,
        "req": {r.scenario_id: r.requirement for _, r in cases},
        "cases": [_case(n, compact_case(r), checks, cats, template) for n, r in cases],
    }
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    # Nothing in the text may end the script element or open a comment inside it.
    return '<script type="application/json" id="passing">' + text.replace("<", "\\u003c") + "</script>"


def _case(n: int, r: CaseResult, checks: list[str], cats: list[str], template: str) -> dict[str, Any]:
    codes = []
    for name in checks:
        verdicts = [f.verdict for f in r.findings if f.check == name]
        if not verdicts:
            codes.append(" ")
            continue
        default = Verdict.INFO if Verdict.INFO in verdicts else Verdict.NOT_APPLICABLE
        codes.append(CODES[worst(verdicts, default=default)])
    out: dict[str, Any] = {
        "n": n,
        "i": r.case_id,
        "s": r.scenario_id,
        "g": cats.index(r.category or "(none)"),
        "o": outcome(r),
        "v": [r.stream.value, r.cleanup.value],
        "ms": round(r.duration_s * 1000, 1),
        "a": " ".join(f"{k}={v}" for k, v in r.axes.items()),
        "c": "".join(codes),
    }
    kept = [
        [f.check, f.verdict.value, f.axis.value, f.message, f.expected, f.actual]
        for f in r.findings
        if f.verdict not in (Verdict.PASS, Verdict.NOT_APPLICABLE)
    ]
    expected = ", ".join(f"{k}={v}" for k, v in r.expected.items())
    optional = {
        "f": kept,
        "r": r.reproduce if r.reproduce != reproduce_line(template, r.case_id) else None,
        "x": [expected, r.expected_reason] if r.expected else None,
        "e": r.error,
    }
    out.update((k, v) for k, v in optional.items() if v or (k == "r" and v is not None))
    return out


def folded_row(g: int, category: str, count: int, ncols: int) -> str:
    """The row that stands for a category's passing cases until they are shown."""
    return (
        f'<tr class="more" id="more-{g}" data-cat="{esc(category)}"><td colspan="{ncols}">'
        f'<a href="#" data-more="{g}">{count} passing case(s) folded: show</a></td></tr>'
    )


PASSING_JS = r"""
  var P=JSON.parse((document.getElementById('passing')||{}).textContent||'{"cases":[],"checks":[]}');
  var made={},byN={};
  P.cases.forEach(function(c,k){byN[c.n]=k;});
  var WORD={P:'PASS','-':'N/A',I:'INFO',U:'UNSUPPORTED',S:'NON_STRICT',F:'FAIL',C:'UNCLEAN'};
  var ABBR={NON_STRICT:'NS',UNSUPPORTED:'UNS',UNCLEAN:'UNCL',TIMEOUT:'T/O','N/A':'\u2013'};
  function esc(s){return String(s).replace(/&/g,'&amp;').replace(/</g,'&lt;').replace(/>/g,'&gt;')
    .replace(/"/g,'&quot;').replace(/'/g,'&#39;');}
  function quote(s){return !s?"''":/[^\w@%+=:,.\/-]/.test(s)?"'"+s.replace(/'/g,"'\"'\"'")+"'":s;}
  function cls(w){return 'v v-'+w.replace('/','');}
  function words(c){
    var w=[c.o,c.v[0],c.v[1],'OK'];
    for(var j=0;j<c.c.length;j++){var x=WORD[c.c[j]];if(x&&w.indexOf(x)<0)w.push(x);}
    return w.filter(function(x,k){return w.indexOf(x)===k;}).sort().join(' ');
  }
  function said(c,name){
    return (c.f||[]).filter(function(f){return f[0]===name&&f[3];}).map(function(f){return f[3];}).join('; ');
  }
  function rowHtml(c){
    var h='<tr class="case" id="row-'+c.n+'" data-i="'+c.n+'" data-case="'+esc(c.i)+'" data-cat="'
      +esc(P.cats[c.g])+'" data-outcome="'+c.o+'" data-words="'+esc(words(c))+'" data-unexpected="0">'
      +'<td class="id"><a href="#case='+esc(c.i)+'">'+esc(c.i)+'</a></td><td class="'+cls(c.v[0])+'">'+c.v[0]
      +'</td><td class="'+cls(c.v[1])+'">'+c.v[1]+'</td><td class="v v-OK"'
      +(c.e?' title="OK: '+esc(c.e)+'"':'')+'>OK</td>';
    for(var j=0;j<P.checks.length;j++){
      var w=WORD[c.c.charAt(j)];
      if(!w){h+='<td class="v none c"></td>';continue;}
      var t=said(c,P.checks[j]),s=ABBR[w]||w,title=w+(t?': '+t:'');
      h+='<td class="'+cls(w)+' c"'+(title!==s?' title="'+esc(title)+'"':'')+'>'+esc(s)+'</td>';
    }
    return h+'</tr><tr class="detail" id="detail-'+c.n+'" hidden><td colspan="'+(4+P.checks.length)
      +'"></td></tr>';
  }
  function detail(c){
    var ax=c.a?' \u00b7 '+c.a.split(' ').map(function(x){return '<code>'+esc(x)+'</code>';}).join(' '):'';
    var h='<div class="detail-body" data-case="'+esc(c.i)+'"><h3>'+esc(c.i)+' <span class="'+cls(c.o)+'">'+c.o
      +'</span></h3><p class="req">\u2192 '+esc(P.req[c.s]||'')+'</p><p class="meta">scenario <code>'+esc(c.s)
      +'</code> \u00b7 '+c.ms.toFixed(1)+' ms \u00b7 stream '+c.v[0]+' \u00b7 cleanup '+c.v[1]
      +' \u00b7 status OK'+ax+'</p>';
    if(c.x)h+='<p class="expect">expectations file: '+esc(c.x[0])+' \u2014 '+esc(c.x[1])+'</p>';
    if(c.e)h+='<pre class="error">OK: '+esc(c.e)+'</pre>';
    h+='<table class="findings"><thead><tr><th>check</th><th>axis</th><th>verdict</th><th>message</th></tr>'
      +'</thead><tbody>';
    (c.f||[]).forEach(function(f){
      h+='<tr><td>'+esc(f[0])+'</td><td>'+esc(f[2])+'</td><td class="'+cls(f[1])+'">'+esc(f[1])+'</td><td>'
        +esc(f[3])
        +(f[4]||f[5]?'<div class="ea"><b>Expected:</b> <code>'+esc(f[4])+'</code><br><b>Actual:</b> <code>'
        +esc(f[5])+'</code></div>':'')+'</td></tr>';
    });
    ['P','-'].forEach(function(code){
      var names=P.checks.filter(function(n,j){return c.c.charAt(j)===code;});
      if(names.length)h+='<tr class="quiet"><td colspan="2">'+names.length+' check(s)</td><td class="'
        +cls(WORD[code])+'">'+WORD[code]+'</td><td>'+esc(names.join(', '))+'</td></tr>';
    });
    var line=c.r!=null?c.r:P.rep?P.rep.replace('{case}',function(){return quote(c.i);}):'';
    return h+'</tbody></table><p class="meta">The case passed: its checks are kept by name, without their '
      +'messages or its timeline (<code>--keep-timelines</code> keeps them).</p>'
      +'<p class="repro">reproduce: <code>'+esc(line)+'</code></p></div>';
  }
  function make(k){
    if(made[k])return made[k];
    var c=P.cases[k],more=document.getElementById('more-'+c.g);
    more.insertAdjacentHTML('beforebegin',rowHtml(c));
    var tr=document.getElementById('row-'+c.n);
    wire(tr);rows.push(tr);made[k]=tr;
    return tr;
  }
  function matches(c,v,cat,t){
    return (!cat||P.cats[c.g]===cat)&&(!t||c.i.toLowerCase().indexOf(t)>=0)
      &&(!v||v!=='unexpected'&&(' '+words(c)+' ').indexOf(' '+v+' ')>=0);
  }
  function unfold(g){P.cases.forEach(function(c,k){if(c.g===g)make(k);});}
  function template(i){
    var tpl=document.getElementById('tpl-'+i);
    return tpl?tpl.textContent:detail(P.cases[byN[i]]);
  }
"""
"""The page's functions for passing cases (``make``, ``unfold``, ``matches``, ``template``), inside the page
script's closure (they use its ``rows`` and ``wire``)."""
