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

/** `mcp.method.name`, `network.transport` and `mcp.protocol.version`: a new object, for the caller to add to. */
export function protocolAttributes(endpoint: unknown): Attributes {
  const transport = read(endpoint, '_transport') ?? read(endpoint, 'transport');
  const protocol = transportProtocol(endpoint, transport);
  const attributes: Attributes = { [ATTR_MCP_METHOD_NAME]: MCP_METHOD_NAME_VALUE_TOOLS_CALL };
  if (protocol.networkTransport !== undefined) attributes[ATTR_NETWORK_TRANSPORT] = protocol.networkTransport;
  if (protocol.version !== undefined) attributes[ATTR_MCP_PROTOCOL_VERSION] = protocol.version;
  return attributes;
}

/** A client's `mcp.session.id`, which its transport holds. */
export function addClientSessionId(attributes: Attributes, client: unknown): void {
  const sessionId = read(read(client, '_transport') ?? read(client, 'transport'), 'sessionId');
  if (typeof sessionId === 'string') attributes[ATTR_MCP_SESSION_ID] = sessionId;
}

interface TransportProtocol {
  networkTransport: string | undefined;
  version?: string;
}

/**
 * What a transport tells of every call over it, read once: its kind, and the protocol version once
 * negotiated (a connection keeps it). Reading them took a regex on the constructor's name and a
 * getter call on every tool call. One map per module: facts about the transport, the same for
 * every instance.
 */
const transportProtocols = new WeakMap<object, TransportProtocol>();

function transportProtocol(endpoint: unknown, transport: unknown): TransportProtocol {
  if (!isObjectLike(transport))
    return { networkTransport: undefined, version: negotiatedProtocolVersion(endpoint, transport) };
  let protocol = transportProtocols.get(transport);
  if (protocol === undefined) {
    protocol = { networkTransport: networkTransportOf(transport) };
    transportProtocols.set(transport, protocol);
  }
  protocol.version ??= negotiatedProtocolVersion(endpoint, transport);
  return protocol;
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

/** The JSON-RPC request id as `jsonrpc.request.id`, when it is one. */
export function addRequestId(attributes: Attributes, id: unknown): void {
  if (typeof id === 'string' || typeof id === 'number') attributes[ATTR_JSONRPC_REQUEST_ID] = String(id);
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
