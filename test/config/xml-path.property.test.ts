/**
 * `parseXmlPath`, fuzzed: paths printed from a generated structure (Cyrillic and Latin names,
 * prefixes, conditions whose values hold `|`, `/`, brackets and the other quote, an attribute last,
 * alternatives, spaces wherever the syntax allows them) parse back to that structure, in every role
 * that accepts them; any text parses to a reason or to a well-formed path, and a parsed path printed
 * again parses to the same steps.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseXmlPath, type XmlPath, type XmlStep } from '../../src/config/xml-path.js';

const NUM_RUNS = 1000;

const FIRST = [...'abzABZ_', ...'аяАЯёЁжЖщ'];
const REST = [...FIRST, ...'09_.-·'];
const name = fc.tuple(fc.constantFrom(...FIRST), fc.string({ unit: fc.constantFrom(...REST), maxLength: 8 })).map(([first, rest]) => first + rest);
/** A name as written (`cml:Документ`) and what it parses to (`Документ`). */
const qualified = fc.tuple(fc.option(name), name).map(([prefix, local]) => ({ written: prefix === null ? local : `${prefix}:${local}`, local }));

/** Text inside a condition's quotes: anything but that quote, the path's own syntax included. */
const VALUE_CHARS = [...'aЯ 1', '|', '/', '[', ']', '@', '.', '=', '*', ':', '\t'];
const condition = fc.constantFrom("'", '"').chain((quote) =>
  fc.record({
    quote: fc.constant(quote),
    child: qualified,
    equals: fc.string({ unit: fc.constantFrom(...VALUE_CHARS, quote === "'" ? '"' : "'"), maxLength: 12 }),
  }),
);

/** Optional white space where the syntax allows it. */
const space = fc.constantFrom('', '', ' ', '  ', '\t');

type Written = { text: string; step: XmlStep };

const elementStep: fc.Arbitrary<Written> = fc
  .record({ element: qualified, where: fc.option(condition), s: fc.array(space, { minLength: 5, maxLength: 5 }) })
  .map(({ element, where, s }) => {
    if (where === null) return { text: element.written, step: { kind: 'element', name: element.local } };
    const q = where.quote;
    return {
      text: `${element.written}${s[0]}[${s[1]}${where.child.written}${s[2]}=${s[3]}${q}${where.equals}${q}${s[4]}]`,
      step: { kind: 'element', name: element.local, where: { child: where.child.local, equals: where.equals } },
    };
  });
const attributeStep: fc.Arbitrary<Written> = qualified.map((attribute) => ({
  text: `@${attribute.written}`,
  step: { kind: 'attribute', name: attribute.local },
}));

/** One alternative: `.`, or element steps with perhaps an attribute last. */
const alternative: fc.Arbitrary<{ text: string; steps: XmlStep[] }> = fc.oneof(
  { weight: 1, arbitrary: fc.constant({ text: '.', steps: [] as XmlStep[] }) },
  {
    weight: 6,
    arbitrary: fc
      .record({
        elements: fc.array(elementStep, { maxLength: 4 }),
        attribute: fc.option(attributeStep),
        gaps: fc.array(fc.tuple(space, space), { minLength: 5, maxLength: 5 }),
      })
      .filter(({ elements, attribute }) => elements.length > 0 || attribute !== null)
      .map(({ elements, attribute, gaps }) => {
        const all = attribute === null ? elements : [...elements, attribute];
        return { text: all.map((w, i) => (i === 0 ? w.text : `${gaps[i]![0]}/${gaps[i]![1]}${w.text}`)).join(''), steps: all.map((w) => w.step) };
      }),
  },
);

const path = fc
  .record({
    alternatives: fc.array(alternative, { minLength: 1, maxLength: 3 }),
    gaps: fc.array(fc.tuple(space, space), { minLength: 3, maxLength: 3 }),
    outer: fc.tuple(space, space),
  })
  .map(({ alternatives, gaps, outer }) => ({
    text: outer[0] + alternatives.map((a, i) => (i === 0 ? a.text : `${gaps[i]![0]}|${gaps[i]![1]}${a.text}`)).join('') + outer[1],
    alternatives: alternatives.map((a) => a.steps),
  }));

