/**
 * Hostile workbooks and XML files in the inbox of a real daemon: zip bombs (honest and lying
 * sizes), a sheet declaring a billion rows, an encrypted workbook, an .xls and an .ods under the
 * .xlsx name, a truncated workbook, a DOCTYPE in a sheet; billion laughs, XXE, nesting a hundred
 * thousand deep, a 50 MB text node, a cut document, a wrong declared encoding. Each lands in
 * `rejected/` with a report and its code, the daemon stays up in the same process, nothing
 * reaches the platform, and a good file dropped after them all still goes through.
 */
import fs from 'node:fs';
import path from 'node:path';
import iconv from 'iconv-lite';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { withTempDir } from '../helpers/temp-dir.js';
import { waitUntil } from '../helpers/wait-until.js';
import { withSandbox } from '../helpers/with-sandbox.js';
import { buildCfb } from '../helpers/xlsx/cfb-builder.js';
import { MAIN_NS, workbookParts, worksheet, zipOf } from '../helpers/xlsx/workbook-builder.js';
import { deflatedSpaces, writeZip, type ZipEntry } from '../helpers/xlsx/zip-writer.js';
import { withDaemonProcess } from '../helpers/reliability/daemon-process.js';
import { dropFile, requestCommerceMl, requestWorkbook, WORKBOOK_MAPPING } from '../helpers/reliability/request-files.js';
import { SECRETS, filesIn, prepareDaemon } from '../helpers/reliability/setup.js';

const MiB = 1024 * 1024;
const SMALL = workbookParts({ sheets: [{ name: 'S', xml: '<row r="1"><c r="A1"><v>1</v></c></row>' }] });

async function hostileWorkbooks(): Promise<[string, Buffer, string][]> {
  const prefix = `<worksheet xmlns="${MAIN_NS}"><sheetData>`;
  const bomb = await deflatedSpaces(prefix, 1024);
  const withSheet = (entry: Partial<ZipEntry>, extra: ZipEntry[] = []) =>
    writeZip([
      ...[...SMALL].map(([name, text]): ZipEntry => ({ name, data: Buffer.from(text), ...(name === 'xl/worksheets/sheet1.xml' ? entry : {}) })),
      ...extra,
    ]);
  const copies = (declaredSize: number) =>
    Array.from({ length: 9 }, (_, i): ZipEntry => ({ name: `xl/media/copy${i}.bin`, sameDataAs: 'xl/worksheets/sheet1.xml', declaredSize }));
  const good = await requestWorkbook('HOSTILE', 0, 3);
  const doctype = new Map(SMALL);
  doctype.set(
    'xl/worksheets/sheet1.xml',
    `<?xml version="1.0"?><!DOCTYPE w [<!ENTITY x SYSTEM "file:///etc/passwd">]>${worksheet('<row r="1"><c r="A1" t="str"><v>&x;</v></c></row>')}`,
  );
  return [
    [
      'bomb-honest.xlsx',
      withSheet({ raw: bomb, declaredSize: Buffer.byteLength(prefix) + 1024 * MiB }, copies(Buffer.byteLength(prefix) + 1024 * MiB)),
      'WORKBOOK_LIMIT_EXCEEDED',
    ],
    ['bomb-lying.xlsx', withSheet({ raw: bomb, declaredSize: 4096 }, copies(4096)), 'WORKBOOK_LIMIT_EXCEEDED'],
    [
      'billion-rows.xlsx',
      zipOf(workbookParts({ sheets: [{ name: 'S', xml: worksheet('<row r="1"><c r="A1"><v>1</v></c></row>', { dimension: 'A1:C1000000000' }) }] })),
      'WORKBOOK_LIMIT_EXCEEDED',
    ],
    ['encrypted.xlsx', buildCfb(['EncryptionInfo', 'EncryptedPackage']), 'WORKBOOK_ENCRYPTED'],
    ['old.xlsx', fs.readFileSync(path.resolve('test/fixtures/xlsx/lo-1c-report.xls')), 'FILE_FORMAT_UNSUPPORTED'],
    ['really.xls', buildCfb(['Workbook']), 'FILE_FORMAT_UNSUPPORTED'],
    [
      'calc.xlsx',
      writeZip([
        { name: 'mimetype', data: Buffer.from('application/vnd.oasis.opendocument.spreadsheet'), stored: true },
        { name: 'content.xml', data: Buffer.from('<office:document-content/>') },
      ]),
      'FILE_FORMAT_UNSUPPORTED',
    ],
    ['truncated.xlsx', good.subarray(0, Math.floor(good.length / 2)), 'FILE_UNREADABLE'],
    ['doctype.xlsx', zipOf(doctype), 'XML_DTD_REFUSED'],
  ];
}

