//! Direct harness: the exact Rust code path the binding uses (same mldsa-native builds, same
//! `*_signature_internal` calls, same seed keygen), with no N-API in between.
//!
//!   cargo run --release --example direct [-- --impl ref|auto] [--iters N] [--msg-bytes N] [--json]
//!
//! Prints median/p99 µs for ML-DSA-44/65/87 keygen/sign/verify (sign = hedged, OS rnd,
//! empty context, exactly as `scheme.sign(sk, msg)` does; signDet = deterministic, a fixed
//! amount of work per call, which isolates binding overhead). Then the composites' traditional
//! halves (src/trad.rs: AWS-LC and RustCrypto, each path the binding takes) over a message the
//! size of a composite's M′, and each composite signed whole against its ML-DSA alone, the two
//! interleaved call by call (so the traditional half pays the cache misses it pays in the pool).
#![allow(dead_code)]

#[path = "../src/composite.rs"]
mod composite;
#[path = "../src/cpu.rs"]
mod cpu;
#[path = "../src/errors.rs"]
mod errors;
#[path = "../src/ffi.rs"]
mod ffi;
#[path = "../src/keccak.rs"]
mod keccak;
#[path = "../src/mldsa.rs"]
mod mldsa;
#[path = "../src/trad.rs"]
mod trad;

use std::hint::black_box;
use std::time::Instant;

fn stats(mut v: Vec<f64>) -> (f64, f64, f64) {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let q = |p: f64| v[((v.len() - 1) as f64 * p).round() as usize];
    let mean = v.iter().sum::<f64>() / v.len() as f64;
    (q(0.5), q(0.99), mean)
}

fn time<F: FnMut()>(iters: usize, mut f: F) -> (f64, f64, f64) {
    for _ in 0..iters / 10 + 1 {
        f();
    }
    let mut out = Vec::with_capacity(iters);
    for _ in 0..iters {
        let t = Instant::now();
        f();
        out.push(t.elapsed().as_nanos() as f64 / 1000.0);
    }
    stats(out)
}

/// The command line: `--json`, `--iters N`, `--msg-bytes N`, `--impl ref|auto`.
struct Options {
    json: bool,
    iters: usize,
    msg_bytes: usize,
    force_ref: bool,
}

impl Options {
    fn parse() -> Self {
        let args: Vec<String> = std::env::args().collect();
        let arg = |name: &str| {
            args.iter()
                .position(|a| a == name)
                .and_then(|i| args.get(i + 1))
                .cloned()
        };
        Options {
            json: args.iter().any(|a| a == "--json"),
            iters: arg("--iters").and_then(|s| s.parse().ok()).unwrap_or(2000),
            msg_bytes: arg("--msg-bytes")
                .and_then(|s| s.parse().ok())
                .unwrap_or(256),
            force_ref: arg("--impl").as_deref() == Some("ref"),
        }
    }

    fn implementation(&self) -> mldsa::Impl {
        if self.force_ref {
            mldsa::Impl::Ref
        } else {
            mldsa::Impl::auto()
        }
    }
}

type Stats = (f64, f64, f64);

/// One ML-DSA parameter set's timings: name, implementation, keygen, sign, verify, sign (det).
type MldsaRow = (&'static str, &'static str, Stats, Stats, Stats, Stats);

fn mldsa_row(p: &'static mldsa::Params, o: &Options, msg: &[u8]) -> MldsaRow {
    let (imp, iters) = (o.implementation(), o.iters);
    let mut seed = [0u8; 32];
    let kg = time(iters.min(1000), || {
        seed[0] = seed[0].wrapping_add(1);
        black_box(p.keygen(imp, &seed).unwrap());
    });
    let (pk, sk) = p.keygen(imp, &[42u8; 32]).unwrap();
    let sign_with = |deterministic: bool| {
        time(iters, || {
            let pre = mldsa::pure_prefix(&[]).unwrap();
            let rnd = if deterministic {
                mldsa::RndSource::new(None, true).unwrap().bytes().unwrap()
            } else {
                mldsa::RndSource::Fresh.bytes().unwrap()
            };
            black_box(
                p.sign_internal(imp, &sk, black_box(msg), &pre, &rnd)
                    .unwrap(),
            );
        })
    };
    let (sign, sign_det) = (sign_with(false), sign_with(true));
    let sig = {
        let pre = mldsa::pure_prefix(&[]).unwrap();
        let rnd = mldsa::RndSource::Fresh.bytes().unwrap();
        p.sign_internal(imp, &sk, msg, &pre, &rnd).unwrap()
    };
    let verify = time(iters, || {
        let pre = mldsa::pure_prefix(&[]).unwrap();
        assert!(p
            .verify_internal(imp, &pk, black_box(msg), &pre, &sig)
            .unwrap());
    });
    (p.name, imp.name(), kg, sign, verify, sign_det)
}

