/** The recording plan, table-tested: what each submission becomes, and the file's outcome and report. */
import { describe, expect, it } from 'vitest';
import { MAX_LISTED_CONFLICTS, MAX_LISTED_NOTES, decideSubmissions, planChunk, planFile, planOutcome, startFilePlan } from '../../src/intake/plan-file.js';
import type { ExistingSubmission, PreparedSubmission } from '../../src/store/record-file.js';
import type { MappingProblem } from '../../src/shared/types.js';

function prepared(externalId: string, payloadHash: string, firstRow = 1, kind: 'request' | 'confirmation' = 'request'): PreparedSubmission {
  return {
    kind,
    externalId,
    orderId: kind === 'confirmation' ? externalId : null,
    firstRow,
    payload: '{}',
    payloadHash,
    dedupeKey: externalId,
    idempotencyKey: `erp:${externalId}`,
    correctionKey: `erp:${externalId}:${payloadHash}`,
    document: null,
    contentHash: null,
  };
}
const existing = (entries: [string, ExistingSubmission][]) => new Map(entries);
/** An outbox row as the plan reads it: what a test names, the rest of a request never sent. */
const row = (fields: Pick<ExistingSubmission, 'id' | 'payloadHash' | 'state'> & Partial<ExistingSubmission>): ExistingSubmission => ({
  externalId: '',
  payload: '{}',
  contentHash: null,
  documentNumber: null,
  documentDate: null,
  firstClaimedAt: null,
  platformId: null,
  ...fields,
});
const FILE = { originalName: 'a.csv', sha256: 'abc' };
const rowProblem: MappingProblem = { row: 3, field: 'customer.inn', code: 'INN_INVALID', message: 'Row 3: bad' };
const fileProblem: MappingProblem = { row: null, field: null, code: 'FILE_UNREADABLE', message: 'a.csv: broken' };

describe('decideSubmissions', () => {
  it.each<[string, PreparedSubmission[], [string, ExistingSubmission][], string[]]>([
    ['new → insert', [prepared('R-1', 'h1')], [], ['insert']],
    ['same payload in the outbox → duplicate', [prepared('R-1', 'h1')], [['R-1', row({ id: 7, payloadHash: 'h1', state: 'accepted' })]], ['duplicate']],
    ['changed, earlier rejected → correct', [prepared('R-1', 'h2')], [['R-1', row({ id: 7, payloadHash: 'h1', state: 'rejected' })]], ['correct']],
    ['changed, earlier dead → correct', [prepared('R-1', 'h2')], [['R-1', row({ id: 7, payloadHash: 'h1', state: 'dead' })]], ['correct']],
    ['changed, earlier accepted → conflict', [prepared('R-1', 'h2')], [['R-1', row({ id: 7, payloadHash: 'h1', state: 'accepted' })]], ['conflict']],
    ['changed, earlier pending → conflict', [prepared('R-1', 'h2')], [['R-1', row({ id: 7, payloadHash: 'h1', state: 'pending' })]], ['conflict']],
    ['changed, earlier held → conflict', [prepared('R-1', 'h2')], [['R-1', row({ id: 7, payloadHash: 'h1', state: 'held' })]], ['conflict']],
    [
      'changed confirmation, earlier rejected → conflict',
      [prepared('ORD-1', 'h2', 1, 'confirmation')],
      [['ORD-1', row({ id: 7, payloadHash: 'h1', state: 'rejected' })]],
      ['conflict'],
    ],
    ['twice in the file, same payload → insert, duplicate', [prepared('R-1', 'h1', 1), prepared('R-1', 'h1', 4)], [], ['insert', 'duplicate']],
    ['twice in the file, other payload → insert, conflict', [prepared('R-1', 'h1', 1), prepared('R-1', 'h2', 4)], [], ['insert', 'conflict']],
  ])('%s', (_name, submissions, outbox, actions) => {
    expect(decideSubmissions(submissions, existing(outbox)).map((d) => d.action)).toEqual(actions);
  });

  it('names where the conflicting payload was recorded', () => {
    const [inFile] = decideSubmissions([prepared('R-1', 'h1', 2), prepared('R-1', 'h2', 5)], new Map()).slice(1);
    expect(inFile).toMatchObject({ action: 'conflict', problem: { row: 5, field: 'externalId', code: 'EXTERNAL_ID_CONFLICT' } });
    expect((inFile as { problem: MappingProblem }).problem.message).toContain('row 2 of this file');
    const [outbox] = decideSubmissions([prepared('R-1', 'h2')], existing([['R-1', row({ id: 9, payloadHash: 'h1', state: 'held' })]]));
    expect((outbox as { problem: MappingProblem }).problem.message).toContain('submission 9 (state held)');
  });
});

