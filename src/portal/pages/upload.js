import { upload } from '../api.js';
import { plotMap } from '../map.js';
import { announce, clear, coded, errorNotice, facts, h, labelled, notice, number, table, words } from '../ui.js';

/** What each filter of the report keeps. */
const FILTERS = {
  all: { label: 'Every plot', keep: () => true },
  findings: { label: 'With findings', keep: (p) => p.findings.length > 0 },
  repaired: { label: 'Repaired', keep: (p) => p.validation_state === 'repaired' },
  rejected: { label: 'Rejected', keep: (p) => p.validation_state === 'rejected' },
};

const list = (items) => (items.length === 0 ? '—' : h('ul', {}, items.map((f) => h('li', {}, coded(f.message, f.code)))));

/** Upload a book of plots (spec 4.1): progress while it goes up and is judged, then its report and map. */
export async function uploadPage(main) {
  const file = h('input', { type: 'file', name: 'file', required: true, accept: '.geojson,.json,.zip,.kml,.kmz,.csv' });
  const country = h('input', { name: 'country', placeholder: 'e.g. TH, THA or Thailand' });
  const check = h('input', { type: 'checkbox', name: 'validate-only' });
  const bar = h('progress', { max: 100, value: 0, id: 'upload-progress' });
  const barLabel = h('p', { id: 'upload-progress-label' }, '');
  const progress = h('div', { hidden: true }, h('label', { for: 'upload-progress' }, 'Upload'), bar, barLabel);
  const status = h('div');
  const report = h('div');

  const form = h(
    'form',
    {
      class: 'stack',
      onsubmit: async (e) => {
        e.preventDefault();
        if (!file.files[0]) return;
        clear(status);
        clear(report);
        progress.hidden = false;
        bar.value = 0;
        barLabel.textContent = 'Sending the file…';
        const submit = form.querySelector('button');
        submit.disabled = true;
        try {
          const route = check.checked ? '/portal/plots/validate' : '/portal/plots/import';
          const answer = await upload(route, file.files[0], {
            query: { country: country.value.trim() },
            onSent: (share) => {
              // Once sent, the bar has no measure of the service's judging: it shows work under way.
              if (share < 1) bar.value = Math.round(share * 100);
              else bar.removeAttribute('value');
              barLabel.textContent = share < 1 ? `Sending the file: ${Math.round(share * 100)}%` : 'Sent; the service is checking every plot…';
            },
          });
          bar.value = 100;
          barLabel.textContent = check.checked ? 'Checked; nothing was stored.' : 'Imported.';
          announce(barLabel.textContent);
          showReport(report, answer, await fileShapes(file.files[0]));
        } catch (err) {
          barLabel.textContent = 'The upload did not go through.';
          clear(status, errorNotice(err, 'Upload refused'));
        } finally {
          submit.disabled = false;
        }
      },
    },
    labelled('Book of plots (GeoJSON, zipped shapefile, KML or KMZ, or CSV of points with lon and lat)', file),
    labelled('Country (optional; a feature’s own country wins)', country),
    h('label', { class: 'row' }, check, 'Only check the file; store nothing'),
    h('div', {}, h('button', { type: 'submit', id: 'upload-submit' }, 'Upload')),
  );
  clear(main, h('h1', {}, 'Upload a book of plots'), form, progress, status, report);
}

/**
 * The boundaries of the file as the browser reads it, by the report's plot index: the report names
 * each plot's state but does not repeat its boundary. GeoJSON features by position, CSV rows of
 * lon and lat by data row; null for a zipped shapefile or KML, which are not read here.
 */
async function fileShapes(file) {
  const text = /\.(geo)?json$/i.test(file.name) || /\.csv$/i.test(file.name) ? await file.text() : null;
  if (text === null) return null;
  try {
    if (/\.csv$/i.test(file.name)) {
      const [header, ...lines] = text.split(/\r?\n/).filter((l) => l.trim() !== '');
      const names = header.split(/[,;]/).map((n) => n.trim().replace(/^"|"$/g, '').toLowerCase());
      const [lon, lat] = [names.indexOf('lon'), names.indexOf('lat')];
      return new Map(lines.map((l, i) => {
        const cells = l.split(/[,;]/);
        return [i, { type: 'Point', coordinates: [Number(cells[lon]), Number(cells[lat])] }];
      }).filter(([, g]) => g.coordinates.every(Number.isFinite)));
    }
    return new Map(JSON.parse(text).features.map((f, i) => [i, f?.geometry ?? null]));
  } catch {
    return null;
  }
}

