/**
 * Columns to target fields: every pair scored (`score-column.ts`), then assigned greedily, best
 * first, each column to one field. A field whose best column scores below the threshold, or whose
 * best two columns score within 0.05 of each other, stays a TODO: the suggestion never picks one of
 * two equally good columns silently. `items.lineId` without a column is generated (`counter`).
 */
import { CONFIDENCE_THRESHOLD, type FieldSuggestion, type SuggestedSource } from './types.js';
import type { ColumnProfile } from './profile-column.js';
import { nounPhrase, scoreColumn, type ColumnScore, type ScoreContext } from './score-column.js';
import { phrase } from './summary-words.js';
import type { TargetField } from './targets.js';
import type { SampleColumn } from './types.js';
import { shown } from './shown.js';

/** Two columns closer than this for one field are a tie. */
const TIE = 0.05;

interface Candidate extends ColumnScore {
  target: TargetField;
  profile: ColumnProfile;
  order: number;
}

export interface FieldMatch {
  fields: FieldSuggestion[];
  /** Columns some field reads (by identity: a JSON record and its lines may both have a `note`). */
  used: Set<SampleColumn>;
}

export function matchFields(targets: readonly TargetField[], profiles: readonly ColumnProfile[], ctx: ScoreContext, hasLines: boolean): FieldMatch {
  const candidates: Candidate[] = [];
  targets.forEach((target, targetIndex) => {
    profiles.forEach((profile, columnIndex) => {
      const score = scoreColumn(target, profile, ctx);
      if (score) candidates.push({ ...score, target, profile, order: targetIndex * 10_000 + columnIndex });
    });
  });
  candidates.sort((a, b) => b.confidence - a.confidence || a.order - b.order);
  const bestTargetOf = new Map<SampleColumn, string>();
  for (const candidate of candidates) if (!bestTargetOf.has(candidate.profile.column)) bestTargetOf.set(candidate.profile.column, candidate.target.key);

  const chosen = new Map<string, Candidate>();
  const ties = new Map<string, [Candidate, Candidate]>();
  const used = new Set<SampleColumn>();
  for (const candidate of candidates) {
    const key = candidate.target.key;
    const column = candidate.profile.column;
    if (chosen.has(key) || ties.has(key) || used.has(column) || candidate.confidence < CONFIDENCE_THRESHOLD) continue;
    const rival = candidates.find(
      (other) =>
        other.target.key === key &&
        other !== candidate &&
        !used.has(other.profile.column) &&
        other.confidence >= CONFIDENCE_THRESHOLD &&
        candidate.confidence - other.confidence < TIE &&
        bestTargetOf.get(other.profile.column) === key,
    );
    if (rival) {
      ties.set(key, [candidate, rival]);
      continue;
    }
    chosen.set(key, candidate);
    used.add(column);
  }

  const fields = targets.map((target): FieldSuggestion => {
    const picked = chosen.get(target.key);
    const base = { key: target.key, required: target.required };
    const optional = target.optional ? { optional: true } : {};
    if (picked) {
      return { ...base, source: sourceOf(picked, ctx), options: { ...picked.options, ...optional }, confidence: picked.confidence, reason: picked.reason };
    }
    const tie = ties.get(target.key);
    if (tie) {
      const [a, b] = tie;
      const reason = phrase('summary.why.tie', { a: shown(a.profile.column.name), ca: a.confidence, b: shown(b.profile.column.name), cb: b.confidence });
      return { ...base, source: undefined, options: { ...a.options, ...optional }, confidence: a.confidence, reason, guess: sourceOf(a, ctx) };
    }
    const best = candidates.find((candidate) => candidate.target.key === target.key && !used.has(candidate.profile.column));
    if (target.key === 'items.lineId' && hasLines) {
      const hint = best ? phrase('summary.why.counterHint', { column: shown(best.profile.column.name), score: best.confidence, why: best.reason }) : '';
      const reason = phrase('summary.why.counter', { a: nounPhrase(ctx.noun, 'a'), hint });
      return { ...base, source: { counter: true }, options: {}, confidence: 0.7, reason };
    }
    if (best === undefined) return { ...base, source: undefined, options: optional, confidence: 0, reason: phrase('summary.why.noColumn') };
    const reason = phrase('summary.why.bestGuess', {
      column: shown(best.profile.column.name),
      score: best.confidence,
      threshold: CONFIDENCE_THRESHOLD,
      why: best.reason,
    });
    return { ...base, source: undefined, options: { ...best.options, ...optional }, confidence: best.confidence, reason, guess: sourceOf(best, ctx) };
  });
  return { fields, used };
}

function sourceOf(candidate: Candidate, ctx: ScoreContext): SuggestedSource {
  return ctx.format === 'csv' ? { column: candidate.profile.column.name } : { path: candidate.profile.column.name };
}