function hostileXml(): [string, Buffer, string][] {
  const root = 'КоммерческаяИнформация';
  const laughs = [
    '<?xml version="1.0"?>',
    '<!DOCTYPE lolz [<!ENTITY lol "lol">',
    ...Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`),
    ']>',
    `<${root}><Документ><Номер>&lol9;</Номер></Документ></${root}>`,
  ].join('\n');
  const good = requestCommerceMl('HOSTILEXML', 0, 2).toString('latin1');
  const deep = `<?xml version="1.0" encoding="UTF-8"?><${root}>${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}</${root}>`;
  const hugeText = Buffer.concat([
    Buffer.from(`<?xml version="1.0" encoding="UTF-8"?><${root}><Документ><Номер>`),
    Buffer.alloc(50 * MiB, 0x61),
    Buffer.from(`</Номер></Документ></${root}>`),
  ]);
  const utf8Declared1251 = Buffer.from(iconv.decode(requestCommerceMl('HOSTILEXML', 2, 3), 'win1251'), 'utf8');
  return [
    ['laughs.xml', Buffer.from(laughs), 'XML_DTD_REFUSED'],
    ['xxe.xml', Buffer.from(`<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]><${root}>&x;</${root}>`), 'XML_DTD_REFUSED'],
    ['deep.xml', Buffer.from(deep), 'XML_LIMIT_EXCEEDED'],
    ['huge-text.xml', hugeText, 'XML_LIMIT_EXCEEDED'],
    ['cut.xml', Buffer.from(good.slice(0, Math.floor(good.length / 2)), 'latin1'), 'XML_MALFORMED'],
    ['utf8-declared-1251.xml', utf8Declared1251, 'XML_ENCODING_MISMATCH'],
  ];
}

async function rejectsEach(mapping: string, files: [string, Buffer, string][], good: [string, Buffer]): Promise<void> {
  await withTempDir(async (root) => {
    await withSandbox({ token: SECRETS.token, supplierToken: SECRETS.supplierToken }, async (sandbox) => {
      const mappingFile = mapping.startsWith('config/') ? path.resolve(mapping) : path.join(root, 'mapping.yaml');
      if (!mapping.startsWith('config/')) fs.writeFileSync(mappingFile, mapping);
      const layout = await prepareDaemon(root, sandbox.url, { mapping: mappingFile, intake: { stableForMs: 100, minAgeMs: 0, rescanIntervalMs: 300 } });
      await withDaemonProcess({ configFile: layout.configFile, webhookPort: layout.webhookPort, logDir: layout.logDir }, async (daemon) => {
        await daemon.start();
        for (const [name, bytes] of files) dropFile(layout.inbox, name, bytes);
        const rejected = path.join(layout.inbox, 'rejected');
        const landed = (name: string) => filesIn(rejected).find((f) => f.endsWith(`-${name}`));
        await waitUntil(
          () => files.every(([name]) => landed(name) !== undefined && fs.existsSync(path.join(rejected, `${landed(name)!}.errors.json`))),
          'every hostile file in rejected/ with its report',
          { timeoutMs: 120_000, intervalMs: 200 },
        );
        const codes = Object.fromEntries(
          files.map(([name]) => {
            const report = JSON.parse(fs.readFileSync(path.join(rejected, `${landed(name)!}.errors.json`), 'utf8')) as { problems: { code: string }[] };
            return [name, [...new Set(report.problems.map((p) => p.code))]];
          }),
        );
        expect(codes).toEqual(Object.fromEntries(files.map(([name, , code]) => [name, [code]])));
        expect(sandbox.calls()).toEqual([]);

        // Still the same process, and still working.
        dropFile(layout.inbox, good[0], good[1]);
        await waitUntil(() => sandbox.requests().length > 0, 'the good file delivered after the hostile ones', { timeoutMs: 60_000, intervalMs: 100 });
        expect(daemon.alive()).toBe(true);
        expect(daemon.unexpectedExits).toBe(0);
        expect(daemon.starts).toBe(1);
        const health = await request(`${daemon.webhookBase}/healthz`);
        await health.body.dump();
        expect(health.statusCode).toBe(200);
        const leaked = fs.readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.json'));
        for (const file of leaked) expect(fs.readFileSync(path.join(root, file), 'utf8')).not.toContain('root:x:0:0');
        expect(await daemon.stop()).toBe(0);
        console.info(`[reliability hostile-files] ${JSON.stringify(codes)}`);
      });
    });
  });
}

describe('reliability: hostile workbooks and XML files', () => {
  it('rejects every hostile workbook with its code and a report, and stays up', async () => {
    await rejectsEach(WORKBOOK_MAPPING, await hostileWorkbooks(), ['good.xlsx', await requestWorkbook('HOSTILEOK', 0, 2)]);
  });

  it('rejects every hostile XML file with its code and a report, and stays up', async () => {
    await rejectsEach('config/mappings/commerceml-orders.yaml', hostileXml(), ['good.xml', requestCommerceMl('HOSTILEOK', 0, 2)]);
  });
});
