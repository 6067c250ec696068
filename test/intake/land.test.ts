import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onLand } from '../../src/intake/land.ts';
import type { Position } from '../../src/intake/types.ts';

test('tells land from sea on Natural Earth\'s coastline, islands and both sides of the antimeridian included', () => {
  const land: [string, Position][] = [
    ['Kumasi, Ghana', [-1.599623, 6.700956]],
    ['Mato Grosso, Brazil', [-55, -10]],
    ['Kuala Lumpur', [101.5, 3.1]],
    ['Paris', [2.35, 48.85]],
    ['São Tomé', [6.73, 0.33]],
    ['Viti Levu, Fiji', [178.4, -18.1]],
    ['Vanua Levu east of 180, Fiji', [-179.9, -16.8]],
  ];
  const sea: [string, Position][] = [
    ['Gulf of Guinea (Kumasi swapped)', [6.700956, -1.599623]],
    ['South Atlantic (Mato Grosso swapped)', [-10, -55]],
    ['Null Island', [0, 0]],
    ['mid-Atlantic', [-30, 0]],
    ['off Cape Coast, Ghana', [-1.2, 4.5]],
  ];
  for (const [name, at] of land) assert.equal(onLand(at), true, name);
  for (const [name, at] of sea) assert.equal(onLand(at), false, name);
});
