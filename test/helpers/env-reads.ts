/**
 * Which environment variables a program reads, and which a README documents: for the check that
 * every variable an example reads is in its README's table, and the table names nothing else.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** The files a module brings in through relative imports, itself first (packages are not followed). */
export function localModules(entry: string, seen = new Set<string>()): string[] {
  if (seen.has(entry)) return [];
  seen.add(entry);
  const text = readFileSync(entry, 'utf8');
  const out = [entry];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"](\.{1,2}\/[^'"]+)['"]/g))
    out.push(...localModules(resolve(dirname(entry), m[1] as string), seen));
  for (const m of text.matchAll(/import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g))
    out.push(...localModules(resolve(dirname(entry), m[1] as string), seen));
  return out;
}

/**
 * The variables `source` reads: `process.env.X`, `process.env['X']`, and `env.X` through an alias
 * (`const env = process.env`). A read it cannot name (`process.env[name]`, destructuring, an
 * alias passed on) is an error rather than a silent gap.
 */
export function envReads(source: string, file = 'source'): Set<string> {
  const names = new Set<string>();
  // Comments (and the #! line) may mention variables without reading them.
  const code = source.replace(/^#!.*/, '').replace(/\/\*[\s\S]*?\*\/|(^|[^:])\/\/.*$/gm, '$1');
  const aliases = [...code.matchAll(/\b(?:const|let|var)\s+(\w+)\s*=\s*process\.env\s*;/g)].map(
    (m) => m[1] as string,
  );
  const bases = ['process\\.env', ...aliases.map((a) => `(?<![.\\w$])${a}`)];
  for (const base of bases) {
    const read = new RegExp(`${base}(?:\\.([A-Za-z_]\\w*)|\\[\\s*['"]([A-Za-z_]\\w*)['"]\\s*\\])`, 'g');
    for (const m of code.matchAll(read)) names.add((m[1] ?? m[2]) as string);
    // every other use of the object: the alias declarations and nothing else
    const uses = [...code.matchAll(new RegExp(`${base}\\b(?!\\s*(?:\\.\\w|\\[\\s*['"]))`, 'g'))];
    const declarations = base === 'process\\.env' ? aliases.length : 1;
    if (uses.length !== declarations)
      throw new Error(
        `${file}: uses ${base === 'process\\.env' ? 'process.env' : 'an alias of process.env'} in a way this check cannot name`,
      );
  }
  return names;
}

/** Variables in the first column of every README table whose first header cell is "variable". */
export function documentedVariables(readme: string): Set<string> {
  const names = new Set<string>();
  let inTable = false;
  for (const line of readme.split('\n')) {
    if (!line.startsWith('|')) {
      inTable = false;
      continue;
    }
    const first = line.split('|')[1]?.trim() ?? '';
    if (first === 'variable') inTable = true;
    else if (inTable) for (const m of first.matchAll(/`([A-Za-z_]\w*)`/g)) names.add(m[1] as string);
  }
  return names;
}
