/**
 * Every context block of the evidence in plain words, each with its source, licence and
 * attribution as the block stores them (spec 2.8). Blocks are read field by field: a field the
 * block does not carry reads "not read", never zero.
 */
import type { Content } from 'pdfmake/interfaces.js';
import type { EvidenceObject } from '../../engine/evidence-object.ts';
import { coverageRow, facts, fields, grid, heading, NOT_READ, para, share, show, subheading } from '../layout.ts';

type Row = [string, unknown];
const known = (rows: Row[]): Array<[string, string]> =>
  rows.filter(([, v]) => v !== undefined && v !== null && v !== '').map(([k, v]) => [k, show(v)]);

/** Source, licence and attribution lines of a block, whichever of them it carries. */
function provenance(block: Record<string, unknown>): Content {
  const rows = known([
    ['Source', block.source],
    ['Dataset', block.dataset],
    ['Version', block.version],
    ['Licence', block.licence],
    ['Attribution', block.attribution],
    ['Acknowledgement', block.acknowledgement],
    ['Citation', block.citation],
  ]);
  return facts(rows);
}

const sentences = (value: unknown): string => (Array.isArray(value) ? value.join(' ') : show(value));

/** A stored note as a sentence of its own: capitalised, ending in one full stop. */
function sentence(value: unknown): string {
  const text = show(value).trim().replace(/[.\s]+$/, '');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

/** "Not read." (or "Not measured.", "Not covered.") and the block's note, without saying it twice when the note says it. */
function absent(lead: 'Not read' | 'Not measured' | 'Not covered', note: unknown): string {
  const said = sentence(note);
  return /^not (read|measured)\b/i.test(said) ? said : `${lead}. ${said}`;
}

function historyBlock(e: EvidenceObject): Content[] {
  const h = fields(e.history);
  const out: Content[] = [subheading('Landsat moist-forest record, 1990 to 2025', 'history')];
  if (h.checked === false || h.available === false) {
    // Unavailable: a tile could not be read; unchecked yet available: the plot lies outside the tiles.
    const lead = h.available === false ? 'Not read' : 'Not covered';
    const said = absent(lead, h.note_on_read ?? h.note);
    out.push(para(said.includes('not a plot without history') ? said : `${said} This is not a plot without history.`));
    out.push(provenance(h));
    return out;
  }
  out.push(para(sentences(h.reading)));
  if (h.note_on_read) out.push(para(String(h.note_on_read), { style: 'small' }));
  const classes = ['undisturbed_forest', 'degraded_forest', 'deforested_land', 'regrowth', 'water', 'other_land_cover'];
  const c1990 = fields(h.classes_1990), c2020 = fields(h.classes_2020);
  out.push(grid(['class (share of 30 m pixels)', 'end of 1990', 'end of 2020'], classes.map((k) => [k.replaceAll('_', ' '), share(c1990[k]), share(c2020[k])]), ['*', 80, 80]));
  const years = (label: string, block: unknown): [string, string] => {
    const y = fields(block);
    const before = fields(y.before_2021), from = fields(y.from_2021);
    const span = (part: Record<string, unknown>) => (typeof part.year_min === 'number' ? ` (${part.year_min} to ${show(part.year_max)})` : '');
    const text = y.share_ever === undefined
      ? NOT_READ
      : `${share(y.share_ever)} of the plot ever; ${share(y.share_before_2021)} before 2021${span(before)}, ` +
        `${share(y.share_2021_or_later)} in 2021 or later${span(from)}`;
    return [label, text];
  };
  const last = fields(h.last_moist_forest_year);
  out.push(facts([
    ['Moist forest at the end of 2020', share(h.moist_forest_2020_share)],
    ['Never moist forest', share(h.never_moist_forest_share)],
    years('Deforestation', h.deforestation_year),
    years('Degradation', h.degradation_year),
    ['Last year of moist forest', `median ${show(last.median)}, latest ${show(last.max)}; still moist forest at the cutoff: ${share(last.share_at_cutoff)}`],
    ['Plantation in 2025', share(h.plantation_2025_share)],
    ['Tile / pixels', `${show(h.tile)} / ${show(h.pixels)}`],
    ...coverageRow(typeof h.coverage === 'number' || h.coverage === null ? h.coverage : undefined),
    ['Definition', show(h.definition)],
  ]));
  out.push(provenance(h));
  return out;
}

function postCutoffLossBlock(e: EvidenceObject): Content[] {
  const l = e.post_cutoff_loss;
  const h = fields(e.history);
  const out: Content[] = [subheading('Loss of moist forest after the cutoff', 'post_cutoff_loss')];
  if (l === null && (h.checked === false || h.available === false)) {
    out.push(para('Not read: the Landsat record was not read, so no loss after the cutoff can be dated from it.'));
    return out;
  }
  if (l === null) {
    out.push(para('The Landsat record dates no loss of moist forest to 2021 or later on 5% or more of the plot (and at least three 30 m pixels). This changes no verdict.'));
    return out;
  }
  const b = fields(l);
  out.push(para(`The Landsat record dates the loss of moist forest on ${share(b.share)} of the plot (${show(b.area_ha)} ha) to ${show(b.years)}. This changes no verdict, but the loss falls after the cutoff.`));
  out.push(facts(known([['Source', b.source]])));
  return out;
}

function forestTypesBlock(e: EvidenceObject): Content[] {
  const f = fields(e.forest_types);
  const out: Content[] = [subheading('The Commission\'s 2020 forest-type map', 'forest_types')];
  if (f.available === false) {
    out.push(para(`${absent('Not read', f.note)} Nothing was withheld on its account.`));
  } else {
    out.push(grid(['primary', 'naturally regenerating', 'planted', 'not forest'], [[share(f.primary), share(f.naturally_regenerating), share(f.planted), share(f.not_forest)]]));
  }
  out.push(provenance(f));
  return out;
}

function commodityMapsBlock(e: EvidenceObject): Content[] {
  const c = fields(e.commodity_maps);
  const palm = fields(c.oil_palm), rubber = fields(c.rubber);
  const unread = (map: Record<string, unknown>): Array<[string, string]> | null => (map.available === false ? [['', absent('Not read', map.note)]] : null);
  const rubberText = rubber.outside_coverage === true ? 'outside the map\'s coverage (Southeast Asia only)' : `${share(rubber.rubber_2020)} of the plot mapped as rubber`;
  const palmRows: Array<[string, string]> = unread(palm)?.map(([, t]) => ['Oil palm', t]) ?? [
    ['Oil palm planted by 2020', show(palm.planted_by_2020)],
    ['Oil palm median planting year', palm.planted_by_2020 === false && palm.median_planting_year === null ? 'none: no oil palm mapped by 2020' : show(palm.median_planting_year)],
    ['Oil palm 2021, industrial / smallholder', `${share(palm.industrial_2021)} / ${share(palm.smallholder_2021)}`],
    ['Oil palm citation', show(palm.citation)],
  ];
  const rubberRows: Array<[string, string]> = unread(rubber)?.map(([, t]) => ['Rubber', t]) ?? [
    ['Rubber', rubberText],
    ['Rubber citation', show(rubber.citation)],
  ];
  return [subheading('Commodity maps (context; they change no verdict)', 'commodity_maps'), facts([...palmRows, ...rubberRows])];
}

function concessionBlock(e: EvidenceObject): Content[] {
  if (e.concession === undefined || e.concession === null) return [];
  const c = fields(e.concession);
  const words = c.checked === false || c.inside === null
    ? 'The concession layer could not be read: whether the plot lies inside a licensed pulpwood concession is not known. Running the plot again settles it.'
    : c.inside === true
      ? `The plot intersects a licensed pulpwood concession (${share(c.share)} of the plot; licence class ${show(c.licence_type)}).`
      : 'The plot lies outside every concession on the layer. The layer is described as incomplete.';
  return [
    subheading('Indonesian pulpwood concessions, as of the day of issue', 'concession'),
    para(words),
    facts(known([['Caution', c.caution], ['Note', c.note]])),
    provenance(c),
  ];
}

function riskBlock(e: EvidenceObject): Content[] {
  const risk = fields(e.risk);
  const pa = fields(risk.protected_area), country = fields(risk.country), hood = fields(risk.neighbourhood);
  const out: Content[] = [subheading('Risk context (Article 10; never a verdict)', 'risk'), para(`${show(risk.note)} (${show(risk.article)})`)];

  let paWords: string;
  if (pa.available === false) paWords = absent('Not measured', pa.note ?? pa.coverage_note);
  else if (pa.intersects === true) paWords = 'A protected area on the map crosses the plot. An intersection is not a finding of illegality.';
  else {
    const d = typeof pa.distance_km === 'number' ? pa.distance_km : null;
    paWords = d === null || d > Number(pa.search_radius_km ?? 25)
      ? `No protected area on the map lies within ${show(pa.search_radius_km)} km of the plot; the search stops there.`
      : `No protected area on the map crosses the plot; the nearest is ${d.toFixed(2)} km away.`;
  }
  out.push({ text: 'Protected areas', bold: true, style: 'body', margin: [0, 2, 0, 2] }, para(paWords));
  const areas = Array.isArray(pa.areas) ? pa.areas.map(fields) : [];
  if (areas.length > 0) {
    out.push(grid(['name', 'designation', 'IUCN', 'map object'], areas.map((a) => [show(a.name), show(a.designation), a.iucn_category ? show(a.iucn_category) : 'not given', `${show(a.map_type)} ${show(a.map_id)}`]), ['*', 100, 34, 80]));
  }
  const excluded = Array.isArray(pa.excluded_sources)
    ? pa.excluded_sources.map((x) => (typeof x === 'string' ? x : `${show(fields(x).source)} (${show(fields(x).why)})`)).join('; ')
    : pa.excluded_sources;
  out.push(facts(known([
    ['Coverage', pa.coverage_note],
    ['Databases not read', excluded],
    ['Snapshot of the source', pa.snapshot],
    ['Source', pa.source],
    ['Dataset', pa.dataset],
    ['Licence', pa.licence],
    ['Attribution', pa.attribution],
  ])));

  const classification = country.classification === null || country.classification === undefined
    ? (typeof country.consequence === 'string' ? country.consequence : 'No country of production was given, so no classification applies.')
    : `${show(country.country_name)} is classed ${show(country.classification)} risk ${country.enumerated === true ? 'by name in the annex' : 'under the residual rule (not named in the annex)'}. ${show(country.consequence)}`;
  out.push({ text: 'Country classification', bold: true, style: 'body', margin: [0, 2, 0, 2] }, para(classification));
  out.push(facts(known([
    ['Instrument', country.instrument],
    ['ELI / CELEX', `${show(country.eli)} / ${show(country.celex)}`],
    ['Version / checked on', `${show(country.version_date)} / ${show(country.checked_on)}`],
    ['Amended by', country.amended_by ?? 'not amended'],
    ['Source', country.source],
  ])));

  const hoodWords = hood.available === false
    ? absent('Not measured', hood.note ?? hood.source)
    : `${show(hood.loss_ha)} ha of tree cover lost since ${show(hood.since_year)} in a ${show(hood.ring_km)} km ring around the plot (${show(hood.ring_area_ha)} ha, plot cut out), ` +
      `counting pixels with at least ${show(hood.canopy_density_threshold_pct)}% canopy in 2000: ${show(hood.prevalence_pct)}% of the ring.`;
  out.push({ text: 'Loss in the neighbourhood', bold: true, style: 'body', margin: [0, 2, 0, 2] }, para(hoodWords));
  out.push(facts(known([['Accuracy', hood.accuracy], ['Source', hood.source], ['Dataset', hood.dataset], ['Version', hood.version], ['Licence', hood.licence], ['Citation', hood.citation]])));
  return out;
}

function settlementBlock(e: EvidenceObject): Content[] {
  const s = fields(e.settlement);
  const out: Content[] = [subheading('Buildings (supporting evidence; never a verdict)', 'settlement')];
  if (s.available === false) {
    out.push(para(absent('Not measured', s.note)));
    out.push(provenance(s));
    return out;
  }
  out.push(para(show(s.reading)));
  const years = fields(s.years);
  const side = (v: unknown) => {
    const x = fields(v);
    if (x.read !== true) return 'not read';
    return x.present === true ? `present: ${show(x.building_m2)} m², about ${show(x.buildings_estimate)} buildings` : 'none above 32 m²';
  };
  out.push(grid(
    ['year', 'inside the plot', `in the ${show(s.buffer_m)} m ring`, 'note'],
    Object.keys(years).sort().map((y) => {
      const yr = fields(years[y]);
      if (yr.available === false) return [y, 'not read', 'not read', show(yr.note)];
      if (yr.coverage === false) return [y, 'no tile over the ground', 'no tile over the ground', show(yr.note ?? '')];
      return [y, side(yr.inside), side(yr.buffer), yr.note === undefined ? '' : show(yr.note)];
    }),
    [34, '*', '*', 110],
  ));
  out.push(para(`${show(s.note)} Presence counts from a share of ${show(s.presence_threshold)} and ${show(s.min_building_m2)} m² of building, read at ${show(s.pitch_m)} m; inside and ring are never added.`, { style: 'small' }));
  out.push(provenance(s));
  return out;
}

function whispBlock(e: EvidenceObject): Content[] {
  const w = fields(e.whisp);
  const out: Content[] = [subheading('Perennial-crop rating (Whisp)', 'whisp')];
  if (w.available !== true) {
    out.push(para('Not switched on in this deployment.'));
    return out;
  }
  out.push(facts(known(Object.entries(w).filter(([k]) => k !== 'available'))));
  return out;
}

export function contextSection(e: EvidenceObject): Content[] {
  return [
    heading('Context'),
    para('The blocks below are read from the archives named with each. Only the Landsat record, the 2020 forest maps and the concession layer can withhold a positive finding; the rest never changes a verdict.'),
    ...historyBlock(e),
    ...postCutoffLossBlock(e),
    ...forestTypesBlock(e),
    ...commodityMapsBlock(e),
    ...concessionBlock(e),
    ...riskBlock(e),
    ...settlementBlock(e),
    ...whispBlock(e),
  ];
}
