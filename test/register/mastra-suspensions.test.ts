import { join } from 'node:path';
import { expect } from 'chai';
import { expectFailed, expectHalted, expectSucceeded, toolMetrics, toolSpans } from '../helpers/halted-calls';
import { describeRegisteredTwins } from '../helpers/registered-twins';

/**
 * Mastra under the register: a workflow step made from a tool suspends for a human's approval
 * (`suspend()`), and the run is resumed with `resumeData`, approved once and declined once; an
 * agent's tool does the same (`context.agent.suspend()`, `resumeGenerate`); a lookup tool whose
 * API answers 500 runs as a step of another workflow.
 */

const FIXTURES = join(__dirname, 'fixtures');

const EXPECTED_OUTPUT = [
  'approved=true: suspended',
  'approved=true: success {"done":"refunded 42 EUR"}',
  'approved=false: suspended',
  'approved=false: success {"done":"declined"}',
  'agent approved=true: suspended',
  'agent approved=true: {"done":"refunded 42 EUR"} done',
  'agent approved=false: suspended',
  'agent approved=false: {"done":"declined"} done',
  'lookup: failed',
].join('\n');

describe('the register: a Mastra tool that suspends is no failure', function () {
  this.timeout(180_000);
  describeRegisteredTwins(
    {
      fixtures: FIXTURES,
      fixture: 'mastra-suspensions',
      stdout: `${EXPECTED_OUTPUT}\n`,
      otelEnv: { OTEL_SERVICE_NAME: 'mastra-suspensions', OTEL_METRICS_EXPORTER: 'otlp' },
    },
    (exported, points) => {
      const refunds = () => toolSpans(exported(), 'refund');

      it('suspend(): each call that suspends ends paused, without the question put to the human', () => {
        const paused = refunds().filter((span) => span.attributes['tool.call.outcome'] !== undefined);
        expect(paused).to.have.length(2);
        for (const span of paused) expectHalted(span, 'paused', '4111');
      });

      it('resumed with resumeData: the tool runs again, a call of its own, approved or declined', () => {
        const resumed = refunds().filter((span) => span.attributes['tool.call.outcome'] === undefined);
        expect(resumed).to.have.length(2);
        for (const span of resumed) expectSucceeded(span);
      });

      it("an agent's tool that suspends: paused, with the agent's call id; resumeGenerate runs it again", () => {
        for (const callId of ['approving', 'declining']) {
          const spans = toolSpans(exported(), 'agent_refund').filter(
            (span) => span.attributes['gen_ai.tool.call.id'] === callId,
          );
          expect(spans.map((span) => span.attributes['tool.call.outcome'] ?? 'ran')).to.deep.equal([
            'paused',
            'ran',
          ]);
          expectHalted(spans[0]!, 'paused', '4111');
          expectSucceeded(spans[1]!);
        }
      });

      it('the 500 beside them stays a failure: ERROR, error.type 500, transient', () => {
        const [lookup, ...more] = toolSpans(exported(), 'lookup');
        expect(more).to.deep.equal([]);
        expectFailed(lookup!, '500', 'transient');
      });

      it('metrics: no tool.errors for refund; the duration histogram carries tool.call.outcome', () => {
        expect(toolMetrics(points(), 'refund')).to.deep.equal({ durations: { paused: 2, ok: 2 }, errors: 0 });
        expect(toolMetrics(points(), 'agent_refund')).to.deep.equal({
          durations: { paused: 2, ok: 2 },
          errors: 0,
        });
        expect(toolMetrics(points(), 'lookup')).to.deep.equal({ durations: { '500': 1 }, errors: 1 });
      });
    },
  );
});
