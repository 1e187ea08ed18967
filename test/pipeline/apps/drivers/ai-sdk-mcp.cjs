// The AI SDK's MCP client (`@ai-sdk/mcp`, with ai 7 installed as `ai-v7`): generateText with the
// SDK's MockLanguageModelV3 runs the tools of `client.tools()`, served by an MCP SDK McpServer over
// Streamable HTTP on 127.0.0.1 in the same process; what the model got back is the tool result.
const { describe } = require('../describe.cjs');
const { callOnce } = require('./ai-sdk.cjs');
const { serveMcpOverHttp } = require('../mcp-streamable-http.cjs');

const SDK = '@modelcontextprotocol/sdk';

/** An MCP server over Streamable HTTP, one McpServer and transport per session. */
async function startMcpServer(modules, bodies) {
  const { McpServer } = modules[`${SDK}/server/mcp.js`];
  const { StreamableHTTPServerTransport } = modules[`${SDK}/server/streamableHttp.js`];
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
  return serveMcpOverHttp(StreamableHTTPServerTransport, newServer);
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
      call: (name) => callOnce(ai, MockLanguageModelV3, tools, name),
      async close() {
        await client.close();
        await server.close();
      },
    };
  },
};
