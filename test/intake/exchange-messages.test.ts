/**
 * 1C's EnterpriseData exchange through a folder, intake side: a real inbox as the exchange folder,
 * the real store and the shipped `enterprisedata-orders.yaml` mapping; 1C's messages are written
 * from the published schemas (`test/helpers/enterprisedata.ts`).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { strayMessagesOf } from '../../src/store/exchange-folders.js';
import { exchangeStateOf, listExchangeMessages } from '../../src/store/exchanges.js';
import { manualClock } from '../helpers/clock.js';
import { NO_WAIT } from '../helpers/fixtures.js';
import { NODE, OUR_REPLY, PEER, PEER_MESSAGE, edCatalogItem, edMessage, edOrder, edZip, refOf } from '../helpers/enterprisedata.js';
import { dropFile, withIntake, type IntakeFixture } from '../helpers/with-intake.js';

const MAPPING = path.resolve('config/mappings/enterprisedata-orders.yaml');
const withExchange = <T>(fn: (f: IntakeFixture) => Promise<T>, exchange: Record<string, unknown> = {}) =>
  withIntake(NO_WAIT, fn, { mappingFile: MAPPING, flow: { enterpriseData: { node: NODE, peer: PEER, ...exchange } } });

/** The fields of our reply in the folder, read as 1C reads them (local names). */
async function reply(f: IntakeFixture, name = OUR_REPLY): Promise<Record<string, string | string[] | boolean>> {
  const xml = await fs.readFile(path.join(f.inbox, name), 'utf8');
  const one = (tag: string) => new RegExp(`<msg:${tag}>([^<]*)</msg:${tag}>`).exec(xml)?.[1] ?? '';
  return {
    format: one('Format'),
    to: one('To'),
    from: one('From'),
    messageNo: one('MessageNo'),
    receivedNo: one('ReceivedNo'),
    versions: [...xml.matchAll(/<msg:AvailableVersion>([^<]*)</g)].map((m) => m[1]!),
    types: [...xml.matchAll(/<msg:ObjectType>(.*?)<\/msg:ObjectType>/g)].map((m) => m[1]!),
    body: xml.includes('<Body '),
  };
}

/** Drop one of 1C's messages under its name and let the intake take it. */
async function send(f: IntakeFixture, content: string | Buffer, name = PEER_MESSAGE): Promise<void> {
  await fs.writeFile(path.join(f.inbox, name), content);
  await f.intake.scanNow();
}

/** The flow's files, oldest first. */
const files = (f: IntakeFixture) => [...f.files()].reverse();

const started = async (f: IntakeFixture) => {
  await f.intake.start();
  return f;
};

describe('EnterpriseData exchange: the handshake', () => {
  it('answers 1C’s settings with ours: the versions read and the purchase order as the one type received', async () => {
    await withExchange(async (f) => {
      await started(f);
      await send(f, edMessage({ version: null, versions: ['1.8', '1.6', '1.11'] }));
      expect(f.files()).toEqual([expect.objectContaining({ state: 'archived', requestCount: 0, problemCount: 0 })]);
      const answer = await reply(f);
      expect(answer).toMatchObject({
        format: 'http://v8.1c.ru/edi/edi_stnd/EnterpriseData',
        to: PEER,
        from: NODE,
        messageNo: '0',
        receivedNo: '0',
        body: false,
      });
      expect(answer.versions).toEqual(['1.6', '1.7', '1.8', '1.10', '1.11', '1.12', '1.15', '1.16', '1.17', '1.18', '1.19', '1.20', '1.21', '1.22']);
      expect(answer.types).toEqual(['<msg:Name>Документ.ЗаказПоставщику</msg:Name><msg:Sending/><msg:Receiving>*</msg:Receiving>']);
      const row = exchangeStateOf(f.db, { flow: 'requests', node: NODE, peer: PEER })!;
      expect(row).toMatchObject({ agreedVersion: '1.11', lastTakenNo: 0, replyDue: 0, replyFormat: 'settings' });
      expect(JSON.parse(row.peerVersions!)).toEqual(['1.8', '1.6', '1.11']);
      expect(JSON.parse(row.peerObjectTypes!)).toContainEqual({ name: 'Документ.ЗаказПоставщику', sending: '*', receiving: '*' });
    });
  });

  it('leaves the folder’s other files alone: 1C’s folder test, our own reply, anything else', async () => {
    await withExchange(async (f) => {
      await dropFile(f.inbox, 'ConnectionCheckFile_5b0e7c6a-1f2d-4c1e-9a77-3d2b8f0c1a22.tmp', 'Временный файл проверки');
      await dropFile(f.inbox, 'orders.csv', 'a;b\n1;2\n');
      await dropFile(f.inbox, OUR_REPLY, edMessage({ from: NODE, to: PEER, version: null }));
      await dropFile(f.inbox, `Message_${PEER}_ДРУГОЙ.xml`, edMessage({ to: 'ДРУГОЙ' }));
      await started(f);
      expect(f.files()).toEqual([]);
      expect((await f.list()).sort()).toEqual(
        ['ConnectionCheckFile_5b0e7c6a-1f2d-4c1e-9a77-3d2b8f0c1a22.tmp', OUR_REPLY, `Message_${PEER}_ДРУГОЙ.xml`, 'orders.csv'].sort(),
      );
    });
  });
});

