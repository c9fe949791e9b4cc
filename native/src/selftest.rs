//! Power-on self-test, as FIPS 140 modules run one: before the addon is used, each ML-DSA
//! parameter set, on every implementation this CPU would run (ref, and the native build when
//! chosen: x86_64-avx2 or aarch64-neon),
//! must (1) derive a key pair from a fixed seed and sign a known answer deterministically with
//! it (so seeded keygen is covered too), (2) verify that signature, and (3) refuse a
//! known-bad signature whose only defect is ‖z‖∞ = γ1 − β (FIPS 204 Alg. 8 line 13, the check
//! that the pq-crystals AVX2 verifier of liboqs 0.13 skipped). The data (selftest/*.bin) is made by
//! test/vectors/pqid-mldsa-verify/generate.ts: KAT digest (32) ‖ bad public key ‖ bad signature.
//! Before those, every Keccak implementation this CPU runs (csrc/keccak.c: avx512vl, avx2,
//! portable) must reproduce known SHAKE128/SHAKE256 answers, one and four at a time, so the
//! ML-DSA checks, which run on the selected one, are not the only cover of the others.
//! Runs once per process, in a few milliseconds; core.js refuses to load the addon on failure.

use crate::keccak::{self, shake256, SHAKE128_RATE, SHAKE256_RATE};
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

/// SHAKE256 of the outputs of KECCAK_WORK (below) for the input byte i = 7i + 1 mod 256,
/// computed with an independent SHA-3 (native/test/selftest.test.ts recomputes it with
/// node:crypto).
const KECCAK_KAT: &str = "9e538a806f47bbc0d1c4178c48a66818af0cd4599db0f436c83ceadb5a2ed60f";

/// The known answers for Keccak implementation `name`: multi-block absorbing and squeezing,
/// whole and in 7-byte steps, one SHAKE128 and SHAKE256 at a time and four at a time (the
/// widths and rates mldsa-native uses).
fn keccak_kat(name: &str) -> Result<(), String> {
    let input: Vec<u8> = (0..800u32).map(|i| (i * 7 + 1) as u8).collect();
    let missing = || format!("Keccak ({name}): not available");
    let a = keccak::shake_on(name, SHAKE256_RATE, &input[..300], 300, 0).ok_or_else(missing)?;
    let stepped = keccak::shake_on(name, SHAKE256_RATE, &input[..300], 300, 7).ok_or_else(missing)?;
    if stepped != a {
        return Err(format!("Keccak ({name}): SHAKE256 in steps differs from SHAKE256 at once"));
    }
    let mut all = a;
    all.extend(keccak::shake_on(name, SHAKE128_RATE, &input[..200], 400, 0).ok_or_else(missing)?);
    all.extend(keccak::shake_x4_on(name, SHAKE128_RATE, &input[..4 * 34], 2).ok_or_else(missing)?);
    all.extend(keccak::shake_x4_on(name, SHAKE256_RATE, &input[..4 * 66], 2).ok_or_else(missing)?);
    all.extend(keccak::shake_x4_on(name, SHAKE256_RATE, &input[..4 * 200], 1).ok_or_else(missing)?);
    // Digested with the portable code, which the same known answer checks first.
    let digest = keccak::shake_on("portable", SHAKE256_RATE, &all, 32, 0).ok_or_else(missing)?;
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    if hex != KECCAK_KAT {
        return Err(format!("Keccak ({name}): known-answer SHAKE output differs"));
    }
    Ok(())
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
    // The portable Keccak first: the others' answers are digested with it.
    let mut kecc = keccak::available();
    kecc.reverse();
    for name in kecc {
        if let Err(e) = keccak_kat(name) {
            return Outcome {
                error: Some(e),
                micros: started.elapsed().as_micros().min(u32::MAX as u128) as u32,
                checks,
            };
        }
        checks += 1;
    }
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
