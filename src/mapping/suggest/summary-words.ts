/**
 * The words of the suggestion's summary (preview-suggestion.ts), by key, with `{name}` placeholders
 * and plural forms chosen by `{n}`. The CLI (`mapping suggest`) says them in English, from here;
 * the console's mapping page says them in its language: its catalogues have these keys under
 * `summary.` (messages-en.ts takes this English; messages-ru.ts has the Russian).
 *
 * What the suggester says of its own accord is phrases too: a key and its values (`Phrase`), worded
 * where they are shown. Its warnings and notes, what an XML sample is, why the sample was read as it
 * was and why each field got its column or none (`summary.warn.*`, `summary.note.*`, `summary.doc.*`,
 * `summary.why.*`, `summary.noun.*`); the CLI's summary and the YAML's comments say them in English.
 * Text from the sample (column names, values) goes into them as it is, quoted (`shown.ts`).
 */

/** A text, or its plural forms by `{n}` (the console's `Entry`). */
export type SummaryEntry = string | { one: string; few?: string; many?: string; other: string };

export const SUMMARY_WORDS_EN = {
  'summary.inEditor': 'in the editor',
  'summary.title.requests': 'Suggested a requests mapping for {file} ({written}).',
  'summary.title.confirmations': 'Suggested a confirmations mapping for {file} ({written}).',
  'summary.encoding': 'encoding {value} ({reason})',
  'summary.columns': { one: '{n} column', other: '{n} columns' },
  'summary.dataRows': { one: '{n} data row', other: '{n} data rows' },
  'summary.records': { one: '{n} record', other: '{n} records' },
  'summary.documents': { one: '{n} document', other: '{n} documents' },
  'summary.csvSample': '  Sample: CSV, {encoding}, delimiter {delimiter} ({reason}),',
  'summary.csvHeader': '          header on line {line}, {columns}, {rows}',
  'summary.xlsxSample': '  Sample: XLSX, {sheet}, header on row {row} ({reason}),',
  'summary.xlsxSize': '          {columns}, {rows}',
  'summary.firstSheet': 'the first sheet',
  'summary.notFound': 'not found',
  'summary.xmlSample': '  Sample: XML, {document}',
  'summary.jsonSample': '  Sample: {format}, {encoding}, {records}{at}, lines at {items}',
  'summary.recordsAt': ' at {path}',
  'summary.grouping': '  Grouping: {value}',
  'summary.fillDown': '  Fill-down: {reason}',
  'summary.numbers': '  Numbers: decimalComma {value} ({reason}){thousands}',
  'summary.thousands': '; thousands separator: {list}',
  'summary.dates': '  Dates: {list}',
  'summary.fields': '  Fields: {matched} of {total} written ({requiredMatched} of {required} required){todo}',
  'summary.fieldsTodo': '; TODO: {list}',
  'summary.unusedColumns': '  Unused columns: {list}',
  'summary.requests': { one: '{n} request', other: '{n} requests' },
  'summary.confirmations': { one: '{n} confirmation', other: '{n} confirmations' },
  'summary.problems': { one: '{n} problem', other: '{n} problems' },
  'summary.previewRan': 'Preview of the sample: {submissions}, {problems}{codes}; dates in the past are not checked here',
  'summary.previewNotRun': 'Preview not run: the mapping does not load yet ({why}); fill in the TODO lines',
  'summary.lookAt': 'Look at:',
  'summary.warnings': 'Warnings:',
  'summary.notes': 'Notes:',
  'summary.look.groupBy': 'groupBy: TODO, required: no column was sure to group the rows',
  'summary.look.required': '{key}: TODO, required: {reason}',
  'summary.look.optional': '{key}: TODO, optional: {reason}',
  'summary.look.counter': '{key}: generated (counter): {reason}',
  'summary.look.checkIt': '{key}: {confidence}, check it: {reason}',
  'summary.look.problems': { one: '{key}: {n} problem in the preview', other: '{key}: {n} problems in the preview' },
  'summary.final.ready': 'Every required field has a column (guesses under {threshold} are TODOs). Check the "Look at" list, then point a flow at the mapping.',
  'summary.final.nothingToMap': 'The mapping loads, but the sample holds nothing to map: run `preview` on a sample with data before a flow uses it.',
  'summary.final.incomplete': 'Incomplete: fill in the TODO lines (or fix what the preview reports) and run `preview`.',
  // Why the suggester read the sample as it did.
  'summary.why.bom': 'a UTF-8 byte order mark (Excel\'s "CSV UTF-8")',
  'summary.why.asciiOnly': 'only ASCII characters in the sample: auto reads a BOM or valid UTF-8 as UTF-8, else windows-1251, per file',
  'summary.why.validUtf8': 'valid UTF-8 ({n} non-ASCII characters), no BOM',
  'summary.why.windows1251': 'not valid UTF-8 and no BOM: windows-1251, as 1C writes',
  'summary.why.workbookUnicode': 'a workbook holds Unicode text',
  'summary.why.firstSheet': 'the first sheet, which the daemon reads by default',
  'summary.why.xmlDeclaration': "the XML declaration's, as the daemon reads it",
  'summary.why.xmlPoint': 'XML exchange formats write numbers with a decimal point',
  'summary.why.defaultDelimiter': 'the default: no delimiter was found',
  'summary.why.delimiterSplits': '{delimiter} splits {consistent} of {records} records into {width} cells',
  'summary.why.tab': 'tab',
  'summary.why.firstLineNames': 'the first line names the columns',
  'summary.why.namesAfter': 'the first line of names, after {n} record(s)',
  'summary.why.rowNames': 'row {row} names the columns{subColumns}; the daemon finds it by the mapped names (xlsx.headerRow: auto)',
  'summary.why.namesUnderTitle':
    'the first row of names, under {n} row(s) of title{subColumns}; the daemon finds it by the mapped names (xlsx.headerRow: auto)',
  'summary.why.subColumns': ', with the sub-columns of row {row}',
  'summary.why.fileIsArray': 'the file is an array of {n} records',
  'summary.why.arrayAt': 'the array at {path} holds {n} records, each with its lines',
  'summary.why.oneRecord': 'the file is one record',
  'summary.why.perLine': 'one record per line ({n})',
  'summary.why.noArrays': 'no record holds an array of objects',
  'summary.why.linesIn': '{n} of {records} records hold their lines in {path}',
  'summary.why.decimalCommas': 'decimal commas: {example}',
  'summary.why.commaThousands': 'decimal points with comma thousands: {example}',
  'summary.why.moreCommas': 'more columns with decimal commas',
  'summary.why.morePoints': 'more columns with decimal points',
  'summary.why.semicolonLocale': 'no decimal separator in the sample; ";"-separated exports come from locales that write a decimal comma',
  'summary.why.noDecimalComma': 'no decimal comma in the sample',
  'summary.why.fillDown': '{column} is blank on {n} row(s) below a filled one: a grouped report writes the number once, above its lines',
  'summary.why.dateExample': '{example}',
  'summary.why.dateExampleTwin': '{example}; {twin} fits as well',
  'summary.why.named': 'named {column}',
  'summary.why.namedOrderIds': 'named {column}; values are platform order ids',
  'summary.why.requestsInRows': { one: '{n} request in {rows} rows', other: '{n} requests in {rows} rows' },
  'summary.why.ordersInRows': { one: '{n} order in {rows} rows', other: '{n} orders in {rows} rows' },
  'summary.why.groupNoRows': '{named}; no rows to check it on',
  'summary.why.groupAdjacent': '{named}; its rows are adjacent: {runs}',
  'summary.why.groupBut': '{named}, but {problem}',
  'summary.why.groupOrderIds': 'its values are platform order ids; {runs}',
  'summary.why.noRepeatWhileLines': 'no column repeats its value over adjacent rows while {lines} changes: each row would be its own request',
  'summary.why.noRepeat': 'no column repeats its value over adjacent rows: each row would be its own request',
  'summary.why.repeatsLinesChange': 'its value repeats over adjacent rows while the line columns change: {runs}',
  'summary.why.repeatsNoLines': 'its value repeats over adjacent rows (no line column to check it against): {runs}',
  'summary.why.sameGrouping': '{names} group the rows the same way ({runs}); none is named like the key',
  'summary.thousand.non-breaking space': 'non-breaking space',
  'summary.thousand.thin space': 'thin space',
  'summary.thousand.space': 'space',
  'summary.thousand.apostrophe': 'apostrophe',
  // Why a field was given its column, or none.
  'summary.why.list': '{items}',
  'summary.why.but': 'but {text}',
  'summary.why.contains': '{column} contains {phrase}',
  'summary.why.share': '{fits} ({share})',
  'summary.why.nOfM': '{n} of {of}',
  'summary.why.someValues': '{share} values {fits}',
  'summary.why.noRowsToCheck': 'no rows to check it on',
  'summary.why.emptyRequired': 'it is empty in the sample',
  'summary.why.emptyInSample': 'empty in the sample',
  'summary.why.orderIdValues': 'values are platform order ids',
  'summary.why.notOrderIds': 'its values are not platform order ids',
  'summary.why.distinct': 'a different value in each record',
  'summary.why.shared': 'records share values',
  'summary.why.innPasses': 'values pass the INN check digit',
  'summary.why.innFails': 'its values fail the INN check digit',
  'summary.why.emails': 'values are e-mail addresses',
  'summary.why.notEmails': 'its values are not e-mail addresses',
  'summary.why.phones': 'values are phone numbers',
  'summary.why.notPhones': 'its values are not phone numbers',
  'summary.why.currencies': 'values are currencies',
  'summary.why.notCurrencies': 'its values are not currency codes',
  'summary.why.currencyMap': '{list} mapped to ISO codes',
  'summary.why.numbers': 'values are numbers ({share})',
  'summary.why.notNumbers': 'its values are not numbers',
  'summary.why.linesNumbered': 'numbers the lines 1, 2, 3… in {each}',
  'summary.why.lineRepeats': 'a value repeats within {one} (LINE_DUPLICATE)',
  'summary.why.notDates': 'its values are not dates',
  'summary.why.dates': 'dates like {example} ({format}, {share})',
  'summary.why.dayTwelve': 'every day is 12 or less, so {twin} fits as well: check one',
  'summary.why.organisations': 'values are organisation names',
  'summary.why.isOrganisations': 'its values are organisation names',
  'summary.why.notWords': 'its values are numbers or dates, not words',
  'summary.why.changesWithin': 'it changes between the rows of {one}',
  'summary.why.sameOnRows': 'the same on every row of {a}',
  'summary.why.groupingColumn': '{why}; the grouping column',
  'summary.why.tie': '{a} ({ca}) and {b} ({cb}) fit as well as each other: choose one',
  'summary.why.counter': 'no column numbers the lines of {a}: generated 1, 2, 3… in the order of the lines{hint}',
  'summary.why.counterHint': '; {column} scored only {score} ({why}): use it if it numbers the lines',
  'summary.why.noColumn': 'no column fits',
  'summary.why.bestGuess': 'best guess {column} scored {score}, under {threshold}: {why}',
  'summary.why.requisite': 'requisite {path}, with a value in {carried} of {documents}: {why}',
  'summary.why.requisiteScarce': 'requisite {path} names it, but only {carried} of {documents} carry it',
  'summary.why.notInCommerceMl': 'CommerceML carries no such field',
  'summary.why.emptyCommerceMl': {
    one: 'empty in {missing} of {n} document: CommerceML does not carry it here, give a default{hint}',
    other: 'empty in {missing} of {n} documents: CommerceML does not carry it here, give a default{hint}',
  },
  'summary.why.hint': '; {hint}',
  'summary.why.presetCommerceMl': 'preset commerceml',
  'summary.why.sitePlaceholder': 'SITE placeholder: EnterpriseData carries no phone or e-mail of the contact',
  'summary.why.notInEnterpriseData': 'EnterpriseData carries no such field',
  'summary.why.siteDefaultStandsIn': {
    one: 'preset enterprisedata; the SITE default stands in for {missing} of {n} purchase order in the sample',
    other: 'preset enterprisedata; the SITE default stands in for {missing} of {n} purchase orders in the sample',
  },
  'summary.why.siteDefaultUnneeded': 'preset enterprisedata; the SITE default: no order of the sample needs it',
  'summary.why.emptyEnterpriseData': {
    one: 'empty in {missing} of {n} purchase order: the message does not carry it here, give a default',
    other: 'empty in {missing} of {n} purchase orders: the message does not carry it here, give a default',
  },
  'summary.why.presetEnterpriseData': 'preset enterprisedata',
  'summary.why.byHand': 'write its path by hand',
  'summary.noun.request.each': 'each request',
  'summary.noun.request.one': 'one request',
  'summary.noun.request.a': 'a request',
  'summary.noun.order.each': 'each order',
  'summary.noun.order.one': 'one order',
  'summary.noun.order.a': 'an order',
  'summary.noun.orderDocument.each': 'each order document',
  'summary.noun.orderDocument.one': 'one order document',
  'summary.noun.orderDocument.a': 'an order document',
  // The suggester's warnings.
  'summary.warn.noDelimiter': 'no delimiter (";", ",", tab, "|") splits the lines into columns: is this a CSV export?',
  'summary.warn.noHeader': 'the first lines hold values, not column names: the daemon needs a header line naming the columns',
  'summary.warn.headerBelow':
    'the header is on line {line}: the daemon reads line 1 as the header, so the {n} record(s) above it (a title?) must go from the export',
  'summary.warn.noRows': 'the sample has a header and no rows: columns are matched by their names alone',
  'summary.warn.noHeaderRow': 'none of the first {rows} rows of {sheet} names the columns: the daemon needs a header row',
  'summary.warn.unnamedColumn': 'column {column} has values but no name: a mapping cannot name it',
  'summary.warn.unnamedSheetColumn': 'column {column} of {sheet} has values but no name: a mapping cannot name it',
  'summary.warn.nameTwice': 'the header names {name} twice: the daemon reads the first',
  'summary.warn.notObjects': '{n} record(s) are not JSON objects and were left out',
  'summary.warn.noLinesArray': 'the records hold no array of lines: a JSON request must hold its lines in an array',
  'summary.warn.lineNotJson': 'line {line} is not valid JSON and was left out',
  'summary.warn.cutSample': 'only the first {bytes} bytes of {file} were analysed; the preview reads the whole file',
  'summary.warn.cutSheet': 'only the first {rows} rows of {sheet} were analysed; the preview reads the whole workbook',
  'summary.warn.notCyrillic':
    'the non-ASCII bytes do not read as Russian text in windows-1251 ({cyrillic} of {nonAscii} are Cyrillic letters): check the encoding',
  'summary.warn.orderIds': '{column} holds platform order ids: is this a supplier confirmation? (--kind confirmations)',
  'summary.warn.keyReturns': '{value} comes back at row {row} after other rows: the daemon maps adjacent rows only (sort the export by this column)',
  'summary.warn.keyBlank': '{n} row(s) have no value in it',
  'summary.warn.mixedDecimals': 'both decimal commas ({comma}) and decimal points ({point}): one of them will not read',
  'summary.warn.noCommerceMlOrder': 'no order document (ХозОперация "Заказ товара") in the sample',
  'summary.warn.edVersion':
    'the message is in EnterpriseData {version}, which the preset does not read (it reads {versions}); 1C writes in the highest version both sides declare',
  'summary.warn.edSettingsMessage':
    'a settings message (the handshake) has no Body: the sample has no purchase order ({object}) to preview; the preset is proposed all the same, try it on a data message',
  'summary.warn.edNoOrder':
    'the message holds no purchase order ({object}), only other objects: the sample has nothing to preview; the preset is proposed all the same',
  'summary.warn.commerceMlKind': 'the CommerceML preset maps buyer requests; a {kind} flow reading XML needs record, lines and paths written by hand',
  'summary.warn.notCommerceMl': 'not a CommerceML document export: {why}',
  'summary.warn.edKind':
    'an EnterpriseData exchange message: the enterprisedata preset reads its purchase orders as buyer requests; a {kind} flow cannot read it',
  'summary.example': '{value} in {column}',
  // The suggester's notes.
  'summary.note.requisite': "{key} reads the requisite {path}, with a value in {carried} of {documents}, in place of the preset's path",
  'summary.note.edNodes':
    "the flow reading these messages also needs, in the daemon config, enterpriseData: { node: {node}, peer: {peer} } (node: Header/Confirmation/To, the code 1C gave this program; peer: Header/Confirmation/From, 1C's own code){missing}",
  'summary.note.edMissing': "; the header {what}: take the codes from 1C's synchronization settings",
  'summary.note.edNoAddressee': 'names no addressee (Confirmation/To)',
  'summary.note.edNoSender': 'names no sender (Confirmation/From)',
  'summary.note.edNoAddresseeNorSender': 'names no addressee (Confirmation/To) and names no sender (Confirmation/From)',
  'summary.note.edPassword': '1C compresses its messages: if it sets an archive password ("Пароль архива"), give it as enterpriseData.password',
  'summary.note.edPlaceholders':
    "{fields}: placeholders (SITE in the YAML), as the shipped enterprisedata-orders.yaml gives them; put your purchasing department's own before the requests go to the real platform",
  // What an XML sample is.
  'summary.doc.commerceMl': {
    one: 'a CommerceML document export, {n} order document (preset commerceml)',
    other: 'a CommerceML document export, {n} order documents (preset commerceml)',
  },
  'summary.doc.edSettings': 'an EnterpriseData settings message (the handshake) from {from} to {to}',
  'summary.doc.edData': 'an EnterpriseData {version} data message from {from} to {to}',
  'summary.doc.edMessage': '{message}, {orders} ({object}; preset enterprisedata)',
  'summary.doc.unnamedNode': 'an unnamed node',
  'summary.doc.noPreset': 'no preset reads it (not a CommerceML order export, not an EnterpriseData message)',
  'summary.doc.orders': { one: '{n} purchase order', other: '{n} purchase orders' },
  'summary.doc.noOrders': 'no purchase order',
  'summary.doc.ordersOfFirst': { one: 'the first {n} order document', other: 'the first {n} order documents' },
  'summary.doc.ordersOf': { one: '{n} order document', other: '{n} order documents' },
} as const satisfies Record<string, SummaryEntry>;

