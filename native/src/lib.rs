//! N-API surface of @pqid/liboqs-node. Deliberately flat (numeric algorithm ids, plain
//! functions) so per-call overhead stays small; the ESM wrapper (index.js) builds the
//! per-algorithm objects and typed errors on top.
#![deny(clippy::all)]

mod composite;
mod cpu;
mod errors;
mod ffi;
mod keccak;
mod keys;
mod mldsa;
mod selftest;
mod trad;

use composite::{CompositePublic, CompositeSecret, PreHash, Spec};
use errors::*;
use keys::{KeyMaterial, SecretKeyHandle};
use mldsa::{Impl, RndSource};
use napi::bindgen_prelude::*;
use napi_derive::napi;
use std::sync::Arc;

/// Algorithm ids shared with index.js. A composite key says which composite it is itself.
const ALGS: [&str; 4] = ["ML-DSA-44", "ML-DSA-65", "ML-DSA-87", "composite"];
const COMPOSITE: u32 = 3;

pub(crate) fn alg_name(id: u32) -> &'static str {
    ALGS.get(id as usize).copied().unwrap_or("unknown")
}

enum Scheme {
    MlDsa(&'static mldsa::Params),
    Composite,
}

fn scheme(id: u32) -> Res<Scheme> {
    Ok(match id {
        0 => Scheme::MlDsa(&mldsa::ML_DSA_44),
        1 => Scheme::MlDsa(&mldsa::ML_DSA_65),
        2 => Scheme::MlDsa(&mldsa::ML_DSA_87),
        COMPOSITE => Scheme::Composite,
        _ => return fail(ERR_INVALID_ALGORITHM, format!("unknown algorithm id {id}")),
    })
}

fn mldsa(id: u32) -> Res<&'static mldsa::Params> {
    match scheme(id)? {
        Scheme::MlDsa(p) => Ok(p),
        Scheme::Composite => unsupported(id),
    }
}

fn unsupported<T>(id: u32) -> Res<T> {
    fail(
        ERR_UNSUPPORTED,
        format!("{} does not support this operation", alg_name(id)),
    )
}

fn pick(force_ref: bool) -> Impl {
    if force_ref {
        Impl::Ref
    } else {
        Impl::auto()
    }
}

/// Errors cross into JS as "ERR_CODE: message"; index.js turns them into LiboqsError.
fn js(f: Fail) -> Error {
    Error::new(Status::GenericFailure, format!("{}: {}", f.code, f.msg))
}

trait OrJs<T> {
    fn js(self) -> Result<T>;
}
impl<T> OrJs<T> for Res<T> {
    fn js(self) -> Result<T> {
        self.map_err(js)
    }
}

#[napi(object)]
pub struct SchemeInfo {
    pub name: String,
    pub public_key_bytes: u32,
    pub secret_key_bytes: u32,
    pub signature_bytes: u32,
    pub implementation: String,
}

#[napi]
pub fn scheme_info(alg: u32, force_ref: bool) -> Result<SchemeInfo> {
    let p = mldsa(alg).js()?;
    Ok(SchemeInfo {
        name: p.name.into(),
        public_key_bytes: p.pk_len as u32,
        secret_key_bytes: p.sk_len as u32,
        signature_bytes: p.sig_len as u32,
        implementation: pick(force_ref).name().into(),
    })
}

/// The version of this binding's surface (exports, their arguments, the numeric ids, what they
/// mean) that binding-abi.js expects. The loader refuses a binary with another (or none: the
/// 0.1.0 binaries before composites), so a stale prebuilt or local build is skipped with a clear
/// reason instead of failing at its first missing function. Bump it with binding-abi.js whenever
/// either side changes; test/binding-abi.test.ts notices a changed binding.d.ts.
/// 3: mldsa-native (the composite id is 3, Falcon is gone, nativeInfo() describes the builds).
/// 4: pqid's SHAKE (nativeInfo().keccak, cpu.avx512vl, the keccak* test hooks).
pub const BINDING_ABI: u32 = 4;

