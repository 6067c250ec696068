// `npm run bench -- statement [plots] [vertices]`: building and schema-checking the due diligence
// statement of a batch of 10,000 plots (default), each a polygon of 40 vertices (default) among 500
// producers, as a documents thread does it: payload and business rules, GeoJSON per producer in
// base64, the XML, and the check against the V3 schemas with libxml2 (xmllint-wasm).
//
// Reference in the same run: JSON.stringify of the same plots as one plain FeatureCollection
// (`ratio_to_stringify`), the least any statement of them costs. Peak RSS is sampled every 20 ms
// over the whole build and check, against before it; the geolocation is set against the
// information system's 25 MB limit.
import { loadConfig } from '../src/config.ts';
import type { PlotGeometry, Position } from '../src/intake/types.ts';
import { buildStatement, V3_LIMITS } from '../src/statements/payload.ts';
import { statementXml } from '../src/statements/xml.ts';
import { checkSchema } from '../src/statements/schema-check.ts';
import { statement } from '../src/statements/statement-task.ts';
import { statementFacts, filingPlot } from '../test/statements/facts.ts';

const round = (x: number, digits = 1) => Number(x.toFixed(digits));
const MB = 1024 * 1024;

function ring(lon: number, lat: number, vertices: number): Position[] {
  const r = 0.0025;
  const points: Position[] = Array.from({ length: vertices }, (_, i) => {
    const a = (2 * Math.PI * i) / vertices;
    return [lon + r * Math.cos(a) + 1e-9 * i, lat + r * Math.sin(a)];
  });
  return [...points, points[0]];
}

export default async function run(args: string[]): Promise<void> {
  const n = Number(args[0] ?? 10_000);
  const vertices = Number(args[1] ?? 40);
  const schemaDir = loadConfig({}).tracesSchemaDir;
  const plots = Array.from({ length: n }, (_, i) => filingPlot({
    external_ref: `P-${i}`,
    producer_name: `Producer ${i % 500}`,
    area_ha: 19.6,
    geometry: { type: 'Polygon', coordinates: [ring(-3 + (i % 100) * 0.006, 6 + Math.floor(i / 100) * 0.006, vertices)] } satisfies PlotGeometry,
  }));
  const facts = statementFacts({ plots });

  // Warm-up: the schemas read and compiled once, the wasm module loaded.
  await statement({ facts: statementFacts(), format: 'json', schemaDir });

  const t0 = performance.now();
  const reference = JSON.stringify({ type: 'FeatureCollection', features: plots.map((p) => ({ type: 'Feature', properties: { ProductionPlace: p.external_ref }, geometry: p.geometry })) });
  const stringifyMs = performance.now() - t0;

  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => { rssPeak = Math.max(rssPeak, process.memoryUsage().rss); }, 20);
  const t1 = performance.now();
  const built = buildStatement(facts);
  const t2 = performance.now();
  const xml = statementXml(built.payload);
  const t3 = performance.now();
  const check = await checkSchema(xml, schemaDir);
  const t4 = performance.now();
  clearInterval(sampler);
  rssPeak = Math.max(rssPeak, process.memoryUsage().rss);

  const result = {
    plots: n,
    vertices_per_plot: vertices,
    producers: built.payload.statement.commodities[0].producers.length,
    build_ms: round(t2 - t1),
    xml_ms: round(t3 - t2),
    schema_check_ms: round(t4 - t3),
    total_s: round((t4 - t1) / 1000, 2),
    schema_valid: check.checked && check.valid,
    problems: built.problems.map((p) => p.code),
    geolocation_mb: round(built.geolocationBytes / MB, 2),
    geolocation_limit_mb: V3_LIMITS.geolocationBytes / MB,
    share_of_limit: round(built.geolocationBytes / V3_LIMITS.geolocationBytes, 3),
    xml_mb: round(xml.length / MB, 2),
    rss_before_mb: round(rssBefore / MB),
    rss_peak_mb: round(rssPeak / MB),
    stringify_ms: round(stringifyMs),
    stringify_mb: round(reference.length / MB, 2),
    ratio_to_stringify: round((t4 - t1) / stringifyMs),
  };
  console.log(`statement of ${n} plots (${vertices} vertices each, ${result.producers} producers): build ${result.build_ms} ms, XML ${result.xml_ms} ms, ` +
    `schema check ${result.schema_check_ms} ms (${result.schema_valid ? 'valid' : 'INVALID'}); geolocation ${result.geolocation_mb} MB of the ${result.geolocation_limit_mb} MB limit; ` +
    `peak RSS ${result.rss_peak_mb} MB (from ${result.rss_before_mb}); ×${result.ratio_to_stringify} a plain JSON.stringify of the plots (${result.stringify_ms} ms)`);
  console.log(JSON.stringify(result));
}
