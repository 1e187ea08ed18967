import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';
import { tool } from '@langchain/core/tools';
import { APICallError, InvalidToolInputError, NoSuchToolError } from 'ai';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { ToolTimeoutError } from '@openai/agents-core';
import { classifyToolError } from '../../src';

async function thrownBy(call: () => unknown): Promise<unknown> {
  try {
    await call();
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to fail');
}

/** An API server for the OpenAI and Anthropic SDKs: the status and body each path asks for. */
function startProviderServer(): Promise<Server> {
  const server = createServer((req, res) => {
    const [, status, variant] = /\/(\d{3})(?:-(\w+))?\//.exec(req.url ?? '') ?? [];
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (variant === 'retry') headers['retry-after'] = '3';
    const body =
      variant === 'quota'
        ? {
            error: {
              type: 'insufficient_quota',
              code: 'insufficient_quota',
              message: 'You exceeded your current quota',
            },
          }
        : { error: { type: 'api_error', message: `status ${status}` } };
    res.writeHead(Number(status), headers).end(JSON.stringify(body));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe('classifyToolError on errors built by the real libraries', () => {
  let server: Server;
  let base: string;
  before(async () => {
    server = await startProviderServer();
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise((resolve) => server.close(resolve)));

  const providerCases: Array<[path: string, errorType: string, kind: string]> = [
    ['500', '500', 'transient'],
    ['401', '401', 'auth'],
    ['429-retry', '429', 'rate_limit'],
    ['429', '429', 'quota'],
    ['429-quota', '429', 'quota'],
  ];

  for (const [path, errorType, kind] of providerCases) {
    it(`OpenAI SDK ${path} -> ${errorType} ${kind}`, async () => {
      const client = new OpenAI({ apiKey: 'sk-test', baseURL: `${base}/${path}/v1`, maxRetries: 0 });
      const err = await thrownBy(() => client.chat.completions.create({ model: 'm', messages: [] }));
      expect(err).to.be.instanceOf(OpenAI.APIError);
      expect(classifyToolError(err)).to.include({ errorType, kind });
    });

    it(`Anthropic SDK ${path} -> ${errorType} ${kind}`, async () => {
      const client = new Anthropic({ apiKey: 'sk-ant-test', baseURL: `${base}/${path}`, maxRetries: 0 });
      const err = await thrownBy(() =>
        client.messages.create({ model: 'm', max_tokens: 1, messages: [{ role: 'user', content: 'hi' }] }),
      );
      expect(err).to.be.instanceOf(Anthropic.APIError);
      // Anthropic has no quota body code: 429 without Retry-After is quota, with it rate_limit.
      expect(classifyToolError(err)).to.include({ errorType, kind: path === '429-quota' ? 'quota' : kind });
    });
  }

  it('OpenAI SDK connection timeout (APIConnectionTimeoutError)', async () => {
    const hanging = createServer(() => undefined);
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const port = (hanging.address() as AddressInfo).port;
    const client = new OpenAI({
      apiKey: 'sk-test',
      baseURL: `http://127.0.0.1:${port}/v1`,
      maxRetries: 0,
      timeout: 50,
    });
    const err = await thrownBy(() => client.chat.completions.create({ model: 'm', messages: [] }));
    hanging.closeAllConnections();
    hanging.close();
    expect(err).to.be.instanceOf(OpenAI.APIConnectionTimeoutError);
    expect(classifyToolError(err)).to.include({ errorType: 'timeout', kind: 'timeout' });
  });

  it('Zod: invalid_input, not executed', async () => {
    const err = await thrownBy(() => z.object({ city: z.string() }).parse({ city: 1 }));
    expect(classifyToolError(err)).to.include({
      errorType: 'ZodError',
      kind: 'invalid_input',
      executed: false,
    });
  });

  it('LangChain ToolInputParsingException (its name stays "Error")', async () => {
    const weather = tool(async ({ city }: { city: string }) => city, {
      name: 'weather',
      description: 'w',
      schema: z.object({ city: z.string() }),
    });
    const err = await thrownBy(() => weather.invoke({ city: 42 } as never));
    expect((err as Error).name).to.equal('Error');
    expect(classifyToolError(err)).to.include({
      errorType: 'ToolInputParsingException',
      kind: 'invalid_input',
      executed: false,
    });
  });

  it('AI SDK NoSuchToolError, InvalidToolInputError and APICallError', () => {
    expect(
      classifyToolError(new NoSuchToolError({ toolName: 'send_fax', availableTools: ['a'] })),
    ).to.include({
      kind: 'unknown_tool',
      executed: false,
    });
    const invalid = new InvalidToolInputError({
      toolName: 'a',
      toolInput: '{',
      cause: new SyntaxError('bad json'),
    });
    expect(classifyToolError(invalid)).to.include({ kind: 'invalid_input', executed: false });
    const apiCall = new APICallError({
      message: 'Too Many Requests',
      url: 'http://x',
      requestBodyValues: {},
      statusCode: 429,
      responseHeaders: { 'retry-after': '1' },
    });
    expect(classifyToolError(apiCall)).to.include({
      errorType: '429',
      kind: 'rate_limit',
      retryAfterMs: 1000,
    });
  });

  it('MCP McpError codes', () => {
    expect(classifyToolError(new McpError(ErrorCode.RequestTimeout, 'Request timed out'))).to.include({
      errorType: 'timeout',
      kind: 'timeout',
    });
    expect(classifyToolError(new McpError(ErrorCode.InvalidParams, 'bad'))).to.include({
      errorType: '-32602',
      kind: 'invalid_input',
    });
    expect(classifyToolError(new McpError(ErrorCode.MethodNotFound, 'no'))).to.include({
      kind: 'unknown_tool',
    });
    expect(classifyToolError(new McpError(ErrorCode.ConnectionClosed, 'closed'))).to.include({
      kind: 'network',
    });
  });

  it('OpenAI Agents ToolTimeoutError', () => {
    const err = new ToolTimeoutError({ toolName: 'slow', timeoutMs: 10 } as never);
    expect(classifyToolError(err)).to.include({ errorType: 'timeout', kind: 'timeout' });
  });

  it('walks the cause chain: a generic wrapper around an HTTP error keeps the status', () => {
    const inner = Object.assign(new Error('Service Unavailable'), { status: 503 });
    const wrapped = new Error('Error in tool lookup', { cause: new Error('outer', { cause: inner }) });
    expect(classifyToolError(wrapped)).to.include({ errorType: '503', kind: 'transient' });
  });

  it('AggregateError (happy eyeballs) of connection refusals', () => {
    const refused = (address: string) =>
      Object.assign(new Error(`connect ECONNREFUSED ${address}`), { code: 'ECONNREFUSED' });
    const err = new AggregateError([refused('::1:80'), refused('127.0.0.1:80')]);
    expect(classifyToolError(err)).to.include({ errorType: 'ECONNREFUSED', kind: 'network' });
  });

  it('an AbortError whose cause is a timeout is a timeout', () => {
    const err = new DOMException('aborted', 'AbortError');
    Object.defineProperty(err, 'cause', { value: new DOMException('t', 'TimeoutError') });
    expect(classifyToolError(err)).to.include({ kind: 'timeout' });
  });

  it('a class name is the fallback error.type, with kind internal', () => {
    class LedgerMismatch extends Error {}
    expect(classifyToolError(new LedgerMismatch('x'))).to.include({
      errorType: 'LedgerMismatch',
      kind: 'internal',
    });
    expect(classifyToolError(new TypeError('x is undefined'))).to.include({
      errorType: 'TypeError',
      kind: 'internal',
    });
  });

  it('non-Error throws', () => {
    for (const value of [null, undefined, 42, true, Symbol('s'), 10n, {}, []]) {
      expect(classifyToolError(value), String(typeof value)).to.include({
        errorType: '_OTHER',
        kind: 'internal',
      });
    }
    expect(classifyToolError('upstream timed out')).to.include({ errorType: 'timeout', kind: 'timeout' });
    expect(classifyToolError({ status: 502 })).to.include({ errorType: '502', kind: 'transient' });
    expect(classifyToolError({ statusCode: 404 })).to.include({ errorType: '404', kind: 'permanent' });
    expect(classifyToolError({ code: 'ECONNRESET' })).to.include({
      errorType: 'ECONNRESET',
      kind: 'network',
    });
  });

  it('undici, TLS and Node codes', () => {
    const cases: Array<[string, string, string]> = [
      ['UND_ERR_HEADERS_TIMEOUT', 'timeout', 'timeout'],
      ['UND_ERR_CONNECT_TIMEOUT', 'timeout', 'timeout'],
      ['UND_ERR_BODY_TIMEOUT', 'timeout', 'timeout'],
      ['ETIMEDOUT', 'timeout', 'timeout'],
      ['EAI_AGAIN', 'EAI_AGAIN', 'network'],
      ['EPIPE', 'EPIPE', 'network'],
      ['ECONNRESET', 'ECONNRESET', 'network'],
      ['CERT_HAS_EXPIRED', 'CERT_HAS_EXPIRED', 'network'],
      ['ERR_TLS_CERT_ALTNAME_INVALID', 'ERR_TLS_CERT_ALTNAME_INVALID', 'network'],
      ['ABORT_ERR', 'ABORT_ERR', 'canceled'],
    ];
    for (const [code, errorType, kind] of cases) {
      expect(classifyToolError(Object.assign(new Error('x'), { code })), code).to.include({
        errorType,
        kind,
      });
    }
  });

  it('Genkit-style canonical status strings', () => {
    expect(classifyToolError({ name: 'GenkitError', status: 'NOT_FOUND' })).to.include({
      errorType: 'NOT_FOUND',
    });
    expect(classifyToolError({ name: 'GenkitError', status: 'DEADLINE_EXCEEDED' })).to.include({
      kind: 'timeout',
    });
    expect(classifyToolError({ name: 'GenkitError', status: 'INVALID_ARGUMENT' })).to.include({
      kind: 'invalid_input',
    });
  });
});
