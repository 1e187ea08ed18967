import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { RETRY_AFTER_HEADERS } from '../../src/semconv';
import { describeRegisteredTwins } from '../helpers/registered-twins';

/**
 * The headline case under the register, as users run it: a LangChain tool calls `fetch`, gets a
 * 500 (or 404, or 429), and throws `new Error('upstream failed')`. The wrapper marks the span from
 * the bare Error; the processor then finds the failed HTTP call under it, a stronger answer.
 * Child processes with `--require` (CJS app) and `--import` (ESM app), exporting OTLP/JSON to a
 * receiver on 127.0.0.1.
 */

const FIXTURES = join(__dirname, 'fixtures');

const EXPECTED_OUTPUT = [
  'weather: threw Error: upstream failed',
  'lookup: threw Error: upstream failed',
  'limited: threw Error: upstream failed',
  'quota: threw Error: upstream failed',
  'clock: ok',
].join('\n');

describe('the register: a failed HTTP call under a tool that throws a bare Error', function () {
  this.timeout(120_000);
  it('the programmatic set-up page shows the headers the register records', () => {
    const readme = readFileSync(join(__dirname, '..', '..', 'docs', 'programmatic-setup.md'), 'utf8');
    const listed = `responseHeaders: [${RETRY_AFTER_HEADERS.map((h) => `'${h}'`).join(', ')}]`;
    expect(readme.split(listed).length - 1, listed).to.equal(2);
  });

  describeRegisteredTwins(
    {
      fixtures: FIXTURES,
      fixture: 'upstream-tools',
      stdout: `${EXPECTED_OUTPUT}\n`,
      otelEnv: { OTEL_SERVICE_NAME: 'upstream-test' },
    },
    (exported) => {
      function toolError(name: string) {
        const spans = exported();
        const found = spans.filter((span) => span.attributes['gen_ai.tool.name'] === name);
        expect(found, `${name} in ${JSON.stringify(spans.map((s) => s.name))}`).to.have.length(1);
        const { attributes, statusCode } = found[0]!;
        return {
          type: attributes['error.type'],
          kind: attributes['tool.error_kind'],
          retryable: attributes['tool.error_retryable'],
          executed: attributes['tool.error_executed'],
          statusCode,
        };
      }

      it('500: error.type 500, transient, retryable (the HTTP child outranks the bare Error)', () => {
        expect(toolError('weather')).to.deep.equal({
          type: '500',
          kind: 'transient',
          retryable: true,
          executed: true,
          statusCode: 2,
        });
      });

      it('404: permanent', () => {
        expect(toolError('lookup')).to.include({ type: '404', kind: 'permanent', retryable: false });
      });

      it('429 with Retry-After: rate_limit, from the header the register records', () => {
        expect(toolError('limited')).to.include({ type: '429', kind: 'rate_limit', retryable: true });
      });

      it('429 without Retry-After, nothing of the response but its status on the span: rate_limit', () => {
        expect(toolError('quota')).to.include({ type: '429', kind: 'rate_limit', retryable: true });
      });

      it('a tool that succeeded: no error attributes', () => {
        expect(toolError('clock')).to.deep.equal({
          type: undefined,
          kind: undefined,
          retryable: undefined,
          executed: undefined,
          statusCode: 0,
        });
      });
    },
  );
});
