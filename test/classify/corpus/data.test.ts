import { Client as PgClient } from 'pg';
import mysql from 'mysql2/promise';
import { MongoClient } from 'mongodb';
import Redis from 'ioredis';
import { Client as ElasticClient } from '@elastic/elasticsearch';
import { QdrantClient } from '@qdrant/js-client-rest';
import {
  CLIENT_TIMEOUT_MS,
  corpusEnv,
  corpusSuite,
  httpCases,
  outcome,
  type CorpusCase,
  type Expected,
} from './corpus';
import {
  startMongoStub,
  startMysqlStub,
  startPgStub,
  startRedisStub,
  type MongoMode,
  type MysqlMode,
  type PgMode,
  type ProtocolStub,
  type RedisMode,
} from './protocol-stubs';

/** A protocol stub started once for the suite, whose next reply each case sets. */
function stub<M>(start: (mode: () => M) => Promise<ProtocolStub>, initial: M) {
  let mode = initial;
  let server: ProtocolStub | undefined;
  before(async () => {
    server = await start(() => mode);
  });
  after(() => server?.close());
  return {
    get port() {
      if (!server) throw new Error('stub not started');
      return server.port;
    },
    /** A case: the stub answers `next`, and `call` runs against it. */
    with(next: M, call: () => Promise<unknown>): () => Promise<unknown> {
      return () => {
        mode = next;
        return call();
      };
    },
  };
}

const fails = (errorType: string, kind: Expected['kind'], retryable: boolean): Expected => ({
  errorType,
  kind,
  retryable,
  executed: true,
});

