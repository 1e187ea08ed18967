import { expect } from 'chai';
import { ToolMessage } from '@langchain/core/messages';
import {
  ToolErrorType,
  ToolExecutionError,
  classifyToolError,
  classifyToolResult,
  formatToolErrorForModel,
} from '../../src';
import { classifyMessage } from '../../src/classify/message';

describe('classifyToolResult: errors a tool returned', () => {
  it('MCP isError with the SDK text for an unknown tool', () => {
    const result = {
      isError: true,
      content: [{ type: 'text', text: 'MCP error -32602: Tool send_fax not found' }],
    };
    expect(classifyToolResult(result)).to.include({
      errorType: '-32602',
      kind: 'unknown_tool',
      executed: false,
    });
  });

  it('MCP isError with plain text is tool_error, or finer when the text says more', () => {
    expect(
      classifyToolResult({ isError: true, content: [{ type: 'text', text: 'the ledger is locked' }] }),
    ).to.include({ errorType: 'tool_error', kind: 'tool_error', executed: true });
    expect(
      classifyToolResult({
        isError: true,
        content: [{ type: 'text', text: 'Request failed with status code 503' }],
      }),
    ).to.include({ errorType: '503', kind: 'transient' });
  });

  it('the ADK contract {success: false, error}', () => {
    expect(classifyToolResult({ success: false, error: 'Too many requests, slow down' })).to.include({
      errorType: 'tool_error',
      kind: 'rate_limit',
    });
    expect(classifyToolResult({ success: true, error: null, results: [] })).to.equal(undefined);
  });

  it('Mastra validation failures are invalid_input and not executed', () => {
    const result = {
      error: true,
      message: 'Tool validation failed',
      validationErrors: { city: ['Required'] },
    };
    expect(classifyToolResult(result)).to.include({ kind: 'invalid_input', executed: false });
  });

  it('a Mastra output validation failure: the tool ran, its result is the fault', () => {
    const result = {
      error: true,
      message: 'Tool output validation failed for weather',
      validationErrors: {},
    };
    expect(classifyToolResult(result)).to.include({ kind: 'tool_error', executed: true });
  });

  it('VoltAgent {error: true, name, message} keeps the thrown class', () => {
    expect(classifyToolResult({ error: true, name: 'ZodError', message: 'bad', toolName: 't' })).to.include({
      errorType: 'ZodError',
      kind: 'invalid_input',
    });
  });

  it('a LangChain ToolMessage with status error', () => {
    const message = new ToolMessage({
      content: 'Error: connect ECONNREFUSED 127.0.0.1:9\n Please fix your mistakes.',
      tool_call_id: 'call_1',
      status: 'error',
    });
    expect(classifyToolResult(message)).to.include({ errorType: 'ECONNREFUSED', kind: 'network' });
    expect(classifyToolResult(new ToolMessage({ content: 'ok', tool_call_id: 'c' }))).to.equal(undefined);
  });

  it('an AI SDK tool-error part carries the real error', () => {
    const part = {
      type: 'tool-error',
      toolCallId: 'c',
      toolName: 't',
      error: Object.assign(new Error(), { status: 401 }),
    };
    expect(classifyToolResult(part)).to.include({ errorType: '401', kind: 'auth' });
  });

  it('REST-style {status: "error"} and {error: "text"}', () => {
    expect(classifyToolResult({ status: 'error', error_message: 'deadline exceeded' })).to.include({
      kind: 'timeout',
    });
    expect(classifyToolResult({ error: 'invalid api key' })).to.include({
      kind: 'auth',
      errorType: 'tool_error',
    });
  });

  it('leaves ordinary results alone', () => {
    for (const value of [
      undefined,
      null,
      'text',
      42,
      [],
      { data: 1 },
      { error: null },
      { error: '' },
      { status: 'ok' },
    ]) {
      expect(classifyToolResult(value), JSON.stringify(value)).to.equal(undefined);
    }
  });
});

