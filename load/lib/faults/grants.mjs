/**
 * The grant invariant: what k6 saw must match the database exactly.
 *  1. no double spend: no refresh token was rotated successfully (200) twice;
 *  2. k6's chains are consistent: every successful rotation presented the previous link (or a
 *     chain's initial token);
 *  3. for every chain whose grant is alive, the database holds exactly the refresh tokens k6
 *     saw issued for that grant (no token lost, none extra), every link but the last consumed
 *     and the last one not;
 *  4. a chain whose grant was revoked (k6 got invalid_grant) is explained: the token it
 *     presented had an earlier request that failed without a definite answer (502 lost in
 *     flight, 503, transport error), so the server may have rotated it without the client
 *     learning the new token; and the grant is gone entirely (no live refresh token left,
 *     tombstone present). A revocation without such a cause would be a lost grant.
 *  5. usable once: every chain head is redeemed once (200), and a second time (400 invalid_grant).
 */

/** @typedef {import('./types.d.ts').Line} Line */
/** @typedef {import('./types.d.ts').GrantCheck} GrantCheck */
/** @typedef {{ token: string, id: string }} Link a refresh token and its digest (the record id) */
/** @typedef {(sql: string, params: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>} Query */

/**
 * What the k6 lines say about rotations: each token's successor, the tokens whose rotation had
 * no definite answer, and the invalid_grant answers.
 * @param {Line[]} rows
 * @param {string[]} problems
 */
function rotations(rows, problems) {
  /** @type {Map<string | undefined, string | undefined>} */
  const next = new Map();
  for (const r of rows.filter((x) => x.grant === 'r' && x.status === 200 && x.fresh)) {
    if (next.has(r.old)) problems.push(`refresh token ${r.old?.slice(0, 8)}… rotated successfully twice`);
    next.set(r.old, r.fresh);
  }
  const uncertain = new Set(
    rows.filter((r) => r.grant === 'r' && r.old && (r.status === 0 || r.status >= 500)).map((r) => r.old),
  );
  const invalid = rows.filter((r) => r.grant === 'r' && r.status === 400 && r.error === 'invalid_grant');
  return { next, uncertain, invalid };
}

/**
 * A revoked grant: explained by an uncertain rotation of its last link, and gone from the database.
 * @param {Query} q
 * @param {string} grantId
 * @param {string[]} links
 * @param {Line} revokedAt
 * @param {number} liveRows refresh-token rows still in the database
 * @param {Set<string | undefined>} uncertain
 * @param {string[]} problems
 */
async function checkRevoked(q, grantId, links, revokedAt, liveRows, uncertain, problems) {
  const explained = uncertain.has(revokedAt.old) && revokedAt.old === links[links.length - 1];
  if (!explained)
    problems.push(`grant of chain ${links[0]?.slice(0, 8)}… revoked without a failed request before it`);
  if (liveRows) problems.push(`revoked grant ${grantId.slice(0, 8)}… still has ${liveRows} refresh tokens`);
  const { rows: tomb } = await q(`SELECT 1 FROM %T.revoked_grants WHERE grant_id = $1`, [grantId]);
  if (!tomb.length) problems.push(`revoked grant ${grantId.slice(0, 8)}… has no tombstone`);
  return explained;
}

/**
 * A live grant: the database holds exactly k6's links, all consumed but the last.
 * @param {string} grantId
 * @param {string[]} links
 * @param {Record<string, unknown>[]} dbRows
 * @param {string[]} problems
 */
function checkAlive(grantId, links, dbRows, problems) {
  const db = new Map(dbRows.map((r) => [r.id, r.consumed]));
  for (const [i, id] of links.entries()) {
    if (!db.has(id)) problems.push(`issued refresh token ${id.slice(0, 8)}… (link ${i}) not in the database`);
    else if (db.get(id) !== i < links.length - 1)
      problems.push(`refresh token ${id.slice(0, 8)}… (link ${i} of ${links.length}) consumed=${db.get(id)}`);
  }
  const linkSet = new Set(links);
  for (const id of db.keys())
    if (!linkSet.has(/** @type {string} */ (id)))
      problems.push(`grant ${grantId.slice(0, 8)}… has a refresh token k6 never saw`);
}

