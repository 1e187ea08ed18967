import type { Tracer } from '@opentelemetry/api';
import { generateText, stepCountIs, type ToolSet } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/**
 * Runs a real AI SDK v6 `generateText` whose mock model calls each named tool once (in parallel,
 * in one step), then answers. The SDK records its own `ai.toolCall` spans on `tracer`.
 */
export async function runToolsWithAiSdk(tracer: Tracer, tools: ToolSet, calls: Record<string, unknown>) {
  let step = 0;
  const model = new MockLanguageModelV3({
    doGenerate: async () => {
      step++;
      if (step === 1) {
        return {
          content: Object.entries(calls).map(([toolName, input], i) => ({
            type: 'tool-call' as const,
            toolCallId: `call-${i}`,
            toolName,
            input: JSON.stringify(input),
          })),
          finishReason: { unified: 'tool-calls' as const, raw: undefined },
          usage,
          warnings: [],
        };
      }
      return {
        content: [{ type: 'text' as const, text: 'done' }],
        finishReason: { unified: 'stop' as const, raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
  return generateText({
    model,
    prompt: 'use the tools',
    tools,
    stopWhen: stepCountIs(3),
    experimental_telemetry: { isEnabled: true, tracer },
  });
}
