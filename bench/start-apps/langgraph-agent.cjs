'use strict';
// The agent both LangGraph apps run, given the framework in their own module format.
exports.runAgent = ({ createReactAgent, BaseChatModel, AIMessage, tool, z }) => {
  class ScriptedChatModel extends BaseChatModel {
    _llmType() {
      return 'scripted';
    }
    bindTools() {
      return this;
    }
    async _generate(messages) {
      const answered = messages.some((message) => message.getType() === 'tool');
      const message = answered
        ? new AIMessage({ content: 'done' })
        : new AIMessage({
            content: '',
            tool_calls: [{ id: 'c1', name: 'lookup', args: {}, type: 'tool_call' }],
          });
      return { generations: [{ text: '', message }] };
    }
  }
  const lookup = tool(async () => 'found', { name: 'lookup', description: 'Looks up', schema: z.object({}) });
  const agent = createReactAgent({ llm: new ScriptedChatModel({}), tools: [lookup] });
  return agent.invoke({ messages: [{ role: 'user', content: 'look up' }] });
};
