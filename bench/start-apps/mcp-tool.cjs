'use strict';
// An MCP app's start: the client and server load, connect in memory, the client calls one tool.
require('./report-at-exit.cjs');
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');
const { InMemoryTransport } = require('@modelcontextprotocol/sdk/inMemory.js');
const { callOneTool } = require('./mcp-call.cjs');

callOneTool({ Client, McpServer, InMemoryTransport });
