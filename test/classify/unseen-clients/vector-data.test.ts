import { Pinecone } from '@pinecone-database/pinecone';
import { PostgrestClient } from '@supabase/postgrest-js';
import { Redis } from '@upstash/redis';
import { ChromaClient } from 'chromadb';
import { corpusEnv, outcome, type CorpusCase } from '../corpus/corpus';
import { unseenCases, unseenSuite } from './unseen';

describe('unseen clients: vector databases and data APIs over HTTP', () => {
  const env = corpusEnv();
  unseenSuite([
    {
      pkg: '@pinecone-database/pinecone',
      cases: () => {
        const describeIndex = (url: string, timeoutMs?: number) =>
          new Pinecone({
            apiKey: 'pc-key',
            controllerHostUrl: url,
            maxRetries: 0,
            // Pinecone has no timeout option: its docs hand it a fetch (`fetchApi`) for such things.
            fetchApi:
              timeoutMs === undefined
                ? undefined
                : (input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) }),
          }).describeIndex('products');
        // Pinecone's error body: `{ error: { code, message }, status }`.
        const error = {
          429: ['RESOURCE_EXHAUSTED', 'Too many requests. Please retry shortly.'],
          503: ['UNAVAILABLE', 'Service is temporarily unavailable.'],
          401: ['UNAUTHENTICATED', 'Invalid API Key'],
          404: ['NOT_FOUND', 'Resource products not found'],
        };
        return unseenCases(env, {
          call: (url) => describeIndex(url),
          callWithTimeout: (url, ms) => describeIndex(url, ms),
          body: (status) => {
            const [code, message] = error[status as keyof typeof error];
            return { error: { code, message }, status };
          },
          expect: {
            // Pinecone keeps no status: a 5xx with retries off is its PineconeMaxRetriesExceededError,
            // still a server failure; a 401 its PineconeAuthorizationError (no "401" in the text).
            '503': outcome.transient('PineconeMaxRetriesExceededError'),
            '401': outcome.auth('PineconeAuthorizationError'),
          },
        });
      },
    },
    {
      pkg: 'chromadb',
      cases: () => {
        const getCollection = (url: string, timeoutMs?: number) => {
          const { hostname, port } = new URL(url);
          return new ChromaClient({
            host: hostname,
            port: Number(port),
            ssl: false,
            // Chroma has no timeout option: `fetchOptions` are passed to every fetch it makes.
            fetchOptions: timeoutMs === undefined ? undefined : { signal: AbortSignal.timeout(timeoutMs) },
          }).getCollection({ name: 'docs' });
        };
        // Chroma's error body: `{ error, message }`.
        const error = {
          429: ['RateLimitError', 'Rate limit exceeded'],
          503: ['ServiceUnavailable', 'Service Unavailable'],
          401: ['AuthError', 'Unauthorized'],
          404: ['NotFoundError', 'Collection [docs] does not exist'],
        };
        return unseenCases(env, {
          call: (url) => getCollection(url),
          callWithTimeout: (url, ms) => getCollection(url, ms),
          body: (status) => {
            const [name, message] = error[status as keyof typeof error];
            return { error: name, message };
          },
          expect: {
            // Chroma keeps no status, only a class per status, and drops a failed fetch's cause: the
            // class is the error.type (a 429 stays `429`, as Slack's throttle without a status).
            '401': outcome.auth('ChromaUnauthorizedError'),
            '404': outcome.permanent('ChromaNotFoundError'),
            refused: outcome.network('ChromaConnectionError'),
          },
        });
      },
    },
    {
      pkg: '@supabase/postgrest-js',
      cases: () => {
        // Supabase's docs: `const { data, error } = await ...; if (error) throw error`. The error is
        // the body PostgREST sent, a plain object, or for a failed fetch one postgrest-js makes.
        const select = async (url: string, timeout?: number) => {
          const { error } = await new PostgrestClient(`${url}/rest/v1`, {
            headers: { apikey: 'anon-key' },
            timeout,
          })
            .from('todos')
            .select()
            .retry(false);
          if (error) throw error;
        };
        return unseenCases(env, {
          call: (url) => select(url),
          // `timeout` aborts the fetch with a bare `abort()`.
          callWithTimeout: (url, ms) => select(url, ms),
          body: (status) =>
            ({
              // Supabase's API gateway (Kong) answers a rate limit itself.
              429: { message: 'API rate limit exceeded' },
              503: {
                code: 'PGRST001',
                details: 'connection to server failed: Connection refused',
                hint: null,
                message: 'Database client error. Retrying the connection.',
              },
              401: { code: 'PGRST301', details: null, hint: null, message: 'JWSError JWSInvalidSignature' },
              404: {
                code: 'PGRST205',
                details: null,
                hint: "Perhaps you meant the table 'public.todo'",
                message: "Could not find the table 'public.todos' in the schema cache",
              },
            })[status],
          expect: {
            // The error is PostgREST's body and keeps no status: its PGRST code is the error.type (as
            // a SQLSTATE is for pg).
            '503': outcome.transient('PGRST001'),
            '401': outcome.auth('PGRST301'),
            '404': outcome.permanent('PGRST205'),
          },
        });
      },
    },
    {
      pkg: '@upstash/redis',
      cases: (): CorpusCase[] => {
        const get = (url: string, timeoutMs?: number) =>
          new Redis({
            url,
            token: 'upstash-token',
            retry: false,
            enableTelemetry: false,
            // The client's `signal` option; as a function it is made anew for each request (a signal
            // rather than a function turns an abort into a result, not an error).
            signal: timeoutMs === undefined ? undefined : () => AbortSignal.timeout(timeoutMs),
          }).get('session:1');
        // Upstash's REST error body: `{ error }`, Redis's reply text.
        const error = {
          429: 'ERR max concurrent connections exceeded',
          503: 'ERR service unavailable, please try again',
          401: 'WRONGPASS invalid or missing auth token',
          404: 'ERR database not found',
        };
        return [
          ...unseenCases(env, {
            call: (url) => get(url),
            callWithTimeout: (url, ms) => get(url, ms),
            body: (status) => ({ error: error[status as keyof typeof error] }),
            expect: {
              // UpstashError keeps only the reply text: no status. A Redis reply prefix that means
              // something (WRONGPASS) is the error.type, as ioredis's NOAUTH; otherwise the class.
              '503': outcome.transient('UpstashError'),
              '401': outcome.auth('WRONGPASS'),
              '404': outcome.permanent('UpstashError'),
            },
          }),
          {
            // The free plan's daily request cap: a quota, not a rate.
            scenario: '429 daily limit',
            call: () => {
              env.api.reply({
                status: 429,
                body: { error: 'ERR max daily request limit exceeded. Limit: 10000, Usage: 10000.' },
              });
              return get(env.api.url);
            },
            expected: outcome.quota(),
          },
        ];
      },
    },
  ]);
});
