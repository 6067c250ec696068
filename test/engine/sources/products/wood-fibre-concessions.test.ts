import { test } from 'node:test';
import assert from 'node:assert/strict';
import { booleanIntersects } from '@turf/turf';
import { createHttpClient } from '../../../../src/engine/sources/http-client.ts';
import { answering, startArchiveServer } from '../../../support/archive-server.ts';
import { gfwDataApiRoutes } from '../../../../src/demo/gfw-routes.ts';
import { DEMO_SITES } from '../../../../src/demo/sites.ts';
import { buildSiteModel } from '../../../../src/demo/site-model.ts';
import { DEMO_SEED } from '../../../../src/demo/world.ts';
import { DEFAULT_LICENCE_TYPE } from '../../../../src/engine/sources/products/wood-fibre-concessions/codes.ts';
import { createConcessionsAdapter } from '../../../../src/engine/sources/products/wood-fibre-concessions/reader.ts';
import { demoWorld } from '../../../support/demo-world.ts';

const plotOf = (name: string) => ({ type: 'Polygon' as const, coordinates: [buildSiteModel(DEMO_SITES.find((s) => s.name === name)!, DEMO_SEED).lonLatRing] });

test('finds the concession a demo plot lies in, with its class and outline but not its name', async () => {
  const { root } = await demoWorld();
  const server = await startArchiveServer({ root, routes: [answering(gfwDataApiRoutes({ root }))] });
  const http = createHttpClient({ retries: 0 });
  try {
    const concessions = createConcessionsAdapter({ where: { root: server.url, synthetic: true }, http, apiKey: 'any' });
    const inside = await concessions.read(plotOf('id-jambi-pulpwood-concession'));
    assert.equal(inside.features.length, 1);
    assert.equal(inside.features[0].licenceType, DEFAULT_LICENCE_TYPE);
    assert.ok(booleanIntersects(inside.features[0].geometry, plotOf('id-jambi-pulpwood-concession')));
    assert.ok(!JSON.stringify(inside).includes('Demo HTI concession'));
    assert.equal((await concessions.read(plotOf('id-kalbar-rubber'))).features.length, 0);
    server.setFaults({ status: { match: 'gfw_wood_fiber', status: 503 } });
    await assert.rejects(concessions.read(plotOf('id-kalbar-rubber')));
  } finally {
    http.close();
    await server.close();
  }
});
