// The version of the binding surface this JS is written against: src/lib.rs BINDING_ABI, which
// every binary reports through bindingAbi(). A binary with another version, or none (the 0.1.0
// binaries built before composites), is stale: the loader and the install script skip it with
// this reason instead of letting it fail at its first missing function. Bump both together.
export const BINDING_ABI = 4;

/** Why `addon` cannot serve this JS (a sentence fragment), or undefined when it can. */
export function bindingMismatch(addon) {
  let got;
  try {
    got = typeof addon?.bindingAbi === 'function' ? addon.bindingAbi() : undefined;
  } catch {
    got = undefined;
  }
  if (got === BINDING_ABI) return undefined;
  return got === undefined
    ? `a stale binary: it has no binding ABI version (built for an older @pqid/liboqs-node); this package needs binding ABI ${BINDING_ABI}`
    : `a stale binary: binding ABI ${String(got)}, this package needs ${BINDING_ABI}`;
}
