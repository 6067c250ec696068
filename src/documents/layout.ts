/**
 * The documents' typography and the few building blocks every section uses: headings, label and
 * value tables, data tables, and how a value is written when it is unknown, a boolean or a share.
 */
import type { Content, ContentTable, StyleDictionary, TableCell } from 'pdfmake/interfaces.js';
import { COVERAGE_NEEDED, coversPart } from '../engine/kernels/coverage.ts';

export const PAGE = { size: 'A4', margins: [40, 64, 40, 48] as [number, number, number, number], width: 515 } as const;

export const STYLES: StyleDictionary = {
  title: { fontSize: 16, bold: true, margin: [0, 0, 0, 2] },
  subtitle: { fontSize: 9, color: '#555555', margin: [0, 0, 0, 10] },
  h1: { fontSize: 12.5, bold: true, margin: [0, 14, 0, 5], color: '#1b3a2f' },
  h2: { fontSize: 10, bold: true, margin: [0, 9, 0, 3] },
  body: { fontSize: 8.5, lineHeight: 1.2 },
  small: { fontSize: 7.5, color: '#444444' },
  label: { fontSize: 8, color: '#555555' },
  cell: { fontSize: 7.8 },
  head: { fontSize: 7.8, bold: true, fillColor: '#eef1ec' },
  // Courier's metrics give a tight line; the extra height keeps wrapped identifiers apart.
  code: { font: 'Courier', fontSize: 7.6, lineHeight: 1.35 },
  verdict: { fontSize: 13, bold: true },
  synthetic: { fontSize: 8, bold: true, color: '#ffffff' },
};

/** Written where a value was not read or does not exist. */
export const NOT_READ = 'not read';

type Scalar = string | number | boolean | null | undefined;

/** Any stored value as words: absent and null are "not read", booleans yes/no, numbers trimmed. */
export function show(value: unknown, digits = 3): string {
  if (value === null || value === undefined) return NOT_READ;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') return Number.isFinite(value) ? String(Number(value.toFixed(digits))) : NOT_READ;
  if (typeof value === 'string') return value === '' ? NOT_READ : value;
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.map((v) => show(v, digits)).join(', ');
  return JSON.stringify(value);
}

/** A fraction of the plot as a percentage. */
export function share(value: unknown): string {
  return typeof value === 'number' && Number.isFinite(value) ? `${(value * 100).toFixed(1)}%` : NOT_READ;
}

/**
 * The share of the plot a read had data for, as a row of facts; none for objects issued before
 * coverage was measured. Under 95% the read gave no answer, and the row says so.
 */
export function coverageRow(coverage: number | null | undefined): Array<[string, string]> {
  if (coverage === undefined) return [];
  const said = coversPart(coverage) ? `${share(coverage)}: under ${COVERAGE_NEEDED * 100}%, so it gives no answer or share` : share(coverage);
  return [['Share of the plot read', said]];
}

/** A number with its unit, or "not read". */
export function measure(value: unknown, unit: string, digits = 2): string {
  return typeof value === 'number' && Number.isFinite(value) ? `${value.toFixed(digits)} ${unit}` : NOT_READ;
}

/** An instrument's categorical answer (spec 2.7 rule 1). */
export function answer(forestLike: unknown): string {
  if (forestLike === true) return 'forest-like';
  if (forestLike === false) return 'not forest-like (reads as a crop)';
  return 'no answer';
}

/** Headings carry a level so keepHeadingsWithNext() finds them. */
export const heading = (text: string): Content => ({ text, style: 'h1', headlineLevel: 1 });
/** A subheading, with the evidence object's key for the block when it has one. */
export const subheading = (text: string, key?: string): Content => ({
  text: key ? [text, { text: `   ${key}`, style: 'code', color: '#777777', bold: false }] : text,
  style: 'h2',
  headlineLevel: 2,
});

