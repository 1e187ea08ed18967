// An MCP client and server in one process over the SDK's InMemoryTransport: the client calls, the
// server's handler runs the tool, and the client gets a CallToolResult.
const { describe } = require('../describe.cjs');

const SDK = '@modelcontextprotocol/sdk';

module.exports = {
  modules: [`${SDK}/client/index.js`, `${SDK}/server/mcp.js`, `${SDK}/inMemory.js`],
  returnedError: (_modules, text) => ({ isError: true, content: [{ type: 'text', text }] }),
  async start(modules, bodies) {
    const server = new modules[`${SDK}/server/mcp.js`].McpServer({ name: 'pipeline', version: '1.0.0' });
    for (const [name, body] of Object.entries(bodies)) {
      server.registerTool(name, { description: `the ${name} tool` }, async () => {
        const value = await body();
        return value?.isError ? value : { content: [{ type: 'text', text: describe(value) }] };
      });
    }
    const client = new modules[`${SDK}/client/index.js`].Client({ name: 'pipeline', version: '1.0.0' });
    const [clientSide, serverSide] = modules[`${SDK}/inMemory.js`].InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    return {
      call: async (name) => describe(await client.callTool({ name, arguments: {} })),
      close: async () => {
        await client.close();
        await server.close();
      },
    };
  },
};
