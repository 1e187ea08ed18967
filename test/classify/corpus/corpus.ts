import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  classifyToolError,
  DEFAULT_MAX_ERROR_TYPES,
  setMaxErrorTypes,
  type ToolErrorKind,
} from '../../../src';
import { resetErrorTypes } from '../../../src/classify/error-type';
import { refusedPort } from '../../helpers/flaky-server';
import { startApiServer, type ApiServer } from './api-server';

/** What the taxonomy says a client's failure is. */
export interface Expected {
  errorType: string;
  kind: ToolErrorKind;
  retryable: boolean;
  executed: boolean;
}

/** One real failure of one client: the call (which must throw) and the answer the taxonomy gives. */
export interface CorpusCase {
  scenario: string;
  call: () => Promise<unknown>;
  expected: Expected;
  /**
   * Why the classifier cannot give the expected answer: the client threw away the evidence. The
   * spec then checks that the answer is still wrong, so the day it is right the case is updated.
   */
  knownMiss?: string;
}

export interface CorpusClient {
  /** The npm package, for its installed version; `node` for a client built into Node. */
  pkg: string;
  /** What the suite calls the client, when the package name says less (`@aws-sdk/client-s3` is S3). */
  label?: string;
  cases: () => CorpusCase[];
}

/** The installed version of `pkg`, read from its package.json (some packages do not export it). */
export function installedVersion(pkg: string): string {
  if (pkg === 'node') return process.versions.node;
  const manifest = JSON.parse(
    readFileSync(join(__dirname, '../../../node_modules', pkg, 'package.json'), 'utf8'),
  );
  return String(manifest.version);
}

/** Runs `call`, which must fail, and returns what it threw. */
export async function thrownBy(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to fail');
}

/** The parts of an error that classification reads, for a failure message that says what was seen. */
function describeError(err: unknown): string {
  if (typeof err !== 'object' || err === null) return String(err);
  const e = err as Record<string, unknown>;
  const parts = [
    `class=${(err as object).constructor?.name}`,
    `name=${String(e.name)}`,
    `code=${String(e.code)}`,
    `status=${String(e.status ?? e.statusCode)}`,
    `message=${String(e.message).slice(0, 160)}`,
  ];
  if (e.cause) parts.push(`cause: ${describeError(e.cause)}`);
  return parts.join(' ');
}

/** One describe per client, one spec per case: the classification must equal the expectation. */
export function corpusSuite(clients: CorpusClient[]): void {
  for (const client of clients) {
    describe(`${client.label ?? client.pkg} ${installedVersion(client.pkg)}`, () => {
      for (const c of client.cases()) {
        const title = `${c.scenario} -> ${c.expected.errorType} ${c.expected.kind}`;
        it(c.knownMiss ? `${title} (known miss: ${c.knownMiss})` : title, async () => {
          const err = await thrownBy(c.call);
          const { errorType, kind, retryable, executed } = classifyToolError(err);
          const actual = { errorType, kind, retryable, executed };
          if (c.knownMiss) expect(actual, describeError(err)).not.to.deep.equal(c.expected);
          else expect(actual, describeError(err)).to.deep.equal(c.expected);
        });
      }
    });
  }
}

/** The expectation for `kind`, its flags stated as the taxonomy's meanings table has them. */
export const outcome = {
  rateLimit: (errorType = '429'): Expected => ({
    errorType,
    kind: 'rate_limit',
    retryable: true,
    executed: true,
  }),
  quota: (errorType = '429'): Expected => ({ errorType, kind: 'quota', retryable: false, executed: true }),
  transient: (errorType = '503'): Expected => ({
    errorType,
    kind: 'transient',
    retryable: true,
    executed: true,
  }),
  auth: (errorType = '401'): Expected => ({ errorType, kind: 'auth', retryable: false, executed: true }),
  permanent: (errorType = '404'): Expected => ({
    errorType,
    kind: 'permanent',
    retryable: false,
    executed: true,
  }),
  timeout: (): Expected => ({ errorType: 'timeout', kind: 'timeout', retryable: true, executed: true }),
  network: (errorType = 'ECONNREFUSED'): Expected => ({
    errorType,
    kind: 'network',
    retryable: true,
    executed: true,
  }),
};

/** The local API server and a refused port, started once per family suite (call inside its describe). */
export interface CorpusEnv {
  readonly api: ApiServer;
  /** A base URL on 127.0.0.1 where nothing listens. */
  readonly refusedUrl: string;
}

export function corpusEnv(): CorpusEnv {
  let api: ApiServer | undefined;
  let refused: number | undefined;
  before(async () => {
    // The corpus's free-form error types (SQLSTATEs, driver codes) must not meet a cap other specs filled.
    setMaxErrorTypes(DEFAULT_MAX_ERROR_TYPES);
    resetErrorTypes();
    api = await startApiServer();
    refused = await refusedPort();
  });
  after(() => api?.close());
  return {
    get api() {
      if (!api) throw new Error('corpusEnv: the API server is not started yet');
      return api;
    },
    get refusedUrl() {
      return `http://127.0.0.1:${refused}`;
    },
  };
}

/** Client timeouts in the corpus: short, as the server never answers. */
export const CLIENT_TIMEOUT_MS = 100;

/** How an HTTP API client is driven through the standard scenarios. */
export interface HttpPlan {
  /** One API call against `baseUrl`, with the client's retries off. */
  call: (baseUrl: string) => Promise<unknown>;
  /** The same call with the client's own timeout option set to `ms`; omitted when the client has none. */
  callWithTimeout?: (baseUrl: string, ms: number) => Promise<unknown>;
  /** The error body the real service sends with `status`. */
  body: (status: number) => unknown;
  /** Expectations that differ from the taxonomy's default for a scenario, with the reason in a comment. */
  expect?: Partial<Record<Scenario, Expected>>;
  /** Scenarios the classifier cannot get right for this client, and why (`CorpusCase.knownMiss`). */
  knownMisses?: Partial<Record<Scenario, string>>;
}

export type Scenario = '429 Retry-After' | '503' | '401' | '404' | 'client timeout' | 'refused';

/** The six standard cases: 429 with Retry-After, 503, 401, 404, the client's own timeout, a refused port. */
export function httpCases(env: CorpusEnv, plan: HttpPlan): CorpusCase[] {
  const answered = (status: number, headers?: Record<string, string>) => () => {
    env.api.reply({ status, headers, body: plan.body(status) });
    return plan.call(env.api.url);
  };
  const cases: Array<[Scenario, () => Promise<unknown>, Expected]> = [
    ['429 Retry-After', answered(429, { 'retry-after': '2' }), outcome.rateLimit()],
    ['503', answered(503), outcome.transient()],
    ['401', answered(401), outcome.auth()],
    ['404', answered(404), outcome.permanent()],
  ];
  const { callWithTimeout } = plan;
  if (callWithTimeout) {
    const timedOut = () => {
      env.api.reply('hang');
      return callWithTimeout(env.api.url, CLIENT_TIMEOUT_MS);
    };
    cases.push(['client timeout', timedOut, outcome.timeout()]);
  }
  cases.push(['refused', () => plan.call(env.refusedUrl), outcome.network()]);
  return cases.map(([scenario, call, expected]) => ({
    scenario,
    call,
    expected: plan.expect?.[scenario] ?? expected,
    knownMiss: plan.knownMisses?.[scenario],
  }));
}
