import { tableTooLarge } from './errors.ts';
import { MAX_FIELD_VALUES, MAX_FIELDS } from './limits.ts';

const NOUNS = { csv: ['columns', 'rows'], dbf: ['fields', 'records'] } as const;

/**
 * A table's columns (a CSV's) or fields (a .dbf's) and its values, columns times rows, against
 * MAX_FIELDS and MAX_FIELD_VALUES: every value of every row becomes a plot's property, so these, not
 * the file's bytes, are what reading it costs. `where` names the table in the refusal.
 */
export function checkTableSize(fields: number, rows: number, table: 'csv' | 'dbf', where: string): void {
  const [noun, rowNoun] = NOUNS[table];
  if (fields > MAX_FIELDS) throw tableTooLarge(`${fields.toLocaleString('en')} ${noun} (${where})`, `${MAX_FIELDS} ${noun}`);
  if (fields * rows > MAX_FIELD_VALUES) {
    throw tableTooLarge(
      `more than ${MAX_FIELD_VALUES.toLocaleString('en')} values (${fields} ${noun} of ${rows.toLocaleString('en')} ${rowNoun}, ${where})`,
      `${MAX_FIELD_VALUES.toLocaleString('en')} values`,
    );
  }
}
