import { test } from 'node:test';
import assert from 'node:assert/strict';
import { maskFromBits } from '../../../../src/engine/kernels/rasterise-mask.ts';
import { whispSwitchedOff } from '../../../../src/engine/context/whisp.ts';
import { readWhisp, whispFromHansen, whispFromTmf } from '../../../../src/engine/worker/context/whisp.ts';

const all = (n: number) => maskFromBits(new Uint8Array(n).fill(1), n, 1);
const clear = { TMF_plant: 0, Oil_palm_Descals: 0, Rubber_RBGE: 0, TMF_deg_before_2020: 0, TMF_def_before_2020: 0, GFC_loss_before_2020: 0, TMF_deg_after_2020: 0, TMF_def_after_2020: 0, GFC_loss_after_2020: 0 };

test('switched off, the block is available: false and says so', () => {
  const w = whispSwitchedOff();
  assert.equal(w.available, false);
  assert.match(w.note, /WHISP=off/);
  assert.equal(w.risk_pcrop, undefined);
});

test('the perennial-crop rule: low, more information needed, high', () => {
  // No tree cover in 2020: low.
  assert.equal(readWhisp({ ...clear, EUFO_2020: 0.05, TMF_undist: 0 }).risk_pcrop, 'low');
  // Tree cover and a commodity mapped: low.
  assert.equal(readWhisp({ ...clear, EUFO_2020: 0.8, TMF_undist: 0.6, Rubber_RBGE: 0.7 }).risk_pcrop, 'low');
  // Tree cover, disturbed before 2021: low.
  assert.equal(readWhisp({ ...clear, EUFO_2020: 0.8, TMF_undist: 0.6, TMF_def_before_2020: 0.2 }).risk_pcrop, 'low');
  // Tree cover, no commodity, no disturbance at all: more information needed.
  const open = readWhisp({ ...clear, EUFO_2020: 0.8, TMF_undist: 0.6 });
  assert.equal(open.risk_pcrop, 'more_info_needed');
  assert.deepEqual(open.indicators, { ind_01_treecover: 'yes', ind_02_commodities: 'no', ind_03_disturbance_before_2020: 'no', ind_04_disturbance_after_2020: 'no' });
  // Tree cover, disturbed after 2020 only: high.
  assert.equal(readWhisp({ ...clear, EUFO_2020: 0.8, TMF_undist: 0.6, GFC_loss_after_2020: 0.3 }).risk_pcrop, 'high');
  // Exactly a tenth is not above a tenth.
  assert.equal(readWhisp({ ...clear, EUFO_2020: 0.1, TMF_undist: 0.1 }).risk_pcrop, 'low');
  assert.match(open.rule!, /more than 10%/);
  assert.ok(open.not_read!.includes('Cocoa_ETH'));
});

test('an indicator with no dataset read leaves the rating open rather than guessing', () => {
  const w = readWhisp({ EUFO_2020: 0.9 });
  assert.equal(w.indicators!.ind_02_commodities, null);
  assert.equal(w.risk_pcrop, null);
});

test('shares from the moist-forest record and from Hansen, as Whisp counts them', () => {
  const n = 10;
  const tmf = whispFromTmf(all(n), {
    AnnualChange_1990: new Uint8Array(n).fill(1),
    AnnualChange_2020: Uint8Array.from([1, 1, 1, 3, 3, 3, 3, 2, 2, 6]),
    DeforestationYear: Uint16Array.from([0, 0, 0, 1996, 2008, 2022, 2022, 0, 0, 0]),
    DegradationYear: Uint16Array.from([0, 0, 0, 0, 0, 0, 0, 1998, 2019, 0]),
    TransitionMap_MainClasses: Uint8Array.from([10, 10, 10, 41, 41, 41, 43, 20, 20, 70]),
    // A plantation cleared after the cutoff is dropped from TMF_plant.
    TransitionMap_Subtypes: Uint8Array.from([10, 10, 10, 81, 82, 81, 43, 21, 21, 70]),
  });
  assert.deepEqual(tmf, { TMF_undist: 0.3, TMF_plant: 0.2, TMF_deg_before_2020: 0.1, TMF_def_before_2020: 0.1, TMF_deg_after_2020: 0, TMF_def_after_2020: 0.2 });
  const hansen = whispFromHansen(all(n), Uint8Array.from([80, 80, 80, 80, 5, 5, 80, 80, 80, 80]), Uint8Array.from([0, 3, 20, 21, 3, 22, 25, 0, 0, 0]));
  assert.deepEqual(hansen, { GFC_loss_before_2020: 0.2, GFC_loss_after_2020: 0.2 });
});

test('WHISP is off unless set on, and a wrong value names the variable', async () => {
  const { loadConfig } = await import('../../../../src/config.ts');
  assert.equal(loadConfig({}).whisp, false);
  assert.equal(loadConfig({ WHISP: 'on' }).whisp, true);
  assert.equal(loadConfig({ WHISP: 'off' }).whisp, false);
  assert.throws(() => loadConfig({ WHISP: 'yes' }), /WHISP: expected one of on, off/);
});
