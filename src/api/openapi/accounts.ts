import { FIRST_BLOCK_SECONDS, FREE_FAILURES, KNOWN_CLIENT_DAYS, MAX_BLOCK_SECONDS } from '../../accounts/sign-in-throttle.ts';
import { SEAT_ROLES } from '../../store/entities/index.ts';
import { authRefusals, json, nullable, ref, refusal, timestamp, uuid, type Schema } from './common.ts';

export const accountSchemas: Record<string, Schema> = {
  Health: {
    type: 'object',
    required: ['status'],
    description:
      'An anonymous caller gets only `status`. A caller with a valid API key (any role) or a signed-in session also gets `role` and each dependency\'s check, with its error when it fails; no file paths in either. `status` is `degraded` (503) when a dependency is down or the intake is stalled: an upload judged past FILE_TIME_BUDGET_MS whose thread has not stopped, or one that has waited longer than that for an intake thread.',
    properties: {
      status: { enum: ['ok', 'degraded'] },
      role: { enum: ['serve', 'api', 'worker'] },
      database: { type: 'object', required: ['ok'], properties: { ok: { type: 'boolean' }, backend: { enum: ['postgresql', 'pglite'] }, error: { type: 'string' } } },
      queue: { type: 'object', required: ['ok'], properties: { ok: { type: 'boolean' }, error: { type: 'string' } } },
      archive: {
        type: 'object',
        required: ['ok'],
        properties: { ok: { type: 'boolean' }, kind: { enum: ['demo', 'public'] }, synthetic: { type: 'boolean' }, error: { type: 'string' } },
      },
      intake: {
        type: 'object',
        required: ['ok', 'running', 'waiting', 'longest_running_ms', 'longest_waiting_ms', 'stopped'],
        description: 'This process\'s upload threads: uploads judged and waiting for a turn, the longest of each, and uploads stopped at FILE_TIME_BUDGET_MS since the start; `error` says why it is stalled.',
        properties: {
          ok: { type: 'boolean' },
          running: { type: 'integer' },
          waiting: { type: 'integer' },
          longest_running_ms: { type: 'integer' },
          longest_waiting_ms: { type: 'integer' },
          stopped: { type: 'integer' },
          error: { type: 'string' },
        },
      },
    },
  },
  SignIn: {
    type: 'object',
    required: ['user', 'workspaces', 'expires_at'],
    properties: {
      user: { type: 'object', required: ['id', 'email'], properties: { id: uuid, email: { type: 'string' } } },
      workspaces: {
        type: 'array',
        items: {
          type: 'object',
          required: ['id', 'role'],
          properties: { id: uuid, name: nullable({ type: 'string' }), plan: nullable({ type: 'string' }), role: { enum: [...SEAT_ROLES] } },
        },
      },
      expires_at: timestamp,
    },
  },
  ApiKey: {
    type: 'object',
    required: ['id', 'prefix', 'role', 'label', 'created_at', 'last_used_at', 'revoked_at'],
    additionalProperties: false,
    properties: {
      id: uuid,
      prefix: { type: 'string', description: 'The public start of the key, to tell keys apart.' },
      role: { enum: [...SEAT_ROLES], description: '`portal`: reaches /portal, /eudr/alerts, /tiles, /change/tiles. `member`: a workspace member key, reaching every family. `reviewer`: a workspace member key that also files and withdraws archive review readings.' },
      label: nullable({ type: 'string' }),
      created_at: timestamp,
      last_used_at: nullable(timestamp),
      revoked_at: nullable(timestamp),
    },
  },
  ApiKeyShownOnce: {
    type: 'object',
    required: ['id', 'key', 'prefix', 'role', 'label', 'workspace_id', 'created_at', 'note'],
    additionalProperties: false,
    properties: {
      id: uuid,
      key: { type: 'string', description: 'The whole key, `pce_<public>_<secret>`. Shown once; only its SHA-256 is stored. Keys do not expire; revoke them.' },
      prefix: { type: 'string' },
      role: { enum: [...SEAT_ROLES] },
      label: nullable({ type: 'string' }),
      workspace_id: uuid,
      created_at: timestamp,
      note: { type: 'string' },
    },
  },
  Workspace: {
    type: 'object',
    required: ['id', 'name', 'plan', 'seat', 'allowance'],
    properties: {
      id: uuid,
      name: { type: 'string' },
      plan: { enum: ['standard', 'trial', 'professional', 'enterprise'] },
      seat: { type: 'object', required: ['role', 'via'], properties: { role: { enum: [...SEAT_ROLES] }, via: { enum: ['key', 'session'] } } },
      allowance: {
        type: 'object',
        required: ['cap', 'used', 'window_days'],
        description: 'Plot reads finished in the last `window_days` days; `cap` is null on uncapped plans and 0 on Standard.',
        properties: { cap: nullable({ type: 'integer' }), used: { type: 'integer' }, window_days: { const: 30 } },
      },
    },
  },
  ApiKeyList: {
    type: 'object',
    required: ['keys', 'max_active'],
    properties: { keys: { type: 'array', items: ref('ApiKey') }, max_active: { const: 5 } },
  },
};

