import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

/**
 * A directory MCP server and a client connected to it in memory. Its `mcp_lookup` tool reports
 * "not found" the MCP way: it returns `isError: true` instead of throwing, so without
 * instrumentation the call looks like a success.
 */
export async function connectDirectoryServer() {
  const server = new McpServer({ name: 'directory', version: '1.0.0' });
  server.registerTool(
    'mcp_lookup',
    { description: 'Look a person up in the company directory.', inputSchema: { name: z.string() } },
    async ({ name }) => ({
      isError: true,
      content: [{ type: 'text', text: `No directory entry for ${name}` }],
    }),
  );
  const client = new Client({ name: 'demo-agent', version: '1.0.0' });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  return {
    client,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}