describe('EnterpriseData exchange: data messages', () => {
  it('takes the purchase orders of a message, reads past other objects, and acknowledges its number', async () => {
    await withExchange(async (f) => {
      await started(f);
      await send(f, edMessage({ version: null }));
      const deletion =
        '<УдалениеОбъекта><СсылкаНаОбъект><СсылкаНаОбъект><ЗаказПоставщикуСсылка>6f1c2a4e-8b3d-11ee-b962-0242ac120001</ЗаказПоставщикуСсылка></СсылкаНаОбъект></СсылкаНаОбъект></УдалениеОбъекта>';
      await send(
        f,
        edMessage({
          no: 1,
          body: [
            edCatalogItem(),
            edOrder('1.8', { number: 'ЗП-1' }),
            '<Документ.ЗаказКлиента><КлючевыеСвойства><Номер>ЗК-9</Номер></КлючевыеСвойства></Документ.ЗаказКлиента>',
            edOrder('1.8', { number: 'ЗП-2' }),
            deletion,
          ],
        }),
      );
      // Each order keyed by its identity (Ссылка), sent under its number and identity.
      expect(f.submissions().map((s) => [s.externalId, s.documentNumber, s.idempotencyKey, s.state])).toEqual([
        [`ЗП-1 ${refOf('ЗП-1')}`, 'ЗП-1', `erp1c:${refOf('ЗП-1')}`, 'pending'],
        [`ЗП-2 ${refOf('ЗП-2')}`, 'ЗП-2', `erp1c:${refOf('ЗП-2')}`, 'pending'],
      ]);
      expect(JSON.parse(f.submissions()[0]!.payload)).toMatchObject({
        customer: { inn: '7707083893' },
        contact: { name: 'Отдел закупок', phone: '+7 000 000-00-00' },
        delivery: { city: 'Москва', address: '123456, Москва г, Ленина ул, дом № 1', desiredDate: '2030-03-20' },
        items: [
          { lineId: '1', name: 'Бумага А4', quantity: 20, unit: 'шт' },
          { lineId: '2', name: 'Картридж', quantity: 2, unit: 'шт' },
        ],
      });
      expect(await reply(f)).toMatchObject({ format: 'http://v8.1c.ru/edi/edi_stnd/EnterpriseData/1.8', messageNo: '1', receivedNo: '1', body: true });
      expect(listExchangeMessages(f.db, 'requests', 10).map((m) => [m.kind, m.messageNo])).toEqual([
        ['taken', 1],
        ['settings', 0],
      ]);
    });
  });

  it('ignores a message numbered at or below the last one taken, and writes the acknowledgement again', async () => {
    await withExchange(async (f) => {
      await started(f);
      await send(f, edMessage({ no: 3, body: [edOrder('1.8', { number: 'ЗП-1' })] }));
      await fs.rm(path.join(f.inbox, OUR_REPLY));
      // 1C writes the same number again after a failure of its own: a new creation date, the same documents and one more.
      await send(f, edMessage({ no: 3, body: [edOrder('1.8', { number: 'ЗП-1' }), edOrder('1.8', { number: 'ЗП-2' })] }).replace('09:15:42', '09:20:00'));
      await send(f, edMessage({ no: 2, body: [edOrder('1.8', { number: 'ЗП-3' })] }));
      expect(f.submissions().map((s) => s.documentNumber)).toEqual(['ЗП-1']);
      expect(files(f).map((file) => file.state)).toEqual(['archived', 'archived', 'archived']);
      expect(JSON.parse(files(f)[1]!.report!).notes[0].message).toMatch(/^Message 3 was taken before \(the last one taken is 3\)/);
      expect(await reply(f)).toMatchObject({ messageNo: '1', receivedNo: '3' });
    });
  });

  it('a document 1C sends again (unacknowledged, or changed elsewhere) does not become a second request', async () => {
    await withExchange(async (f) => {
      await started(f);
      await send(f, edMessage({ no: 1, body: [edOrder('1.8', { number: 'ЗП-1' })] }));
      await send(f, edMessage({ no: 2, received: 1, body: [edOrder('1.8', { number: 'ЗП-1' }), edOrder('1.8', { number: 'ЗП-2' })] }));
      expect(f.submissions().map((s) => s.documentNumber)).toEqual(['ЗП-1', 'ЗП-2']);
      const report = JSON.parse(files(f)[1]!.report!);
      expect(report.notes).toContainEqual(
        expect.objectContaining({ externalId: `ЗП-1 ${refOf('ЗП-1')}`, message: expect.stringContaining('already in the outbox with the same content') }),
      );
      expect(await reply(f)).toMatchObject({ messageNo: '2', receivedNo: '2' });
      expect(exchangeStateOf(f.db, { flow: 'requests', node: NODE, peer: PEER })).toMatchObject({ peerReceivedNo: 1, sentNo: 2 });
    });
  });

  it('a bad document is a problem with its code, its number and the message; the rest goes through and the message is acknowledged', async () => {
    await withExchange(async (f) => {
      await started(f);
      await send(f, edMessage({ no: 7, body: [edOrder('1.8', { number: 'ЗП-1' }), edOrder('1.8', { number: 'ЗП-2', inn: '7707083894' })] }));
      expect(f.submissions().map((s) => s.documentNumber)).toEqual(['ЗП-1']);
      const [file] = f.files();
      expect(file).toMatchObject({ state: 'archived', problemCount: 1 });
      const report = JSON.parse(await fs.readFile(`${file!.currentPath!}.errors.json`, 'utf8'));
      expect(report.problems).toEqual([
        expect.objectContaining({
          code: 'INN_INVALID',
          field: 'customer.inn',
          documentNumber: 'ЗП-2',
          message: expect.stringContaining(`of ${PEER_MESSAGE} (message 7)`),
        }),
      ]);
      expect(await reply(f)).toMatchObject({ receivedNo: '7' });
    });
  });

  it('a message with only bad documents, or none, is still taken and acknowledged', async () => {
    await withExchange(async (f) => {
      await started(f);
      await send(f, edMessage({ no: 1, body: [edCatalogItem()] }));
      await send(f, edMessage({ no: 2, body: [edOrder('1.8', { number: 'ЗП-2', inn: '1234567890' })] }));
      expect(files(f).map((file) => [file.state, file.requestCount, file.problemCount])).toEqual([
        ['archived', 0, 0],
        ['archived', 0, 1],
      ]);
      expect(await reply(f)).toMatchObject({ receivedNo: '2' });
    });
  });

  it('a message that cannot be read whole is rejected and not acknowledged: 1C sends the changes again', async () => {
    await withExchange(async (f) => {
      await started(f);
      await send(f, edMessage({ no: 1, body: [edOrder('1.8', { number: 'ЗП-1' })] }));
      const whole = edMessage({ no: 2, body: [edOrder('1.8', { number: 'ЗП-2' }), edOrder('1.8', { number: 'ЗП-3' })] });
      await send(f, whole.slice(0, whole.indexOf('ЗП-3') + 20));
      expect(files(f)[1]).toMatchObject({ state: 'rejected', requestCount: 0 });
      expect((await f.rejectedReport()).problems).toEqual([expect.objectContaining({ code: 'XML_MALFORMED', row: null })]);
      expect(f.submissions().map((s) => s.documentNumber)).toEqual(['ЗП-1']);
      expect(await reply(f)).toMatchObject({ messageNo: '1', receivedNo: '1' });
      // 1C's next message carries the same changes under a new number.
      await send(f, edMessage({ no: 3, body: [edOrder('1.8', { number: 'ЗП-2' }), edOrder('1.8', { number: 'ЗП-3' })] }));
      expect(f.submissions().map((s) => s.documentNumber)).toEqual(['ЗП-1', 'ЗП-2', 'ЗП-3']);
      expect(await reply(f)).toMatchObject({ messageNo: '2', receivedNo: '3' });
    });
  });

  it.each([
    ['to another program', edMessage({ to: 'ДРУГОЙ' }), 'EXCHANGE_NODE_MISMATCH'],
    ['from another infobase', edMessage({ from: 'БП' }), 'EXCHANGE_NODE_MISMATCH'],
    ['in a version not read', edMessage({ version: '1.5' }), 'EXCHANGE_VERSION_UNSUPPORTED'],
    ['in another format', edMessage().replace(/<msg:Format>[^<]*</, '<msg:Format>urn:1C.ru:commerceml_2<'), 'EXCHANGE_MESSAGE_INVALID'],
    ['without a header', '<?xml version="1.0"?><КоммерческаяИнформация/>', 'EXCHANGE_MESSAGE_INVALID'],
    ['with a number that is not one', edMessage().replace('<msg:MessageNo>1<', '<msg:MessageNo>один<'), 'EXCHANGE_MESSAGE_INVALID'],
    ['with a DOCTYPE', edMessage().replace('<Message ', '<!DOCTYPE Message [<!ENTITY x "xx">]><Message '), 'XML_DTD_REFUSED'],
    ['nested past the depth limit in its body', edMessage({ body: [`${'<a>'.repeat(100)}${'</a>'.repeat(100)}`] }), 'XML_LIMIT_EXCEEDED'],
    [
      'with a text past the 4 MiB limit in its header',
      edMessage().replace('<msg:CreationDate>', `<msg:CreationDate>${'1'.repeat(5 * 1024 * 1024)}`),
      'XML_LIMIT_EXCEEDED',
    ],
  ])('refuses a message %s (%s) and acknowledges nothing', async (_what, content, code) => {
    await withExchange(async (f) => {
      await started(f);
      await send(f, content);
      expect(f.files()).toEqual([expect.objectContaining({ state: 'rejected' })]);
      expect((await f.rejectedReport()).problems).toEqual([expect.objectContaining({ code })]);
      expect(exchangeStateOf(f.db, { flow: 'requests', node: NODE, peer: PEER })).toMatchObject({ lastTakenNo: 0, replyDue: 0, replyFormat: null });
      await expect(fs.access(path.join(f.inbox, OUR_REPLY))).rejects.toThrow();
    });
  });

  it('reads a message with a UTF-8 byte order mark, and the transliterated names 1C writes when set to', async () => {
    await withExchange(
      async (f) => {
        await started(f);
        await send(f, edMessage({ no: 1, bom: true, body: [edOrder('1.8', { number: 'ЗП-1' })] }), 'Message_UT_PK.xml');
        expect(f.submissions().map((s) => s.documentNumber)).toEqual(['ЗП-1']);
        expect(await reply(f, 'Message_PK_UT.xml')).toMatchObject({ receivedNo: '1' });
      },
      { transliterateFileNames: true },
    );
  });
});

