/**
 * The acquisition date named in a scene identifier: Sentinel-2 (`S2A_47NPH_20200214_0_L2A`,
 * `S2B_MSIL2A_20240419T095549_R122_…`, `S2B_T10TFR_20231223T190950_L2A`) and Landsat
 * (`LC08_L2SP_129053_20200214_02_T1`) all carry it as the first eight-digit group after an
 * underscore. Null when an identifier names no valid date.
 */
export function sceneDate(id: string): string | null {
  const m = /_(\d{4})(\d{2})(\d{2})(?=T|_|$)/.exec(id);
  if (!m) return null;
  const iso = `${m[1]}-${m[2]}-${m[3]}`;
  const t = Date.parse(`${iso}T00:00:00Z`);
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === iso ? iso : null;
}
