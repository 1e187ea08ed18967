import { join } from 'node:path';
import { expect } from 'chai';
import { expectFailed, expectHalted, expectSucceeded, toolMetrics, toolSpans } from '../helpers/halted-calls';
import { describeRegisteredTwins } from '../helpers/registered-twins';

/**
 * AI SDK `needsApproval` under the register, v6 (patched) and v7 (its telemetry integration): the model asks for a refund that needs approval
 * (the SDK stops and asks the app), the app approves it in one conversation and denies it in
 * another; a lookup tool called in the same step fails against an API answering 500.
 */

const FIXTURES = join(__dirname, 'fixtures');

const EXPECTED_OUTPUT = [
  'approved=true: 1 approval asked, 1 tool error',
  'approved=true: refund: text; done',
  'approved=false: 1 approval asked, 1 tool error',
  'approved=false: refund: execution-denied; done',
].join('\n');

// v7 is ESM-only (its app runs under --import), and its app also has a call its `toolApproval`
// policy refuses.
const POLICY_OUTPUT = 'policy: tool-call, tool-approval-request, tool-approval-response; ';
const FIXTURES_BY_VERSION = [
  ['v6', 'ai-sdk-approvals', false],
  ['v7', 'ai-sdk-v7-approvals', true],
] as const;

for (const [version, fixture, esmOnly] of FIXTURES_BY_VERSION)
  describe(`the register: AI SDK ${version} approvals asked and denied are no failures`, function () {
    this.timeout(120_000);
    describeRegisteredTwins(
      {
        fixtures: FIXTURES,
        fixture,
        esmOnly,
        stdout: esmOnly ? `${EXPECTED_OUTPUT}\n${POLICY_OUTPUT}\n` : `${EXPECTED_OUTPUT}\n`,
        otelEnv: {
          OTEL_SERVICE_NAME: 'ai-sdk-approvals',
          OTEL_METRICS_EXPORTER: 'otlp',
          // An ESM app that imports no patched package (v7 needs none) gets the ESM set-up warning
          // under --import too (the check looks for the loader hook's CommonJS module, which nothing
          // loaded): a separate bug, kept off this spec's stderr comparison.
          ...(esmOnly ? { OTEL_LOG_LEVEL: 'error' } : {}),
        },
      },
      (exported, points) => {
        const refunds = (callId: string) =>
          toolSpans(exported(), 'refund').filter((span) => span.attributes['gen_ai.tool.call.id'] === callId);

        it('a call waiting for approval gets a span of its own, paused, though execute never ran', () => {
          for (const callId of ['refund-true', 'refund-false']) {
            const paused = refunds(callId).filter(
              (span) => span.attributes['tool.call.outcome'] === 'paused',
            );
            expect(paused, callId).to.have.length(1);
            expectHalted(paused[0]!, 'paused');
          }
        });

        it('approved: the call runs, an ordinary span', () => {
          const ran = refunds('refund-true').filter(
            (span) => span.attributes['tool.call.outcome'] === undefined,
          );
          expect(ran).to.have.length(1);
          expectSucceeded(ran[0]!);
        });

        it('denied: a span of its own, denied, nothing of the reason given', () => {
          const spans = refunds('refund-false');
          expect(spans.map((span) => span.attributes['tool.call.outcome']).sort()).to.deep.equal([
            'denied',
            'paused',
          ]);
          expectHalted(
            spans.find((span) => span.attributes['tool.call.outcome'] === 'denied')!,
            'denied',
            'already refunded',
          );
        });

        if (esmOnly)
          it('a call the toolApproval policy refuses: a denied span, though nobody was asked', () => {
            const [refused, ...more] = refunds('refund-policy');
            expect(more).to.deep.equal([]);
            expectHalted(refused!, 'denied', 'manager');
          });

        it('the 500 beside them stays a failure: ERROR, error.type 500, transient', () => {
          const lookups = toolSpans(exported(), 'lookup');
          expect(lookups).to.have.length(2);
          for (const span of lookups) expectFailed(span, '500', 'transient');
        });

        it('metrics: no tool.errors for refund; the duration histogram carries tool.call.outcome', () => {
          expect(toolMetrics(points(), 'refund')).to.deep.equal({
            durations: { paused: 2, denied: esmOnly ? 2 : 1, ok: 1 },
            errors: 0,
          });
          expect(toolMetrics(points(), 'lookup')).to.deep.equal({ durations: { '500': 2 }, errors: 2 });
        });
      },
    );
  });
