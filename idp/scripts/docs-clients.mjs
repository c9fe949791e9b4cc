// Writes docs/CLIENTS.md from the client attribute table (idp/src/clients/attributes.ts).
import { writeFileSync } from 'node:fs';
import { clientMetadataDoc } from '../dist/clients/docs.js';

const target = new URL('../../docs/CLIENTS.md', import.meta.url);
writeFileSync(target, clientMetadataDoc());
console.log(`wrote ${target.pathname}`);
