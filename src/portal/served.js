// A part of the portal whose routes another release of the service may not have yet.
import { api, isMissingRoute } from './api.js';
import { clear, errorNotice, notice } from './ui.js';

/** Runs `show` with the answer of `path`, or says why there is none: not served yet, or refused. */
export async function showServed(box, title, path, show) {
  try {
    clear(box, show(await api('GET', path)));
  } catch (err) {
    clear(box, isMissingRoute(err) ? notice(`${title} are not served by this service yet: ${path.replace(/\?.*/, '')} is not one of its routes.`) : errorNotice(err, `${title} could not be listed`));
  }
}

