// The ES module twin of mcp-tool.cjs, for --import.
import './report-at-exit.cjs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { callOneTool } from './mcp-call.cjs';

await callOneTool({ Client, McpServer, InMemoryTransport });
