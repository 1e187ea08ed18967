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
export function unseenSuite(clients: CorpusClient[]): void {
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
