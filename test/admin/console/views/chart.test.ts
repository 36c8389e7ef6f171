/**
 * The hand-written SVG bar chart (`views/chart.tsx`): its axis top, its bars' geometry, what it says
 * in words, and its size on a busy day.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HourlyChart, niceCeiling, type ChartSeries } from '../../../../src/admin/console/views/chart.js';
import { translator } from '../../../../src/admin/console/i18n.js';

const t = translator('en');

// The chart writes hours in the server's zone: here UTC, so that the hours below read as written.
let savedZone: string | undefined;
beforeAll(() => {
  savedZone = process.env.TZ;
  process.env.TZ = 'UTC';
});
afterAll(() => {
  if (savedZone === undefined) delete process.env.TZ;
  else process.env.TZ = savedZone;
});
const HOUR = 3_600_000;
const START = Date.UTC(2026, 2, 14, 0, 0);
const HOURS = Array.from({ length: 24 }, (_, i) => new Date(START + i * HOUR).toISOString());
const UNTIL = new Date(START + 23 * HOUR + 20 * 60_000).toISOString();

function render(series: ChartSeries[]): string {
  return String(HourlyChart({ t, id: 'c', title: 'Requests per hour', empty: 'No requests', hours: HOURS, until: UNTIL, series }));
}

const series = (key: string, look: ChartSeries['look'], counts: number[]): ChartSeries => ({ key, label: key, look, counts });
const only = (hour: number, n: number) => HOURS.map((_, i) => (i === hour ? n : 0));
/** The bars of one series (each a vertical stroke): [x, bottom y, top y]. */
const bars = (html: string, key: string) =>
  [...(new RegExp(`<path class="b-${key}"[^>]* d="([^"]*)"`).exec(html)?.[1] ?? '').matchAll(/M([\d.]+) ([\d.]+)V([\d.]+)/g)].map((m) =>
    m.slice(1).map(Number),
  );

describe('niceCeiling', () => {
  it.each([
    [0, 1],
    [1, 1],
    [2, 2],
    [7, 8],
    [9, 10],
    [11, 12],
    [13, 15],
    [130, 150],
    [151, 200],
    [2_600, 3_000],
    [10_001, 12_000],
  ])('%i → %i', (max, top) => expect(niceCeiling(max)).toBe(top));
});

describe('HourlyChart', () => {
  it('stacks the series bottom up, scaled to the axis top, a bar per hour; a zero draws nothing, a tiny count still a pixel', () => {
    const accepted = HOURS.map((_, i) => (i === 3 ? 1000 : i === 5 ? 250 : 0));
    const html = render([series('accepted', 'plain', accepted), series('rejected', 'cross', only(4, 1)), series('dead', 'plain', only(5, 500))]);
    // The plot runs from y 96 (0) up to y 8 (the axis top, 1000); an hour is 14 wide from x 30.
    expect(html).toMatch(/<text class="max"[^>]*>1000<\/text>/);
    expect(bars(html, 'accepted')).toEqual([
      [30 + 3 * 14 + 7, 96, 8],
      [30 + 5 * 14 + 7, 96, 74],
    ]);
    expect(bars(html, 'rejected')).toEqual([[30 + 4 * 14 + 7, 96, 95]]);
    expect(bars(html, 'dead')).toEqual([[30 + 5 * 14 + 7, 74, 30]]);
    expect(html).toContain('stroke="url(#c-rejected)"');
    expect(html).toMatch(
      /<pattern id="c-rejected" class="p-rejected"[^>]*patternTransform="rotate\(45\)"><rect class="bg"[^>]*><\/rect><path class="mark" d="M1 0V6M0 1H6">/,
    );
  });

  it('says its numbers in words: the summary, a tooltip per hour, a legend with totals', () => {
    const html = render([series('accepted', 'plain', only(23, 130)), series('retry', 'hatch', only(2, 4)), series('rejected', 'cross', only(23, 2))]);
    expect(html).toContain('role="img" aria-label="Requests per hour: 130 accepted, 4 retry, 2 rejected"');
    expect(html).toContain('<title>02:00–03:00: 4 retry</title>');
    expect(html).toContain('<title>23:00–23:20 (now): 130 accepted, 2 rejected</title>');
    expect(html).toContain('<title>04:00–05:00: none</title>');
    expect(html).toContain('>130 accepted</li>');
    expect(html).toContain('>4 retry</li>');
  });

  it('draws an empty chart that says so, with its axis and no legend', () => {
    const html = render([series('accepted', 'plain', only(0, 0))]);
    expect(html).toContain('aria-label="No requests"');
    expect(html).toContain('>No requests</text>');
    expect(html).toContain('<path class="axis"');
    expect(html).not.toContain('<title>');
    expect(html).not.toContain('legend');
  });

  it('stays small: a bar in every hour under 5 KB, five series in every hour of a busy one under 8 KB; no style attribute (the CSP)', () => {
    const day = (base: number) => HOURS.map((_, i) => base + ((i * 7919) % 97));
    const quiet = render([series('accepted', 'plain', day(20)), series('retry', 'hatch', only(9, 3)), series('rejected', 'cross', only(14, 1))]);
    expect(Buffer.byteLength(quiet)).toBeLessThan(5 * 1024);
    const busy = render([
      series('accepted', 'plain', day(9000)),
      series('retry', 'hatch', day(300)),
      series('held', 'dots', day(10)),
      series('rejected', 'cross', day(40)),
      series('dead', 'plain', day(5)),
    ]);
    expect(bars(busy, 'dead')).toHaveLength(24);
    expect(Buffer.byteLength(busy)).toBeLessThan(8 * 1024);
    expect(quiet + busy).not.toContain('style=');
  });
});
