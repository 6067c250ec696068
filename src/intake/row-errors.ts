import { MAX_ROW_ERRORS } from './limits.ts';
import type { RowError } from './types.ts';

/**
 * A file's row errors as its report carries them: the first MAX_ROW_ERRORS listed, the rest only
 * counted, so a file of millions of bad rows costs no more to report than one of a hundred.
 */
export function rowErrorLog() {
  const listed: RowError[] = [];
  let omitted = 0;
  return {
    add(error: RowError) {
      if (listed.length < MAX_ROW_ERRORS) listed.push(error);
      else omitted++;
    },
    fields: () => ({ row_errors: listed, row_errors_omitted: omitted }),
  };
}
