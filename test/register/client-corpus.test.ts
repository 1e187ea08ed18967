import { join } from 'node:path';
import { expect } from 'chai';
import type { ReceivedSpan } from '../helpers/otlp-json-receiver';
import { describeRegisteredTwins } from '../helpers/registered-twins';

/**
 * A sample of the classifier corpus (test/classify/corpus), one case per family of API clients,
 * run as LangChain tools under the register: each tool throws what its client threw, and the
 * tool span must carry the corpus's answer, agreeing with the failed HTTP call under it.
 */

const FIXTURES = join(__dirname, 'fixtures');

const EXPECTED_OUTPUT = [
  'openai_chat: threw RateLimitError',
  'github_repo: threw RequestError',
  'stripe_customer: threw StripeAPIError',
  's3_object: threw S3ServiceException',
  'search_items: threw ResponseError',
  'http_get: threw AxiosError',
].join('\n');

/**
 * Per tool: the corpus's answer, and what the failed client span under the tool says (its status,
 * else its `error.type`). Elasticsearch's span is the client's own (`db.response.status_code`);
 * under axios's timeout the HTTP span names only the class, with no status, as a timeout has none.
 */
const CASES: Array<{
  tool: string;
  family: string;
  type: string;
  kind: string;
  retryable: boolean;
  child: string;
}> = [
  {
    tool: 'openai_chat',
    family: 'model provider (openai), 429 with Retry-After',
    type: '429',
    kind: 'rate_limit',
    retryable: true,
    child: '429',
  },
  {
    tool: 'github_repo',
    family: 'code and collaboration (@octokit/rest), refused',
    type: 'ECONNREFUSED',
    kind: 'network',
    retryable: true,
    child: 'ECONNREFUSED',
  },
  {
    tool: 'stripe_customer',
    family: 'payments (stripe), 503',
    type: '503',
    kind: 'transient',
    retryable: true,
    child: '503',
  },
  {
    tool: 's3_object',
    family: 'cloud (@aws-sdk/client-s3), 503 SlowDown',
    type: '503',
    kind: 'rate_limit',
    retryable: true,
    child: '503',
  },
  {
    tool: 'search_items',
    family: 'data (@elastic/elasticsearch), 503',
    type: '503',
    kind: 'transient',
    retryable: true,
    child: '503',
  },
  {
    tool: 'http_get',
    family: 'generic HTTP (axios), its own timeout',
    type: 'timeout',
    kind: 'timeout',
    retryable: true,
    child: 'AxiosError',
  },
];

describe('the register: API clients failing under a tool (a sample of the classifier corpus)', function () {
  this.timeout(120_000);
  describeRegisteredTwins(
    {
      fixtures: FIXTURES,
      fixture: 'client-tools',
      stdout: `${EXPECTED_OUTPUT}\n`,
      otelEnv: { OTEL_SERVICE_NAME: 'client-corpus-test', OTEL_EXPORTER_OTLP_TIMEOUT: '10000' },
    },
    (exported) => {
      function toolSpan(name: string): ReceivedSpan {
        const found = exported().filter((span) => span.attributes['gen_ai.tool.name'] === name);
        expect(found, name).to.have.length(1);
        return found[0]!;
      }

      /** What a client span says of the failure: the status it got, else its `error.type`. */
      function failureOf(child: ReceivedSpan): string {
        const { attributes } = child;
        return String(
          attributes['http.response.status_code'] ??
            attributes['db.response.status_code'] ??
            attributes['error.type'],
        );
      }

      function httpChildren(parent: ReceivedSpan): ReceivedSpan[] {
        return exported().filter((span) => span.parentSpanId === parent.spanId && span.kind === 3);
      }

      for (const c of CASES) {
        it(`${c.family}: error.type ${c.type}, ${c.kind}`, () => {
          const span = toolSpan(c.tool);
          expect({
            type: span.attributes['error.type'],
            kind: span.attributes['tool.error_kind'],
            retryable: span.attributes['tool.error_retryable'],
            executed: span.attributes['tool.error_executed'],
            statusCode: span.statusCode,
          }).to.deep.equal({
            type: c.type,
            kind: c.kind,
            retryable: c.retryable,
            executed: true,
            statusCode: 2,
          });
          const children = httpChildren(span).map((child) => failureOf(child));
          expect(children, `HTTP client spans under ${c.tool}`).to.deep.equal([c.child]);
        });
      }
    },
  );
});
