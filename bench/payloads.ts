/** Request payloads as intake would record them: a generated 1C CSV, mapped by the real mapper. */
import path from 'node:path';
import { loadMappingSpec } from '../src/config/load-mapping.js';
import { prepareSubmission, type PreparedSubmission } from '../src/intake/submission-keys.js';
import { mapFile } from '../src/mapping/index.js';
import { insertSubmission } from '../src/store/submissions.js';
import type { Db } from '../src/store/open-store.js';
import { FLOW_NAME, MAPPING_1C, SOURCE_SYSTEM } from './bench-env.js';
import { writeRequestsCsv } from './generate-csv.js';

export async function preparePayloads(dir: string, spec: { requests: number; linesPerRequest: number; prefix: string }): Promise<PreparedSubmission[]> {
  const file = path.join(dir, `payloads-${spec.prefix}.csv`);
  writeRequestsCsv(file, spec);
  const mapping = loadMappingSpec(MAPPING_1C);
  const prepared: PreparedSubmission[] = [];
  for await (const item of mapFile(file, mapping, { now: new Date(), rejectPastDates: true })) {
    if (item.kind === 'problem') throw new Error(`generated CSV does not map: ${item.problem.message}`);
    if (item.kind === 'withdrawal') continue;
    prepared.push(prepareSubmission(item.submission, SOURCE_SYSTEM));
  }
  if (prepared.length !== spec.requests) throw new Error(`mapped ${prepared.length} requests, expected ${spec.requests}`);
  return prepared;
}

/** Record prepared submissions in the outbox (pending, due now), in one transaction. */
export function recordPayloads(db: Db, prepared: readonly PreparedSubmission[]): void {
  const now = Date.now();
  db.transaction(() => {
    for (const s of prepared) {
      insertSubmission(db, {
        flow: FLOW_NAME,
        kind: s.kind,
        dedupeKey: s.dedupeKey,
        externalId: s.externalId,
        payload: s.payload,
        payloadHash: s.payloadHash,
        idempotencyKey: s.idempotencyKey,
        sourceRow: s.firstRow,
        now,
      });
    }
  })();
}
