import { SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { expect } from 'chai';
import { refusedPort, startFlakyServer, type FlakyServer } from './flaky-server';
import { callApi } from './tool-failures';

/**
 * The failure matrix every adapter must answer the same way, written once. Each adapter spec calls
 * `describeAdapterConformance` with a driver that runs one tool call through the real framework;
 * the suite supplies the tool's body (a real HTTP call to 127.0.0.1 that fails, a thrown Error, a
 * success) and asserts on the exported span.
 */

/** The tool's one argument: which path of the test API to call. */
export interface ConformanceInput {
  path: string;
}

/**
 * The tool a driver builds in its framework's own way, with an input schema of one string `path`,
 * and has the framework's (mock) model call with `input`.
 */
export interface ConformanceTool {
  readonly name: string;
  readonly description: string;
  readonly input: ConformanceInput;
  execute(input: ConformanceInput): Promise<string>;
}

export interface ConformanceCall {
  /** The span of the call, as exported (the driver checks its kind and parent). */
  span: ReadableSpan;
  /** What the framework gave back for the call: the run's result, its thrown error, a message. */
  answer: unknown;
}

export interface AdapterDriver {
  /** Builds `tool` in the framework, has the framework call it once, returns its span. */
  call(tool: ConformanceTool): Promise<ConformanceCall>;
  /** Asserts the framework answered as it does untraced when the tool threw `thrown`. */
  expectFailureAnswer(answer: unknown, thrown: unknown): void;
  /** Asserts the framework answered as it does untraced when the tool returned `returned`. */
  expectSuccessAnswer(answer: unknown, returned: string): void;
  /** The span's name, when the framework's convention names it otherwise than `execute_tool {tool}`. */
  spanName?: (tool: string) => string;
  /** Whether the span carries `gen_ai.tool.description` (a framework that never sees it cannot). */
  describesTool: boolean;
  /**
   * The `error.type` the span's convention fixes for every failure (an MCP `tools/call` span with
   * an `isError` result is `tool_error`); the classified type then stands in
   * `tool.error_detail_type`.
   */
  fixedErrorType?: string;
  /**
   * Whether the framework writes the span's status description itself, after the adapter marked
   * it: the description is then the thrown message as the framework wrote it.
   */
  frameworkWritesStatusMessage?: boolean;
  /**
   * How many `exception` events a failed call's span carries: one by default (recorded by the
   * adapter, or by a framework that records it itself); none where the adapter enriches a framework
   * span that records none.
   */
  exceptionEvents?: 0 | 1;
  /**
   * Where the framework's answer differs from the matrix for one case (it sees the failure in
   * another form), what the span carries instead. The spec says why next to it.
   */
  differences?: Partial<Record<FailureName, Partial<SpanFailure>>>;
}

type FailureName = (typeof FAILURES)[number]['name'];

/** What the suite reads off a span. */
interface SpanFailure {
  type: unknown;
  detailType: unknown;
  kind: unknown;
  retryable: unknown;
  executed: unknown;
  status: SpanStatusCode;
  message: unknown;
}

interface FailureCase {
  name: string;
  title: string;
  path: string;
  body(api: Api, path: string): Promise<string>;
  /** `error.type`, `tool.error_kind`, `tool.error_retryable`. */
  type: string;
  kind: string;
  retryable: boolean;
  /** The status description: the thrown message, without the argument (capture is off). */
  message: string;
}

interface Api {
  server: FlakyServer;
  closedPort: number;
}

const httpFailure = <T extends string>(path: string, type: T, kind: string, retryable: boolean) => ({
  name: path.includes('retryAfter') ? (`${type} with Retry-After` as const) : type,
  title: `a real HTTP ${type} answer (${path}) is ${kind}`,
  path,
  body: ({ server }: Api, path: string) => callApi(server.url + path),
  type,
  kind,
  retryable,
  // callApi names the path without its query: only a whole argument is redacted.
  message: path.includes('?') ? `GET ${path.split('?')[0]} failed` : 'GET [REDACTED] failed',
});

const FAILURES = [
  httpFailure('/500', '500', 'transient', true),
  httpFailure('/503', '503', 'transient', true),
  httpFailure('/429?retryAfter=1', '429', 'rate_limit', true),
  httpFailure('/429', '429', 'quota', false),
  httpFailure('/401', '401', 'auth', false),
  httpFailure('/404', '404', 'permanent', false),
  {
    name: 'refused',
    title: 'a refused connection is network ECONNREFUSED',
    path: '/',
    body: ({ closedPort }, path) => callApi(`http://127.0.0.1:${closedPort}${path}`),
    type: 'ECONNREFUSED',
    kind: 'network',
    retryable: true,
    message: 'fetch failed',
  },
  {
    name: 'timeout',
    title: 'an AbortSignal.timeout on a request that never answers is timeout',
    path: '/hang',
    body: ({ server }, path) => callApi(server.url + path, AbortSignal.timeout(50)),
    type: 'timeout',
    kind: 'timeout',
    retryable: true,
    message: 'The operation was aborted due to timeout',
  },
  {
    name: 'plain Error',
    title: 'a thrown plain Error is internal, by its class name',
    path: '/var/log/app.log',
    body: (_api, path) => Promise.reject(new Error(`the disk is full, cannot write ${path}`)),
    type: 'Error',
    kind: 'internal',
    retryable: false,
    message: 'the disk is full, cannot write [REDACTED]',
  },
] as const satisfies readonly FailureCase[];

export const CONFORMANCE_TOOL_NAME = 'call_api';
const DESCRIPTION = 'Calls the test API';

/** Registers the conformance tests for one adapter, in the caller's `describe`. */
export function describeAdapterConformance(driver: AdapterDriver): void {
  describe('conformance: the failure matrix', () => {
    const api = {} as Api;
    before(async () => {
      api.server = await startFlakyServer();
      api.closedPort = await refusedPort();
    });
    after(() => api.server.close());

    /** Has the framework call the tool with `path`; returns the span and what the body did. */
    async function callWith(path: string, body: (path: string) => Promise<string>) {
      const outcome: { threw?: boolean; thrown?: unknown; returned?: string } = {};
      const tool: ConformanceTool = {
        name: CONFORMANCE_TOOL_NAME,
        description: DESCRIPTION,
        input: { path },
        execute: (input) =>
          body(input.path).then(
            (returned) => (outcome.returned = returned),
            (error: unknown) => {
              Object.assign(outcome, { threw: true, thrown: error });
              throw error;
            },
          ),
      };
      const { span, answer } = await driver.call(tool);
      expect(span.name).to.equal(driver.spanName?.(tool.name) ?? `execute_tool ${tool.name}`);
      expect(span.attributes['gen_ai.tool.name']).to.equal(tool.name);
      if (driver.describesTool) expect(span.attributes['gen_ai.tool.description']).to.equal(DESCRIPTION);
      return { span, answer, ...outcome };
    }

    for (const failure of FAILURES) {
      it(`${failure.title}; the framework's answer is unchanged`, async () => {
        const { span, answer, threw, thrown } = await callWith(failure.path, (path) =>
          failure.body(api, path),
        );
        expect(threw, 'the tool body threw').to.equal(true);
        const fixed = driver.fixedErrorType;
        expect(failureOf(span)).to.deep.equal({
          type: fixed ?? failure.type,
          detailType: fixed === undefined || fixed === failure.type ? undefined : failure.type,
          kind: failure.kind,
          retryable: failure.retryable,
          executed: true,
          status: SpanStatusCode.ERROR,
          message: driver.frameworkWritesStatusMessage ? (thrown as Error).message : failure.message,
          ...driver.differences?.[failure.name],
        });
        expect(span.events.filter((e) => e.name === 'exception')).to.have.length(driver.exceptionEvents ?? 1);
        driver.expectFailureAnswer(answer, thrown);
      });
    }

    it("a success stays unmarked; the framework's answer is unchanged", async () => {
      const { span, answer, returned } = await callWith('/ok', (path) => callApi(api.server.url + path));
      expect(returned).to.equal('{"ok":true}');
      expect(failureOf(span)).to.deep.equal({
        type: undefined,
        detailType: undefined,
        kind: undefined,
        retryable: undefined,
        executed: undefined,
        status: SpanStatusCode.UNSET,
        message: undefined,
      });
      expect(span.events.filter((e) => e.name === 'exception')).to.have.length(0);
      driver.expectSuccessAnswer(answer, returned!);
    });
  });
}

function failureOf(span: ReadableSpan): SpanFailure {
  return {
    type: span.attributes['error.type'],
    detailType: span.attributes['tool.error_detail_type'],
    kind: span.attributes['tool.error_kind'],
    retryable: span.attributes['tool.error_retryable'],
    executed: span.attributes['tool.error_executed'],
    status: span.status.code,
    message: span.status.message,
  };
}
