import { createServer, type Server, type Socket } from 'node:net';
import { BSON } from 'mongodb';

/**
 * Minimal servers for the database drivers' own wire protocols, on 127.0.0.1: each speaks just
 * enough of its protocol for the driver to connect, then answers with the error reply a real
 * server sends (or never answers, for the driver's own timeout). Only what the corpus needs.
 */
export interface ProtocolStub {
  readonly port: number;
  close(): Promise<void>;
}

async function listen(server: Server): Promise<ProtocolStub> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('stub: no port');
  return {
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

// ---- PostgreSQL (protocol 3.0) ----

/** What the PostgreSQL stub does: refuse the start-up with an error, fail the first query, or never answer it. */
export type PgMode =
  | { at: 'startup'; code: string; message: string }
  | { at: 'query'; code: string; message: string }
  | { at: 'query'; hang: true };

function pgMessage(type: string, payload: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.write(type, 0, 'latin1');
  header.writeInt32BE(payload.length + 4, 1);
  return Buffer.concat([header, payload]);
}

/** An ErrorResponse with severity, SQLSTATE and message, as a server sends it. */
function pgError(severity: string, code: string, message: string): Buffer {
  const field = (tag: string, value: string) => Buffer.from(`${tag}${value}\0`, 'utf8');
  return pgMessage(
    'E',
    Buffer.concat([
      field('S', severity),
      field('V', severity),
      field('C', code),
      field('M', message),
      Buffer.from([0]),
    ]),
  );
}

const pgReady = () => pgMessage('Z', Buffer.from('I'));

export function startPgStub(mode: () => PgMode): Promise<ProtocolStub> {
  return listen(
    createServer((socket) => {
      let started = false;
      socket.on('data', (chunk) => {
        const current = mode();
        if (!started) {
          started = true;
          if (current.at === 'startup') {
            socket.end(pgError('FATAL', current.code, current.message));
            return;
          }
          const authOk = pgMessage('R', Buffer.from([0, 0, 0, 0]));
          socket.write(Buffer.concat([authOk, pgReady()]));
          return;
        }
        if (chunk[0] !== 0x51 /* Q */ || current.at !== 'query' || 'hang' in current) return;
        socket.write(Buffer.concat([pgError('ERROR', current.code, current.message), pgReady()]));
      });
    }),
  );
}

// ---- MySQL (client/server protocol 4.1) ----

export type MysqlMode =
  | { at: 'handshake' | 'query'; errno: number; sqlState: string; message: string }
  | { at: 'handshake'; hang: true };

function mysqlPacket(sequence: number, payload: Buffer): Buffer {
  const header = Buffer.alloc(4);
  header.writeUIntLE(payload.length, 0, 3);
  header[3] = sequence;
  return Buffer.concat([header, payload]);
}

function mysqlError(sequence: number, errno: number, sqlState: string, message: string): Buffer {
  const head = Buffer.alloc(3);
  head[0] = 0xff;
  head.writeUInt16LE(errno, 1);
  return mysqlPacket(sequence, Buffer.concat([head, Buffer.from(`#${sqlState}${message}`, 'utf8')]));
}

function mysqlHandshake(): Buffer {
  // PROTOCOL_41 | LONG_PASSWORD | LONG_FLAG | CONNECT_WITH_DB | TRANSACTIONS | SECURE_CONNECTION | PLUGIN_AUTH
  const capabilities = 0x1 | 0x4 | 0x8 | 0x200 | 0x2000 | 0x8000 | 0x80000;
  const fixed = Buffer.alloc(4 + 8 + 1 + 2 + 1 + 2 + 2 + 1 + 10);
  let at = 0;
  fixed.writeUInt32LE(1, at); // connection id
  at += 4;
  Buffer.from('abcdefgh').copy(fixed, at); // auth-plugin-data part 1
  at += 9; // and a filler byte
  fixed.writeUInt16LE(capabilities & 0xffff, at);
  at += 2;
  fixed[at++] = 45; // utf8mb4
  fixed.writeUInt16LE(0x0002, at); // SERVER_STATUS_AUTOCOMMIT
  at += 2;
  fixed.writeUInt16LE(capabilities >>> 16, at);
  at += 2;
  fixed[at] = 21; // auth-plugin-data length
  return mysqlPacket(
    0,
    Buffer.concat([
      Buffer.from([10]),
      Buffer.from('8.0.36\0'),
      fixed,
      Buffer.from('ijklmnopqrst\0'),
      Buffer.from('mysql_native_password\0'),
    ]),
  );
}

const mysqlOk = (sequence: number) => mysqlPacket(sequence, Buffer.from([0, 0, 0, 0x02, 0, 0, 0]));

export function startMysqlStub(mode: () => MysqlMode): Promise<ProtocolStub> {
  return listen(
    createServer((socket) => {
      const current = mode();
      if ('hang' in current) return;
      socket.write(mysqlHandshake());
      let authenticated = false;
      socket.on('data', (chunk) => {
        const sequence = chunk[3];
        if (!authenticated) {
          authenticated = true;
          if (current.at === 'handshake') {
            socket.end(mysqlError(sequence + 1, current.errno, current.sqlState, current.message));
            return;
          }
          socket.write(mysqlOk(sequence + 1));
          return;
        }
        if (chunk[4] === 0x03 /* COM_QUERY */) {
          socket.write(mysqlError(sequence + 1, current.errno, current.sqlState, current.message));
        }
      });
    }),
  );
}

// ---- Redis (RESP2) ----

/** The error reply the Redis stub sends to every command, or none at all. */
export type RedisMode = { reply: string } | { hang: true };

/** The RESP commands in a chunk (each an array of bulk strings), by name and first argument. */
function redisCommands(chunk: Buffer): string[][] {
  const lines = chunk.toString('utf8').split('\r\n');
  const commands: string[][] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].startsWith('*')) continue;
    const count = Number(lines[i].slice(1));
    commands.push(Array.from({ length: count }, (_, j) => lines[i + 2 + 2 * j] ?? ''));
    i += 2 * count;
  }
  return commands;
}

