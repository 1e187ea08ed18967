import { appendFileSync } from 'node:fs';
import { classifyToolError } from '../../../src';
import {
  corpusSuite,
  httpCases,
  outcome,
  type CorpusCase,
  type CorpusClient,
  type CorpusEnv,
  type Expected,
  type HttpPlan,
} from '../corpus/corpus';
import { describeShape } from './shape';

/** The scenarios of the second corpus beyond the six of `httpCases`. */
export type ExtraScenario = '429 without Retry-After';

export interface UnseenPlan extends HttpPlan {
  /** Expectations for the extra scenarios that differ from the taxonomy's default (with the reason). */
  expectExtra?: Partial<Record<ExtraScenario, Expected>>;
  /** Leaves out `429 without Retry-After` (the client waits for the limit itself, say). */
  no429WithoutRetryAfter?: string;
}

/**
 * The six standard cases, then a 429 that carries no `Retry-After`: `rate_limit` all the same, as
 * nothing in it speaks of a quota (billing, credits, a daily or monthly limit).
 */
export function unseenCases(env: CorpusEnv, plan: UnseenPlan): CorpusCase[] {
  const cases = httpCases(env, plan);
  if (!plan.no429WithoutRetryAfter) {
    cases.push({
      scenario: '429 without Retry-After',
      call: () => {
        env.api.reply({ status: 429, body: plan.body(429) });
        return plan.call(env.api.url);
      },
      expected: plan.expectExtra?.['429 without Retry-After'] ?? outcome.rateLimit(),
    });
  }
  return cases;
}

/**
 * `corpusSuite`, and when `UNSEEN_SHAPES_OUT` names a file, one JSON line per case appended to it:
 * the client, the scenario, the expectation, what the classifier answered and the thrown error's
 * shape (for SHAPES.md and BEFORE.md; the specs themselves do not read it).
 */
export function unseenSuite(all: CorpusClient[]): void {
  const clients = all.map(withTables);
  const out = process.env.UNSEEN_SHAPES_OUT;
  if (!out) return corpusSuite(clients);
  corpusSuite(
    clients.map((client) => ({
      ...client,
      cases: () =>
        client.cases().map((c) => ({
          ...c,
          call: async () => {
            try {
              return await c.call();
            } catch (err) {
              const { errorType, kind, retryable, executed, retryAfterMs } = classifyToolError(err);
              const line = {
                client: client.label ?? client.pkg,
                pkg: client.pkg,
                scenario: c.scenario,
                expected: c.expected,
                actual: { errorType, kind, retryable, executed, retryAfterMs },
                shape: describeShape(err),
              };
              appendFileSync(out, `${JSON.stringify(line)}\n`);
              throw err;
            }
          },
        })),
    })),
  );
}

/**
 * Clients that keep the response's headers on their error: a 429 without `Retry-After` or any
 * rate-limit header among them is a quota (the taxonomy's rule where the headers were seen; Node
 * servers send only `keep-alive: timeout=5` there).
 */
const KEEPS_HEADERS = new Set([
  'ofetch',
  'wretch',
  'graphql-request',
  '@hubspot/api-client',
  '@sendgrid/client',
  'replicate',
  'meilisearch',
]);

/**
 * What the classifier still gets wrong, and why: the evidence is gone from what the client threw,
 * or only a client-specific rule could read it (docs/api-clients.md). Each spec checks the answer
 * is still wrong, so the day it is right the case is updated.
 */
const KNOWN_MISSES: Readonly<Record<string, Partial<Record<string, string>>>> = {
  wretch: { 'client timeout': 'a bare AbortError: the timeout it enforced is not on what it throws' },
  '@discordjs/rest': {
    '429 Retry-After': 'RateLimitError keeps no status: the class names the kind, not the 429',
    '429 without Retry-After': 'RateLimitError keeps no status: the class names the kind, not the 429',
    'client timeout': 'a bare AbortError: the timeout it enforced is not on what it throws',
  },
  algoliasearch: {
    '503': "RetryError ('Unreachable hosts'): the status is only in its stackTrace of attempts",
    'client timeout': 'RetryError: the timeout is only an isTimedOut flag in its stackTrace of attempts',
    refused: 'RetryError: the connection error is only text in its stackTrace of attempts',
  },
  '@pinecone-database/pinecone': {
    '503': 'PineconeMaxRetriesExceededError keeps no status after its own retries',
    '401': "PineconeAuthorizationError: no status, and 'Authorization' is no part the name rules read",
    '404':
      "PineconeNotFoundError: the status is only in 'returned HTTP status 404', after the class's own evidence",
  },
  chromadb: {
    '429 Retry-After': 'ChromaRateLimitError keeps no status: the class names the kind, not the 429',
    '429 without Retry-After': 'ChromaRateLimitError keeps no status: the class names the kind, not the 429',
    'client timeout': 'ChromaConnectionError with no cause: the timeout is gone',
  },
  '@supabase/postgrest-js': {
    '429 Retry-After': 'a plain { message, code } object with no status',
    '429 without Retry-After': 'a plain { message, code } object with no status',
    '503': 'a plain object with a PGRST code and no status',
    '401': 'a plain object with a PGRST code and no status',
    '404': 'a plain object with a PGRST code and no status',
    'client timeout': "a plain object whose message is 'AbortError: …': the timeout is gone",
    refused: "a plain object whose message is 'TypeError: fetch failed': the code is gone",
  },
  '@upstash/redis': {
    '429 Retry-After': "UpstashError with only Redis-style text ('ERR max concurrent connections exceeded')",
    '429 without Retry-After':
      "UpstashError with only Redis-style text ('ERR max concurrent connections exceeded')",
    '503': 'UpstashError with only text',
    '401': "UpstashError: 'WRONGPASS' is a Redis reply read only from a Redis client's error",
    '404': 'UpstashError with only text',
    '429 daily limit': 'UpstashError with only text: no status for the quota words to decide',
  },
};

function withTables(client: CorpusClient): CorpusClient {
  const misses = KNOWN_MISSES[client.pkg] ?? {};
  return {
    ...client,
    cases: () =>
      client.cases().map((c) => ({
        ...c,
        expected:
          c.scenario === '429 without Retry-After' && KEEPS_HEADERS.has(client.pkg)
            ? outcome.quota()
            : c.expected,
        knownMiss: c.knownMiss ?? misses[c.scenario],
      })),
  };
}
