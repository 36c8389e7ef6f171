/** A large export streams: each record is handed out one read after its end tag, never after the whole file. */
import { describe, expect, it } from 'vitest';
import { readXmlRecords } from '../../../../src/mapping/readers/xml-reader.js';
import { CountingSource, read, readSpec } from '../../../helpers/xml.js';

const CHUNK = 64 * 1024;
const order = (n: number) =>
  `<Документ><Номер>ЗК-${n}</Номер><ХозОперация>Заказ товара</ХозОперация><Товары><Товар><Наименование>Бумага А4</Наименование><Количество>${n}</Количество></Товар></Товары></Документ>\n`;
const shipment = (n: number) => `<Документ><Номер>РН-${n}</Номер><ХозОперация>Отпуск товара</ХозОперация></Документ>\n`;

describe('streaming', () => {
  it('reads 100,000 documents with a lookahead of one read', async () => {
    const pairs = 50_000;
    const ends: number[] = [];
    const source = new CountingSource(function* () {
      let pending = '<КоммерческаяИнформация ВерсияСхемы="2.08">\n';
      let offset = Buffer.byteLength(pending);
      for (let n = 1; n <= pairs; n += 1) {
        const piece = order(n);
        offset += Buffer.byteLength(piece);
        ends.push(offset);
        pending += piece + shipment(n);
        offset += Buffer.byteLength(shipment(n));
        if (pending.length >= CHUNK / 2) {
          yield pending;
          pending = '';
        }
      }
      yield `${pending}</КоммерческаяИнформация>`;
    });
    let rows = 0;
    let worstLookahead = 0;
    for await (const record of readXmlRecords(source.chunks(), readSpec("КоммерческаяИнформация/Документ[ХозОперация='Заказ товара']", 'Товары/Товар'))) {
      rows += 1;
      expect(record.place.row).toBe(rows);
      expect(read('Номер', record.node)).toBe(`ЗК-${rows}`);
      worstLookahead = Math.max(worstLookahead, source.produced - ends[rows - 1]!);
    }
    expect(rows).toBe(pairs);
    expect(worstLookahead).toBeGreaterThan(0);
    expect(worstLookahead).toBeLessThanOrEqual(CHUNK);
    expect(source.produced).toBeGreaterThan(20 * 1024 * 1024);
  });
});