/// The CPU model and the flags that matter to these code paths, from /proc/cpuinfo (Linux):
/// every figure is a ratio on one machine, so the machine is printed with it.
fn machine() -> (String, String) {
    const FLAGS: [&str; 9] = [
        "avx2",
        "avx512f",
        "avx512ifma",
        "bmi2",
        "adx",
        "aes",
        "vaes",
        "sha_ni",
        "asimd",
    ];
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let field = |name: &str| {
        info.lines()
            .find(|l| l.split(':').next().is_some_and(|k| k.trim() == name))
            .and_then(|l| l.split_once(':'))
            .map(|(_, v)| v.trim().to_string())
    };
    let model = field("model name")
        .or_else(|| field("CPU part"))
        .unwrap_or_else(|| "unknown CPU".into());
    let present = field("flags")
        .or_else(|| field("Features"))
        .unwrap_or_default();
    let have: Vec<&str> = FLAGS
        .into_iter()
        .filter(|f| present.split_whitespace().any(|p| p == *f))
        .collect();
    (model, have.join(" "))
}

fn build_name() -> &'static str {
    if cpu::tuned_build() {
        "native-tuned"
    } else {
        "dist"
    }
}

fn print_mldsa_json(rows: &[MldsaRow], o: &Options) {
    let ops: Vec<String> = rows
        .iter()
        .map(|(n, i, k, s, v, d)| {
            format!(
                "{{\"alg\":\"{n}\",\"implementation\":\"{i}\",\"keygen\":{{\"median\":{:.2},\"p99\":{:.2},\"mean\":{:.2}}},\"sign\":{{\"median\":{:.2},\"p99\":{:.2},\"mean\":{:.2}}},\"verify\":{{\"median\":{:.2},\"p99\":{:.2},\"mean\":{:.2}}},\"signDet\":{{\"median\":{:.2},\"p99\":{:.2},\"mean\":{:.2}}}}}",
                k.0, k.1, k.2, s.0, s.1, s.2, v.0, v.1, v.2, d.0, d.1, d.2
            )
        })
        .collect();
    let (model, flags) = machine();
    println!(
        "{{\"core\":\"mldsa-native\",\"cpuModel\":{model:?},\"cpuFlags\":{flags:?},\"build\":\"{}\",\"compiled\":\"{}\",\"avx2\":{},\"iters\":{},\"msgBytes\":{},\"results\":[{}]}}",
        build_name(),
        cpu::compiled().join(" + "),
        cpu::cpu().avx2,
        o.iters,
        o.msg_bytes,
        ops.join(",")
    );
}

fn print_mldsa_table(rows: &[MldsaRow], o: &Options) {
    let (model, flags) = machine();
    println!("{model} ({flags})");
    println!(
        "direct harness — mldsa-native {} ({} build), avx2={}, {} iters, {}-byte message",
        cpu::compiled().join(" + "),
        build_name(),
        cpu::cpu().avx2,
        o.iters,
        o.msg_bytes
    );
    println!("| alg | impl | keygen median/p99 µs | sign median/p99 µs | sign (det) median/p99 µs | verify median/p99 µs |");
    println!("|---|---|---|---|---|---|");
    for (n, i, k, s, v, d) in rows {
        println!(
            "| {n} | {i} | {:.1} / {:.1} | {:.1} / {:.1} | {:.1} / {:.1} | {:.1} / {:.1} |",
            k.0, k.1, s.0, s.1, d.0, d.1, v.0, v.1
        );
    }
}

