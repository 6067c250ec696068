// Shipments and their statements (spec 4.9): a batch made from the register's selection with its
// commercial facts, each batch's counts, and its statement checked now with the evidence's warnings.
import { api, apiUrl } from '../api.js';
import { selection, selectionText } from '../selection.js';
import { showServed } from '../served.js';
import { actionForm, announce, clear, coded, errorNotice, facts, h, labelled, notice, number, table } from '../ui.js';

/**
 * The commercial facts a statement is built from, as the create and change routes take them; a fact
 * left empty is not defaulted, and the statement names it as waiting on you.
 */
const FACTS = [
  { name: 'commodity', label: 'Commodity' },
  { name: 'description_of_goods', label: 'Description of the goods' },
  { name: 'hs_code', label: 'HS code (2 to 8 digits)', inputmode: 'numeric' },
  { name: 'quantity', label: 'Quantity', type: 'number', min: 0, step: 'any' },
  { name: 'unit', label: 'Unit', options: ['kg', 't', 'm3'] },
  { name: 'net_mass_kg', label: 'Net mass (kg)', type: 'number', min: 0, step: 'any' },
  { name: 'destination_country', label: 'EU member state of the market' },
  { name: 'border_cross_country', label: 'EU member state of entry or exit' },
  { name: 'activity_type', label: 'Activity', options: ['IMPORT', 'EXPORT', 'DOMESTIC', 'TRADE'], required: true },
  { name: 'shipped_on', label: 'Shipped on', type: 'date' },
  { name: 'arrives_on', label: 'Arrives on', type: 'date' },
];

/** Inputs for the facts (and the reference, species, producers and note), filled from `shipment` when changing one. */
function factsForm(shipment, producers, { submit, onSubmit }) {
  const status = h('div');
  const reference = h('input', { name: 'reference', required: true, maxlength: 50, value: shipment?.reference ?? '' });
  const inputs = FACTS.map((f) => {
    const value = shipment?.[f.name] ?? (f.name === 'activity_type' ? 'IMPORT' : '');
    const input = f.options
      ? h('select', { name: f.name }, f.required ? null : h('option', { value: '' }, 'Not given'), f.options.map((o) => h('option', { value: o, selected: o === value }, o)))
      : h('input', { name: f.name, type: f.type ?? 'text', min: f.min, step: f.step, inputmode: f.inputmode, value: value === null ? '' : String(value) });
    return { f, input };
  });
  const species = h('textarea', { name: 'species', rows: 2 }, (shipment?.species ?? []).map((s) => s.scientific_name).join('\n'));
  const note = h('input', { name: 'note', value: shipment?.note ?? '' });
  const named = new Set(shipment?.producer_ids ?? []);
  const producerBoxes = producers.map((p) => ({ p, box: h('input', { type: 'checkbox', name: 'producer_ids', value: p.id, checked: named.has(p.id) }) }));
  return actionForm({ class: 'facts-form' }, status, shipment ? 'The facts were not changed' : 'The shipment was not made', async () => {
    // Creating, an empty fact is left out; changing, it is cleared (null).
    const empty = shipment ? null : undefined;
    const body = { reference: reference.value.trim() };
    for (const { f, input } of inputs) {
      const text = input.value.trim();
      body[f.name] = text === '' ? empty : f.type === 'number' ? Number(text) : text;
    }
    const names = species.value.split('\n').map((l) => l.trim()).filter(Boolean);
    body.species = names.length ? names : empty;
    body.note = note.value.trim() || empty;
    body.producer_ids = producerBoxes.filter(({ box }) => box.checked).map(({ p }) => p.id);
    await onSubmit(body);
  },
    h('div', { class: 'grid' }, labelled('Reference (unique in the workspace)', reference), inputs.map(({ f, input }) => labelled(f.label, input))),
    labelled('Species, for wood (one scientific name a line)', species),
    producers.length
      ? h('fieldset', {}, h('legend', {}, 'Producers named on the batch, beside those of its plots'), h('div', { class: 'row' }, producerBoxes.map(({ p, box }) => h('label', { class: 'row' }, box, p.name))))
      : h('p', { class: 'muted' }, 'No producers yet: ', h('a', { href: '#/producers' }, 'add them'), ' to name them on the batch.'),
    labelled('Note', note),
    h('div', {}, h('button', { type: 'submit' }, submit)),
    status,
  );
}

