// The AI SDK's MockLanguageModelV3 (from `ai/test`, of the copy the caller loaded) made to call one
// tool and then answer 'done'. Plain CommonJS, so that child-process fixtures and the pipeline's
// drivers share it with the specs.
const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/**
 * A model whose first step calls each of `calls` (`{ toolName, input, toolCallId? }`, ids `c0`,
 * `c1`, … by default) and whose second answers with text.
 */
function modelCallingEach(MockLanguageModelV3, calls) {
  const finish = (unified) => ({ unified, raw: undefined });
  return new MockLanguageModelV3({
    doGenerate: [
      {
        content: calls.map((call, i) => ({
          type: 'tool-call',
          toolCallId: call.toolCallId ?? `c${i}`,
          toolName: call.toolName,
          input: JSON.stringify(call.input),
        })),
        finishReason: finish('tool-calls'),
        usage,
        warnings: [],
      },
      { content: [{ type: 'text', text: 'done' }], finishReason: finish('stop'), usage, warnings: [] },
    ],
  });
}

/** A model whose first step calls `toolName` with `{}` and whose second answers with text. */
function modelCalling(MockLanguageModelV3, toolName, toolCallId = 'call-1') {
  return modelCallingEach(MockLanguageModelV3, [{ toolName, toolCallId, input: {} }]);
}

/**
 * The same as a streaming model (Strands' VercelModel streams): the first step streams a call of
 * `toolName` with `{}`, the second the text 'done'. `onPrompt` sees each later step's prompt.
 */
function streamingModelCalling(MockLanguageModelV3, toolName, toolCallId = 'call-1', onPrompt = () => {}) {
  let step = 0;
  const finish = (unified) => ({ unified, raw: undefined });
  return new MockLanguageModelV3({
    doStream: async (options) => {
      const first = step++ === 0;
      if (!first) onPrompt(options.prompt);
      const parts = first
        ? [
            { type: 'tool-call', toolCallId, toolName, input: '{}' },
            { type: 'finish', finishReason: finish('tool-calls'), usage },
          ]
        : [
            { type: 'text-start', id: 't' },
            { type: 'text-delta', id: 't', delta: 'done' },
            { type: 'text-end', id: 't' },
            { type: 'finish', finishReason: finish('stop'), usage },
          ];
      const stream = new ReadableStream({
        start(controller) {
          for (const part of [{ type: 'stream-start', warnings: [] }, ...parts]) controller.enqueue(part);
          controller.close();
        },
      });
      return { stream };
    },
  });
}

module.exports = { usage, modelCalling, modelCallingEach, streamingModelCalling };
