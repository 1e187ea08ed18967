// A Mastra Agent with Mastra's own MastraLanguageModelV2Mock, which calls one tool and then answers;
// what the model got back is read from the prompt of its second step.
const { describe } = require('../describe.cjs');

const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };

function modelCalling(MockModel, toolName, seen) {
  let step = 0;
  return new MockModel({
    doGenerate: async (options) => {
      if (step++ === 0) {
        const call = { type: 'tool-call', toolCallId: `call_${toolName}`, toolName, input: '{}' };
        return { warnings: [], usage, finishReason: 'tool-calls', content: [call] };
      }
      for (const message of options.prompt) if (message.role === 'tool') seen.push(...message.content);
      return { warnings: [], usage, finishReason: 'stop', content: [{ type: 'text', text: 'done' }] };
    },
  });
}

module.exports = {
  modules: ['@mastra/core/tools', '@mastra/core/agent', '@mastra/core/test-utils/llm-mock', 'zod'],
  // Mastra's own shape for a failed call, as its input validation returns it.
  returnedError: (_modules, text) => ({ error: true, message: text }),
  async start(modules, bodies) {
    const { createTool } = modules['@mastra/core/tools'];
    const inputSchema = modules.zod.z.object({});
    const tools = {};
    for (const [name, body] of Object.entries(bodies)) {
      tools[name] = createTool({ id: name, description: `the ${name} tool`, inputSchema, execute: body });
    }
    const { MastraLanguageModelV2Mock } = modules['@mastra/core/test-utils/llm-mock'];
    return {
      async call(name) {
        const seen = [];
        const model = modelCalling(MastraLanguageModelV2Mock, name, seen);
        const { Agent } = modules['@mastra/core/agent'];
        const agent = new Agent({ id: 'pipeline', name: 'pipeline', instructions: 'go', model, tools });
        await agent.generate('go');
        return describe(seen[0]?.output);
      },
    };
  },
};
