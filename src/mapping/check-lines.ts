/**
 * Line checks done before the schema: zod's refinements only run once every field parses, and a
 * duplicate lineId should be reported together with the other problems of the same request.
 */
import type { FieldIssue } from './field-issues.js';

/** A `LINE_DUPLICATE` issue for each line whose lineId an earlier line already used. */
export function findDuplicateLines(payload: unknown): FieldIssue[] {
  const items = (payload as { items?: unknown }).items;
  if (!Array.isArray(items)) return [];
  const firstIndex = new Map<string, number>();
  const issues: FieldIssue[] = [];
  items.forEach((item: unknown, index) => {
    const lineId = (item as { lineId?: unknown } | null)?.lineId;
    if (typeof lineId !== 'string') return;
    const earlier = firstIndex.get(lineId);
    if (earlier === undefined) firstIndex.set(lineId, index);
    else
      issues.push({
        field: `items[${index}].lineId`,
        code: 'LINE_DUPLICATE',
        reason: `repeats the lineId of items[${earlier}]`,
        text: { key: 'lineDuplicate', params: { earlier: `items[${earlier}]` } },
      });
  });
  return issues;
}
