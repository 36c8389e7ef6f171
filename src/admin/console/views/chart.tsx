/**
 * A stacked bar chart of counts per hour, as inline SVG written here (a chart library would be a
 * dependency, and most of a script, for 24 bars). It needs no script and no inline style (the CSP
 * forbids both): the geometry is in attributes, the colours in console.css. It reads without
 * colour: each series has its own pattern (plain, hatched, cross-hatched, dotted) and a legend
 * entry in words with its total, each hour a tooltip (`<title>`) with its exact numbers, and the
 * whole an `aria-label` that says the totals. Under 5 KB for a day with a bar in every hour,
 * under 8 KB with five outcomes in every hour; the tooltips are about half of it.
 */
import { formatClock } from '../format.js';
import type { Translate } from '../i18n.js';

/** How a series is drawn besides its colour, so that it is told apart in grey too. */
export type SeriesLook = 'plain' | 'hatch' | 'cross' | 'dots';

export interface ChartSeries {
  /** A class-safe key: the pattern is `p-<key>` in console.css. */
  key: string;
  label: string;
  look: SeriesLook;
  /** One count per hour. */
  counts: readonly number[];
}

export interface HourlyChartProps {
  t: Translate;
  /** Unique on the page: the patterns' ids start with it. */
  id: string;
  title: string;
  /** What the chart says when every count is 0. */
  empty: string;
  /** Start of each hour (ISO 8601), oldest first; the last hour is counted up to `until`. */
  hours: readonly string[];
  until: string;
  /** Bottom up. */
  series: readonly ChartSeries[];
}

// The drawing's own units; the SVG scales to its box (console.css). An hour is 14 wide, so that
// every x is a whole number.
const SLOT = 14;
const BAR = 11;
const LEFT = 30;
const TOP = 8;
const BOTTOM = 96;
const HEIGHT = 116;
const TICK_EVERY_HOURS = 3;

/** One decimal at most: every coordinate is written many times. */
const n1 = (v: number): string => String(Math.round(v * 10) / 10);

/** The smallest of 1, 2, 3, 4, 5, 6, 8 (× a power of ten, 1.2 and 1.5 from 10 up) at or above `max`: the axis' top. */
export function niceCeiling(max: number): number {
  if (max <= 1) return 1;
  for (let power = 1; ; power *= 10) {
    for (const step of power === 1 ? [1, 2, 3, 4, 5, 6, 8] : [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8]) {
      if (step * power >= max) return step * power;
    }
  }
}

/** "130 accepted, 2 rejected" (series with a count only). */
function describe(t: Translate, series: readonly ChartSeries[], countOf: (s: ChartSeries) => number): string {
  const parts = series.filter((s) => countOf(s) > 0).map((s) => t('chart.item', { n: countOf(s), label: s.label }));
  return parts.length > 0 ? parts.join(', ') : t('chart.none');
}

function Pattern(props: { id: string; series: ChartSeries }) {
  const { look, key } = props.series;
  const size = 6;
  return (
    <pattern
      id={`${props.id}-${key}`}
      class={`p-${key}`}
      width={size}
      height={size}
      patternUnits="userSpaceOnUse"
      patternTransform={look === 'hatch' || look === 'cross' ? 'rotate(45)' : undefined}
    >
      <rect class="bg" width={size} height={size} />
      {look === 'hatch' ? <path class="mark" d="M1 0V6" /> : null}
      {look === 'cross' ? <path class="mark" d="M1 0V6M0 1H6" /> : null}
      {look === 'dots' ? <circle class="mark" cx="3" cy="3" r="1.3" /> : null}
    </pattern>
  );
}

export function HourlyChart(props: HourlyChartProps) {
  const { t, id, hours, series } = props;
  const right = LEFT + hours.length * SLOT;
  const totals = hours.map((_, i) => series.reduce((sum, s) => sum + (s.counts[i] ?? 0), 0));
  const empty = totals.every((total) => total === 0);
  const top = niceCeiling(Math.max(0, ...totals));
  const scale = (BOTTOM - TOP) / top;

  // A bar is a vertical stroke as wide as the bar ("M x bottom V top"): half the bytes of a filled
  // rectangle, and there are up to 24 per series. A non-zero count is at least a pixel high.
  const paths = series.map((s) => ({ series: s, d: '' }));
  hours.forEach((_, i) => {
    let y = BOTTOM;
    for (const path of paths) {
      const count = path.series.counts[i] ?? 0;
      if (count === 0) continue;
      const height = Math.max(1, count * scale);
      path.d += `M${LEFT + i * SLOT + SLOT / 2} ${n1(y)}V${n1(y - height)}`;
      y -= height;
    }
  });

  const hourTitle = (i: number): string => {
    const end = i + 1 < hours.length ? formatClock(hours[i + 1]!) : `${formatClock(props.until)} (${t('chart.now')})`;
    return `${formatClock(hours[i]!)}–${end}: ${describe(t, series, (s) => s.counts[i] ?? 0)}`;
  };
  const ticks = hours.map((start, i) => ({ x: LEFT + i * SLOT, start })).filter(({ start }) => new Date(start).getHours() % TICK_EVERY_HOURS === 0);
  const summary = `${props.title}: ${describe(t, series, (s) => s.counts.reduce((a, b) => a + b, 0))}`;

  return (
    <figure class="chart">
      <figcaption>{props.title}</figcaption>
      <svg viewBox={`0 0 ${right + 6} ${HEIGHT}`} role="img" aria-label={empty ? props.empty : summary}>
        <defs>
          {series.map((s) => (
            <Pattern id={id} series={s} />
          ))}
        </defs>
        {empty ? null : (
          <>
            <path class="grid" d={`M${LEFT} ${TOP}H${right}`} />
            <text class="max" x={LEFT - 4} y={TOP + 3} text-anchor="end">
              {top}
            </text>
          </>
        )}
        <text x={LEFT - 4} y={BOTTOM + 3} text-anchor="end">
          0
        </text>
        <g class="bars" stroke-width={BAR}>
          {paths.map((path) => (path.d ? <path class={`b-${path.series.key}`} stroke={`url(#${id}-${path.series.key})`} d={path.d} /> : null))}
        </g>
        <path class="axis" d={`M${LEFT} ${BOTTOM}H${right}${ticks.map(({ x }) => `M${x} ${BOTTOM}v3`).join('')}`} />
        <g text-anchor="middle">
          {ticks.map(({ x, start }) => (
            <text x={x} y={BOTTOM + 14}>
              {formatClock(start)}
            </text>
          ))}
        </g>
        {empty ? (
          <text class="empty" x={(LEFT + right) / 2} y={(TOP + BOTTOM) / 2} text-anchor="middle">
            {props.empty}
          </text>
        ) : (
          <g class="hits">
            {hours.map((_, i) => (
              <rect x={LEFT + i * SLOT} y={TOP} width={SLOT} height={BOTTOM - TOP}>
                <title>{hourTitle(i)}</title>
              </rect>
            ))}
          </g>
        )}
      </svg>
      {empty ? null : (
        <ul class="legend">
          {series.map((s) => (
            <li>
              <svg class="swatch" viewBox="0 0 12 12" aria-hidden="true">
                <rect width="12" height="12" fill={`url(#${id}-${s.key})`} />
              </svg>
              {t('chart.item', { n: s.counts.reduce((a, b) => a + b, 0), label: s.label })}
            </li>
          ))}
        </ul>
      )}
    </figure>
  );
}
