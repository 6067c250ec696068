import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { evidenceFacts } from '../../src/engine/assemble-evidence.ts';
import type { ContextBlocks } from '../../src/engine/context/index.ts';
import { historyNotRead, type HistoryNotRead } from '../../src/engine/context/history.ts';
import { fixtureEvidence } from '../fixtures/evidence-wrapper.ts';
import { LANDSAT_2020_CLASSES, LANDSAT_READINGS, MAPS_READINGS, plotState, plotStateOfRow, type PlotStateInput } from '../../src/engine/plot-state.ts';

const PROVENANCE = { source: 'JRC Tropical Moist Forest', version: 'v1_2025', licence: 'free', citation: 'Vancutsem et al. 2021', acknowledgement: 'Source: EC JRC' };

const read = (facts: Partial<PlotStateInput> = {}): PlotStateInput => ({ evidence_state: 'done', area_ha: 12, seasons_measured: 4, ...facts });

describe('plot state: one row of the table each', () => {
  test('a positive finding is "Established before the cutoff" (finding)', () => {
    const s = plotState(read({ positive_finding: true, eu_maps_forest_share: 0.02, landsat_2020: 'cleared_before_2021' }));
    assert.deepEqual([s.tone, s.label], ['finding', 'Established before the cutoff']);
  });

  test('an archive reading that supports cultivation is "Cultivated on the archive scene date" (finding), even under the floor', () => {
    const s = plotState(read({ archive_cultivation: true, area_ha: 1.5 }));
    assert.deepEqual([s.tone, s.label], ['finding', 'Cultivated on the archive scene date']);
  });

  test('read under 4 ha is "Record only, under the evidence floor" (record), forest or not', () => {
    for (const input of [read({ area_ha: 3.99, eu_maps_forest_share: 0.9 }), read({ area_ha: 0.5 })]) {
      const s = plotState(input);
      assert.deepEqual([s.tone, s.label], ['record', 'Record only, under the evidence floor']);
    }
    assert.notEqual(plotState(read({ area_ha: 4 })).label, 'Record only, under the evidence floor');
  });

  test('a plot under 4 ha that was never read is "Not read yet", as is one in flight or failed: the floor is said once it is read', () => {
    for (const [state, label] of [['none', 'Not read yet'], ['queued', 'Queued'], ['running', 'Reading'], ['failed', 'Could not be read']] as const) {
      const s = plotState({ evidence_state: state, area_ha: 0.5 });
      assert.deepEqual([s.tone, s.label], ['record', label]);
    }
  });

  test('the 2020 maps classing most of the plot as forest is "Forest on the 2020 maps" (forest_mapped)', () => {
    const s = plotState(read({ eu_maps_forest_share: 0.5, landsat_2020: 'undisturbed_forest' }));
    assert.deepEqual([s.tone, s.label], ['forest_mapped', 'Forest on the 2020 maps']);
    assert.equal(plotState(read({ eu_maps_forest_share: 0.49 })).label, 'Record only');
  });

  test('the Landsat record reading undisturbed forest at the end of 2020 is "Forest in the Landsat record" (forest_mapped)', () => {
    const s = plotState(read({ eu_maps_forest_share: 0.3, landsat_2020: 'undisturbed_forest' }));
    assert.deepEqual([s.tone, s.label], ['forest_mapped', 'Forest in the Landsat record']);
    assert.equal(plotState(read({ landsat_2020: 'degraded_forest' })).label, 'Record only');
  });

  test('read without a finding and neither forest reading is "Record only" (record)', () => {
    const s = plotState(read({ positive_finding: false, eu_maps_forest_share: 0.05, landsat_2020: 'outside_moist_forest' }));
    assert.deepEqual([s.tone, s.label], ['record', 'Record only']);
  });

  const unread: [PlotStateInput['evidence_state'], string, RegExp][] = [
    ['none', 'Not read yet', /^Not read yet\./],
    ['queued', 'Queued', /^Queued for reading\./],
    ['running', 'Reading', /^Being read\./],
    ['failed', 'Could not be read', /^Could not be read\./],
  ];
  for (const [state, label, lead] of unread) {
    test(`evidence not read (${state}) is "${label}" (record) and the summary says so`, () => {
      const s = plotState({ evidence_state: state, area_ha: 10 });
      assert.deepEqual([s.tone, s.label], ['record', label]);
      assert.match(s.summary, lead);
      assert.match(s.summary, /2020 maps: not read\. Landsat record: not read\. No dry season read yet\./);
    });
  }

  test('a point without a known area is not taken as under the floor', () => {
    assert.equal(plotState({ evidence_state: 'none', area_ha: null }).label, 'Not read yet');
  });
});