export type SummaryKey = keyof typeof SUMMARY_WORDS_EN;

/** A word of the summary, its placeholders filled (`{n}` also chooses the plural form). */
export type SummarySay = (key: SummaryKey, params?: Record<string, string | number>) => string;

/** A value of a phrase: text, a number, a phrase of its own (worded first), or phrases worded and joined by `; `. */
export type PhraseValue = string | number | Phrase | readonly Phrase[];

/** A warning, a note or a description of the suggester: a key of the summary's words and its values. */
export interface Phrase {
  key: SummaryKey;
  params?: Readonly<Record<string, PhraseValue>>;
}

export const phrase = (key: SummaryKey, params?: Readonly<Record<string, PhraseValue>>): Phrase => (params === undefined ? { key } : { key, params });

/** `p` in the words of `say`, its phrases inside worded first. */
export function sayPhrase(p: Phrase, say: SummarySay): string {
  if (p.params === undefined) return say(p.key);
  const params: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(p.params)) {
    params[name] = Array.isArray(value)
      ? value.map((item: Phrase) => sayPhrase(item, say)).join('; ')
      : typeof value === 'object'
        ? sayPhrase(value as Phrase, say)
        : (value as string | number);
  }
  return say(p.key, params);
}

/** `p` in English: the CLI's summary, the YAML's comments, the tests. */
export const phraseEnglish = (p: Phrase): string => sayPhrase(p, summaryEnglish);

/** The summary in English, as the CLI prints it. */
export const summaryEnglish: SummarySay = (key, params) => {
  const entry: SummaryEntry = SUMMARY_WORDS_EN[key];
  const text = typeof entry === 'string' ? entry : Number(params?.n) === 1 ? entry.one : entry.other;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (params && name in params ? String(params[name]) : whole));
};
