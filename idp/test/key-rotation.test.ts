/** Rotation, retirement and placement of signing keys, with a controllable clock. */
import { randomBytes } from 'node:crypto';
import { createLocalJWKSet, signJwt, verifyJwt } from '@pqid/jose';
import { afterEach, describe, expect, it } from 'vitest';
import type { Kek } from '../src/crypto/kek.ts';
import { KeyManager, type KeyManagerOptions, RotationPending } from '../src/keys/key-manager.ts';
import { keyStates } from '../src/keys/lifecycle.ts';
import { SqliteStorage } from '../src/storage/sqlite.ts';

const kek: Kek = { key: randomBytes(32), source: 'env' };

describe('key lifecycle', () => {
  const stores: SqliteStorage[] = [];
  afterEach(async () => {
    for (const s of stores.splice(0)) await s.close();
  });
  let t = 1_000_000;
  const clock = () => t;
  function manager(opts: KeyManagerOptions = {}, storage = new SqliteStorage(':memory:')) {
    stores.push(storage);
    const km = new KeyManager(storage.adapter('SigningKey'), kek, {
      now: clock,
      prepublish: 600,
      retention: { tokens: 3600, cold: 86400 },
      ...opts,
    });
    return { km, storage };
  }

  it('derives next / active / retired from timestamps', () => {
    const keys = [
      { kid: 'a', alg: 'X', createdAt: 0 },
      { kid: 'b', alg: 'X', createdAt: 10, activateAt: 100 },
      { kid: 'c', alg: 'X', createdAt: 50, activateAt: 200 },
    ];
    const at = (now: number) =>
      Object.fromEntries([...keyStates(keys, now, () => 60).values()].map((s) => [s.kid, s.status]));
    expect(at(50)).toEqual({ a: 'active', b: 'next', c: 'next' });
    expect(at(150)).toEqual({ a: 'retired', b: 'active', c: 'next' });
    expect(at(250)).toEqual({ a: 'retired', b: 'retired', c: 'active' });
    expect(keyStates(keys, 250, () => 60).get('a')).toMatchObject({ retiredAt: 100, removeAt: 160 });
  });

  it('publishes the next key before it signs, then retires the old one until its tokens expire', async () => {
    t = 1_000_000;
    const { km } = manager();
    await km.ensure(['ML-DSA-44']);
    const first = await km.signingKey('ML-DSA-44');
    const token = await signJwt({}, first, { issuer: 'i', subject: 's', expiresIn: 3600 });

    const [next] = await km.rotate('ML-DSA-44');
    expect(next).toMatchObject({ status: 'next', activateAt: t + 600 });
    // Published at once, but the old key still signs.
    expect(km.jwks().keys.map((k) => k.kid)).toEqual([first.kid, next?.kid]);
    expect((await km.signingKey('ML-DSA-44')).kid).toBe(first.kid);
    await expect(km.rotate('ML-DSA-44')).rejects.toBeInstanceOf(RotationPending);

    t += 600;
    const second = await km.signerFor('id_token', 'ML-DSA-44');
    expect(second.kid).toBe(next?.kid);
    const states = Object.fromEntries(km.list().map((k) => [k.kid, k]));
    expect(states[first.kid]).toMatchObject({ status: 'retired', removeAt: t + 3600 });
    // A token signed by the retired key still verifies against the published JWKS.
    const jwks = await createLocalJWKSet(km.jwks());
    await expect(
      verifyJwt(token, jwks, { algorithms: ['ML-DSA-44'], currentDate: new Date(t * 1000) }),
    ).resolves.toBeDefined();

    t += 3600;
    expect(km.jwks().keys.map((k) => k.kid)).toEqual([next?.kid]);
    expect(await km.purge()).toEqual([first.kid]);
    expect(km.list()).toHaveLength(1);
  });

  it('--now activates at once; a restart (or another process) sees the same state', async () => {
    t = 2_000_000;
    const storage = new SqliteStorage(':memory:');
    const { km } = manager({}, storage);
    await km.ensure(['ES256']);
    const old = await km.signingKey('ES256');
    const [fresh] = await km.rotate('ES256', { immediate: true });
    expect(fresh?.status).toBe('active');
    expect((await km.signingKey('ES256')).kid).toBe(fresh?.kid);

    const other = new KeyManager(storage.adapter('SigningKey'), kek, { now: clock });
    await other.load();
    expect((await other.signingKey('ES256')).kid).toBe(fresh?.kid);
    expect(other.list().find((k) => k.kid === old.kid)?.status).toBe('retired');
  });

  it('a staged key is promoted early with immediate, and rotate() with no alg rotates every alg', async () => {
    t = 3_000_000;
    const { km } = manager();
    await km.ensure(['ML-DSA-44', 'ES256']);
    const staged = await km.rotate();
    expect(staged.map((k) => [k.alg, k.status]).sort()).toEqual([
      ['ES256', 'next'],
      ['ML-DSA-44', 'next'],
    ]);
    const [promoted] = await km.rotate('ES256', { immediate: true });
    expect(promoted?.kid).toBe(staged.find((k) => k.alg === 'ES256')?.kid);
    expect(promoted?.status).toBe('active');
  });

  it('placement pins hot objects to algorithms; the cold path is the root set, retained longer', async () => {
    t = 4_000_000;
    const { km } = manager({
      placement: { idToken: 'client', accessToken: 'ML-DSA-44', userinfo: 'client', cold: 'ML-DSA-87' },
      defaultAlg: 'ML-DSA-65',
    });
    // The cold algorithm is the root's: no OIDC key is made for it.
    expect(km.placementAlgs().sort()).toEqual(['ML-DSA-44']);
    expect((await km.signerFor('id_token', 'ES256')).alg).toBe('ES256');
    expect((await km.signerFor('id_token')).alg).toBe('ML-DSA-65');
    expect((await km.signerFor('access_token', 'ES256')).alg).toBe('ML-DSA-44');
    expect((await km.signerFor('userinfo', 'ML-DSA-44')).alg).toBe('ML-DSA-44');
    const cold = await km.signerFor('cold');
    expect(cold.alg).toBe('ML-DSA-87');
    expect(km.list().find((k) => k.kid === cold.kid)?.set).toBe('root');
    expect(km.jwks().keys.map((k) => k.kid)).not.toContain(cold.kid);
    // Rotating the algorithm rotates the hot sets only; the root rotates when named.
    await km.rotate('ML-DSA-87', { immediate: true });
    expect(km.list().find((k) => k.kid === cold.kid)?.status).toBe('active');
    await km.rotate('ML-DSA-87', { immediate: true, set: 'root' });
    expect(km.list().find((k) => k.kid === cold.kid)).toMatchObject({
      status: 'retired',
      removeAt: t + 86400,
    });
  });

  it('keeps private keys sealed in storage', async () => {
    const { km, storage } = manager();
    await km.rotate('ML-DSA-65');
    const rows = await storage.adapter('SigningKey').list();
    expect(JSON.stringify(rows)).not.toContain('"priv"');
    expect(rows[0]?.payload.privateJwk).toMatchObject({ alg: 'A256GCM' });
  });

  describe('key sets', () => {
    it('keys compete only within their set: an oidc rotation leaves the saml key of that alg alone', async () => {
      t = 5_000_000;
      const { km } = manager();
      const oidc = await km.signingKey('ML-DSA-65');
      const saml = await km.signingKey('ML-DSA-65', 'saml');
      const root = await km.signingKey('ML-DSA-65', 'root');
      expect(new Set([oidc.kid, saml.kid, root.kid]).size).toBe(3);
      await km.rotate('ML-DSA-65', { set: 'oidc', immediate: true });
      expect((await km.signingKey('ML-DSA-65')).kid).not.toBe(oidc.kid);
      expect((await km.signingKey('ML-DSA-65', 'saml')).kid).toBe(saml.kid);
      expect((await km.signingKey('ML-DSA-65', 'root')).kid).toBe(root.kid);
      // The root is retained for the cold lifetime, a SAML key for the token lifetime.
      await km.rotate('ML-DSA-65', { set: 'root', immediate: true });
      await km.rotate('ML-DSA-65', { set: 'saml', immediate: true });
      const info = (kid: string) => km.list().find((k) => k.kid === kid);
      expect(info(root.kid)).toMatchObject({ set: 'root', status: 'retired', removeAt: t + 86400 });
      expect(info(saml.kid)).toMatchObject({ set: 'saml', status: 'retired', removeAt: t + 3600 });
    });

    it('rotate() and rotate(alg) without a set: the hot sets only, never the root', async () => {
      t = 6_000_000;
      const { km } = manager();
      await km.ensure(['ML-DSA-44'], 'oidc');
      await km.ensure(['ML-DSA-65'], 'saml');
      await km.ensure(['ML-DSA-65'], 'root');
      const rotated = await km.rotate();
      expect(rotated.map((k) => [k.set, k.alg]).sort()).toEqual([
        ['oidc', 'ML-DSA-44'],
        ['saml', 'ML-DSA-65'],
      ]);
      // By algorithm: each hot set that has it (saml here), not the root's ML-DSA-65.
      const byAlg = await km.rotate('ML-DSA-65', { immediate: true });
      expect(byAlg.map((k) => k.set)).toEqual(['saml']);
      // An algorithm no set has yet: a first oidc key, active at once.
      const first = await km.rotate('ES256');
      expect(first.map((k) => [k.set, k.status])).toEqual([['oidc', 'active']]);
      await expect(km.rotate(undefined, { set: 'nope' as never })).rejects.toThrow(/unknown key set/);
    });

    it('jwks() is the oidc set, and the root only with publishRoot; publicKeys(set) is one set', async () => {
      t = 7_000_000;
      for (const publishRoot of [false, true]) {
        const { km } = manager({ publishRoot });
        const oidc = await km.signingKey('ML-DSA-44');
        const saml = await km.signingKey('ML-DSA-44', 'saml');
        const root = await km.signingKey('ML-DSA-87', 'root');
        expect(km.jwks().keys.map((k) => k.kid)).toEqual(publishRoot ? [oidc.kid, root.kid] : [oidc.kid]);
        expect(km.publicKeys('saml').keys.map((k) => k.kid)).toEqual([saml.kid]);
      }
    });

    it('records written before key sets: read as their legacy sets, migrated by load(), once', async () => {
      t = 8_000_000;
      const storage = new SqliteStorage(':memory:');
      const { km: writer } = manager({}, storage);
      const key = await writer.signingKey('ML-DSA-44');
      const store = storage.adapter('SigningKey');
      const [row] = await store.list();
      if (!row) throw new Error('no stored key');
      const { set: _set, ...legacy } = row.payload;
      await store.upsert(key.kid, legacy); // as the previous version stored it
      const legacySets = () => ['oidc', 'saml'] as const;

      const reader = new KeyManager(store, kek, { now: clock, legacySets });
      await reader.loadPublic(); // read-only: shows the migration, writes nothing
      expect(reader.list().map((k) => [k.set, k.kid])).toEqual([
        ['oidc', key.kid],
        ['saml', key.kid],
      ]);
      expect((await store.list()).map((r) => r.id)).toEqual([key.kid]);

      await reader.load();
      const rows = await store.list();
      // By set, not by sorting ids: the kid is random, and `saml:<kid>` sorts before a kid that
      // begins with t-z (one run in nine or so).
      expect(Object.fromEntries(rows.map((r) => [r.payload.set, r.id]))).toEqual({
        oidc: key.kid,
        saml: `saml:${key.kid}`,
      });
      expect(rows).toHaveLength(2);
      expect((await reader.signingKey('ML-DSA-44', 'saml')).kid).toBe(key.kid);
      expect((await reader.signingKey('ML-DSA-44')).kid).toBe(key.kid);
      await reader.load();
      expect(await store.list()).toEqual(rows);
      // Rotating the saml copy away leaves the oidc one signing; purging it keeps the handle.
      await reader.rotate('ML-DSA-44', { set: 'saml', immediate: true });
      t += 3600;
      expect(await reader.purge()).toEqual([key.kid]);
      expect((await reader.signingKey('ML-DSA-44')).kid).toBe(key.kid);
      expect((await store.list()).map((r) => r.id)).not.toContain(`saml:${key.kid}`);
    });
  });
});
