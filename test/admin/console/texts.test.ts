/**
 * The console's words for what the connector says about the data (`texts-*.ts`, `codes-ru.ts`,
 * `views/error-words.ts`): every key a problem or a note is made with has its words in both
 * languages, Russian agrees its words with numbers and nouns, and the platform's answers are
 * worded from their code, status and problem details.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { translator } from '../../../src/admin/console/i18n.js';
import { textsEn } from '../../../src/admin/console/texts-en.js';
import { errorWords, exportErrorWords, platformWords } from '../../../src/admin/console/views/error-words.js';
import { fileHint, fileHints, problemMessage, problemWords, stateWord } from '../../../src/admin/console/views/parts.js';
import { readableKey } from '../../../src/admin/console/views/requests.js';

const ru = translator('ru');
const en = translator('en');

/** Every `text: { key: '…' }` (and `{ key: '…' }` in a `MessageText` position) written in src/. */
function keysUsedInSource(): Set<string> {
  const keys = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (/\.tsx?$/.test(entry.name)) {
        const source = fs.readFileSync(file, 'utf8');
        for (const match of source.matchAll(/\btext:\s*\{\s*key:\s*'([A-Za-z]+)'/g)) keys.add(match[1]!);
        for (const match of source.matchAll(/\bkey:\s*'([A-Za-z]+)'\s*(?:,\s*params|\})/g)) {
          // In config/ a `{ column, key: 'groupBy' }` is a mapping key, not a text: there a text's key opens its object.
          if (!dir.startsWith('src/config') || /\{\s*$/.test(source.slice(0, match.index))) keys.add(match[1]!);
        }
      }
    }
  };
  for (const dir of ['src/mapping', 'src/intake', 'src/admin/console/views', 'src/admin/console/studio', 'src/config']) walk(dir);
  return keys;
}

describe('the catalogue of what problems and notes say', () => {
  it('has words, in both languages, for every key a problem or a note is made with', () => {
    const used = [...keysUsedInSource()];
    expect(used.length).toBeGreaterThan(30);
    expect(used.filter((key) => !Object.hasOwn(textsEn, key))).toEqual([]);
    for (const key of used) {
      expect(ru.text({ key }), key).toBeTypeOf('string');
      expect(en.text({ key }), key).toBeTypeOf('string');
    }
  });

  it('words a problem from its key in Russian, and from its code when it has none', () => {
    expect(problemMessage(ru, { code: 'INN_INVALID', text: { key: 'innCheck' } })).toBe('не проходит проверку контрольного числа ИНН');
    expect(problemMessage(ru, { code: 'XML_MALFORMED' })).toBe('XML-файл повреждён (не является правильным XML); отчёт называет строку и столбец.');
    expect(problemMessage(en, { code: 'INN_INVALID', text: { key: 'innCheck' } })).toBe('fails the INN check digit');
    // A key the catalogue does not know falls back to the code's meaning, never to an English sentence.
    expect(problemMessage(ru, { code: 'FIELD_INVALID', text: { key: 'noSuchKey' } })).toBe(
      'Значение поля неверного типа или вида (число, дата, e-mail, длина).',
    );
  });

  it.each([
    [1, 'ещё 1 проблема начиная со строки 7 не показана (отчёт показывает первые 1000)'],
    [3, 'ещё 3 проблемы начиная со строки 7 не показаны (отчёт показывает первые 1000)'],
    [11, 'ещё 11 проблем начиная со строки 7 не показаны (отчёт показывает первые 1000)'],
    [21, 'ещё 21 проблема начиная со строки 7 не показана (отчёт показывает первые 1000)'],
    [25, 'ещё 25 проблем начиная со строки 7 не показаны (отчёт показывает первые 1000)'],
  ])('agrees a count with its noun in Russian: %i', (n, words) => {
    expect(ru.text({ key: 'moreProblems', params: { n, row: 7, shown: 1000 } })).toBe(words);
  });

  it('agrees a state with what it is the state of: a file is «отклонён», a request «отклонена», a confirmation «отклонено»', () => {
    expect(stateWord(ru, 'rejected', 'file')).toBe('отклонён');
    expect(stateWord(ru, 'rejected', 'request')).toBe('отклонена');
    expect(stateWord(ru, 'rejected', 'confirmation')).toBe('отклонено');
    expect(stateWord(ru, 'rejected')).toBe('отклонена');
    expect(stateWord(en, 'rejected', 'file')).toBe('rejected');
  });
});

