import type { ToolErrorKind } from './kinds';
import { read, readNumber, readString } from './safe';

/**
 * The database drivers' own error replies: SQLSTATE (PostgreSQL, MySQL), MongoDB's server codes
 * and Redis's reply prefixes. The server's answer, so as strong as a code.
 */
export interface DatabaseAnswer {
  kind: ToolErrorKind;
  /** The driver's code for the error: SQLSTATE (pg), `ER_*` (mysql2), `codeName` (MongoDB), the reply prefix (Redis). */
  errorType: string;
}

const SQLSTATE = /^[0-9A-Z]{5}$/;

/** The kind for a SQLSTATE, by its class (the first two characters) and a few exact codes. */
export function kindForSqlState(state: string): ToolErrorKind | undefined {
  switch (state) {
    case '57014': // query_canceled: statement_timeout (PostgreSQL)
      return 'timeout';
    case '08004': // the server rejected the connection (MySQL's "Too many connections")
      return 'transient';
  }
  switch (state.slice(0, 2)) {
    case '28': // invalid authorization specification
      return 'auth';
    case '40': // transaction rollback: serialization failure, deadlock
    case '53': // insufficient resources: too many connections, out of memory
      return 'transient';
    case '23': // integrity constraint violation
    case '42': // syntax error or access rule violation
      return 'permanent';
    default:
      return undefined;
  }
}

// MySQL errors whose SQLSTATE (HY000, general error) says nothing (mysql2 3.x `code`).
const MYSQL_CODES: Readonly<Record<string, ToolErrorKind>> = Object.freeze({
  ER_QUERY_TIMEOUT: 'timeout', // 3024, max_execution_time
  ER_LOCK_WAIT_TIMEOUT: 'timeout', // 1205, innodb_lock_wait_timeout
});

/**
 * pg 8.x `DatabaseError` (a SQLSTATE `code` beside `severity`) and mysql2 3.x errors (`sqlState`
 * beside an `ER_*` code).
 */
function readSqlError(err: object): DatabaseAnswer | undefined {
  const code = readString(err, 'code');
  const sqlState = readString(err, 'sqlState');
  if (sqlState !== undefined && code !== undefined && code.startsWith('ER_')) {
    const listed = Object.prototype.hasOwnProperty.call(MYSQL_CODES, code) ? MYSQL_CODES[code] : undefined;
    const kind = listed ?? (SQLSTATE.test(sqlState) ? kindForSqlState(sqlState) : undefined);
    return kind && { kind, errorType: code };
  }
  if (code !== undefined && SQLSTATE.test(code) && readString(err, 'severity') !== undefined) {
    const kind = kindForSqlState(code);
    return kind && { kind, errorType: code };
  }
  return undefined;
}

// MongoDB server error codes (mongodb 7.x `MongoServerError.code` / `codeName`) that say more than "the command failed".
const MONGO_CODES: Readonly<Record<number, ToolErrorKind>> = Object.freeze({
  6: 'network', // HostUnreachable
  7: 'network', // HostNotFound
  9001: 'network', // SocketException
  13: 'auth', // Unauthorized
  18: 'auth', // AuthenticationFailed
  50: 'timeout', // MaxTimeMSExpired
  89: 'timeout', // NetworkTimeout
  262: 'timeout', // ExceededTimeLimit
  91: 'transient', // ShutdownInProgress
  189: 'transient', // PrimarySteppedDown
  10107: 'transient', // NotWritablePrimary
  11600: 'transient', // InterruptedAtShutdown
  11602: 'transient', // InterruptedDueToReplStateChange
  13435: 'transient', // NotPrimaryNoSecondaryOk
  13436: 'transient', // NotPrimaryOrSecondary
});

const MONGO_RETRYABLE_LABELS = ['RetryableWriteError', 'TransientTransactionError', 'RetryableError'];

/** A MongoDB server reply: a numeric `code` with its `codeName`. Any other refused command is permanent, as a 4xx is. */
function readMongoError(err: object): DatabaseAnswer | undefined {
  const code = readNumber(err, 'code');
  const codeName = readString(err, 'codeName');
  if (code === undefined || codeName === undefined || !/^[A-Za-z]{1,64}$/.test(codeName)) return undefined;
  const listed = Object.prototype.hasOwnProperty.call(MONGO_CODES, code) ? MONGO_CODES[code] : undefined;
  const labels = read(err, 'errorLabels');
  const retryable =
    Array.isArray(labels) && labels.some((label) => MONGO_RETRYABLE_LABELS.includes(label as string));
  return { kind: listed ?? (retryable ? 'transient' : 'permanent'), errorType: codeName };
}

// Redis error replies start with their code: `NOAUTH Authentication required.`
const REDIS_PREFIXES: Readonly<Record<string, ToolErrorKind>> = Object.freeze({
  NOAUTH: 'auth',
  WRONGPASS: 'auth',
  NOPERM: 'auth',
  LOADING: 'transient',
  BUSY: 'transient',
  TRYAGAIN: 'transient',
  CLUSTERDOWN: 'transient',
  MASTERDOWN: 'transient',
  READONLY: 'transient',
  OOM: 'quota', // maxmemory reached: retrying will not help until memory is freed
});

/** A Redis error reply: ioredis 6.x `ReplyError`, node-redis `ErrorReply`. Other replies (ERR, WRONGTYPE) are permanent. */
function readRedisReply(err: object): DatabaseAnswer | undefined {
  const name = readString(err, 'name');
  if (name !== 'ReplyError' && name !== 'ErrorReply') return undefined;
  const prefix = /^([A-Z]{2,16})\b/.exec(readString(err, 'message') ?? '')?.[1];
  if (prefix === undefined) return undefined;
  const listed = Object.prototype.hasOwnProperty.call(REDIS_PREFIXES, prefix)
    ? REDIS_PREFIXES[prefix]
    : undefined;
  return { kind: listed ?? 'permanent', errorType: prefix };
}

export function readDatabaseError(err: object): DatabaseAnswer | undefined {
  return readSqlError(err) ?? readMongoError(err) ?? readRedisReply(err);
}
