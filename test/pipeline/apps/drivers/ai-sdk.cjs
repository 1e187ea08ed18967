// The AI SDK driver, for v6 (`ai`) and v7 (installed as `ai-v7`): generateText with the SDK's own
// MockLanguageModelV3, which calls one tool and then answers.
const { describe } = require('../describe.cjs');
const { modelCalling } = require('../mock-language-model.cjs');

/** Has generateText call the tool `name` once; what the model got back for it, described. */
async function callOnce(ai, MockLanguageModelV3, tools, name) {
  const model = modelCalling(MockLanguageModelV3, name, `call_${name}`);
  const stopWhen = (ai.isStepCount ?? ai.stepCountIs)(2);
  const result = await ai.generateText({ model, tools, prompt: 'go', stopWhen });
  const part = result.steps
    .flatMap((step) => step.content)
    .find((p) => p.type === 'tool-result' || p.type === 'tool-error');
  return `${part.type} ${describe(part.type === 'tool-error' ? part.error : part.output)}`;
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
      return {
        call: (name) => callOnce(ai, MockLanguageModelV3, tools, name),
      };
    },
  };
}

module.exports = { aiSdkDriver, callOnce };
