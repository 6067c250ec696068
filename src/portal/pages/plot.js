import { api, apiUrl, isMissingRoute } from '../api.js';
import { chartScenes, seasonChart } from '../chart.js';
import { plotMap } from '../map.js';
import { meanings } from '../meanings.js';
import { clear, coded, errorNotice, facts, h, labelled, notice, number, percent, table, toneBadge, when, words } from '../ui.js';

/** The structural instruments and the terrain (spec 2.7 rule 1): each answer, its reading and its refusal. */
const INSTRUMENTS = [
  { key: 'structure', title: 'Shade at the seasonal low', name: (b) => b.layer, reading: (b) => [['Shade at the trough', number(b.shade_at_trough, 3)], ['Seasons matched', number(b.seasons_matched, 0)], ['Haze (AOT) at the trough', number(b.aot_at_trough, 2)], ['Withheld for dust', b.withheld_for_dust ? 'yes' : 'no']] },
  { key: 'radar', title: 'Radar', name: (b) => b.instrument, reading: (b) => [['HH/HV ratio (dB)', number(b.hh_hv_db, 1)], ['Plot minus local forest (dB)', number(b.plot_minus_local_forest_db, 1)], ['Spread (dB)', number(b.sigma_db, 1)], ['Years read', (b.years_read ?? []).join(', ') || '—'], ['Tile', b.tile ?? '—']] },
  { key: 'height', title: 'Canopy height', name: (b) => b.instrument, reading: (b) => [['Median height (m)', number(b.median_m, 1)], ['10th to 90th percentile (m)', `${number(b.p10_m, 1)} to ${number(b.p90_m, 1)}`], ['Pixels', number(b.pixels, 0)], ['Tile', b.tile ?? '—']] },
];

function answerOf(block) {
  if (block.forest_like === true) return 'Reads forest-like';
  if (block.forest_like === false) return block.confident === false ? 'Reads crop, short of its margin' : 'Reads crop';
  return 'Could not answer';
}

/** The context blocks (spec 2.8): each shown by its own words, and its source. */
function contextBlocks(e) {
  const blocks = [
    ['Calibration', e.calibration, [e.calibration?.note, e.calibration?.region && `Region: ${e.calibration.region} (${e.calibration.state}).`]],
    ['Risk context (Article 10)', e.risk, [e.risk?.note, e.risk?.country?.consequence && `${e.risk.country.country_name}: ${e.risk.country.consequence}`, e.risk?.protected_area?.available && (e.risk.protected_area.intersects ? 'The plot meets a protected area.' : `No protected area on the plot${e.risk.protected_area.distance_km !== null && e.risk.protected_area.distance_km !== undefined ? `; the nearest is ${number(e.risk.protected_area.distance_km, 1)} km away` : ''}.`), e.risk?.neighbourhood?.available && `Forest loss since ${e.risk.neighbourhood.since_year} within ${e.risk.neighbourhood.ring_km} km: ${number(e.risk.neighbourhood.loss_ha, 1)} ha (${number(e.risk.neighbourhood.prevalence_pct, 1)}%).`]],
    ['Settlement', e.settlement, [e.settlement?.note, e.settlement?.reading]],
    ['Landsat history of moist forest', e.history, [e.history?.note, ...(Array.isArray(e.history?.reading) ? e.history.reading : [e.history?.reading]), e.history?.note_on_read]],
    ['Loss after the cutoff', e.post_cutoff_loss, [e.post_cutoff_loss?.reading ?? e.post_cutoff_loss?.note]],
    ['Forest types 2020', e.forest_types, [e.forest_types?.available ? `Primary ${percent(e.forest_types.primary)}, naturally regenerating ${percent(e.forest_types.naturally_regenerating)}, planted ${percent(e.forest_types.planted)}, not forest ${percent(e.forest_types.not_forest)}.` : e.forest_types?.note]],
    ['Commodity maps', e.commodity_maps, Object.entries(e.commodity_maps ?? {}).map(([k, v]) => `${words(k)}: ${v.available === false ? 'not read' : Object.entries(v).filter(([, x]) => typeof x === 'number' || typeof x === 'boolean').map(([f, x]) => `${words(f)} ${typeof x === 'number' && x <= 1 && !/year/.test(f) ? percent(x) : x}`).join(', ')}`)],
    ['Perennial-crop rating', e.whisp, [e.whisp?.note ?? e.whisp?.rule]],
    ['Concession', e.concession, [e.concession?.reading ?? e.concession?.note]],
  ];
  return blocks
    .filter(([, block]) => block)
    .map(([title, block, lines]) =>
      h('details', { class: 'panel' }, h('summary', {}, title), lines.filter(Boolean).map((l) => h('p', {}, l)), block.source || block.citation ? h('p', { class: 'muted' }, [block.source, block.version, block.licence].filter(Boolean).join(' · ')) : null),
    );
}

