/** `pqid saml-sps add|list|remove`: SAML service providers in the IdP's storage. */
import { readFile } from 'node:fs/promises';
import type { parseArgs } from 'node:util';
import {
  isSamlSigningAlg,
  isSlowSamlSigningAlg,
  SAML_SIGNING_ALGS,
  SAML_SLOW_SIGNING_ALGS,
} from '../policy/algorithms.ts';
import { NAMEID_FORMAT_NAMES, type NameIdFormatName } from '../saml/constants.ts';
import { parseSpMetadata } from '../saml/sp-metadata.ts';
import {
  KEY_INFO_FORMS,
  type KeyInfoForm,
  registerSamlSp,
  type SamlSpInput,
  SamlSps,
  SIGN_WHAT,
  type SignWhat,
} from '../saml/sps.ts';
import { mapErrors, parse } from './args.ts';
import { CliError, type Command, json, out, table, UsageError, unknownSubcommand } from './common.ts';
import { confirmNewKeys } from './confirm.ts';
import { withCli } from './open.ts';

const HELP = `Usage:
  pqid saml-sps add --metadata FILE|URL [options]
  pqid saml-sps add --entity-id ID --acs-url URL [--acs-url URL ...] [--slo-url URL] [--certificate FILE] [options]
  pqid saml-sps list [--json]
  pqid saml-sps remove ENTITY_ID

add options:
  --metadata FILE|URL     SP metadata: entityID, HTTP-POST AssertionConsumerServices,
                          SingleLogoutService, signing certificate (requests must then be signed)
  --alg ALG               what signs responses to this SP: ${SAML_SIGNING_ALGS.join(', ')}
                          (${SAML_SLOW_SIGNING_ALGS.join(', ')} only with keys.allowSlhDsaHotPath)
                          (default: saml.defaultAlg, ML-DSA-65). SPs that cannot verify ML-DSA: RS256.
  --sign WHAT             response | assertion | both (default both)
  --key-info FORM         certificate | keyName: what KeyInfo carries in our signatures (default
                          certificate). keyName sends only the key's id, the KeyName in our
                          metadata, and saves the certificate's kilobytes in every Response; for
                          SPs that take the IdP certificate from the metadata (most do)
  --min-authn-context C   an AuthnContextClassRef every sign-in for this SP must reach, whatever
                          its requests ask, e.g. https://refeds.org/profile/mfa (a passkey);
                          refused at registration if this IdP cannot reach it
  --name-id-format F      ${NAMEID_FORMAT_NAMES.join(' | ')} (default: from metadata, else persistent)
  --name NAME             shown on the login page
  --json                  print the registration as JSON
  --yes                   create and activate a SAML signing key when ALG has none yet (asked on a
                          terminal; refused without --yes elsewhere)

Reads the same configuration and storage as the server (PQID_CONFIG or --config, PQID_DATA_DIR,
PQID_DATABASE_URL, PQID_KEK for generating a signing key the SP's algorithm needs).`;

const MAX_METADATA_BYTES = 1024 * 1024;

async function loadMetadata(source: string): Promise<string> {
  if (/^https?:\/\//i.test(source)) {
    const res = await fetch(source, { signal: AbortSignal.timeout(10_000), redirect: 'error' });
    if (!res.ok) throw new CliError('ERR_METADATA_FETCH', `GET ${source}: HTTP ${res.status}`);
    const text = await res.text();
    if (Buffer.byteLength(text) > MAX_METADATA_BYTES)
      throw new CliError('ERR_METADATA', 'metadata too large');
    return text;
  }
  try {
    return await readFile(source, 'utf8');
  } catch (e) {
    throw new CliError('ERR_METADATA', `cannot read ${source}: ${(e as Error).message}`);
  }
}

const samlErrors = mapErrors;

