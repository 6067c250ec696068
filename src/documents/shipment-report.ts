/**
 * The shipment report (spec 4.9): every plot of a batch with what the record shows on it, its finding
 * or what withheld one, and its next step; the batch's counts and shares; open alert cases; sources;
 * limitations; and a last page laying out the due diligence statement's fields in the order the
 * information system asks for them, filled from the batch and the register, naming what is missing.
 * Rendered on a documents thread; the statement's fields come from the same builder the statement
 * routes use, so the page and the statement cannot disagree.
 */
import type { Content, ContentTable } from 'pdfmake/interfaces.js';
import type { CaseRecord } from '../alerts/monitors.ts';
import type { ReasonCode, Verdict } from '../engine/decide.ts';
import type { NextStep } from '../engine/next-step.ts';
import type { PlotState } from '../engine/plot-state.ts';
import type { BatchCounts } from '../store/register/shipments.ts';
import { evidenceSummary, warnedPlots, type EvidenceWarning, type WarnedPlots } from '../statements/evidence-warnings.ts';
import { statementOutline, type FilingPlot, type StatementFacts } from '../statements/payload.ts';
import { code, grid, facts, heading, keepHeadingsWithNext, para, PAGE, show, STYLES, subheading } from './layout.ts';
import { LIMITATIONS } from './evidence/limitations.ts';
import { REASON_MEANINGS, VERDICT_MEANINGS } from './meanings.ts';
import { streamPdf, type StreamedFrame } from './pdf.ts';
import type { RenderChannel } from './render-channel.ts';

/** A plot of the batch as the report lists it. */
export interface ReportPlot {
  id: string;
  external_ref: string | null;
  area_ha: number | null;
  producer_name: string | null;
  evidence_state: string;
  verdict: Verdict | null;
  reason: ReasonCode | null;
  state: PlotState;
  next_step: NextStep | null;
  /** Share of the plot on which moist forest was lost after the cutoff; null when none is dated. */
  post_cutoff_loss_share: number | null;
}

/** An open case of the alert queue on a plot of the batch, as the report lists it. */
export type ReportCase = Pick<CaseRecord, 'alert_id' | 'plot_id' | 'ref' | 'product' | 'first_date' | 'last_date' | 'severity' | 'flagged_area_km2'>;

/** The lists the report reads a page at a time, asking the API's thread: the plot table's rows and the evidence warnings in register order, the statement's plots in batch order. */
export type ReportList = 'plots' | 'warnings' | 'filing';

/** A page of a list after a keyset position (0: the first page). */
export interface ReportQuestion {
  list: ReportList;
  after: number;
}

/** A page's rows as JSON text (ReportPlot, EvidenceWarning or FilingPlot), and the position after which the next page starts; null after the last. */
export interface ReportPage {
  rows: string;
  next: number | null;
}

/** What the report is made from beside its lists, which the documents thread reads as it writes (render-channel.ts). */
export interface ShipmentReportTask {
  shipment: {
    id: string;
    reference: string;
    shipped_on: string | null;
    arrives_on: string | null;
    note: string | null;
  };
  counts: BatchCounts;
  /** The open alert cases on the batch's plots. */
  openCases: ReportCase[];
  /** The statement's facts under the shipment's reference, but its plots. */
  statement: Omit<StatementFacts, 'plots'>;
  /** When the report was made (its dates). */
  generatedAt: string;
  /** The service's base URL (ending /api/v1), for the evidence documents' addresses. */
  baseUrl: string;
}

/** A list's pages, read as they are needed; a list is read again for each pass over it, so no pass holds it. */
async function* pagesOf<T>(channel: RenderChannel, list: ReportList): AsyncGenerator<T[]> {
  let after = 0;
  for (;;) {
    const page = await channel.ask<ReportPage>({ list, after } satisfies ReportQuestion);
    yield JSON.parse(page.rows) as T[];
    if (page.next === null) return;
    after = page.next;
  }
}

async function* rowsOf<T>(channel: RenderChannel, list: ReportList): AsyncGenerator<T> {
  for await (const page of pagesOf<T>(channel, list)) yield* page;
}

/** What the report says of the whole batch before it lists it: found in one pass over the pages, with the first rows of each list. */
interface Tally {
  plots: number;
  withheldBy: Map<string, number>;
  steps: Map<string, string>;
  lost: number;
  firstPlots: ReportPlot[];
  firstLost: ReportPlot[];
  warnings: number;
  firstWarnings: EvidenceWarning[];
  warned: WarnedPlots;
}

const isLost = (p: ReportPlot) => p.post_cutoff_loss_share !== null;