/// The binding's surface version (see BINDING_ABI); the loader refuses a binary without it.
#[napi]
pub fn binding_abi() -> u32 {
    BINDING_ABI
}

#[napi(object)]
pub struct SelfTest {
    pub ok: bool,
    /// Why it failed (absent when it passed).
    pub error: Option<String>,
    /// Implementation × parameter-set checks that passed.
    pub checks: u32,
    pub micros: u32,
}

/// Power-on self-test (src/selftest.rs): runs once per process; later calls return the result.
#[napi]
pub fn self_test(corrupt: Option<bool>) -> SelfTest {
    let r = selftest::result(corrupt.unwrap_or(false));
    SelfTest {
        ok: r.error.is_none(),
        error: r.error.clone(),
        checks: r.checks,
        micros: r.micros,
    }
}

#[napi(object)]
pub struct CpuFlags {
    pub avx2: bool,
    pub popcnt: bool,
    pub bmi2: bool,
    pub aesni: bool,
    /// x86-64 only.
    #[napi(js_name = "avx512vl")]
    pub avx512vl: Option<bool>,
    pub neon: Option<bool>,
}

/// Where the vendored C comes from (native/vendor/VENDOR.md; vendor.sh pins both crates).
const MLDSA_NATIVE_FROM: &str = "aws-lc-sys 0.47.0";
const SHA3_FROM: &str = "liboqs 0.13.0";

#[napi(object)]
pub struct NativeInfo {
    /// The crate the vendored mldsa-native was taken from.
    pub mldsa_native: String,
    /// Where the SHA-3 (Keccak) code comes from.
    pub sha3: String,
    /// The Keccak-p[1600] code every SHAKE runs now: `avx512vl`, `avx2` or `portable`.
    pub keccak: String,
    pub build: String,
    /// The ML-DSA implementations in this binary, native first: `x86_64-avx2`, `aarch64-neon`,
    /// `ref`.
    pub compiled: Vec<String>,
    pub cpu: CpuFlags,
}

#[napi]
pub fn native_info() -> NativeInfo {
    let c = cpu::cpu();
    NativeInfo {
        mldsa_native: MLDSA_NATIVE_FROM.into(),
        sha3: SHA3_FROM.into(),
        keccak: keccak::active().into(),
        build: if cpu::tuned_build() {
            "native-tuned"
        } else {
            "dist"
        }
        .into(),
        compiled: cpu::compiled().into_iter().map(String::from).collect(),
        cpu: CpuFlags {
            avx2: c.avx2,
            popcnt: c.popcnt,
            bmi2: c.bmi2,
            aesni: c.aesni,
            avx512vl: if cfg!(target_arch = "x86_64") {
                Some(c.avx512vl)
            } else {
                None
            },
            neon: if cfg!(target_arch = "aarch64") {
                Some(c.neon)
            } else {
                None
            },
        },
    }
}

/// Test and benchmark hook (internal.js): the Keccak implementations this binary has and this
/// CPU runs, fastest first.
#[napi]
pub fn keccak_available() -> Vec<String> {
    keccak::available().into_iter().map(String::from).collect()
}

/// Test and benchmark hook: make every new hash use the Keccak implementation `name`, or with
/// none the detected one again. False, changing nothing, when it is not available here.
#[napi]
pub fn keccak_use(name: Option<String>) -> bool {
    keccak::force(name.as_deref())
}

#[napi(object)]
pub struct KeccakCount {
    pub implementation: String,
    /// Permutations of one state.
    pub x1: i64,
    /// Four-way permutations.
    pub x4: i64,
}

/// Test hook: count Keccak permutations per implementation while `on` (off by default: the
/// counting costs an atomic add per permutation), and return the counts so far.
#[napi]
pub fn keccak_count(on: bool) -> Vec<KeccakCount> {
    keccak::count(on);
    keccak::counts()
        .into_iter()
        .map(|(n, x1, x4)| KeccakCount {
            implementation: n.into(),
            x1: x1 as i64,
            x4: x4 as i64,
        })
        .collect()
}