/**
 * Moist forest lost after the cutoff, said first (the service's own sentence, meanings.json), with the
 * open alert cases on the plot beside it. It changes no verdict.
 */
function lossBanner(evidence, plot, texts) {
  const loss = evidence?.post_cutoff_loss;
  const cases = plot.open_alert_cases > 0 ? `${plot.open_alert_cases} open alert case${plot.open_alert_cases === 1 ? '' : 's'} on this plot (see Alerts).` : null;
  if (!loss && !cases) return null;
  const headline = loss
    ? texts.post_cutoff_loss.replace('{share}', percent(loss.share)).replace('{area_ha}', String(loss.area_ha)).replace('{years}', loss.years.join(', '))
    : null;
  return h('div', { class: 'notice error', role: 'alert', id: 'post-cutoff-loss' }, headline ? h('strong', {}, `${headline}.`) : null, headline && cases ? ' ' : null, cases);
}

/** A plot (spec 4.1, 4.3): its boundary over the imagery, its series, instruments, verdict and integrity. */
export async function plotPage(main, { params, signal }) {
  const id = params.id;
  const plot = await api('GET', `/portal/plots/${encodeURIComponent(id)}`);
  const title = plot.external_ref ?? plot.id;
  const [wrapper, timeline, texts] = await Promise.all([
    api('GET', `/portal/plots/${encodeURIComponent(id)}/evidence`).catch((err) => err),
    api('GET', `/portal/plots/${encodeURIComponent(id)}/timeline`).catch((err) => err),
    meanings(),
  ]);
  const mapBox = h('div', { class: 'map', id: 'plot-map' });
  const mapStatus = h('div');
  const sceneControls = h('div', { class: 'row' });
  const chartBox = h('figure', { class: 'chart', id: 'season-chart' });

  const evidence = wrapper instanceof Error ? null : wrapper.evidence;
  clear(
    main,
    h('p', {}, h('a', { href: '#/register' }, '← Register')),
    h('h1', {}, `Plot ${title}`),
    lossBanner(evidence, plot, texts),
    h(
      'div',
      { class: 'grid' },
      h('section', { class: 'panel', 'aria-labelledby': 'plot-facts' }, h('h2', { id: 'plot-facts' }, 'The plot'), facts([
        ['State', toneBadge(plot.state)],
        ['What the record shows', plot.state?.summary ?? '—'],
        ['Commodity', plot.commodity ?? '—'],
        ['Producer', plot.producer_name ?? 'none attached'],
        ['Country', plot.country ?? '—'],
        ['Area (ha)', number(plot.area_ha, 2)],
        ['Validation', plot.validation_state],
        ['Evidence', words(plot.evidence_state)],
        ['Read', when(plot.evidence_at)],
      ])),
      h('section', { 'aria-labelledby': 'plot-map-title' }, h('h2', { id: 'plot-map-title' }, 'Boundary over the imagery'), sceneControls, mapBox, mapStatus),
    ),
    validationSection(plot),
    evidence ? verdictSection(evidence, texts) : noEvidence(wrapper, plot),
    evidence ? scopeSection(evidence, plot.commodity, texts) : null,
    evidence ? h('section', { 'aria-labelledby': 'series-title' }, h('h2', { id: 'series-title' }, 'The seasonal record'), chartBox, seasonsTable(evidence)) : null,
    evidence ? instrumentsSection(evidence) : null,
    evidence ? h('section', { 'aria-labelledby': 'context-title' }, h('h2', { id: 'context-title' }, 'Context'), h('p', { class: 'muted' }, 'Context and supporting evidence: none of these changes the verdict unless a reason above names it.'), contextBlocks(evidence)) : null,
    plot.archive_review ? archiveReviewSection(plot.archive_review) : null,
    evidence ? documentsSection(wrapper, texts) : null,
  );

  const m = plotMap(mapBox, `Boundary of plot ${title}`, mapStatus);
  if (plot.geometry) m.addPlots([{ type: 'Feature', geometry: plot.geometry, properties: { label: title } }]);
  const scenes = timeline instanceof Error ? [] : timeline.scenes ?? [];
  showSceneControls(sceneControls, m, scenes, timeline instanceof Error ? timeline : null, texts.ndvi_stops);
  if (evidence) {
    const drawn = chartScenes(evidence, scenes);
    const readings = drawn.some((s) => s.kept);
    const caption = h('figcaption', {}, `${readings ? 'Each green dot is a kept scene’s reading; ' : 'The kept scenes’ own readings are not in this evidence (it was read before they were stored); '}hollow grey dots along the foot are scenes skipped. Blue lines are each season’s plateau, red dots its trough.`);
    chartBox.append(caption);
    const widthOf = () => Math.max(260, Math.min(chartBox.clientWidth, 1100));
    const chart = seasonChart(chartBox, { scenes: drawn, seasons: evidence.seasons ?? [], width: widthOf() });
    // The chart draws at a fixed width: it follows its box when the window turns or narrows.
    const follow = new ResizeObserver(() => chart.setSize({ width: widthOf(), height: 300 }));
    follow.observe(chartBox);
    signal.addEventListener('abort', () => follow.disconnect());
  }
  signal.addEventListener('abort', () => m.map.remove());
}

