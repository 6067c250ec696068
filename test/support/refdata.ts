/** Every real plot file of the reference data (path under ../shared/refdata/plots), its plot count, and the country it lies in where the file does not say. */
export const REAL_FILES: [string, number, string | null][] = [
  ['whisp/geojson_example.geojson', 50, null],
  ['whisp/shapefile_example.zip', 31, null],
  ['whisp/nBR_plots_soy_before2020.geojson', 1, 'BR'],
  ['whisp/nBR_plots_pasture_after2020.geojson', 1, 'BR'],
  ['whisp-app/CICC_plots_subset_simple.geojson', 18, 'CM'],
  ['whisp-app/feature_collection_gha.geojson', 2, 'GH'],
  ['mfrntic-eudr-api-client/poligon.geojson', 1, 'HR'],
];