describe('a file refused whole, in Russian', () => {
  it('keeps what the operator needs: both codes, the versions, the setting, the encoding advice', () => {
    expect(ru.text({ key: 'nodeMismatchTo', params: { to: 'XX', node: 'ПК', setting: 'enterpriseData.node' } })).toBe(
      'адресовано коду XX, а код этой программы — ПК (enterpriseData.node): проверьте коды, введённые в 1С, или укажите enterpriseData.node: XX и перезапустите службу',
    );
    expect(ru.text({ key: 'versionUnsupported', params: { version: '1.21', versions: '1.8, 1.11', setting: 'enterpriseData.versions' } })).toContain(
      'EnterpriseData 1.21, которую этот поток не читает (он читает 1.8, 1.11; enterpriseData.versions)',
    );
    expect(ru.text({ key: 'zipNoPassword', params: { setting: 'enterpriseData.password' } })).toContain('укажите в enterpriseData.password пароль архивов 1С');
    expect(ru.text({ key: 'utf16Excel' })).toContain('сохраните его в windows-1251 или UTF-8 (в Excel — «CSV UTF-8», а не «Текст в Юникоде»)');
  });

  it("quotes a parser's own words beside the sentence, never in it", () => {
    expect(problemWords(ru, { code: 'XML_MALFORMED', text: { key: 'xmlMalformed', params: { line: 3, column: 5, said: 'unexpected close tag' } } })).toEqual({
      text: 'не является правильным XML: строка 3, столбец 5',
      quoted: 'unexpected close tag',
    });
  });

  it.each([
    ['EXCHANGE_NODE_MISMATCH', 'enterpriseData.peer и enterpriseData.node'],
    ['EXCHANGE_VERSION_UNSUPPORTED', 'enterpriseData.versions'],
    ['ARCHIVE_ENCRYPTED', 'enterpriseData.password'],
    ['FILE_UNREADABLE', '«CSV UTF-8», а не «Текст в Юникоде»'],
    ['COLUMN_MISSING', 'на странице маппинга'],
    ['INN_INVALID', 'Исправьте данные в ERP'],
  ])('says what to do by the code: %s', (code, words) => {
    expect(fileHint(ru, code)).toContain(words);
    expect(fileHint(ru, code)).not.toContain('systemctl reload');
  });

  it('gives a file each hint of its problems once', () => {
    expect(fileHints(ru, [{ code: 'INN_INVALID' }, { code: 'FIELD_REQUIRED' }, { code: 'COLUMN_MISSING' }])).toEqual([
      fileHint(ru, 'INN_INVALID'),
      fileHint(ru, 'COLUMN_MISSING'),
    ]);
  });
});