describe('plot state: the summary vocabulary', () => {
  test('the maps read mostly planted forest, mostly forest, partly forest, not forest or not read', () => {
    const maps = (facts: Partial<PlotStateInput>) => /2020 maps: ([^.]+)\./.exec(plotState(read(facts)).summary)![1];
    assert.equal(maps({ eu_maps_forest_share: 0.8, eu_maps_planted_share: 0.6 }), 'mostly planted forest');
    assert.equal(maps({ eu_maps_forest_share: 0.8, eu_maps_planted_share: 0.1 }), 'mostly forest');
    assert.equal(maps({ eu_maps_forest_share: 0.3 }), 'partly forest');
    assert.equal(maps({ eu_maps_forest_share: 0.1 }), 'not forest');
    assert.equal(maps({}), 'not read');
    assert.deepEqual(
      new Set([0.8, 0.3, 0.1].map((f) => maps({ eu_maps_forest_share: f })).concat(maps({}), maps({ eu_maps_forest_share: 0.9, eu_maps_planted_share: 0.9 }))),
      new Set(MAPS_READINGS),
    );
  });

  test('each Landsat class has its own phrase, and an unread record says so', () => {
    for (const landsat of LANDSAT_2020_CLASSES) {
      assert.ok(plotState(read({ landsat_2020: landsat })).summary.includes(`Landsat record: ${LANDSAT_READINGS[landsat]}.`));
    }
    assert.ok(plotState(read({})).summary.includes('Landsat record: not read.'));
    assert.equal(LANDSAT_READINGS.not_covered, 'does not cover this ground');
    assert.equal(LANDSAT_READINGS.cleared_before_2021, 'cleared before 2021');
  });

  test('ground outside the Landsat record\'s tiles "does not cover this ground"; a tile that could not be read is "not read"', () => {
    const landsat = (kind: HistoryNotRead['kind']) => {
      const history = historyNotRead(PROVENANCE, { kind, tile: 'N40_E0', why: 'a reason' }, false).history;
      const blocks = { ...fixtureEvidence(), history } as unknown as ContextBlocks;
      return /Landsat record: ([^.]+)\./.exec(plotState({ ...evidenceFacts(blocks, 4, null), evidence_state: 'done', area_ha: 12 }).summary)![1];
    };
    assert.equal(landsat('outside_coverage'), 'does not cover this ground');
    assert.equal(landsat('unreadable'), 'not read');
  });

  test('it states how many dry seasons could be read', () => {
    assert.match(plotState(read({ seasons_measured: 4 })).summary, /4 dry seasons could be read\.$/);
    assert.match(plotState(read({ seasons_measured: 1 })).summary, /1 dry season could be read\.$/);
    assert.match(plotState(read({ seasons_measured: 0 })).summary, /No dry season could be read\.$/);
  });

  test('a forest part read block by block is stated, and none is not', () => {
    assert.match(plotState(read({ landsat_2020: 'mixed_cover', forest_part_share: 0.112 })).summary, /Landsat record: mixed cover at the end of 2020\. Structural readings: forest-like on 11% of the plot\. 4 dry seasons/);
    assert.doesNotMatch(plotState(read({ forest_part_share: 0 })).summary, /Structural readings/);
    assert.doesNotMatch(plotState(read({})).summary, /Structural readings/);
  });

  test('a read plot carries no read-state lead', () => {
    assert.equal(
      plotState(read({ eu_maps_forest_share: 0.02, landsat_2020: 'cleared_before_2021', seasons_measured: 3 })).summary,
      '2020 maps: not forest. Landsat record: cleared before 2021. 3 dry seasons could be read.',
    );
  });
});

describe('plot state of a register row', () => {
  test('the positive finding is the verdict prior_management_evidenced, the facts come from evidence_facts', () => {
    const established = plotStateOfRow({ evidence_state: 'done', area_ha: 10, verdict: 'prior_management_evidenced', evidence_facts: { seasons_measured: 4 } });
    assert.deepEqual([established.tone, established.label], ['finding', 'Established before the cutoff']);
    assert.match(established.summary, /4 dry seasons could be read/);
    const withheld = plotStateOfRow({ evidence_state: 'done', area_ha: 10, verdict: 'prior_management_weak', evidence_facts: { landsat_2020: 'undisturbed_forest' } });
    assert.equal(withheld.label, 'Forest in the Landsat record');
    assert.equal(plotStateOfRow({ evidence_state: 'none', area_ha: 10, verdict: null, evidence_facts: null }).label, 'Not read yet');
  });
});
