import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { fakeResolver } from '../helpers/resolver.ts';
import { checkTargetHost, isPublicAddress } from '../../platform/net/targets.ts';

const NON_PUBLIC = [
  // IPv4: unspecified, private, shared (CGNAT), loopback, link-local, multicast, broadcast, reserved
  '0.0.0.0', '10.0.0.1', '100.64.0.1', '100.127.255.254', '127.0.0.1', '169.254.169.254', '172.16.0.1', '192.168.0.1',
  '192.0.2.1', '198.18.0.1', '224.0.0.1', '239.255.255.250', '255.255.255.255', '240.0.0.1',
  // IPv6: unspecified, loopback, unique-local, link-local, multicast, documentation, Teredo
  '::', '::1', 'fc00::1', 'fd12:3456::1', 'fe80::1', 'ff02::1', '2001:db8::1', '2001::1',
  // IPv6 forms embedding a private IPv4: mapped, NAT64, 6to4, IPv4-compatible (dotted and hex spellings)
  '::ffff:127.0.0.1', '::ffff:a00:1', '64:ff9b::10.0.0.1', '64:ff9b::7f00:1', '2002:a00:1::1', '2002:7f00:1::', '::127.0.0.1', '::7f00:1', '::a9fe:a9fe',
  // NAT64 local-use prefix: refused whole
  '64:ff9b:1::808:808',
  'not-an-ip', '',
];
const PUBLIC = ['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::8.8.8.8', '2002:808:808::1'];

describe('outbound address policy', () => {
  it.each(NON_PUBLIC)('treats %s as non-public', (ip) => expect(isPublicAddress(ip)).toBe(false));
  it.each(PUBLIC)('treats %s as public', (ip) => expect(isPublicAddress(ip)).toBe(true));

  it('refuses a name when any of its addresses is non-public, and a name that does not resolve', async () => {
    const resolve = fakeResolver({ 'mixed.test': ['8.8.8.8', '10.0.0.1'], 'ok.test': ['8.8.8.8', '2606:4700::1'], 'empty.test': [] });
    expect(await checkTargetHost(new URL('https://ok.test/h'), resolve)).toBeNull();
    expect(await checkTargetHost(new URL('https://mixed.test/h'), resolve)).toMatch(/resolves to 10\.0\.0\.1/);
    expect(await checkTargetHost(new URL('https://empty.test/h'), resolve)).toMatch(/could not be resolved/);
    expect(await checkTargetHost(new URL('https://nowhere.test/h'), resolve)).toMatch(/could not be resolved/);
  });

  it('gives up on a resolver that does not answer in time', async () => {
    const never = () => new Promise<string[]>(() => {});
    expect(await checkTargetHost(new URL('https://slow.test/h'), never, 20)).toMatch(/could not be resolved/);
  });
});

describe('POST /v1/webhooks target checks', () => {
  let t: TestApp;
  let key: string;
  const resolver = fakeResolver({ 'internal.example.com': ['10.1.2.3'], 'metadata.example.com': ['169.254.169.254'], 'rebind.example.com': ['93.184.215.14', '::1'], 'nat64.example.com': ['64:ff9b::a00:1'] });
  const create = (url: string) => t.app.inject({ method: 'POST', url: '/v1/webhooks', headers: bearer(key), payload: { url } });

  beforeAll(async () => {
    t = await startTestApp({ resolveHost: resolver });
    key = await t.key({ tier: 'starter' });
  });
  afterAll(() => t.close());

  it.each([
    'http://127.0.0.1/h', 'http://localhost:8080/h', 'http://10.0.0.1/h', 'http://100.64.1.1/h', 'http://169.254.169.254/latest/meta-data',
    'http://224.0.0.1/h', 'http://0.0.0.0/h', 'http://[::1]/h', 'http://[::]/h', 'http://[fe80::1]/h', 'http://[fd00::1]/h',
    'http://[::ffff:127.0.0.1]/h', 'http://[64:ff9b::127.0.0.1]/h', 'http://[2002:7f00:1::]/h', 'http://[::127.0.0.1]/h',
    // decimal, octal, hex and short IPv4 spellings of 127.0.0.1 and 10.0.0.1
    'http://2130706433/h', 'http://0177.0.0.1/h', 'http://0x7f.0.0.1/h', 'http://0x7f000001/h', 'http://127.1/h', 'http://012.0.0.1/h', 'http://167772161/h',
    'https://internal.example.com/h', 'https://metadata.example.com/h', 'https://rebind.example.com/h', 'https://nat64.example.com/h', 'https://unknown-host.invalid/h',
  ])('refuses %s with 422 validation naming url', async (url) => {
    const res = await create(url);
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(Object.keys(body)[0]).toBe('error');
    expect(body.error).toBe('validation');
    expect(body.details).toEqual([expect.objectContaining({ location: 'body', field: 'url' })]);
    expect(body.message).toMatch(/public addresses only|could not be resolved/);
  });

  it('refuses credentials in the URL, even to a public host', async () => {
    for (const url of ['https://user:pass@hooks.example.com/h', 'https://user@hooks.example.com/h', 'https://:secret@hooks.example.com/h']) {
      const res = await create(url);
      expect(res.statusCode, url).toBe(422);
      expect(res.json().message).toMatch(/must not carry credentials/);
    }
  });

  it('accepts a public host by name and by address', async () => {
    for (const url of ['https://hooks.example.com/drugref', 'https://8.8.8.8/h', 'https://[2606:4700:4700::1111]/h']) {
      const res = await create(url);
      expect(res.statusCode, url).toBe(201);
    }
  });

  it('accepts private targets when WEBHOOK_ALLOW_PRIVATE_TARGETS is set, but never credentials', async () => {
    const allowing = await startTestApp({ config: { webhookAllowPrivateTargets: true }, resolveHost: resolver });
    try {
      const k = await allowing.key({ tier: 'starter' });
      const post = (url: string) => allowing.app.inject({ method: 'POST', url: '/v1/webhooks', headers: bearer(k), payload: { url } });
      expect((await post('http://127.0.0.1:9/hook')).statusCode).toBe(201);
      expect((await post('https://internal.example.com/h')).statusCode).toBe(201);
      expect((await post('http://u:p@127.0.0.1:9/hook')).statusCode).toBe(422);
    } finally {
      await allowing.close();
    }
  });
});
