/** Where the load suite lives: load/ itself and the repository around it. */
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const LOAD_DIR = dirname(dirname(fileURLToPath(import.meta.url)));
export const REPO_DIR = dirname(LOAD_DIR);

/** A report directory name: the start time, safe in a path. */
export const stamp = () => new Date().toISOString().replace(/[:.]/g, '-');
