import { join } from 'node:path';
import { expect } from 'chai';
import { expectFailed, expectHalted, expectSucceeded, toolMetrics, toolSpans } from '../helpers/halted-calls';
import { describeRegisteredTwins } from '../helpers/registered-twins';

/**
 * Google ADK under the register: a tool that requires the user's confirmation (`requireConfirmation`)
 * is asked, then declined in one session and confirmed in another, beside a tool whose API answers
 * 503. ADK makes the `execute_tool` spans; the instrumentation enriches them.
 */

const FIXTURES = join(__dirname, 'fixtures');

const EXPECTED_OUTPUT = [
  'delete_file confirmed=false: {"error":"This tool call is rejected."}',
  'delete_file confirmed=true: {"deleted":"/srv/customer-4711.csv"}',
  `fetch_path: {"error":"Error in tool 'fetch_path': upstream failed"}`,
].join('\n');

describe('the register: Google ADK confirmations asked and declined are no failures', function () {
  this.timeout(180_000);
  describeRegisteredTwins(
    {
      fixtures: FIXTURES,
      fixture: 'adk-confirmations',
      stdout: `${EXPECTED_OUTPUT}\n`,
      otelEnv: { OTEL_SERVICE_NAME: 'adk-confirmations', OTEL_METRICS_EXPORTER: 'otlp' },
    },
    (exported, points) => {
      const outcomes = () =>
        toolSpans(exported(), 'delete_file').map((span) => span.attributes['tool.call.outcome']);

      it('each confirmation asked ends paused; the declined one denied; the confirmed run is an ordinary call', () => {
        expect(outcomes().sort()).to.deep.equal(['denied', 'paused', 'paused', undefined]);
        for (const span of toolSpans(exported(), 'delete_file')) {
          const outcome = span.attributes['tool.call.outcome'];
          if (outcome === undefined) expectSucceeded(span);
          else expectHalted(span, outcome as string);
        }
      });

      it('the 503 beside them stays a failure: ERROR, error.type 503, transient', () => {
        const [fetchPath, ...more] = toolSpans(exported(), 'fetch_path');
        expect(more).to.deep.equal([]);
        expectFailed(fetchPath!, '503', 'transient');
      });

      it('metrics: no tool.errors for delete_file; the duration histogram carries tool.call.outcome', () => {
        expect(toolMetrics(points(), 'delete_file')).to.deep.equal({
          durations: { paused: 2, denied: 1, ok: 1 },
          errors: 0,
        });
        expect(toolMetrics(points(), 'fetch_path')).to.deep.equal({ durations: { '503': 1 }, errors: 1 });
      });
    },
  );
});
