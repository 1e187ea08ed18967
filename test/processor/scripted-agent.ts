import type { Tracer } from '@opentelemetry/api';
import { generateText, stepCountIs, tool, type ToolSet } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** An AI SDK tool that takes no input; `make` is the `tool` of another AI SDK line (v7). */
export function noInputTool<R = ReturnType<typeof tool>>(
  execute: () => Promise<unknown>,
  make = tool as unknown as (definition: never) => R,
): R {
  return make({ inputSchema: z.object({}), execute } as never);
}

/** An AI SDK tool that takes no input and throws `error`. */
export function throwingTool<R = ReturnType<typeof tool>>(error: Error, make?: (definition: never) => R): R {
  return noInputTool(() => Promise.reject(error), make);
}

/** The AI SDK's mock model, calling each named tool once (in parallel, in one step), then answering. */
export function modelCallingEach(calls: Record<string, unknown>): MockLanguageModelV3 {
  let step = 0;
  return new MockLanguageModelV3({
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
}

/**
 * Runs a real AI SDK v6 `generateText` whose mock model calls each named tool once (with `{}`
 * unless `calls` says otherwise), then answers. The SDK records its own `ai.toolCall` spans on
 * `tracer`.
 */
export async function runToolsWithAiSdk(
  tracer: Tracer,
  tools: ToolSet,
  calls: Record<string, unknown> = Object.fromEntries(Object.keys(tools).map((name) => [name, {}])),
) {
  return generateText({
    model: modelCallingEach(calls),
    prompt: 'use the tools',
    tools,
    stopWhen: stepCountIs(3),
    experimental_telemetry: { isEnabled: true, tracer },
  });
}