const isHeading = (c: Content): boolean => typeof c === 'object' && c !== null && 'headlineLevel' in c;

/**
 * No heading is left last on a page: each run of headings is bound to the block after it in an
 * unbreakable stack. pdfmake's pageBreakBefore would do the same by laying the whole document out
 * again for every break it adds, which costs more than the rest of the layout. An unbreakable stack
 * taller than a page is dropped by pdfmake, so a long table is bound by its first rows only and goes
 * on below them, its header repeated.
 */
export function keepHeadingsWithNext(content: Content[]): Content[] {
  const out: Content[] = [];
  for (let i = 0; i < content.length; i++) {
    if (!isHeading(content[i])) {
      out.push(content[i]);
      continue;
    }
    let j = i;
    while (j < content.length - 1 && isHeading(content[j])) j++;
    const [bound, rest] = headOf(content[j]);
    out.push({ stack: [...content.slice(i, j), bound], unbreakable: true });
    if (rest !== null) out.push(rest);
    i = j;
  }
  return out;
}

/** Rows of a table bound to its heading; a table of more is split after them. */
const BOUND_ROWS = 4;

/** A block's part that is bound to its heading, and what goes on after it (null when it is bound whole). */
function headOf(block: Content): [Content, Content | null] {
  if (typeof block !== 'object' || block === null || !('table' in block)) return [block, null];
  const { table } = block as ContentTable;
  const header = table.headerRows ?? 0;
  if (table.body.length <= header + BOUND_ROWS * 2) return [block, null];
  return [
    { ...(block as ContentTable), table: { ...table, body: table.body.slice(0, header + BOUND_ROWS) }, margin: [0, 0, 0, 0] },
    { ...(block as ContentTable), table: { ...table, body: [...table.body.slice(0, header), ...table.body.slice(header + BOUND_ROWS)] } },
  ];
}
export const para = (text: string, extra: Record<string, unknown> = {}): Content => ({ text, style: 'body', margin: [0, 0, 0, 4], ...extra });
export const code = (text: string): Content => ({ text, style: 'code' });

const thinLines = {
  hLineWidth: () => 0.4,
  vLineWidth: () => 0,
  hLineColor: () => '#c8ccc4',
  paddingTop: () => 2,
  paddingBottom: () => 2,
};

/** Label and value rows; a value may be content of its own (a code, a list). No rows, no table. */
export function facts(rows: Array<[string, Scalar | Content]>, labelWidth = 150): Content {
  if (rows.length === 0) return { text: '' };
  return {
    table: {
      dontBreakRows: true,
      widths: [labelWidth, '*'],
      body: rows.map(([label, value]): TableCell[] => [
        { text: label, style: 'label' },
        typeof value === 'string' && value === '' ? { text: NOT_READ, style: 'cell' } : cell(value),
      ]),
    },
    layout: thinLines,
    margin: [0, 0, 0, 6],
  };
}

/** A cell: text as written, other scalars through show(), content as it is. */
function cell(value: Scalar | Content): TableCell {
  if (typeof value === 'object' && value !== null) return value;
  return { text: typeof value === 'string' ? value : show(value), style: 'cell' };
}

/** A table with a header row; cells are text or content. */
export function grid(head: string[], rows: Array<Array<Scalar | Content>>, widths?: Array<string | number>): ContentTable {
  return {
    table: {
      headerRows: 1,
      dontBreakRows: true,
      widths: widths ?? head.map(() => '*'),
      body: [
        head.map((h): TableCell => ({ text: h, style: 'head' })),
        ...rows.map((row) => row.map(cell)),
      ],
    },
    layout: thinLines,
    margin: [0, 0, 0, 6],
  };
}

/** A stored block as a record whose fields are read one by one (blocks are typed loosely where they are filled). */
export function fields(block: unknown): Record<string, unknown> {
  return block !== null && typeof block === 'object' && !Array.isArray(block) ? (block as Record<string, unknown>) : {};
}
