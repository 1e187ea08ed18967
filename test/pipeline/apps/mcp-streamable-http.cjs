// An MCP server over Streamable HTTP on 127.0.0.1: one McpServer (made by `newServer`) and one
// transport per session. Plain CommonJS, so that the child-process fixtures and the pipeline's
// drivers share it; the caller passes the SDK's transport class from the copy it loaded.
const { randomUUID } = require('node:crypto');
const { createServer } = require('node:http');

/**
 * Starts the server; `intercept(body, req)` may answer a request itself (returning true). Resolves
 * to its URL and a `close`.
 */
async function serveMcpOverHttp(StreamableHTTPServerTransport, newServer, intercept = () => false) {
  const sessions = new Map();
  const http = createServer(async (req, res) => {
    try {
      const chunks = [];
      for await (const chunk of req) chunks.push(chunk);
      const body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
      if (intercept(body, req)) return;
      let transport = sessions.get(req.headers['mcp-session-id']);
      if (!transport) {
        transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: randomUUID,
          onsessioninitialized: (id) => sessions.set(id, transport),
        });
        await newServer().connect(transport);
      }
      await transport.handleRequest(req, res, body);
    } catch {
      res.destroy();
    }
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

module.exports = { serveMcpOverHttp };
