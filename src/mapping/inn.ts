/**
 * The Russian taxpayer number (ИНН) check: 10 digits for an organisation, 12 for a person or sole
 * trader, with check digits computed by the FNS algorithm (weighted sums mod 11, then mod 10).
 */

const WEIGHTS_10 = [2, 4, 10, 3, 5, 9, 4, 6, 8];
const WEIGHTS_11 = [7, 2, 4, 10, 3, 5, 9, 4, 6, 8];
const WEIGHTS_12 = [3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8];

function checkDigit(digits: readonly number[], weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += weights[i]! * digits[i]!;
  return (sum % 11) % 10;
}

/** True when `inn` is 10 or 12 digits whose check digits are right. */
export function isValidInn(inn: string): boolean {
  if (!/^\d{10}$|^\d{12}$/.test(inn)) return false;
  const digits = Array.from(inn, Number);
  if (digits.length === 10) return checkDigit(digits, WEIGHTS_10) === digits[9];
  return checkDigit(digits, WEIGHTS_11) === digits[10] && checkDigit(digits, WEIGHTS_12) === digits[11];
}

/** Why `inn` is not valid, in words and as a catalogue key; `undefined` when it is. */
export function explainInn(inn: string): { reason: string; text: { key: string; params?: Record<string, number> } } | undefined {
  if (!/^\d+$/.test(inn)) return { reason: 'must hold digits only', text: { key: 'innDigits' } };
  if (inn.length !== 10 && inn.length !== 12)
    return { reason: `must be 10 or 12 digits (has ${inn.length})`, text: { key: 'innLength', params: { n: inn.length } } };
  return isValidInn(inn) ? undefined : { reason: 'fails the INN check digit', text: { key: 'innCheck' } };
}
