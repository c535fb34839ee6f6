// A Node adapter whose "SDK" raises on an upstream error, in one of three shapes real SDKs use (argv):
// `word` (@google/genai-like: a word status and a numeric code), `nested` (the status on a fetch
// Response), `cause` (a framework's error whose cause is the SDK's). It calls the upstream once per
// turn and streams nothing else.
'use strict';
const path = require('node:path');
const { serve } = require(path.join(__dirname, '..', '..', 'adapters', 'node', 'protocol.cjs'));

const shape = process.argv[2] || 'word';

async function failWith(res) {
  const body = await res.json().catch(() => ({}));
  const message = (body.error && body.error.message) || `HTTP ${res.status}`;
  if (shape === 'word') {
    return Object.assign(new Error(message), { name: 'ApiError', status: 'RESOURCE_EXHAUSTED', code: res.status });
  }
  if (shape === 'nested') {
    return Object.assign(new Error(message), { name: 'FetchError', response: { status: res.status } });
  }
  const sdk = Object.assign(new Error(message), { name: 'RateLimitError', statusCode: res.status,
                                                   code: 'rate_limit_exceeded' });
  return new Error('agent run failed', { cause: sdk });
}

serve(`node-raiser-${shape}`, async (req, state, emit, signal) => {
  const res = await fetch(`${req.base_url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: req.model, messages: [{ role: 'user', content: 'Hi' }], stream: true }),
    signal,
  });
  if (res.status >= 400) throw await failWith(res);
  for await (const _ of res.body) { /* drained */ }
  emit({ type: 'end', reason: 'stop' });
});
