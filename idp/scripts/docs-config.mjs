// Writes docs/CONFIGURATION.md from the configuration table (idp/src/config/table.ts).
import { writeFileSync } from 'node:fs';
import { configurationDoc } from '../dist/config/docs.js';

const target = new URL('../../docs/CONFIGURATION.md', import.meta.url);
writeFileSync(target, configurationDoc());
console.log(`wrote ${target.pathname}`);