async function tallyOf(channel: RenderChannel): Promise<Tally> {
  const t: Tally = { plots: 0, withheldBy: new Map(), steps: new Map(), lost: 0, firstPlots: [], firstLost: [], warnings: 0, firstWarnings: [], warned: new Map() };
  for await (const p of rowsOf<ReportPlot>(channel, 'plots')) {
    t.plots++;
    if (t.firstPlots.length < FULL_TABLE_ROWS) t.firstPlots.push(p);
    if (p.evidence_state === 'done' && p.verdict !== 'prior_management_evidenced') {
      const why = p.reason ?? p.verdict ?? 'unknown';
      t.withheldBy.set(why, (t.withheldBy.get(why) ?? 0) + 1);
    }
    if (p.next_step !== null) t.steps.set(p.next_step.code, p.next_step.note);
    if (isLost(p)) {
      t.lost++;
      if (t.firstLost.length < FULL_TABLE_ROWS) t.firstLost.push(p);
    }
  }
  for await (const page of pagesOf<EvidenceWarning>(channel, 'warnings')) {
    t.warnings += page.length;
    t.firstWarnings.push(...page.slice(0, FULL_TABLE_ROWS - t.firstWarnings.length));
    warnedPlots(page, t.warned);
  }
  return t;
}

/**
 * Rows a per-plot table lays out in full. pdfmake holds every table cell of a part until the part is
 * written, so past this the rows are listed in a compact form, a text line each, laid out and written
 * a part at a time.
 */
export const FULL_TABLE_ROWS = 2000;
/** Compact lines set as one text block: pdfmake lays out a block's lines far more cheaply than cells. */
const COMPACT_BLOCK_LINES = 500;
/** Compact lines laid out and written as one part of the document: what the documents thread holds of a long list at once. */
const COMPACT_PART_LINES = 4 * COMPACT_BLOCK_LINES;

const counted = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
const shareOf = (n: number, of: number) => (of === 0 ? '0%' : `${((n / of) * 100).toFixed(1)}%`);

function countsSection(task: ShipmentReportTask, { withheldBy }: Tally): Content[] {
  const c = task.counts;
  return [
    heading('The batch in numbers'),
    grid(['', 'plots', 'share of the batch'], [
      ['With a finding', c.with_finding, shareOf(c.with_finding, c.plots)],
      ['Withheld (read, no positive finding)', c.withheld, shareOf(c.withheld, c.plots)],
      ['Not yet read (not run, queued or reading)', c.not_read, shareOf(c.not_read, c.plots)],
      ['Could not be read', c.failed, shareOf(c.failed, c.plots)],
      ['All plots', c.plots, '100%'],
    ], [220, 80, '*']),
    ...(withheldBy.size === 0 ? [] : [
      subheading('Why plots were withheld'),
      grid(['reason', 'plots', 'what it means'], [...withheldBy].map(([code, n]) => [
        { text: code, style: 'code' }, n, REASON_MEANINGS[code as ReasonCode] ?? VERDICT_MEANINGS[code as Verdict]?.meaning ?? code,
      ]), [150, 40, '*']),
    ]),
  ];
}

const findingOf = (p: ReportPlot) => (p.evidence_state !== 'done' ? 'not read yet' : p.verdict === 'prior_management_evidenced' ? `finding: ${p.reason ?? ''}` : `withheld: ${p.reason ?? p.verdict ?? ''}`);

/** How the plot table is laid out, said on page 1. */
function tableLayout(plots: number): string {
  if (plots <= FULL_TABLE_ROWS) return 'every plot in one table';
  return `the first ${FULL_TABLE_ROWS} plots in the full table; the other ${plots - FULL_TABLE_ROWS} a line each (plot, state, finding or withheld because), as are the lists of forest lost and of evidence warnings past ${FULL_TABLE_ROWS} rows; each plot's evidence document has the rest`;
}

/**
 * A per-plot list past its full table: parts of COMPACT_PART_LINES lines, the first headed by what
 * each line holds. `items` gives the whole list again; its first FULL_TABLE_ROWS are in the table.
 */
async function* compactParts<T>(items: AsyncIterable<T>, count: number, line: (item: T) => string, what: string, holds: string): AsyncGenerator<Content[]> {
  if (count <= FULL_TABLE_ROWS) return;
  let part: Content[] = [
    subheading(`The other ${counted(count - FULL_TABLE_ROWS, what)}`),
    // A heading is bound to the block after it, which must fit a page: this line, not the list.
    para(`A line each, in register order: ${holds}. Past ${FULL_TABLE_ROWS} rows a table lists the rest so; each plot's evidence document has the rest of its record.`),
  ];
  let block: string[] = [];
  let lines = 0;
  let at = 0;
  for await (const item of items) {
    if (at++ < FULL_TABLE_ROWS) continue;
    block.push(line(item));
    if (block.length === COMPACT_BLOCK_LINES) {
      part.push({ text: block.join('\n'), style: 'small' });
      block = [];
    }
    if (++lines % COMPACT_PART_LINES === 0) {
      yield part;
      part = [];
    }
  }
  if (block.length > 0) part.push({ text: block.join('\n'), style: 'small' });
  if (part.length > 0) yield part;
}

