/**
 * The metric names a PromQL expression (or a Grafana `label_values(...)` query) reads, and the
 * label names each selector matches on: enough of PromQL's grammar to check the monitoring files
 * against what a daemon exports, not a parser. Strings, ranges and label lists are cut out first,
 * so that what is left is names, functions, keywords, numbers and operators.
 */

/** PromQL's keywords and aggregation modifiers: never metric names. */
const KEYWORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'and', 'or', 'unless', 'offset', 'atan2', 'inf', 'nan']);

/** One selector of an expression: the metric's name and the label names it matches on. */
export interface Selector {
  metric: string;
  labels: string[];
}

/** Every selector of `expr` with its metric name, in order of appearance. */
export function selectorsOf(expr: string): Selector[] {
  // Grafana's `label_values(metric{...}, label)`: the first argument is a selector.
  const labelValues = /^\s*label_values\((.*),\s*[a-zA-Z_]\w*\s*\)\s*$/.exec(expr);
  if (labelValues) return selectorsOf(labelValues[1]!);

  const text = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""') // string literals
    .replace(/\[[^\]]*\]/g, ' ') // ranges and subqueries: [5m], [$__rate_interval], [1h:5m]
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' '); // label lists
  const selectors: Selector[] = [];
  // A name, optionally with a matcher block; a name followed by `(` is a function.
  const token = /(?<![\w$.:])([a-zA-Z_:][\w:]*)\s*(\{[^}]*\})?(\s*\()?/g;
  for (const match of text.matchAll(token)) {
    const [, name, block, call] = match;
    if (call || KEYWORDS.has(name!.toLowerCase())) continue;
    const labels = block ? [...block.matchAll(/([a-zA-Z_]\w*)\s*(?:=~|!~|!=|=)/g)].map((m) => m[1]!) : [];
    selectors.push({ metric: name!, labels });
  }
  return selectors;
}

/** The metric names `expr` reads. */
export function metricNamesOf(expr: string): Set<string> {
  return new Set(selectorsOf(expr).map((s) => s.metric));
}

/** What a Prometheus text exposition exports: each metric's type and the label names its samples carry. */
export interface Exposition {
  /** Metric name (as `# TYPE` declares it) → type. */
  types: Map<string, string>;
  /** Sample name (with `_bucket`, `_sum`, `_count` where the type has them) → the label names seen on its samples. */
  labels: Map<string, Set<string>>;
}

export function parseExposition(text: string): Exposition {
  const types = new Map<string, string>();
  const labels = new Map<string, Set<string>>();
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) {
      types.set(type[1]!, type[2]!);
      continue;
    }
    const sample = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})?\s/.exec(line);
    if (!sample) continue;
    const names = labels.get(sample[1]!) ?? new Set<string>();
    for (const m of (sample[2] ?? '').matchAll(/([a-zA-Z_]\w*)="/g)) names.add(m[1]!);
    labels.set(sample[1]!, names);
  }
  return { types, labels };
}

/** Every name a query may use for what the exposition declares: histograms and summaries add their series' suffixes. */
export function queryableNames(exposition: Exposition): Set<string> {
  const names = new Set<string>();
  for (const [name, type] of exposition.types) {
    names.add(name);
    if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(name + suffix);
    if (type === 'summary') for (const suffix of ['_sum', '_count']) names.add(name + suffix);
  }
  return names;
}
