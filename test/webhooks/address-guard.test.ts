/**
 * The address guard (spec 4.8): every forbidden form of address is refused with bad_url and a
 * message naming the rule, whether written in the URL, spelled another way, or reached through a
 * host name; the test-only loopback switch admits loopback alone and is refused in production.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { DomainError } from '../../src/errors.ts';
import { addressGuard, type Resolve } from '../../src/webhooks/address-guard.ts';

const strict = addressGuard({ allowLoopback: false, resolve: async () => [{ address: '93.184.215.14', family: 4 }] });

async function refusal(guard: ReturnType<typeof addressGuard>, url: string): Promise<string> {
  try {
    await guard.check(url);
  } catch (err) {
    assert.ok(err instanceof DomainError, url);
    assert.equal(err.code, 'bad_url', url);
    return err.message;
  }
  assert.fail(`${url} was accepted`);
}

/** [address as written in a URL host, the rule the message must name] */
const FORBIDDEN: [string, RegExp][] = [
  ['0.0.0.0', /unspecified/],
  ['127.0.0.1', /loopback/],
  ['127.9.8.7', /loopback/],
  ['10.0.0.1', /private/],
  ['172.16.5.4', /private/],
  ['172.31.255.254', /private/],
  ['192.168.1.1', /private/],
  ['169.254.169.254', /link-local.*metadata/],
  ['100.64.0.1', /carrier-grade NAT/],
  ['100.100.100.200', /carrier-grade NAT.*metadata/],
  ['224.0.0.251', /multicast/],
  ['255.255.255.255', /broadcast/],
  ['192.0.2.10', /documentation/],
  ['198.51.100.7', /documentation/],
  ['203.0.113.9', /documentation/],
  ['198.18.0.1', /benchmarking/],
  ['198.19.255.1', /benchmarking/],
  ['240.0.0.1', /reserved/],
  ['[::]', /unspecified/],
  ['[::1]', /loopback/],
  ['[fe80::1]', /link-local/],
  ['[fc00::1]', /unique-local/],
  ['[fd00:ec2::254]', /unique-local.*metadata/],
  ['[ff02::1]', /multicast/],
  ['[::ffff:127.0.0.1]', /IPv4-mapped/],
  ['[::ffff:10.0.0.1]', /IPv4-mapped/],
  ['[::ffff:0:a00:1]', /IPv4-translated/],
  ['[64:ff9b::a00:1]', /NAT64/],
  ['[64:ff9b::7f00:1]', /NAT64/],
  ['[64:ff9b:1::a00:1]', /NAT64/],
  ['[2002:7f00:1::]', /6to4/],
  ['[2001:0:4136:e378:8000:63bf:3fff:fdd2]', /Teredo/],
  ['[2001:db8::1]', /reserved, documentation/],
  ['[2001:2::1]', /benchmarking/],
  ['[fec0::1]', /site-local/],
];

const hex16 = (hi: number, lo: number) => ((hi << 8) | lo).toString(16);

/** Each IPv6 form that carries an IPv4 address: how it writes `ipv4`, and the words that name it. */
const CARRIERS: { form: string; write: (ipv4: string) => string; named: string }[] = [
  { form: 'IPv4-compatible', write: (v4) => `::${v4}`, named: 'IPv4-compatible' },
  { form: 'IPv4-mapped', write: (v4) => `::ffff:${v4}`, named: 'IPv4-mapped' },
  { form: 'IPv4-translated', write: (v4) => `::ffff:0:${v4}`, named: 'IPv4-translated' },
  { form: 'NAT64 well-known prefix', write: (v4) => `64:ff9b::${v4}`, named: 'NAT64' },
  { form: 'NAT64 local-use prefix', write: (v4) => `64:ff9b:1::${v4}`, named: 'NAT64' },
  {
    form: '6to4',
    write: (v4) => {
      const [a, b, c, d] = v4.split('.').map(Number);
      return `2002:${hex16(a, b)}:${hex16(c, d)}::1`;
    },
    named: '6to4',
  },
  {
    // A public Teredo server (65.54.227.120); the client's address in the last 32 bits, every bit inverted.
    form: 'Teredo',
    write: (v4) => {
      const [a, b, c, d] = v4.split('.').map((n) => 255 - Number(n));
      return `2001:0:4136:e378:8000:63bf:${hex16(a, b)}:${hex16(c, d)}`;
    },
    named: 'Teredo address whose client',
  },
];

