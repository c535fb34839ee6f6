// A Node test suite using thinkwire's shared mock upstream (included in docs/shared-mock.md).
// Start the mock, then run this file with node's built-in test runner (Node >= 18, no packages):
//
//   thinkwire serve --catalog --port-file .tw-port &
//   THINKWIRE_URL=http://127.0.0.1:$(cat .tw-port) node --test tests/examples/shared_mock.test.mjs
//
// Here the tests call the mock directly, as the gateway under test would: point your gateway's
// upstream base URL at THINKWIRE_URL, send it the case's conversation, and assert on the journal.
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";

const BASE = process.env.THINKWIRE_URL ?? "http://127.0.0.1:8080";
const PLAIN = "wire-variants/reasoning-then-answer[openai-chat:reasoning_content/frames]";
const PASSBACK = "tools-passback/deepseek-reasoning-content[openai-chat:reasoning_content/frames]";

async function control(path, method = "GET") {
  const res = await fetch(`${BASE}/_thinkwire/${path}`, { method });
  assert.equal(res.status, 200, await res.clone().text());
  return res.json();
}

const journal = (id) => control(`journal?case=${encodeURIComponent(id)}`);

async function chat(c, messages, headers = {}) {
  return fetch(`${BASE}${c.path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ model: "my-model", stream: c.stream, messages }),
  });
}

let cases;
beforeEach(async () => {
  await control("reset", "POST"); // every test starts each case from its first request
  cases ??= await control("cases");
});

test("a header selects the case; the journal shows what the mock received and answered", async () => {
  const c = cases.find((x) => x.id === PLAIN);
  const res = await chat(c, [{ role: "user", content: "Say hi." }], { "x-thinkwire-case": c.id });
  assert.equal(res.status, 200);
  const sse = await res.text();
  assert.match(sse, /"reasoning_content":"\[tw-[0-9a-f]{8}\] The user greets"/);

  const { requests } = await journal(c.id);
  assert.equal(requests.length, 1);
  assert.equal(requests[0].body.model, "my-model"); // what your gateway sent upstream
  assert.equal(requests[0].answer.status, 200);
  assert.equal(requests[0].answer.stream, true);
});

test("the routing token in the conversation selects the case (no header needed)", async () => {
  const c = cases.find((x) => x.id === PLAIN);
  // c.user is the case's first user message, routing token included: forward it as it is
  const res = await chat(c, [{ role: "user", content: c.user }]);
  assert.equal(res.status, 200);
  await res.text();
  assert.equal((await journal(c.token)).requests.length, 1);
});

test("a strict validator's 400 and its differences are in the journal", async () => {
  const c = cases.find((x) => x.id === PASSBACK);
  const ask = [{ role: "user", content: c.user }];
  const first = await chat(c, ask);
  await first.text(); // turn 1: reasoning_content and a tool call
  const call = { id: "call_00_mock", type: "function", function: { name: "get_weather", arguments: "{}" } };
  // turn 2 without the reasoning_content of turn 1: DeepSeek's exact 400
  const second = await chat(c, [
    ...ask,
    { role: "assistant", content: "", tool_calls: [call] },
    { role: "tool", tool_call_id: "call_00_mock", content: "18°C, clear" },
  ]);
  assert.equal(second.status, 400);

  const { requests } = await journal(c.id);
  const rejected = requests[1].answer.rejected;
  assert.equal(rejected.status, 400);
  assert.equal(rejected.differences[0].field, "messages[1].reasoning_content");
  assert.equal(rejected.differences[0].actual, null);
  assert.match(rejected.differences[0].expected, /I need the weather tool\./);
});

test("reset forgets a case's requests", async () => {
  const c = cases.find((x) => x.id === PLAIN);
  await (await chat(c, [{ role: "user", content: c.user }])).text();
  assert.equal((await journal(c.id)).requests.length, 1);
  await control(`reset?case=${encodeURIComponent(c.id)}`, "POST");
  assert.equal((await journal(c.id)).requests.length, 0);
});
