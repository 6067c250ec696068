import assert from 'node:assert/strict';
import type { IntakeCaps } from '../../src/intake/limits.ts';
import { readPlotFile } from '../../src/intake/plot-file.ts';

/** The refusal of a plot file read whole; fails the test when the file is read. */
export async function plotFileRefusal(bytes: Uint8Array, name?: string, caps?: IntakeCaps): Promise<{ code: string; message: string }> {
  try {
    await readPlotFile(bytes, name, caps);
  } catch (error) {
    return error as { code: string; message: string };
  }
  assert.fail('the file was read');
}
