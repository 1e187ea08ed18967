import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import { betaTool } from '@anthropic-ai/sdk/helpers/beta/json-schema';
import { SpanStatusCode } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { expect } from 'chai';
import { ToolErrorSpanProcessor } from '../../src';

/**
 * A Messages API on 127.0.0.1: the first turn asks for the `lookup` and `ok` tools, the next ends.
 * Enough of the API for the SDK's real tool runner.
 */
async function startMessagesApi(): Promise<{ server: Server; url: string }> {
  let turn = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      turn++;
      const content =
        turn === 1
          ? [
              { type: 'tool_use', id: 'toolu_1', name: 'lookup', input: { q: 'weather' } },
              { type: 'tool_use', id: 'toolu_2', name: 'ok', input: {} },
            ]
          : [{ type: 'text', text: 'done' }];
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: `msg_${turn}`,
          type: 'message',
          role: 'assistant',
          model: 'claude-test',
          content,
          stop_reason: turn === 1 ? 'tool_use' : 'end_turn',
          stop_sequence: null,
          usage: { input_tokens: 1, output_tokens: 1 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** The Anthropic SDK's own `anthropic.custom_tool_use {name}` spans, from its real tool runner. */
describe('ToolErrorSpanProcessor on Anthropic SDK tool-runner spans', () => {
  let api: { server: Server; url: string };
  let exporter: InMemorySpanExporter;
  let provider: BasicTracerProvider;

  before(async () => {
    api = await startMessagesApi();
    exporter = new InMemorySpanExporter();
    provider = new BasicTracerProvider({
      spanProcessors: [new ToolErrorSpanProcessor(), new SimpleSpanProcessor(exporter)],
    });
    const client = new Anthropic({
      apiKey: 'test-key',
      baseURL: api.url,
      maxRetries: 0,
      openTelemetry: { tracerProvider: provider },
    });
    const lookup = betaTool({
      name: 'lookup',
      description: 'Looks something up upstream.',
      inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
      run: async () => {
        throw new Error('lookup failed');
      },
    });
    const ok = betaTool({
      name: 'ok',
      description: 'Always works.',
      inputSchema: { type: 'object', properties: {} },
      run: async () => 'fine',
    });
    await client.beta.messages.toolRunner({
      model: 'claude-test',
      max_tokens: 16,
      messages: [{ role: 'user', content: 'go' }],
      tools: [lookup, ok],
    });
  });

  after(async () => {
    await provider.shutdown();
    await new Promise((resolve) => api.server.close(resolve));
  });

  it("keeps the SDK's error.type and fills the kind and flags", () => {
    const span = exporter.getFinishedSpans().find((s) => s.name === 'anthropic.custom_tool_use lookup')!;
    expect(span, 'the SDK made a tool span').not.to.equal(undefined);
    // The SDK says `tool_error` (the tool threw, the runner returned is_error) and records nothing else.
    expect(span.attributes).to.include({
      'error.type': 'tool_error',
      'tool.error_kind': 'tool_error',
      'tool.error_retryable': false,
      'tool.error_executed': true,
      'gen_ai.tool.name': 'lookup',
    });
    expect(span.status.code).to.equal(SpanStatusCode.ERROR);
    expect(span.status.message).to.equal('tool_error: tool_error');
  });

  it('leaves the successful tool span as the SDK made it', () => {
    const span = exporter.getFinishedSpans().find((s) => s.name === 'anthropic.custom_tool_use ok')!;
    expect(span.status.code).to.equal(SpanStatusCode.OK);
    expect(span.attributes).to.not.have.property('error.type');
    expect(span.attributes).to.not.have.property('tool.error_kind');
  });
});
