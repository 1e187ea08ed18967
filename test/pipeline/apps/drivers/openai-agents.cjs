// OpenAI Agents: a Runner with the package's ScriptedModel, which calls one tool and then answers.
const { describe } = require('../describe.cjs');

const CORE = '@openai/agents-core';

module.exports = {
  modules: [CORE, `${CORE}/testing`, 'zod'],
  // Agents has no error-result type: a function tool returns any value, `{ error }` by convention.
  returnedError: (_modules, text) => ({ error: text }),
  async start(modules, bodies) {
    const agents = modules[CORE];
    const testing = modules[`${CORE}/testing`];
    agents.setTracingDisabled(true);
    const parameters = modules.zod.z.object({});
    const tools = {};
    for (const [name, body] of Object.entries(bodies)) {
      tools[name] = agents.tool({ name, description: `the ${name} tool`, parameters, execute: body });
    }
    return {
      async call(name) {
        const model = new testing.ScriptedModel([
          [testing.functionCall(name, {}, { callId: `call_${name}` })],
          [testing.assistantMessage('done')],
        ]);
        const agent = new agents.Agent({ name: 'pipeline', instructions: 'go', model, tools: [tools[name]] });
        const result = await new agents.Runner({ tracingDisabled: true }).run(agent, 'go');
        const output = result.newItems.find((item) => item.type === 'tool_call_output_item');
        return describe(output.output);
      },
    };
  },
};
