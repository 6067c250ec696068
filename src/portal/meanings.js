// Verdicts and reasons in plain words, and how to verify a signature: the service's own text, fetched once.
let loaded = null;

export function meanings() {
  loaded ??= fetch('assets/meanings.json').then((r) => r.json());
  return loaded;
}
