import { MockLanguageModelV3 } from 'ai/test';

/** What the scripted model asks for in its first step, in order. */
export const TOOL_CALLS = [
  { toolName: 'get_time', input: { timeZone: 'Europe/Paris' } },
  { toolName: 'convert_currency', input: { amount: 100, from: 'EUR', to: 'USD' } },
  { toolName: 'get_weather', input: { city: 'Paris' } },
  { toolName: 'get_stock_quote', input: { ticker: 'ACME' } },
  { toolName: 'lookup_user', input: { userId: 'u-404' } },
  { toolName: 'read_inbox', input: { folder: 'inbox' } },
  { toolName: 'search_web', input: { query: 'opentelemetry tool errors' } },
  { toolName: 'translate_text', input: { text: 'bonjour', to: 'en' } },
  { toolName: 'fetch_news', input: { topic: 'observability' } },
  { toolName: 'query_inventory', input: { sku: 'SKU-1' } },
  // Bad arguments: airport codes have three letters and the date is not a date.
  { toolName: 'book_flight', input: { from: 'Paris', to: 'NYC', date: 'next friday' } },
  // A tool the agent does not have.
  { toolName: 'send_fax', input: { to: '+33 1 23 45 67 89' } },
  { toolName: 'mcp_lookup', input: { name: 'Ada' } },
];

const usage = {
  inputTokens: { total: 100, noCache: 100, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 20, text: 20, reasoning: 0 },
};

/**
 * A language model that needs no API key: it calls every tool at once, then answers. The AI SDK
 * runs the calls exactly as it would for a real model's answer.
 */
export function createScriptedModel() {
  return new MockLanguageModelV3({
    provider: 'demo',
    modelId: 'scripted-agent',
    doGenerate: [
      {
        content: TOOL_CALLS.map(({ toolName, input }, i) => ({
          type: 'tool-call',
          toolCallId: `call_${i + 1}`,
          toolName,
          input: JSON.stringify(input),
        })),
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        warnings: [],
      },
      {
        content: [{ type: 'text', text: 'Most of my tools failed; see the table for why.' }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage,
        warnings: [],
      },
    ],
  });
}
