/**
 * A column's profile: what its values are (`classify-values.ts`) and, once the rows are grouped
 * into requests, how they behave inside a request: the same on every row (a request field) or
 * changing (a line field), and whether they number the lines.
 */
import {
  currencyFit,
  dateFit,
  isEmail,
  isInn,
  isOrderId,
  isPhone,
  numberFit,
  shareOf,
  type CurrencyFit,
  type DateFit,
  type NumberFit,
} from './classify-values.js';
import type { SampleColumn } from './types.js';

/** Values classified per column; a bigger sample adds time, not certainty. */
const MAX_VALUES = 2000;

export interface ColumnProfile {
  column: SampleColumn;
  /** The non-empty values (the first MAX_VALUES). */
  values: string[];
  /** Share of rows with a value. */
  filled: number;
  inn: number;
  email: number;
  phone: number;
  orderId: number;
  currency: CurrencyFit;
  date: DateFit | undefined;
  number: NumberFit;
  /**
   * The same value on every row of each request: true, false, or undefined when no request has
   * two rows (or the column is a JSON field, whose level is its place in the record).
   */
  perRequest: boolean | undefined;
  /** How the values number the lines of a request: `1, 2, 3…` each time, distinct, or repeated. */
  counter: 'restarting' | 'distinct' | 'repeats';
}

export function profileColumn(column: SampleColumn): ColumnProfile {
  const values = column.values.filter((value) => value !== '').slice(0, MAX_VALUES);
  return {
    column,
    values,
    filled: column.values.length === 0 ? 0 : column.values.filter((value) => value !== '').length / column.values.length,
    inn: shareOf(values, isInn),
    email: shareOf(values, isEmail),
    phone: shareOf(values, isPhone),
    orderId: shareOf(values, isOrderId),
    currency: currencyFit(values),
    date: dateFit(values),
    number: numberFit(values),
    ...withinRequests(column),
  };
}

/** The profile again after the rows were grouped (`groups`: the request of each row). */
export function regroup(profile: ColumnProfile, groups: readonly number[]): ColumnProfile {
  return { ...profile, ...withinRequests({ ...profile.column, groups: [...groups] }) };
}

function withinRequests(column: SampleColumn): Pick<ColumnProfile, 'perRequest' | 'counter'> {
  const byGroup = new Map<number, string[]>();
  column.values.forEach((value, row) => {
    const group = column.groups[row] ?? row;
    const list = byGroup.get(group);
    if (list) list.push(value);
    else byGroup.set(group, [value]);
  });
  let multiRow = false;
  let constant = true;
  let restarting = true;
  let distinct = true;
  for (const values of byGroup.values()) {
    if (values.length > 1) {
      multiRow = true;
      if (new Set(values).size > 1) constant = false;
    }
    if (new Set(values).size !== values.length || values.includes('')) distinct = false;
    if (!values.every((value, index) => /^\d+$/.test(value) && Number(value) === index + 1)) restarting = false;
  }
  const perRequest = column.level === 'record' ? true : multiRow ? constant : undefined;
  return { perRequest, counter: restarting && distinct ? 'restarting' : distinct ? 'distinct' : 'repeats' };
}
