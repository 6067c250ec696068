import { authRefusals, json, nullable, ref, refusal, timestamp, uuid, type Schema } from './common.ts';

export const archiveReadingSchemas: Record<string, Schema> = {
  ArchiveReadingRecord: {
    type: 'object',
    required: ['reading', 'integrity', 'served', 'filed_by', 'withdrawn'],
    additionalProperties: false,
    properties: {
      reading: ref('ArchiveReading'),
      integrity: ref('Integrity'),
      served: { type: 'boolean', description: 'Served with the plot\'s live evidence (`archive_review`): not withdrawn, and filed with the evidence the plot now holds. A reading filed with evidence since read again stays on the record, not served.' },
      filed_by: { type: 'string', description: 'Who filed it: `user:<id>` (a signed-in reviewer), `key:<id>` (a reviewer\'s API key) or `operator` (the admin command).' },
      withdrawn: nullable({
        type: 'object',
        required: ['at', 'by', 'reason'],
        additionalProperties: false,
        description: 'Set once the reading is withdrawn; the reading and its signature stay on the record.',
        properties: { at: timestamp, by: { type: 'string', description: 'In the form of `filed_by`.' }, reason: nullable({ type: 'string' }) },
      }),
    },
  },
  ArchiveReadingList: {
    type: 'object',
    required: ['readings'],
    additionalProperties: false,
    properties: { readings: { type: 'array', items: ref('ArchiveReadingRecord'), description: 'Newest first.' } },
  },
};

const plotId = { name: 'id', in: 'path', required: true, schema: uuid };
const readingId = { name: 'reading_id', in: 'path', required: true, schema: uuid };
const reviewerOnly = refusal('Not a reviewer seat (a portal key, or a member without the reviewer role), or a withdrawal by someone other than the reviewer who filed the reading', ['forbidden', 'cross_site']);

export const archiveReadingPaths = {
  '/portal/plots/{id}/archive-readings': {
    post: {
      operationId: 'fileArchiveReading',
      summary: 'File a dated reading of a sub-metre archive scene against the plot\'s evidence (a reviewer seat)',
      description:
        'The review a withheld plot goes on to (`next_step.code` `archive_imagery_review`). The reading is signed on its own under the evidence key and served with the evidence as `archive_review` (the evidence route, the register detail and the document\'s own page); the evidence object, its verdict and its signature are unchanged. When the scene is dated on or before 2020-12-31, shows the plot `cultivated` and covers the whole plot (`plot_share` 1), the plot\'s `state` reads "Cultivated on the archive scene date" (tone `finding`). The `archive.reading.filed` event carries the reading. One reading is served at a time: withdraw it to file another.',
      parameters: [plotId],
      requestBody: { required: true, content: { 'application/json': { schema: ref('FileArchiveReadingRequest') } } },
      responses: {
        '201': json(ref('ArchiveReview'), 'Filed: the reading as the evidence route now carries it'),
        '401': authRefusals['401'],
        '403': reviewerOnly,
        '404': refusal('No such plot in the workspace', ['not_found']),
        '409': refusal(
          'The plot has no finished evidence (the message names its state), carries a positive finding, or already has a reading served (withdraw it first)',
          ['no_evidence', 'finding_issued', 'reading_on_record'],
        ),
        '422': refusal('A field missing or malformed; an acquisition date after today', ['bad_scene_id', 'bad_provider', 'bad_acquired_on', 'bad_observed', 'bad_plot_share', 'bad_reviewer', 'bad_statement', 'bad_body']),
      },
    },
    get: {
      operationId: 'listArchiveReadings',
      summary: 'Every reading filed against the plot, withdrawn ones and those filed with earlier evidence included, newest first',
      parameters: [plotId],
      responses: { '200': json(ref('ArchiveReadingList')), ...authRefusals, '404': refusal('No such plot in the workspace', ['not_found']) },
    },
  },
  '/portal/plots/{id}/archive-readings/{reading_id}/withdraw': {
    post: {
      operationId: 'withdrawArchiveReading',
      summary: 'Withdraw a reading (the reviewer who filed it): it is no longer served and stays on the record',
      description: 'The plot\'s `state` no longer shows what the reading supported. Only the key or session that filed the reading withdraws it; the operator may withdraw any with the admin command.',
      parameters: [plotId, readingId],
      requestBody: { required: false, content: { 'application/json': { schema: ref('WithdrawArchiveReadingRequest') } } },
      responses: {
        '200': json(ref('ArchiveReadingRecord'), 'Withdrawn'),
        '401': authRefusals['401'],
        '403': reviewerOnly,
        '404': refusal('No such plot in the workspace, or no such reading on the plot', ['not_found']),
        '409': refusal('The reading is already withdrawn', ['already_withdrawn']),
        '422': refusal('`reason` is not a string of 1 to 500 characters', ['bad_reason', 'bad_body']),
      },
    },
  },
};
