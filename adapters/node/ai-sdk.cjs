// The Vercel AI SDK (`ai` streamText) as a SUT, with the provider package the case's upstream plays:
// @ai-sdk/deepseek, @ai-sdk/anthropic, @ai-sdk/openai (Responses, and Chat for OpenAI's own wire),
// @ai-sdk/google, @ai-sdk/openai-compatible for the rest (Kimi, vLLM, OpenRouter, Mistral...; wrapped in
// extractReasoningMiddleware where the server inlines <think> tags, as the SDK's docs show). The SDK's own
// response messages (result.response.messages) carry the history, as its docs show.
'use strict';
const { streamText, generateText, jsonSchema, tool, wrapLanguageModel, extractReasoningMiddleware } = require('ai');
const { createDeepSeek } = require('@ai-sdk/deepseek');
const { createAnthropic } = require('@ai-sdk/anthropic');
const { createOpenAI } = require('@ai-sdk/openai');
const { createGoogleGenerativeAI } = require('@ai-sdk/google');
const { createOpenAICompatible } = require('@ai-sdk/openai-compatible');
const { serve, fresh, text, finish } = require('./protocol.cjs');

function model(req) {
  const apiKey = 'sk-thinkwire';
  const v1 = req.base_url + '/v1';
  if (req.dialect === 'anthropic-messages') return createAnthropic({ baseURL: v1, apiKey })(req.model);
  if (req.dialect === 'gemini') return createGoogleGenerativeAI({ baseURL: req.base_url + '/v1beta', apiKey })(req.model);
  if (req.dialect === 'openai-responses') return createOpenAI({ baseURL: v1, apiKey }).responses(req.model);
  if (req.provider === 'deepseek') return createDeepSeek({ baseURL: v1, apiKey })(req.model);
  if (req.provider === 'openai') return createOpenAI({ baseURL: v1, apiKey }).chat(req.model);
  const compatible = createOpenAICompatible({ name: req.provider, baseURL: v1, apiKey })(req.model);
  // A server without a reasoning parser inlines <think>...</think> in content (a user knows their server
  // does): the SDK's documented reader is extractReasoningMiddleware, whose tag parser is then tested.
  const tags = { 'think-tags': false, 'think-split': false, 'think-implicit': true }[req.variant];
  if (tags === undefined) return compatible;
  const middleware = extractReasoningMiddleware({ tagName: 'think', startWithReasoning: tags });
  return wrapLanguageModel({ model: compatible, middleware });
}

function providerOptions(req) {
  // adaptive (display summarized, an effort) for the adaptive variant: its adaptive-only models refuse a budget
  if (req.dialect === 'anthropic-messages' && req.variant === 'adaptive') {
    return { anthropic: { thinking: { type: 'adaptive', display: 'summarized' }, effort: 'medium' } };
  }
  // display omitted for the omitted variant: it plays those adaptive-only models too (type enabled is a 400)
  if (req.dialect === 'anthropic-messages' && req.variant === 'omitted') {
    return { anthropic: { thinking: { type: 'adaptive', display: 'omitted' } } };
  }
  if (req.dialect === 'anthropic-messages') return { anthropic: { thinking: { type: 'enabled', budgetTokens: 2048 } } };
  // store: false, as the upstream plays it (its responses say "store": false): the SDK then sends reasoning
  // items back with their encrypted_content (and asks for it with include), not as item_reference
  if (req.dialect === 'openai-responses') return { openai: { reasoningSummary: 'auto', reasoningEffort: 'medium', store: false } };
  if (req.dialect === 'gemini') return { google: { thinkingConfig: { includeThoughts: true } } };
  // an OpenAI-compatible provider: the body fields its users add to ask for the case's form (thinkwire's
  // request body: MiniMax's reasoning_split, Gemini's include_thoughts), as the provider's options, which
  // @ai-sdk/openai-compatible spreads into the request body (dist/index.js: providerOptions[name])
  if (compatible(req) && req.body && Object.keys(req.body).length) return { [req.provider]: req.body };
  return undefined;
}

function compatible(req) {
  // the cases model() gives to createOpenAICompatible
  return req.dialect === 'openai-chat' && req.provider !== 'deepseek' && req.provider !== 'openai';
}

function tools(req) {
  const out = {};
  for (const t of req.tools) {
    const fn = t.function || t;
    out[fn.name] = tool({ description: fn.description, inputSchema: jsonSchema(fn.parameters || fn.input_schema) });
  }
  return out;
}

function signatures(meta, emit) {
  const a = meta && meta.anthropic;
  if (a && a.redactedData) emit({ type: 'redacted', data: a.redactedData });
  if (a && a.signature) emit({ type: 'signature', value: a.signature });
  const g = meta && meta.google;
  if (g && g.thoughtSignature) emit({ type: 'signature', value: g.thoughtSignature });
  const o = meta && meta.openai;
  if (o && o.reasoningEncryptedContent) emit({ type: 'signature', value: o.reasoningEncryptedContent, item: o.itemId || '' });
}

serve('ai-sdk', async (req, state, emit, signal) => {
  state.messages = state.messages || [];
  for (const m of fresh(req, state)) {
    if (m.role === 'user') state.messages.push({ role: 'user', content: text(m) });
    const results = m.content.filter((b) => b.type === 'tool_result').map((b) => ({
      type: 'tool-result', toolCallId: b.call_id, toolName: b.name || 'get_weather', output: { type: 'text', value: b.content },
    }));
    if (results.length) state.messages.push({ role: 'tool', content: results });
  }
  const args = { model: model(req), messages: state.messages, tools: tools(req), maxRetries: 0,
                 providerOptions: providerOptions(req), abortSignal: signal };
  const usage = (u) => ({ type: 'usage', input_tokens: u?.inputTokens ?? null, output_tokens: u?.outputTokens ?? null,
                          reasoning_tokens: u?.reasoningTokens ?? null, total_tokens: u?.totalTokens ?? null });
  if (!req.stream) {
    const r = await generateText(args);
    let calls = 0;
    for (const part of r.content) {
      if (part.type === 'reasoning') { if (part.text) emit({ type: 'reasoning', text: part.text }); signatures(part.providerMetadata, emit); }
      else if (part.type === 'text') emit({ type: 'text', text: part.text });
      else if (part.type === 'tool-call') emit({ type: 'tool_call', index: calls++, id: part.toolCallId, name: part.toolName, arguments: JSON.stringify(part.input) });
    }
    emit(usage(r.usage));
    emit({ type: 'end', reason: finish(r.finishReason) });
    state.messages.push(...r.response.messages);
    return;
  }
  const result = streamText({ ...args, onError: () => {} });
  const index = new Map();
  let reason = 'stop';
  for await (const part of result.fullStream) {
    if (part.type === 'reasoning-delta') { if (part.text) emit({ type: 'reasoning', text: part.text }); }
    else if (part.type === 'reasoning-end') signatures(part.providerMetadata, emit);
    else if (part.type === 'text-delta') { if (part.text) emit({ type: 'text', text: part.text }); }
    else if (part.type === 'tool-input-start') { index.set(part.id, index.size); emit({ type: 'tool_call', index: index.get(part.id), id: part.id, name: part.toolName, arguments: '' }); }
    else if (part.type === 'tool-input-delta') emit({ type: 'tool_call', index: index.get(part.id), arguments: part.delta });
    else if (part.type === 'finish') { reason = part.finishReason; emit(usage(part.totalUsage)); }
    else if (part.type === 'error') throw part.error;
  }
  emit({ type: 'end', reason: finish(reason) });
  state.messages.push(...(await result.response).messages); // the SDK's own messages carry passback
});
