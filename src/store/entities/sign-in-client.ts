import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * The client addresses each account has signed in from (src/accounts/sign-in-throttle.ts owns its
 * SQL): the account's own clients are not held back by the ceiling on failures from everywhere.
 */
export const SignInClient = defineEntity({
  name: 'SignInClient',
  tableName: 'sign_in_clients',
  properties: {
    /** `account:<sha256 of the email>`, the throttle's account key. */
    account: p.string().primary(),
    address: p.string().primary(),
    lastSignedInAt: p.datetime(),
  },
});
export type SignInClient = InferEntity<typeof SignInClient>;
