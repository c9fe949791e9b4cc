//! The Keccak-p[1600] code every SHAKE in the addon runs (csrc/keccak.c): `avx512vl`, `avx2`
//! or `portable`, chosen once per process for this CPU. Tests and benchmarks may force another
//! that this CPU also runs; contexts keep the one they were opened with, so switching is safe
//! at any time. Counters, off unless a test turns them on, show which code ran.

use crate::ffi::*;
use core::ffi::c_int;

/// Names by csrc/pqid_keccak.h's numbers (PQID_KECCAK_PORTABLE = 0, …).
pub const NAMES: [&str; 3] = ["portable", "avx2", "avx512vl"];

pub const SHAKE128_RATE: u32 = 168;
pub const SHAKE256_RATE: u32 = 136;

fn id(name: &str) -> Option<c_int> {
    NAMES.iter().position(|n| *n == name).map(|i| i as c_int)
}

/// The implementation new hashes use.
pub fn active() -> &'static str {
    NAMES[unsafe { pqid_keccak_active() } as usize]
}

/// The implementations this binary has and this CPU runs, fastest first.
pub fn available() -> Vec<&'static str> {
    (0..NAMES.len())
        .rev()
        .filter(|&i| unsafe { pqid_keccak_available(i as c_int) } != 0)
        .map(|i| NAMES[i])
        .collect()
}

/// Use `name` from now on, or the detected one with `None`; false (nothing changed) when it is
/// not available.
pub fn force(name: Option<&str>) -> bool {
    match name {
        None => unsafe { pqid_keccak_force(-1) != 0 },
        Some(n) => id(n).is_some_and(|i| unsafe { pqid_keccak_force(i) } != 0),
    }
}

pub fn count(on: bool) {
    unsafe { pqid_keccak_count(on as c_int) }
}

/// Permutation calls counted so far: (implementation, one-way calls, four-way calls).
pub fn counts() -> Vec<(&'static str, u64, u64)> {
    let mut c = [0u64; 6];
    unsafe { pqid_keccak_counts(c.as_mut_ptr()) };
    NAMES
        .iter()
        .enumerate()
        .map(|(i, n)| (*n, c[2 * i], c[2 * i + 1]))
        .collect()
}

pub fn shake256(input: &[u8], out: &mut [u8]) {
    unsafe { pqid_shake256(out.as_mut_ptr(), out.len(), input.as_ptr(), input.len()) }
}

/// SHAKE with `rate` on implementation `name`, absorbing and squeezing `chunk` bytes per call
/// (0: at once). None when `name` is not available.
pub fn shake_on(
    name: &str,
    rate: u32,
    input: &[u8],
    outlen: usize,
    chunk: usize,
) -> Option<Vec<u8>> {
    let i = id(name)?;
    let mut out = vec![0u8; outlen];
    let r = unsafe {
        pqid_keccak_shake_on(
            i,
            rate,
            out.as_mut_ptr(),
            outlen,
            input.as_ptr(),
            input.len(),
            chunk,
        )
    };
    (r == 0).then_some(out)
}

/// Four SHAKE instances over the four equal quarters of `input`, `nblocks` blocks each, one
/// after the other in the result.
pub fn shake_x4_on(name: &str, rate: u32, input: &[u8], nblocks: usize) -> Option<Vec<u8>> {
    let i = id(name)?;
    if !input.len().is_multiple_of(4) {
        return None;
    }
    let mut out = vec![0u8; 4 * nblocks * rate as usize];
    let r = unsafe {
        pqid_keccak_shake_x4_on(
            i,
            rate,
            out.as_mut_ptr(),
            nblocks,
            input.as_ptr(),
            input.len() / 4,
        )
    };
    (r == 0).then_some(out)
}