const plotLine = (p: ReportPlot) => `${p.external_ref ?? p.id} · ${p.state.label} · ${findingOf(p)}`;

/** The plot table's heading and its full rows; the rest follow as compact parts. */
function plotsSection({ firstPlots }: Tally): Content[] {
  return [
    heading('Every plot'),
    para('What the record shows on each plot (its state), the finding or what withheld it, and the next step. A plot read without a positive finding is withheld; the reason code is explained above, the next steps below.'),
    grid(['plot', 'ha', 'producer', 'state', 'finding or withheld because', 'next step'], firstPlots.map((p) => [
      p.external_ref ?? p.id,
      p.area_ha === null ? 'not read' : Number(p.area_ha.toFixed(2)),
      p.producer_name ?? 'none',
      p.state.label,
      findingOf(p),
      p.next_step === null ? 'none: a finding' : p.next_step.code,
    ]), [62, 26, 62, 80, '*', 112]),
  ];
}

function stepsSection({ steps }: Tally): Content[] {
  return steps.size === 0 ? [] : [subheading('Next steps on this batch'), facts([...steps].map(([code, note]) => [code, note]), 130)];
}

/** Plots whose Landsat record dates a loss of moist forest after the cutoff: told apart from the verdicts, which it does not change. */
function lossSection(task: ShipmentReportTask, { lost, plots, firstLost }: Tally): Content[] {
  const casesOn = new Map<string, number>();
  for (const c of task.openCases) casesOn.set(c.plot_id, (casesOn.get(c.plot_id) ?? 0) + 1);
  if (lost === 0) {
    return [heading('Forest lost after the cutoff'), para('The Landsat moist-forest record dates no loss of forest after 31 December 2020 on any plot of this batch that was read.')];
  }
  return [
    heading('Forest lost after the cutoff'),
    para(`${lost} of ${counted(plots, 'plot')} of this batch show moist forest lost after the EUDR cutoff (31 December 2020) in the Landsat record. This changes no verdict, but goods from land deforested after the cutoff may not be placed on the EU market: establish what happened on each before filing. Each plot's evidence document dates the loss.`),
    grid(['plot', 'ha', 'share lost', 'ha lost', 'open alert cases'], firstLost.map((p) => [
      p.external_ref ?? p.id,
      p.area_ha === null ? 'not read' : Number(p.area_ha.toFixed(2)),
      `${Math.round(p.post_cutoff_loss_share! * 100)}%`,
      p.area_ha === null ? 'not read' : Number((p.post_cutoff_loss_share! * p.area_ha).toFixed(2)),
      casesOn.get(p.id) ?? 0,
    ]), ['*', 50, 60, 60, 80]),
  ];
}

async function* lostPlots(channel: RenderChannel): AsyncGenerator<ReportPlot> {
  for await (const p of rowsOf<ReportPlot>(channel, 'plots')) if (isLost(p)) yield p;
}

const lostLine = (p: ReportPlot) => `${p.external_ref ?? p.id} · ${Math.round(p.post_cutoff_loss_share! * 100)}% lost`;

/** The case column holds a whole id in Courier (36 characters of 4.56 pt) on one line, so it can be copied. */
const CASE_WIDTHS = ['*', 168, 50, 50, 36, 40, 40];

function casesSection(input: ShipmentReportTask): Content[] {
  if (input.openCases.length === 0) {
    return [heading('Open alert cases'), para('No alert case is open on the plots of this batch: no monitor has found a published alert on them that is still to be worked, or every case found was closed.')];
  }
  return [
    heading('Open alert cases'),
    para(`${counted(input.openCases.length, 'case')} on the alert queue for canopy-change alerts published on the plots of this batch, not yet closed. Work each at ${input.baseUrl}/eudr/alerts/cases/{case id} and close it with a note saying what was found.`),
    grid(['plot', 'case', 'first detected', 'last detected', 'severity', 'flagged km2', 'product'], input.openCases.map((c) => [
      c.ref ?? c.plot_id,
      code(c.alert_id),
      c.first_date,
      c.last_date,
      c.severity,
      // A 10 m pixel is 0.0001 km2.
      show(c.flagged_area_km2, 4),
      c.product,
    ]), CASE_WIDTHS),
  ];
}

