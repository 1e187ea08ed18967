import Stripe from 'stripe';
import twilio from 'twilio';
import { Resend } from 'resend';
import { corpusEnv, corpusSuite, httpCases } from './corpus';

describe('classifier corpus: payments and messaging APIs', () => {
  const env = corpusEnv();
  corpusSuite([
    {
      pkg: 'stripe',
      cases: () => {
        const retrieve = (url: string, timeout?: number) => {
          const { hostname, port } = new URL(url);
          return new Stripe('sk_test_corpus', {
            host: hostname,
            port: Number(port),
            protocol: 'http',
            maxNetworkRetries: 0,
            timeout,
          }).customers.retrieve('cus_corpus');
        };
        return httpCases(env, {
          call: (url) => retrieve(url),
          callWithTimeout: (url, ms) => retrieve(url, ms),
          body: (status) => ({
            error: {
              type:
                status === 401 || status === 404 || status === 429 ? 'invalid_request_error' : 'api_error',
              code: { 429: 'rate_limit', 404: 'resource_missing' }[status as 429 | 404],
              message: `status ${status}`,
            },
          }),
        });
      },
    },
    {
      pkg: 'twilio',
      cases: () => {
        const fetchCall = (url: string, timeout?: number) => {
          const client = twilio('ACcorpus00000000000000000000000000', 'token', { timeout });
          // The REST domain's base URL, pointed at the local server.
          client.api.baseUrl = url;
          return client.api.v2010.accounts('ACcorpus00000000000000000000000000').calls('CA0').fetch();
        };
        return httpCases(env, {
          call: (url) => fetchCall(url),
          callWithTimeout: (url, ms) => fetchCall(url, ms),
          // Twilio's error body: its own error code beside the HTTP status.
          body: (status) => ({
            code: { 429: 20429, 503: 20503, 401: 20003, 404: 20404 }[status as 429],
            message: `status ${status}`,
            more_info: 'https://www.twilio.com/docs/errors',
            status,
          }),
        });
      },
    },
    {
      pkg: 'resend',
      cases: () => {
        // Resend returns `{ data, error }` rather than throwing: the tool throws the error it got.
        const send = async (url: string) => {
          const { error } = await new Resend('re_corpus', { baseUrl: url }).emails.send({
            from: 'a@example.com',
            to: 'b@example.com',
            subject: 'hi',
            text: 'hi',
          });
          if (error) throw error;
        };
        const name = {
          429: 'rate_limit_exceeded',
          503: 'application_error',
          401: 'missing_api_key',
          404: 'not_found',
        };
        return httpCases(env, {
          call: send,
          // Resend has no timeout option.
          body: (status) => ({ statusCode: status, message: `status ${status}`, name: name[status as 429] }),
          expect: {
            // Resend returns `application_error` without the connection error: only its text says network.
            refused: { errorType: 'application_error', kind: 'network', retryable: true, executed: true },
          },
        });
      },
    },
  ]);
});