/** Internal IPv4 addresses of each class, and the rule the message must name. */
const CARRIED: [string, RegExp][] = [
  ['127.0.0.1', /loopback/],
  ['127.9.8.7', /loopback/],
  ['10.0.0.5', /private/],
  ['192.168.1.1', /private/],
  ['169.254.169.254', /link-local.*metadata/],
  ['100.100.100.200', /carrier-grade NAT/],
  ['224.0.0.251', /multicast/],
  ['192.0.2.10', /documentation/],
  ['0.0.0.7', /unspecified/],
];

const PUBLIC_V4 = '93.184.215.14';
const escaped = (text: string) => text.replace(/[.[\]]/g, '\\$&');

describe('the webhook address guard', () => {
  test('refuses every non-public address written in the URL, naming the rule', async () => {
    for (const [host, rule] of FORBIDDEN) {
      const message = await refusal(strict, `https://${host}/hook`);
      assert.match(message, rule, host);
      assert.match(message, /webhook receivers must be on public addresses/, host);
    }
  });

  test('refuses other spellings of loopback (hex, decimal, octal, short forms) as the address they are', async () => {
    for (const host of ['0x7f000001', '2130706433', '0177.0.0.1', '127.1', '0x7f.1', '[::ffff:7f00:1]', '[0:0:0:0:0:ffff:127.0.0.1]']) {
      assert.match(await refusal(strict, `https://${host}/hook`), /loopback|IPv4-mapped/, host);
    }
  });

  test('refuses a host name that resolves to a forbidden address, and one with any forbidden address among public ones', async () => {
    for (const [host, rule] of FORBIDDEN) {
      const address = host.replace(/^\[|\]$/g, '');
      const resolve: Resolve = async () => [{ address, family: address.includes(':') ? 6 : 4 }];
      const message = await refusal(addressGuard({ allowLoopback: false, resolve }), 'https://hooks.example.test/in');
      assert.match(message, new RegExp(`the host hooks\\.example\\.test resolves to ${address.replace(/[.[\]]/g, '\\$&')}, which is`), host);
      assert.match(message, rule, host);
    }
    const mixed: Resolve = async () => [{ address: '93.184.215.14', family: 4 }, { address: '10.0.0.8', family: 4 }];
    assert.match(await refusal(addressGuard({ allowLoopback: false, resolve: mixed }), 'https://split.example.test/'), /resolves to 10\.0\.0\.8/);
  });

  test('refuses every IPv6 form that carries an internal IPv4 address, written in the URL, naming the form, the address and its class', async () => {
    for (const { form, write, named } of CARRIERS) {
      for (const [ipv4, rule] of CARRIED) {
        const message = await refusal(strict, `https://[${write(ipv4)}]/hook`);
        assert.match(message, new RegExp(`${named}.* ${escaped(ipv4)}, an? `), `${form} carrying ${ipv4}: ${message}`);
        assert.match(message, rule, `${form} carrying ${ipv4}`);
      }
    }
  });

  test('refuses a host name that resolves to any of those forms, as the resolver writes it (::127.0.0.1 included)', async () => {
    for (const { form, write, named } of CARRIERS) {
      for (const [ipv4, rule] of CARRIED) {
        const address = write(ipv4);
        const guard = addressGuard({ allowLoopback: false, resolve: async () => [{ address: PUBLIC_V4, family: 4 }, { address, family: 6 }] });
        const message = await refusal(guard, 'https://hooks.example.test/in');
        assert.match(message, new RegExp(`resolves to ${escaped(address)}, which is .*${named}.* ${escaped(ipv4)}, an? `), `${form} carrying ${ipv4}: ${message}`);
        assert.match(message, rule, `${form} carrying ${ipv4}`);
      }
    }
  });

  test('accepts a form that carries a public IPv4 address as that address would be, except the local-use NAT64 prefix', async () => {
    for (const { form, write } of CARRIERS) {
      const address = write(PUBLIC_V4);
      const guard = addressGuard({ allowLoopback: false, resolve: async () => [{ address, family: 6 }] });
      if (form === 'NAT64 local-use prefix') {
        assert.match(await refusal(strict, `https://[${address}]/hook`), /local-use NAT64 address/);
        assert.match(await refusal(guard, 'https://hooks.example.test/in'), /local-use NAT64 address/);
        continue;
      }
      assert.equal((await strict.check(`https://[${address}]/hook`)).family, 6, form);
      assert.equal((await guard.check('https://hooks.example.test/in')).address, address, form);
    }
  });

  test('refuses a Teredo address whose server is internal, whatever its client', async () => {
    // Server 10.0.0.1 (0a00:0001); client 93.184.215.14 inverted.
    assert.match(await refusal(strict, 'https://[2001:0:a00:1:8000:63bf:a247:28f1]/hook'), /Teredo address whose server is 10\.0\.0\.1, a private address/);
  });

  test('refuses localhost through the system resolver', async () => {
    assert.match(await refusal(addressGuard({ allowLoopback: false }), 'https://localhost/hook'), /the host localhost resolves to .*loopback/);
  });

  test('refuses a host that does not resolve, credentials, and any scheme but https', async () => {
    const nowhere: Resolve = async () => Promise.reject(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }));
    assert.match(await refusal(addressGuard({ allowLoopback: false, resolve: nowhere }), 'https://nowhere.example.test/'), /does not resolve \(ENOTFOUND\)/);
    assert.match(await refusal(strict, 'https://me:secret@hooks.example.com/'), /credentials/);
    assert.match(await refusal(strict, 'https://me@hooks.example.com/'), /credentials/);
    for (const url of ['http://hooks.example.com/', 'ftp://hooks.example.com/', 'file:///etc/passwd', 'javascript:alert(1)']) {
      assert.match(await refusal(strict, url), /must use https/, url);
    }
  });

  test('accepts a public address and pins the connection to the address it checked', async () => {
    const pinned = await strict.check('https://hooks.example.com/evidence?x=1');
    assert.deepEqual([pinned.url.hostname, pinned.address, pinned.family], ['hooks.example.com', '93.184.215.14', 4]);
    const v6 = await strict.check('https://[2606:4700:4700::1111]/in');
    assert.equal(v6.address, '2606:4700:4700::1111');
  });

  test('the loopback switch admits loopback, over http too, and nothing else that is not public', async () => {
    const loopback = addressGuard({ allowLoopback: true });
    assert.equal((await loopback.check('http://127.0.0.1:9/in')).address, '127.0.0.1');
    assert.equal((await loopback.check('https://[::1]:9/in')).address, '::1');
    assert.match(await refusal(loopback, 'https://10.0.0.1/'), /private/);
    assert.match(await refusal(loopback, 'https://[::ffff:127.0.0.1]/'), /IPv4-mapped/);
    assert.match(await refusal(loopback, 'https://[::127.0.0.1]/'), /IPv4-compatible/);
    assert.match(await refusal(loopback, 'http://93.184.215.14/'), /must use https/);
  });

  test('the loopback switch is off by default and refused when NODE_ENV=production', () => {
    assert.equal(loadConfig({}).webhookAllowLoopback, false);
    assert.equal(loadConfig({ WEBHOOK_ALLOW_LOOPBACK: 'on', NODE_ENV: 'test' }).webhookAllowLoopback, true);
    assert.throws(
      () => loadConfig({ WEBHOOK_ALLOW_LOOPBACK: 'on', NODE_ENV: 'production' }),
      (err: unknown) => err instanceof ConfigError && err.variable === 'WEBHOOK_ALLOW_LOOPBACK' && /production/.test(err.message),
    );
  });
});
