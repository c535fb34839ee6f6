// The official `openai` Node SDK as a SUT (Chat Completions): the SDK does HTTP, SSE parsing and the
// accumulated final message (ChatCompletionStream.finalChatCompletion), which is what goes back into
// the history, as a user of the SDK would do. Reasoning is read from the chunks' untyped fields
// (reasoning_content / reasoning, else the text entries of reasoning_details: MiniMax's reasoning_split),
// as users of OpenAI-compatible providers do.
'use strict';
const OpenAI = require('openai');
const { serve, fresh, text, finish } = require('./protocol.cjs');

const detailsText = (x) =>
  (Array.isArray(x.reasoning_details) ? x.reasoning_details : [])
    .filter((d) => d && d.type === 'reasoning.text')
    .map((d) => d.text || '')
    .join('');

serve('openai-node', async (req, state, emit, signal) => {
  const client = new OpenAI({ baseURL: req.base_url + '/v1', apiKey: 'sk-thinkwire', maxRetries: 0 });
  state.messages = state.messages || [];
  for (const m of fresh(req, state)) {
    if (m.role === 'user') state.messages.push({ role: 'user', content: text(m) });
    for (const b of m.content) {
      if (b.type === 'tool_result') state.messages.push({ role: 'tool', tool_call_id: b.call_id, content: b.content });
    }
  }
  const params = { model: req.model, messages: state.messages, ...req.body };
  if (req.tools.length) params.tools = req.tools;
  if (!req.stream) {
    const r = await client.chat.completions.create({ ...params, stream: false }, { signal });
    const msg = r.choices[0].message;
    const reasoning = msg.reasoning_content ?? msg.reasoning ?? detailsText(msg);
    if (reasoning) emit({ type: 'reasoning', text: reasoning });
    if (msg.content) emit({ type: 'text', text: msg.content });
    (msg.tool_calls || []).forEach((c, index) => emit({ type: 'tool_call', index, id: c.id, name: c.function.name, arguments: c.function.arguments }));
    if (r.usage) emit({ type: 'usage', input_tokens: r.usage.prompt_tokens, output_tokens: r.usage.completion_tokens, total_tokens: r.usage.total_tokens, reasoning_tokens: r.usage.completion_tokens_details?.reasoning_tokens ?? null });
    emit({ type: 'end', reason: finish(r.choices[0].finish_reason) });
    state.messages.push(msg);
    return;
  }
  const stream = client.chat.completions.stream({ ...params, stream: true, stream_options: { include_usage: true } }, { signal });
  let reason = null;
  for await (const chunk of stream) {
    for (const choice of chunk.choices || []) {
      const d = choice.delta || {};
      const reasoning = d.reasoning_content ?? d.reasoning ?? detailsText(d);
      if (reasoning) emit({ type: 'reasoning', text: reasoning });
      if (d.content) emit({ type: 'text', text: d.content });
      for (const c of d.tool_calls || []) emit({ type: 'tool_call', index: c.index, id: c.id ?? null, name: c.function?.name ?? null, arguments: c.function?.arguments ?? '' });
      if (choice.finish_reason) reason = choice.finish_reason;
    }
    if (chunk.usage) emit({ type: 'usage', input_tokens: chunk.usage.prompt_tokens, output_tokens: chunk.usage.completion_tokens, total_tokens: chunk.usage.total_tokens, reasoning_tokens: chunk.usage.completion_tokens_details?.reasoning_tokens ?? null });
  }
  const final = await stream.finalChatCompletion();
  emit({ type: 'end', reason: finish(reason) });
  state.messages.push(final.choices[0].message); // the SDK's own message carries the passback
});
