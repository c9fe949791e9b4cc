/** One k6 run of a scenario script: its JSON config in, its end-of-test summary out. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOAD_DIR } from '../paths.mjs';
import { runK6 } from '../proc.mjs';

/** @typedef {import('../types.d.ts').K6Summary} K6Summary */
/** @typedef {import('./context.mjs').RunContext} RunContext */

/**
 * A sub-metric from a k6 summary, by metric name and tags.
 * @param {K6Summary | undefined} summary
 * @param {string} name
 * @param {Record<string, string>} [tags]
 */
export function metric(summary, name, tags) {
  const key = tags
    ? `${name}{${Object.entries(tags)
        .map(([k, v]) => `${k}:${v}`)
        .join(',')}}`
    : name;
  return summary?.metrics?.[key];
}

/**
 * Run load/scenarios/<scenario>.js with `config` (its summary goes to the run's work directory).
 * Exit 99 means thresholds crossed: for sizes that is the finding itself; for the load phases
 * the row records it (error budget crossed) and the report shows it. Any other failure throws.
 * @param {RunContext} ctx
 * @param {string} scenario
 * @param {string} name unique per run: names the config, the summary and the log section
 * @param {Record<string, unknown>} config
 * @returns {Promise<{ summary: K6Summary, code: number, thresholdsCrossed: boolean }>}
 */
export async function k6run(ctx, scenario, name, config) {
  const summaryFile = join(ctx.work, `${name}.summary.json`);
  const configPath = join(ctx.work, `${name}.config.json`);
  writeFileSync(configPath, JSON.stringify({ ...config, summaryFile }));
  ctx.log.write(`\n=== ${name}\n`);
  const { code, output } = await runK6(ctx.k6, join(LOAD_DIR, 'scenarios', `${scenario}.js`), configPath, {
    logStream: ctx.log,
  });
  let summary;
  try {
    summary = JSON.parse(readFileSync(summaryFile, 'utf8'));
  } catch {
    throw new Error(`k6 ${name} wrote no summary (exit ${code}):\n${output.slice(-3000)}`);
  }
  const thresholdsCrossed = code === 99;
  if (code !== 0 && !thresholdsCrossed)
    throw new Error(`k6 ${name} failed with exit ${code}:\n${output.slice(-3000)}`);
  return { summary, code, thresholdsCrossed };
}