/// Test hook: SHAKE128 (`rate` 168) or SHAKE256 (136) of `input` on Keccak implementation
/// `name`, absorbed and squeezed `chunk` bytes per call (0: at once); with `x4`, four instances
/// over the four quarters of `input`, `outlen` / rate / 4 blocks each.
#[napi]
pub fn keccak_shake(
    name: String,
    rate: u32,
    x4: bool,
    input: Uint8ArraySlice,
    outlen: u32,
    chunk: u32,
) -> Result<Uint8Array> {
    if rate != keccak::SHAKE128_RATE && rate != keccak::SHAKE256_RATE {
        return Err(js(Fail {
            code: ERR_INVALID_ARGUMENT,
            msg: format!("rate {rate}: SHAKE128 is 168, SHAKE256 136"),
        }));
    }
    let out = if x4 {
        keccak::shake_x4_on(&name, rate, &input, outlen as usize / rate as usize / 4)
    } else {
        keccak::shake_on(&name, rate, &input, outlen as usize, chunk as usize)
    };
    out.map(Uint8Array::from).ok_or_else(|| {
        js(Fail {
            code: ERR_INVALID_ARGUMENT,
            msg: format!(
                "Keccak implementation {name} is not available here (or x4 input not in quarters)"
            ),
        })
    })
}

#[napi(object)]
pub struct NativeStats {
    /// ML-DSA seeds expanded into key pairs (keygen) since the process started.
    pub seed_expansions: i64,
}

/// Counters for tests and operators: a hot path that expands a seed per signature shows here.
#[napi]
pub fn stats() -> NativeStats {
    NativeStats {
        seed_expansions: mldsa::seed_expansions() as i64,
    }
}

/// Test hook (internal.js): one traditional half verified alone, over `message` as given, by the
/// binding's own verifier (AWS-LC for ECDSA, ed25519-dalek, ed448-goldilocks) or, with
/// `rustcrypto`, by the RustCrypto ECDSA verifier that preceded AWS-LC's, so the tests can run
/// Wycheproof through both and show they agree on everything else they construct.
#[napi]
pub fn traditional_verify(
    trad_alg: u32,
    rustcrypto: bool,
    public_key: Uint8ArraySlice,
    message: Uint8ArraySlice,
    signature: Uint8ArraySlice,
) -> Result<bool> {
    let alg = trad::TradAlg::from_id(trad_alg).js()?;
    if rustcrypto {
        trad::verify_ecdsa_rustcrypto(alg, &public_key, &message, &signature).js()
    } else {
        let k = trad::TradPublic::import(alg, &public_key).js()?;
        Ok(k.verify(alg, &message, &signature))
    }
}

/// FIPS 204 KeyGen_internal from a 32-byte seed.
#[napi]
pub fn keygen(alg: u32, force_ref: bool, seed: Option<Uint8ArraySlice>) -> Result<SecretKeyHandle> {
    let p = mldsa(alg).js()?;
    let Some(seed) = seed else {
        return Err(js(Fail {
            code: ERR_INVALID_SEED,
            msg: format!("{} keygen needs a 32-byte seed", p.name),
        }));
    };
    let (pk, sk) = p.keygen(pick(force_ref), &seed).js()?;
    Ok(SecretKeyHandle::new(alg, keys::Secret::Bytes(sk), Some(pk)))
}

#[napi]
pub fn import_secret_key(alg: u32, bytes: Uint8ArraySlice) -> Result<SecretKeyHandle> {
    mldsa(alg).js()?.check_sk(&bytes).js()?;
    Ok(SecretKeyHandle::new(
        alg,
        keys::Secret::Bytes(zeroize::Zeroizing::new(bytes.to_vec())),
        None,
    ))
}

/// One composite ML-DSA algorithm (its ML-DSA set, traditional algorithm, Label and pre-hash),
/// made once per algorithm on the JS side and shared by its keys.
#[napi]
pub struct CompositeScheme {
    spec: Arc<Spec>,
}

