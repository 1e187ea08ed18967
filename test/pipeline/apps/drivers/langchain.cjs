// LangChain tools run by LangGraph's ToolNode, given an AIMessage that calls one tool.
const { describe } = require('../describe.cjs');

const MESSAGES = '@langchain/core/messages';

module.exports = {
  modules: ['@langchain/core/tools', MESSAGES, '@langchain/langgraph/prebuilt', 'zod'],
  returnedError: (modules, text, name) =>
    new modules[MESSAGES].ToolMessage({ content: text, status: 'error', tool_call_id: `call_${name}` }),
  async start(modules, bodies) {
    const { tool } = modules['@langchain/core/tools'];
    const { z } = modules.zod;
    const tools = Object.entries(bodies).map(([name, body]) =>
      tool(body, { name, description: `the ${name} tool`, schema: z.object({}) }),
    );
    const node = new modules['@langchain/langgraph/prebuilt'].ToolNode(tools);
    return {
      async call(name) {
        const request = new modules[MESSAGES].AIMessage({
          content: '',
          tool_calls: [{ id: `call_${name}`, name, args: {}, type: 'tool_call' }],
        });
        const { messages } = await node.invoke({ messages: [request] });
        return `${messages[0].status} ${describe(messages[0].content)}`;
      },
    };
  },
};
