import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** Failed sign-ins counted per account or per client address (src/accounts/sign-in-throttle.ts owns its SQL). */
export const SignInFailure = defineEntity({
  name: 'SignInFailure',
  tableName: 'sign_in_failures',
  properties: {
    /** `account:<sha256 of the email>` or `address:<client address>`. */
    key: p.string().primary(),
    failures: p.integer(),
    lastFailedAt: p.datetime(),
    /** Sign-in under this key is refused until then; null below the free failures. */
    blockedUntil: p.datetime().nullable(),
  },
});
export type SignInFailure = InferEntity<typeof SignInFailure>;
