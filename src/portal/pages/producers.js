// Producers (spec 2.4): made here, an uploaded plot whose `producer` names one is attached to it, and
// the register attaches one to the plots already there.
import { api } from '../api.js';
import { actionForm, announce, clear, h, labelled, notice, number, table, when } from '../ui.js';

export async function producersPage(main) {
  const list = h('div');
  const status = h('div');
  const name = h('input', { name: 'name', required: true, autocomplete: 'off' });
  const reference = h('input', { name: 'reference', autocomplete: 'off' });
  const country = h('input', { name: 'country', placeholder: 'e.g. CI, CIV or Côte d’Ivoire' });

  async function refresh() {
    const { producers } = await api('GET', '/portal/plots/producers');
    clear(list, table('Producers of this workspace', [
      { label: 'Name', cell: (p) => p.name },
      { label: 'Reference', cell: (p) => p.reference ?? '—' },
      { label: 'Country', cell: (p) => p.country ?? '—' },
      { label: 'Plots', cell: (p) => number(p.plots, 0), num: true },
      { label: 'Added', cell: (p) => when(p.created_at) },
    ], producers, { empty: 'No producers yet: every uploaded plot that names one is reported producer_not_found until it is made here.' }));
  }

  const form = actionForm(
    { class: 'stack', 'aria-labelledby': 'new-producer' },
    status,
    'The producer was not added',
    async () => {
      const body = { name: name.value.trim() };
      if (reference.value.trim()) body.reference = reference.value.trim();
      if (country.value.trim()) body.country = country.value.trim();
      const made = await api('POST', '/portal/plots/producers', { body });
      form.reset();
      clear(status, notice(`Producer ${made.name} added${made.country ? ` (${made.country})` : ''}. Plots that name it are attached on their next upload; attach it to plots already in the register from the register’s selection.`));
      announce(`Producer ${made.name} added`);
      await refresh();
    },
    labelled('Name (as uploads name it in their producer property)', name),
    labelled('Reference (optional, unique in the workspace)', reference),
    labelled('Country (optional; decides the campaign and classification its plots are reported against)', country),
    h('div', {}, h('button', { type: 'submit' }, 'Add the producer')),
  );
  clear(
    main,
    h('h1', {}, 'Producers'),
    h('p', { class: 'muted' }, 'The growers and suppliers your plots come from. An upload matches a plot’s producer property to these names, ignoring case and spacing; a name that matches none is reported as producer_not_found and the plot is stored without a producer.'),
    h('h2', { id: 'new-producer' }, 'Add a producer'),
    form,
    status,
    h('h2', {}, 'Producers'),
    list,
  );
  await refresh();
}