describe('EnterpriseData exchange: compressed messages', () => {
  it('reads 1C’s zip, with its password', async () => {
    await withExchange(
      async (f) => {
        await started(f);
        await send(f, edZip(PEER_MESSAGE, edMessage({ no: 1, body: [edOrder('1.8', { number: 'ЗП-1' })] }), 'секрет-123'), `Message_${PEER}_${NODE}.zip`);
        expect(f.submissions().map((s) => s.documentNumber)).toEqual(['ЗП-1']);
        expect(await reply(f)).toMatchObject({ receivedNo: '1' });
      },
      { password: 'секрет-123' },
    );
  });

  it('reads a zip without a password', async () => {
    await withExchange(async (f) => {
      await started(f);
      await send(f, edZip(PEER_MESSAGE, edMessage({ no: 4, body: [edOrder('1.8', { number: 'ЗП-1' })] })), `Message_${PEER}_${NODE}.zip`);
      expect(f.submissions().map((s) => s.documentNumber)).toEqual(['ЗП-1']);
    });
  });

  it.each([
    ['no password is configured', undefined],
    ['the configured password is wrong', 'не тот'],
  ])('refuses an encrypted zip when %s (ARCHIVE_ENCRYPTED)', async (_what, password) => {
    await withExchange(
      async (f) => {
        await started(f);
        await send(f, edZip(PEER_MESSAGE, edMessage({ no: 1, body: [edOrder('1.8', { number: 'ЗП-1' })] }), 'секрет-123'), `Message_${PEER}_${NODE}.zip`);
        expect((await f.rejectedReport()).problems).toEqual([expect.objectContaining({ code: 'ARCHIVE_ENCRYPTED' })]);
        expect(f.submissions()).toEqual([]);
      },
      password === undefined ? {} : { password },
    );
  });

  it('refuses a zip bomb unread: an entry that would inflate past the limit, or that lies about its size', async () => {
    await withExchange(async (f) => {
      await started(f);
      const big = Buffer.alloc(64 * 1024 * 1024, 0x20);
      big.write(edMessage({ no: 1 }).slice(0, -12), 0);
      const zip = edZip(PEER_MESSAGE, big);
      // A lying size: the central directory and the local header both claim 1 KiB.
      const lying = Buffer.from(zip);
      for (let at = lying.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])); at !== -1; at = lying.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), at + 4)) {
        lying.writeUInt32LE(1024, at + 24);
      }
      lying.writeUInt32LE(1024, lying.indexOf(Buffer.from([0x50, 0x4b, 0x03, 0x04])) + 22);
      await send(f, lying, `Message_${PEER}_${NODE}.zip`);
      expect((await f.rejectedReport()).problems).toEqual([expect.objectContaining({ code: 'ARCHIVE_LIMIT_EXCEEDED' })]);
      expect(f.submissions()).toEqual([]);
    });
  });
});