describe('planFile', () => {
  const input = (submissions: PreparedSubmission[], problems: MappingProblem[] = [], rejectWholeFile = false) => ({
    flow: 'requests',
    submissions,
    problems,
    rejectWholeFile,
  });

  it.each<[string, ReturnType<typeof input>, 'archived' | 'rejected', number]>([
    ['good rows → archived', input([prepared('R-1', 'h1'), prepared('R-2', 'h2')]), 'archived', 2],
    ['a bad row among good ones → archived, the good ones recorded', input([prepared('R-1', 'h1')], [rowProblem]), 'archived', 1],
    ['a bad row with rejectWholeFile → rejected, nothing recorded', input([prepared('R-1', 'h1')], [rowProblem], true), 'rejected', 0],
    ['a file-level problem → rejected', input([prepared('R-1', 'h1')], [fileProblem]), 'rejected', 0],
    ['only problems → rejected', input([], [rowProblem]), 'rejected', 0],
    ['nothing at all → rejected, "holds no records"', input([]), 'rejected', 0],
  ])('%s', (_name, planInput, state, inserts) => {
    const plan = planFile(planInput, FILE, new Map());
    expect(plan.state).toBe(state);
    expect(plan.inserts).toHaveLength(inserts);
  });

  it('reports problems in row order, notes duplicates, and says when valid records were not recorded', () => {
    const late: MappingProblem = { ...rowProblem, row: 9 };
    const plan = planFile(
      input([prepared('R-1', 'h1', 5), prepared('R-2', 'h2', 7)], [late, rowProblem], true),
      FILE,
      existing([['R-1', row({ id: 1, payloadHash: 'h1', state: 'accepted' })]]),
    );
    expect(plan.report.problems.map((p) => p.row)).toEqual([3, 9]);
    expect(plan.duplicates).toBe(1);
    expect(plan.report.notes.map((n) => n.message)).toEqual([
      'Row 5: "R-1" is already in the outbox with the same content; not recorded again',
      'The file was rejected as a whole: none of its 2 valid record(s) was recorded',
    ]);
    expect(planFile(input([]), FILE, new Map()).report.problems).toEqual([
      { row: null, field: null, code: 'MAPPING_FAILED', message: 'a.csv holds no requests records (only a header, or nothing)', text: { key: 'noRecords' } },
    ]);
  });

  it('corrects a failed request under its correction key', () => {
    const plan = planFile(input([prepared('R-1', 'h2')]), FILE, existing([['R-1', row({ id: 4, payloadHash: 'h1', state: 'dead' })]]));
    expect(plan.corrections).toEqual([{ id: 4, action: 'correct', submission: expect.objectContaining({ correctionKey: 'erp:R-1:h2' }) }]);
    expect(plan.inserts).toEqual([]);
  });
});