#[napi]
impl CompositeScheme {
    /// `trad_alg`: 0 Ed25519, 1 ECDSA P-256, 2 ECDSA P-384, 3 Ed448. `pre_hash`: 0 SHA-256,
    /// 1 SHA-512, 2 SHAKE256 (64 bytes).
    #[napi(constructor)]
    pub fn new(mldsa_alg: u32, trad_alg: u32, label: Uint8ArraySlice, pre_hash: u32) -> Result<Self> {
        let spec = Spec::new(
            mldsa(mldsa_alg).js()?,
            trad::TradAlg::from_id(trad_alg).js()?,
            &label,
            PreHash::from_id(pre_hash).js()?,
        )
        .js()?;
        Ok(CompositeScheme { spec })
    }

    #[napi(getter)]
    pub fn public_key_bytes(&self) -> u32 {
        self.spec.public_len() as u32
    }

    #[napi(getter)]
    pub fn traditional_secret_key_bytes(&self) -> u32 {
        self.spec.trad.secret_len() as u32
    }

    #[napi(getter)]
    pub fn min_signature_bytes(&self) -> u32 {
        self.spec.min_sig_len() as u32
    }

    #[napi(getter)]
    pub fn max_signature_bytes(&self) -> u32 {
        self.spec.max_sig_len() as u32
    }

    /// The composite key from the 32-byte ML-DSA seed and the raw traditional private key
    /// (Ed25519 / Ed448 seed, ECDSA d); the public key (ML-DSA pk ‖ traditional pk) is taken
    /// once with takePublicKey().
    #[napi]
    pub fn keygen(
        &self,
        force_ref: bool,
        seed: Uint8ArraySlice,
        traditional: Uint8ArraySlice,
    ) -> Result<SecretKeyHandle> {
        let imp = pick(force_ref);
        let (key, pk) = CompositeSecret::new(Arc::clone(&self.spec), imp, &seed, &traditional).js()?;
        Ok(SecretKeyHandle::new(
            COMPOSITE,
            keys::Secret::Composite(Box::new(key)),
            Some(pk),
        ))
    }

    /// Parses and checks a composite public key once, for any number of verifications.
    #[napi]
    pub fn public_key(&self, bytes: Uint8ArraySlice) -> Result<CompositePublicKey> {
        Ok(CompositePublicKey {
            key: Arc::new(CompositePublic::new(Arc::clone(&self.spec), &bytes).js()?),
        })
    }

    /// ERR_KEY_ALGORITHM_MISMATCH unless `key` is a live key of this composite.
    #[napi]
    pub fn check_key(&self, key: &SecretKeyHandle) -> Result<()> {
        key.material(COMPOSITE).js()?.composite().js()?.check_spec(&self.spec).js()
    }
}

#[napi]
pub struct CompositePublicKey {
    key: Arc<CompositePublic>,
}

#[napi]
pub fn composite_verify(
    force_ref: bool,
    key: &CompositePublicKey,
    message: Uint8ArraySlice,
    signature: Uint8ArraySlice,
    context: Option<Uint8ArraySlice>,
) -> Result<bool> {
    let ctx = composite_context(context.as_deref()).js()?;
    key.key
        .verify(pick(force_ref), &message, &ctx, &signature)
        .js()
}

fn composite_context(ctx: Option<&[u8]>) -> Res<Vec<u8>> {
    let ctx = ctx.unwrap_or(&[]);
    if ctx.len() > mldsa::MAX_CONTEXT {
        return fail(
            ERR_CONTEXT_TOO_LONG,
            format!("context must be at most 255 bytes, got {}", ctx.len()),
        );
    }
    Ok(ctx.to_vec())
}

pub struct CompositeVerifyJob {
    force_ref: bool,
    key: Arc<CompositePublic>,
    message: Vec<u8>,
    signature: Vec<u8>,
    context: Vec<u8>,
}

impl PoolJob for CompositeVerifyJob {
    type Output = bool;
    type JsValue = bool;

    fn run(&mut self) -> Res<bool> {
        self.key
            .verify(pick(self.force_ref), &self.message, &self.context, &self.signature)
    }

