/**
 * What the editor itself says (its marks, its hover, the kinds of its marks), in the console's
 * language. The page gives the words of its language as JSON in the textarea's `data-words` (data,
 * not a script: the console's CSP runs none inline), from the catalogues' `editor.*` block (messages-en.ts, messages-ru.ts) and the YAML
 * parser's texts (texts-*.ts, under the keys of config/yaml-error-keys.ts, which the daemon's errors use too). The
 * English here is the catalogue's (messages-en.ts takes it from here) and what the editor says
 * when the page gave it nothing, as in the Node tests.
 *
 * The schema's own text (a key's description, its enum values, its patterns) is not the editor's:
 * it is shown as the schema writes it, in English; so are the keys themselves.
 */
import { YAML_ERROR_KEYS } from '../../../config/yaml-error-keys.js';

export const EDITOR_WORDS_EN = {
  'editor.source.yaml': 'YAML',
  'editor.source.schema': 'mapping schema',
  'editor.source.daemon': 'daemon check',
  'editor.unreadable': 'cannot be read as YAML: {said}',
  'editor.yamlSyntax': 'is not valid YAML: {said}',
  'editor.notMapping': 'must be a YAML mapping (key: value pairs)',
  'editor.unknownKey': 'unknown key "{key}" ({hint})',
  'editor.didYouMean': 'did you mean {near}?',
  'editor.knownHere': 'known here: {keys}',
  'editor.noKeysHere': 'no keys are allowed here',
  'editor.missingKey': 'missing required key "{key}"',
  'editor.expected': 'expected {expected}, got {got}',
  'editor.notEmpty': 'must not be empty',
  'editor.minLength': 'must be at least {n} characters long',
  'editor.singleCharacter': 'must be a single character',
  'editor.maxLength': 'must be at most {n} characters long',
  'editor.pattern': 'must match the pattern {pattern}',
  'editor.minimum': 'must be at least {n}',
  'editor.maximum': 'must be at most {n}',
  'editor.exclusiveMinimum': 'must be above {n}',
  'editor.exclusiveMaximum': 'must be below {n}',
  'editor.minItems': 'must list at least {n}',
  'editor.got.null': 'nothing (null)',
  'editor.got.list': 'a list',
  'editor.got.mapping': 'a mapping',
  'editor.got.number': 'the number {n}',
  'editor.type.nothing': 'nothing (not allowed here)',
  'editor.type.anything': 'anything',
  'editor.type.or': '{a} or {b}',
  'editor.type.oneOf': 'one of {values}',
  'editor.type.string': 'a string',
  'editor.type.number': 'a number',
  'editor.type.integer': 'an integer',
  'editor.type.boolean': 'true or false',
  'editor.type.object': 'a mapping',
  'editor.type.array': 'a list',
  'editor.type.null': 'null',
  'editor.type.listOf': 'a list of {items}',
  'editor.type.strings': 'strings',
  'editor.type.numbers': 'numbers',
  'editor.type.integers': 'integers',
  'editor.type.mappings': 'mappings',
  'editor.type.lists': 'lists',
  'editor.type.above': '{type} above {n}',
  'editor.type.atLeast': '{type} of at least {n}',
  'editor.type.upTo': '{type} up to {n}',
  'editor.hover.default': '{type}; default {value}',
  'editor.completion.default': 'default',
} as const;

export type EditorWordKey = keyof typeof EDITOR_WORDS_EN;

/** English of the parser's texts, for an editor the page gave no words (the catalogue's, texts-en.ts). */
const YAML_TEXTS_EN: Readonly<Record<string, string>> = {
  'text.yamlNestedOnOneLine': 'a nested mapping cannot start on the line of its key: move it to the next line, indented',
  'text.yamlKeyOnOneLine': 'a key must fit on one line: is a colon or a quote missing above?',
  'text.yamlTabIndent': 'is indented with a tab: YAML indents with spaces',
  'text.yamlDuplicateKey': 'repeats a key written above',
  'text.yamlBadIndent': 'is indented wrongly: keys of one mapping stand in one column',
  'text.yamlBadEscape': 'has an invalid escape in a double-quoted text: write \\\\ for a backslash, or use single quotes',
  'text.yamlUnexpected': 'has a character YAML does not expect here',
  'text.yamlNotClosed': 'a quote or a bracket is not closed',
};

/** Every key of the words the page gives the editor. */
export const EDITOR_WORD_KEYS: readonly string[] = [...Object.keys(EDITOR_WORDS_EN), ...Object.values(YAML_ERROR_KEYS).map((key) => `text.${key}`)];

/** `say('editor.minimum', { n: 3 })`: a word of the editor, its `{name}` placeholders filled. */
export type Say = (key: EditorWordKey | `text.${string}`, params?: Record<string, string | number>) => string;

/** The `say` of `words` (the page's); a word it lacks is said in English. */
export function sayWith(words: Readonly<Record<string, unknown>>): Say {
  return (key, params) => {
    const own = words[key];
    const text = typeof own === 'string' ? own : ((EDITOR_WORDS_EN as Record<string, string>)[key] ?? YAML_TEXTS_EN[key] ?? key);
    return text.replace(/\{(\w+)\}/g, (whole, name: string) => (params && name in params ? String(params[name]) : whole));
  };
}

/** The editor's English. */
export const sayEnglish: Say = sayWith({});
