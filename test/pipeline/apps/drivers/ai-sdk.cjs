// The AI SDK driver, for v6 (`ai`) and v7 (installed as `ai-v7`): generateText with the SDK's own
// MockLanguageModelV3, which calls one tool and then answers.
const { describe } = require('../describe.cjs');

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

function modelCalling(MockLanguageModelV3, toolName) {
  const finish = (unified) => ({ unified, raw: undefined });
  return new MockLanguageModelV3({
    doGenerate: [
      {
        content: [{ type: 'tool-call', toolCallId: `call_${toolName}`, toolName, input: '{}' }],
        finishReason: finish('tool-calls'),
        usage,
        warnings: [],
      },
      { content: [{ type: 'text', text: 'done' }], finishReason: finish('stop'), usage, warnings: [] },
    ],
  });
}

function aiSdkDriver(pkg) {
  return {
    modules: [pkg, `${pkg}/test`],
    // The AI SDK has no error-result type: a tool returns any value, `{ error }` by convention.
    returnedError: (_modules, text) => ({ error: text }),
    async start(modules, bodies) {
      const ai = modules[pkg];
      const { MockLanguageModelV3 } = modules[`${pkg}/test`];
      const inputSchema = ai.jsonSchema({ type: 'object', properties: {} });
      const tools = {};
      for (const [name, body] of Object.entries(bodies))
        tools[name] = ai.tool({ inputSchema, execute: body });
      const stopWhen = (ai.isStepCount ?? ai.stepCountIs)(2);
      return {
        async call(name) {
          const model = modelCalling(MockLanguageModelV3, name);
          const result = await ai.generateText({ model, tools, prompt: 'go', stopWhen });
          const part = result.steps
            .flatMap((step) => step.content)
            .find((p) => p.type === 'tool-result' || p.type === 'tool-error');
          return `${part.type} ${describe(part.type === 'tool-error' ? part.error : part.output)}`;
        },
      };
    },
  };
}

module.exports = { aiSdkDriver };