    fn to_js(output: bool) -> bool {
        output
    }
}

/// Both halves of a composite verified in one pool task.
#[napi(ts_return_type = "Promise<boolean>")]
pub fn composite_verify_async(
    force_ref: bool,
    key: &CompositePublicKey,
    message: Uint8ArraySlice,
    signature: Uint8ArraySlice,
    context: Option<Uint8ArraySlice>,
) -> Result<AsyncTask<PoolTask<CompositeVerifyJob>>> {
    let context = composite_context(context.as_deref()).js()?;
    // Length errors are reported synchronously, as for ML-DSA.
    key.key.check_length(&signature).js()?;
    Ok(AsyncTask::new(PoolTask(CompositeVerifyJob {
        force_ref,
        key: Arc::clone(&key.key),
        message: message.to_vec(),
        signature: signature.to_vec(),
        context,
    })))
}

/// What a job signs: a message with its prefix (`pre` = 0 ‖ |ctx| ‖ ctx for ML-DSA, empty for
/// M′ given directly, the application context for a composite), or an external μ.
enum Signed {
    Message { message: Vec<u8>, pre: Vec<u8> },
    Mu(Vec<u8>),
}

/// One prepared signature: copies of its inputs and an `Arc` of the key, so the JS side may
/// free the key or mutate its buffers while the job waits or runs. Built on the JS thread
/// (where every input error is thrown synchronously), signed on a pool thread.
pub struct SignJob {
    alg: u32,
    force_ref: bool,
    key: Arc<KeyMaterial>,
    signed: Signed,
    rnd: RndSource,
}

impl SignJob {
    fn new(
        alg: u32,
        force_ref: bool,
        key: &SecretKeyHandle,
        signed: Signed,
        rnd: Option<&[u8]>,
        deterministic: bool,
    ) -> Res<Self> {
        let key = key.material(alg)?;
        match (scheme(alg)?, &signed) {
            (Scheme::MlDsa(p), _) => p.check_sk(key.bytes()?)?,
            (Scheme::Composite, Signed::Message { .. }) => {
                key.composite()?;
            }
            (Scheme::Composite, Signed::Mu(_)) => return unsupported(alg),
        }
        if let Signed::Mu(mu) = &signed {
            mldsa::check_mu(mu)?;
        }
        Ok(SignJob {
            alg,
            force_ref,
            key,
            signed,
            rnd: RndSource::new(rnd, deterministic)?,
        })
    }

    /// A message with its FIPS 204 context (ML-DSA) or application context (composite).
    fn message(
        alg: u32,
        force_ref: bool,
        key: &SecretKeyHandle,
        message: &[u8],
        context: Option<&[u8]>,
        rnd: Option<&[u8]>,
        deterministic: bool,
    ) -> Res<Self> {
        let ctx = context.unwrap_or(&[]);
        let pre = match scheme(alg)? {
            Scheme::MlDsa(_) => mldsa::pure_prefix(ctx)?,
            Scheme::Composite => composite_context(Some(ctx))?,
        };
        let signed = Signed::Message {
            message: message.to_vec(),
            pre,
        };
        SignJob::new(alg, force_ref, key, signed, rnd, deterministic)
    }

    fn sign(&self) -> Res<Vec<u8>> {
        let rnd = self.rnd.bytes()?;
        let imp = pick(self.force_ref);
        match (scheme(self.alg)?, &self.signed) {
            (Scheme::MlDsa(p), Signed::Message { message, pre }) => {
                p.sign_internal(imp, self.key.bytes()?, message, pre, &rnd)
            }
            (Scheme::MlDsa(p), Signed::Mu(mu)) => p.sign_mu(imp, self.key.bytes()?, mu, &rnd),
            // A composite's ECDSA half takes a fresh k of its own when rnd is fresh.
            (Scheme::Composite, Signed::Message { message, pre }) => {
                self.key
                    .composite()?
                    .sign(imp, message, pre, &rnd, self.rnd.is_fresh())
            }
            (Scheme::Composite, Signed::Mu(_)) => unsupported(self.alg),
        }
    }
}

