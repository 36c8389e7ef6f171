/**
 * The platform's answers are a trust boundary: a platform (or a proxy in front of it) that echoes
 * the request path in its error bodies must not carry the access token (a path segment) into the
 * store, the acknowledgement files or `status`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMappingSpec } from '../../src/config/load-mapping.js';
import { formatOutboxStatus, readOutboxStatus } from '../../src/delivery/outbox-status.js';
import { createExporter } from '../../src/export/index.js';
import { registerSecret, silentLogger } from '../../src/log.js';
import { ackChannel } from '../../src/store/exports.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { waitUntil } from '../helpers/wait-until.js';
import { REPO } from '../helpers/with-daemon.js';
import { fastDelivery, flowConfig, platformConfig, rowsByState, withDispatcher } from '../helpers/with-dispatcher.js';
import { addRequestRow, withStore } from '../helpers/store.js';
import { validRequest } from '../helpers/fixtures.js';

const TOKEN = 'tok-ECHO-7f3a9c21';

/** Answers every POST with an error that quotes what it was sent, in three shapes. */
function echoingPlatform(): http.Server {
  return http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { externalId: string };
      const url = req.url ?? '';
      if (body.externalId === 'ECHO-PLAIN') {
        res.writeHead(404, { 'content-type': 'text/plain' }).end(`No route for POST ${url}`);
      } else if (body.externalId === 'ECHO-PROBLEM') {
        res
          .writeHead(404, { 'content-type': 'application/problem+json' })
          .end(JSON.stringify({ title: 'Not Found', status: 404, detail: `No route for POST ${url}`, instance: url }));
      } else {
        // The bare token (not as a path), inside problem details, plus a terminal escape sequence.
        res.writeHead(422, { 'content-type': 'application/problem+json' }).end(
          JSON.stringify({
            title: 'Unprocessable',
            status: 422,
            detail: `token ${TOKEN} may not create requests \u001b[2J`,
            errors: [{ path: `$.${TOKEN}`, message: `see ${decodeURIComponent(url)}` }],
          }),
        );
      }
    });
  });
}

describe('a platform that echoes the request path', () => {
  const server = echoingPlatform();
  let baseUrl = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    registerSecret(TOKEN);
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('leaves the token out of the store, the acknowledgement files and status', async () => {
    await withTempDir(async (dir) => {
      const flow = flowConfig(dir);
      await withStore(dir, async (db) => {
        for (const id of ['ECHO-PLAIN', 'ECHO-PROBLEM', 'ECHO-TOKEN']) addRequestRow(db, flow.name, validRequest(id));
        await withDispatcher({ db, flows: [flow], platform: platformConfig(baseUrl, TOKEN), delivery: fastDelivery() }, async () => {
          await waitUntil(() => rowsByState(db).rejected === 3, 'three rejected rows');
        });

        const ackFormat = loadMappingSpec(path.join(REPO, 'config/mappings/1c-requests.yaml')).acknowledgements;
        const exporter = createExporter({
          db,
          targets: [{ channel: ackChannel(flow.name), folder: flow.results, format: ackFormat, mode: 'perEvent' }],
          logger: silentLogger,
        });
        await exporter.start();
        await exporter.stop();

        const stored = JSON.stringify([
          db.prepare('SELECT * FROM submissions').all(),
          db.prepare('SELECT * FROM submission_attempts').all(),
          db.prepare('SELECT * FROM exports').all(),
        ]);
        // The test can fail: the platform really did echo the path (the stored reasons quote it).
        expect(stored).toContain('No route for POST /api-gateway/api/v1/[REDACTED]/requests');
        expect(stored).not.toContain(TOKEN);

        const files = fs.readdirSync(flow.results);
        expect(files.length).toBe(3);
        for (const name of files) expect(fs.readFileSync(path.join(flow.results, name), 'utf8')).not.toContain(TOKEN);

        const status = readOutboxStatus(db, Date.now(), [flow.name]);
        const text = formatOutboxStatus(status);
        expect(JSON.stringify(status)).not.toContain(TOKEN);
        expect(text).not.toContain(TOKEN);
        expect(text).toContain('[REDACTED]');
        // The escape sequence is shown, not sent to the operator's terminal.
        expect(text).not.toContain('\u001b');
        expect(text).toContain('\\u001b[2J');
      });
    });
  });
});
