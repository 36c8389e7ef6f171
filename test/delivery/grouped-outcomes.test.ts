/**
 * Acceptances are recorded in groups (`outcome-batcher.ts`, `endOfTurn`): an accepted answer frees its
 * slot at the end of its turn and waits a moment for others to share its commit. What must hold
 * around that: acceptances of different turns share a commit (when they fill a group, the rows of
 * one claim, and when the window closes), a stop records every answer it has, and an answer that may move the gate is
 * recorded before any slot of its turn frees, so the gate holds the next request back.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDispatcher } from '../../src/delivery/dispatcher.js';
import { silentLogger } from '../../src/log.js';
import { claimGroupFor } from '../../src/delivery/slot-filler.js';
import { createPlatformClient } from '../../src/platform/client.js';
import * as outbox from '../../src/store/outbox.js';
import { validRequest } from '../helpers/fixtures.js';
import { addRequestRow, withStore } from '../helpers/store.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { waitUntil } from '../helpers/wait-until.js';
import { fastDelivery, flowConfig, platformConfig, rowsByState, withDispatcher } from '../helpers/with-dispatcher.js';

/** When each group was recorded (ms since the epoch), in order. */
const recordedAt = vi.hoisted((): number[] => []);
vi.mock('../../src/store/outbox.js', async (importOriginal) => {
  const actual = await importOriginal<typeof outbox>();
  return {
    ...actual,
    recordAttempts: vi.fn((...args: Parameters<typeof actual.recordAttempts>) => {
      recordedAt.push(Date.now());
      return actual.recordAttempts(...args);
    }),
  };
});

/**
 * A platform that holds each POST until `batch` have arrived, then answers them 201 `GAP_MS`
 * apart, so that the answers reach the daemon in different turns of its event loop.
 * `onAnswered` hears each answer as it is written.
 */
/** A platform that hands each POST, with the externalId of its body, to `take`, which answers it when it likes. */
function holdingPlatform(take: (res: http.ServerResponse, externalId: string) => void): http.Server {
  return http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => take(res, (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { externalId: string }).externalId));
  });
}

const GAP_MS = 5;
/** The tests' window: wide enough that four answers `GAP_MS` apart fit in it on a slow machine. */
const WINDOW_MS = 1_000;
/** Wide enough that sixteen rounds of four answers fit in it on a slow machine. */
const LONG_WINDOW_MS = 4_000;

function staggeredPlatform(batch: number, onAnswered: () => void = () => undefined): http.Server {
  let held: { res: http.ServerResponse; externalId: string }[] = [];
  let next = 0;
  const answer = (rest: typeof held): void => {
    const [first, ...others] = rest;
    if (!first) return;
    next += 1;
    const body = JSON.stringify({
      id: `PRC-REQ-${String(next).padStart(6, '0')}`,
      externalId: first.externalId,
      status: 'accepted',
      createdAt: new Date().toISOString(),
    });
    first.res.writeHead(201, { 'content-type': 'application/json' }).end(body, onAnswered);
    setTimeout(() => answer(others), GAP_MS);
  };
  return holdingPlatform((res, externalId) => {
    held.push({ res, externalId });
    if (held.length < batch) return;
    const answering = held;
    held = [];
    answer(answering);
  });
}

