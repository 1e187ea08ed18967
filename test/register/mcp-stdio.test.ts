import { join } from 'node:path';
import { expect } from 'chai';
import type { ReceivedSpan } from '../helpers/otlp-json-receiver';
import { describeRegisteredTwins } from '../helpers/registered-twins';

/**
 * A real MCP client and server (@modelcontextprotocol/sdk, StdioClientTransport starting the
 * server as a child process), both under the register as users run it (`--require` for the CJS
 * pair, `--import` for the ESM pair), exporting OTLP/JSON to one receiver on 127.0.0.1.
 */

const FIXTURES = join(__dirname, 'fixtures');
const EXPECTED_OUTPUT = 'busy: isError\nfetch_status: isError\nok: ok\n';
const SPAN_KIND_SERVER = 2;
const SPAN_KIND_CLIENT = 3;

describe('the register: an MCP client and server over stdio, one trace', function () {
  this.timeout(120_000);
  describeRegisteredTwins(
    {
      fixtures: FIXTURES,
      fixture: 'mcp-client',
      stdout: EXPECTED_OUTPUT,
      otelEnv: {
        OTEL_SERVICE_NAME: 'mcp-stdio-test',
        OTEL_BSP_SCHEDULE_DELAY: '50',
        SERVER_EXPORT_WAIT_MS: '1500',
      },
    },
    (exported) => {
      /** The client and the server span of one tool, the server's the client's child in one trace. */
      function pair(tool: string): { client: ReceivedSpan; server: ReceivedSpan } {
        const spans = exported();
        const named = spans.filter((span) => span.name === `tools/call ${tool}`);
        const client = named.filter((span) => span.kind === SPAN_KIND_CLIENT);
        const server = named.filter((span) => span.kind === SPAN_KIND_SERVER);
        expect(client, `client spans among ${JSON.stringify(spans.map((s) => s.name))}`).to.have.length(1);
        expect(server, `server spans among ${JSON.stringify(spans.map((s) => s.name))}`).to.have.length(1);
        expect(server[0]!.traceId).to.equal(client[0]!.traceId);
        expect(server[0]!.parentSpanId).to.equal(client[0]!.spanId);
        return { client: client[0]!, server: server[0]! };
      }

      it('tools/call {tool} spans, CLIENT and SERVER, with the MCP attributes and network.transport=pipe', () => {
        const { client, server } = pair('ok');
        for (const span of [client, server]) {
          expect(span.attributes).to.include({
            'mcp.method.name': 'tools/call',
            'gen_ai.tool.name': 'ok',
            'gen_ai.operation.name': 'execute_tool',
            'network.transport': 'pipe',
          });
          expect(span.attributes['jsonrpc.request.id']).to.be.a('string');
          expect(span.statusCode).to.not.equal(2);
        }
        expect(server.attributes['jsonrpc.request.id']).to.equal(client.attributes['jsonrpc.request.id']);
      });

      it('an isError result: error.type=tool_error on both sides, 503 kept in tool.error_detail_type', () => {
        const { client, server } = pair('busy');
        for (const span of [client, server]) {
          expect(span.statusCode).to.equal(2);
          expect(span.attributes).to.include({
            'error.type': 'tool_error',
            'tool.error_detail_type': '503',
            'tool.error_kind': 'transient',
          });
        }
      });

      it("a handler's real HTTP 503: the server span says so behind tool_error, with the fetch under it", () => {
        const { server } = pair('fetch_status');
        expect(server.attributes).to.include({
          'error.type': 'tool_error',
          'tool.error_detail_type': '503',
          'tool.error_kind': 'transient',
          'tool.error_retryable': true,
        });
        const fetchSpan = exported().find((span) => span.parentSpanId === server.spanId);
        expect(fetchSpan?.attributes['http.response.status_code']).to.equal(503);
      });
    },
  );
});