const CHANGE_LAYERS = { tmf_loss: 'Moist-forest loss by year', hansen_loss: 'Tree-cover loss by year', alerts: 'Published alerts since 2021' };

/** A select that lays a change layer over the map, with its legend read from the service. */
function changeControl(m, legendBox) {
  const select = h('select', { id: 'change-layer' }, h('option', { value: '' }, 'None'), Object.entries(CHANGE_LAYERS).map(([k, v]) => h('option', { value: k }, v)));
  select.addEventListener('change', async () => {
    m.showChange(select.value || null);
    clear(legendBox);
    if (!select.value) return;
    try {
      const legend = await api('GET', `/change/tiles/${select.value}/legend`);
      const swatch = (rgba) => {
        const el = h('span', { class: 'swatch', 'aria-hidden': 'true' });
        el.style.background = `rgba(${rgba[0]}, ${rgba[1]}, ${rgba[2]}, ${rgba[3] / 255})`;
        return el;
      };
      clear(legendBox, h('p', {}, h('strong', {}, legend.title), ` (${legend.source.dataset}, ${legend.source.version}; ${legend.licence})`), h('ul', { class: 'legend' }, legend.classes.map((c) => h('li', {}, swatch(c.rgba), c.label))));
    } catch (err) {
      clear(legendBox, isMissingRoute(err) ? h('p', { class: 'muted' }, 'Change layers are not served by this service yet.') : errorNotice(err, 'The legend could not be read'));
    }
  });
  return labelled('Change over the imagery', select);
}

/**
 * What the imagery layer shows: true colour in words; NDVI as its colour ramp, read from the stops
 * the tiles are coloured with (meanings.json), with the values at its ends.
 */
function imageryLegend(box, layer, stops) {
  if (layer !== 'ndvi') {
    clear(box, h('p', { class: 'muted', id: 'imagery-legend' }, 'True colour: the scene’s red, green and blue reflectance, as the eye would see the ground.'));
    return;
  }
  const [first, last] = [stops[0].at, stops.at(-1).at];
  const ramp = h('span', { class: 'ramp', 'aria-hidden': 'true' });
  ramp.style.background = `linear-gradient(to right, ${stops.map((s) => `rgba(${s.rgba[0]}, ${s.rgba[1]}, ${s.rgba[2]}, ${s.rgba[3] / 255}) ${Math.round(((s.at - first) / (last - first)) * 100)}%`).join(', ')})`;
  clear(
    box,
    h('p', { id: 'imagery-legend' }, h('strong', {}, 'Vegetation index (NDVI) of each pixel: '), String(first), ramp, String(last), '. ', 'Brown is bare ground (', String(first), ' and below), yellow to light green sparse or thinning vegetation, dark green dense canopy (', String(last), ' and above); a pixel with no clear reading is left transparent.'),
  );
}