const OPTIONS = {
  metadata: { type: 'string' },
  'entity-id': { type: 'string' },
  'acs-url': { type: 'string', multiple: true },
  'slo-url': { type: 'string' },
  certificate: { type: 'string' },
  alg: { type: 'string' },
  sign: { type: 'string' },
  'key-info': { type: 'string' },
  'min-authn-context': { type: 'string' },
  'name-id-format': { type: 'string' },
  name: { type: 'string' },
  json: { type: 'boolean', default: false },
  yes: { type: 'boolean', default: false },
  config: { type: 'string' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>['values'];

async function add(values: Values, cli: { configFile: string | undefined }): Promise<void> {
  // SLH-DSA passes here and meets the hot-path policy in validateSp, which says why.
  if (values.alg !== undefined && !isSamlSigningAlg(values.alg) && !isSlowSamlSigningAlg(values.alg))
    throw new UsageError(
      `--alg must be one of ${SAML_SIGNING_ALGS.join(', ')} (${SAML_SLOW_SIGNING_ALGS.join(', ')} only with keys.allowSlhDsaHotPath)`,
    );
  if (values.sign !== undefined && !SIGN_WHAT.includes(values.sign as SignWhat))
    throw new UsageError(`--sign must be one of ${SIGN_WHAT.join(', ')}`);
  const keyInfo = values['key-info'];
  if (keyInfo !== undefined && !KEY_INFO_FORMS.includes(keyInfo as KeyInfoForm))
    throw new UsageError(`--key-info must be one of ${KEY_INFO_FORMS.join(', ')}`);
  const fmt = values['name-id-format'];
  if (fmt !== undefined && !NAMEID_FORMAT_NAMES.includes(fmt as NameIdFormatName))
    throw new UsageError(`--name-id-format must be one of ${NAMEID_FORMAT_NAMES.join(', ')}`);
  const sp = await samlErrors(async () => {
    let input: SamlSpInput;
    if (values.metadata !== undefined) input = parseSpMetadata(await loadMetadata(values.metadata));
    else {
      if (!values['entity-id'] || !values['acs-url']?.length)
        throw new UsageError('give --metadata, or --entity-id and at least one --acs-url');
      input = { entityId: values['entity-id'], acsUrls: values['acs-url'] };
    }
    if (values['slo-url']) input.sloUrl = values['slo-url'];
    if (values.certificate) input.certificate = await readFile(values.certificate, 'utf8');
    if (values.alg) input.signatureAlgorithm = values.alg as SamlSpInput['signatureAlgorithm'];
    if (values.sign) input.sign = values.sign as SignWhat;
    if (keyInfo) input.keyInfo = keyInfo as KeyInfoForm;
    if (values['min-authn-context']) input.minimumAuthnContext = values['min-authn-context'];
    if (fmt) input.nameIdFormat = fmt as NameIdFormatName;
    if (values.name) input.name = values.name;
    return withCli({ ...cli, withKeys: true }, async (ctx) => {
      // Every start makes the keys of the default and the metadata's algorithms anyway;
      // another one is the operator's call.
      const { defaultAlg, metadataAlgs } = ctx.config.saml;
      const alg = input.signatureAlgorithm ?? defaultAlg;
      const always: readonly string[] = [defaultAlg, ...metadataAlgs];
      const missing = ctx.keys.missing([alg], 'saml').filter((a) => !always.includes(a));
      await confirmNewKeys({ algs: missing, set: 'saml', doing: 'adding this SP' }, values.yes);
      return registerSamlSp(ctx, input);
    });
  });
  const { certificate, ...shown } = sp;
  out(json({ ...shown, certificate: certificate ? 'registered (requests must be signed)' : 'none' }));
}

export const samlSps: Command = {
  name: 'saml-sps',
  summary: 'add, list or remove SAML service providers',
  help: HELP,
  async run(args) {
    const [sub, ...rest] = args;
    const { values, positionals } = parse({
      args: rest,
      allowPositionals: true,
      options: OPTIONS,
      strict: true,
    });
    const cli = { configFile: values.config };
    if (sub === 'add') return add(values, cli);
    if (sub === 'list') {
      const list = await samlErrors(() =>
        withCli({ ...cli, withKeys: false }, (ctx) => new SamlSps(ctx).list()),
      );
      if (values.json)
        out(json(list.map(({ certificate, ...s }) => ({ ...s, signedRequests: !!certificate }))));
      else
        out(
          table(
            ['entityId', 'alg', 'sign', 'keyInfo', 'nameId', 'signed requests', 'ACS'],
            list.map((s) => [
              s.entityId,
              s.signatureAlgorithm,
              s.sign,
              s.keyInfo ?? 'certificate',
              s.nameIdFormat,
              s.certificate ? 'yes' : 'no',
              s.acsUrls.join(' '),
            ]),
          ),
        );
      return;
    }
    if (sub === 'remove') {
      const [entityId] = positionals;
      if (!entityId || positionals.length > 1) throw new UsageError('saml-sps remove takes one ENTITY_ID');
      const removed = await samlErrors(() =>
        withCli({ ...cli, withKeys: false }, (ctx) => new SamlSps(ctx).remove(entityId)),
      );
      if (!removed) throw new CliError('ERR_NOT_FOUND', `no SAML SP ${entityId}`);
      out(`removed ${entityId}`);
      return;
    }
    throw unknownSubcommand('saml-sps', sub, ['add', 'list', 'remove']);
  },
};
