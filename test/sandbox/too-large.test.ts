/**
 * A body over maxBodyBytes gets its 413, every time, even while the client is still uploading: the
 * sandbox must not close the connection under a client that has not finished sending (the kernel
 * would answer the unread bytes with a reset, and the client would see `fetch failed`, EPIPE or
 * ECONNRESET instead of the 413 already on its way).
 *
 * The clients run in a child process, as the daemon runs apart from the platform: with client and
 * server on one event loop the reset rarely wins the race, across processes it did in about half
 * of the uploads before the fix.
 */
import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { answerTooLarge } from '../../src/sandbox/answer-too-large.js';
import { problemResponse, SANDBOX_PROBLEM_TYPES } from '../../src/sandbox/problem.js';
import { REPO } from '../helpers/with-daemon.js';
import { withSandbox } from '../helpers/with-sandbox.js';
import { validRequest } from '../helpers/fixtures.js';
import { createUrl, post } from '../helpers/sandbox-calls.js';

const CONCURRENT = 20;
const ROUNDS = 3;

/**
 * The client process: ROUNDS rounds of CONCURRENT concurrent 20 MB uploads; prints, per round, the
 * outcome of each (the status, or the error and its cause). The streamed bodies repeat one 64 KiB
 * chunk; the declared fetch shares one 20 MB buffer.
 */
const CLIENT = `
import { Readable } from 'node:stream';
import { Agent, fetch, request } from 'undici';
const [url, how, rounds, concurrent] = process.argv.slice(1);
const BYTES = 20 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 0x20);
const BUFFER = new Uint8Array(BYTES).fill(0x20);
function* chunks() { for (let sent = 0; sent < BYTES; sent += CHUNK.length) yield CHUNK; }
const headers = { 'content-type': 'application/json', 'idempotency-key': 'k-too-large' };
const dispatcher = new Agent({ connections: Number(concurrent) });
async function send() {
  try {
    if (how === 'request-declared') {
      const response = await request(url, { method: 'POST', dispatcher, headers: { ...headers, 'content-length': String(BYTES) }, body: Readable.from(chunks()) });
      const body = JSON.parse(await response.body.text());
      return response.statusCode + ' ' + body.type;
    }
    const body = how === 'fetch-declared' ? BUFFER : Readable.toWeb(Readable.from(chunks()));
    const response = await fetch(url, { method: 'POST', dispatcher, headers, body, duplex: 'half' });
    return response.status + ' ' + (await response.json()).type;
  } catch (error) {
    return [error.message, error.code, error.cause?.code, error.cause?.message].filter(Boolean).join(': ');
  }
}
const outcomes = [];
for (let round = 0; round < Number(rounds); round += 1) outcomes.push(await Promise.all(Array.from({ length: Number(concurrent) }, send)));
await dispatcher.close();
process.stdout.write(JSON.stringify(outcomes));
`;

async function uploadFromAnotherProcess(url: string, how: string): Promise<string[][]> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', CLIENT, url, how, String(ROUNDS), String(CONCURRENT)], {
    cwd: REPO, // where undici resolves
    maxBuffer: 1024 * 1024,
  });
  return JSON.parse(stdout) as string[][];
}

describe('sandbox: 413 for a body over maxBodyBytes, under load', () => {
  it.each([
    ['undici request, a declared Content-Length, a streamed body', 'request-declared'],
    ['undici fetch, a declared Content-Length', 'fetch-declared'],
    ['undici fetch, a chunked stream', 'fetch-chunked'],
  ])(
    `answers each of ${CONCURRENT} concurrent 20 MB uploads with 413, ${ROUNDS} rounds: %s`,
    async (_how, how) => {
      await withSandbox({}, async (sandbox) => {
        const rounds = await uploadFromAnotherProcess(createUrl(sandbox), how);
        const expected = `413 ${SANDBOX_PROBLEM_TYPES.tooLarge}`;
        expect(rounds).toEqual(Array.from({ length: ROUNDS }, () => Array<string>(CONCURRENT).fill(expected)));
        // Each one was recorded with its answer, nothing was created, and a normal request still works.
        expect(sandbox.calls().map((call) => call.status)).toEqual(Array<number>(ROUNDS * CONCURRENT).fill(413));
        expect(sandbox.requests()).toHaveLength(0);
        expect((await post(createUrl(sandbox), validRequest())).status).toBe(201);
      });
    },
    120_000,
  );
});

describe('answerTooLarge: the drain is bounded', () => {
  /** A server that answers every request with answerTooLarge under `limits`; counts its open connections. */
  async function withDrainServer(limits: { bytes: number; ms: number }, fn: (url: string, open: () => number) => Promise<void>): Promise<void> {
    const server = http.createServer((req, res) =>
      answerTooLarge(
        req,
        res,
        problemResponse({ type: SANDBOX_PROBLEM_TYPES.tooLarge, title: 'Payload too large', status: 413, detail: 'Too large.' }),
        {},
        limits,
      ),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    let open = 0;
    server.on('connection', (socket) => {
      open += 1;
      socket.once('close', () => (open -= 1));
    });
    try {
      await fn(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, () => open);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }

  it('closes the connection once more than the byte bound has been drained, however much is still coming', async () => {
    await withDrainServer({ bytes: 1024 * 1024, ms: 60_000 }, async (url, open) => {
      const chunk = Buffer.alloc(64 * 1024);
      const endless = new Readable({ read: () => void endless.push(chunk) });
      const settled = await request(url, { method: 'POST', body: endless }).then(
        async (response) => (await response.body.dump(), response.statusCode),
        (error: unknown) => error,
      );
      expect([413, 'error']).toContain(typeof settled === 'number' ? settled : 'error');
      endless.destroy();
      await expect.poll(open).toBe(0);
    });
  });

  it('closes the connection once the time bound has passed, when the rest of the body never comes', async () => {
    await withDrainServer({ bytes: 64 * 1024 * 1024, ms: 100 }, async (url, open) => {
      // Declares 10 MB, sends 1 KB, then nothing: only the time bound ends it.
      const stalled = new Readable({ read: () => undefined });
      stalled.push(Buffer.alloc(1024));
      const response = await request(url, { method: 'POST', headers: { 'content-length': String(10 * 1024 * 1024) }, body: stalled });
      expect(response.statusCode).toBe(413);
      await response.body.dump();
      await expect.poll(open).toBe(0);
      stalled.destroy();
    });
  });
});