function showSceneControls(box, m, scenes, failure, stops) {
  const legend = h('div', { class: 'legend-box' });
  const layerLegend = h('div', { class: 'legend-box' });
  const change = changeControl(m, legend);
  const layer = h('select', { id: 'tile-layer' }, h('option', { value: 'true_colour' }, 'True colour'), h('option', { value: 'ndvi' }, 'Vegetation index (NDVI)'));
  const kept = scenes.filter((s) => s.kept);
  if (kept.length === 0) {
    const season = h('select', { id: 'tile-season' }, [2016, 2017, 2018, 2019, 2020].map((y) => h('option', { value: y, selected: y === 2020 }, String(y))));
    const show = () => {
      m.showTiles(layer.value, { season: season.value });
      imageryLegend(layerLegend, layer.value, stops);
    };
    layer.addEventListener('change', show);
    season.addEventListener('change', show);
    clear(box, labelled('Layer', layer), labelled('Season', season), change, layerLegend, legend, failure ? h('p', { class: 'muted' }, isMissingRoute(failure) ? 'The scene timeline is not served by this service yet; a season’s composite is shown.' : `The scene timeline could not be read: ${failure.message}`) : null);
    show();
    return;
  }
  const slider = h('input', { type: 'range', id: 'scene-slider', min: 0, max: kept.length - 1, step: 1, value: kept.length - 1 });
  const shown = h('output', { for: 'scene-slider', id: 'scene-shown' });
  const show = () => {
    const s = kept[Number(slider.value)];
    shown.textContent = `${s.date} · ${s.product} · clear ${percent(s.clear_share)}`;
    slider.setAttribute('aria-valuetext', `${s.date}, ${s.product}`);
    m.showTiles(layer.value, { scene: s.id });
    imageryLegend(layerLegend, layer.value, stops);
  };
  slider.addEventListener('change', show);
  slider.addEventListener('input', () => (shown.textContent = kept[Number(slider.value)].date));
  layer.addEventListener('change', show);
  clear(box, labelled('Layer', layer), labelled(`Scene (${kept.length} kept)`, slider), shown, change, layerLegend, legend);
  show();
}

/**
 * What the upload's checks said of the plot: for a rejected plot, why it was rejected, first; the
 * findings and repairs of any plot beside. Each in the check's own words with its code.
 */
function validationSection(plot) {
  const report = plot.validation_report ?? {};
  const entries = (list) => h('ul', {}, list.map((f) => h('li', {}, coded(f.message, f.code))));
  const rejections = report.rejections ?? [];
  const findings = report.findings ?? [];
  const repairs = report.repairs ?? [];
  const rejected = plot.validation_state === 'rejected';
  if (!rejected && findings.length === 0 && repairs.length === 0) return null;
  return h(
    'section',
    { class: rejected ? 'panel notice error' : 'panel', 'aria-labelledby': 'validation-title', id: 'validation-report' },
    h('h2', { id: 'validation-title' }, rejected ? 'Why this plot was rejected' : 'What the upload’s checks found'),
    rejected ? h('p', {}, 'A rejected plot is never read as it stands: correct it and upload it again.') : null,
    rejected ? (rejections.length ? entries(rejections) : h('p', {}, 'The upload recorded no reason for it.')) : null,
    findings.length ? [h('h3', {}, 'Findings'), entries(findings)] : null,
    repairs.length ? [h('h3', {}, 'Repairs made'), entries(repairs)] : null,
  );
}

