/**
 * The yaml package's errors a person makes, by its code, and the key of the console's text that
 * says each (texts-en.ts, texts-ru.ts); any other is `yamlSyntax`, quoting the parser. One table
 * for the daemon's messages (`read-yaml.ts`) and the mapping editor's marks (the browser bundle,
 * `admin/console/editor/words.ts`), so it imports nothing.
 */
export const YAML_ERROR_KEYS: Readonly<Record<string, string>> = {
  BLOCK_AS_IMPLICIT_KEY: 'yamlNestedOnOneLine',
  MULTILINE_IMPLICIT_KEY: 'yamlKeyOnOneLine',
  TAB_AS_INDENT: 'yamlTabIndent',
  DUPLICATE_KEY: 'yamlDuplicateKey',
  BAD_INDENT: 'yamlBadIndent',
  BAD_DQ_ESCAPE: 'yamlBadEscape',
  UNEXPECTED_TOKEN: 'yamlUnexpected',
  MISSING_CHAR: 'yamlNotClosed',
};
