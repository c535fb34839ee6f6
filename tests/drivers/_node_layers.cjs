// A Node adapter over a framework over an SDK whose decoder throws (both in the node_modules the test
// makes, found through NODE_PATH): argv `direct` lets the SDK's error through the framework, `wrapped`
// has the framework throw its own error with the SDK's as its cause.
'use strict';
const path = require('node:path');
const { serve } = require(path.join(__dirname, '..', '..', 'adapters', 'node', 'protocol.cjs'));
const framework = require('@fake/framework');

const mode = process.argv[2] || 'direct';

serve(`node-layers-${mode}`, async (req, state, emit, signal) => {
  const res = await fetch(`${req.base_url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: req.model, messages: [{ role: 'user', content: 'Hi' }], stream: false }),
    signal,
  });
  await res.text();
  emit({ type: 'reasoning', text: 'thinking' });
  framework.parse('data: {broken', mode === 'wrapped');
});
