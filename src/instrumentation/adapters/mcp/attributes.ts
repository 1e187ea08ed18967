import type { Attributes, Span } from '@opentelemetry/api';
import { isObjectLike, read } from '../../../classify/safe';
import {
  ATTR_JSONRPC_REQUEST_ID,
  ATTR_MCP_METHOD_NAME,
  ATTR_MCP_PROTOCOL_VERSION,
  ATTR_MCP_SESSION_ID,
  ATTR_NETWORK_TRANSPORT,
  ATTR_RPC_RESPONSE_STATUS_CODE,
  MCP_METHOD_NAME_VALUE_TOOLS_CALL,
} from '../../../semconv';

/** The MCP conventions' attributes, read from a client or server object and its transport. */

/** `mcp.method.name`, `network.transport` and `mcp.protocol.version` of a client or server. */
export function protocolAttributes(endpoint: unknown): Attributes {
  const attributes: Attributes = { [ATTR_MCP_METHOD_NAME]: MCP_METHOD_NAME_VALUE_TOOLS_CALL };
  const transport = read(endpoint, '_transport') ?? read(endpoint, 'transport');
  const networkTransport = networkTransportOf(transport);
  if (networkTransport !== undefined) attributes[ATTR_NETWORK_TRANSPORT] = networkTransport;
  const version = negotiatedProtocolVersion(endpoint, transport);
  if (version !== undefined) attributes[ATTR_MCP_PROTOCOL_VERSION] = version;
  return attributes;
}

export function clientSessionAttributes(client: unknown): Attributes {
  const sessionId = read(read(client, '_transport') ?? read(client, 'transport'), 'sessionId');
  return typeof sessionId === 'string' ? { [ATTR_MCP_SESSION_ID]: sessionId } : {};
}

/** `pipe` for stdio, `tcp` for Streamable HTTP and SSE; nothing for in-memory or unknown transports. */
export function networkTransportOf(transport: unknown): string | undefined {
  const name = isObjectLike(transport)
    ? (transport.constructor as { name?: unknown } | undefined)?.name
    : undefined;
  if (typeof name !== 'string') return undefined;
  if (/stdio/i.test(name)) return 'pipe';
  if (/http|sse/i.test(name)) return 'tcp';
  return undefined;
}

/** 2.x: `getNegotiatedProtocolVersion()`; 1.x HTTP transports keep it as `protocolVersion`. */
export function negotiatedProtocolVersion(endpoint: unknown, transport: unknown): string | undefined {
  const getter = read(endpoint, 'getNegotiatedProtocolVersion');
  if (typeof getter === 'function') {
    const version: unknown = Reflect.apply(getter, endpoint, []);
    if (typeof version === 'string') return version;
  }
  const version = read(transport, 'protocolVersion');
  return typeof version === 'string' ? version : undefined;
}

export function idAttribute(id: unknown): Attributes {
  return typeof id === 'string' || typeof id === 'number' ? { [ATTR_JSONRPC_REQUEST_ID]: String(id) } : {};
}

/**
 * A JSON-RPC error response's code as `rpc.response.status_code`. On the client, 1.x raises the
 * SDK's own timeout (-32001) and closed connection (-32000) as `McpError` too: no response
 * carried them. On the server, a thrown error is answered with its own code or InternalError.
 */
export function writeJsonRpcCode(span: Span, err: unknown, client: boolean): void {
  const code = read(err, 'code');
  const isCode = typeof code === 'number' && Number.isInteger(code);
  if (client && (!isCode || code === -32001 || code === -32000)) return;
  span.setAttribute(ATTR_RPC_RESPONSE_STATUS_CODE, String(isCode ? code : -32603));
}