/** Plots naming a producer the workspace does not have: where to add it, so the next upload attaches it. */
function unmatchedProducers(plots) {
  const unmatched = plots.filter((p) => p.findings.some((f) => f.code === 'producer_not_found')).length;
  if (unmatched === 0) return null;
  return h('div', { class: 'notice warn', role: 'status', id: 'producers-unmatched' }, `${unmatched} plot${unmatched === 1 ? ' names a producer' : 's name producers'} this workspace does not have (producer_not_found). Add ${unmatched === 1 ? 'it' : 'them'} on the `, h('a', { href: '#/producers' }, 'Producers page'), ', then upload the book again, or attach a producer to the plots from the register’s selection.');
}

function showReport(container, answer, shapes) {
  const plots = answer.plots ?? [];
  const counts = { valid: 0, repaired: 0, rejected: 0 };
  for (const p of plots) counts[p.validation_state] = (counts[p.validation_state] ?? 0) + 1;
  const rows = h('div');
  const filter = h(
    'select',
    { id: 'report-filter', onchange: () => drawRows() },
    Object.entries(FILTERS).map(([k, f]) => h('option', { value: k }, f.label)),
  );
  const drawRows = () => {
    const kept = plots.filter(FILTERS[filter.value].keep);
    clear(
      rows,
      h('p', { class: 'muted' }, `${kept.length} of ${plots.length} plots shown.`),
      table('Validation report per plot', [
        { label: 'Row', cell: (p) => String(p.index + 1), num: true },
        { label: 'Reference', cell: (p) => p.ref ?? '—' },
        { label: 'State', cell: (p) => h('span', { class: p.validation_state === 'rejected' ? 'rejected' : null }, p.validation_state) },
        { label: 'Area (ha)', cell: (p) => number(p.area_ha, 2), num: true },
        { label: 'Country', cell: (p) => p.country ?? '—' },
        { label: 'Findings', cell: (p) => list(p.findings) },
        { label: 'Repairs', cell: (p) => list(p.repairs) },
        { label: 'Rejections', cell: (p) => list(p.rejections) },
        { label: 'Evidence', cell: (p) => (p.evidence ? words(p.evidence) : '') },
      ], kept, { empty: 'No plot matches this filter.' }),
    );
  };
  const mapBox = h('div', { class: 'map', id: 'report-map' });
  const mapStatus = h('div');
  const imported = answer.imported;
  clear(
    container,
    h('h2', {}, 'Validation report'),
    facts([
      ['Plots', number(plots.length, 0)],
      ['Valid', number(counts.valid, 0)],
      ['Repaired', number(counts.repaired, 0)],
      ['Rejected', number(counts.rejected, 0)],
      ['Country of the upload', answer.country ?? 'none named'],
      ...(imported ? Object.entries(imported).map(([k, v]) => [words(k), number(v, 0)]) : []),
    ]),
    (answer.notes ?? []).map((n) => notice(n)),
    unmatchedProducers(plots),
    answer.row_errors?.length ? h('section', {}, h('h3', {}, 'Rows that could not be read'), list(answer.row_errors.map((r) => ({ code: r.line ? `line ${r.line}` : `row ${r.index + 1}`, message: `${words(r.code)}: ${r.message}` })))) : null,
    imported ? h('p', {}, h('a', { href: '#/register' }, 'Open the register to run evidence on these plots')) : null,
    h('h3', {}, 'Map of the plots'),
    shapes ? h('p', { class: 'muted' }, 'As the file draws them; rejected plots in red with a dashed line.') : notice('The map is drawn for GeoJSON and CSV files; open a plot from the register to see its boundary.'),
    shapes ? [mapBox, mapStatus] : null,
    h('h3', {}, 'Per plot'),
    labelled('Show', filter),
    rows,
  );
  drawRows();
  if (!shapes) return;
  const m = plotMap(mapBox, 'Map of the uploaded plots', mapStatus);
  m.showTiles('true_colour', { season: '2020' });
  m.addPlots(
    plots.filter((p) => shapes.get(p.index)).map((p) => ({ type: 'Feature', geometry: shapes.get(p.index), properties: { rejected: p.validation_state === 'rejected', label: `${p.ref ?? `row ${p.index + 1}`}: ${p.validation_state}` } })),
    { dots: true },
  );
}
