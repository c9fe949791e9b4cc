import { parseArgs } from 'node:util';
import { backends as listBackends, settings } from '@pqid/jose';
import { type Command, json, out, parse, table } from './common.ts';

const help = `Usage: pqid backends [--json]

Lists the ML-DSA (and SLH-DSA) backends in order of preference (native liboqs, node:crypto/OpenSSL,
pure-JS noble, then native-ref: the addon's portable C code, used only when named):
whether each is available here and why not, the implementation, and its capabilities
(deterministic/caller rnd, context strings, expanded secret keys, SLH-DSA, external μ).
The first available
backend with the needed capabilities is used unless PQID_BACKEND=native|node|noble|native-ref
says otherwise.`;

export const backends: Command = {
  name: 'backends',
  summary: 'list the ML-DSA/SLH-DSA backends, their availability and why',
  help,
  async run(args) {
    const { values } = parse(() => parseArgs({ args, options: { json: { type: 'boolean' } }, strict: true }));
    const list = listBackends();
    if (values.json) return out(json(list));
    const preferred = settings().backend;
    const auto = list.find((b) => b.available)?.name;
    out(
      table(
        [
          'backend',
          'available',
          'default',
          'implementation',
          'rnd',
          'context',
          'expanded keys',
          'SLH-DSA',
          'external μ',
          'note',
        ],
        list.map((b) => [
          b.name,
          b.available,
          (preferred ? preferred === b.name : auto === b.name) ? '*' : '',
          b.implementation ?? '-',
          b.capabilities.rnd,
          b.capabilities.context,
          b.capabilities.expandedKeys,
          b.capabilities.slhDsa ? (b.capabilities.slhDsa.rnd ? 'yes' : 'hedged only') : 'no',
          !!b.capabilities.externalMu,
          b.reason ?? '',
        ]),
      ),
    );
    if (preferred)
      out(`\nPQID_BACKEND=${preferred} is set: ${preferred} is preferred where it can do the operation.`);
  },
};
