import Router from '@koa/router';
import { countryClassificationReference } from '../../engine/context/country-classification.ts';
import type { Services } from '../context.ts';

/** Public reference data: no key needed, so anyone can check a document against it. */
export function referenceRoutes(services: Services) {
  const router = new Router();
  router.get('/evidence/public-key', (ctx) => {
    ctx.body = { algorithm: 'Ed25519', key_id: services.signingKey.keyId, public_key_pem: services.signingKey.publicKeyPem };
  });
  router.get('/reference/country-classification', (ctx) => {
    ctx.body = countryClassificationReference();
  });
  return router;
}
