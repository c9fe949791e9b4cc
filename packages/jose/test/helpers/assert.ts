import { PqidError } from '@pqid/jose';

/**
 * Awaits `f` and asserts that it failed with a typed PqidError whose code is one of `codes`:
 * never success, never an untyped error from a dependency.
 */
export async function rejects(f: () => unknown, codes: string | readonly string[]): Promise<PqidError> {
  let threw = false;
  let err: unknown;
  try {
    await f();
  } catch (e) {
    threw = true;
    err = e;
  }
  if (!threw) throw new Error(`expected a rejection with ${String(codes)}, but the call succeeded`);
  if (!(err instanceof PqidError)) {
    throw new Error(
      `expected a PqidError (${String(codes)}), got untyped ${(err as Error)?.constructor?.name}: ${(err as Error)?.message}`,
    );
  }
  const allowed = typeof codes === 'string' ? [codes] : codes;
  if (!allowed.includes(err.code)) {
    throw new Error(`expected code in [${allowed.join(', ')}], got ${err.code}: ${err.message}`);
  }
  return err;
}
