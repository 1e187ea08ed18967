import { join } from 'node:path';
import { expect } from 'chai';
import type { ReceivedSpan } from '../helpers/otlp-json-receiver';
import { describeRegisteredTwins } from '../helpers/registered-twins';

/**
 * The two API clients whose own timeout throws the same bare AbortError as a caller's cancel
 * (@google/genai, @azure/storage-blob), as AI SDK tools under the register: the abort signal the
 * SDK hands the tool tells the two apart on the tool span (test/classify/corpus/caller-signal.test.ts).
 */

const FIXTURES = join(__dirname, 'fixtures');

const EXPECTED_OUTPUT = [
  'gemini own timeout: tool-error AbortError',
  'gemini canceled by the caller: threw AbortError',
  'blob own timeout: tool-error AbortError',
  'blob canceled by the caller: threw AbortError',
].join('\n');

describe("the register: a client's own timeout or the caller's cancel under an AI SDK tool", function () {
  this.timeout(120_000);
  describeRegisteredTwins(
    {
      fixtures: FIXTURES,
      fixture: 'client-timeouts',
      stdout: `${EXPECTED_OUTPUT}\n`,
      otelEnv: { OTEL_SERVICE_NAME: 'client-timeouts-test', OTEL_EXPORTER_OTLP_TIMEOUT: '10000' },
    },
    (exported) => {
      function toolSpan(callId: string): ReceivedSpan {
        const found = exported().filter((span) => span.attributes['gen_ai.tool.call.id'] === callId);
        expect(found, callId).to.have.length(1);
        return found[0]!;
      }

      function errorOf(span: ReceivedSpan) {
        return {
          type: span.attributes['error.type'],
          kind: span.attributes['tool.error_kind'],
          retryable: span.attributes['tool.error_retryable'],
          executed: span.attributes['tool.error_executed'],
          statusCode: span.statusCode,
        };
      }

      for (const tool of ['gemini', 'blob']) {
        it(`${tool}: its own timeout, the caller's signal not aborted -> timeout`, () => {
          expect(errorOf(toolSpan(`${tool}-timeout`))).to.deep.equal({
            type: 'timeout',
            kind: 'timeout',
            retryable: true,
            executed: true,
            statusCode: 2,
          });
        });

        it(`${tool}: the caller aborts -> canceled`, () => {
          expect(errorOf(toolSpan(`${tool}-canceled`))).to.deep.equal({
            type: 'AbortError',
            kind: 'canceled',
            retryable: false,
            executed: false,
            statusCode: 2,
          });
        });
      }
    },
  );
});