describe('EnterpriseData exchange: crashes and set-up again', () => {
  it('a reply that could not be written after the commit is written at the next start, with the same numbers', async () => {
    await withExchange(async (f) => {
      await started(f);
      // The folder refuses our reply: a directory sits where it goes.
      await fs.mkdir(path.join(f.inbox, OUR_REPLY));
      await send(f, edMessage({ no: 5, body: [edOrder('1.8', { number: 'ЗП-1' })] }));
      expect(f.submissions()).toHaveLength(1);
      expect(exchangeStateOf(f.db, { flow: 'requests', node: NODE, peer: PEER })).toMatchObject({ lastTakenNo: 5, replyDue: 1, sentNo: 1 });
      await f.intake.stop();
      await fs.rm(path.join(f.inbox, OUR_REPLY), { recursive: true });
      const again = f.reopen();
      await again.intake.start();
      expect(await reply(f)).toMatchObject({ messageNo: '1', receivedNo: '5' });
      expect(exchangeStateOf(again.db, { flow: 'requests', node: NODE, peer: PEER })).toMatchObject({ replyDue: 0 });
    });
  });

  it('1C set up again (a new handshake) numbers from 1: its messages are taken again, their documents not recorded twice', async () => {
    await withExchange(async (f) => {
      await started(f);
      await send(f, edMessage({ no: 8, body: [edOrder('1.8', { number: 'ЗП-1' })] }));
      await send(f, edMessage({ version: null }));
      await send(f, edMessage({ no: 1, body: [edOrder('1.8', { number: 'ЗП-1' }), edOrder('1.8', { number: 'ЗП-2' })] }));
      expect(f.submissions().map((s) => s.documentNumber)).toEqual(['ЗП-1', 'ЗП-2']);
      expect(await reply(f)).toMatchObject({ messageNo: '2', receivedNo: '1' });
    });
  });
});

