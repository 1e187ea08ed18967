import type * as AiTest from 'ai/test';

/** The token usage every scripted step reports. */
export const MOCK_USAGE = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/**
 * The AI SDK's own mock model (`ai/test`, loaded by the spec after its instrumentation), scripted
 * to call `toolName` once with `input` (call id `call-1`), then to answer.
 */
export function modelCalling(
  MockLanguageModelV3: typeof AiTest.MockLanguageModelV3,
  toolName: string,
  input: unknown,
): AiTest.MockLanguageModelV3 {
  let step = 0;
  const content = () =>
    step++ === 0
      ? {
          content: [
            { type: 'tool-call' as const, toolCallId: 'call-1', toolName, input: JSON.stringify(input) },
          ],
          finishReason: { unified: 'tool-calls' as const, raw: undefined },
        }
      : {
          content: [{ type: 'text' as const, text: 'done' }],
          finishReason: { unified: 'stop' as const, raw: undefined },
        };
  return new MockLanguageModelV3({
    doGenerate: async () => ({ ...content(), usage: MOCK_USAGE, warnings: [] }),
  });
}