function noEvidence(err, plot) {
  const why = err.code === 'no_evidence' ? err.message : `The evidence could not be read: ${err.message}`;
  const status = h('div');
  const run = h('button', {
    type: 'button',
    id: 'run-plot',
    onclick: async () => {
      run.disabled = true;
      try {
        const answer = await api('POST', '/portal/plots/evidence', { body: { plot_ids: [plot.id] } });
        clear(status, notice(answer.job_id ? `Queued in job ${answer.job_id}. Follow it in the register; this page shows the evidence once it is read.` : answer.note ?? 'Nothing needed evidence.'));
      } catch (e) {
        run.disabled = false;
        clear(status, errorNotice(e, 'Evidence was not queued'));
      }
    },
  }, 'Run evidence on this plot');
  const runnable = plot.validation_state !== 'rejected' && (plot.evidence_state === 'none' || plot.evidence_state === 'failed');
  return h(
    'section',
    { class: 'panel', 'aria-labelledby': 'verdict-title' },
    h('h2', { id: 'verdict-title' }, 'Evidence'),
    notice(why),
    runnable ? run : null,
    status,
    h('p', {}, h('a', { href: '#/register' }, 'Back to the register')),
  );
}

function verdictSection(e, m) {
  const verdict = m.verdicts[e.verdict];
  return h(
    'section',
    { class: 'panel', 'aria-labelledby': 'verdict-title' },
    h('h2', { id: 'verdict-title' }, 'Verdict: ', coded(verdict?.title, e.verdict)),
    h('p', { id: 'finding' }, e.finding),
    verdict ? h('p', { class: 'muted' }, verdict.meaning) : null,
    h('h3', {}, 'Reasons'),
    h('ul', { id: 'reasons' }, e.reasons.map((r) => h('li', {}, coded(m.reasons[r], r)))),
    h('h3', {}, 'Next step'),
    h('p', { id: 'next-step' }, e.next_step ? coded(e.next_step.note, e.next_step.code) : 'None: the finding stands on its own.'),
    e.synthetic ? notice(e.synthetic_note ?? 'Read from the synthetic demo world.', 'warn') : null,
    facts([
      ['Footprint', e.footprint],
      ['Scenes kept of searched', `${number(e.read?.scenes_kept, 0)} of ${number(e.read?.scenes_searched, 0)}`],
      ['Record read', `${e.read?.start ?? '—'} to ${e.read?.end ?? '—'}`],
      ['Seasons measured, with a dip', `${number(e.seasons_observed, 0)}, ${number(e.seasons_with_dip, 0)}`],
      ['Issued', when(e.issued)],
    ]),
  );
}

/**
 * What this record can show for the plot's commodity (the service's line, meanings.json), and the
 * supporting context the record holds for it, said as what it is, never as a verdict.
 */
function scopeSection(e, commodity, m) {
  const key = (commodity ?? '').trim().toLowerCase().replace(/[\s-]+/g, '_');
  const scope = m.commodity_scopes[m.commodity_aliases[key] ?? key];
  const palm = e.commodity_maps?.oil_palm;
  const cleared = e.history?.deforestation_year?.share_before_2021;
  const context = [
    palm?.planted_by_2020 === true ? `The oil palm map (Descals et al. 2024) shows oil palm planted here by 2020${typeof palm.median_planting_year === 'number' ? ` (median planting year ${palm.median_planting_year})` : ''}.` : null,
    typeof cleared === 'number' && cleared > 0 ? `The Landsat moist-forest record dates the clearing of ${percent(cleared)} of the plot before 2021.` : null,
  ].filter(Boolean);
  if (!scope && context.length === 0) return null;
  return h(
    'section',
    { class: 'panel', 'aria-labelledby': 'scope-title', id: 'commodity-scope' },
    h('h2', { id: 'scope-title' }, `What this record can show for ${commodity ?? 'this plot'}`),
    scope ? h('p', {}, scope) : null,
    context.length ? h('p', { class: 'muted' }, `Supporting context, not a verdict: ${context.join(' ')}`) : null,
  );
}