describe('classifier corpus: data clients', () => {
  const env = corpusEnv();
  const pg = stub<PgMode>(startPgStub, { at: 'query', hang: true });
  const mysqlStub = stub<MysqlMode>(startMysqlStub, { at: 'handshake', hang: true });
  const redis = stub<RedisMode>(startRedisStub, { hang: true });
  const mongo = stub<MongoMode>(startMongoStub, { hang: true });
  let refusedPort = 0;
  before(() => {
    refusedPort = Number(new URL(env.refusedUrl).port);
  });

  const pgQuery = async (port: number, options: { query_timeout?: number } = {}) => {
    const client = new PgClient({ host: '127.0.0.1', port, user: 'agent', database: 'app', ...options });
    try {
      await client.connect();
      await client.query('SELECT 1');
    } finally {
      await client.end().catch(() => undefined);
    }
  };
  const mysqlQuery = async (port: number, connectTimeout?: number) => {
    const connection = await mysql.createConnection({
      host: '127.0.0.1',
      port,
      user: 'agent',
      connectTimeout,
    });
    try {
      await connection.query('SELECT 1');
    } finally {
      connection.destroy();
    }
  };
  const redisGet = async (port: number, commandTimeout?: number) => {
    const client = new Redis({
      host: '127.0.0.1',
      port,
      enableReadyCheck: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      commandTimeout,
      lazyConnect: true,
    });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.get('k');
    } finally {
      client.disconnect();
    }
  };
  const mongoFind = async (port: number, socketTimeoutMS?: number) => {
    const client = new MongoClient(`mongodb://127.0.0.1:${port}/app`, {
      directConnection: true,
      serverSelectionTimeoutMS: 1000,
      socketTimeoutMS,
      retryReads: false,
      retryWrites: false,
    });
    try {
      await client.db('app').collection('items').findOne({});
    } finally {
      await client.close(true).catch(() => undefined);
    }
  };

  corpusSuite([
    {
      pkg: 'pg',
      cases: (): CorpusCase[] => [
        {
          scenario: '28P01 password authentication failed',
          call: pg.with(
            { at: 'startup', code: '28P01', message: 'password authentication failed for user "agent"' },
            () => pgQuery(pg.port),
          ),
          expected: fails('28P01', 'auth', false),
        },
        {
          scenario: '53300 too many connections',
          call: pg.with({ at: 'startup', code: '53300', message: 'sorry, too many clients already' }, () =>
            pgQuery(pg.port),
          ),
          expected: fails('53300', 'transient', true),
        },
        {
          scenario: '57014 statement timeout',
          call: pg.with(
            { at: 'query', code: '57014', message: 'canceling statement due to statement timeout' },
            () => pgQuery(pg.port),
          ),
          expected: outcome.timeout(),
        },
        {
          scenario: '40001 serialization failure',
          call: pg.with(
            { at: 'query', code: '40001', message: 'could not serialize access due to concurrent update' },
            () => pgQuery(pg.port),
          ),
          expected: fails('40001', 'transient', true),
        },
        {
          scenario: '42P01 undefined table',
          call: pg.with({ at: 'query', code: '42P01', message: 'relation "items" does not exist' }, () =>
            pgQuery(pg.port),
          ),
          expected: fails('42P01', 'permanent', false),
        },
        {
          scenario: '23505 unique violation',
          call: pg.with(
            {
              at: 'query',
              code: '23505',
              message: 'duplicate key value violates unique constraint "items_pkey"',
            },
            () => pgQuery(pg.port),
          ),
          expected: fails('23505', 'permanent', false),
        },
        {
          scenario: 'client timeout (query_timeout)',
          call: pg.with({ at: 'query', hang: true }, () =>
            pgQuery(pg.port, { query_timeout: CLIENT_TIMEOUT_MS }),
          ),
          expected: outcome.timeout(),
        },
        { scenario: 'refused', call: () => pgQuery(refusedPort), expected: outcome.network() },
      ],
    },
    {
      pkg: 'mysql2',
      cases: (): CorpusCase[] => {
        const error = (at: 'handshake' | 'query', errno: number, sqlState: string, message: string) =>
          mysqlStub.with({ at, errno, sqlState, message }, () => mysqlQuery(mysqlStub.port));
        return [
          {
            scenario: '1045 access denied',
            call: error(
              'handshake',
              1045,
              '28000',
              "Access denied for user 'agent'@'localhost' (using password: NO)",
            ),
            expected: fails('ER_ACCESS_DENIED_ERROR', 'auth', false),
          },
          {
            scenario: '1040 too many connections',
            call: error('handshake', 1040, '08004', 'Too many connections'),
            expected: fails('ER_CON_COUNT_ERROR', 'transient', true),
          },
          {
            scenario: '1213 deadlock',
            call: error(
              'query',
              1213,
              '40001',
              'Deadlock found when trying to get lock; try restarting transaction',
            ),
            expected: fails('ER_LOCK_DEADLOCK', 'transient', true),
          },
          {
            scenario: '1146 no such table',
            call: error('query', 1146, '42S02', "Table 'app.items' doesn't exist"),
            expected: fails('ER_NO_SUCH_TABLE', 'permanent', false),
          },
          {
            scenario: '3024 max_execution_time exceeded',
            call: error(
              'query',
              3024,
              'HY000',
              'Query execution was interrupted, maximum statement execution time exceeded',
            ),
            expected: outcome.timeout(),
          },
          {
            scenario: '1205 lock wait timeout',
            call: error('query', 1205, 'HY000', 'Lock wait timeout exceeded; try restarting transaction'),
            expected: outcome.timeout(),
          },
          {
            scenario: 'client timeout (connectTimeout)',
            call: mysqlStub.with({ at: 'handshake', hang: true }, () =>
              mysqlQuery(mysqlStub.port, CLIENT_TIMEOUT_MS),
            ),
            expected: outcome.timeout(),
          },
          { scenario: 'refused', call: () => mysqlQuery(refusedPort), expected: outcome.network() },
        ];
      },
    },
    {
      pkg: 'mongodb',
      cases: (): CorpusCase[] => {
        const error = (code: number, codeName: string, errorLabels?: string[]) =>
          mongo.with(
            { error: { errmsg: codeName, code, codeName, ...(errorLabels ? { errorLabels } : {}) } },
            () => mongoFind(mongo.port),
          );
        return [
          {
            scenario: '13 Unauthorized',
            call: error(13, 'Unauthorized'),
            expected: fails('Unauthorized', 'auth', false),
          },
          {
            scenario: '50 MaxTimeMSExpired',
            call: error(50, 'MaxTimeMSExpired'),
            expected: outcome.timeout(),
          },
          {
            scenario: '91 ShutdownInProgress',
            call: error(91, 'ShutdownInProgress'),
            expected: fails('ShutdownInProgress', 'transient', true),
          },
          {
            scenario: '112 WriteConflict labelled TransientTransactionError',
            call: error(112, 'WriteConflict', ['TransientTransactionError']),
            expected: fails('WriteConflict', 'transient', true),
          },
          {
            scenario: '26 NamespaceNotFound',
            call: error(26, 'NamespaceNotFound'),
            expected: fails('NamespaceNotFound', 'permanent', false),
          },
          {
            scenario: 'client timeout (socketTimeoutMS)',
            call: mongo.with({ hang: true }, () => mongoFind(mongo.port, CLIENT_TIMEOUT_MS * 3)),
            expected: outcome.timeout(),
          },
          { scenario: 'refused', call: () => mongoFind(refusedPort), expected: outcome.network() },
        ];
      },
    },
    {
      pkg: 'ioredis',
      cases: (): CorpusCase[] => {
        const reply = (text: string) => redis.with({ reply: text }, () => redisGet(redis.port));
        return [
          {
            scenario: 'NOAUTH',
            call: reply('NOAUTH Authentication required.'),
            expected: fails('NOAUTH', 'auth', false),
          },
          {
            scenario: 'LOADING',
            call: reply('LOADING Redis is loading the dataset in memory'),
            expected: fails('LOADING', 'transient', true),
          },
          {
            scenario: 'OOM',
            call: reply("OOM command not allowed when used memory > 'maxmemory'."),
            expected: fails('OOM', 'quota', false),
          },
          {
            scenario: 'WRONGTYPE',
            call: reply('WRONGTYPE Operation against a key holding the wrong kind of value'),
            expected: fails('WRONGTYPE', 'permanent', false),
          },
          {
            scenario: 'client timeout (commandTimeout)',
            call: redis.with({ hang: true }, () => redisGet(redis.port, CLIENT_TIMEOUT_MS)),
            expected: outcome.timeout(),
          },
          {
            // ioredis 6.0.0 gives ECONNREFUSED to its 'error' event; the command fails with "Connection is closed."
            scenario: 'refused',
            call: () => redisGet(refusedPort),
            expected: { errorType: 'Error', kind: 'network', retryable: true, executed: true },
          },
        ];
      },
    },
    {
      pkg: '@elastic/elasticsearch',
      cases: () => {
        const search = (url: string, requestTimeout?: number) =>
          new ElasticClient({ node: url, maxRetries: 0, requestTimeout }).search({
            index: 'items',
            query: { match_all: {} },
          });
        const type = {
          429: 'es_rejected_execution_exception',
          503: 'cluster_block_exception',
          401: 'security_exception',
          404: 'index_not_found_exception',
        };
        return httpCases(env, {
          call: (url) => search(url),
          callWithTimeout: (url, ms) => search(url, ms),
          body: (status) => ({ error: { type: type[status as 429], reason: `status ${status}` }, status }),
        });
      },
    },
    {
      pkg: '@qdrant/js-client-rest',
      cases: () => {
        const query = (url: string, timeout?: number) =>
          new QdrantClient({ url, timeout, checkCompatibility: false }).query('items', { query: [0.1, 0.2] });
        return httpCases(env, {
          call: (url) => query(url),
          callWithTimeout: (url, ms) => query(url, ms),
          body: (status) => ({ status: { error: `status ${status}` }, time: 0 }),
        });
      },
    },
  ]);
});