/** A parsed path written back in the syntax: the quote is the one the value does not hold. */
function print(alternatives: readonly XmlStep[][]): string {
  const step = (s: XmlStep): string => {
    if (s.kind === 'attribute') return `@${s.name}`;
    if (s.where === undefined) return s.name;
    const q = s.where.equals.includes("'") ? '"' : "'";
    return `${s.name}[${s.where.child}=${q}${s.where.equals}${q}]`;
  };
  return alternatives.map((steps) => (steps.length === 0 ? '.' : steps.map(step).join('/'))).join(' | ');
}

/** The local-name rule of the syntax, written here again: a letter or `_`, then letters, digits, `_`, `.`, `-`, `·`. */
const LOCAL_NAME = /^[\p{L}_][\p{L}\p{N}_.\u00B7-]*$/u;

function expectWellFormed(parsed: XmlPath, text: string): void {
  expect(parsed.text).toBe(text);
  expect(parsed.alternatives.length).toBeGreaterThan(0);
  for (const steps of parsed.alternatives) {
    steps.forEach((step, i) => {
      expect(step.name).toMatch(LOCAL_NAME);
      if (step.kind === 'attribute') expect(i).toBe(steps.length - 1);
      else if (step.where !== undefined) expect(step.where.child).toMatch(LOCAL_NAME);
    });
  }
}

describe('parseXmlPath: generated paths', () => {
  it('parse to the steps they were printed from (a field path)', () => {
    fc.assert(
      fc.property(path, ({ text, alternatives }) => {
        expect(parseXmlPath(text)).toEqual({ text, alternatives });
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('as a lines path: refused exactly when an alternative ends in an attribute', () => {
    fc.assert(
      fc.property(path, ({ text, alternatives }) => {
        const parsed = parseXmlPath(text, 'lines');
        if (alternatives.some((steps) => steps.some((s) => s.kind === 'attribute'))) expect(parsed).toMatch(/is a lines path, which names elements/);
        else expect(parsed).toEqual({ text, alternatives });
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("as a record path: refused exactly for an attribute, a '.', or a condition before the last step", () => {
    fc.assert(
      fc.property(path, ({ text, alternatives }) => {
        const parsed = parseXmlPath(text, 'record');
        const wrong = alternatives.some(
          (steps) =>
            steps.length === 0 || steps.some((s) => s.kind === 'attribute') || steps.slice(0, -1).some((s) => s.kind === 'element' && s.where !== undefined),
        );
        if (wrong) expect(typeof parsed).toBe('string');
        else expect(parsed).toEqual({ text, alternatives });
      }),
      { numRuns: NUM_RUNS },
    );
  });
});

describe('parseXmlPath: any text', () => {
  /** Text made of the syntax's own pieces, so that most of it gets past the first check. */
  const pathish = fc.string({
    unit: fc.constantFrom('a', 'Б', '_', '1', '.', '-', ':', '/', '|', '[', ']', "'", '"', '@', '=', ' ', '*', '..', '//', 'x:y', "[a='b']"),
    maxLength: 25,
  });
  const anyText = fc.oneof(
    pathish,
    fc.string({ unit: 'binary' }),
    path.map((p) => p.text),
  );

  it('never throws: a non-empty reason, or a well-formed path of the text given', () => {
    fc.assert(
      fc.property(anyText, fc.constantFrom('field', 'record', 'lines') as fc.Arbitrary<'field' | 'record' | 'lines'>, (text, role) => {
        const parsed = parseXmlPath(text, role);
        if (typeof parsed === 'string') expect(parsed.length).toBeGreaterThan(0);
        else expectWellFormed(parsed, text);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('a parsed path, printed again, parses to the same steps', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const parsed = parseXmlPath(text);
        if (typeof parsed === 'string') return;
        const again = parseXmlPath(print(parsed.alternatives));
        expect(typeof again === 'string' ? again : again.alternatives).toEqual(parsed.alternatives);
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
