import { generateText, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import axios from 'axios';
import { z } from 'zod';

// The tools an agent route calls: a rate-limited API, a failing one, one that never answers, one
// that throws a plain Error after its fetch got a 503, one that works.
const api = process.env.FLAKY_URL;
const noInput = z.object({});
const get = async (path: string, timeout?: number) =>
  (await axios.get(`${api}${path}`, { timeout })).data as unknown;
const tools = {
  quotes: tool({ inputSchema: noInput, execute: () => get('/429?retryAfter=2') }),
  orders: tool({ inputSchema: noInput, execute: () => get('/500') }),
  search: tool({ inputSchema: noInput, execute: () => get('/hang', 200) }),
  weather: tool({
    inputSchema: noInput,
    execute: async () => {
      const response = await fetch(`${api}/503`);
      if (!response.ok) throw new Error('weather service failed');
      return response.json() as Promise<unknown>;
    },
  }),
  clock: tool({ inputSchema: noInput, execute: async () => '12:00' }),
};

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** A scripted model: calls every tool once, then answers. */
function scriptedModel() {
  let step = 0;
  return new MockLanguageModelV3({
    doGenerate: async () =>
      ++step === 1
        ? {
            content: Object.keys(tools).map((toolName, i) => ({
              type: 'tool-call' as const,
              toolCallId: `call-${i}`,
              toolName,
              input: '{}',
            })),
            finishReason: { unified: 'tool-calls' as const, raw: undefined },
            usage,
            warnings: [],
          }
        : {
            content: [{ type: 'text' as const, text: 'done' }],
            finishReason: { unified: 'stop' as const, raw: undefined },
            usage,
            warnings: [],
          },
  });
}

export async function GET() {
  const result = await generateText({
    model: scriptedModel(),
    prompt: 'check everything',
    tools,
    stopWhen: stepCountIs(3),
    experimental_telemetry: { isEnabled: true },
  });
  const outcomes = result.steps[0]!.content.flatMap((part) =>
    part.type === 'tool-result' || part.type === 'tool-error' ? [`${part.toolName}: ${part.type}`] : [],
  );
  return Response.json({ text: result.text, outcomes: outcomes.sort() });
}