function seasonsTable(e) {
  return h('details', {}, h('summary', {}, 'Seasons as a table'), table('Seasons of the record', [
    { label: 'Season', cell: (s) => s.label },
    { label: 'Scenes', cell: (s) => number(s.observations, 0), num: true },
    { label: 'Plateau', cell: (s) => number(s.plateau, 3), num: true },
    { label: 'Trough', cell: (s) => number(s.trough, 3), num: true },
    { label: 'Trough date', cell: (s) => s.trough_date ?? '—' },
    { label: 'Depth', cell: (s) => number(s.depth, 3), num: true },
    { label: 'Wintered', cell: (s) => (s.no_answer ? 'no answer' : s.dipped ? 'yes' : 'no') },
  ], e.seasons ?? []));
}

function instrumentsSection(e) {
  return h(
    'section',
    { 'aria-labelledby': 'instruments-title' },
    h('h2', { id: 'instruments-title' }, 'Instruments'),
    h(
      'div',
      { class: 'grid' },
      INSTRUMENTS.filter((i) => e[i.key]).map((i) => {
        const b = e[i.key];
        return h('section', { class: 'panel instrument', 'aria-labelledby': `instrument-${i.key}` }, h('h3', { id: `instrument-${i.key}` }, i.title), h('p', {}, h('strong', {}, answerOf(b))), b.refusal ? h('p', {}, `Why not: ${b.refusal}`) : null, facts([['Instrument', i.name(b) ?? '—'], ...i.reading(b)]));
      }),
      e.terrain ? h('section', { class: 'panel instrument', 'aria-labelledby': 'instrument-terrain' }, h('h3', { id: 'instrument-terrain' }, 'Terrain'), facts([['Mean slope (°)', number(e.terrain.mean_slope_deg, 1)], ['Source', e.terrain.source], ['Steeper than characterised', e.terrain.outside_characterised_range ? 'yes' : 'no']])) : null,
    ),
  );
}

/** A dated reading of a sub-metre archive scene filed with the evidence, where the plot has one. */
function archiveReviewSection({ reading: r, integrity: i }) {
  return h(
    'section',
    { class: 'panel', 'aria-labelledby': 'review-title' },
    h('h2', { id: 'review-title' }, 'Archive imagery review'),
    h('p', {}, r.statement),
    facts([
      ['Scene', `${r.scene_id} (${r.provider}), ${r.acquired_on}`],
      ['Seen on the plot', words(r.observed)],
      ['Share of the plot covered', percent(r.plot_share)],
      ['Supports cultivation before the cutoff', r.supports_pre_cutoff_cultivation ? 'yes' : 'no'],
      ['Reviewer', r.reviewer],
      ['Filed', when(r.filed_at)],
      ['Content digest (SHA-256)', h('code', {}, i.digest)],
    ]),
  );
}

function documentsSection(wrapper, m) {
  const i = wrapper.integrity;
  const evidencePath = `/portal/plots/${encodeURIComponent(wrapper.plot_id)}/evidence`;
  const absolute = (path) => new URL(`api/v1${path}`, location.href.split('#')[0]).href;
  const fill = (text) => text.replaceAll('{evidence_url}', absolute(evidencePath)).replaceAll('{public_key_url}', absolute('/evidence/public-key')).replaceAll('{digest}', i.digest);
  return h(
    'section',
    { 'aria-labelledby': 'documents-title' },
    h('h2', { id: 'documents-title' }, 'Documents and integrity'),
    h('p', { class: 'row' }, h('a', { href: apiUrl(evidencePath), id: 'evidence-json' }, 'Evidence as JSON'), h('a', { href: apiUrl(`${evidencePath}.pdf`), id: 'evidence-pdf', download: '' }, 'Evidence document (PDF)')),
    facts([
      ['Canonicalisation', i.canonicalization],
      ['Content digest (SHA-256)', h('code', { id: 'digest' }, i.digest)],
      ['Signature (Ed25519, base64)', h('code', {}, i.signature)],
      ['Signing key id', h('code', {}, i.key_id)],
    ]),
    h('h3', {}, 'How to verify'),
    h('ol', {}, m.verification.steps.map((s) => h('li', {}, fill(s)))),
    h('p', {}, m.verification.openssl_note),
    h('pre', { class: 'mono' }, fill(m.verification.openssl)),
  );
}