const sessionRefusals = {
  ...authRefusals,
  '400': refusal('A session without a workspace, or one named by ?workspace= on a call other than GET (use X-Workspace-Id)', ['workspace_required']),
  '403': refusal('Called with an API key instead of a session, a portal seat on the studio route, or a session call from another site', ['session_required', 'forbidden', 'cross_site']),
};
const keyLabel = { content: { 'application/json': { schema: ref('ApiKeyRequest') } } };

export const accountPaths = {
  '/health': {
    get: {
      operationId: 'getHealth',
      summary: 'Service status; database, queue, archive and intake checks for a caller with credentials',
      security: [],
      responses: { '200': json(ref('Health')), '503': json(ref('Health'), 'A dependency is down or the intake is stalled') },
    },
  },
  '/workspace': {
    get: {
      operationId: 'getWorkspace',
      summary: 'The caller\'s workspace, seat and evidence allowance (workspace members)',
      responses: { '200': json(ref('Workspace')), ...authRefusals, '400': refusal('A session without a workspace', ['workspace_required']) },
    },
  },
  '/auth/sign-in': {
    post: {
      operationId: 'signIn',
      summary: 'Sign in with email and password; sets the session cookie `pce_session`',
      security: [],
      requestBody: {
        required: true,
        content: { 'application/json': { schema: ref('SignInRequest') } },
      },
      description:
        `An unknown email takes as long to refuse as a wrong password. Failed sign-ins limit the rate of guessing, not the owner: they are counted per account and client address (${FREE_FAILURES.pair} free), per client address (${FREE_FAILURES.address} free) and per account from every address together (${FREE_FAILURES.account} free); past a count's free failures, sign-in is refused with 429 for ${FIRST_BLOCK_SECONDS} s, doubling with each further failure up to ${MAX_BLOCK_SECONDS / 60} minutes. The per-account count does not hold back a client address that has signed in to the account in the last ${KNOWN_CLIENT_DAYS} days, so the owner's usual client signs in while others guess. A success clears its client's count at the account. A sign-in from another site's page (Sec-Fetch-Site other than same-origin or none, or an Origin other than the service's) is refused with 403 \`cross_site\`. The cookie is \`Secure\` when BASE_URL is https or a trusted proxy (TRUST_PROXY) forwarded an https request.`,
      responses: {
        '200': json(ref('SignIn')),
        '401': refusal('Email or password not recognised', ['unauthorized']),
        '403': refusal('Sent from another site\'s page', ['cross_site']),
        '422': refusal('A field is missing', ['email_required', 'password_required']),
        '429': {
          ...refusal('Too many failed sign-ins from this client at this account, from this address, or at this account from addresses that have not signed in to it; the `Retry-After` header gives the seconds to wait', ['too_many_attempts']),
          headers: { 'Retry-After': { description: 'Seconds until sign-in is accepted again', schema: { type: 'integer', minimum: 1 } } },
        },
      },
    },
  },
  '/auth/sign-out': {
    post: {
      operationId: 'signOut',
      summary: 'End the session',
      security: [],
      responses: {
        '204': { description: 'Signed out' },
        '403': refusal('Called from another site\'s page', ['cross_site']),
        '422': refusal('No session cookie', ['not_signed_in']),
      },
    },
  },
  '/api-keys': {
    post: {
      operationId: 'mintWorkspaceKey',
      summary: 'Mint a workspace-member key (studio), from a signed-in session; a reviewer seat mints a reviewer key',
      security: [{ session: [] }],
      requestBody: keyLabel,
      responses: { '201': json(ref('ApiKeyShownOnce'), 'The key, shown once'), ...sessionRefusals, '409': refusal('Five keys are already active', ['key_limit']) },
    },
  },
  '/portal/api-keys': {
    get: { operationId: 'listApiKeys', summary: 'List the workspace\'s keys (never the secrets)', security: [{ session: [] }], responses: { '200': json(ref('ApiKeyList')), ...sessionRefusals } },
    post: {
      operationId: 'mintPortalKey',
      summary: 'Mint a portal key, from a signed-in session',
      security: [{ session: [] }],
      requestBody: keyLabel,
      responses: { '201': json(ref('ApiKeyShownOnce'), 'The key, shown once'), ...sessionRefusals, '409': refusal('Five keys are already active', ['key_limit']) },
    },
  },
  '/portal/api-keys/{id}': {
    delete: {
      operationId: 'revokeApiKey',
      summary: 'Revoke a key',
      description: 'Answers once no API process takes the key any more: each keeps a key it verified for `KEY_CACHE_MS` (1 s by default), so the answer comes that long after the revocation is stored, and from then on every call with the key is refused 401.',
      security: [{ session: [] }],
      parameters: [{ name: 'id', in: 'path', required: true, schema: uuid }],
      responses: { '200': json(ref('ApiKey'), 'The revoked key'), ...sessionRefusals, '404': refusal('No such key in the workspace', ['not_found']) },
    },
  },
};