describe('EnterpriseData exchange: messages for other codes in the folder', () => {
  const strayRow = (f: IntakeFixture) =>
    f.db.prepare('SELECT stray_messages AS strays, changed_at AS changedAt FROM exchange_folders WHERE flow = ?').get('requests') as
      { strays: string; changedAt: number } | undefined;
  const strayWarnings = (f: IntakeFixture) => f.logs().filter((line) => String(line.msg).startsWith('a message for other codes'));

  it('records one within the scan that sees it, warns once, writes the store only when the set changes, and forgets it once gone', async () => {
    const clock = manualClock(Date.UTC(2030, 2, 1, 9, 0, 0));
    await withIntake(
      NO_WAIT,
      async (f) => {
        await dropFile(f.inbox, 'Message_УТ_XX.xml', edMessage({ to: 'XX' }));
        await started(f);
        const first = clock();
        expect(strayMessagesOf(f.db, 'requests')).toEqual([{ name: 'Message_УТ_XX.xml', seenAt: first }]);
        expect(strayWarnings(f)).toEqual([
          expect.objectContaining({
            level: 'warn',
            file: 'Message_УТ_XX.xml',
            kind: 'node',
            from: 'УТ',
            to: 'XX',
            msg: expect.stringContaining("1C writes to the code XX: this program's code in 1C is XX, the config says ПК (enterpriseData.node)"),
          }),
        ]);
        // Left alone: not taken, not moved.
        expect(f.files()).toEqual([]);
        expect(await f.list()).toEqual(['Message_УТ_XX.xml']);

        // The same folder again: nothing written, nothing said.
        clock.advance(60_000);
        await f.intake.scanNow();
        expect(strayRow(f)?.changedAt).toBe(first);
        expect(strayWarnings(f)).toHaveLength(1);

        // A second one joins: the set is written again, the first keeps when it was seen.
        await dropFile(f.inbox, `Message_БП_ПК.zip`, 'PK');
        await f.intake.scanNow();
        expect(strayMessagesOf(f.db, 'requests')).toEqual([
          { name: 'Message_БП_ПК.zip', seenAt: first + 60_000 },
          { name: 'Message_УТ_XX.xml', seenAt: first },
        ]);
        expect(strayRow(f)?.changedAt).toBe(first + 60_000);
        expect(strayWarnings(f).map((line) => [line.file, line.kind])).toEqual([
          ['Message_УТ_XX.xml', 'node'],
          ['Message_БП_ПК.zip', 'peer'],
        ]);

        await fs.rm(path.join(f.inbox, 'Message_УТ_XX.xml'));
        await fs.rm(path.join(f.inbox, 'Message_БП_ПК.zip'));
        await f.intake.scanNow();
        expect(strayMessagesOf(f.db, 'requests')).toEqual([]);
        expect(strayRow(f)).toBeUndefined();
      },
      { clock, mappingFile: MAPPING, flow: { enterpriseData: { node: NODE, peer: PEER } } },
    );
  });

  it('does not warn again after a restart for a file it already named', async () => {
    await withExchange(async (f) => {
      await dropFile(f.inbox, 'Message_УТ_XX.xml', edMessage({ to: 'XX' }));
      await started(f);
      await f.intake.stop();
      const again = f.reopen();
      await again.intake.start();
      expect(strayWarnings(f)).toHaveLength(1);
      expect(strayMessagesOf(again.db, 'requests').map((stray) => stray.name)).toEqual(['Message_УТ_XX.xml']);
    });
  });

  it('counts neither 1C’s message to it nor its own reply, in either form', async () => {
    await withExchange(async (f) => {
      await started(f);
      await send(f, edMessage({ version: null }));
      await dropFile(f.inbox, 'Message_PK_UT.xml', 'an older reply, transliterated');
      await dropFile(f.inbox, 'Message_UT_PK.xml', edMessage({ version: null }));
      await f.intake.scanNow();
      expect(await f.list()).toContain(OUR_REPLY);
      expect(strayMessagesOf(f.db, 'requests')).toEqual([]);
    });
  });
});

