// Strands Agents: an Agent whose model is Strands' VercelModel over the AI SDK's MockLanguageModelV3,
// which calls one tool and then answers. Strands' own telemetry makes the tool spans.
const { describe } = require('../describe.cjs');

const SDK = '@strands-agents/sdk';
const { streamingModelCalling } = require('../mock-language-model.cjs');

module.exports = {
  modules: [SDK, `${SDK}/models/vercel`, 'ai/test', 'zod'],
  // Strands' own error result: a ToolResultBlock with status 'error', which a tool returns as is.
  returnedError: (modules, text, name) =>
    new modules[SDK].ToolResultBlock({
      toolUseId: `call_${name}`,
      status: 'error',
      content: [new modules[SDK].TextBlock(text)],
    }),
  async start(modules, bodies) {
    const strands = modules[SDK];
    const tools = Object.entries(bodies).map(([name, body]) => shapeTool(strands, name, body));
    const { VercelModel } = modules[`${SDK}/models/vercel`];
    const { MockLanguageModelV3 } = modules['ai/test'];
    return {
      async call(name) {
        const model = new VercelModel({
          provider: streamingModelCalling(MockLanguageModelV3, name, `call_${name}`),
        });
        const agent = new strands.Agent({ model, tools, printer: false });
        await agent.invoke('go');
        const [result] = agent.messages
          .flatMap((message) => message.content)
          .filter((block) => block.type === 'toolResultBlock');
        return `${result.status} ${describe(result.content.map((block) => block.text ?? block.json))}`;
      },
    };
  },
};

/**
 * A class tool, as Strands documents them: it answers with its own result block, an error one when
 * the body throws (keeping the error, as Strands' function tools do) or returns one.
 */
function shapeTool(strands, name, body) {
  class ShapeTool extends strands.Tool {
    name = name;
    description = `the ${name} tool`;
    toolSpec = { name, description: this.description, inputSchema: { type: 'object', properties: {} } };
    // eslint-disable-next-line require-yield -- Strands reads the result as the generator's return value
    async *stream(context) {
      const toolUseId = context.toolUse.toolUseId;
      try {
        const value = await body();
        if (value instanceof strands.ToolResultBlock) return value;
        return new strands.ToolResultBlock({
          toolUseId,
          status: 'success',
          content: [new strands.JsonBlock({ json: value })],
        });
      } catch (error) {
        const content = [new strands.TextBlock(`Error: ${error.message}`)];
        return new strands.ToolResultBlock({ toolUseId, status: 'error', content, error });
      }
    }
  }
  return new ShapeTool();
}
