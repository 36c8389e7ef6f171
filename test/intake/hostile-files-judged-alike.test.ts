/**
 * One judgement for the daemon and the previews: each hostile file (a header alone, a file cut
 * short, an empty one, UTF-16, binary junk, …) goes through the real intake (a real inbox, a real
 * SQLite store) and through both previews (`preview`'s `previewFile`, the console's mapping page):
 * what the daemon rejects, each preview says it would reject, with the same code and the same
 * problems; what the daemon takes, the previews say it takes.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { previewMapping } from '../../src/admin/console/studio/preview.js';
import { loadMappingSpec } from '../../src/mapping/index.js';
import { previewFile } from '../../src/mapping/preview-file.js';
import type { FileReport } from '../../src/shared/types.js';
import { NO_WAIT, requestCsv, requestRow } from '../helpers/fixtures.js';
import { ROOT } from '../helpers/mapping-fixtures.js';
import { withIntake, type IntakeFixture } from '../helpers/with-intake.js';

interface Verdict {
  state: 'archived' | 'rejected';
  code: string | null;
  codes: string[];
}

/** What the daemon did with `name`: where it went, and its report's codes. */
async function daemonVerdict(f: IntakeFixture, name: string): Promise<Verdict> {
  const rejected = (await f.list('rejected')).find((n) => n.endsWith(`${name}.errors.json`));
  const archived = (await f.list('archive')).find((n) => n.endsWith(`${name}.errors.json`));
  const reportPath = rejected ? path.join(f.inbox, 'rejected', rejected) : archived ? path.join(f.inbox, 'archive', archived) : null;
  const report = reportPath ? (JSON.parse(await fs.readFile(reportPath, 'utf8')) as FileReport) : { problems: [] };
  const deciding = report.problems.find((p) => p.row === null) ?? report.problems[0];
  return {
    state: rejected ? 'rejected' : 'archived',
    code: rejected ? (deciding?.code ?? null) : null,
    codes: report.problems.map((p) => p.code).sort(),
  };
}

async function previewVerdicts(f: IntakeFixture, name: string, bytes: Buffer, now: Date): Promise<{ cli: Verdict; console: Verdict }> {
  const spec = loadMappingSpec(f.flow.mapping);
  const file = path.join(f.dir, 'copies', name);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, bytes);
  const cli = await previewFile(file, spec, {
    now,
    rejectPastDates: f.flow.intake.rejectPastDates,
    flow: f.flow.name,
    rejectWholeFile: f.flow.intake.rejectWholeFile,
    maxFileBytes: f.flow.intake.maxFileBytes,
  });
  const sample = { id: 'upload:test', source: 'upload' as const, name, sizeBytes: bytes.length, at: now.toISOString(), bytes };
  const page = await previewMapping(await fs.readFile(f.flow.mapping, 'utf8'), f.flow, sample, null, now);
  const result = page.result!;
  return {
    cli: { ...cli.outcome, codes: cli.problems.map((p) => p.code).sort() },
    console: { ...result.outcome, codes: result.problemRows.map((p) => p.code).sort() },
  };
}

/** Drop every file at once, let the daemon judge them, then preview each and compare. */
async function expectJudgedAlike(f: IntakeFixture, files: Record<string, Buffer>, expected: Record<string, string | null>): Promise<void> {
  await f.intake.start();
  const now = new Date();
  for (const [name, bytes] of Object.entries(files)) await fs.writeFile(path.join(f.inbox, name), bytes);
  await f.intake.scanNow();
  // An empty file is judged by the second scan that finds it so.
  await f.intake.scanNow();
  expect((await f.list()).filter((n) => !n.includes('/'))).toEqual([]);
  for (const [name, bytes] of Object.entries(files)) {
    const daemon = await daemonVerdict(f, name);
    const { cli, console: page } = await previewVerdicts(f, name, bytes, now);
    expect({ name, code: daemon.code }).toEqual({ name, code: expected[name] });
    expect({ name, ...cli }).toEqual({ name, ...daemon });
    expect({ name, ...page }).toEqual({ name, ...daemon });
  }
}

const utf16 = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
/** Bytes no encoding reads as a table: a fixed pseudo-random run. */
const junk = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256));

describe('hostile files: the daemon and both previews judge them alike', () => {
  it('CSV: a header alone, cut inside a quoted field, empty, UTF-16, junk, a bad row, a good file', async () => {
    await withIntake(NO_WAIT, async (f) => {
      const good = requestCsv([requestRow('R-1')]);
      const cut = requestCsv([requestRow('R-2'), requestRow('R-3', '1', { Адрес: 'ул. "Длинная, 1' })]);
      await expectJudgedAlike(
        f,
        {
          'header-only.csv': Buffer.from(requestCsv([])),
          'truncated.csv': Buffer.from(cut.slice(0, cut.lastIndexOf('Длинная') + 3)),
          'empty.csv': Buffer.alloc(0),
          'utf16.csv': utf16(good),
          'junk.csv': junk,
          'bad-row.csv': Buffer.from(requestCsv([requestRow('R-4'), requestRow('R-5', '1', { ИНН: '7707083894' })])),
          'good.csv': Buffer.from(good),
        },
        {
          'header-only.csv': 'MAPPING_FAILED',
          'truncated.csv': 'FILE_UNREADABLE',
          'empty.csv': 'FILE_EMPTY',
          'utf16.csv': 'FILE_UNREADABLE',
          'junk.csv': expect.any(String) as unknown as string,
          'bad-row.csv': null,
          'good.csv': null,
        },
      );
    });
  });

  it('JSON: cut short, no records, not JSON at all', async () => {
    const mappingFile = path.join(ROOT, 'config/mappings/requests-json.yaml');
    await withIntake(
      NO_WAIT,
      async (f) => {
        const whole = await fs.readFile(path.join(ROOT, 'samples/requests.json'));
        await expectJudgedAlike(
          f,
          {
            'truncated.json': whole.subarray(0, Math.floor(whole.length / 2)),
            'no-records.json': Buffer.from('{"data":{"requests":[]}}'),
            'junk.json': junk,
            'empty.json': Buffer.alloc(0),
          },
          {
            'truncated.json': 'FILE_UNREADABLE',
            'no-records.json': 'MAPPING_FAILED',
            'junk.json': expect.any(String) as unknown as string,
            'empty.json': 'FILE_EMPTY',
          },
        );
      },
      { mappingFile },
    );
  });

  it('XML and XLSX: cut short', async () => {
    await withIntake(
      NO_WAIT,
      async (f) => {
        const whole = await fs.readFile(path.join(ROOT, 'samples/commerceml-orders.xml'));
        await expectJudgedAlike(
          f,
          { 'truncated.xml': whole.subarray(0, Math.floor(whole.length / 2)) },
          { 'truncated.xml': expect.any(String) as unknown as string },
        );
      },
      { mappingFile: path.join(ROOT, 'config/mappings/commerceml-orders.yaml') },
    );
    await withIntake(
      NO_WAIT,
      async (f) => {
        const whole = await fs.readFile(path.join(ROOT, 'samples/requests-1c-report.xlsx'));
        await expectJudgedAlike(
          f,
          { 'truncated.xlsx': whole.subarray(0, Math.floor(whole.length / 2)) },
          { 'truncated.xlsx': expect.any(String) as unknown as string },
        );
      },
      { mappingFile: path.join(ROOT, 'config/mappings/1c-report-xlsx.yaml') },
    );
  });
});
