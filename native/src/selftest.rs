//! Power-on self-test, as FIPS 140 modules run one: before the addon is used, each ML-DSA
//! parameter set, on every implementation this CPU would run (ref, and the native build when
//! chosen: x86_64-avx2 or aarch64-neon),
//! must (1) derive a key pair from a fixed seed and sign a known answer deterministically with
//! it (so seeded keygen is covered too), (2) verify that signature, and (3) refuse a
//! known-bad signature whose only defect is ‖z‖∞ = γ1 − β (FIPS 204 Alg. 8 line 13, the check
//! that the pq-crystals AVX2 verifier of liboqs 0.13 skipped). The data (selftest/*.bin) is made by
//! test/vectors/pqid-mldsa-verify/generate.ts: KAT digest (32) ‖ bad public key ‖ bad signature.
//! Runs once per process, in a few milliseconds; core.js refuses to load the addon on failure.

use crate::ffi::OQS_SHA3_shake256;
use crate::mldsa::{Impl, Params, ML_DSA_44, ML_DSA_65, ML_DSA_87};
use std::sync::OnceLock;

const MESSAGE: &[u8] = b"pqid power-on self-test";
/// Pure ML-DSA with the empty context: M′ = 0x00 ‖ 0x00 ‖ M.
const PRE: [u8; 2] = [0, 0];

static DATA: [(&Params, &[u8]); 3] = [
    (&ML_DSA_44, include_bytes!("../selftest/ML-DSA-44.bin")),
    (&ML_DSA_65, include_bytes!("../selftest/ML-DSA-65.bin")),
    (&ML_DSA_87, include_bytes!("../selftest/ML-DSA-87.bin")),
];

fn shake256(input: &[u8], out: &mut [u8]) {
    unsafe { OQS_SHA3_shake256(out.as_mut_ptr(), out.len(), input.as_ptr(), input.len()) }
}

pub struct Outcome {
    pub error: Option<String>,
    pub micros: u32,
    pub checks: u32,
}

fn one(p: &Params, data: &[u8], imp: Impl, corrupt: bool) -> Result<(), String> {
    let name = format!("{} ({})", p.name, imp.name());
    if data.len() != 32 + p.pk_len + p.sig_len {
        return Err(format!("{name}: self-test data has the wrong size"));
    }
    let (kat, rest) = data.split_at(32);
    let (bad_pk, bad_sig) = rest.split_at(p.pk_len);
    // The generator's seed: SHAKE256("pqid seed <alg> self-test", 32).
    let mut seed = [0u8; 32];
    shake256(format!("pqid seed {} self-test", p.name).as_bytes(), &mut seed);
    let (pk, sk) = p.keygen(imp, &seed).map_err(|f| f.msg)?;
    let sig = p
        .sign_internal(imp, &sk, MESSAGE, &PRE, &[0u8; 32])
        .map_err(|f| f.msg)?;
    let mut digest = [0u8; 32];
    shake256(&sig, &mut digest);
    if corrupt {
        digest[0] ^= 1;
    }
    if digest != kat {
        return Err(format!("{name}: known-answer signature differs"));
    }
    if !p.verify_internal(imp, &pk, MESSAGE, &PRE, &sig).map_err(|f| f.msg)? {
        return Err(format!("{name}: rejects its known-answer signature"));
    }
    if p
        .verify_internal(imp, bad_pk, MESSAGE, &PRE, bad_sig)
        .map_err(|f| f.msg)?
    {
        return Err(format!(
            "{name}: accepts the known-bad signature (‖z‖∞ = γ1 − β, FIPS 204 Alg. 8 line 13)"
        ));
    }
    Ok(())
}

fn run(corrupt: bool) -> Outcome {
    let started = std::time::Instant::now();
    let mut checks = 0;
    let mut error = None;
    'all: for (p, data) in DATA.iter() {
        let mut impls = vec![Impl::Ref];
        if Impl::auto() == Impl::Native {
            impls.push(Impl::Native);
        }
        for imp in impls {
            if let Err(e) = one(p, data, imp, corrupt) {
                error = Some(e);
                break 'all;
            }
            checks += 1;
        }
    }
    Outcome {
        error,
        micros: started.elapsed().as_micros().min(u32::MAX as u128) as u32,
        checks,
    }
}

static RESULT: OnceLock<Outcome> = OnceLock::new();

/// The self-test result, run on first call. `corrupt` (a test hook, honoured only on that first
/// call) changes the expected known answer so the failure path can be exercised.
pub fn result(corrupt: bool) -> &'static Outcome {
    RESULT.get_or_init(|| run(corrupt))
}
