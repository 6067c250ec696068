import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Middleware } from 'koa';
import { COMMODITY_ALIASES, COMMODITY_SCOPES, POST_CUTOFF_LOSS_HEADLINE, REASON_MEANINGS, VERDICT_MEANINGS } from '../documents/meanings.ts';
import { OPENSSL_NOTE, opensslCommands, verificationSteps } from '../documents/verification.ts';
import { NDVI_STOPS } from '../engine/map-layers.ts';

/** The portal's own files: plain ES modules, HTML and CSS, served as they are (no build step). */
const PORTAL_DIR = fileURLToPath(new URL('../portal/', import.meta.url));

/**
 * Library files the portal loads, served from the installed packages under /vendor/<package>/<file>.
 * Only these paths are served, so nothing else under node_modules is reachable.
 */
export const VENDORED: Record<string, Record<string, string>> = {
  leaflet: {
    'leaflet.js': 'dist/leaflet-src.esm.js',
    'leaflet.css': 'dist/leaflet.css',
    'images/layers.png': 'dist/images/layers.png',
    'images/layers-2x.png': 'dist/images/layers-2x.png',
    'images/marker-icon.png': 'dist/images/marker-icon.png',
    'images/marker-icon-2x.png': 'dist/images/marker-icon-2x.png',
    'images/marker-shadow.png': 'dist/images/marker-shadow.png',
  },
  uplot: {
    'uPlot.js': 'dist/uPlot.esm.js',
    'uPlot.css': 'dist/uPlot.min.css',
  },
  // Natural Earth's 1:50m countries and land (public domain) as TopoJSON: the maps' base, drawn in the browser.
  'world-atlas': {
    'countries-50m.json': 'countries-50m.json',
  },
};

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
};

/**
 * The pages load scripts, styles and images from this origin only and talk to this origin's API;
 * inline styles are allowed because the map and chart libraries position their elements with them.
 */
const PAGE_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');

interface Asset {
  type: string;
  body: Buffer;
}

const asset = (name: string, body: Buffer): Asset => ({ type: TYPES[extname(name)] ?? 'application/octet-stream', body });

/** Every file the portal serves, read once at start: a few hundred kilobytes, so no request touches the disk. */
function portalAssets(): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const name of readdirSync(PORTAL_DIR, { recursive: true, encoding: 'utf8' })) {
    if (!(extname(name) in TYPES)) continue;
    assets.set(`/assets/${name.split('\\').join('/')}`, asset(name, readFileSync(join(PORTAL_DIR, name))));
  }
  const require = createRequire(import.meta.url);
  for (const [pkg, files] of Object.entries(VENDORED)) {
    const root = dirname(require.resolve(`${pkg}/package.json`));
    for (const [served, file] of Object.entries(files)) assets.set(`/vendor/${pkg}/${served}`, asset(file, readFileSync(join(root, file))));
  }
  // The plain words of verdicts and reasons, and how to verify a signature, come from the text the
  // documents use; the page puts the plot's own addresses and digest in place of the {…} names. The
  // NDVI layer's legend is drawn from the stops its tiles are coloured with.
  const verification = { steps: verificationSteps('the "evidence" member of GET {evidence_url}', '{public_key_url}'), openssl_note: OPENSSL_NOTE, openssl: opensslCommands('{digest}') };
  const meanings = JSON.stringify({ verdicts: VERDICT_MEANINGS, reasons: REASON_MEANINGS, verification, post_cutoff_loss: POST_CUTOFF_LOSS_HEADLINE, commodity_scopes: COMMODITY_SCOPES, commodity_aliases: COMMODITY_ALIASES, ndvi_stops: NDVI_STOPS });
  assets.set('/assets/meanings.json', asset('meanings.json', Buffer.from(meanings)));
  return assets;
}

/**
 * The browser portal at `/`: one page whose modules call the API under /api/v1 with the session cookie,
 * and the files it loads. Any other path goes on to the API's routers.
 */
export function servePortal(): Middleware {
  const assets = portalAssets();
  assets.set('/', assets.get('/assets/index.html')!);
  return async (ctx, next) => {
    const found = ctx.method === 'GET' || ctx.method === 'HEAD' ? assets.get(ctx.path) : undefined;
    if (!found) return next();
    if (ctx.path === '/') ctx.set('Content-Security-Policy', PAGE_POLICY);
    // Revalidated on every load, so a new release is picked up at once.
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = found.type;
    ctx.body = found.body;
  };
}