describe("the platform's answers in words", () => {
  const conflict = {
    type: 'https://errors/conflict',
    title: 'Conflict',
    status: 409,
    detail: 'externalId exists',
    errors: [{ path: 'externalId', message: 'taken' }],
  };

  it.each([
    ['PLATFORM_CONFLICT', 409, conflict, 'Платформа ответила 409 (конфликт)', 'externalId exists; externalId: taken'],
    ['PLATFORM_REJECTED', 422, { detail: 'bad payload' }, 'Платформа отклонила окончательно (422)', 'bad payload'],
    ['PLATFORM_UNAUTHORIZED', 401, null, 'Платформа не принимает токен (401)', null],
    ['PLATFORM_UNAVAILABLE', 503, { title: 'Service Unavailable' }, 'Временный сбой платформы (503)', 'Service Unavailable'],
    ['PLATFORM_UNAVAILABLE', 409, { detail: 'in progress' }, 'Платформа ещё обрабатывает первый запрос с этим Idempotency-Key (409)', 'in progress'],
    ['PLATFORM_RESPONSE_INVALID', 201, null, 'Платформа ответила 201, но её ответ не соответствует договорённому формату', null],
  ])('%s %i: ours in Russian, the platform’s own words quoted', (code, status, answer, text, quoted) => {
    expect(errorWords(ru, { code, status, answer, message: 'The platform answered something in English' })).toEqual({ text, quoted });
  });

  it('names the request the platform already holds, and counts the attempts of a dead letter', () => {
    expect(errorWords(ru, { code: 'PLATFORM_CONFLICT', status: 409, answer: { existingRequestId: 'PRC-REQ-000042' }, message: null })?.text).toBe(
      'На платформе этот externalId уже есть: PRC-REQ-000042 (409)',
    );
    expect(
      errorWords(ru, {
        code: 'SUBMISSION_DEAD',
        status: null,
        attempts: 5,
        message: 'Gave up after 5 attempt(s), …: No answer from the platform: connect ECONNREFUSED 127.0.0.1:1',
      }),
    ).toEqual({
      text: 'Отправка прекращена после 5 попыток: Платформа не ответила',
      quoted: null,
    });
    expect(errorWords(ru, { code: 'PLATFORM_UNAVAILABLE', status: null, message: 'No answer from the platform: connect ECONNREFUSED 127.0.0.1:1' })).toEqual({
      text: 'Платформа не ответила',
      quoted: 'connect ECONNREFUSED 127.0.0.1:1',
    });
  });

  it("quotes an export's system reason without our English frame", () => {
    expect(exportErrorWords(ru, 'EACCES: cannot write /srv/import/ack-1.csv: permission denied')).toEqual({
      text: 'Файл не удалось записать',
      quoted: 'EACCES: /srv/import/ack-1.csv: permission denied',
    });
  });

  it('reads nothing into an answer that is not problem details', () => {
    expect(platformWords('text')).toBeNull();
    expect(platformWords([1, 2])).toBeNull();
    expect(platformWords({ errors: 'not a list' })).toBeNull();
  });
});

describe('the Idempotency-Key on a request page', () => {
  it('is shown as people read it, decoded from the header form', () => {
    expect(readableKey('erp1c:%D0%97%D0%9A-000101')).toBe('erp1c:ЗК-000101');
    expect(readableKey('erp1c:R-1')).toBe('erp1c:R-1');
    expect(readableKey('bad%E0%A4%A')).toBe('bad%E0%A4%A');
  });
});

/** The placeholders an entry names, in all its forms. */
function placeholdersOf(entry: unknown): string[] {
  return [...new Set([...JSON.stringify(entry).matchAll(/\{(\w+)\}/g)].map((m) => m[1]!))].sort();
}

describe('every problem and note keeps its parameters in every language', () => {
  const withParams = Object.entries(textsEn).filter(([, entry]) => placeholdersOf(entry).length > 0);

  it('has entries with parameters to check', () => {
    expect(withParams.length).toBeGreaterThan(50);
  });

  it.each(withParams.map(([key]) => key))('%s', (key) => {
    const names = placeholdersOf(textsEn[key as keyof typeof textsEn]);
    // A value no entry could write by itself, one per parameter; `n` walks Russian's plural forms.
    for (const n of names.includes('n') ? [1, 3, 5, 21] : [undefined]) {
      const params = Object.fromEntries(names.map((name, i) => [name, name === 'n' ? n! : `«p${i}-${name}»`]));
      for (const t of [en, ru]) {
        const words = t.text({ key, params });
        for (const [name, value] of Object.entries(params)) expect(words, `${t.language} ${key} {${name}} (n=${n})`).toContain(String(value));
      }
    }
  });
});
