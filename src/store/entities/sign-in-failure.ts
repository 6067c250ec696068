import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** Failed sign-ins counted per account and client address, per client address and per account (src/accounts/sign-in-throttle.ts owns its SQL). */
export const SignInFailure = defineEntity({
  name: 'SignInFailure',
  tableName: 'sign_in_failures',
  properties: {
    /** `pair:<sha256 of the email>:<client address>`, `address:<client address>` or `account:<sha256 of the email>`. */
    key: p.string().primary(),
    failures: p.integer(),
    lastFailedAt: p.datetime(),
    /** Sign-in under this key is refused until then; null below the free failures. */
    blockedUntil: p.datetime().nullable(),
  },
});
export type SignInFailure = InferEntity<typeof SignInFailure>;
