import { join } from 'node:path';
import { expect } from 'chai';
import { startFlakyServer, type FlakyServer } from '../helpers/flaky-server';
import {
  startOtlpJsonReceiver,
  type OtlpJsonReceiver,
  type ReceivedSpan,
} from '../helpers/otlp-json-receiver';
import { buildRegisterBundles, type RegisterBundles } from '../helpers/register-bundles';
import { runNode } from '../helpers/run-node';

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
  let bundles: RegisterBundles;
  let flaky: FlakyServer;

  before(async () => {
    bundles = await buildRegisterBundles();
    flaky = await startFlakyServer();
  });
  after(async () => {
    await flaky?.close();
    bundles?.dispose();
  });

  const cases = [
    { flag: '--require', script: 'mcp-client.cjs', bundle: () => bundles.cjs },
    { flag: '--import', script: 'mcp-client.mjs', bundle: () => bundles.esm },
  ];

  for (const { flag, script, bundle } of cases) {
    describe(`node ${flag} otel-tool-errors/register ${script}`, () => {
      let receiver: OtlpJsonReceiver;
      let spans: ReceivedSpan[];

      before(async () => {
        receiver = await startOtlpJsonReceiver();
        const env = { FLAKY_URL: flaky.url };
        const plain = await runNode([], join(FIXTURES, script), env);
        const registered = await runNode([flag, bundle()], join(FIXTURES, script), {
          ...env,
          OTEL_SERVICE_NAME: 'mcp-stdio-test',
          OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
          OTEL_METRICS_EXPORTER: 'none',
          OTEL_BSP_SCHEDULE_DELAY: '50',
          SERVER_EXPORT_WAIT_MS: '1500',
        });
        expect(plain).to.deep.equal({ code: 0, stdout: EXPECTED_OUTPUT, stderr: '' });
        // The app's own output is the same with and without the register.
        expect(registered).to.deep.equal(plain);
        spans = receiver.spans();
      });
      after(() => receiver?.close());

      /** The client and the server span of one tool, the server's the client's child in one trace. */
      function pair(tool: string): { client: ReceivedSpan; server: ReceivedSpan } {
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
        const fetchSpan = spans.find((span) => span.parentSpanId === server.spanId);
        expect(fetchSpan?.attributes['http.response.status_code']).to.equal(503);
      });
    });
  }
});
