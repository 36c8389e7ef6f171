/** The recording plan, table-tested: what each submission becomes, and the file's outcome and report. */
import { describe, expect, it } from 'vitest';
import { decideSubmissions, planFile } from '../../src/intake/plan-file.js';
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
  };
}
const existing = (entries: [string, ExistingSubmission][]) => new Map(entries);
const FILE = { original_name: 'a.csv', sha256: 'abc' };
const rowProblem: MappingProblem = { row: 3, field: 'customer.inn', code: 'INN_INVALID', message: 'Row 3: bad' };
const fileProblem: MappingProblem = { row: null, field: null, code: 'FILE_UNREADABLE', message: 'a.csv: broken' };

describe('decideSubmissions', () => {
  it.each<[string, PreparedSubmission[], [string, ExistingSubmission][], string[]]>([
    ['new → insert', [prepared('R-1', 'h1')], [], ['insert']],
    ['same payload in the outbox → duplicate', [prepared('R-1', 'h1')], [['R-1', { id: 7, payloadHash: 'h1', state: 'accepted' }]], ['duplicate']],
    ['changed, earlier rejected → correct', [prepared('R-1', 'h2')], [['R-1', { id: 7, payloadHash: 'h1', state: 'rejected' }]], ['correct']],
    ['changed, earlier dead → correct', [prepared('R-1', 'h2')], [['R-1', { id: 7, payloadHash: 'h1', state: 'dead' }]], ['correct']],
    ['changed, earlier accepted → conflict', [prepared('R-1', 'h2')], [['R-1', { id: 7, payloadHash: 'h1', state: 'accepted' }]], ['conflict']],
    ['changed, earlier pending → conflict', [prepared('R-1', 'h2')], [['R-1', { id: 7, payloadHash: 'h1', state: 'pending' }]], ['conflict']],
    ['changed, earlier held → conflict', [prepared('R-1', 'h2')], [['R-1', { id: 7, payloadHash: 'h1', state: 'held' }]], ['conflict']],
    [
      'changed confirmation, earlier rejected → conflict',
      [prepared('ORD-1', 'h2', 1, 'confirmation')],
      [['ORD-1', { id: 7, payloadHash: 'h1', state: 'rejected' }]],
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
    const [outbox] = decideSubmissions([prepared('R-1', 'h2')], existing([['R-1', { id: 9, payloadHash: 'h1', state: 'held' }]]));
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
      existing([['R-1', { id: 1, payloadHash: 'h1', state: 'accepted' }]]),
    );
    expect(plan.report.problems.map((p) => p.row)).toEqual([3, 9]);
    expect(plan.duplicates).toBe(1);
    expect(plan.report.notes.map((n) => n.message)).toEqual([
      'Row 5: "R-1" is already in the outbox with the same content; not recorded again',
      'The file was rejected as a whole: none of its 2 valid record(s) was recorded',
    ]);
    expect(planFile(input([]), FILE, new Map()).report.problems).toEqual([
      { row: null, field: null, code: 'MAPPING_FAILED', message: 'a.csv holds no requests records (only a header, or nothing)' },
    ]);
  });

  it('corrects a failed request under its correction key', () => {
    const plan = planFile(input([prepared('R-1', 'h2')]), FILE, existing([['R-1', { id: 4, payloadHash: 'h1', state: 'dead' }]]));
    expect(plan.corrections).toEqual([{ id: 4, submission: expect.objectContaining({ correctionKey: 'erp:R-1:h2' }) }]);
    expect(plan.inserts).toEqual([]);
  });
});
