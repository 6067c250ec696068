/** The alert limits of spec 8, in one place: adjudication, scans and their checks read them here. */
export const ALERT_LIMITS = {
  /** Alerts in one adjudicate call. */
  maxAlerts: 500,
  /** The largest footprint adjudicated (5 km2). */
  maxFootprintHa: 500,
  /** The evidence floor: a smaller footprint is read over a square of this area centred on it. */
  windowHa: 4,
  /** The earliest alert date, and the earliest scan start. */
  earliestDate: '2021-01-01',
  /** Plots in one scan call. */
  maxScanPlots: 50,
  /** Alert pixels of one plot a scan clusters; a plot with more is reported `truncated`. */
  maxPixelsPerPlot: 1_000_000,
  /** Published alerts in one scan window. */
  maxScanAlerts: 500,
  /** Pixels that touch and were detected within this many days of one another are one alert. */
  clusterDays: 90,
  /** References named in a refusal's message. */
  refsNamed: 10,
} as const;