/// One traditional half: its default path, and for ECDSA the reproducible and RustCrypto ones.
fn trad_half(alg: trad::TradAlg, m_prime: &[u8], iters: usize) {
    let mut secret = vec![0x42u8; alg.secret_len()];
    secret[0] = 0x01; // below the ECDSA group order
    let sk = trad::TradSecret::import(alg, &secret).unwrap();
    let public = sk.public_bytes();
    let pk = trad::TradPublic::import(alg, &public).unwrap();
    let rnd = [7u8; 32];
    let default_path = match alg {
        trad::TradAlg::Ed25519 => "AWS-LC sign, ed25519-dalek verify_strict",
        trad::TradAlg::Ed448 => "ed448-goldilocks",
        _ => "hedged default: AWS-LC (random k), AWS-LC verify",
    };
    let sig = sk.sign(m_prime, trad::Nonce::Random).unwrap();
    let s = time(iters, || {
        black_box(sk.sign(black_box(m_prime), trad::Nonce::Random).unwrap());
    });
    let v = time(iters, || assert!(pk.verify(alg, black_box(m_prime), &sig)));
    let name = alg.name();
    println!(
        "| {name} | {default_path} | {:.1} / {:.1} | {:.1} / {:.1} |",
        s.0, s.1, v.0, v.1
    );
    if !matches!(alg, trad::TradAlg::P256 | trad::TradAlg::P384) {
        return;
    }
    // The reproducible modes (caller's rnd / deterministic) and the RustCrypto verifier the
    // binding used before AWS-LC, for the per-half comparison in docs/BENCHMARKS.md.
    let s = time(iters, || {
        black_box(
            sk.sign(black_box(m_prime), trad::Nonce::Rfc6979(&rnd))
                .unwrap(),
        );
    });
    let v = time(iters, || {
        assert!(trad::verify_ecdsa_rustcrypto(alg, &public, black_box(m_prime), &sig).unwrap())
    });
    println!(
        "| {name} | RustCrypto: RFC 6979 with rnd (caller's rnd / deterministic), RustCrypto verify | {:.1} / {:.1} | {:.1} / {:.1} |",
        s.0, s.1, v.0, v.1
    );
}

fn trad_halves(iters: usize) {
    // M′ = prefix (32) ‖ Label (~30) ‖ 0x00 ‖ PH (64): about 127 bytes.
    let m_prime = vec![0x5au8; 127];
    println!();
    println!(
        "composite traditional halves (src/trad.rs), {}-byte M′: what each path of the binding costs",
        m_prime.len()
    );
    println!("| algorithm | path | sign median/p99 µs | verify median/p99 µs |");
    println!("|---|---|---|---|");
    for alg in [
        trad::TradAlg::Ed25519,
        trad::TradAlg::P256,
        trad::TradAlg::P384,
        trad::TradAlg::Ed448,
    ] {
        trad_half(alg, &m_prime, iters);
    }
}

/// A composite: its name, ML-DSA parameter set, traditional half, label and pre-hash.
type CompositeSpec = (
    &'static str,
    &'static mldsa::Params,
    trad::TradAlg,
    &'static str,
    composite::PreHash,
);

