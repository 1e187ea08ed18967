import { join } from 'node:path';
import { expect } from 'chai';
import { expectFailed, expectHalted, expectSucceeded, toolMetrics, toolSpans } from '../helpers/halted-calls';
import { describeRegisteredTwins } from '../helpers/registered-twins';

/**
 * LangGraph under the register, as users run it: a refund tool asks a human with `interrupt()` and
 * the graph (with a checkpointer) is resumed with `Command({ resume })`, approved once and declined
 * once; a support agent hands the customer to billing with `Command.PARENT`; a lookup tool's API
 * answers 500 in the same runs. CJS under `--require`, its ESM twin under `--import`.
 */

const FIXTURES = join(__dirname, 'fixtures');

const EXPECTED_OUTPUT = [
  'refund yes: paused with 1 question',
  'refund yes: success refunded 42 EUR; error Error: upstream failed',
  'refund no: paused with 1 question',
  'refund no: success refund declined by the customer; error Error: upstream failed',
  'handoff: billing here',
].join('\n');

describe('the register: LangGraph interrupts and handoffs are no failures', function () {
  this.timeout(120_000);
  describeRegisteredTwins(
    {
      fixtures: FIXTURES,
      fixture: 'langgraph-approvals',
      stdout: `${EXPECTED_OUTPUT}\n`,
      otelEnv: { OTEL_SERVICE_NAME: 'langgraph-pauses', OTEL_METRICS_EXPORTER: 'otlp' },
    },
    (exported, points) => {
      const turn = (name: string) => {
        const found = exported().filter((span) => span.name === name);
        expect(found, name).to.have.length(1);
        return found[0]!;
      };

      it('interrupt(): each pause ends its span paused, unmarked, without the question put to the human', () => {
        const refunds = toolSpans(exported(), 'refund');
        expect(refunds, 'two pauses, two resumed runs').to.have.length(4);
        const paused = refunds.filter((span) => span.attributes['tool.call.outcome'] !== undefined);
        expect(paused).to.have.length(2);
        for (const span of paused) expectHalted(span, 'paused', '4111');
        for (const answer of ['yes', 'no']) {
          const { traceId } = turn(`ask ${answer}`);
          expect(paused.filter((span) => span.traceId === traceId)).to.have.length(1);
        }
      });

      it('Command({ resume }): the resumed run is a call of its own, in the trace of the resume, approved or declined', () => {
        const resumed = toolSpans(exported(), 'refund').filter(
          (span) => span.attributes['tool.call.outcome'] === undefined,
        );
        expect(resumed).to.have.length(2);
        for (const span of resumed) expectSucceeded(span);
        for (const answer of ['yes', 'no']) {
          const { traceId } = turn(`resume ${answer}`);
          expect(resumed.filter((span) => span.traceId === traceId)).to.have.length(1);
        }
      });

      it('Command.PARENT: the tool that hands off to another agent ends handoff', () => {
        const [transfer, ...more] = toolSpans(exported(), 'transfer_to_billing');
        expect(more).to.deep.equal([]);
        expectHalted(transfer!, 'handoff');
      });

      it('the 500 beside them stays a failure: ERROR, error.type 500, transient', () => {
        const lookups = toolSpans(exported(), 'lookup');
        expect(lookups).to.have.length(2);
        for (const span of lookups) expectFailed(span, '500', 'transient');
      });

      it('metrics: tool.errors counts the 500s only; the duration histogram carries tool.call.outcome', () => {
        expect(toolMetrics(points(), 'refund')).to.deep.equal({ durations: { paused: 2, ok: 2 }, errors: 0 });
        expect(toolMetrics(points(), 'transfer_to_billing')).to.deep.equal({
          durations: { handoff: 1 },
          errors: 0,
        });
        expect(toolMetrics(points(), 'lookup')).to.deep.equal({ durations: { '500': 2 }, errors: 2 });
      });
    },
  );
});
