/**
 * The intake pool's task entry: an uploaded file parsed and its plots judged on a worker thread
 * (validation costs about 0.1 s per thousand polygons), so an upload never holds the API's event
 * loop. The plots' reports are serialized here one value after another into one buffer that moves
 * back whole: the calling thread then reads them back one at a time, a few milliseconds between
 * turns of its loop, rather than as one clone of the whole file. The closure is intake's parsers
 * and validation, and the checks of an alert batch built on them.
 */
import { DefaultSerializer } from 'node:v8';
import { judgeAlerts, type AlertJudgement, type AlertToJudge } from '../alerts/judge-alerts.ts';
import { answerMoving, ownBuffer } from '../engine/worker/transfer.ts';
import { DomainError, type ErrorCode } from '../errors.ts';
import { readPlotFile, type JudgeRequest } from './plot-file.ts';
import type { ParsedFile } from './types.ts';
import { judgeEachPlot, type IntakeReport } from './validate.ts';

/** A file's judgement as it crosses threads. */
export type JudgedFile =
  /** The whole file refused, as its DomainError says (an error's class and fields do not cross threads). */
  | { refusal: { code: ErrorCode; message: string } }
  | {
      report: Omit<IntakeReport, 'plots'>;
      /** A v8 serialization header, then the `count` plots' reports in file order, one value each. */
      plots: Uint8Array;
      count: number;
    };

export interface IntakeTasks {
  judge: { params: JudgeRequest; result: JudgedFile };
  alerts: { params: AlertToJudge[]; result: AlertJudgement };
}

/** An adjudicate batch's checks (src/alerts/judge-alerts.ts), off the event loop like a file's. */
export function alerts(batch: AlertToJudge[]): AlertJudgement {
  return judgeAlerts(batch);
}

export async function judge(request: JudgeRequest): Promise<JudgedFile> {
  let file: ParsedFile;
  try {
    file = await readPlotFile(request.bytes, request.filename, request.caps);
  } catch (error) {
    if (error instanceof DomainError) return { refusal: { code: error.code, message: error.message } };
    throw error;
  }
  // Each report is serialized as it is made and not kept: the thread holds the file and the bytes, not every report besides.
  const serializer = new DefaultSerializer();
  serializer.writeHeader();
  let count = 0;
  const report = judgeEachPlot(file, request, (plot) => {
    serializer.writeValue(plot);
    count++;
  });
  const bytes = ownBuffer(serializer.releaseBuffer());
  return answerMoving({ report, plots: bytes, count }, [bytes]);
}
