/**
 * A webhook body somewhat over `webhook.maxBodyBytes` gets its 413 every time, even while the
 * sender is still uploading: the listener drains a bounded rest of the body before it closes the
 * connection, so the kernel does not answer the unread bytes with a reset that reaches the sender
 * before the 413 (it would see EPIPE and send again). The senders run in another process, where the
 * race shows (on one event loop it rarely does).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/with-daemon.js';
import { withListener } from '../helpers/with-listener.js';

const CONCURRENT = 20;
const ROUNDS = 3;

const CLIENT = `
import { Readable } from 'node:stream';
import { Agent, request } from 'undici';
const [url, rounds, concurrent, bytes] = process.argv.slice(1);
const CHUNK = Buffer.alloc(16 * 1024, 0x20);
function* chunks() { for (let sent = 0; sent < Number(bytes); sent += CHUNK.length) yield CHUNK; }
const dispatcher = new Agent({ connections: Number(concurrent) });
async function send() {
  try {
    const response = await request(url, { method: 'POST', dispatcher, headers: { 'content-type': 'application/json', 'content-length': bytes }, body: Readable.from(chunks()) });
    const body = JSON.parse(await response.body.text());
    return response.statusCode + ' ' + body.code;
  } catch (error) {
    return [error.message, error.code, error.cause?.code].filter(Boolean).join(': ');
  }
}
const outcomes = [];
for (let round = 0; round < Number(rounds); round += 1) outcomes.push(await Promise.all(Array.from({ length: Number(concurrent) }, send)));
await dispatcher.close();
process.stdout.write(JSON.stringify(outcomes));
`;

describe('webhook listener: 413 for a body over maxBodyBytes, under load', () => {
  it(`answers each of ${CONCURRENT} concurrent 256 KiB uploads (limit 64 KiB) with 413, ${ROUNDS} rounds`, async () => {
    await withListener({ config: { maxBodyBytes: 64 * 1024, maxConnections: 100 } }, async ({ url, stored }) => {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['--input-type=module', '-e', CLIENT, url, String(ROUNDS), String(CONCURRENT), String(256 * 1024)],
        {
          cwd: REPO,
        },
      );
      const rounds = JSON.parse(stdout) as string[][];
      expect(rounds).toEqual(Array.from({ length: ROUNDS }, () => Array<string>(CONCURRENT).fill('413 WEBHOOK_TOO_LARGE')));
      expect(stored.count).toBe(0);
    });
  }, 60_000);
});