describe('planChunk and planOutcome: a file decided in chunks', () => {
  const T = { flow: 'requests', problems: [] as MappingProblem[], rejectWholeFile: false };

  /**
   * Decide `submissions` in chunks of `size` as the recording does: each chunk against a store
   * that holds the outbox rows plus what earlier chunks staged (`staged`, with their rows).
   */
  function planInChunks(submissions: PreparedSubmission[], outbox: [string, ExistingSubmission][], size: number, rejectWholeFile = false) {
    const state = startFilePlan();
    const store = new Map(outbox);
    const inserts: PreparedSubmission[] = [];
    const corrections: number[] = [];
    for (let from = 0; from < submissions.length; from += size) {
      const chunk = submissions.slice(from, from + size);
      const existing = new Map(chunk.flatMap((s) => (store.has(s.dedupeKey) ? [[s.dedupeKey, store.get(s.dedupeKey)!] as const] : [])));
      const plan = planChunk(state, chunk, existing);
      for (const s of plan.inserts)
        store.set(s.dedupeKey, row({ id: 1000 + inserts.length, payloadHash: s.payloadHash, state: 'staged', sourceRow: s.firstRow }));
      inserts.push(...plan.inserts);
      corrections.push(...plan.corrections.map((c) => c.id));
    }
    const outcome = planOutcome(state, { ...T, rejectWholeFile }, FILE);
    return { inserts: inserts.map((s) => s.firstRow), corrections, outcome };
  }

  // Every kind of decision, with the later submission of each key in another chunk for most splits.
  const submissions = [
    prepared('R-1', 'h1', 1),
    prepared('D-1', 'd1', 2), // same payload in the outbox: duplicate
    prepared('C-1', 'c2', 3), // changed, earlier dead: correction
    prepared('X-1', 'x2', 4), // changed, earlier accepted: conflict
    prepared('R-2', 'h2', 5),
    prepared('R-1', 'h1', 6), // again in the file, same payload: duplicate
    prepared('R-2', 'h9', 7), // again in the file, other payload: conflict
    prepared('D-1', 'd1', 8), // the outbox duplicate again: duplicate
    prepared('C-1', 'c3', 9), // the correction again, other payload: conflict (row 3 of this file)
    prepared('X-1', 'x2', 10), // the conflict again, same payload: duplicate of row 4
  ];
  const outbox: [string, ExistingSubmission][] = [
    ['D-1', row({ id: 1, payloadHash: 'd1', state: 'accepted' })],
    ['C-1', row({ id: 2, payloadHash: 'c1', state: 'dead' })],
    ['X-1', row({ id: 3, payloadHash: 'x1', state: 'accepted' })],
  ];

  it.each([1, 2, 3, 4, 5, 7, 10])('chunks of %i decide exactly as the whole file at once', (size) => {
    const whole = planFile({ ...T, submissions }, FILE, new Map(outbox));
    const chunked = planInChunks(submissions, outbox, size);
    expect(chunked.inserts).toEqual(whole.inserts.map((s) => s.firstRow));
    expect(chunked.inserts).toEqual([1, 5]);
    expect(chunked.corrections).toEqual(whole.corrections.map((c) => c.id));
    expect(chunked.corrections).toEqual([2]);
    expect(chunked.outcome).toEqual({ state: whole.state, duplicates: whole.duplicates, report: whole.report, notices: [] });
    expect(whole.report.problems.map((p) => [p.row, p.message.match(/\((.*)\)/)![1]])).toEqual([
      [4, 'submission 3 (state accepted)'],
      [7, 'row 5 of this file'],
      [9, 'row 3 of this file'],
    ]);
    expect(whole.report.notes.map((n) => n.row)).toEqual([2, 6, 8, 10]);
  });

  it('a correction whose row was requeued before the file finished is a conflict, and counts against the file', () => {
    const state = startFilePlan();
    planChunk(state, [prepared('C-1', 'c2', 3)], new Map([['C-1', row({ id: 2, payloadHash: 'c1', state: 'dead' })]]));
    const lapsed = [
      {
        submissionId: 2,
        action: 'correct' as const,
        externalId: 'C-1',
        sourceRow: 3,
        state: 'pending' as const,
        payload: '{}',
        contentHash: null,
        newPayload: '{}',
        newContentHash: null,
        documentId: 'C-1',
        documentNumber: null,
        platformId: null,
      },
    ];
    const outcome = planOutcome(state, { ...T, lapsed }, FILE);
    expect(outcome.state).toBe('rejected'); // nothing else in it was usable
    expect(outcome.report.problems).toEqual([
      expect.objectContaining({ row: 3, code: 'EXTERNAL_ID_CONFLICT', message: expect.stringContaining('submission 2 (state pending)') }),
    ]);
  });

  it('lists at most MAX_LISTED_CONFLICTS conflicts and MAX_LISTED_NOTES notes, and counts the rest', () => {
    const extra = 5;
    const many = Array.from({ length: MAX_LISTED_CONFLICTS + extra }, (_, i) => prepared(`K-${i}`, 'new', i + 1));
    const accepted = new Map(many.map((s) => [s.dedupeKey, row({ id: 1, payloadHash: 'old', state: 'accepted' })]));
    const conflicts = planFile({ ...T, submissions: many }, FILE, accepted).report.problems;
    expect(conflicts).toHaveLength(MAX_LISTED_CONFLICTS + 1);
    expect(conflicts.at(-1)).toMatchObject({ row: MAX_LISTED_CONFLICTS + 1, message: expect.stringContaining(`${extra} more externalId conflicts`) });

    const same = new Map(many.map((s) => [s.dedupeKey, row({ id: 1, payloadHash: 'new', state: 'accepted' })]));
    const plan = planFile({ ...T, submissions: many }, FILE, same);
    expect(plan.duplicates).toBe(MAX_LISTED_NOTES + extra);
    expect(plan.report.notes).toHaveLength(MAX_LISTED_NOTES + 1);
    expect(plan.report.notes[MAX_LISTED_NOTES]).toMatchObject({ row: MAX_LISTED_NOTES + 1, message: expect.stringContaining(`${extra} more requests`) });
  });
});

