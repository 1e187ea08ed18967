'use strict';
// What both MCP apps run, given the SDK in their own module format.
exports.callOneTool = async ({ Client, McpServer, InMemoryTransport }) => {
  const server = new McpServer({ name: 'start-app', version: '1.0.0' });
  server.registerTool('lookup', { description: 'Looks up' }, async () => ({
    content: [{ type: 'text', text: 'found' }],
  }));
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'start-app', version: '1.0.0' });
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  await client.callTool({ name: 'lookup', arguments: {} });
  await client.close();
};
