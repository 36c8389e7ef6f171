/**
 * Just enough Markdown for the doc tests: the links of a page, its headings and the anchors GitHub
 * gives them. Fenced code blocks hold no links or headings; a code span holds no link (its text
 * still counts in a link's text and a heading's anchor).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The pages the tests keep honest: the README, every page of docs/, and the READMEs they send readers to. */
export const PAGES: readonly string[] = [
  'README.md',
  ...fs
    .readdirSync(path.join(REPO, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
  'samples/README.md',
  'packaging/monitoring/README.md',
];

export function readPage(page: string): string {
  return fs.readFileSync(path.join(REPO, page), 'utf8');
}

/** The text with every fenced code block blanked out, line for line, so that line numbers stay. */
export function withoutFences(text: string): string {
  let fence: string | undefined;
  return text
    .split('\n')
    .map((line) => {
      const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
      if (fence === undefined && marker) {
        fence = marker;
        return '';
      }
      if (fence !== undefined) {
        if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = undefined;
        return '';
      }
      return line;
    })
    .join('\n');
}

export interface Link {
  text: string;
  target: string;
  line: number;
}

/** Inline links and images, `[text](target)`, outside code; the text may run over lines. */
export function linksOf(markdown: string): Link[] {
  const prose = withoutFences(markdown).replace(/`[^`]*`/g, (span) => span.replace(/[[\]()]/g, ' '));
  const links: Link[] = [];
  for (const match of prose.matchAll(/!?\[((?:[^[\]]|\[[^[\]]*\])*)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    links.push({ text: match[1]!, target: match[2]!, line: prose.slice(0, match.index).split('\n').length });
  }
  return links;
}

/** Whether a link leaves the repository (a web page, a mail address, an absolute path on a server). */
export function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');
}

/** The anchors of a page's headings, as GitHub makes them: `## Start here: \`mapping suggest\`` is `#start-here-mapping-suggest`. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutFences(markdown).split('\n')) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = slugOf(heading);
    const count = seen.get(slug) ?? 0;
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
    seen.set(slug, count + 1);
  }
  return anchors;
}

/**
 * GitHub's anchor of a heading (github-slugger): the heading's text as shown (code spans without
 * their backticks, links by their text, no emphasis markers), lower-cased, every character that is
 * not a letter, a mark, a digit, `_`, `-` or a space dropped, and each space made a `-`.
 */
export function slugOf(heading: string): string {
  const shown = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/(\*{1,3})([^*]+)\1/g, '$2')
    .replace(/<[^>]+>/g, '');
  return shown
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}
