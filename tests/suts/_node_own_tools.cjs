// A Node agent that runs its tools itself, through the adapter protocol's mid-turn tool_call (runTool):
// it calls an OpenAI-compatible chat model, runs the tool calls, and calls the model again until it
// answers. argv `ok` keeps reasoning_content on its tool-call messages, `lossy` drops it.
'use strict';
const path = require('node:path');
const { serve, fresh, text } = require(path.join(__dirname, '..', '..', 'adapters', 'node', 'protocol.cjs'));

const mode = process.argv[2] || 'ok';

async function ask(req, history, emit, signal) {
  const res = await fetch(`${req.base_url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: req.model, messages: history, stream: true, tools: req.tools }),
    signal,
  });
  if (res.status >= 400) throw Object.assign(new Error(await res.text()), { status: res.status });
  const reply = { reasoning: '', content: '', calls: [] };
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of res.body) {
    buffer += decoder.decode(chunk, { stream: true });
    let cut;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const data = block.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
      if (!data || data === '[DONE]') continue;
      const choice = (JSON.parse(data).choices || [])[0];
      if (!choice) continue;
      const delta = choice.delta || {};
      if (delta.reasoning_content) { reply.reasoning += delta.reasoning_content; emit({ type: 'reasoning', text: delta.reasoning_content }); }
      if (delta.content) { reply.content += delta.content; emit({ type: 'text', text: delta.content }); }
      for (const tc of delta.tool_calls || []) {
        const call = reply.calls[tc.index] || (reply.calls[tc.index] = { id: tc.id, name: '', arguments: '' });
        if (tc.function && tc.function.name) call.name = tc.function.name;
        const args = (tc.function && tc.function.arguments) || '';
        call.arguments += args;
        emit({ type: 'tool_call', index: tc.index, id: tc.id || null, name: (tc.function && tc.function.name) || null, arguments: args });
      }
      if (choice.finish_reason) emit({ type: 'end', reason: choice.finish_reason });
    }
  }
  return reply;
}

serve(`node-own-tools-${mode}`, async (req, state, emit, signal, runTool) => {
  state.history = state.history || [];
  for (const m of fresh(req, state)) if (m.role === 'user') state.history.push({ role: 'user', content: text(m) });
  for (let n = 0; n < 4; n += 1) {
    const reply = await ask(req, state.history, emit, signal);
    const entry = { role: 'assistant', content: reply.content || null };
    if (mode === 'ok' || reply.calls.length === 0) entry.reasoning_content = reply.reasoning;
    if (reply.calls.length === 0) { state.history.push(entry); return; }
    entry.tool_calls = reply.calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }));
    state.history.push(entry);
    for (const c of reply.calls) {
      const result = await runTool(c);
      state.history.push({ role: 'tool', tool_call_id: c.id, content: result });
    }
  }
});
