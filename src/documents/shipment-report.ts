/**
 * The shipment report (spec 4.9): every plot of a batch with what the record shows on it, its finding
 * or what withheld one, and its next step; the batch's counts and shares; open alert cases; sources;
 * limitations; and a last page laying out the due diligence statement's fields in the order the
 * information system asks for them, filled from the batch and the register, naming what is missing.
 * Rendered on a documents thread; the statement's fields come from the same builder the statement
 * routes use, so the page and the statement cannot disagree.
 */
import type { Content, TDocumentDefinitions } from 'pdfmake/interfaces.js';
import type { CaseRecord } from '../alerts/monitors.ts';
import type { ReasonCode, Verdict } from '../engine/decide.ts';
import type { NextStep } from '../engine/next-step.ts';
import type { PlotState } from '../engine/plot-state.ts';
import type { BatchCounts } from '../store/register/shipments.ts';
import { evidenceSummary, type EvidenceWarning } from '../statements/evidence-warnings.ts';
import { buildStatement, type FilingPlot, type StatementFacts } from '../statements/payload.ts';
import { code, grid, facts, heading, keepHeadingsWithNext, para, PAGE, show, STYLES, subheading } from './layout.ts';
import { LIMITATIONS } from './evidence/limitations.ts';
import { REASON_MEANINGS, VERDICT_MEANINGS } from './meanings.ts';
import { renderPdf } from './pdf.ts';

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

export interface ShipmentReportInput {
  shipment: {
    id: string;
    reference: string;
    shipped_on: string | null;
    arrives_on: string | null;
    note: string | null;
  };
  counts: BatchCounts;
  plots: ReportPlot[];
  /** The open alert cases on the batch's plots. */
  openCases: ReportCase[];
  /** What the evidence says that the statement's formal check does not look at, plot by plot. */
  warnings: EvidenceWarning[];
  /** The statement's facts under the shipment's reference. */
  statement: StatementFacts;
  /** When the report was made (its dates). */
  generatedAt: string;
  /** The service's base URL (ending /api/v1), for the evidence documents' addresses. */
  baseUrl: string;
}

/**
 * The report as it crosses to the documents thread: the plot table's rows and the statement's plots
 * as pages of JSON text (each a JSON array), so handing over a batch of any size copies strings
 * instead of structured-cloning a hundred thousand objects on the API's thread.
 */
export interface ShipmentReportTask extends Omit<ShipmentReportInput, 'plots' | 'statement' | 'warnings'> {
  /** Pages of ReportPlot, in register order. */
  plotPages: string[];
  /** Pages of EvidenceWarning, in register order. */
  warningPages: string[];
  statement: Omit<StatementFacts, 'plots'>;
  /** Pages of the statement's FilingPlot, in batch order. */
  filingPages: string[];
}

/** The report's input read from its pages, on the documents thread. */
export function reportInputOf(task: ShipmentReportTask): ShipmentReportInput {
  const { plotPages, warningPages, filingPages, statement, ...rest } = task;
  return {
    ...rest,
    plots: plotPages.flatMap((page) => JSON.parse(page) as ReportPlot[]),
    warnings: warningPages.flatMap((page) => JSON.parse(page) as EvidenceWarning[]),
    statement: { ...statement, plots: filingPages.flatMap((page) => JSON.parse(page) as FilingPlot[]) },
  };
}

/**
 * Rows a per-plot table lays out in full. pdfmake holds every table cell until the document is
 * written, so past this the rows are listed in a compact form, a text line each, which keeps a
 * 100,000-plot batch within a bounded heap.
 */
export const FULL_TABLE_ROWS = 2000;
/** Compact lines set as one text block: pdfmake lays out a block's lines far more cheaply than cells. */
const COMPACT_BLOCK_LINES = 500;

const counted = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
const shareOf = (n: number, of: number) => (of === 0 ? '0%' : `${((n / of) * 100).toFixed(1)}%`);