export async function shipmentsPage(main, { params }) {
  const list = h('div');
  const detail = h('div');
  const making = h('section', { 'aria-labelledby': 'new-shipment' });
  const producers = await api('GET', '/portal/plots/producers').then((a) => a.producers).catch(() => []);
  const drawList = () =>
    showServed(list, 'Shipments', '/portal/statements/shipments', (answer) =>
      table('Shipments', [
        { label: 'Reference', cell: (s) => h('button', { type: 'button', class: 'secondary', onclick: () => showStatement(detail, s, producers, drawList) }, s.reference) },
        { label: 'Commodity', cell: (s) => s.commodity ?? '—' },
        { label: 'Plots', cell: (s) => number(s.counts?.plots, 0), num: true },
        { label: 'With a finding', cell: (s) => number(s.counts?.with_finding, 0), num: true },
        { label: 'Withheld', cell: (s) => number(s.counts?.withheld, 0), num: true },
        { label: 'Not read', cell: (s) => number(s.counts?.not_read, 0), num: true },
        { label: 'Register', cell: (s) => h('a', { href: `#/register/shipment/${encodeURIComponent(s.id)}` }, `Plots of ${s.reference}`) },
      ], answer.shipments ?? [], { empty: 'No shipments yet.' }),
    );

  if (params.new) {
    clear(
      making,
      h('h2', { id: 'new-shipment' }, 'New shipment'),
      selection.size
        ? h('p', { id: 'new-shipment-plots' }, `Its plots: the register’s selection, ${selectionText()}.`)
        : notice('No plots are selected in the register: the batch is made empty, and plots are added to it from the register’s selection later.', 'warn'),
      factsForm(null, producers, {
        submit: 'Make the shipment',
        onSubmit: async (body) => {
          const made = await api('POST', '/portal/statements/shipments', { body: { ...body, plot_ids: selection.size ? [...selection.keys()] : undefined } });
          selection.clear();
          announce(`Shipment ${made.reference} made`);
          clear(making, notice(`Shipment ${made.reference} made with ${number(made.counts.plots, 0)} plot${made.counts.plots === 1 ? '' : 's'}.`));
          await drawList();
          await showStatement(detail, made, producers, drawList);
        },
      }),
    );
  }
  clear(
    main,
    h('h1', {}, 'Shipments'),
    h('p', { class: 'muted' }, 'Batches of plots with their commercial facts, and the due diligence statement each can give. Select plots on the Register page to make a shipment of them.'),
    params.new ? null : h('p', {}, h('a', { href: '#/shipments/new', id: 'new-shipment-link' }, 'New shipment')),
    making,
    list,
    detail,
  );
  await drawList();
}

/**
 * Ready or not in the information system's terms; never a plain "Ready" while the evidence warns
 * (the service's own line: "Formally complete; 2 of 3 plots show forest loss after the cutoff").
 */
function readiness(check) {
  if (!check.ready) return notice(`Not ready yet: the problems below keep it from being filed.${check.evidence_summary ? ` ${check.evidence_summary}.` : ''}`, 'warn');
  if (check.evidence_summary) return h('div', { class: 'notice error', role: 'alert', id: 'statement-readiness' }, h('strong', {}, `${check.evidence_summary}.`), ' Nothing the information system would refuse, but read the evidence warnings below before filing.');
  return notice('Ready: the statement can be built and filed from your own account.', 'info');
}

/** Adds the register's selection to the batch; the answer says what was already in it. */
function addSelection(s, status, redraw) {
  if (selection.size === 0) return null;
  return h('button', {
    type: 'button',
    class: 'secondary',
    id: 'add-selection',
    onclick: async () => {
      try {
        const added = await api('POST', `/portal/statements/shipments/${encodeURIComponent(s.id)}/plots`, { body: { plot_ids: [...selection.keys()] } });
        selection.clear();
        await redraw(`${added.added} plot${added.added === 1 ? '' : 's'} added, ${added.already_in} already in it; the batch holds ${added.n_plots}.`);
      } catch (err) {
        clear(status, errorNotice(err, 'The plots were not added'));
      }
    },
  }, `Add the register’s selection (${selectionText(3)})`);
}

/**
 * A shipment's statement as checked now: ready or not, each problem in the information system's
 * terms, the evidence's warnings; its facts to change. `said` is what the last action did.
 */
async function showStatement(box, s, producers, drawList, said = null) {
  const base = `/portal/statements/shipments/${encodeURIComponent(s.id)}`;
  const status = h('div', {}, said ? notice(said) : null);
  clear(box, h('p', {}, 'Checking the statement…'));
  const again = async (done) => {
    await drawList();
    await showStatement(box, await api('GET', base), producers, drawList, done);
  };
  try {
    const check = await api('GET', `${base}/statement`, { query: { format: 'json' } });
    clear(
      box,
      h('h2', { id: 'statement-title', tabindex: -1 }, `Statement of ${s.reference}`),
      readiness(check),
      facts([['Checked against the schema', check.schema_checked ? 'yes' : 'no'], ['Problems', number(check.problems.length, 0)], ['Evidence warnings', number(check.evidence_warnings.length, 0)]]),
      check.evidence_warnings.length === 0 ? null : table('Evidence warnings', [
        { label: 'Plot', cell: (w) => h('a', { href: `#/plots/${encodeURIComponent(w.plot_id)}` }, w.external_ref ?? w.plot_id) },
        { label: 'What the evidence says', cell: (w) => coded(w.message, w.code) },
      ], check.evidence_warnings),
      table('Problems of the statement', [
        { label: 'Field', cell: (p) => h('code', {}, p.field) },
        { label: 'Information system code', cell: (p) => p.eudr_code ?? '—' },
        { label: 'Problem', cell: (p) => p.message },
        { label: 'Plots', cell: (p) => number(p.plot_ids?.length ?? 0, 0), num: true },
      ], check.problems, { empty: 'No problems.' }),
      h('p', { class: 'row' },
        h('a', { href: apiUrl(`${base}/report.pdf`) }, 'Shipment report (PDF)'),
        ...['soap', 'xml', 'geojson'].map((f) => (check.ready ? h('a', { href: apiUrl(`${base}/statement`, { format: f }) }, `Statement as ${f.toUpperCase()}`) : null)),
      ),
      addSelection(s, status, again),
      status,
      h('details', { class: 'panel' }, h('summary', {}, `Commercial facts of ${s.reference}`), factsForm(s, producers, {
        submit: 'Save the facts',
        onSubmit: async (body) => {
          await api('PATCH', base, { body });
          await again(`Facts of ${body.reference} saved.`);
        },
      })),
    );
    box.querySelector('h2').focus();
    announce(`Statement of ${s.reference} checked`);
  } catch (err) {
    clear(box, errorNotice(err, 'The statement could not be checked'));
  }
}
