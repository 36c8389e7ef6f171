/**
 * The open-loop generator of `npm run bench` measures each event from when it was due, so a server
 * that stalls shows the stall in every event due during it, not only in the few it held in flight
 * (coordinated omission). The server runs on a thread of its own: the generator sleeps on its own
 * thread between slices, and a server sharing it would stall with it.
 */
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { webhookOpenLoad } from '../../bench/webhook-open-load.js';

/** An HTTP server answering 200 with a Content-Length (the generator reads no chunked answers) to each POST, that busy-waits `stallMs` once, on request number `stallAt`. */
const SERVER = `
const http = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
let seen = 0;
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    seen += 1;
    if (seen === workerData.stallAt) {
      const until = Date.now() + workerData.stallMs;
      while (Date.now() < until) {}
    }
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': 2 }).end('{}');
  });
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
parentPort.on('message', () => server.close(() => parentPort.close()));
`;

async function withServer<T>(stall: { stallAt: number; stallMs: number }, fn: (url: string) => Promise<T>): Promise<T> {
  const worker = new Worker(SERVER, { eval: true, workerData: stall });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    return await fn(`http://127.0.0.1:${port}/webhooks/service`);
  } finally {
    await worker.terminate();
  }
}

describe('webhook open-loop generator', () => {
  it('counts a server stall in every event due during it, not only in the requests it held', async () => {
    // 500 events/s on 4 connections: a 100 ms stall holds 4 requests and delays the 50 due during it.
    const run = await withServer({ stallAt: 50 + 400, stallMs: 100 }, (url) =>
      webhookOpenLoad({ url, secret: 's', rate: 500, seconds: 2, warmupEvents: 50, connections: 4 }),
    );
    expect(run.sent).toBe(1_000);
    expect(run.failed).toBe(0);
    expect(run.maxMs).toBeGreaterThanOrEqual(90);
    // The 10th-worst of 1,000: measured from the send, only the 4 requests in flight would show
    // the stall; measured from when each was due, about 50 do, most of them by 30 ms or more.
    expect(run.p99Ms).toBeGreaterThan(30);
  });
});
