import { GraphQLClient } from 'graphql-request';
import { ofetch } from 'ofetch';
import wretch from 'wretch';
import AbortAddon from 'wretch/addons/abort';
import { corpusEnv } from '../corpus/corpus';
import { unseenCases, unseenSuite } from './unseen';

const body = (status: number) => ({ error: `status ${status}` });

describe('unseen clients: fetch wrappers and GraphQL', () => {
  const env = corpusEnv();
  unseenSuite([
    {
      pkg: 'ofetch',
      cases: () =>
        unseenCases(env, {
          call: (url) => ofetch(`${url}/items`, { retry: 0 }),
          // `timeout` aborts with an Error named TimeoutError as the signal's reason.
          callWithTimeout: (url, ms) => ofetch(`${url}/items`, { retry: 0, timeout: ms }),
          body,
        }),
    },
    {
      pkg: 'wretch',
      cases: () =>
        unseenCases(env, {
          // wretch does not retry unless its retry middleware is added.
          call: (url) => wretch(`${url}/items`).get().json(),
          // The abort addon's `setTimeout` aborts with a bare `abort()`.
          callWithTimeout: (url, ms) =>
            wretch(`${url}/items`).addon(AbortAddon()).get().setTimeout(ms).json(),
          body,
        }),
    },
    {
      pkg: 'graphql-request',
      cases: () => {
        const query = (url: string, timeoutMs?: number) =>
          new GraphQLClient(`${url}/graphql`).request({
            document: 'query { viewer { login } }',
            // graphql-request has no timeout option: its docs pass a signal.
            signal: timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs),
          });
        // A GraphQL server's error body (Apollo Server's codes in `extensions`).
        const error = {
          429: ['Too many requests, please try again later.', 'RATE_LIMITED'],
          503: ['Service Unavailable', 'SERVICE_UNAVAILABLE'],
          401: ['You must be logged in to query this schema', 'UNAUTHENTICATED'],
          404: ['Not Found', 'NOT_FOUND'],
        };
        return unseenCases(env, {
          call: (url) => query(url),
          callWithTimeout: (url, ms) => query(url, ms),
          body: (status) => {
            const [message, code] = error[status as keyof typeof error];
            return { errors: [{ message, extensions: { code } }], data: null };
          },
        });
      },
    },
  ]);
});
