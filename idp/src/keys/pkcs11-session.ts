/**
 * One PKCS#11 token, opened for the pkcs11 signer: its module loaded and initialised once per
 * process, the user logged in, and a small pool of sessions — one operation at a time per
 * session, so signatures run concurrently over several.
 */
import type { ExternalSignerConfig } from '../config/index.ts';
import { ConfigError } from '../config/index.ts';
import { CK, type Handle, type Pkcs11Api, type Pkcs11Module } from './pkcs11-api.ts';

export type Pkcs11Config = Extract<ExternalSignerConfig, { type: 'pkcs11' }>;

/** Sessions to sign on concurrently: one operation at a time per PKCS#11 session. */
const SESSIONS = 4;

/**
 * One loaded module per library path in this process: C_Initialize once, C_Finalize when the
 * last provider using it closes (a second C_Initialize would fail, and a C_Finalize would end
 * every other provider's sessions).
 */
const modules = new Map<string, { p11: Pkcs11Api; users: number }>();

function acquireModule(pkcs11js: Pkcs11Module, library: string): Pkcs11Api {
  let m = modules.get(library);
  if (!m) {
    const p11 = new pkcs11js.PKCS11();
    p11.load(library);
    p11.C_Initialize({ flags: CK.CKF_OS_LOCKING_OK });
    m = { p11, users: 0 };
    modules.set(library, m);
  }
  m.users++;
  return m.p11;
}

function releaseModule(library: string): void {
  const m = modules.get(library);
  if (!m || --m.users > 0) return;
  modules.delete(library);
  m.p11.C_Finalize();
}

/** Loads the module, finds the token by label and logs in; the logged-in session is returned. */
function login(pkcs11js: Pkcs11Module, name: string, cfg: Pkcs11Config, pin: string) {
  let p11: Pkcs11Api;
  try {
    p11 = acquireModule(pkcs11js, cfg.library);
  } catch (e) {
    throw new ConfigError(
      `keys.signers.${name}: cannot load PKCS#11 module ${cfg.library}: ${(e as Error).message}`,
    );
  }
  const slot = p11.C_GetSlotList(true).find((s) => p11.C_GetTokenInfo(s).label.trim() === cfg.token);
  if (!slot) {
    releaseModule(cfg.library);
    throw new ConfigError(
      `keys.signers.${name}: no token labelled ${JSON.stringify(cfg.token)} in ${cfg.library}`,
    );
  }
  const main = p11.C_OpenSession(slot, CK.CKF_SERIAL_SESSION | CK.CKF_RW_SESSION);
  try {
    p11.C_Login(main, CK.CKU_USER, pin);
  } catch (e) {
    // Already logged in (another provider on the same token in this process) is fine.
    if (!/USER_ALREADY_LOGGED_IN/.test(String((e as Error).message))) {
      p11.C_CloseSession(main);
      releaseModule(cfg.library);
      throw new ConfigError(
        `keys.signers.${name}: login to token ${cfg.token} failed: ${(e as Error).message}`,
      );
    }
  }
  return { p11, slot, main };
}

export class TokenSessions {
  readonly p11: Pkcs11Api;
  readonly #library: string;
  readonly #slot: Handle;
  /** A pool of sessions; login state is per token, so every session of this application can sign. */
  readonly #idle: Handle[];
  readonly #waiting: Array<(s: Handle) => void> = [];
  #opened = 1;
  #closed = false;

  constructor(pkcs11js: Pkcs11Module, name: string, cfg: Pkcs11Config, pin: string) {
    const { p11, slot, main } = login(pkcs11js, name, cfg, pin);
    this.p11 = p11;
    this.#library = cfg.library;
    this.#slot = slot;
    this.#idle = [main];
  }

  get closed(): boolean {
    return this.#closed;
  }

  async #acquire(): Promise<Handle> {
    const s = this.#idle.pop();
    if (s) return s;
    if (this.#opened < SESSIONS) {
      this.#opened++;
      return this.p11.C_OpenSession(this.#slot, CK.CKF_SERIAL_SESSION | CK.CKF_RW_SESSION);
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  #release(s: Handle): void {
    const next = this.#waiting.shift();
    if (next) next(s);
    else this.#idle.push(s);
  }

  /** `fn` on a session of the pool, returned to it afterwards. */
  async with<T>(fn: (session: Handle) => T | Promise<T>): Promise<T> {
    const session = await this.#acquire();
    try {
      return await fn(session);
    } finally {
      this.#release(session);
    }
  }

  /** The object of class `cls` labelled `label`, if the token has one. */
  find(session: Handle, cls: number, label: string): Handle | undefined {
    this.p11.C_FindObjectsInit(session, [
      { type: CK.CKA_CLASS, value: cls },
      { type: CK.CKA_LABEL, value: label },
    ]);
    try {
      const [h] = this.p11.C_FindObjects(session, 2);
      return h;
    } finally {
      this.p11.C_FindObjectsFinal(session);
    }
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const s of this.#idle.splice(0)) this.p11.C_CloseSession(s);
    releaseModule(this.#library);
  }
}
