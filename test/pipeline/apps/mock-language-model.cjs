// The AI SDK's MockLanguageModelV3 (from `ai/test`, of the copy the caller loaded) made to call one
// tool and then answer 'done'. Plain CommonJS, so that child-process fixtures and the pipeline's
// drivers share it with the specs.
const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** A model whose first step calls `toolName` with `{}` and whose second answers with text. */
function modelCalling(MockLanguageModelV3, toolName, toolCallId = 'call-1') {
  const finish = (unified) => ({ unified, raw: undefined });
  return new MockLanguageModelV3({
    doGenerate: [
      {
        content: [{ type: 'tool-call', toolCallId, toolName, input: '{}' }],
        finishReason: finish('tool-calls'),
        usage,
        warnings: [],
      },
      { content: [{ type: 'text', text: 'done' }], finishReason: finish('stop'), usage, warnings: [] },
    ],
  });
}

module.exports = { usage, modelCalling };
