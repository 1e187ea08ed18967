import { expect } from 'chai';
import fc from 'fast-check';
import { classifyToolError } from '../../src';
import { kindForName } from '../../src/classify/codes';
import { kindForHttpStatus } from '../../src/classify/http';
import { causesInStack } from '../../src/classify/stack-causes';

/**
 * Generated errors: a status, a code or a delay put where no rule names it (random names of
 * holders, random depths, random cause keys), among look-alike decoys (ids, ports, counts, a
 * `Keep-Alive: timeout=5` header, what the tool sent); and messages with a status in the
 * phrasings services use, among numbers that are not statuses. The answer must be the status.
 */

const STATUSES = [400, 401, 403, 404, 408, 409, 422, 429, 500, 502, 503, 504];
const STATUS_NAMES = ['status', 'statusCode', 'status_code', 'httpStatus', 'httpStatusCode', 'http_status'];
const HOLDER_NAMES = ['response', 'httpResponse', '$response', 'meta', 'details', 'info', 'res', 'result'];
const CAUSE_KEYS = ['cause', 'sourceError', 'originalError', 'innerError', 'inner', 'error', 'err', 'raw'];
const DELAY_NAMES: Array<[string, number]> = [
  ['retryAfter', 1000],
  ['retry_after', 1000],
  ['retryAfterMs', 1],
];
const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  408: 'Request Timeout',
  409: 'Conflict',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** Fields that look like a status and are not one: none may change the answer. */
const decoy = fc.constantFrom<[string, unknown]>(
  ['id', 503],
  ['port', 429],
  ['count', 404],
  ['requestId', 'req_500'],
  ['createdAt', 1_764_307_503],
  ['input', { status: 401, statusCode: 401 }],
  ['args', { status: 500 }],
  ['body', { status: 403, code: 403 }],
  ['config', { timeout: 5000, status: 418 }],
  ['request', { statusCode: 408, timeout: 100 }],
  ['params', { status_code: 502 }],
);

/** Nests `leaf` under 0-3 holders with random names, each with decoys beside. */
function nested(leaf: Record<string, unknown>, path: string[], decoys: Array<[string, unknown]>) {
  let value: Record<string, unknown> = leaf;
  for (const name of [...path].reverse()) value = { [name]: value };
  for (const [key, d] of decoys) if (!(key in value)) value[key] = d;
  return value;
}

function errorWith(fields: Record<string, unknown>, message = 'request failed'): Error {
  const err = new Error(message);
  for (const [key, value] of Object.entries(fields)) {
    if (key !== 'message') (err as unknown as Record<string, unknown>)[key] = value;
  }
  return err;
}

const placed = fc.record({
  status: fc.constantFrom(...STATUSES),
  name: fc.constantFrom(...STATUS_NAMES),
  numericString: fc.boolean(),
  path: fc.array(fc.constantFrom(...HOLDER_NAMES), { maxLength: 3 }),
  decoys: fc.array(decoy, { maxLength: 4 }),
  causeKeys: fc.array(fc.constantFrom(...CAUSE_KEYS), { maxLength: 3 }),
  delay: fc.option(fc.tuple(fc.constantFrom(...DELAY_NAMES), fc.integer({ min: 1, max: 120 })), {
    nil: undefined,
  }),
  keepAliveHeaders: fc.boolean(),
  innerStatus: fc.option(fc.constantFrom(...STATUSES), { nil: undefined }),
});

