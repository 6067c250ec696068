/**
 * The intake pool's task entry: an uploaded file parsed and its plots judged on a worker thread
 * (validation costs about 0.1 s per thousand polygons), so an upload never holds the API's event
 * loop. Each plot's report is serialized here on its own, one after another in one buffer that
 * moves back whole: the calling thread then reads the reports a few milliseconds at a time rather
 * than as one clone of the whole file. The closure is intake's parsers and validation alone.
 */
import { Buffer } from 'node:buffer';
import { serialize } from 'node:v8';
import { answerMoving, ownBuffer } from '../engine/worker/transfer.ts';
import { IntakeError, type IntakeErrorCode } from './errors.ts';
import { judgePlotFile, type JudgeRequest } from './plot-file.ts';
import type { IntakeReport } from './validate.ts';

/** A file's judgement as it crosses threads. */
export type JudgedFile =
  /** The whole file refused, as its IntakeError says (an error's class and fields do not cross threads). */
  | { refusal: { status: number; code: IntakeErrorCode; message: string } }
  | {
      report: Omit<IntakeReport, 'plots'>;
      /** The plots' reports in file order, each v8-serialized; report i spans bytes ends[i - 1] (0 for the first) to ends[i]. */
      plots: Uint8Array;
      ends: Float64Array;
    };

export interface IntakeTasks {
  judge: { params: JudgeRequest; result: JudgedFile };
}

export async function judge(request: JudgeRequest): Promise<JudgedFile> {
  let judged: IntakeReport;
  try {
    judged = await judgePlotFile(request);
  } catch (error) {
    if (error instanceof IntakeError) return { refusal: { status: error.status, code: error.code, message: error.message } };
    throw error;
  }
  const { plots, ...report } = judged;
  const parts = plots.map((plot) => serialize(plot));
  const ends = new Float64Array(parts.length);
  let end = 0;
  parts.forEach((part, i) => (ends[i] = end += part.length));
  const bytes = ownBuffer(Buffer.concat(parts, end));
  return answerMoving({ report, plots: bytes, ends }, [bytes, new Uint8Array(ends.buffer)]);
}
