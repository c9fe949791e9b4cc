/**
 * The shapes the runner writes into results.json and the report reads back (type-only: the
 * runner is plain ESM JavaScript, checked by `tsc -p load` through JSDoc).
 */

/** Transport limits the size findings are measured against, in bytes. */
export interface Budgets {
  cookie: number;
  headerLine: number;
  nodeHeaders: number;
  urlConservative: number;
  url: number;
}

export interface RunOptions {
  scenarios: string[];
  smoke: boolean;
  algs: string[];
  price: number;
  compare: boolean;
  budgets: Budgets;
  help: boolean;
  duration: number;
  vus: number;
  out?: string;
  cpuProf?: string;
}

export interface Machine {
  cpus: number;
  cpuModel: string | undefined;
  cpuFlags: string;
  memoryGiB: number;
  loadavgAtStart: number[];
  kernel: string;
  node: string;
  openssl: string;
}

export interface Meta {
  started: string;
  finished?: string;
  elapsedSeconds?: number;
  mode: 'smoke' | 'full';
  scenarios: string[];
  algs: string[];
  duration: number;
  vus: number;
  pricePerVcpuHour: number;
  budgets: Budgets;
  machine: Machine;
  loadavgAtEnd?: number[];
  k6: string;
  idp?: { issuer: string; node: string; openssl: string; mldsaBackends: string[] };
  runnerMldsaBackend?: string;
  oidcProvider?: string;
}

/**
 * Repeated measurements of one quantity: `median` is the value the report uses, `min`/`max`
 * its spread, `relative` = (max − min) / median, `large` when that exceeds the report's bound.
 */
export interface Spread {
  n: number;
  min: number;
  median: number;
  max: number;
  relative: number;
  large: boolean;
}

/** One k6 phase against one server variant: one algorithm, one grant. */
export interface ThroughputRow {
  target: string;
  grant: string;
  alg: string;
  phase: string;
  offeredRate: number | null;
  tokens: number;
  tokensPerSecond: number;
  errorRate: number;
  errorBudgetCrossed: boolean;
  p50: number | undefined;
  p95: number | undefined;
  p99: number | undefined;
  max: number | undefined;
  avg: number | undefined;
  jwtAccessTokens: number;
  serverCpuSeconds: number;
  wallSeconds: number;
  responseBytes: number | undefined;
  /** Mean bytes of the response's `id_token` (refresh_token), as sent: the JWE when encrypted. */
  idTokenBytes?: number | undefined;
  /** The client's ID-token encryption, and what the runner's decrypted sample held. */
  idTokenEncryption?: JweConfig & { sample: EncryptedIdTokenSample };
}

/** One encrypted ID token of a refresh response, opened by the runner with the client's key. */
export interface EncryptedIdTokenSample {
  /** The JWE protected header's alg/enc, and the signature alg of the JWT inside. */
  alg: string;
  enc: string | undefined;
  signedWith: string;
  jweBytes: number;
  signedBytes: number;
}

/** Per-operation sign cost (CPU µs) from repeated timed loops; `usPerOp` is their median. */
export interface SignCost {
  usPerOp: number;
  wallUsPerOp: number;
  ops: number;
  samples: number[];
  spread: Spread;
  implementation?: string;
  signatureBytes?: number;
}

export interface ColdObject {
  path: string;
  contentType: string | null;
  bytes: number;
  signatureAlg: string | undefined;
  resign: {
    rounds: number;
    signatures: number;
    wallMs: number;
    cpuMs: number;
    samples: { wallMs: number; cpuMs: number }[];
    cpuSpread: Spread;
  };
  cached: { fetches: number; p50Ms: number; cpuMsPerFetch: number };
}

export interface ColdPath {
  objects: { signedJwks: ColdObject; metadata: ColdObject };
}

export interface PlacementRun {
  algs: string[];
  config: Record<string, unknown>;
  coldPath: ColdPath;
  coldTraffic: { every: number };
}