function sourcesSection(input: ShipmentReportTask): Content[] {
  return [
    heading('Sources'),
    { ul: [
      `Each plot's evidence document names the archive scenes, products and versions it was read from, and carries the evidence object's digest and signature: ${input.baseUrl}/portal/plots/{plot id}/evidence.pdf.`,
      'The plot register: boundaries, areas, producers and countries as uploaded and validated.',
      'The EU information system (TRACES) V3 due diligence schemas (xsd4-due-diligence-statement-v3, xsd2-eudr-common-v3), its validation rules v1.3, the EUDR GeoJSON file description v1.3 and the units-of-measure guidance for economic operators.',
    ].map((text) => ({ text, style: 'body', margin: [0, 0, 0, 2] })) },
  ];
}

function limitationsSection(): Content[] {
  return [
    heading('Limitations'),
    { ul: [
      ...LIMITATIONS,
      'The counts are those of the register when this report was made; plots read later change them.',
      'Species are the caller\'s declaration; the service does not check them.',
    ].map((text) => ({ text, style: 'body', margin: [0, 0, 0, 2] })) },
  ];
}

/** The statement's fields in the order of V3's SubmitDdsRequest, as filled, and what is missing. */
async function statementPage(input: ShipmentReportTask, tally: Tally, channel: RenderChannel): Promise<Content[]> {
  const built = await statementOutline(input.statement, pagesOf<FilingPlot>(channel, 'filing'));
  const s = built.payload.statement;
  const commodity = s.commodities[0];
  const m = commodity.descriptors.goodsMeasure;
  const missing = '(missing)';
  const countries = [...new Set(commodity.producers.map((p) => p.country ?? missing))];
  const rows: Array<[string, string]> = [
    ['operatorRole', built.payload.operatorRole],
    ['internalReferenceNumber', s.internalReferenceNumber],
    ['activityType', s.activityType],
    ['countryOfActivity', s.countryOfActivity ?? missing],
    ['commodities.descriptors.descriptionOfGoods', commodity.descriptors.descriptionOfGoods ?? missing],
    ['commodities.descriptors.goodsMeasure.netWeight', m.netWeight === undefined ? missing : `${m.netWeight} kg`],
    ['commodities.descriptors.goodsMeasure.supplementaryUnit', m.supplementaryUnit === undefined ? 'none given' : `${m.supplementaryUnit} ${m.supplementaryUnitQualifier}`],
    ['commodities.hsHeading', commodity.hsHeading ?? missing],
    ...(commodity.speciesInfo === undefined ? [] : [[
      'commodities.speciesInfo',
      commodity.speciesInfo.length === 0 ? missing : commodity.speciesInfo.map((x) => `${x.scientificName}${x.commonName ? ` (${x.commonName})` : ''}`).join('; '),
    ] as [string, string]]),
    ['commodities.producers', `${counted(commodity.producers.length, 'producer')}, ${counted(built.plots, 'plot')}`],
    [commodity.speciesInfo === undefined ? 'commodities.producers.country' : 'commodities.producers.country (country of harvest)', countries.length === 0 ? missing : countries.join(', ')],
    ['geoLocationConfidential', show(s.geoLocationConfidential)],
  ];
  return [
    { text: 'The due diligence statement', style: 'h1', pageBreak: 'before' },
    para('The fields of the statement in the order the EU information system (V3 API) asks for them, filled from this batch and the plot register. The service files nothing: you file the statement from your own account.'),
    facts(rows, 250),
    subheading('Still missing or refused'),
    built.problems.length === 0
      ? para(tally.warnings === 0 ? 'Nothing: the statement can be built from this batch.' : 'Nothing the information system would refuse: the statement can be built from this batch, but read the evidence warnings below before filing it.')
      : { ul: built.problems.map((p) => ({ text: `${p.field}: ${p.message}${p.eudr_code ? ` (${p.eudr_code})` : ''}`, style: 'body', margin: [0, 0, 0, 2] })) },
    ...warningsPart(tally, built.problems.length === 0),
  ];
}

/** The evidence warnings under the statement's check: never a plain "ready" while any stands. */
function warningsPart({ warnings, plots, firstWarnings, warned }: Tally, ready: boolean): Content[] {
  if (warnings === 0) return [];
  return [
    subheading('Evidence warnings'),
    para(`${evidenceSummary(ready, warned, plots)}.`, { bold: true }),
    grid(['plot', 'warning', 'what the evidence says'], firstWarnings.map((w) => [w.external_ref ?? w.plot_id, { text: w.code, style: 'code' }, w.message]), [70, 110, '*']),
  ];
}

