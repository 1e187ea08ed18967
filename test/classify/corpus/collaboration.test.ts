import { Octokit } from '@octokit/rest';
import { WebClient } from '@slack/web-api';
import { Client as NotionClient } from '@notionhq/client';
import { LinearClient } from '@linear/sdk';
import { corpusEnv, corpusSuite, httpCases, outcome, type CorpusCase } from './corpus';

describe('classifier corpus: code and collaboration APIs', () => {
  const env = corpusEnv();
  const octokit = (url: string, timeoutMs?: number) =>
    new Octokit({
      baseUrl: url,
      // Octokit has no timeout option of its own: its README passes a signal.
      request: timeoutMs === undefined ? {} : { signal: AbortSignal.timeout(timeoutMs) },
    }).rest.repos.get({ owner: 'octo', repo: 'hello' });
  const slack = (url: string, timeout?: number) =>
    new WebClient('xoxb-test', {
      slackApiUrl: `${url}/api/`,
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
      timeout,
    }).chat.postMessage({ channel: 'C123', text: 'hi' });

  corpusSuite([
    {
      pkg: '@octokit/rest',
      cases: () => [
        ...httpCases(env, {
          call: (url) => octokit(url),
          callWithTimeout: (url, ms) => octokit(url, ms),
          body: (status) => ({
            message: `status ${status}`,
            documentation_url: 'https://docs.github.com/rest',
            status: String(status),
          }),
        }),
        {
          // GitHub's primary rate limit: 403 with x-ratelimit-remaining 0 and the reset time.
          scenario: '403 x-ratelimit-remaining: 0',
          call: () => {
            env.api.reply({
              status: 403,
              headers: {
                'x-ratelimit-limit': '5000',
                'x-ratelimit-remaining': '0',
                'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 60),
              },
              body: {
                message: 'API rate limit exceeded for user ID 1.',
                documentation_url: 'https://docs.github.com/rest',
              },
            });
            return octokit(env.api.url);
          },
          expected: outcome.rateLimit('403'),
        },
      ],
    },
    {
      pkg: '@slack/web-api',
      cases: (): CorpusCase[] => {
        const platformError =
          (error: string): (() => Promise<unknown>) =>
          () => {
            // Slack answers most API errors with HTTP 200 and `ok: false`.
            env.api.reply({ status: 200, body: { ok: false, error } });
            return slack(env.api.url);
          };
        return [
          ...httpCases(env, {
            call: (url) => slack(url),
            callWithTimeout: (url, ms) => slack(url, ms),
            body: () => ({ ok: false, error: 'request_failed' }),
            // Slack reports a refused credential as HTTP 200 `invalid_auth`, below; a real 401 is rare.
          }),
          {
            scenario: 'ok:false invalid_auth',
            call: platformError('invalid_auth'),
            expected: outcome.auth('invalid_auth'),
          },
          {
            scenario: 'ok:false channel_not_found',
            call: platformError('channel_not_found'),
            expected: outcome.permanent('channel_not_found'),
          },
        ];
      },
    },
    {
      pkg: '@notionhq/client',
      cases: () => {
        const retrieve = (url: string, timeoutMs?: number) =>
          new NotionClient({ auth: 'secret_test', baseUrl: url, timeoutMs, retry: false }).pages.retrieve({
            page_id: '00000000-0000-0000-0000-000000000000',
          });
        const code = {
          429: 'rate_limited',
          503: 'service_unavailable',
          401: 'unauthorized',
          404: 'object_not_found',
        };
        return httpCases(env, {
          call: (url) => retrieve(url),
          callWithTimeout: (url, ms) => retrieve(url, ms),
          body: (status) => ({
            object: 'error',
            status,
            code: code[status as keyof typeof code],
            message: `status ${status}`,
          }),
        });
      },
    },
    {
      pkg: '@linear/sdk',
      cases: () => {
        // Linear's `extensions.type` values (the SDK's errorMap).
        const type = {
          429: 'ratelimited',
          503: 'internal error',
          401: 'authentication error',
          404: 'invalid input',
        };
        const code = {
          429: 'RATELIMITED',
          503: 'INTERNAL_SERVER_ERROR',
          401: 'AUTHENTICATION_ERROR',
          404: 'ENTITY_NOT_FOUND',
        };
        return httpCases(env, {
          call: (url) => new LinearClient({ apiKey: 'lin_api_test', apiUrl: `${url}/graphql` }).viewer,
          // The Linear SDK has no timeout option.
          body: (status) => ({
            errors: [
              {
                message: `status ${status}`,
                extensions: {
                  type: type[status as keyof typeof type],
                  code: code[status as keyof typeof code],
                  userPresentableMessage: `status ${status}`,
                },
              },
            ],
          }),
        });
      },
    },
  ]);
});