describe('planOutcome: what a person must hear of a file’s documents', () => {
  const T = { flow: 'requests', problems: [] as MappingProblem[], rejectWholeFile: false, acceptEmpty: true };
  const lapse = (action: 'replace' | 'withdraw', newContentHash: string | null) => ({
    submissionId: 4,
    action,
    externalId: 'ЗП-1 DOC',
    sourceRow: 2,
    state: 'in_flight' as const,
    payload: JSON.stringify({ items: [{ name: 'Бумага', unit: 'шт', quantity: 1 }] }),
    contentHash: 'c1',
    newPayload: JSON.stringify({ items: [{ name: 'Бумага', unit: 'шт', quantity: 2 }] }),
    newContentHash,
    documentId: 'DOC',
    documentNumber: 'ЗП-1',
    platformId: null,
  });
  const kinds = (notices: readonly { op: string; kind?: string }[] | undefined) => (notices ?? []).map((n) => `${n.op} ${n.kind ?? ''}`.trim());

  it('a replacement that lapsed (claimed meanwhile) is an edited notice; the same content only renumbered is none', () => {
    const edited = planOutcome(startFilePlan(), { ...T, lapsed: [lapse('replace', 'c2')] }, FILE);
    expect(kinds(edited.notices)).toEqual(['upsert edited']);
    expect(JSON.parse((edited.notices![0] as { detail: string }).detail).changes).toEqual([{ what: 'line', name: 'Бумага', unit: 'шт', from: 1, to: 2 }]);
    expect(kinds(planOutcome(startFilePlan(), { ...T, lapsed: [lapse('replace', 'c1')] }, FILE).notices)).toEqual([]);
  });

  it('a withdrawal that lapsed is a withdrawn notice; neither counts against the file', () => {
    const outcome = planOutcome(startFilePlan(), { ...T, lapsed: [lapse('withdraw', null)] }, FILE);
    expect(kinds(outcome.notices)).toEqual(['upsert withdrawn']);
    expect(outcome.state).toBe('archived');
    expect(outcome.report.problems).toEqual([]);
  });

  it('a document’s problems are one notice per document, in a file taken; none in a file rejected', () => {
    const problem = (row: number, documentId?: string): MappingProblem => ({
      row,
      field: 'customer.inn',
      code: 'INN_INVALID',
      message: `Row ${row}: bad`,
      ...(documentId === undefined ? {} : { documentId, documentNumber: `N-${documentId}` }),
    });
    const problems = [problem(1, 'A'), problem(1, 'A'), problem(2, 'B'), problem(3)];
    const taken = planOutcome(startFilePlan(), { ...T, problems }, FILE);
    expect(taken.notices).toEqual([
      expect.objectContaining({ op: 'upsert', kind: 'problem', documentId: 'A', documentNumber: 'N-A' }),
      expect.objectContaining({ op: 'upsert', kind: 'problem', documentId: 'B', documentNumber: 'N-B' }),
    ]);
    expect(JSON.parse((taken.notices![0] as { detail: string }).detail).problems).toHaveLength(2);
    const rejected = planOutcome(startFilePlan(), { ...T, problems, rejectWholeFile: true }, FILE);
    expect(rejected.state).toBe('rejected');
    expect(rejected.notices).toEqual([]);
  });
});
