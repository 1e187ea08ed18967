import { join } from 'node:path';
import { expect } from 'chai';
import { expectFailed, expectHalted, expectSucceeded, toolMetrics, toolSpans } from '../helpers/halted-calls';
import { describeRegisteredTwins } from '../helpers/registered-twins';

/**
 * OpenAI Agents `needsApproval` under the register: the run is interrupted for a refund's approval;
 * the app approves it in one run and rejects it in another, resuming from the run state; a lookup
 * tool in the same turn fails against an API answering 500.
 */

const FIXTURES = join(__dirname, 'fixtures');

const FAILED_TEXT = 'An error occurred while running the tool. Please try again.';
const EXPECTED_OUTPUT = [
  'approve=true: 1 approval asked',
  `approve=true: lookup-true: ${FAILED_TEXT}; refund-true: refunded 42 EUR; done`,
  'approve=false: 1 approval asked',
  `approve=false: lookup-false: ${FAILED_TEXT}; refund-false: Tool execution was not approved.; done`,
].join('\n');

describe('the register: OpenAI Agents approvals asked and rejected are no failures', function () {
  this.timeout(120_000);
  describeRegisteredTwins(
    {
      fixtures: FIXTURES,
      fixture: 'openai-agents-approvals',
      stdout: `${EXPECTED_OUTPUT}\n`,
      otelEnv: { OTEL_SERVICE_NAME: 'openai-agents-approvals', OTEL_METRICS_EXPORTER: 'otlp' },
    },
    (exported, points) => {
      const refunds = (callId: string) =>
        toolSpans(exported(), 'refund').filter((span) => span.attributes['gen_ai.tool.call.id'] === callId);
      const outcomes = (callId: string) =>
        refunds(callId)
          .map((span) => String(span.attributes['tool.call.outcome'] ?? 'ran'))
          .sort();

      it('the run interrupted for approval: a paused span for the call, though the tool never ran', () => {
        for (const callId of ['refund-true', 'refund-false']) {
          const [paused, ...more] = refunds(callId).filter(
            (span) => span.attributes['tool.call.outcome'] === 'paused',
          );
          expect(more, callId).to.deep.equal([]);
          expectHalted(paused!, 'paused');
        }
      });

      it('approved: the resumed run calls the tool, an ordinary span', () => {
        expect(outcomes('refund-true')).to.deep.equal(['paused', 'ran']);
        expectSucceeded(
          refunds('refund-true').find((span) => span.attributes['tool.call.outcome'] === undefined)!,
        );
      });

      it('rejected: a denied span, no failure, though the model gets the rejection text', () => {
        expect(outcomes('refund-false')).to.deep.equal(['denied', 'paused']);
        expectHalted(
          refunds('refund-false').find((span) => span.attributes['tool.call.outcome'] === 'denied')!,
          'denied',
        );
      });

      it('the 500 beside them stays a failure: ERROR, error.type 500, transient', () => {
        const lookups = toolSpans(exported(), 'lookup');
        expect(lookups).to.have.length(2);
        for (const span of lookups) expectFailed(span, '500', 'transient');
      });

      it('metrics: no tool.errors for refund; the duration histogram carries tool.call.outcome', () => {
        expect(toolMetrics(points(), 'refund')).to.deep.equal({
          durations: { paused: 2, denied: 1, ok: 1 },
          errors: 0,
        });
        expect(toolMetrics(points(), 'lookup')).to.deep.equal({ durations: { '500': 2 }, errors: 2 });
      });
    },
  );
});