describe('classifyMessage: text-only evidence', () => {
  // The TypeScript agent seed's entrance patterns, each family at least once.
  const cases: Array<[string, string]> = [
    ['Too Many Requests', 'rate_limit'],
    ['ratelimit reached', 'rate_limit'],
    ['model is overloaded', 'rate_limit'],
    ['insufficient_quota', 'quota'],
    ['Payment Required', 'quota'],
    ['Invalid API key provided', 'auth'],
    ['access denied', 'auth'],
    ['context deadline exceeded', 'timeout'],
    ['request timed out', 'timeout'],
    ['socket hang up', 'network'],
    ['getaddrinfo EAI_AGAIN api.example.com', 'network'],
    ['certificate has expired', 'network'],
    ['Unknown tool: send_fax', 'unknown_tool'],
    ['Invalid arguments for tool book_flight', 'invalid_input'],
    ['denied by policy: exports are frozen', 'not_permitted'],
    ['The operation was aborted', 'canceled'],
  ];
  for (const [text, kind] of cases) {
    it(`"${text}" -> ${kind}`, () => expect(classifyMessage(text)?.kind).to.equal(kind));
  }

  it('an approval refused is no failure kind: the runtime records it as tool.call.outcome=denied', () => {
    expect(classifyMessage('approval denied by reviewer')).to.equal(undefined);
    expect(classifyMessage('Tool call approval rejected')).to.equal(undefined);
  });

  it('reads an HTTP status and a Node code from the text', () => {
    expect(classifyMessage('Request failed with status code 404')).to.deep.equal({
      kind: 'permanent',
      errorType: '404',
      httpStatus: 404,
    });
    expect(classifyMessage('HTTP 429, retry after 5s')).to.include({ kind: 'rate_limit', errorType: '429' });
    expect(classifyMessage('connect ECONNREFUSED 127.0.0.1:9')).to.include({
      kind: 'network',
      errorType: 'ECONNREFUSED',
    });
  });

  it('is applied only when nothing structured exists', () => {
    const err = Object.assign(new Error('rate limit exceeded'), { status: 500 });
    expect(classifyToolError(err)).to.include({
      errorType: '500',
      kind: 'transient',
      evidence: 'http_status',
    });
    expect(classifyToolError(new Error('rate limit exceeded'))).to.include({
      kind: 'rate_limit',
      evidence: 'message',
    });
  });

  it('says nothing about text that carries no failure', () => {
    expect(classifyMessage('the weather is fine')).to.equal(undefined);
  });
});

describe('ToolExecutionError', () => {
  it('states the kind and type, before any other evidence', () => {
    const cause = Object.assign(new Error('upstream'), { status: 500 });
    const err = new ToolExecutionError('payment refused', { kind: 'not_permitted', cause, toolName: 'pay' });
    expect(classifyToolError(err)).to.include({
      kind: 'not_permitted',
      errorType: '500',
      executed: false,
      evidence: 'explicit',
    });
    expect(err.cause).to.equal(cause);
  });

  it('covers the ADK plan enum values', () => {
    const expected: Record<string, string> = {
      [ToolErrorType.TIMEOUT]: 'timeout',
      [ToolErrorType.BAD_REQUEST]: 'permanent',
      [ToolErrorType.UNAUTHORIZED]: 'auth',
      [ToolErrorType.NOT_FOUND]: 'permanent',
      [ToolErrorType.INTERNAL_SERVER_ERROR]: 'transient',
      [ToolErrorType.UNKNOWN_HOST]: 'network',
      [ToolErrorType.TOOL_ERROR]: 'tool_error',
    };
    for (const [errorType, kind] of Object.entries(expected)) {
      expect(classifyToolError(new ToolExecutionError('x', { errorType })), errorType).to.include({
        errorType,
        kind,
      });
    }
  });

  it('derives the type from the kind or the cause', () => {
    expect(classifyToolError(new ToolExecutionError('slow', { kind: 'timeout' }))).to.include({
      errorType: 'timeout',
    });
    const refused = Object.assign(new Error(), { code: 'ECONNREFUSED' });
    expect(classifyToolError(new ToolExecutionError('down', { cause: refused }))).to.include({
      errorType: 'ECONNREFUSED',
      kind: 'network',
    });
  });

  it('recognises the seed TypeScript agent error by its name and kind', () => {
    const seedError = Object.assign(new Error('limit'), {
      name: 'ToolExecutionError',
      kind: 'limit_exceeded',
    });
    expect(classifyToolError(seedError)).to.include({ kind: 'not_permitted', executed: false });
  });

  it('serialises with toJSON and carries tool name, input and time', () => {
    const before = Date.now();
    const err = new ToolExecutionError('nope', { errorType: '404', toolName: 'lookup', input: { id: 7 } });
    const json = JSON.parse(JSON.stringify(err));
    expect(json).to.include({
      name: 'ToolExecutionError',
      message: 'nope',
      errorType: '404',
      toolName: 'lookup',
    });
    expect(json.input).to.deep.equal({ id: 7 });
    expect(Date.parse(json.timestamp)).to.be.within(before, Date.now());
  });

  it('rejects an unknown kind with a clear message', () => {
    expect(() => new ToolExecutionError('x', { kind: 'oops' as never })).to.throw(
      TypeError,
      /unknown kind "oops"/,
    );
  });
});

describe('formatToolErrorForModel', () => {
  it('says the call failed, its type and kind, and what to do next', () => {
    const classification = classifyToolError(
      Object.assign(new Error('Too Many Requests'), { status: 429, headers: { 'retry-after': '7' } }),
    );
    const text = formatToolErrorForModel('search_web', classification, 'Too Many Requests');
    expect(text.split('\n')).to.deep.equal([
      'Tool Execution Failed',
      'Tool: search_web',
      'Error Type: 429',
      'Kind: rate_limit',
      'Message: Too Many Requests',
      '',
      'The service is rate limited. Wait 7s before retrying.',
    ]);
  });

  it('tells the model to fix its arguments for invalid input', () => {
    const text = formatToolErrorForModel(
      'book_flight',
      classifyToolError(Object.assign(new Error(), { name: 'ZodError' })),
    );
    expect(text).to.match(/Fix them to match the tool schema/);
  });
});