const COMPOSITES: [CompositeSpec; 6] = [
    (
        "ML-DSA-44-Ed25519",
        &mldsa::ML_DSA_44,
        trad::TradAlg::Ed25519,
        "COMPSIG-MLDSA44-Ed25519-SHA512",
        composite::PreHash::Sha512,
    ),
    (
        "ML-DSA-65-Ed25519",
        &mldsa::ML_DSA_65,
        trad::TradAlg::Ed25519,
        "COMPSIG-MLDSA65-Ed25519-SHA512",
        composite::PreHash::Sha512,
    ),
    (
        "ML-DSA-44-ES256",
        &mldsa::ML_DSA_44,
        trad::TradAlg::P256,
        "COMPSIG-MLDSA44-ECDSA-P256-SHA256",
        composite::PreHash::Sha256,
    ),
    (
        "ML-DSA-65-ES256",
        &mldsa::ML_DSA_65,
        trad::TradAlg::P256,
        "COMPSIG-MLDSA65-ECDSA-P256-SHA512",
        composite::PreHash::Sha512,
    ),
    (
        "ML-DSA-87-ES384",
        &mldsa::ML_DSA_87,
        trad::TradAlg::P384,
        "COMPSIG-MLDSA87-ECDSA-P384-SHA512",
        composite::PreHash::Sha512,
    ),
    (
        "ML-DSA-87-Ed448",
        &mldsa::ML_DSA_87,
        trad::TradAlg::Ed448,
        "COMPSIG-MLDSA87-Ed448-SHAKE256",
        composite::PreHash::Shake256,
    ),
];

/// One composite signed whole against its pure ML-DSA, interleaved call by call: mean µs of each.
fn composite_vs_pure(
    spec: &CompositeSpec,
    imp: mldsa::Impl,
    input: &[u8],
    iters: usize,
) -> (f64, f64) {
    let &(_, p, alg, label, ph) = spec;
    let spec = composite::Spec::new(p, alg, label.as_bytes(), ph).unwrap();
    let mut secret = vec![0x42u8; alg.secret_len()];
    secret[0] = 0x01;
    let (key, _) = composite::CompositeSecret::new(spec, imp, &[9u8; 32], &secret).unwrap();
    let (_, sk) = p.keygen(imp, &[9u8; 32]).unwrap();
    let (mut whole, mut pure) = (Vec::with_capacity(iters), Vec::with_capacity(iters));
    for i in 0..iters + iters / 10 {
        let rnd = mldsa::RndSource::Fresh.bytes().unwrap();
        let t = Instant::now();
        black_box(key.sign(imp, black_box(input), &[], &rnd, true).unwrap());
        let w = t.elapsed().as_nanos() as f64 / 1000.0;
        let rnd = mldsa::RndSource::Fresh.bytes().unwrap();
        let t = Instant::now();
        let pre = mldsa::pure_prefix(&[]).unwrap();
        black_box(
            p.sign_internal(imp, &sk, black_box(input), &pre, &rnd)
                .unwrap(),
        );
        let q = t.elapsed().as_nanos() as f64 / 1000.0;
        if i >= iters / 10 {
            whole.push(w);
            pure.push(q);
        }
    }
    (stats(whole).2, stats(pure).2)
}

fn composites(o: &Options) {
    // Each composite whole (M′, the ML-DSA half, the traditional half, as one pool task does)
    // against its pure ML-DSA over the same 920-byte signing input (a typical ID token's),
    // interleaved call by call, hedged with OS randomness as signJwt signs by default.
    println!();
    println!(
        "composites signed whole against their pure ML-DSA, 920-byte message, interleaved, hedged"
    );
    // Means, not medians: CPU per token is the mean (hedged ML-DSA's rejection loop varies).
    println!("| composite | whole mean µs | pure mean µs | whole − pure µs | pure ÷ whole |");
    println!("|---|---|---|---|---|");
    let input: Vec<u8> = (0..920).map(|i| (i * 13 + 1) as u8).collect();
    for spec in &COMPOSITES {
        let (w, q) = composite_vs_pure(spec, o.implementation(), &input, o.iters);
        println!(
            "| {} | {w:.1} | {q:.1} | {:.1} | {:.2} |",
            spec.0,
            w - q,
            q / w
        );
    }
}

fn main() {
    let o = Options::parse();
    let msg: Vec<u8> = (0..o.msg_bytes).map(|i| (i * 31 + 7) as u8).collect();
    let rows: Vec<MldsaRow> = [&mldsa::ML_DSA_44, &mldsa::ML_DSA_65, &mldsa::ML_DSA_87]
        .into_iter()
        .map(|p| mldsa_row(p, &o, &msg))
        .collect();
    if o.json {
        print_mldsa_json(&rows, &o);
        return;
    }
    print_mldsa_table(&rows, &o);
    trad_halves(o.iters);
    composites(&o);
}