describe('acceptances recorded in groups', () => {
  let server: http.Server;
  let baseUrl = '';
  let onAnswered = (): void => undefined;
  const record = vi.mocked(outbox.recordAttempts);

  beforeEach(async () => {
    record.mockClear();
    recordedAt.length = 0;
    onAnswered = () => undefined;
    server = staggeredPlatform(4, () => onAnswered());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('acceptances of several rounds of the slots share a commit, and every row ends accepted once', () =>
    withTempDir((dir) =>
      withStore(dir, async (db) => {
        const flow = flowConfig(dir);
        const ids = Array.from({ length: 8 }, (_, i) => addRequestRow(db, flow.name, validRequest(`ERP-G${i}`)));
        await withDispatcher(
          { db, flows: [flow], platform: platformConfig(baseUrl, 'tok'), delivery: fastDelivery({ concurrency: 4 }), outcomeWindowMs: WINDOW_MS },
          ({ dispatcher }) => dispatcher.drain(),
        );
        expect(rowsByState(db, flow.name)).toEqual({ accepted: 8 });
        for (const id of ids) expect(outbox.listAttempts(db, id).map((a) => a.outcome)).toEqual(['accepted']);
        // Each answer recorded in its own turn would make 8 commits of one. An acceptance frees its
        // slot before it is recorded, so the second round of four is sent and answered while the
        // first waits in the window: one commit for both.
        expect(record.mock.calls.map(([, items]) => items.length)).toEqual([8]);
      }),
    ));

  it('a group is recorded as soon as it holds the answers to one claim, without waiting out the window', () =>
    withTempDir((dir) =>
      withStore(dir, async (db) => {
        const claimRows = claimGroupFor(4);
        const flow = flowConfig(dir);
        for (let i = 0; i < claimRows + 4; i += 1) addRequestRow(db, flow.name, validRequest(`ERP-C${i}`));
        const started = Date.now();
        await withDispatcher(
          { db, flows: [flow], platform: platformConfig(baseUrl, 'tok'), delivery: fastDelivery({ concurrency: 4 }), outcomeWindowMs: LONG_WINDOW_MS },
          ({ dispatcher }) => dispatcher.drain(),
        );
        expect(rowsByState(db, flow.name)).toEqual({ accepted: claimRows + 4 });
        // Rounds of four fill a group of one claim's rows, recorded at once; the last four wait out the window.
        expect(record.mock.calls.map(([, items]) => items.length)).toEqual([claimRows, 4]);
        expect(recordedAt[0]! - started).toBeLessThan(LONG_WINDOW_MS);
        expect(recordedAt[1]! - recordedAt[0]!).toBeGreaterThanOrEqual(LONG_WINDOW_MS - 50);
      }),
    ));

  it('acceptances that do not fill a group share a commit once the window closes', () =>
    withTempDir((dir) =>
      withStore(dir, async (db) => {
        const flow = flowConfig(dir);
        for (let i = 0; i < 4; i += 1) addRequestRow(db, flow.name, validRequest(`ERP-W${i}`));
        await withDispatcher(
          { db, flows: [flow], platform: platformConfig(baseUrl, 'tok'), delivery: fastDelivery({ concurrency: 8 }), outcomeWindowMs: WINDOW_MS },
          ({ dispatcher }) => dispatcher.drain(),
        );
        expect(rowsByState(db, flow.name)).toEqual({ accepted: 4 });
        // Four answers 5 ms apart, far from a whole claim's: one commit, when the window closes.
        expect(record.mock.calls.map(([, items]) => items.length)).toEqual([4]);
      }),
    ));

  it('a stop records the acceptances still waiting for their group', () =>
    withTempDir((dir) =>
      withStore(dir, async (db) => {
        const flow = flowConfig(dir);
        for (let i = 0; i < 4; i += 1) addRequestRow(db, flow.name, validRequest(`ERP-S${i}`));
        const platform = platformConfig(baseUrl, 'tok');
        const client = createPlatformClient(platform);
        const dispatcher = createDispatcher({
          db,
          flows: [flow],
          platform,
          delivery: fastDelivery({ concurrency: 8 }),
          client,
          logger: silentLogger,
          stopGraceMs: 5_000,
          outcomeWindowMs: WINDOW_MS,
        });
        let answered = 0;
        let stopped: Promise<void> | undefined;
        // Four answers do not fill eight slots, so their group waits out the window. Stop as the
        // last answer leaves the platform: the stop lets it arrive, and the group, which would be
        // recorded up to a second later, must be recorded before the stop returns.
        onAnswered = () => {
          answered += 1;
          if (answered === 4) stopped = dispatcher.stop();
        };
        await dispatcher.start();
        try {
          await waitUntil(() => stopped !== undefined, 'four answers sent', 10_000);
          await stopped;
          expect(rowsByState(db, flow.name)).toEqual({ accepted: 4 });
        } finally {
          await dispatcher.stop();
          await client.close();
        }
      }),
    ));
});

/** Holds POSTs until two have arrived, then answers the first 201 and the second 503, in one turn. */
function acceptAndFailPlatform(): { server: http.Server; calls: () => number } {
  let calls = 0;
  let held: { res: http.ServerResponse; externalId: string }[] = [];
  const server = holdingPlatform((res, externalId) => {
    calls += 1;
    held.push({ res, externalId });
    if (held.length < 2) return;
    const [first, second] = held as [(typeof held)[0], (typeof held)[0]];
    held = [];
    const body = JSON.stringify({ id: 'PRC-REQ-000001', externalId: first.externalId, status: 'accepted', createdAt: new Date().toISOString() });
    first.res.writeHead(201, { 'content-type': 'application/json' }).end(body);
    second.res.writeHead(503, { 'content-type': 'application/problem+json' }).end(JSON.stringify({ title: 'Unavailable', status: 503 }));
  });
  return { server, calls: () => calls };
}

describe('an acceptance beside a failure', () => {
  it('starts nothing until the failure is recorded: the circuit it opens holds the next request back', () =>
    withTempDir((dir) =>
      withStore(dir, async (db) => {
        const { server, calls } = acceptAndFailPlatform();
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        try {
          const flow = flowConfig(dir);
          for (let i = 0; i < 4; i += 1) addRequestRow(db, flow.name, validRequest(`ERP-F${i}`));
          const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
          const delivery = fastDelivery({ concurrency: 2, circuit: { failureThreshold: 1, probeIntervalMs: 60_000 } });
          await withDispatcher({ db, flows: [flow], platform: platformConfig(url, 'tok'), delivery, outcomeWindowMs: WINDOW_MS }, async ({ dispatcher }) => {
            await waitUntil(
              () => rowsByState(db, flow.name).accepted === 1 && dispatcher.gate(flow.name)?.mode === 'open',
              'one accepted, circuit open',
              10_000,
            );
            // Time for a request the freed slot would have started.
            await new Promise((resolve) => setTimeout(resolve, 200));
            expect(calls()).toBe(2);
          });
        } finally {
          server.closeAllConnections();
          await new Promise<void>((resolve) => server.close(() => resolve()));
        }
      }),
    ));
});