export interface SizeRow {
  alg: string;
  profile: string;
  source: string;
  idToken: number | undefined;
  accessToken: number | undefined;
  authorizationHeader: number | undefined;
  setCookie: number | undefined;
  setCookieLine: number | undefined;
  logoutUrl: number | undefined;
  dpopHeader: number | undefined;
  authorizationUrlJar: number | undefined;
  authorizationUrlPar: number | undefined;
  fitsCookie?: boolean;
  fitsHeaderLine?: boolean;
  fitsNodeHeaders?: boolean;
  fitsUrlConservative?: boolean;
  fitsUrl?: boolean;
  dpopFitsHeaderLine?: boolean;
  dpopFitsNodeHeaders?: boolean;
  dpopAcceptedByIdp?: boolean;
  jarFitsUrlConservative?: boolean;
  jarFitsUrl?: boolean;
  parFitsUrlConservative?: boolean;
  parAcceptedByIdp?: boolean;
  bearerAcceptedByIdp?: boolean;
}

export interface SamlSizeRow {
  alg: string;
  signature: number;
  redirectUrl: number | undefined;
  fitsUrlConservative: boolean;
  fitsUrl: boolean;
  responseXml: number;
  postForm: number | undefined;
}

export interface Sizes {
  rows: SizeRow[];
  jwks: Record<string, number>;
  jwksLive: number | undefined;
  saml: SamlSizeRow[];
  accessTokenFormat?: 'jwt' | 'reference';
  endSessionEndpoint?: string | null;
  budgetsCrossed?: boolean;
}

/** A JWE configuration: key management `alg`, and `enc` unless the alg is HPKE Integrated. */
export interface JweConfig {
  alg: string;
  enc?: string;
}

/** One ID token, signed only (`jwe: null`) or inside a JWE, where it travels. */
export interface EncryptedSizeRow {
  alg: string;
  profile: string;
  jwe: JweConfig | null;
  bytes: number;
  setCookie: number;
  logoutUrl: number;
  fitsCookie: boolean;
  fitsUrlConservative: boolean;
  fitsUrl: boolean;
}

/** CPU per token (runner process) of signing, encrypting, both, and decrypting, by operation label. */
export interface EncryptionCost {
  signAlg: string;
  hpkeBackend: string;
  configs: (JweConfig & { quantumSafe: 'PQ/T' | 'PQ' | 'no' })[];
  cost: Record<string, SignCost>;
}

export interface Encryption {
  sizes: EncryptedSizeRow[];
  cost: EncryptionCost;
}

export interface LoginAlgRow {
  alg: string;
  flows: number;
  flowP50: number | undefined;
  flowP95: number | undefined;
  flowP99: number | undefined;
  exchangeP50: number | undefined;
  exchangeP99: number | undefined;
  errorRate: number;
}

export interface Login {
  rate: number;
  duration: number;
  serverCpuSeconds: number;
  flows: number;
  errorRate: number;
  thresholdsCrossed: boolean;
  perAlg: LoginAlgRow[];
}

export interface TlsRound {
  group: string;
  ecdhCurve: string;
  handshakes: number;
  handshakesPerSecond: number;
  handshakeP50: number | undefined;
  handshakeP95: number | undefined;
  handshakeP99: number | undefined;
  requestP99: number | undefined;
  errorRate: number;
  serverCpuSeconds: number;
  serverCpuMsPerHandshake: number;
}

export interface TlsGroupSummary {
  hs: number;
  cpuMs: number;
  rate: number;
  rounds: number;
  rateSpread: Spread;
}

export interface Tls {
  rounds: TlsRound[];
  negotiated: Record<string, string>;
  summary?: { hybrid: TlsGroupSummary; classical: TlsGroupSummary; rateRatio: number; cpuRatio: number };
}

/** A (target, grant, alg) row of the capacity model: saturate and steady phases pooled. */
export interface CapacityRow {
  target: string;
  grant: string;
  alg: string;
  peakTokensPerSecond: number;
  steadyRate: number | null | undefined;
  steadyTokensPerSecond: number | undefined;
  p50: number | undefined;
  p95: number | undefined;
  p99: number | undefined;
  max: number | undefined;
  satP99: number | undefined;
  errorRate: number;
  jwt: boolean;
  cpuMsPerToken: number;
  /** CPU ms per token of each recorded phase: the spread of the pooled figure. */
  cpuMsPerTokenByPhase: Record<string, number>;
  tokensPerCoreSecond: number;
  tokensPerVcpuHour: number;
  costPerMillion: number;
  retained: number;
  infraMultiplier: number;
  throughputRatio: number;
  p99Ratio: number;
  /** Mean bytes per response and of its ID token (saturate phase), when k6 measured them. */
  responseBytes?: number | undefined;
  idTokenBytes?: number | undefined;
  idTokenEncryption?: ThroughputRow['idTokenEncryption'];
}

