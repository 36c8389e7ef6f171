/**
 * The mapping page's parts without HTTP: what a failed write tells the operator, the names of
 * uploads, the uploads kept, the column a problem points at, the archive's samples (newest first,
 * only regular files the intake archived), the editor's text read as the daemon reads a file, and
 * a save whose reload is refused.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkMappingText, normalizeEditorText, sourceOfProblem } from '../../../../src/admin/console/studio/check-mapping.js';
import { writeError } from '../../../../src/admin/console/studio/mapping-file.js';
import { saveAndReload } from '../../../../src/admin/console/studio/save-and-reload.js';
import { listArchiveSamples, readArchiveSample } from '../../../../src/admin/console/studio/samples.js';
import { createUploadStore, uploadName } from '../../../../src/admin/console/studio/uploads.js';
import { flowSchema } from '../../../../src/config/flow-schema.js';
import { loadMappingSpec } from '../../../../src/config/load-mapping.js';
import { manualClock } from '../../../helpers/clock.js';
import { withTempDir } from '../../../helpers/temp-dir.js';
import { REPO } from '../../../helpers/with-daemon.js';

const MAPPING_FILE = path.join(REPO, 'config/mappings/1c-requests.yaml');
const flow = (kind: 'requests' | 'confirmations' = 'requests') =>
  flowSchema.parse({ name: 'requests', kind, inbox: '/srv/inbox', mapping: MAPPING_FILE, results: '/srv/results' });
const errno = (code: string) => Object.assign(new Error(`${code}: failed`), { code });

describe('writeError', () => {
  it.each([
    ['EROFS', 'MAPPING_NOT_WRITABLE', /\(EROFS, a read-only file system: the unit’s ProtectSystem=strict makes \/etc read-only\)/],
    ['EACCES', 'MAPPING_NOT_WRITABLE', /\(EACCES, no permission\)/],
    ['EPERM', 'MAPPING_NOT_WRITABLE', /\(EPERM, no permission\)/],
    ['ENOSPC', 'CONSOLE_ACTION_FAILED', /could not be written \(ENOSPC\); nothing was saved/],
    ['EIO', 'CONSOLE_ACTION_FAILED', /could not be written \(EIO\)/],
  ])('%s is %s', (code, expected, message) => {
    const error = writeError(errno(code), '/etc/procurement-connector/mappings/1c.yaml');
    expect(error.code).toBe(expected);
    expect(error.message).toMatch(message);
    if (expected === 'MAPPING_NOT_WRITABLE') {
      expect(error.message).toContain('ReadWritePaths=/etc/procurement-connector/mappings');
      expect(error.message).toContain('nothing was saved');
      expect(error.message).toContain('systemctl reload procurement-connector');
    }
  });
});

describe('uploadName', () => {
  it.each([
    ['export.csv', 'export.csv'],
    ['C:\\Users\\ivan\\Desktop\\заявки.csv', 'заявки.csv'],
    ['../../etc/passwd', 'passwd'],
    ['evil\u202egnp.csv', 'evilgnp.csv'],
    ['line\nbreak.csv', 'linebreak.csv'],
    ['.hidden.csv', 'sample.hidden.csv'],
    ['', 'sample'],
    [`${'я'.repeat(300)}.json`, `${'я'.repeat(97)}.json`],
  ])('%j → %j', (given, expected) => {
    expect(uploadName(given)).toBe(expected);
  });
});

describe('the uploads kept', () => {
  it('keeps the latest four for 30 minutes under unguessable ids', () => {
    const clock = manualClock(0);
    const store = createUploadStore({ clock });
    const ids = [1, 2, 3, 4, 5].map((n) => store.put(`${n}.csv`, Buffer.from(`a;b\n${n};x\n`)).id);
    expect(new Set(ids).size).toBe(5);
    expect(store.get(ids[0]!)).toBeUndefined();
    expect(store.get(ids[4]!)).toMatchObject({ source: 'upload', name: '5.csv', sizeBytes: 8 });
    expect(store.get('upload:../../etc/passwd')).toBeUndefined();
    clock.advance(30 * 60_000 + 1);
    expect(store.get(ids[4]!)).toBeUndefined();
  });
});

describe('sourceOfProblem', () => {
  const spec = loadMappingSpec(MAPPING_FILE);
  it.each<[string, string | null, string | null]>([
    ['INN_INVALID', 'customer.inn', 'ИНН'],
    ['FIELD_INVALID', 'items[2].quantity', 'Количество'],
    ['FIELD_REQUIRED', 'externalId', 'Номер заявки'],
    ['COLUMN_MISSING', 'Ед. изм.', 'Ед. изм.'],
    ['LINES_MISSING', 'items', null],
    ['FILE_UNREADABLE', null, null],
  ])('%s on %s reads %s', (code, field, column) => {
    expect(sourceOfProblem(spec, code, field)).toBe(column);
  });
});

describe('checkMappingText', () => {
  it('reads the text as the daemon reads the file: the same spec', () => {
    const text = fs.readFileSync(MAPPING_FILE, 'utf8');
    const check = checkMappingText(text, flow());
    expect(check.ok).toBe(true);
    expect(check.ok && { ...check.spec, file: MAPPING_FILE }).toEqual(loadMappingSpec(MAPPING_FILE));
  });

  it('names a syntax error’s line and column, a bad key, the wrong kind, a NUL byte', () => {
    expect(checkMappingText('request:\n  externalId: [\n', flow())).toMatchObject({ ok: false, problems: [{ line: 3, column: 1 }] });
    expect(checkMappingText('kind: requests\nrequest: {}\nitems: {}\nbogus: 1\n', flow())).toMatchObject({
      ok: false,
      problems: expect.arrayContaining([{ path: 'bogus', message: 'unknown key', line: 4, column: 1, text: { key: 'unknownKey' } }]),
    });
    expect(checkMappingText(fs.readFileSync(MAPPING_FILE, 'utf8'), flow('confirmations'))).toMatchObject({ ok: false, problems: [{ path: 'kind' }] });
    expect(checkMappingText('a: "\0"\n', flow())).toMatchObject({ ok: false, problems: [{ message: 'contains a NUL byte at offset 4: not a text file' }] });
  });

  it('saves LF line ends whatever the browser sent', () => {
    expect(normalizeEditorText('a: 1\r\nb: 2\rc: 3\n')).toBe('a: 1\nb: 2\nc: 3\n');
  });
});

describe('the archive’s samples', () => {
  it('are its regular files, newest day first and newest file first, without reports, markers or hidden files', async () => {
    await withTempDir(async (inbox) => {
      const day = (name: string) => fs.mkdirSync(path.join(inbox, 'archive', name), { recursive: true });
      const put = (dayName: string, name: string, mtime: number) => {
        const file = path.join(inbox, 'archive', dayName, name);
        fs.writeFileSync(file, 'a;b\n1;2\n');
        fs.utimesSync(file, mtime, mtime);
      };
      day('2026-06-11');
      day('2026-06-12');
      day('not-a-day');
      put('2026-06-11', '1-old.csv', 1_000);
      put('2026-06-12', '2-first.csv', 2_000);
      put('2026-06-12', '3-second.csv', 3_000);
      put('2026-06-12', '3-second.csv.errors.json', 4_000);
      put('2026-06-12', '3-second.csv.done', 4_000);
      put('2026-06-12', '.4-hidden.csv', 4_000);
      put('not-a-day', '5-elsewhere.csv', 5_000);
      fs.mkdirSync(path.join(inbox, 'archive', '2026-06-12', 'folder.csv'));
      const ids = (await listArchiveSamples(inbox)).map((s) => s.id);
      expect(ids).toEqual(['archive:2026-06-12/3-second.csv', 'archive:2026-06-12/2-first.csv', 'archive:2026-06-11/1-old.csv']);
      expect((await listArchiveSamples(inbox, 2)).map((s) => s.id)).toEqual(ids.slice(0, 2));
      expect((await readArchiveSample(inbox, ids[0]!)).bytes.toString()).toBe('a;b\n1;2\n');
      await expect(readArchiveSample(inbox, 'archive:2026-06-12/3-second.csv.errors.json')).rejects.toMatchObject({ code: 'FILE_UNREADABLE' });
      await expect(readArchiveSample(inbox, 'archive:2026-06-12/folder.csv')).rejects.toMatchObject({ code: 'FILE_NOT_REGULAR' });
      expect(await listArchiveSamples(path.join(inbox, 'none'))).toEqual([]);
    });
  });

  it('refuses a file past the sample limit instead of reading it', async () => {
    await withTempDir(async (inbox) => {
      fs.mkdirSync(path.join(inbox, 'archive', '2026-06-12'), { recursive: true });
      fs.writeFileSync(path.join(inbox, 'archive', '2026-06-12', 'big.csv'), Buffer.alloc(4 * 1024 * 1024 + 1, 0x61));
      await expect(readArchiveSample(inbox, 'archive:2026-06-12/big.csv')).rejects.toMatchObject({ code: 'FILE_TOO_LARGE' });
    });
  });
});

describe('a save whose reload is refused', () => {
  it('keeps the file saved (with its backup) and says the daemon keeps the mappings it had', async () => {
    await withTempDir(async (dir) => {
      const mapping = path.join(dir, 'mapping.yaml');
      const before = fs.readFileSync(MAPPING_FILE, 'utf8');
      fs.writeFileSync(mapping, before);
      const after = before.replace('integer: true', 'number: true');
      const reloadMappings = () => ({ ok: false as const, errors: ['flow other: MAPPING_INVALID: /etc/other.yaml is invalid'] });
      const outcome = await saveAndReload({ ...flow(), mapping }, after, null, Date.now(), { reloadMappings });
      expect(outcome).toMatchObject({ result: 'failed', status: 409, saved: true, file: mapping, reload: { ok: false }, error: { code: 'MAPPING_INVALID' } });
      expect(outcome.detail).toMatch(
        /^saved .*mapping\.yaml \(the previous one kept as mapping\.yaml\.\d{8}-\d{6}\.bak\), but the reload failed and the daemon keeps the mappings it had: flow other/,
      );
      expect(fs.readFileSync(mapping, 'utf8')).toBe(after);
      expect(fs.readFileSync(outcome.backup!, 'utf8')).toBe(before);
    });
  });
});