export function startRedisStub(mode: () => RedisMode): Promise<ProtocolStub> {
  return listen(
    createServer((socket) => {
      socket.on('data', (chunk) => {
        for (const [name, arg] of redisCommands(chunk)) {
          const command = name.toUpperCase();
          // The handshake ioredis 6 pipelines: a server before Redis 6 knows no HELLO (ioredis stays on RESP2).
          if (command === 'HELLO') socket.write("-ERR unknown command 'HELLO'\r\n");
          else if (command === 'CLIENT' && arg.toUpperCase() === 'SETINFO') socket.write('+OK\r\n');
          else {
            const current = mode();
            if ('reply' in current) socket.write(`-${current.reply}\r\n`);
          }
        }
      });
    }),
  );
}

// ---- MongoDB (OP_MSG, and the legacy OP_QUERY hello) ----

/** The command error the MongoDB stub sends to every command but the handshake, or none at all. */
export type MongoMode = { error: Record<string, unknown> } | { hang: true };

const OP_REPLY = 1;
const OP_QUERY = 2004;
const OP_MSG = 2013;

function mongoHello(): Record<string, unknown> {
  return {
    helloOk: true,
    ismaster: true,
    isWritablePrimary: true,
    maxBsonObjectSize: 16777216,
    maxMessageSizeBytes: 48000000,
    maxWriteBatchSize: 100000,
    localTime: new Date(),
    logicalSessionTimeoutMinutes: 30,
    connectionId: 1,
    minWireVersion: 0,
    maxWireVersion: 21,
    readOnly: false,
    ok: 1,
  };
}

function mongoReply(opCode: number, requestId: number, doc: Record<string, unknown>): Buffer {
  const body = Buffer.from(BSON.serialize(doc));
  const prefix =
    opCode === OP_MSG
      ? Buffer.from([0, 0, 0, 0, 0]) // flagBits, then a kind-0 section
      : Buffer.concat([Buffer.alloc(4), Buffer.alloc(8), Buffer.alloc(4), Buffer.from([1, 0, 0, 0])]); // flags, cursorId, startingFrom, numberReturned
  const header = Buffer.alloc(16);
  header.writeInt32LE(16 + prefix.length + body.length, 0);
  header.writeInt32LE(requestId + 1000, 4);
  header.writeInt32LE(requestId, 8);
  header.writeInt32LE(opCode === OP_MSG ? OP_MSG : OP_REPLY, 12);
  return Buffer.concat([header, prefix, body]);
}

/** The command document of an OP_MSG (first kind-0 section) or an OP_QUERY. */
function mongoCommand(message: Buffer, opCode: number): Record<string, unknown> {
  if (opCode === OP_MSG) return BSON.deserialize(message.subarray(21));
  const nameEnd = message.indexOf(0, 20);
  return BSON.deserialize(message.subarray(nameEnd + 1 + 8));
}

export function startMongoStub(mode: () => MongoMode): Promise<ProtocolStub> {
  return listen(
    createServer((socket) => {
      let pending = Buffer.alloc(0);
      socket.on('data', (chunk) => {
        pending = Buffer.concat([pending, chunk]);
        while (pending.length >= 4 && pending.length >= pending.readInt32LE(0)) {
          const message = pending.subarray(0, pending.readInt32LE(0));
          pending = pending.subarray(message.length);
          const requestId = message.readInt32LE(4);
          const opCode = message.readInt32LE(12);
          if (opCode !== OP_MSG && opCode !== OP_QUERY) continue;
          const command = mongoCommand(message, opCode);
          const name = Object.keys(command)[0]?.toLowerCase();
          if (name === 'hello' || name === 'ismaster') {
            socket.write(mongoReply(opCode, requestId, mongoHello()));
            continue;
          }
          const current = mode();
          if ('error' in current) socket.write(mongoReply(opCode, requestId, { ok: 0, ...current.error }));
        }
      });
    }),
  );
}
