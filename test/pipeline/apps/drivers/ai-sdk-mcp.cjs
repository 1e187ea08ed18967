// The AI SDK's MCP client (`@ai-sdk/mcp`, with ai 7 installed as `ai-v7`): generateText with the
// SDK's MockLanguageModelV3 runs the tools of `client.tools()`, served by an MCP SDK McpServer over
// Streamable HTTP on 127.0.0.1 in the same process; what the model got back is the tool result.
const { createServer } = require('node:http');
const { randomUUID } = require('node:crypto');
const { describe } = require('../describe.cjs');

const SDK = '@modelcontextprotocol/sdk';
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

/** An MCP server over Streamable HTTP, one McpServer and transport per session. */
async function startMcpServer(modules, bodies) {
  const { McpServer } = modules[`${SDK}/server/mcp.js`];
  const { StreamableHTTPServerTransport } = modules[`${SDK}/server/streamableHttp.js`];
  const sessions = new Map();
  const newServer = () => {
    const server = new McpServer({ name: 'pipeline', version: '1.0.0' });
    for (const [name, body] of Object.entries(bodies)) {
      server.registerTool(name, { description: `the ${name} tool` }, async () => {
        const value = await body();
        return value?.isError ? value : { content: [{ type: 'text', text: describe(value) }] };
      });
    }
    return server;
  };
  const http = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
    let transport = sessions.get(req.headers['mcp-session-id']);
    if (!transport) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (id) => sessions.set(id, transport),
      });
      await newServer().connect(transport);
    }
    await transport.handleRequest(req, res, body);
  });
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${http.address().port}/mcp`,
    async close() {
      for (const transport of sessions.values()) await transport.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

module.exports = {
  modules: ['ai-v7', 'ai-v7/test', '@ai-sdk/mcp', `${SDK}/server/mcp.js`, `${SDK}/server/streamableHttp.js`],
  returnedError: (_modules, text) => ({ isError: true, content: [{ type: 'text', text }] }),
  async start(modules, bodies) {
    const ai = modules['ai-v7'];
    const { MockLanguageModelV3 } = modules['ai-v7/test'];
    const server = await startMcpServer(modules, bodies);
    const client = await modules['@ai-sdk/mcp'].createMCPClient({
      transport: { type: 'http', url: server.url },
    });
    const tools = await client.tools();
    return {
      async call(name) {
        const model = modelCalling(MockLanguageModelV3, name);
        const result = await ai.generateText({ model, tools, prompt: 'go', stopWhen: ai.isStepCount(2) });
        const part = result.steps
          .flatMap((step) => step.content)
          .find((p) => p.type === 'tool-result' || p.type === 'tool-error');
        return `${part.type} ${describe(part.type === 'tool-error' ? part.error : part.output)}`;
      },
      async close() {
        await client.close();
        await server.close();
      },
    };
  },
};