function countsSection(input: ShipmentReportInput): Content[] {
  const c = input.counts;
  const withheldBy = new Map<string, number>();
  for (const p of input.plots) {
    if (p.evidence_state === 'done' && p.verdict !== 'prior_management_evidenced') {
      const why = p.reason ?? p.verdict ?? 'unknown';
      withheldBy.set(why, (withheldBy.get(why) ?? 0) + 1);
    }
  }
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
 * A per-plot table: the first FULL_TABLE_ROWS rows in `grid`, the rest a line each under a heading
 * saying what each line holds.
 */
function boundedTable<T>(items: readonly T[], table: (shown: readonly T[]) => Content, line: (item: T) => string, what: string, holds: string): Content[] {
  const compact: Content[] = [];
  for (let at = FULL_TABLE_ROWS; at < items.length; at += COMPACT_BLOCK_LINES) {
    compact.push({ text: items.slice(at, at + COMPACT_BLOCK_LINES).map(line).join('\n'), style: 'small' });
  }
  return [
    table(items.slice(0, FULL_TABLE_ROWS)),
    ...(compact.length === 0 ? [] : [
      subheading(`The other ${counted(items.length - FULL_TABLE_ROWS, what)}`),
      // A heading is bound to the block after it, which must fit a page: this line, not the list.
      para(`A line each, in register order: ${holds}. Past ${FULL_TABLE_ROWS} rows a table lists the rest so; each plot's evidence document has the rest of its record.`),
      ...compact,
    ]),
  ];
}

function plotsSection(input: ShipmentReportInput): Content[] {
  const steps = new Map<string, string>();
  for (const p of input.plots) if (p.next_step !== null) steps.set(p.next_step.code, p.next_step.note);
  return [
    heading('Every plot'),
    para('What the record shows on each plot (its state), the finding or what withheld it, and the next step. A plot read without a positive finding is withheld; the reason code is explained above, the next steps below.'),
    ...boundedTable(input.plots, (shown) => grid(['plot', 'ha', 'producer', 'state', 'finding or withheld because', 'next step'], shown.map((p) => [
      p.external_ref ?? p.id,
      p.area_ha === null ? 'not read' : Number(p.area_ha.toFixed(2)),
      p.producer_name ?? 'none',
      p.state.label,
      findingOf(p),
      p.next_step === null ? 'none: a finding' : p.next_step.code,
    ]), [62, 26, 62, 80, '*', 112]), (p) => `${p.external_ref ?? p.id} · ${p.state.label} · ${findingOf(p)}`, 'plot', 'plot · state · finding or withheld because'),
    ...(steps.size === 0 ? [] : [subheading('Next steps on this batch'), facts([...steps].map(([code, note]) => [code, note]), 130)]),
  ];
}

/** Plots whose Landsat record dates a loss of moist forest after the cutoff: told apart from the verdicts, which it does not change. */
function lossSection(input: ShipmentReportInput): Content[] {
  const lost = input.plots.filter((p) => p.post_cutoff_loss_share !== null);
  const casesOn = new Map<string, number>();
  for (const c of input.openCases) casesOn.set(c.plot_id, (casesOn.get(c.plot_id) ?? 0) + 1);
  if (lost.length === 0) {
    return [heading('Forest lost after the cutoff'), para('The Landsat moist-forest record dates no loss of forest after 31 December 2020 on any plot of this batch that was read.')];
  }
  return [
    heading('Forest lost after the cutoff'),
    para(`${lost.length} of ${counted(input.plots.length, 'plot')} of this batch show moist forest lost after the EUDR cutoff (31 December 2020) in the Landsat record. This changes no verdict, but goods from land deforested after the cutoff may not be placed on the EU market: establish what happened on each before filing. Each plot's evidence document dates the loss.`),
    ...boundedTable(lost, (shown) => grid(['plot', 'ha', 'share lost', 'ha lost', 'open alert cases'], shown.map((p) => [
      p.external_ref ?? p.id,
      p.area_ha === null ? 'not read' : Number(p.area_ha.toFixed(2)),
      `${Math.round(p.post_cutoff_loss_share! * 100)}%`,
      p.area_ha === null ? 'not read' : Number((p.post_cutoff_loss_share! * p.area_ha).toFixed(2)),
      casesOn.get(p.id) ?? 0,
    ]), ['*', 50, 60, 60, 80]), (p) => `${p.external_ref ?? p.id} · ${Math.round(p.post_cutoff_loss_share! * 100)}% lost`, 'plot', 'plot · share lost'),
  ];
}

/** The case column holds a whole id in Courier (36 characters of 4.56 pt) on one line, so it can be copied. */
const CASE_WIDTHS = ['*', 168, 50, 50, 36, 40, 40];

function casesSection(input: ShipmentReportInput): Content[] {
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

function sourcesSection(input: ShipmentReportInput): Content[] {
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
function statementPage(input: ShipmentReportInput): Content[] {
  const built = buildStatement(input.statement);
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
    ['commodities.producers', `${counted(commodity.producers.length, 'producer')}, ${counted(input.statement.plots.length, 'plot')}`],
    [commodity.speciesInfo === undefined ? 'commodities.producers.country' : 'commodities.producers.country (country of harvest)', countries.length === 0 ? missing : countries.join(', ')],
    ['geoLocationConfidential', show(s.geoLocationConfidential)],
  ];
  return [
    { text: 'The due diligence statement', style: 'h1', pageBreak: 'before' },
    para('The fields of the statement in the order the EU information system (V3 API) asks for them, filled from this batch and the plot register. The service files nothing: you file the statement from your own account.'),
    facts(rows, 250),
    subheading('Still missing or refused'),
    built.problems.length === 0
      ? para(input.warnings.length === 0 ? 'Nothing: the statement can be built from this batch.' : 'Nothing the information system would refuse: the statement can be built from this batch, but read the evidence warnings below before filing it.')
      : { ul: built.problems.map((p) => ({ text: `${p.field}: ${p.message}${p.eudr_code ? ` (${p.eudr_code})` : ''}`, style: 'body', margin: [0, 0, 0, 2] })) },
    ...warningsPart(input, built.problems.length === 0),
  ];
}

/** The evidence warnings under the statement's check: never a plain "ready" while any stands. */
function warningsPart(input: ShipmentReportInput, ready: boolean): Content[] {
  if (input.warnings.length === 0) return [];
  return [
    subheading('Evidence warnings'),
    para(`${evidenceSummary(ready, input.warnings, input.plots.length)}.`, { bold: true }),
    ...boundedTable(input.warnings, (shown) => grid(['plot', 'warning', 'what the evidence says'], shown.map((w) => [w.external_ref ?? w.plot_id, { text: w.code, style: 'code' }, w.message]), [70, 110, '*']),
      (w) => `${w.external_ref ?? w.plot_id} · ${w.code}`, 'warning', 'plot · warning'),
  ];
}

export function shipmentReportDocument(input: ShipmentReportInput): TDocumentDefinitions {
  const at = new Date(input.generatedAt);
  const ref = input.shipment.reference;
  return {
    pageSize: PAGE.size,
    pageMargins: PAGE.margins,
    info: { title: `Shipment report: ${ref}`, author: 'Pre-cutoff land-use evidence service', creator: 'Pre-cutoff land-use evidence service', creationDate: at, modDate: at },
    header: () => ({ margin: [PAGE.margins[0], 16, PAGE.margins[2], 0], text: `Shipment report · ${ref}`, style: 'small' }),
    footer: (page: number, pages: number) => ({ margin: [PAGE.margins[0], 14, PAGE.margins[2], 0], text: `page ${page} of ${pages}`, style: 'small', alignment: 'right' }),
    defaultStyle: { font: 'Roboto', fontSize: 8.5 },
    styles: STYLES,
    content: keepHeadingsWithNext([
      { text: `Shipment ${ref}`, style: 'title' },
      { text: `Evidence of land use before the EUDR cutoff for every plot of the batch, as the register held it on ${input.generatedAt}.`, style: 'subtitle' },
      facts([
        ['Shipment', input.shipment.id],
        ['Shipped on', input.shipment.shipped_on ?? 'not given'],
        ['Arrives on', input.shipment.arrives_on ?? 'not given'],
        ['Note', input.shipment.note ?? 'none'],
        ['Plot table', tableLayout(input.plots.length)],
      ]),
      ...countsSection(input),
      ...lossSection(input),
      ...plotsSection(input),
      ...casesSection(input),
      ...sourcesSection(input),
      ...limitationsSection(),
      ...statementPage(input),
    ]),
  };
}

export function shipmentReportPdf(input: ShipmentReportInput): Promise<Buffer> {
  return renderPdf(shipmentReportDocument(input));
}