describe('classifyToolError on generated shapes (fast-check)', () => {
  it('reads a status at any name, depth and cause key, the outermost winning, past decoys', () => {
    fc.assert(
      fc.property(placed, (c) => {
        // A 500 on the error itself, with no response or headers, is a client's made-up status
        // (Octokit's): a real status in its cause outranks it (evidence-order.test.ts).
        fc.pre(
          !(c.status === 500 && c.path.length === 0 && !c.keepAliveHeaders && c.innerStatus !== undefined),
        );
        const leaf: Record<string, unknown> = { [c.name]: c.numericString ? String(c.status) : c.status };
        if (c.delay) leaf[c.delay[0][0]] = c.delay[1];
        if (c.keepAliveHeaders) leaf.headers = { connection: 'keep-alive', 'keep-alive': 'timeout=5' };
        let err: Error = errorWith(nested(leaf, c.path, c.decoys));
        if (c.innerStatus !== undefined)
          (err as Error & { cause?: unknown }).cause = errorWith({ status: c.innerStatus });
        // Wrapped under random cause keys: each wrapper a plain error with decoys of its own.
        for (const key of c.causeKeys) err = errorWith({ [key]: err, id: 500, port: 503 }, 'tool failed');
        const found = classifyToolError(err);
        const expectedKind = kindForHttpStatus(c.status, {
          rateLimited: c.delay !== undefined,
          headersSeen: c.keepAliveHeaders,
        });
        expect(found.errorType).to.equal(String(c.status));
        expect(found.httpStatus).to.equal(c.status);
        expect(found.kind).to.equal(expectedKind);
        // A delay kept as a property is looked for in a 429, and wherever the status or the headers
        // are not where the common clients keep them (the error or its `response`): beside those,
        // a delay is the `Retry-After` header's.
        const keptAsClientsDo =
          c.keepAliveHeaders &&
          (c.name === 'status' || c.name === 'statusCode') &&
          (c.path.length === 0 || (c.path.length === 1 && c.path[0] === 'response'));
        const delayRead = c.delay !== undefined && (c.status === 429 || !keptAsClientsDo);
        expect(found.retryAfterMs).to.equal(delayRead ? c.delay![1] * c.delay![0][1] : undefined);
      }),
      { numRuns: 300 },
    );
  });

  it('a 429 with nothing kept is a rate limit; with its headers kept and no rate-limit header, a quota', () => {
    expect(classifyToolError(errorWith({ status_code: 429 })).kind).to.equal('rate_limit');
    expect(
      classifyToolError(
        errorWith({ httpResponse: { status: 429, headers: { 'content-type': 'text/plain' } } }),
      ).kind,
    ).to.equal('quota');
    expect(
      classifyToolError(
        errorWith({
          $response: { statusCode: 429, headers: { 'x-ratelimit-limit': '10', 'content-type': 'a' } },
        }),
      ).kind,
    ).to.equal('rate_limit');
    // A rate-limit header under a vendor's prefix, as a fetch `Headers`.
    const vendor = new Headers({ 'anthropic-ratelimit-requests-remaining': '0', 'content-type': 'a' });
    expect(classifyToolError(errorWith({ status: 429, headers: vendor })).kind).to.equal('rate_limit');
  });

  it('never reads what the tool sent, nor a code another family claims', () => {
    for (const fields of [
      { input: { status: 503 } },
      { args: { statusCode: 503 } },
      { config: { status: 503 } },
      { body: { status: 503 } },
      { code: 503, codeName: 'SomeServerCode' },
      { code: 503, errno: 503 },
    ]) {
      expect(classifyToolError(errorWith(fields)).httpStatus, JSON.stringify(fields)).to.equal(undefined);
    }
    expect(classifyToolError(errorWith({ code: 503 })).errorType).to.equal('503');
  });

  it('runs no getter of an error it walks, and survives cycles and Proxies', () => {
    let ran = false;
    const holder = {
      get status() {
        ran = true;
        return 503;
      },
    };
    const err = errorWith({ details: { holder } });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    cyclic.inner = { up: cyclic };
    const trap = new Proxy(
      {},
      {
        get() {
          throw new Error('trap');
        },
        ownKeys() {
          throw new Error('trap');
        },
      },
    );
    expect(classifyToolError(err).httpStatus).to.equal(undefined);
    expect(ran).to.equal(false);
    expect(
      classifyToolError(errorWith({ meta: cyclic, other: trap, deep: { x: { status: 502 } } })).errorType,
    ).to.equal('502');
  });

  it('reads a status in the phrasings services use, past numbers that are no status', () => {
    const phrasing = fc.constantFrom(
      (s: number) => `${s} Error: {"message":"failed"}`,
      (s: number) => `${s}: ${REASONS[s]}`,
      (s: number) => `status code: ${s}`,
      (s: number) => `upstream returned ${s}`,
      (s: number) => `HTTP ${s}`,
      (s: number) => `HTTP/1.1 ${s} ${REASONS[s]}`,
      (s: number) => `Error code: ${s} - {'error': {'message': 'x'}}`,
      (s: number) => `Request failed with status ${s}`,
      (s: number) => `Server error '${s} ${REASONS[s]}' for url 'http://127.0.0.1:8080/x'`,
      (s: number) => `GET /search responded with ${s}`,
      // Java: HttpURLConnection, Feign, Spring's RestClient, OkHttp / Retrofit.
      (s: number) => `Server returned HTTP response code: ${s} for URL: http://127.0.0.1:8080/x`,
      (s: number) => `[${s} ${REASONS[s]}] during [GET] to [http://127.0.0.1:8080/x] [Client#get()]: []`,
      (s: number) => `${s} ${REASONS[s]}: "{"error":"failed"}"`,
      (s: number) => `HTTP ${s} ${REASONS[s]}`,
      // Go: `resp.Status` in a tool's own error, a quoted URL before it.
      (s: number) => `search API: ${s} ${REASONS[s]}`,
      (s: number) => `GET http://127.0.0.1:8080/x?page=2: ${s} ${REASONS[s]}`,
      (s: number) => `unexpected status ${s}`,
    );
    const noise = fc.constantFrom(
      'connecting to 127.0.0.1:8080',
      'request id req_404_abc',
      'at 2026-11-28T05:03:12Z',
      'keep-alive: timeout=5',
      'retried 3 times',
      'took 503ms',
      'goroutine 7 [running]',
      'at com.example.Search.get(Search.java:429)',
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...STATUSES),
        phrasing,
        noise,
        fc.boolean(),
        (status, phrase, extra, before) => {
          const text = phrase(status);
          // The head-of-text phrasings keep their place; noise goes after them.
          const message = before && !/^\d/.test(text) ? `${extra}; ${text}` : `${text} (${extra})`;
          const found = classifyToolError(new Error(message));
          expect(found.errorType, message).to.equal(String(status));
          expect(found.httpStatus, message).to.equal(status);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reads the status a class is named for, in any package, outer class and suffix, under wrappers', () => {
    const packages = fc.constantFrom(
      '',
      'org.springframework.web.client.',
      'feign.',
      'com.example.api.',
      'google.api_core.exceptions.',
    );
    const outer = fc.constantFrom(
      '',
      'HttpClientErrorException$',
      'HttpServerErrorException$',
      'FeignException$',
      'ApiException$',
    );
    const suffix = fc.constantFrom('', 'Exception', 'Error');
    const wrappers = fc.array(
      fc.constantFrom(
        'org.springframework.ai.tool.execution.ToolExecutionException',
        'java.lang.RuntimeException',
        'java.util.concurrent.ExecutionException',
      ),
      { maxLength: 3 },
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...STATUSES),
        packages,
        outer,
        suffix,
        wrappers,
        (status, pkg, out, end, around) => {
          const reason = REASONS[status]!.replace(/ /g, '');
          // A class the named table lists means what it lists (JavaScript's `RequestTimeoutError`: a timeout).
          fc.pre(kindForName(`${pkg}${out}${reason}${end}`) === undefined);
          // The message says nothing: the status is in the class name alone.
          let err: Record<string, unknown> = {
            name: `${pkg}${out}${reason}${end}`,
            message: 'request failed',
          };
          for (const name of around) err = { name, message: 'tool failed', cause: err };
          const found = classifyToolError(err);
          expect(found.errorType, String(err.name)).to.equal(String(status));
          expect(found.kind).to.equal(kindForHttpStatus(status));
        },
      ),
      { numRuns: 200 },
    );
  });

  it("reads a Java stack's causes: the innermost named failure wins over the wrappers around it", () => {
    const failures = fc.constantFrom<[string, string | undefined, string]>(
      ['java.net.ConnectException', undefined, 'ECONNREFUSED'],
      ['java.net.ConnectException', 'Connection refused', 'ECONNREFUSED'],
      ['java.net.UnknownHostException', 'api.example.invalid', 'ENOTFOUND'],
      ['java.net.SocketTimeoutException', 'Read timed out', 'timeout'],
      ['java.net.http.HttpTimeoutException', 'request timed out', 'timeout'],
      [
        'org.springframework.web.client.HttpServerErrorException$ServiceUnavailable',
        '503 Service Unavailable: [no body]',
        '503',
      ],
      ['org.springframework.web.client.HttpClientErrorException$TooManyRequests', undefined, '429'],
    );
    const wrapper = fc.constantFrom(
      [
        'org.springframework.web.client.ResourceAccessException',
        'I/O error on GET request for "http://127.0.0.1:1/x": null',
      ],
      ['java.lang.RuntimeException', 'weather lookup failed'],
      ['java.util.concurrent.CompletionException', 'java.lang.IllegalStateException: failed'],
    );
    fc.assert(
      fc.property(
        failures,
        fc.array(wrapper, { maxLength: 3 }),
        fc.boolean(),
        ([name, message, errorType], around, under) => {
          const frames = '\tat com.example.agent.Tools.call(Tools.java:42)\n\t... 7 more\n';
          let stack = 'org.springframework.ai.tool.execution.ToolExecutionException: tool failed\n' + frames;
          for (const [wrapperName, wrapperMessage] of around)
            stack += `Caused by: ${wrapperName}: ${wrapperMessage}\n${frames}`;
          stack += `Caused by: ${name}${message === undefined ? '' : `: ${message}`}\n${frames}`;
          // A cause under the failure that names nothing (the JDK's ClosedChannelException) changes nothing.
          if (under) stack += `Caused by: java.nio.channels.ClosedChannelException\n${frames}`;
          const found = classifyToolError({
            name: 'org.springframework.ai.tool.execution.ToolExecutionException',
            message: 'tool failed',
            cause: causesInStack(stack),
          });
          expect(found.errorType, stack).to.equal(errorType);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('finds no status in texts that only hold look-alike numbers', () => {
    for (const message of [
      'connect ECONNREFUSED 127.0.0.1:503',
      'user not found',
      'took 429 ms to answer',
      'order 500 shipped; invoice 404-22',
      'keep-alive: timeout=5, max=1000',
    ]) {
      expect(classifyToolError(new Error(message)).httpStatus, message).to.equal(undefined);
    }
  });
});
