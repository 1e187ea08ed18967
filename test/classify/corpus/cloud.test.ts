import { S3Client, GetObjectCommand } from '@aws-sdk/client-s3';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { BlobServiceClient } from '@azure/storage-blob';
import { Storage } from '@google-cloud/storage';
import {
  corpusEnv,
  corpusSuite,
  httpCases,
  outcome,
  type CorpusCase,
  type CorpusEnv,
  type Expected,
} from './corpus';

const awsConfig = (url: string, requestTimeout?: number) => ({
  region: 'us-east-1',
  endpoint: url,
  credentials: { accessKeyId: 'AKIDCORPUS', secretAccessKey: 'corpus-secret' },
  maxAttempts: 1,
  // Without throwOnRequestTimeout the handler only logs a warning when the timeout passes.
  requestHandler: { requestTimeout, throwOnRequestTimeout: true },
});

/** The XML error body of S3 and Azure Storage. */
const xmlError = (code: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${code}</Message></Error>`;

/** A case whose reply is not one of the six standard ones. */
function replyCase(
  env: CorpusEnv,
  scenario: string,
  reply: { status: number; headers?: Record<string, string>; body?: unknown },
  call: (url: string) => Promise<unknown>,
  expected: Expected,
): CorpusCase {
  return {
    scenario,
    call: () => {
      env.api.reply(reply);
      return call(env.api.url);
    },
    expected,
  };
}

describe('classifier corpus: cloud SDKs', () => {
  const env = corpusEnv();
  const s3 = (url: string, timeout?: number) =>
    new S3Client({ ...awsConfig(url, timeout), forcePathStyle: true }).send(
      new GetObjectCommand({ Bucket: 'corpus', Key: 'k' }),
    );
  const dynamo = (url: string, timeout?: number) =>
    new DynamoDBClient(awsConfig(url, timeout)).send(
      new GetItemCommand({ TableName: 'corpus', Key: { id: { S: '1' } } }),
    );
  /** DynamoDB's error: HTTP 400 (most of them) with the exception's name in `__type`. */
  const dynamoError = (status: number, type: string) => ({
    status,
    headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-errortype': type },
    body: { __type: `com.amazonaws.dynamodb.v20120810#${type}`, message: type },
  });
  // Azure's `tryTimeoutInMs` is a server-side timeout; on the client its SDK takes an abort signal.
  const blob = (url: string, timeoutMs?: number) =>
    new BlobServiceClient(`${url}/corpusaccount`, undefined, { retryOptions: { maxTries: 1 } })
      .getContainerClient('corpus')
      .getBlobClient('k')
      .download(0, undefined, timeoutMs === undefined ? {} : { abortSignal: AbortSignal.timeout(timeoutMs) });
  const gcs = (url: string, timeout?: number) =>
    new Storage({ apiEndpoint: url, projectId: 'corpus', retryOptions: { autoRetry: false }, timeout })
      .bucket('corpus')
      .file('k')
      .getMetadata();

  corpusSuite([
    {
      pkg: '@aws-sdk/client-s3',
      label: 'AWS SDK S3 (@aws-sdk/client-s3)',
      cases: () => [
        ...httpCases(env, {
          call: (url) => s3(url),
          callWithTimeout: (url, ms) => s3(url, ms),
          body: (status) =>
            xmlError(
              { 429: 'TooManyRequests', 503: 'ServiceUnavailable', 401: 'Unauthorized', 404: 'NoSuchKey' }[
                status as 429
              ],
            ),
        }),
        // S3 throttles with 503 SlowDown, which the SDK declares as throttling.
        replyCase(
          env,
          '503 SlowDown',
          { status: 503, body: xmlError('SlowDown') },
          s3,
          outcome.rateLimit('503'),
        ),
        replyCase(
          env,
          '403 InvalidAccessKeyId',
          { status: 403, body: xmlError('InvalidAccessKeyId') },
          s3,
          outcome.auth('403'),
        ),
      ],
    },
    {
      pkg: '@aws-sdk/client-dynamodb',
      label: 'AWS SDK DynamoDB (@aws-sdk/client-dynamodb)',
      cases: () => [
        replyCase(
          env,
          '400 ThrottlingException',
          dynamoError(400, 'ThrottlingException'),
          dynamo,
          outcome.rateLimit('400'),
        ),
        replyCase(
          env,
          '400 ProvisionedThroughputExceededException',
          dynamoError(400, 'ProvisionedThroughputExceededException'),
          dynamo,
          outcome.rateLimit('400'),
        ),
        replyCase(
          env,
          '503 ServiceUnavailable',
          dynamoError(503, 'ServiceUnavailable'),
          dynamo,
          outcome.transient(),
        ),
        replyCase(
          env,
          '400 UnrecognizedClientException',
          dynamoError(400, 'UnrecognizedClientException'),
          dynamo,
          outcome.auth('400'),
        ),
        replyCase(
          env,
          '400 ResourceNotFoundException',
          dynamoError(400, 'ResourceNotFoundException'),
          dynamo,
          outcome.permanent('400'),
        ),
        ...httpCases(env, {
          call: (url) => dynamo(url),
          callWithTimeout: (url, ms) => dynamo(url, ms),
          body: () => ({}),
        }).filter((c) => c.scenario === 'client timeout' || c.scenario === 'refused'),
      ],
    },
    {
      pkg: '@azure/storage-blob',
      label: 'Azure Storage Blob (@azure/storage-blob)',
      cases: () => {
        const code = {
          429: 'TooManyRequests',
          503: 'ServerBusy',
          401: 'NoAuthenticationInformation',
          404: 'BlobNotFound',
        };
        return httpCases(env, {
          call: (url) => blob(url),
          callWithTimeout: (url, ms) => blob(url, ms),
          body: (status) => xmlError(code[status as 429]),
          knownMisses: {
            // @azure/storage-blob 12.32.0 rejects with its own AbortError and drops the signal's
            // TimeoutError reason: the same error as a caller's abort. On an AI SDK tool span the
            // caller's abort signal tells them apart (caller-signal.test.ts).
            'client timeout': "the client drops the signal's reason",
          },
        });
      },
    },
    {
      pkg: '@google-cloud/storage',
      label: 'Google Cloud Storage (@google-cloud/storage)',
      cases: () =>
        httpCases(env, {
          call: (url) => gcs(url),
          callWithTimeout: (url, ms) => gcs(url, ms),
          body: (status) => ({
            error: {
              code: status,
              message: `status ${status}`,
              errors: [
                {
                  message: `status ${status}`,
                  domain: 'global',
                  reason: { 429: 'rateLimitExceeded', 503: 'backendError', 401: 'required', 404: 'notFound' }[
                    status as 429
                  ],
                },
              ],
            },
          }),
        }),
    },
  ]);
});
