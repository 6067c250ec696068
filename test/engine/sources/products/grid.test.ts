import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canopyHeightTile } from '../../../../src/engine/sources/products/canopy-height/codes.ts';
import { cellsTouching } from '../../../../src/engine/sources/products/grid.ts';
import { hansenTile } from '../../../../src/engine/sources/products/hansen/codes.ts';

test('a box names every tile of a grid it touches, north-west first, and none it only borders', () => {
  assert.deepEqual(cellsTouching([10.2, 1.4, 10.3, 1.5], 3).map(([lon, lat]) => canopyHeightTile(lon, lat)), ['N00E009']);
  assert.deepEqual(cellsTouching([11.9, 2.9, 12.1, 3.1], 3).map(([lon, lat]) => canopyHeightTile(lon, lat)), ['N03E009', 'N03E012', 'N00E009', 'N00E012']);
  assert.deepEqual(cellsTouching([11.5, 2.5, 12, 3], 3).map(([lon, lat]) => canopyHeightTile(lon, lat)), ['N00E009'], 'an edge on the grid line takes no neighbour');
  assert.deepEqual(cellsTouching([-0.1, -0.1, 0.1, 0.1], 10).map(([lon, lat]) => hansenTile(lon, lat)), ['10N_010W', '10N_000E', '00N_010W', '00N_000E']);
});
