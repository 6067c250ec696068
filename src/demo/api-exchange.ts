// One request to the demo world's API-shaped sources and its answer, as plain values: the
// in-process client hands them to the answering functions directly, and a test server can put
// the same functions behind HTTP.

export interface ApiRequest {
  method: string;
  /** Path and query as the real host sees them (`/data-api.globalforestwatch.org/dataset/…`). */
  url: URL;
  /** Header names in lower case. */
  headers: Readonly<Record<string, string | undefined>>;
  /** Read only by the function that answers, so one that declines leaves the body to the next. */
  body(): Promise<string>;
}

export interface ApiAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Answers a request it serves, or null to leave it to another. */
export type ApiRoute = (req: ApiRequest) => Promise<ApiAnswer | null>;
