/** Statement facts for the tests: a complete cocoa import by default, each field overridable. */
import { randomUUID } from 'node:crypto';
import type { PlotGeometry } from '../../src/intake/types.ts';
import type { FilingPlot, StatementFacts } from '../../src/statements/payload.ts';

export const square = (lon: number, lat: number, side = 0.01): PlotGeometry => ({
  type: 'Polygon',
  coordinates: [[[lon, lat], [lon + side, lat], [lon + side, lat + side], [lon, lat + side], [lon, lat]]],
});

export function filingPlot(over: Partial<FilingPlot> = {}): FilingPlot {
  return {
    id: randomUUID(), external_ref: `GH-${randomUUID().slice(0, 8)}`, validation_state: 'valid', geometry: square(-1.6, 6.7), area_ha: 120, declared_area_ha: null,
    producer_id: null, producer_name: 'Kofi Mensah', producer_country: 'GH', country: 'GH', ...over,
  };
}

export function statementFacts(over: Partial<StatementFacts> = {}): StatementFacts {
  return {
    internalReference: 'SHIP-2026-001', commodity: 'cocoa', descriptionOfGoods: 'Cocoa beans, whole, raw', hsCode: '1801', quantity: 24000, unit: 'kg',
    netMassKg: null, supplementaryUnit: null, supplementaryUnitType: null, destinationCountry: 'NL', borderCrossCountry: null, activityType: 'IMPORT', species: null, plots: [filingPlot()], namedProducers: [], ...over,
  };
}

/** `n` plots of one producer, side by side. */
export const manyPlots = (n: number, over: Partial<FilingPlot> = {}) =>
  Array.from({ length: n }, (_, i) => filingPlot({ external_ref: `P-${i}`, geometry: square(-1.6 + (i % 100) * 0.011, 6.7 + Math.floor(i / 100) * 0.011), ...over }));