/**
 * 5. Redeem the initial token of every unused live chain through the balancer, twice. Only the
 * initial tokens are known in clear to the runner; later links live in k6 only (it logs
 * digests): for used chains the database state already proves the head is live and unconsumed.
 * @param {{ head: string, token: string | undefined }[]} heads
 * @param {string} balancerUrl
 * @param {string} rpClientId
 * @param {string[]} problems
 */
async function usableOnce(heads, balancerUrl, rpClientId, problems) {
  let usable = 0;
  let secondRejected = 0;
  /** @param {string | undefined} t */
  const post = (t) =>
    fetch(`${balancerUrl}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        client_id: rpClientId,
        refresh_token: t ?? '',
      }).toString(),
      signal: AbortSignal.timeout(10_000),
    });
  for (const h of heads) {
    const r1 = await post(h.token);
    if (r1.status === 200) usable++;
    else problems.push(`unused chain head ${h.head.slice(0, 8)}… not usable: ${r1.status}`);
    await r1.arrayBuffer();
    const r2 = await post(h.token);
    const b2 = /** @type {{ error?: string }} */ (await r2.json().catch(() => ({})));
    if (r2.status === 400 && b2.error === 'invalid_grant') secondRejected++;
    else problems.push(`second use of ${h.head.slice(0, 8)}… answered ${r2.status}`);
  }
  return { usableOnce: usable, secondUseRejected: secondRejected };
}

/**
 * @param {{ pool: import('pg').Pool, schema: string, chains: Link[][], rows: Line[], balancerUrl: string,
 *   rpClientId: string, grantOf: Map<string, string> }} run
 * @returns {Promise<GrantCheck>}
 */
export async function checkGrants({ pool, schema, chains, rows, balancerUrl, rpClientId, grantOf }) {
  /** @type {string[]} */
  const problems = [];
  const { next, uncertain, invalid } = rotations(rows, problems);
  /** @type {Query} */
  const q = (sql, params) => pool.query(sql.replaceAll('%T', `"${schema}"`), params);
  const summary = {
    chains: 0,
    used: 0,
    alive: 0,
    revoked: 0,
    revokedExplained: 0,
    tokensSeen: 0,
    rowsChecked: 0,
  };
  const tokenOf = new Map(chains.flat().map((c) => [c.id, c.token]));
  /** @type {{ head: string, token: string | undefined }[]} */
  const unusedHeads = [];
  for (const chain of chains.flat()) {
    summary.chains++;
    const links = [chain.id];
    for (let n = next.get(chain.id); n !== undefined; n = next.get(n)) links.push(n);
    if (links.length > 1 || rows.some((r) => r.old === chain.id)) summary.used++;
    summary.tokensSeen += links.length;
    const linkSet = new Set(links);
    const revokedAt = invalid.find((r) => linkSet.has(/** @type {string} */ (r.old)));
    const grantId = grantOf.get(chain.id) ?? '';
    const { rows: dbRows } = await q(
      `SELECT id, consumed_at IS NOT NULL AS consumed FROM %T.records WHERE model = 'RefreshToken' AND grant_id = $1`,
      [grantId],
    );
    summary.rowsChecked += dbRows.length;
    if (revokedAt) {
      summary.revoked++;
      if (await checkRevoked(q, grantId, links, revokedAt, dbRows.length, uncertain, problems))
        summary.revokedExplained++;
      continue;
    }
    summary.alive++;
    checkAlive(grantId, links, dbRows, problems);
    const head = links[links.length - 1] ?? chain.id;
    if (links.length === 1) unusedHeads.push({ head, token: tokenOf.get(head) });
  }
  return { ...summary, ...(await usableOnce(unusedHeads, balancerUrl, rpClientId, problems)), problems };
}