export interface PlacementRegime {
  regime: string;
  placement: string;
  measured: boolean;
  cpuMs: number;
  hotCpuMs?: number;
  modelCpuMs?: number | undefined;
  peakTokensPerSecond?: number;
  p99?: number | undefined;
  tokensPerCoreSecond: number;
  retained: number;
  infraMultiplier: number;
  costPerMillion: number;
}

export interface Placement {
  grant: string;
  signsPerToken: number;
  coldSignsPerHour: number;
  operatingRate: number;
  regimes: PlacementRegime[];
  restMs?: number;
  coldCpuMs?: number;
  cold?: ColdPath['objects'];
  measured?: boolean;
}

/** One part of the token, with half the disagreement of its two phase estimates as noise. */
export interface Part {
  ms: number;
  noise: number;
}

export interface Decomposition {
  /** The access-token storage mode of the token endpoint taken apart. */
  mode: 'stored' | 'stateless';
  alg: string;
  http: Part;
  signature: Part;
  storage: Part;
  protocol: Part;
  token: { ms: number };
  irreducible: { ms: number };
  /** The tightest efficiency target whose baseline ran; `roomMs` < 0: the floor stops it. */
  target?: {
    ratio: number;
    baseline: string;
    baselineMs: number;
    budgetMs: number;
    roomMs: number;
    cutMs: number;
  };
}

export interface Results {
  meta: Meta;
  sizes?: Sizes;
  /** Encrypted ID tokens (sizes scenario): bytes and CPU next to signed only. */
  encryption?: Encryption;
  throughput?: ThroughputRow[];
  signCost?: Record<string, SignCost>;
  slhDsa?: Record<string, SignCost>;
  placementRun?: PlacementRun;
  login?: Login;
  tls?: Tls;
  capacity?: CapacityRow[];
  placement?: Placement | undefined;
  decomposition?: Decomposition[];
}

/** The parts of a k6 end-of-test summary the runner reads (handleSummary's JSON). */
export interface K6Summary {
  metrics?: Record<string, { values: Record<string, number> }>;
}

/** The clients a child server registered for one algorithm. */
export interface ServerClients {
  confidential: { id: string; secret: string };
  public?: { id: string };
  jar?: { id: string; secret: string; privateJwk: Record<string, unknown> };
  /** Public clients whose ID tokens are encrypted, by JWE alg; the private key decrypts a sample. */
  encrypted?: Record<string, { id: string; jwe: JweConfig; privateJwk: Record<string, unknown> }>;
}

/** What a child server (idp-server.mjs, oidc-provider-server.mjs) prints when it is ready. */
export interface ServerInfo {
  ready: true;
  pid: number;
  issuer: string;
  port: number;
  clients: Record<string, ServerClients>;
}

/** The pqid IdP's ready line (load/lib/idp-server.mjs): its users and listeners too. */
export interface IdpInfo extends ServerInfo {
  clients: Record<string, Required<ServerClients>>;
  users: string[];
  password: string;
  redirectUri: string;
  tls: Record<string, { port: number; ecdhCurve: string }>;
  node: string;
  openssl: string;
  /** The ML-DSA backends the IdP process can use (/healthz shows them only to the operator). */
  mldsaBackends: string[];
}

export interface Server<I extends ServerInfo = ServerInfo> {
  child: import('node:child_process').ChildProcess;
  info: I;
  stderr: () => string;
}

/** A plot of the report: its file name (without .svg), caption and vega-lite spec. */
export interface Chart {
  name: string;
  caption: string;
  spec: Record<string, unknown>;
}

/** What a report section contributes: markdown lines, and plots for the Plots section. */
export interface Section {
  md: string[];
  charts: Chart[];
}

/** The models the report computes from a run before its sections read them. */
export interface Derived {
  capacity: CapacityRow[];
  placement: Placement | undefined;
  decomposition: Decomposition[];
}