/// Work for the libuv pool: a signature (SignJob), a batch of them (SignBatch), a verification.
pub trait PoolJob: Send + 'static {
    type Output: Send + 'static;
    type JsValue: ToNapiValue + TypeName;
    fn run(&mut self) -> Res<Self::Output>;
    fn to_js(output: Self::Output) -> Self::JsValue;
}

impl PoolJob for SignJob {
    type Output = Vec<u8>;
    type JsValue = Uint8Array;
    fn run(&mut self) -> Res<Vec<u8>> {
        self.sign()
    }
    fn to_js(output: Vec<u8>) -> Uint8Array {
        output.into()
    }
}

/// The one napi Task: runs a PoolJob on a pool thread and hands its result to JS.
pub struct PoolTask<J: PoolJob>(J);

impl<J: PoolJob> Task for PoolTask<J> {
    type Output = J::Output;
    type JsValue = J::JsValue;

    fn compute(&mut self) -> Result<Self::Output> {
        self.0.run().js()
    }

    fn resolve(&mut self, _env: Env, output: Self::Output) -> Result<Self::JsValue> {
        Ok(J::to_js(output))
    }
}

/// Sync sign. The signature is copied into a V8-owned ArrayBuffer: cheaper than an external
/// buffer with a finaliser (no weak callback / GC bookkeeping per signature).
#[napi(ts_return_type = "Uint8Array")]
#[allow(clippy::too_many_arguments)]
pub fn sign<'env>(
    env: &'env Env,
    alg: u32,
    force_ref: bool,
    key: &SecretKeyHandle,
    message: Uint8ArraySlice,
    context: Option<Uint8ArraySlice>,
    rnd: Option<Uint8ArraySlice>,
    deterministic: bool,
) -> Result<Uint8ArraySlice<'env>> {
    let job = SignJob::message(
        alg,
        force_ref,
        key,
        &message,
        context.as_deref(),
        rnd.as_deref(),
        deterministic,
    );
    Uint8ArraySlice::copy_from(env, job.and_then(|j| j.sign()).js()?)
}

#[napi(ts_return_type = "Promise<Uint8Array>")]
pub fn sign_async(
    alg: u32,
    force_ref: bool,
    key: &SecretKeyHandle,
    message: Uint8ArraySlice,
    context: Option<Uint8ArraySlice>,
    rnd: Option<Uint8ArraySlice>,
    deterministic: bool,
) -> Result<AsyncTask<PoolTask<SignJob>>> {
    let job = SignJob::message(
        alg,
        force_ref,
        key,
        &message,
        context.as_deref(),
        rnd.as_deref(),
        deterministic,
    );
    Ok(AsyncTask::new(PoolTask(job.js()?)))
}

fn verify_prefix(alg: u32, ctx: Option<&[u8]>) -> Res<(&'static mldsa::Params, Vec<u8>)> {
    Ok((mldsa(alg)?, mldsa::pure_prefix(ctx.unwrap_or(&[]))?))
}

#[napi]
pub fn verify(
    alg: u32,
    force_ref: bool,
    public_key: Uint8ArraySlice,
    message: Uint8ArraySlice,
    signature: Uint8ArraySlice,
    context: Option<Uint8ArraySlice>,
) -> Result<bool> {
    let (p, pre) = verify_prefix(alg, context.as_deref()).js()?;
    p.verify_internal(pick(force_ref), &public_key, &message, &pre, &signature)
        .js()
}

/// ACVP "internal interface" hook: `m_prime` is M′ itself (no 0x00‖len‖ctx prefix).
#[napi]
pub fn mldsa_sign_internal(
    alg: u32,
    force_ref: bool,
    key: &SecretKeyHandle,
    m_prime: Uint8ArraySlice,
    rnd: Option<Uint8ArraySlice>,
    deterministic: bool,
) -> Result<Uint8Array> {
    mldsa(alg).js()?;
    let signed = Signed::Message {
        message: m_prime.to_vec(),
        pre: Vec::new(),
    };
    let job = SignJob::new(alg, force_ref, key, signed, rnd.as_deref(), deterministic);
    Ok(job.and_then(|j| j.sign()).js()?.into())
}

