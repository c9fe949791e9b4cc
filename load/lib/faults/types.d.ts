/** The shapes of the fault and soak script (load/faults.mjs): its options, k6's request lines, verdicts. */

export interface FaultOptions {
  long: boolean;
  soak: boolean;
  minutes: number;
  load: number;
  alg: string;
  help: boolean;
  cases: string[];
  rate: number;
  vus: number;
  capacity?: number;
  pgPort?: number;
  out?: string;
}

/** One request as load/scenarios/soak.js logs it. */
export interface Line {
  /** start, ms since the epoch */
  t: number;
  vu: number;
  /** `r` refresh_token rotation, `c` client_credentials */
  grant: string;
  /** 0: no HTTP answer (transport error) */
  status: number;
  ms: number;
  /** wall ms from start to answer */
  wall: number;
  /** digest of the refresh token presented */
  old: string | undefined;
  /** digest of the refresh token issued */
  fresh: string | undefined;
  error: string | undefined;
}

/** A moment of a run: k6 start and end, and what the fault actions did. */
export interface FaultEvent {
  what: string;
  t: number;
  [detail: string]: unknown;
}

export type Mark = (what: string, extra?: Record<string, unknown>) => FaultEvent;

/** An action at `at` seconds after k6 starts. */
export interface Action {
  at: number;
  run: (mark: Mark) => Promise<void>;
}

export interface GrantCheck {
  chains: number;
  used: number;
  alive: number;
  revoked: number;
  revokedExplained: number;
  tokensSeen: number;
  rowsChecked: number;
  usableOnce: number;
  secondUseRejected: number;
  problems: string[];
}

/** One k6 run with its fault actions, checked against the database. */
export interface RunOutcome {
  rows: Line[];
  events: FaultEvent[];
  start: number;
  end: number;
  grants: GrantCheck;
}

export interface RunSpec {
  rate?: number;
  duration: number;
  vus: number;
  phase?: 'steady' | 'saturate';
  ceiling?: number;
  actions?: Action[];
}

export type K6Run = (name: string, spec: RunSpec) => Promise<RunOutcome>;

/** A case's verdict as results.json and the report hold it. */
export interface FaultCase {
  case: string;
  fault: string;
  expected: string;
  pass: boolean;
  problems: string[];
  observed: string;
  grants?: GrantCheck;
  balancer?: { before: unknown; after: unknown };
  [detail: string]: unknown;
}

export interface RssSample {
  t: number;
  instance: string;
  rssMiB: number;
}

export interface FaultMeta {
  mode: 'soak' | 'long' | 'short';
  started: string;
  options: Partial<FaultOptions>;
  machine: import('../types.d.ts').Machine;
  k6: string;
  runnerMldsaBackend: string;
  nativeAvailable: boolean | undefined;
  idp?: { mldsaBackend: unknown; storage: unknown; startMs: number[] };
  finished?: string;
  elapsedSeconds?: number;
  loadavgAtEnd?: number[];
}

export interface FaultResults {
  meta: FaultMeta;
  cases: FaultCase[];
  soak?: import('./cases/soak.mjs').SoakResult;
  rss?: RssSample[];
}
