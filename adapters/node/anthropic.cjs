// The official `@anthropic-ai/sdk` Node SDK as a SUT (Messages): the SDK does HTTP, SSE parsing and
// the final message (MessageStream.finalMessage), whose content blocks (thinking with signature,
// redacted_thinking, tool_use) go back into the history as the SDK's docs show.
'use strict';
const Anthropic = require('@anthropic-ai/sdk');
const { serve, fresh, text, finish } = require('./protocol.cjs');

serve('anthropic-node', async (req, state, emit, signal) => {
  const client = new Anthropic({ baseURL: req.base_url, apiKey: 'sk-thinkwire', maxRetries: 0 });
  state.messages = state.messages || [];
  for (const m of fresh(req, state)) {
    if (m.role === 'user') state.messages.push({ role: 'user', content: text(m) });
    const results = m.content.filter((b) => b.type === 'tool_result')
      .map((b) => ({ type: 'tool_result', tool_use_id: b.call_id, content: b.content }));
    if (results.length) state.messages.push({ role: 'user', content: results });
  }
  // the case's thinking mode, as the Python SDK adapter asks it: adaptive (display summarized, an effort)
  // for the adaptive variant and adaptive with display omitted for the omitted one, whose adaptive-only
  // models (Opus 4.7+) answer 400 to type enabled; else a thinking budget
  const thinking = {
    adaptive: { thinking: { type: 'adaptive', display: 'summarized' }, output_config: { effort: 'medium' } },
    omitted: { thinking: { type: 'adaptive', display: 'omitted' } },
  }[req.variant] || { thinking: { type: 'enabled', budget_tokens: 2048 } };
  const params = { model: req.model, max_tokens: 4096, messages: state.messages, ...thinking, ...req.body };
  if (req.tools.length) params.tools = req.tools;
  // thinking tokens: usage.output_tokens_details.thinking_tokens (typed; MessageStream keeps message_delta's)
  const usage = (u) => ({ type: 'usage', input_tokens: u.input_tokens ?? null, output_tokens: u.output_tokens ?? null,
                          reasoning_tokens: u.output_tokens_details?.thinking_tokens ?? null });
  if (!req.stream) {
    const msg = await client.messages.create(params, { signal });
    let tools = 0;
    for (const b of msg.content) {
      if (b.type === 'thinking') { if (b.thinking) emit({ type: 'reasoning', text: b.thinking }); if (b.signature) emit({ type: 'signature', value: b.signature }); }
      else if (b.type === 'redacted_thinking') emit({ type: 'redacted', data: b.data });
      else if (b.type === 'text') emit({ type: 'text', text: b.text });
      else if (b.type === 'tool_use') emit({ type: 'tool_call', index: tools++, id: b.id, name: b.name, arguments: JSON.stringify(b.input) });
    }
    emit(usage(msg.usage));
    emit({ type: 'end', reason: finish(msg.stop_reason) });
    state.messages.push({ role: 'assistant', content: msg.content });
    return;
  }
  const stream = client.messages.stream(params, { signal });
  const toolIndex = new Map();
  for await (const ev of stream) {
    if (ev.type === 'content_block_start') {
      const b = ev.content_block;
      if (b.type === 'redacted_thinking') emit({ type: 'redacted', data: b.data });
      if (b.type === 'tool_use') { toolIndex.set(ev.index, toolIndex.size); emit({ type: 'tool_call', index: toolIndex.get(ev.index), id: b.id, name: b.name, arguments: '' }); }
    } else if (ev.type === 'content_block_delta') {
      const d = ev.delta;
      if (d.type === 'thinking_delta') emit({ type: 'reasoning', text: d.thinking });
      else if (d.type === 'signature_delta') emit({ type: 'signature', value: d.signature });
      else if (d.type === 'text_delta') emit({ type: 'text', text: d.text });
      else if (d.type === 'input_json_delta') emit({ type: 'tool_call', index: toolIndex.get(ev.index), arguments: d.partial_json });
    }
  }
  const final = await stream.finalMessage();
  emit(usage(final.usage));
  emit({ type: 'end', reason: finish(final.stop_reason) });
  state.messages.push({ role: 'assistant', content: final.content }); // the SDK's blocks carry passback
});