/// Signs a 64-byte external μ = H(tr ‖ M′, 64): the same signature as for the message μ was
/// computed from (hedged, deterministic or with the caller's rnd, as `sign`).
#[napi(ts_return_type = "Uint8Array")]
pub fn mldsa_sign_mu<'env>(
    env: &'env Env,
    alg: u32,
    force_ref: bool,
    key: &SecretKeyHandle,
    mu: Uint8ArraySlice,
    rnd: Option<Uint8ArraySlice>,
    deterministic: bool,
) -> Result<Uint8ArraySlice<'env>> {
    mldsa(alg).js()?;
    let job = SignJob::new(alg, force_ref, key, Signed::Mu(mu.to_vec()), rnd.as_deref(), deterministic);
    Uint8ArraySlice::copy_from(env, job.and_then(|j| j.sign()).js()?)
}

/// mldsaSignMu on the libuv pool; input errors are thrown synchronously.
#[napi(ts_return_type = "Promise<Uint8Array>")]
pub fn mldsa_sign_mu_async(
    alg: u32,
    force_ref: bool,
    key: &SecretKeyHandle,
    mu: Uint8ArraySlice,
    rnd: Option<Uint8ArraySlice>,
    deterministic: bool,
) -> Result<AsyncTask<PoolTask<SignJob>>> {
    mldsa(alg).js()?;
    let job = SignJob::new(alg, force_ref, key, Signed::Mu(mu.to_vec()), rnd.as_deref(), deterministic);
    Ok(AsyncTask::new(PoolTask(job.js()?)))
}

/// ACVP hook: Verify_internal over M′ itself or, with `external_mu`, from a 64-byte μ.
#[napi]
pub fn mldsa_verify_internal(
    alg: u32,
    force_ref: bool,
    public_key: Uint8ArraySlice,
    m_prime: Uint8ArraySlice,
    signature: Uint8ArraySlice,
    external_mu: Option<bool>,
) -> Result<bool> {
    let p = mldsa(alg).js()?;
    let imp = pick(force_ref);
    if external_mu.unwrap_or(false) {
        p.verify_mu(imp, &public_key, &m_prime, &signature).js()
    } else {
        p.verify_internal(imp, &public_key, &m_prime, &[], &signature)
            .js()
    }
}

/// Signatures collected on the JS thread and signed together by one pool task. Each async
/// work costs the JS thread ~10 µs (work and promise creation, a wake-up, a callback scope),
/// which on a 2-core machine is taken from the signing threads; a batch pays it once.
#[napi]
pub struct SignBatch {
    jobs: Vec<SignJob>,
}

/// Every signature of a batch, concatenated: job i is `signatures[ends[i-1]..ends[i]]`.
/// A job that failed has an empty range and its "ERR_CODE: message" in `failures`.
#[napi(object)]
pub struct SignBatchResult {
    pub signatures: Uint8Array,
    pub ends: Vec<u32>,
    pub failures: Vec<SignBatchFailure>,
}

#[napi(object)]
pub struct SignBatchFailure {
    pub index: u32,
    pub message: String,
}

#[napi]
impl SignBatch {
    #[napi(constructor)]
    #[allow(clippy::new_without_default)]
    pub fn new() -> Self {
        SignBatch { jobs: Vec::new() }
    }

    /// Validates and copies one job's inputs (throwing on bad input) and returns the batch size.
    #[napi]
    #[allow(clippy::too_many_arguments)]
    pub fn add(
        &mut self,
        alg: u32,
        force_ref: bool,
        key: &SecretKeyHandle,
        message: Uint8ArraySlice,
        context: Option<Uint8ArraySlice>,
        rnd: Option<Uint8ArraySlice>,
        deterministic: bool,
    ) -> Result<u32> {
        let job = SignJob::message(
            alg,
            force_ref,
            key,
            &message,
            context.as_deref(),
            rnd.as_deref(),
            deterministic,
        )
        .js()?;
        self.jobs.push(job);
        Ok(self.jobs.len() as u32)
    }