describe('EnterpriseData exchange: the reply is named as 1C names its messages', () => {
  const state = (f: IntakeFixture) => exchangeStateOf(f.db, { flow: 'requests', node: NODE, peer: PEER })!;
  const nameWarnings = (f: IntakeFixture) => f.logs().filter((line) => String(line.msg).startsWith('1C names its messages') && line.level === 'warn');

  it('answers a transliterated message under the transliterated name and a Cyrillic one under the Cyrillic name, whatever the config says', async () => {
    await withExchange(async (f) => {
      await started(f);
      await send(f, edMessage({ no: 1, body: [edOrder('1.8', { number: 'ЗП-1' })] }), 'Message_UT_PK.xml');
      expect(await reply(f, 'Message_PK_UT.xml')).toMatchObject({ receivedNo: '1', to: PEER, from: NODE });
      await expect(fs.access(path.join(f.inbox, OUR_REPLY))).rejects.toThrow();
      expect(state(f)).toMatchObject({ peerNameForm: 'transliterated', replyName: 'Message_PK_UT.xml' });
      // The config says otherwise (transliterateFileNames: false): said once.
      expect(nameWarnings(f)).toEqual([
        expect.objectContaining({ reply: 'Message_PK_UT.xml', msg: expect.stringContaining('set transliterateFileNames: true') }),
      ]);

      await send(f, edMessage({ no: 2, body: [edOrder('1.8', { number: 'ЗП-2' })] }), 'Message_UT_PK.xml');
      expect(nameWarnings(f)).toHaveLength(1);

      await send(f, edMessage({ no: 3, body: [edOrder('1.8', { number: 'ЗП-3' })] }), PEER_MESSAGE);
      expect(await reply(f, OUR_REPLY)).toMatchObject({ receivedNo: '3' });
      expect(state(f)).toMatchObject({ peerNameForm: 'plain', replyName: OUR_REPLY });
      expect(f.submissions().map((s) => s.documentNumber)).toEqual(['ЗП-1', 'ЗП-2', 'ЗП-3']);
    });
  });

  it('names the reply as the config says until 1C has written, and then as 1C writes', async () => {
    await withExchange(
      async (f) => {
        await started(f);
        await send(f, edMessage({ version: null }), PEER_MESSAGE);
        expect(await reply(f, OUR_REPLY)).toMatchObject({ messageNo: '0' });
        expect(state(f)).toMatchObject({ peerNameForm: 'plain', replyName: OUR_REPLY });
        expect(nameWarnings(f)).toEqual([expect.objectContaining({ msg: expect.stringContaining('set transliterateFileNames: false') })]);
      },
      { transliterateFileNames: true },
    );
  });

  it('with Latin codes, keeps no form: the config names the reply, and both names are one', async () => {
    await withIntake(
      NO_WAIT,
      async (f) => {
        await f.intake.start();
        await send(f, edMessage({ no: 1, from: 'UT', to: 'PC', body: [edOrder('1.8', { number: 'ЗП-1' })] }), 'Message_UT_PC.xml');
        expect(await reply(f, 'Message_PC_UT.xml')).toMatchObject({ receivedNo: '1' });
        expect(exchangeStateOf(f.db, { flow: 'requests', node: 'PC', peer: 'UT' })).toMatchObject({ peerNameForm: null, replyName: 'Message_PC_UT.xml' });
      },
      { mappingFile: MAPPING, flow: { enterpriseData: { node: 'PC', peer: 'UT', transliterateFileNames: true } } },
    );
  });
});
