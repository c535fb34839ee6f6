// thinkwire's JSON-lines adapter protocol, version 1 (docs/adapter-protocol.md), for Node adapters.
// serve(name, runTurn): says hello, reads request lines from stdin, runs each turn with an
// AbortController (cancel aborts it), keeps one state object per conversation, writes event lines.
// runTurn(msg, state, emit, signal, runTool): runTool({id, name, arguments}) resolves to the scripted
// result of a tool the framework runs itself, mid-turn (a tool_call line, answered by tool_result).
'use strict';
const readline = require('node:readline');

// stdout carries protocol lines only: a library's console output (the AI SDK's warnings) goes to stderr.
globalThis.AI_SDK_LOG_WARNINGS = false;
for (const name of ['log', 'info', 'warn', 'debug']) {
  console[name] = (...args) => process.stderr.write(args.map(String).join(' ') + '\n');
}

function say(obj) {
  process.stdout.write(JSON.stringify(obj) + '\n');
}

// A scalar as the protocol carries it (a number or a string), else null.
const scalar = (v) => (typeof v === 'number' || typeof v === 'string' ? v : null);

// What an SDK's error says, whatever its shape: thinkwire reads an HTTP status from `status` (a number
// or a numeric string; a word such as "RESOURCE_EXHAUSTED" becomes the code) and the code from `code`.
function errorFields(err) {
  const e = err || {};
  const c = e.cause || {};
  const status = [e.status, e.statusCode, e.response && e.response.status, c.status, c.statusCode]
    .map(scalar).find((v) => v !== null);
  const code = [e.code, e.error && e.error.code, e.error && e.error.type, c.code].map(scalar).find((v) => v !== null);
  return {
    type: e.name || 'Error',
    message: String(e.message || err),
    status: status ?? null,
    code: code ?? null,
    traceback: stackWithCauses(e),
  };
}

// The error's V8 stack, then each cause's after "Caused by:" (thinkwire names the innermost package
// in them, with its version from node_modules/<pkg>/package.json).
function stackWithCauses(e) {
  const parts = [String(e.stack || e)];
  for (let c = e.cause, n = 0; c && n < 8; c = c.cause, n += 1) parts.push(`Caused by: ${c.stack || c}`);
  return parts.join('\n');
}

function serve(name, runTurn) {
  const states = new Map();
  const aborts = new Map();
  const tools = new Map(); // `${turn id}\n${call id}` -> resolve, for tool calls awaiting their result
  say({ type: 'hello', protocol: 1, name });
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  rl.on('line', (line) => {
    if (!line.trim()) return;
    const msg = JSON.parse(line);
    if (msg.type === 'turn') {
      const id = msg.id;
      const ctl = new AbortController();
      aborts.set(id, ctl);
      if (!states.has(msg.conversation)) states.set(msg.conversation, { seen: 0 });
      const state = states.get(msg.conversation);
      const emit = (event) => { if (!ctl.signal.aborted) say({ id, event }); };
      const runTool = (call) => new Promise((resolve, reject) => {
        if (ctl.signal.aborted) { reject(new Error('the turn was cancelled')); return; }
        tools.set(`${id}\n${call.id}`, resolve);
        ctl.signal.addEventListener('abort', () => reject(new Error('the turn was cancelled')), { once: true });
        say({ id, tool_call: { id: call.id, name: call.name, arguments: call.arguments } });
      });
      runTurn(msg, state, emit, ctl.signal, runTool)
        .catch((err) => {
          if (ctl.signal.aborted) return;
          say({ id, error: errorFields(err) });
        })
        .finally(() => { aborts.delete(id); say({ id, done: true }); });
    } else if (msg.type === 'tool_result') {
      const resolve = tools.get(`${msg.id}\n${msg.call_id}`);
      tools.delete(`${msg.id}\n${msg.call_id}`);
      if (resolve) resolve(msg.content);
    } else if (msg.type === 'cancel') {
      const ctl = aborts.get(msg.id);
      if (ctl) ctl.abort();
      else say({ id: msg.id, done: true });
    } else if (msg.type === 'end') {
      states.delete(msg.conversation);
    }
  });
  rl.on('close', () => process.exit(0));
}

// The messages thinkwire added since this adapter's last turn (the user's message, tool results).
function fresh(req, state) {
  const out = req.messages.slice(state.seen);
  state.seen = req.messages.length;
  return out;
}

const text = (m) => m.content.filter((b) => b.type === 'text').map((b) => b.text).join('');
const finish = (r) => ({ 'tool-calls': 'tool_calls', tool_use: 'tool_calls', end_turn: 'stop', 'content-filter': 'content_filter' }[r] || r || 'stop');

module.exports = { serve, fresh, text, finish, errorFields };
