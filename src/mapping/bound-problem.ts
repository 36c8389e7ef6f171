/**
 * A kept problem, bounded in size. A report lists up to `MAX_LISTED_PROBLEMS` problems, and each
 * repeats what its row holds: its request's externalId, the value of the other row it disagrees
 * with. Hostile input makes those as long as the file allows (a key of 10,000 characters on every
 * row), and a report of a thousand such problems, held while the file is read, stored as JSON,
 * read back and rendered twice, cost the daemon hundreds of MB. Cut here, each problem is at most a
 * few KB, and so is a report at most a few MB whatever the file.
 */
import type { MappingProblem, MessageText } from '../shared/types.js';

/** Longest message kept (a message names the file, the row and the field, then says what is wrong: a few hundred characters). */
export const MAX_PROBLEM_MESSAGE_CHARS = 1_000;
/** Longest value, externalId, field, cell or message parameter kept (the platform takes externalIds of up to 100 characters). */
export const MAX_PROBLEM_VALUE_CHARS = 200;

/**
 * `text`, or its first `max` characters (never half of a surrogate pair) and how long it was. The
 * cut is copied: V8 makes a `slice` a view into the original string, which would keep all of it alive.
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  const head = Buffer.from(text.slice(0, end), 'utf16le').toString('utf16le');
  return `${head}… (${text.length} characters)`;
}

function boundText(text: MessageText): MessageText {
  if (text.params === undefined) return text;
  const params = Object.fromEntries(
    Object.entries(text.params).map(([name, value]) => [name, typeof value === 'string' ? cutText(value, MAX_PROBLEM_VALUE_CHARS) : value]),
  );
  return { ...text, params };
}

/** The problem with each of its texts cut to its bound; the same object when nothing is too long. */
export function boundProblem(problem: MappingProblem): MappingProblem {
  const { message, field, cell, externalId, value, text } = problem;
  const long = (s: string | null | undefined, max = MAX_PROBLEM_VALUE_CHARS) => s != null && s.length > max;
  const paramsLong = text?.params !== undefined && Object.values(text.params).some((v) => typeof v === 'string' && long(v));
  if (!long(message, MAX_PROBLEM_MESSAGE_CHARS) && !long(field) && !long(cell) && !long(externalId) && !long(value) && !paramsLong) return problem;
  const bounded: MappingProblem = { ...problem, message: cutText(message, MAX_PROBLEM_MESSAGE_CHARS) };
  if (field !== null) bounded.field = cutText(field, MAX_PROBLEM_VALUE_CHARS);
  if (cell !== undefined) bounded.cell = cutText(cell, MAX_PROBLEM_VALUE_CHARS);
  if (externalId !== undefined) bounded.externalId = cutText(externalId, MAX_PROBLEM_VALUE_CHARS);
  if (value !== undefined) bounded.value = cutText(value, MAX_PROBLEM_VALUE_CHARS);
  if (text !== undefined) bounded.text = boundText(text);
  return bounded;
}