const warningLine = (w: EvidenceWarning) => `${w.external_ref ?? w.plot_id} · ${w.code}`;

/** Body rows of a table laid out in one part: pdfmake's layout of a table's cells is the most a part holds. */
const TABLE_PART_ROWS = 500;

/** `content` as parts, each table longer than TABLE_PART_ROWS cut into parts of that many rows, its header repeated. */
function* cutTables(content: Content[]): Generator<Content[]> {
  let part: Content[] = [];
  for (const c of content) {
    const table = typeof c === 'object' && c !== null && 'table' in c ? (c as ContentTable) : null;
    const head = table?.table.headerRows ?? 0;
    if (table === null || table.table.body.length - head <= TABLE_PART_ROWS) {
      part.push(c);
      continue;
    }
    const rows = table.table.body.slice(head);
    for (let at = 0; at < rows.length; at += TABLE_PART_ROWS) {
      if (at > 0) {
        yield part;
        part = [];
      }
      part.push({ ...table, table: { ...table.table, body: [...table.table.body.slice(0, head), ...rows.slice(at, at + TABLE_PART_ROWS)] } });
    }
  }
  if (part.length > 0) yield part;
}

/** Content laid out as parts: its long tables cut, each part's headings kept with what follows them. */
function* partsOf(content: Content[]): Generator<Content[]> {
  for (const part of cutTables(content)) yield keepHeadingsWithNext(part);
}

/** The pages every part shares. The page count is not known until the last part is written. */
function frameOf(task: ShipmentReportTask): StreamedFrame {
  const at = new Date(task.generatedAt);
  const ref = task.shipment.reference;
  return {
    pageSize: PAGE.size,
    pageMargins: PAGE.margins,
    info: { title: `Shipment report: ${ref}`, author: 'Pre-cutoff land-use evidence service', creator: 'Pre-cutoff land-use evidence service', creationDate: at },
    header: () => ({ margin: [PAGE.margins[0], 16, PAGE.margins[2], 0], text: `Shipment report · ${ref}`, style: 'small' }),
    footer: (page) => ({ margin: [PAGE.margins[0], 14, PAGE.margins[2], 0], text: `page ${page}`, style: 'small', alignment: 'right' }),
    defaultStyle: { font: 'Roboto', fontSize: 8.5 },
    styles: STYLES,
  };
}

/**
 * The report in the parts it is laid out and written in: each list's full table in parts of
 * TABLE_PART_ROWS rows, and its compact lines in parts of their own.
 */
async function* reportParts(task: ShipmentReportTask, channel: RenderChannel): AsyncGenerator<Content[]> {
  const tally = await tallyOf(channel);
  const ref = task.shipment.reference;
  yield* partsOf([
    { text: `Shipment ${ref}`, style: 'title' },
    { text: `Evidence of land use before the EUDR cutoff for every plot of the batch, as the register held it on ${task.generatedAt}.`, style: 'subtitle' },
    facts([
      ['Shipment', task.shipment.id],
      ['Shipped on', task.shipment.shipped_on ?? 'not given'],
      ['Arrives on', task.shipment.arrives_on ?? 'not given'],
      ['Note', task.shipment.note ?? 'none'],
      ['Plot table', tableLayout(tally.plots)],
    ]),
    ...countsSection(task, tally),
    ...lossSection(task, tally),
  ]);
  for await (const part of compactParts(lostPlots(channel), tally.lost, lostLine, 'plot', 'plot · share lost')) yield keepHeadingsWithNext(part);
  yield* partsOf(plotsSection(tally));
  for await (const part of compactParts(rowsOf<ReportPlot>(channel, 'plots'), tally.plots, plotLine, 'plot', 'plot · state · finding or withheld because')) yield keepHeadingsWithNext(part);
  yield* partsOf([
    ...stepsSection(tally),
    ...casesSection(task),
    ...sourcesSection(task),
    ...limitationsSection(),
    ...await statementPage(task, tally, channel),
  ]);
  for await (const part of compactParts(rowsOf<EvidenceWarning>(channel, 'warnings'), tally.warnings, warningLine, 'warning', 'plot · warning')) yield keepHeadingsWithNext(part);
}

/** The shipment report written part by part, its lists asked for and its bytes sent through `channel`; its page count and bytes. */
export function shipmentReportPdf(task: ShipmentReportTask, channel: RenderChannel): Promise<{ pages: number; bytes: number }> {
  return streamPdf(frameOf(task), reportParts(task, channel), (bytes) => channel.send(bytes));
}