    /// Signs every job added so far on one pool thread; the batch is empty afterwards.
    #[napi(ts_return_type = "Promise<SignBatchResult>")]
    pub fn run(&mut self) -> AsyncTask<PoolTask<Vec<SignJob>>> {
        AsyncTask::new(PoolTask(std::mem::take(&mut self.jobs)))
    }
}

impl PoolJob for Vec<SignJob> {
    type Output = (Vec<u8>, Vec<u32>, Vec<(u32, String)>);
    type JsValue = SignBatchResult;

    fn run(&mut self) -> Res<Self::Output> {
        let mut out = Vec::new();
        let mut ends = Vec::with_capacity(self.len());
        let mut failures = Vec::new();
        for (i, job) in self.iter().enumerate() {
            // Between signatures, let a runnable JS thread have this core: a pool thread that
            // signs a whole batch without yielding kept a woken event loop waiting (measured:
            // event-loop delay p99 4-5 ms without, 2-2.6 ms with, same throughput). One task per
            // signature yields naturally when the thread goes back to libuv's queue.
            if i > 0 {
                std::thread::yield_now();
            }
            match job.sign() {
                Ok(sig) => out.extend_from_slice(&sig),
                Err(f) => failures.push((i as u32, format!("{}: {}", f.code, f.msg))),
            }
            ends.push(out.len() as u32);
        }
        Ok((out, ends, failures))
    }

    fn to_js((sigs, ends, failures): Self::Output) -> SignBatchResult {
        SignBatchResult {
            signatures: sigs.into(),
            ends,
            failures: failures
                .into_iter()
                .map(|(index, message)| SignBatchFailure { index, message })
                .collect(),
        }
    }
}

pub struct VerifyJob {
    p: &'static mldsa::Params,
    force_ref: bool,
    public_key: Vec<u8>,
    message: Vec<u8>,
    signature: Vec<u8>,
    pre: Vec<u8>,
}

impl PoolJob for VerifyJob {
    type Output = bool;
    type JsValue = bool;

    fn run(&mut self) -> Res<bool> {
        self.p.verify_internal(
            pick(self.force_ref),
            &self.public_key,
            &self.message,
            &self.pre,
            &self.signature,
        )
    }

    fn to_js(output: bool) -> bool {
        output
    }
}

#[napi(ts_return_type = "Promise<boolean>")]
pub fn verify_async(
    alg: u32,
    force_ref: bool,
    public_key: Uint8ArraySlice,
    message: Uint8ArraySlice,
    signature: Uint8ArraySlice,
    context: Option<Uint8ArraySlice>,
) -> Result<AsyncTask<PoolTask<VerifyJob>>> {
    let (p, pre) = verify_prefix(alg, context.as_deref()).js()?;
    // Length errors are reported synchronously (same as verify) rather than as rejections.
    p.check_verify_lengths(&public_key, &signature).js()?;
    Ok(AsyncTask::new(PoolTask(VerifyJob {
        p,
        force_ref,
        public_key: public_key.to_vec(),
        message: message.to_vec(),
        signature: signature.to_vec(),
        pre,
    })))
}

/// Test hook (internal.js): does the key hold exactly `expected`? Lets the ACVP keyGen test
/// check the expanded sk byte-for-byte without ever exporting secret bytes to JS.
/// Constant-time over the common length.
#[napi]
pub fn secret_key_equals(key: &SecretKeyHandle, expected: Uint8ArraySlice) -> Result<bool> {
    let k = key.material(key.alg()).js()?;
    let bytes = k.bytes().js()?;
    if bytes.len() != expected.len() {
        return Ok(false);
    }
    let diff = bytes
        .iter()
        .zip(expected.iter())
        .fold(0u8, |acc, (a, b)| acc | (a ^ b));
    Ok(diff == 0)
}
